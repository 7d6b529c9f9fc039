# A run whose coordinator is gone is aborted to every reader at once.
#
# A kill -9 of a client worker (the postmaster then restarts every
# process), a kill -9 of the coordinator and an immediate shutdown each end
# a run without its final row.  Right after the server is back, before any
# bench function has written anything, bench.runs shows it 'aborted' (its
# stored row in bench._runs says 'running'), it is no longer in
# bench.runs_in_progress, and bench.export_runs, bench.report, bench.export
# and bench.compare show it 'aborted', with the transactions, latencies
# and percentiles of its progress rows; the next bench call (bench.wait
# here) records it so, with its latency histogram merged from the progress
# rows.  No worker is left and a new run works.
#
# Needs the server's bin directory first in PATH and pgbenchkit installed
# into that server.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);

my $node = PostgreSQL::Test::Cluster->new('state');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 32
autovacuum = off
# a backend killed with SIGKILL makes the postmaster restart every process
restart_after_crash = on
});
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE bk');
$node->safe_psql('bk', 'CREATE EXTENSION pgbenchkit CASCADE');
$node->safe_psql('bk', q{SELECT dataset_id FROM bench.init('tpcb', scale => 1)});

sub sql { return $node->safe_psql('bk', $_[0]); }

sub try_sql
{
	my ($query) = @_;
	my @r;
	return @r if eval { @r = $node->psql('bk', $query); 1 };
	return (1, '', $@);
}

# Poll SQL until it returns EXPECTED or SECONDS pass; true if it did.
sub poll
{
	my ($query, $expected, $seconds) = @_;
	my $deadline = time + $seconds;
	my $last = '';
	while (time < $deadline)
	{
		my ($ret, $out, $err) = try_sql($query);
		$last = "$out$err";
		return 1 if $ret == 0 && $out eq $expected;
		usleep(100_000);
	}
	diag "polling timed out after $seconds s: $query\nexpected: $expected\nlast: $last";
	return 0;
}

# A run started with bench.start that has measured a few intervals.
sub start_run
{
	my ($what) = @_;
	my $id = sql(q{SELECT bench.start('tpcb', clients => 2, duration => '10 min',
		progress => '1 s', warmup => '1 s', prewarm => false)});
	ok( poll(qq{SELECT count(*) >= 2 AND sum(transactions) > 0 FROM bench.progress
	             WHERE run_id = $id AND NOT in_warmup}, 't', 60),
		"$what: run $id has measured intervals");
	return $id;
}

# What every reader says of run ID once its coordinator is gone, before
# anything recorded it.
sub readers_say_aborted
{
	my ($what, $id) = @_;
	is(sql("SELECT status FROM bench._runs WHERE id = $id"), 'running',
		"$what: the stored row of run $id still says running (nothing was written)");
	is(sql("SELECT status || ' ' || sqlstate FROM bench.runs WHERE id = $id"), 'aborted 57P01',
		"$what: bench.runs shows it aborted");
	is(sql("SELECT bench._run_alive($id)"), 'f', "$what: its coordinator is not alive");
	is(sql("SELECT count(*) FROM bench.runs_in_progress"), '0',
		"$what: bench.runs_in_progress does not list it");
	my $progress = sql("SELECT sum(transactions) FROM bench.progress WHERE run_id = $id AND NOT in_warmup");
	is( sql(qq{SELECT status || ' ' || transactions || ' '
	                  || (latency_p50_ms <= latency_p90_ms AND latency_p90_ms <= latency_p99_ms
	                      AND latency_p99_ms <= latency_p999_ms AND latency_min_ms <= latency_p50_ms
	                      AND latency_avg_ms > 0 AND tps > 0)
	             FROM bench.export_runs WHERE id = $id}),
		"aborted $progress true",
		"$what: bench.export_runs shows it aborted with the $progress transactions of its progress rows and ordered percentiles");
	like(sql("SELECT bench.report($id)"),
		qr/status aborted\n.*\nerror: the run's coordinator ended before the run finished.*\nlatency percentiles: min [\d.]+ ms, p50 [\d.]+ ms/s,
		"$what: bench.report says aborted, with its percentiles");
	is(sql("SELECT bench.export($id)->'runs'->0->>'status'"), 'aborted', "$what: bench.export says aborted");
	return;
}

# After bench.wait: the row is written, with the histogram.
sub recorded_aborted
{
	my ($what, $id) = @_;
	is( sql("SELECT status || ' ' || sqlstate || ' ' || (coordinator_pid IS NULL) FROM bench.wait($id)"),
		'aborted 57P01 true', "$what: bench.wait records run $id as aborted");
	my ($transactions, $buckets, $counted) = split /\|/, sql(qq{
		SELECT r.transactions, count(h.*), sum(h.count)
		  FROM bench.runs r LEFT JOIN bench.histograms h ON h.run_id = r.id
		 WHERE r.id = $id GROUP BY r.transactions});
	ok($buckets > 0, "$what: its histogram has $buckets buckets");
	# an interval's histogram and count are read one after the other: they
	# may differ by the transactions in flight, at most one per client
	ok(abs($counted - $transactions) <= 2,
		"$what: the histogram counts $counted transactions, the run $transactions");
	is( sql(qq{SELECT latency_p99_ms = (SELECT latency_p99_ms FROM bench.export_runs WHERE id = $id)
	             FROM bench.runs WHERE id = $id}),
		't', "$what: the recorded p99 is the one the readers showed");
	ok(poll(q{SELECT count(*) FROM pg_stat_activity
	          WHERE backend_type IN ('pgbenchkit run', 'pgbenchkit client')}, '0', 30),
		"$what: no pgbenchkit worker is left");
	is( sql(q{SELECT status || ' ' || (transactions = 40)
	            FROM bench.run('tpcb', clients => 2, transactions => 20, progress => '0', prewarm => false)}),
		'done true', "$what: a new run works");
	return;
}

# ------------------------------------------------------------------ kill -9 of a client

my $done = sql(q{SELECT id FROM bench.run('tpcb', clients => 2, transactions => 50, progress => '0')});

{
	my $what = 'kill -9 of a client';
	my $id = start_run($what);
	my $client = sql(q{SELECT min(pid) FROM pg_stat_activity WHERE backend_type = 'pgbenchkit client'});
	kill 'KILL', $client;
	ok(poll(q{SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'pgbenchkit run'}, '0', 60),
		"$what: the server restarted every process");
	readers_say_aborted($what, $id);
	is( sql(qq{SELECT string_agg(metric || ' ' || a_value || ' ' || b_value, ',')
	             FROM bench.compare($done, $id) WHERE metric = 'status'}),
		'status done aborted', "$what: bench.compare shows it aborted");
	recorded_aborted($what, $id);
}

# ------------------------------------------------------------------ kill -9 of the coordinator

{
	my $what = 'kill -9 of the coordinator';
	my $id = start_run($what);
	my $coordinator = sql(q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'pgbenchkit run'});
	kill 'KILL', $coordinator;
	ok(poll(q{SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'pgbenchkit client'}, '0', 60),
		"$what: the server restarted every process");
	readers_say_aborted($what, $id);
	recorded_aborted($what, $id);
}

# ------------------------------------------------------------------ immediate shutdown

{
	my $what = 'immediate shutdown';
	my $id = start_run($what);
	$node->stop('immediate');
	$node->start;
	readers_say_aborted($what, $id);
	recorded_aborted($what, $id);
}

$node->stop;
done_testing();
