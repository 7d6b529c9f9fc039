# One run over two drivers: two pgbenchkit databases (nodes 1 and 2) run
# tpcb against one target, a fourth cluster without pgbenchkit, each a
# part of the distributed run "fleet-1", given the same instant (at =>).
# Their rows reach a central pgbenchkit database by logical replication,
# where bench.distributed_runs merges the parts. Checked: the parts start
# at the instant, not before; the transactions they counted committed are
# the growth of the target's pgbench_history; on the central database the
# merged transactions are the parts' sum, the merged percentiles are those
# of the sum of the parts' histograms, recomputed here by hand, the
# measured time runs from the instant to the last counted commit of either
# part, and the per-second progress adds up to the whole. Then a sweep
# on both drivers, each of its runs a distributed run; last, the order of
# a fleet's updates, with a column added as an update adds one.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::RealBin/lib";
use List::Util qw(max min sum);
use POSIX qw(ceil);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(sleep);

use BenchTarget qw(scram_target add_targets);
use BenchFleet qw(logical_nodes);

my ($d1, $d2, $c) = logical_nodes(qw(driver1 driver2 central));
if ($d1->safe_psql('bk', 'SHOW server_version_num') < 150000)
{
	plan skip_all => 'a fleet publishes with column lists and row filters: PostgreSQL 15 or later';
}

# the target: a SCRAM password, no pgbenchkit
my $password = 'distributed-secret-37';
my $t = scram_target({ max_connections => 40 }, $password, 'shop');
add_targets($_, $t, $password, 'shop', 'shop') foreach ($d1, $d2);
$d1->safe_psql('bk', "SELECT dataset_id FROM bench.init('tpcb', scale => 1, target => 'shop')");

$d1->safe_psql('bk', "SELECT bench.set_node('aws-1', 1)");
$d2->safe_psql('bk', "SELECT bench.set_node('gcp-1', 2)");
$c->safe_psql('bk', "SELECT bench.set_node('central', 9)");
$_->safe_psql('bk', 'SELECT bench.publish()') foreach ($d1, $d2);
for my $d ($d1, $d2)
{
	my $conn = 'port=' . $d->port . ' host=' . $d->host . ' dbname=bk';
	$c->safe_psql('bk', "CREATE SUBSCRIPTION " . $d->name . " CONNECTION '$conn' PUBLICATION pgbenchkit");
}

# ---------------------------------------------------------------- the run

my ($ret, $out, $err) = $d1->psql('bk', q{SELECT bench.start('tpcb', target => 'shop', check_query => 'SELECT 1',
	at => now() + interval '1 min', part_of => 'x')});
like($err, qr/check_query cannot check a part of a distributed run/, 'a part with a check_query: refused');

my $history = "SELECT count(*) FROM pgbench_history";
my $before = $t->safe_psql('shop', $history);
# an instant ahead, the same for both (the clocks of one machine)
my $at = $t->safe_psql('postgres', "SELECT date_trunc('second', now()) + interval '15 s'");
my %part;
for my $d ($d1, $d2)
{
	# driver 2's part reconnects: a part gets no check_query by default
	my $reconnect = $d == $d2 ? ", on_disconnect => 'reconnect'" : '';
	$part{ $d->name } = $d->safe_psql('bk', qq{
		SELECT bench.start('tpcb', target => 'shop', clients => 2, duration => '3 s', warmup => '1 s',
		                   progress => '1 s', at => '$at', part_of => 'fleet-1'$reconnect)});
	is($d->safe_psql('bk', "SELECT status || ', ' || (started_at = start_at - warmup) || ', ' || (start_at = '$at')
	                          FROM bench.runs WHERE id = $part{ $d->name }"),
		'running, true, true', $d->name . ': bench.start returned before the instant, the planned start in the row');
}
for my $d ($d1, $d2)
{
	my $id = $part{ $d->name };
	$d->poll_query_until('bk', "SELECT status <> 'running' FROM bench.runs WHERE id = $id")
	  or die "the part on " . $d->name . " did not end";
	is($d->safe_psql('bk', "SELECT status || ', ' || (started_at >= start_at - warmup) || ', ' || part_of
	                          FROM bench.runs WHERE id = $id"),
		'done, true, fleet-1', $d->name . ': done, its clients went at the instant minus the warm-up, not before');
}
is($d2->safe_psql('bk', "SELECT coalesce(check_query, 'none') || ', ' || on_disconnect FROM bench.runs WHERE id = $part{driver2}"),
	'none, reconnect', 'a part that reconnects checks no count of the target by default (it grows with every part)');
my $grown = $t->safe_psql('shop', $history) - $before;
my $counted = sum(map {
	$_->safe_psql('bk', "SELECT transactions + warmup_transactions FROM bench.runs WHERE id = $part{ $_->name }")
} ($d1, $d2));
is($counted, $grown, "the parts counted committed what the target's pgbench_history grew by ($grown)");

# ---------------------------------------------------------------- the central database

$c->poll_query_until('bk', q{SELECT count(*) = 0 FROM pg_subscription_rel WHERE srsubstate NOT IN ('r', 's')})
  or die 'the tables were not copied';
$_->wait_for_catchup($_->name) foreach ($d1, $d2);
my $ids = join(',', values %part);
for my $table (qw(_runs progress histograms))
{
	my $key = $table eq '_runs' ? 'id' : 'run_id';
	my $cols = $table eq '_runs' ? 'status, transactions, measured_s, latency_p99_ms, start_at, part_of'
	  : $table eq 'progress' ? 'interval_start, transactions, histogram_count' : 'lower_ms, count';
	for my $d ($d1, $d2)
	{
		my $q = "SELECT count(*) || ' rows, md5 ' || md5(string_agg(x::text, '|' ORDER BY x::text))
		           FROM (SELECT $key, $cols FROM bench.$table WHERE $key = $part{ $d->name }) x";
		my $there = $d->safe_psql('bk', $q);
		is($c->safe_psql('bk', $q), $there, "central: the part's $table as on " . $d->name . " ($there)");
	}
}

my %d = split /\|/, $c->safe_psql('bk', q{
	SELECT 'parts|' || parts || '|nodes|' || array_to_string(nodes, ',') || '|status|' || status
	    || '|transactions|' || transactions || '|warmup|' || warmup_transactions
	    || '|measured_s|' || measured_s || '|p50|' || latency_p50_ms || '|p90|' || latency_p90_ms
	    || '|p99|' || latency_p99_ms || '|p999|' || latency_p999_ms || '|max|' || latency_max_ms
	    || '|clients|' || clients || '|spread|' || start_spread_ms
	  FROM bench.distributed_runs('fleet-1')});
is("$d{parts} $d{nodes} $d{status} $d{clients}", '2 aws-1,gcp-1 done 4', 'central: one distributed run of two parts, both nodes, done');
my %r = map { my ($id, $tx, $wu) = split /\|/; ($id => [ $tx, $wu ]) }
  split /\n/, $c->safe_psql('bk', "SELECT id || '|' || transactions || '|' || warmup_transactions FROM bench.runs WHERE id IN ($ids)");
is($d{transactions}, sum(map { $_->[0] } values %r), "merged transactions: the parts' sum ($d{transactions})");
is($d{transactions} + $d{warmup}, $grown, "... with the warm-up's, the target's pgbench_history growth");

# the percentiles, by hand: the sum of the two histograms, the midpoint of
# the bucket holding the rank, within the parts' minimum and maximum
my @buckets = map { [ split /\|/ ] } split /\n/, $c->safe_psql('bk', qq{
	SELECT lower_ms || '|' || upper_ms || '|' || sum(count) FROM bench.histograms
	 WHERE run_id IN ($ids) GROUP BY lower_ms, upper_ms ORDER BY lower_ms});
my ($lo, $hi) = split /\|/, $c->safe_psql('bk', "SELECT min(latency_min_ms) || '|' || max(latency_max_ms) FROM bench.runs WHERE id IN ($ids)");
my $total = sum(map { $_->[2] } @buckets);
is($total, $d{transactions}, 'the summed histogram holds every merged transaction');
for my $q ([ 'p50', 0.50 ], [ 'p90', 0.90 ], [ 'p99', 0.99 ], [ 'p999', 0.999 ])
{
	my ($name, $f) = @$q;
	my $rank = max(1, ceil($total * $f));
	my ($seen, $v) = (0, undef);
	for my $b (@buckets)
	{
		$seen += $b->[2];
		if ($seen >= $rank) { $v = ($b->[0] + $b->[1]) / 2; last; }
	}
	$v = max(min($v, $hi), $lo);
	ok(abs($d{$name} - $v) < 1e-9, "merged $name ($d{$name} ms) is the summed histograms' ($v ms)");
}
is($d{max}, $hi, "merged max: the parts' largest");
my $late = $c->safe_psql('bk', "SELECT round(1000000 * extract(epoch FROM max(started_at + warmup - start_at)))::text FROM bench.runs WHERE id IN ($ids)");
note("the parts' measured parts started $d{spread} ms apart, the later $late us after the instant");

# measured from the instant to the last counted commit of either part
my $measured = $c->safe_psql('bk', qq{
	SELECT extract(epoch FROM max(started_at + warmup + measured_s * interval '1 s') - min(start_at))
	  FROM bench.runs WHERE id IN ($ids)});
ok(abs($d{measured_s} - $measured) < 1e-6, "merged measured time: from the instant to the last commit ($d{measured_s} s)");

# per second, by offset from the instant: the measured seconds add up
my ($prog_tx, $warm_ok, $two) = split /\|/, $c->safe_psql('bk', q{
	SELECT sum(transactions) FILTER (WHERE NOT in_warmup) || '|' || bool_and(in_warmup = (offset_s < 0))
	    || '|' || bool_and(parts = 2) FILTER (WHERE offset_s BETWEEN -1 AND 1)
	  FROM bench.distributed_progress('fleet-1')});
is($prog_tx, $d{transactions}, 'the progress by second adds up to the merged transactions');
is("$warm_ok $two", 'true true', '... the warm-up before the instant, both parts in each of the first seconds');

my $report = $c->safe_psql('bk', "SELECT bench.report_distributed('fleet-1')");
like($report, qr/^distributed run: fleet-1 \(2 parts, done\)$/m, 'the report names the distributed run');
like($report, qr/^part 1: run \d+ on node aws-1 .* target shop, 2 clients/m, '... the part of node aws-1');
like($report, qr/^part 2: run \d+ on node gcp-1 .* target shop, 2 clients/m, '... and of node gcp-1');
like($report, qr/^number of transactions actually processed: $d{transactions}$/m, '... and the merged transactions');
unlike($report, qr/\Q$password\E/, '... and no password');

# ---------------------------------------------------------------- a sweep over both drivers

# run k of each driver's sweep at at + k * every: each a distributed run
# of two parts, "fleet-sweep/k+1"
$before = $t->safe_psql('shop', $history);
$at = $t->safe_psql('postgres', "SELECT date_trunc('second', now()) + interval '12 s'");
my %suite;
for my $d ($d1, $d2)
{
	$suite{ $d->name } = $d->safe_psql('bk', qq{
		SELECT bench.start_sweep('tpcb', target => 'shop', clients => '{1,2}', repeat => 1,
		                         duration => '2 s', progress => '1 s', every => '10 s',
		                         at => '$at', part_of => 'fleet-sweep')});
}
for my $d ($d1, $d2)
{
	$d->poll_query_until('bk', "SELECT status <> 'running' FROM bench.suites WHERE id = $suite{ $d->name }")
	  or die "the sweep on " . $d->name . " did not end";
	is($d->safe_psql('bk', "SELECT string_agg(part_of || ' ' || clients || ' ' || status || ' '
	                          || extract(epoch FROM start_at - '$at')::integer, ', ' ORDER BY id)
	                          FROM bench.runs WHERE suite_id = $suite{ $d->name }"),
		'fleet-sweep/1 1 done 0, fleet-sweep/2 2 done 10', $d->name . ': the sweep\'s runs at at and at + every');
}
my $sweep_grown = $t->safe_psql('shop', $history) - $before;
$_->wait_for_catchup($_->name) foreach ($d1, $d2);
is($c->safe_psql('bk', q{
	SELECT string_agg(part_of || ' ' || parts || ' ' || array_to_string(nodes, ',') || ' ' || clients || ' ' || status,
	                  ', ' ORDER BY part_of)
	  FROM bench.distributed_runs() WHERE part_of LIKE 'fleet-sweep/%'}),
	'fleet-sweep/1 2 aws-1,gcp-1 2 done, fleet-sweep/2 2 aws-1,gcp-1 4 done',
	'central: each run of the sweeps is a distributed run of the two drivers\' parts');
is($c->safe_psql('bk', q{
	SELECT sum(transactions + warmup_transactions) FROM bench.distributed_runs() WHERE part_of LIKE 'fleet-sweep/%'}),
	$sweep_grown, "... and they counted committed what pgbench_history grew by ($sweep_grown)");

# ---------------------------------------------------------------- the order of updates

# a column added as ALTER EXTENSION pgbenchkit UPDATE adds one. In order
# (the central database, then the driver, then bench.publish again on the
# driver) the rows keep arriving, the new column with them once published
my $quick = q{SELECT id FROM bench.run(script => 'SELECT 1', transactions => 5, progress => '0', prewarm => false)};
$c->safe_psql('bk', 'ALTER TABLE bench._runs ADD COLUMN update_probe text');
$d1->safe_psql('bk', "ALTER TABLE bench._runs ADD COLUMN update_probe text;"
	. " ALTER TABLE bench._runs ALTER COLUMN update_probe SET DEFAULT 'from aws-1'");
my $before_publish = $d1->safe_psql('bk', $quick);
$d1->wait_for_catchup('driver1');
is($c->safe_psql('bk', "SELECT coalesce(update_probe, 'null') FROM bench._runs WHERE id = $before_publish"), 'null',
	'in order: a run of an updated driver arrives, without the column its publication does not carry yet');
is($d1->safe_psql('bk', 'SELECT bench.publish()'), 'pgbenchkit', 'bench.publish again brings the publication to the new columns');
my $after_publish = $d1->safe_psql('bk', $quick);
$d1->wait_for_catchup('driver1');
is($c->safe_psql('bk', "SELECT update_probe FROM bench._runs WHERE id = $after_publish"), 'from aws-1',
	'... and the next run arrives with it');

# the other order: a driver publishing a column the central database does
# not have stops the flow, losing nothing; updating the central database
# lets it go on
$d2->safe_psql('bk', "ALTER TABLE bench._runs ADD COLUMN update_probe text;"
	. " ALTER TABLE bench._runs ALTER COLUMN update_probe SET DEFAULT 'from gcp-1'");
$d2->safe_psql('bk', 'SELECT bench.publish()');
$c->safe_psql('bk', 'ALTER TABLE bench._runs DROP COLUMN update_probe');
my $stalled = $d2->safe_psql('bk', $quick);
$c->poll_query_until('bk', q{SELECT apply_error_count > 0 FROM pg_stat_subscription_stats WHERE subname = 'driver2'})
  or die 'the apply worker did not fail';
is($c->safe_psql('bk', "SELECT count(*) FROM bench._runs WHERE id = $stalled"), '0',
	'out of order: the central database does not apply a row with a column it lacks');
$c->safe_psql('bk', 'ALTER TABLE bench._runs ADD COLUMN update_probe text');
$d2->wait_for_catchup('driver2');
is($c->safe_psql('bk', "SELECT update_probe FROM bench._runs WHERE id = $stalled"), 'from gcp-1',
	'... once it is updated, the row arrives');
for my $pair ([ $d1, 1 ], [ $d2, 2 ])
{
	my ($d, $number) = @$pair;
	my $q = "SELECT count(*) || ' runs, md5 ' || md5(string_agg(id || ':' || status || ':' || coalesce(transactions, -1), ',' ORDER BY id))
	           FROM bench._runs WHERE id >> 40 = $number";
	my $there = $d->safe_psql('bk', $q);
	is($c->safe_psql('bk', $q), $there, "... and node ${number}'s runs are all there, none doubled ($there)");
}

$_->stop foreach ($c, $d1, $d2, $t);
done_testing();
