# on_disconnect => 'reconnect': a run against a target that restarts goes
# on, each client reconnecting, and measures the outage; with a two-host
# connection string, a run goes on against a standby promoted while the
# primary is down; a run whose target never comes back fails with 08006
# and its outage open; the option's bad inputs.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::RealBin/lib";
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time sleep);

use BenchTarget qw(driver_and_target add_targets);

my $password = 'outage-secret-35';
my ($node, $remote) = driver_and_target({ allows_streaming => 1 }, $password, 'shop');
add_targets($node, $remote, $password, 'shop', 'shop');
$node->safe_psql('bk', "SELECT dataset_id FROM bench.init('tpcb', scale => 1, target => 'shop')");

# ---------------------------------------------------------------- bad input

my ($ret, $out, $err) = $node->psql('bk',
	"SELECT bench.run('tpcb', duration => '1 s', on_disconnect => 'reconnect')");
like($err, qr/on_disconnect => 'reconnect' needs a target/, 'in-server clients: reconnect is refused');
like($err, qr/a restart of this server ends the run/, '... and the detail says why');
($ret, $out, $err) = $node->psql('bk',
	"SELECT bench.run('tpcb', transactions => 10, target => 'shop', on_disconnect => 'reconnect')");
like($err, qr/on_disconnect => 'reconnect' needs a duration/, 'a number of transactions: refused');
($ret, $out, $err) = $node->psql('bk',
	"SELECT bench.run('tpcb', duration => '1 s', target => 'shop', on_disconnect => 'retry')");
like($err, qr/unknown on_disconnect "retry"/, 'an unknown on_disconnect is refused');
like($err, qr/"reconnect" \(the client reconnects and goes on\)/, '... and the hint names reconnect');
is($node->safe_psql('bk', 'SELECT count(*) FROM bench.runs'), '0', 'nothing was recorded');

# ---------------------------------------------------------------- helpers

# wait until run ID has committed transactions (or ended), then return
sub wait_transactions
{
	my ($id) = @_;
	for (1 .. 600)
	{
		my $n = $node->safe_psql('bk',
			"SELECT coalesce(sum(transactions), 0) FROM bench.progress WHERE run_id = $id");
		my $status = $node->safe_psql('bk', "SELECT status FROM bench.runs WHERE id = $id");
		return if $n > 0 || $status ne 'running';
		sleep 0.1;
	}
	die "run $id made no progress";
}

# wait until run ID has ended; its row as a hash
sub wait_end
{
	my ($id) = @_;
	for (1 .. 1200)
	{
		last if $node->safe_psql('bk', "SELECT status FROM bench.runs WHERE id = $id") ne 'running';
		sleep 0.1;
	}
	my @cols = qw(status sqlstate error on_disconnect transactions failures reconnects outages
	  outages_open downtime_median_ms downtime_max_ms detection_max_ms);
	my @vals = split /\|/,
	  $node->safe_psql('bk', 'SELECT ' . join(', ', map { "coalesce(${_}::text, '')" } @cols)
		  . " FROM bench.runs WHERE id = $id"), -1;
	my %r;
	@r{@cols} = @vals;
	return \%r;
}

# ------------------------------------------- the target restarted mid-run

my $clients = 8;
my $id = $node->safe_psql('bk', qq{
	SELECT bench.start('tpcb', clients => $clients, duration => '10 s', target => 'shop',
	                   on_disconnect => 'reconnect', progress => '1 s', prewarm => false)});
wait_transactions($id);
# the target is down at least from the end of its stop to the start of its
# start: the second between is an outage every client must see whole
my $t0 = time;
$remote->stop('fast');
sleep 1;
my $t1 = time;
$remote->start;
my $t2 = time;
my $r = wait_end($id);

note(sprintf('restart: target down %.0f ms surely, %.0f ms at most; downtime median %s ms, max %s ms, detection max %s ms, %s reconnects, %s failures',
	($t1 - $t0) * 1000, ($t2 - $t0) * 1000, map { $r->{$_} } qw(downtime_median_ms downtime_max_ms detection_max_ms reconnects failures)));
is($r->{status}, 'done', 'the run went on through the restart and ended done')
  or diag("$r->{sqlstate}: $r->{error}");
is($r->{on_disconnect}, 'reconnect', 'bench.runs records on_disconnect');
cmp_ok($r->{reconnects}, '>=', $clients, 'every client reconnected');
is($r->{outages}, $clients, 'one outage per client');
is($r->{outages_open}, '0', 'none still open');
cmp_ok($r->{failures}, '>=', $clients, 'each client lost the transaction in flight');
cmp_ok($r->{downtime_median_ms}, '>=', ($t1 - $t0) * 1000 - 1,
	'each client was down at least while the target surely was');
cmp_ok($r->{downtime_max_ms}, '>=', $r->{downtime_median_ms}, 'the longest downtime is no shorter');
# the outage the test saw (from before the stop to after the start), plus
# the backoff's cap (1 s) and room for a first transaction on a busy machine
cmp_ok($r->{downtime_max_ms}, '<=', ($t2 - $t0) * 1000 + 1000 + 5000,
	'no client was down much longer than the target');
cmp_ok($r->{detection_max_ms}, '>=', 0, 'the detection time is recorded');
cmp_ok($r->{detection_max_ms}, '<=', $r->{downtime_max_ms}, '... within the downtime');

# the hole, second by second: the intervals with the lost connections and
# the new ones add up to the run's
my ($lost, $again, $holes) = split /\|/, $node->safe_psql('bk', qq{
	SELECT sum(connection_failures), sum(reconnects), count(*) FILTER (WHERE reconnects > 0)
	  FROM bench.progress WHERE run_id = $id});
cmp_ok($lost, '>=', $clients, 'progress: every client\'s lost transaction in the interval it failed');
cmp_ok($lost, '<=', $r->{failures}, '... counted among the failures');
is($again, $r->{reconnects}, 'progress: the intervals\' reconnects add up to the run\'s');
cmp_ok($holes, '>=', 1, '... in the intervals after the restart');

# every transaction counted as committed is there; the ones lost in flight
# may or may not be (their COMMIT's answer was lost with the connection)
my $history = $remote->safe_psql('shop', 'SELECT count(*) FROM pgbench_history');
cmp_ok($history, '>=', $r->{transactions}, 'every committed transaction is in pgbench_history');
cmp_ok($history, '<=', $r->{transactions} + $r->{failures},
	'... and no more than those and the ones lost in flight');

# ------------------------- a standby promoted, the connection string's second host

$remote->backup('before_failover');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($remote, 'before_failover', has_streaming => 1);
$standby->start;
$remote->wait_for_catchup($standby);
my ($h1, $p1, $h2, $p2) = ($remote->host, $remote->port, $standby->host, $standby->port);
$node->safe_psql('bk', qq{
	SET log_statement = 'none';
	SELECT name FROM bench.add_target('ha', 'host=$h1,$h2 port=$p1,$p2 dbname=shop target_session_attrs=read-write',
	                                  password => '$password', "user" => 'bench_remote')});
$remote->safe_psql('shop', 'TRUNCATE pgbench_history');
$remote->wait_for_catchup($standby);
$id = $node->safe_psql('bk', qq{
	SELECT bench.start('tpcb', clients => 4, duration => '8 s', target => 'ha',
	                   on_disconnect => 'reconnect', progress => '1 s', prewarm => false)});
wait_transactions($id);
$remote->stop('fast');
$standby->promote;
$r = wait_end($id);
is($r->{status}, 'done', 'the run went on against the promoted standby')
  or diag("$r->{sqlstate}: $r->{error}");
cmp_ok($r->{reconnects}, '>=', 4, 'every client reconnected, to the new primary');
is($r->{outages_open}, '0', 'no outage left open');
is($standby->safe_psql('shop', 'SELECT pg_is_in_recovery()'), 'f', 'the standby is the primary now');
# what committed before the stop had been streamed (a fast stop sends it
# all); what committed after went to the new primary
my $rows = $standby->safe_psql('shop', 'SELECT count(*) FROM pgbench_history');
cmp_ok($rows, '>=', $r->{transactions}, 'every committed transaction is on the new primary');
cmp_ok($rows, '<=', $r->{transactions} + $r->{failures}, '... and no more than those and the ones lost in flight');
$standby->stop;
$remote->start;

# ------------------------- a server that lets the clients in and fails their writes

# a read-only server (a primary turned standby, 25006) does not make the
# clients hammer it: each new connection that fails before a success waits
# the doubled wait, up to the longest (1 s); with every wait at its
# shortest (half its bound: 5, 10, 20, ... 320 ms, then 0.5 s) a client
# makes at most 14 in 4 s, so 4 clients a few dozen (without the doubling,
# thousands)
$remote->safe_psql('postgres', 'ALTER SYSTEM SET default_transaction_read_only = on; SELECT pg_reload_conf()');
$id = $node->safe_psql('bk', qq{
	SELECT bench.start('tpcb', clients => 4, duration => '4 s', target => 'shop',
	                   on_disconnect => 'reconnect', progress => '1 s', prewarm => false)});
$r = wait_end($id);
note("read-only: $r->{reconnects} reconnects, $r->{failures} failures");
is($r->{status}, 'failed', 'a server that fails every write: the run fails');
is($r->{sqlstate}, '08006', '... with 08006, its outages open');
cmp_ok($r->{reconnects}, '>=', 4, 'the clients tried again');
cmp_ok($r->{reconnects}, '<=', 4 * 16, '... no more often than the doubling waits allow');
$remote->safe_psql('postgres', 'ALTER SYSTEM RESET default_transaction_read_only; SELECT pg_reload_conf()');

# ------------------------------------------- the target gone for good

$remote->safe_psql('shop', 'TRUNCATE pgbench_history');
$id = $node->safe_psql('bk', qq{
	SELECT bench.start('tpcb', clients => 4, duration => '4 s', target => 'shop',
	                   on_disconnect => 'reconnect', progress => '1 s', prewarm => false)});
wait_transactions($id);
$remote->stop('fast');
$r = wait_end($id);
is($r->{status}, 'failed', 'a target that never came back fails the run');
is($r->{sqlstate}, '08006', '... with 08006');
like($r->{error}, qr/had not come back when the run ended: 4 of 4 clients/, '... saying so');
is($r->{outages_open}, '4', 'the outages are recorded as still open');
cmp_ok($r->{downtime_max_ms}, '>', 0, '... counted until the run ended');
$remote->start;

done_testing();
