# on_disconnect => 'reconnect': a run against a target that restarts goes
# on, each client reconnecting, and measures the outage; with a two-host
# connection string, a run goes on against a standby promoted while the
# primary is down; what committed checked against pgbench_history, and
# the commits an asynchronous standby lacked after a failover reported by
# count; a target whose processes stop (SIGSTOP) found out within
# response_timeout; a connection refused by pg_hba.conf; 200 clients
# through a restart and through a promotion; a run whose target never
# comes back fails with 08006 and its outage open; the options' bad
# inputs.
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
($ret, $out, $err) = $node->psql('bk',
	"SELECT bench.run('tpcb', duration => '1 s', check_query => 'SELECT 1')");
like($err, qr/check_query needs a target/, 'in-server clients: check_query is refused');
($ret, $out, $err) = $node->psql('bk',
	"SELECT bench.run('tpcb', duration => '1 s', target => 'shop', check_query => '  ')");
like($err, qr/check_query must not be empty/, 'an empty check_query is refused');
($ret, $out, $err) = $node->psql('bk',
	"SELECT bench.run('tpcb', duration => '1 s', response_timeout => '5 s')");
like($err, qr/response_timeout needs a target/, 'in-server clients: response_timeout is refused');
($ret, $out, $err) = $node->psql('bk',
	"SELECT bench.run('tpcb', duration => '1 s', target => 'shop', response_timeout => '0')");
like($err, qr/response_timeout must be from 1 ms to 1 day, not 00:00:00/, 'a response_timeout of 0 is refused');
($ret, $out, $err) = $node->psql('bk',
	"SELECT bench.run('tpcb', duration => '1 s', target => 'shop', check_query => 'SELECT ''x''')");
like($err, qr/check_query failed on target "shop" before the run: its value "x" is not an integer/,
	'a check_query of no integer fails the run before it starts');
($ret, $out, $err) = $node->psql('bk',
	"SELECT bench.run('tpcb', duration => '1 s', target => 'shop', check_query => 'SELECT * FROM no_such_table')");
like($err, qr/check_query failed on target "shop" before the run: the target answered: ERROR:  relation "no_such_table" does not exist/,
	'a check_query the target refuses fails the run before it starts');
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
	  outages_open downtime_median_ms downtime_max_ms detection_max_ms unknown_outcome
	  outage_started outage_ended recovery_ms check_query check_before check_after
	  committed_missing unknown_committed warmup_transactions);
	my @vals = split /\|/,
	  $node->safe_psql('bk', 'SELECT ' . join(', ', map { "coalesce(${_}::text, '')" } @cols)
		  . " FROM bench.runs WHERE id = $id"), -1;
	my %r;
	@r{@cols} = @vals;
	return \%r;
}

# what the run found of what committed (check_query, by default the count
# of pgbench_history with tpcb), against the rows the target has: ROWS
# after the run
sub check_committed
{
	my ($r, $rows, $what) = @_;
	my $counted = $r->{transactions} + $r->{warmup_transactions};
	is($r->{check_query}, 'SELECT pg_catalog.count(*) FROM pgbench_history', "$what: tpcb checks pgbench_history");
	is($r->{check_after}, $rows, "$what: the check read the rows the target has");
	is($r->{committed_missing}, '0', "$what: no committed transaction is missing");
	# what committed is exactly what was counted and the unknown ones that did
	is($r->{check_after} - $r->{check_before}, $counted + $r->{unknown_committed},
		"$what: the rows added are the counted commits and the unknown ones that committed");
	cmp_ok($r->{unknown_committed}, '<=', $r->{unknown_outcome}, "$what: ... of those of unknown outcome");
	cmp_ok($r->{unknown_outcome}, '<=', $r->{failures}, "$what: unknown outcomes are among the failures");
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
# every outage closed before the run's end (none open, the run done): no
# downtime is longer than the run (no bound of time: a busy machine may
# take long to reconnect, and the run says so)
cmp_ok($r->{downtime_max_ms}, '<=', 10000, 'no downtime is longer than the run');
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
check_committed($r, $history, 'restart');

# each client's outage, a row of bench.outages
my ($nout, $sum_out, $max_down, $committed, $unknown, $open, $attempts) = split /\|/, $node->safe_psql('bk', qq{
	SELECT count(*), sum(outages), max(downtime_ms), sum(committed), sum(unknown_outcome),
	       count(*) FILTER (WHERE open), sum(reconnect_attempts)
	  FROM bench.outages WHERE run_id = $id});
is($nout, $clients, 'bench.outages: a row per client');
is($sum_out, $r->{outages}, '... their outages add up to the run\'s');
is($max_down, $r->{downtime_max_ms}, '... the longest downtime is the run\'s');
is($committed, $r->{transactions} + $r->{warmup_transactions}, '... and so do their committed transactions');
is($unknown, $r->{unknown_outcome}, '... and their transactions of unknown outcome');
is($open, '0', '... none open');
cmp_ok($attempts, '>=', $r->{reconnects}, '... each reconnect an attempt');
is($node->safe_psql('bk', qq{
	SELECT count(*) FROM bench.outages o JOIN bench.runs r ON r.id = o.run_id
	 WHERE o.run_id = $id AND o.outage_started >= r.outage_started AND o.outage_ended <= r.outage_ended
	   AND o.first_failure >= o.outage_started AND o.first_failure <= o.outage_ended}), $clients,
	'... each within the run\'s outage, its failure within its own');
cmp_ok($r->{recovery_ms}, '>', 0, 'the time from the first lost connection to the first commit after it');
cmp_ok($r->{recovery_ms}, '<=', $r->{downtime_max_ms}, '... within the longest downtime');

# bench.report has a section for it; the chart marks the hole
my $report = $node->safe_psql('bk', "SELECT bench.report($id)");
like($report, qr/^outage \(on_disconnect => reconnect\):\n  $clients clients lost their connections: $clients outages, 0 still open/m,
	'bench.report: the outage section');
like($report, qr/check: SELECT pg_catalog.count\(\*\) FROM pgbench_history went from \d+ to $history for \d+ transactions counted committed: 0 missing/,
	'... and the check of what committed');
like($report, qr/counters not subtracted: the target restarted or failed over during the run/,
	'... and says why it subtracts no server counters');
# the server's counters across the restart are not one server's: marked,
# and not subtracted
is($node->safe_psql('bk', qq{
	SELECT unavailable ? 'counters' FROM bench.runs WHERE id = $id}), 't',
	'the run says its counters span a restart');
is($node->safe_psql('bk', "SELECT count(*) FROM bench.run_counters WHERE run_id = $id"), '0',
	'... and bench.run_counters does not subtract them');
is($node->safe_psql('bk', qq{
	SELECT count(DISTINCT server_started) FROM bench.sample_counters WHERE run_id = $id}), '2',
	'the samples name the server before the restart and the one after');
is($node->safe_psql('bk', qq{
	SELECT count(*) FROM bench.interval_counters i
	  JOIN bench.sample_counters c USING (run_id, sample_no)
	 WHERE i.run_id = $id AND c.server_started > (SELECT min(server_started) FROM bench.sample_counters WHERE run_id = $id)
	   AND c.sample_no = (SELECT min(sample_no) FROM bench.sample_counters x
	                       WHERE x.run_id = $id AND x.server_started = c.server_started)}), '0',
	'... and bench.interval_counters does not subtract across the restart');
cmp_ok($node->safe_psql('bk', qq{
	SELECT count(*) FROM bench.samples WHERE run_id = $id AND phase = 'during'
	   AND (data->>'server_started')::timestamptz > (SELECT (data->>'server_started')::timestamptz
	                                                   FROM bench.samples WHERE run_id = $id AND phase = 'before')}),
	'>', 0, 'the coordinator sampled the restarted target again while the clients ran');
my $chart = $node->safe_psql('bk', "SELECT bench.chart_run($id)");
like($chart, qr/<rect class="outage" [^>]+fill="#9467bd"/, 'bench.chart_run shades the outage');
like($chart, qr/outage [\d.]+ s, downtime median [\d.]+ s/, '... and labels it');

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
check_committed($r, $rows, 'promotion');
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

# ------------------------- a failover that loses commits, reported by count

# an asynchronous standby whose WAL receiver stops: what commits on the
# primary from then on never reaches it; the primary stopped hard, the
# standby promoted, the run goes on against it and finds the commits it
# counted that the new primary lacks
$remote->backup('before_loss');
my $standby2 = PostgreSQL::Test::Cluster->new('standby2');
$standby2->init_from_backup($remote, 'before_loss', has_streaming => 1);
$standby2->start;
$remote->safe_psql('shop', 'TRUNCATE pgbench_history');
$remote->wait_for_catchup($standby2);
my $p3 = $standby2->port;
$node->safe_psql('bk', qq{
	SET log_statement = 'none';
	SELECT name FROM bench.add_target('ha2', 'host=$h1,$h2 port=$p1,$p3 dbname=shop target_session_attrs=read-write',
	                                  password => '$password', "user" => 'bench_remote')});
$id = $node->safe_psql('bk', qq{
	SELECT bench.start('tpcb', clients => 4, duration => '8 s', target => 'ha2',
	                   on_disconnect => 'reconnect', progress => '1 s', prewarm => false)});
wait_transactions($id);
$standby2->safe_psql('postgres', "ALTER SYSTEM SET primary_conninfo = ''; SELECT pg_reload_conf()");
$standby2->poll_query_until('postgres', 'SELECT count(*) = 0 FROM pg_stat_wal_receiver')
  or die 'the WAL receiver did not stop';
my $split = $standby2->safe_psql('shop', 'SELECT count(*) FROM pgbench_history');
# commits the standby never receives
$remote->poll_query_until('shop', "SELECT count(*) > $split + 20 FROM pgbench_history")
  or die 'no commits after the split';
$remote->stop('immediate');
$standby2->promote;
$r = wait_end($id);
is($r->{status}, 'done', 'a failover that lost commits: the run went on against the new primary')
  or diag("$r->{sqlstate}: $r->{error}");
$remote->start;
my $old_rows = $remote->safe_psql('shop', 'SELECT count(*) FROM pgbench_history');
my $new_rows = $standby2->safe_psql('shop', 'SELECT count(*) FROM pgbench_history');
$standby2->stop;
my $truly_lost = $old_rows - $split;
note("lost in the failover: the old primary has $truly_lost rows the standby never got; the run reports $r->{committed_missing} missing, $r->{unknown_outcome} of unknown outcome");
is($r->{check_after}, $new_rows, 'the check read the new primary\'s rows');
cmp_ok($r->{committed_missing}, '>', 0, 'the committed transactions the new primary lacks are reported');
cmp_ok($r->{committed_missing}, '<=', $truly_lost,
	'... no more than the old primary committed after the standby stopped receiving');
cmp_ok($r->{committed_missing}, '>=', $truly_lost - $r->{unknown_outcome},
	'... and all of those the run had counted (the rest were of unknown outcome)');
like($node->safe_psql('bk', "SELECT bench.report($id)"), qr/for \d+ transactions counted committed: $r->{committed_missing} missing/,
	'bench.report says how many are missing');

# ------------------------- a target that stops answering (SIGSTOP)

# its processes stopped: no FIN, no RST, the kernel still acknowledges; only
# response_timeout finds it out, within it and long before the server
# comes back
$remote->safe_psql('shop', 'TRUNCATE pgbench_history');
$id = $node->safe_psql('bk', qq{
	SELECT bench.start('tpcb', clients => 4, duration => '12 s', target => 'shop',
	                   on_disconnect => 'reconnect', response_timeout => '1 s', progress => '1 s',
	                   prewarm => false)});
wait_transactions($id);
my $pm = (split /\n/, slurp_file($remote->data_dir . '/postmaster.pid'))[0];
my @procs = ($pm, split /\n/, `pgrep -P $pm`);
kill 'STOP', reverse @procs;
sleep 5;
kill 'CONT', @procs;
$r = wait_end($id);
note("SIGSTOP for 5 s: detection max $r->{detection_max_ms} ms, downtime max $r->{downtime_max_ms} ms, $r->{reconnects} reconnects");
is($r->{status}, 'done', 'a target stopped for a while: the run ended done')
  or diag("$r->{sqlstate}: $r->{error}");
is($r->{outages}, 4, 'every client had an outage');
cmp_ok($r->{detection_max_ms}, '>=', 1000, 'the loss was taken only after response_timeout without an answer');
# found before the target came back: once its processes go on, a statement
# in flight is answered and no outage is taken; so the outages above were
# found by response_timeout (no bound of time asserted: a busy machine may
# wake the client late, and the SIGCONT then only lengthens the outage)
is($node->safe_psql('bk', "SELECT string_agg(DISTINCT left(last_sqlstate, 2), ',') FROM bench.outages WHERE run_id = $id"),
	'08', 'the clients\' failures: connection exceptions');
is($node->safe_psql('bk', "SELECT response_timeout FROM bench.runs WHERE id = $id"), '00:00:01',
	'bench.runs records response_timeout');
check_committed($r, $remote->safe_psql('shop', 'SELECT count(*) FROM pgbench_history'), 'SIGSTOP');

# ------------------------- a connection refused by pg_hba.conf

# after a restart the target refuses the run's role: the clients try again
# with the doubling waits, not in a busy loop, and the run fails at its end
$id = $node->safe_psql('bk', qq{
	SELECT bench.start('tpcb', clients => 4, duration => '5 s', target => 'shop',
	                   on_disconnect => 'reconnect', progress => '1 s', prewarm => false)});
wait_transactions($id);
my $hba = slurp_file($remote->data_dir . '/pg_hba.conf');
open(my $fh, '>', $remote->data_dir . '/pg_hba.conf') or die;
print $fh "local all bench_remote reject\nhost all bench_remote 127.0.0.1/32 reject\nhost all bench_remote ::1/128 reject\n$hba";
close($fh);
$remote->restart;
$r = wait_end($id);
my ($states, $tries) = split /\|/, $node->safe_psql('bk',
	"SELECT string_agg(DISTINCT last_sqlstate, ','), sum(reconnect_attempts) FROM bench.outages WHERE run_id = $id");
note("refused by pg_hba.conf: $tries attempts by 4 clients");
is($r->{status}, 'failed', 'a target that refuses the role: the run fails');
is($r->{outages_open}, '4', '... its clients\' outages open');
# libpq gives a refused connection no SQLSTATE of the server's: 08001
is($states, '08001', 'bench.outages: the clients could not connect (08001)');
cmp_ok($tries, '>=', 4, 'the clients tried again');
cmp_ok($tries, '<=', 4 * 16, '... no more often than the doubling waits allow');
open($fh, '>', $remote->data_dir . '/pg_hba.conf') or die;
print $fh $hba;
close($fh);
$remote->reload;

# ------------------------- 200 clients through a restart

$remote->append_conf('postgresql.conf', "max_connections = 230\nshared_buffers = 32MB\n");
$remote->restart;
$remote->safe_psql('shop', 'TRUNCATE pgbench_history');
$id = $node->safe_psql('bk', qq{
	SELECT bench.start('tpcb', clients => 200, jobs => 4, duration => '12 s', target => 'shop',
	                   on_disconnect => 'reconnect', progress => '1 s', prewarm => false)});
wait_transactions($id);
$t0 = time;
$remote->stop('fast');
sleep 1;
$t1 = time;
$remote->start;
$t2 = time;
$r = wait_end($id);
note(sprintf('200 clients: target down %.0f ms surely, %.0f ms at most; downtime median %s ms, max %s ms, recovery %s ms',
	($t1 - $t0) * 1000, ($t2 - $t0) * 1000, map { $r->{$_} } qw(downtime_median_ms downtime_max_ms recovery_ms)));
is($r->{status}, 'done', '200 clients: the run went on through the restart')
  or diag("$r->{sqlstate}: $r->{error}");
is($r->{outages}, 200, '... one outage per client');
is($r->{outages_open}, '0', '... none open');
cmp_ok($r->{downtime_median_ms}, '>=', ($t1 - $t0) * 1000 - 1, '... each down at least while the target surely was');
check_committed($r, $remote->safe_psql('shop', 'SELECT count(*) FROM pgbench_history'), '200 clients');

# ------------------------- 200 clients through a promotion

$remote->backup('before_failover_200');
my $standby3 = PostgreSQL::Test::Cluster->new('standby3');
$standby3->init_from_backup($remote, 'before_failover_200', has_streaming => 1);
$standby3->start;
$remote->safe_psql('shop', 'TRUNCATE pgbench_history');
$remote->wait_for_catchup($standby3);
my $p4 = $standby3->port;
$node->safe_psql('bk', qq{
	SET log_statement = 'none';
	SELECT name FROM bench.add_target('ha3', 'host=$h1,$h2 port=$p1,$p4 dbname=shop target_session_attrs=read-write',
	                                  password => '$password', "user" => 'bench_remote')});
$id = $node->safe_psql('bk', qq{
	SELECT bench.start('tpcb', clients => 200, jobs => 4, duration => '12 s', target => 'ha3',
	                   on_disconnect => 'reconnect', progress => '1 s', prewarm => false)});
wait_transactions($id);
$t0 = time;
$remote->stop('fast');
$standby3->promote;
$t1 = time;
$r = wait_end($id);
note(sprintf('200 clients, promotion: stop and promote %.0f ms; downtime median %s ms, max %s ms, recovery %s ms',
	($t1 - $t0) * 1000, map { $r->{$_} } qw(downtime_median_ms downtime_max_ms recovery_ms)));
is($r->{status}, 'done', '200 clients: the run went on against the promoted standby')
  or diag("$r->{sqlstate}: $r->{error}");
is($r->{outages}, 200, '... one outage per client');
is($r->{outages_open}, '0', '... none open');
check_committed($r, $standby3->safe_psql('shop', 'SELECT count(*) FROM pgbench_history'), '200 clients, promotion');
$standby3->stop;
$remote->start;

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
