# Faults during a suite leave it with a true final status and keep the runs
# it finished:
#
#  - pg_terminate_backend of the suite's worker: the run in progress is
#    canceled, the suite becomes 'aborted' ("terminated");
#  - the session that called bench.sweep is terminated: the suite is
#    canceled, its run in progress too;
#  - kill -9 of the suite's worker (the server restarts): the next call of a
#    bench function marks the suite 'aborted'; its finished run stays 'done'.
#
# Needs the server's bin directory first in PATH and pgbenchkit installed
# into that server.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);

my $node = PostgreSQL::Test::Cluster->new('suites');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 32
autovacuum = off
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

# wait until the suite's run number N (1-based) is running
sub run_going
{
	my ($suite, $n, $what) = @_;
	ok( poll(qq{SELECT count(*) >= $n AND bool_or(status = 'running')
	              FROM bench.runs WHERE suite_id = $suite}, 't', 60),
		"$what: run $n of suite $suite is going");
	return sql(qq{SELECT max(id) FROM bench.runs WHERE suite_id = $suite});
}

sub workers_gone
{
	my ($what) = @_;
	ok( poll(q{SELECT count(*) FROM pg_stat_activity
	           WHERE backend_type IN ('pgbenchkit suite', 'pgbenchkit run', 'pgbenchkit client')},
			'0', 20),
		"$what: no pgbenchkit worker is left");
	return;
}

# ------------------------------------------------------------------ terminate the worker
{
	my $what = 'pg_terminate_backend of the suite\'s worker';
	my $suite = sql(q{SELECT bench.start_sweep('tpcb', clients => '{1}', repeat => 3,
	                  duration => '30 s', progress => '1 s')});
	my $run = run_going($suite, 1, $what);
	ok(poll(qq{SELECT count(*) > 0 FROM bench.progress WHERE run_id = $run}, 't', 20),
		"$what: the run has progress rows");
	is(sql(qq{SELECT pg_terminate_backend(worker_pid) FROM bench.suites WHERE id = $suite}), 't',
		"$what: signalled");
	ok(poll(qq{SELECT status FROM bench.suites WHERE id = $suite}, 'aborted', 20),
		"$what: the suite is aborted");
	is(sql(qq{SELECT sqlstate || ' ' || error, worker_pid IS NULL, ended_at IS NOT NULL
	          FROM bench.suites WHERE id = $suite}),
		q{57P01 the suite's worker was terminated|t|t}, "$what: it says why");
	is(sql(qq{SELECT status, transactions > 0 FROM bench.runs WHERE id = $run}), 'canceled|t',
		"$what: its run was canceled and keeps what it measured");
	is(sql(qq{SELECT count(*) FROM bench.runs WHERE suite_id = $suite}), '1',
		"$what: the runs not started never start");
	workers_gone($what);
}

# ------------------------------------------------------------------ terminate the caller
{
	my $what = 'the caller of bench.sweep is terminated';
	my $bg = $node->background_psql('bk', on_error_stop => 0);
	my $pid = $bg->query_safe('SELECT pg_backend_pid()');
	my $before = sql('SELECT coalesce(max(id), 0) FROM bench.suites');
	$bg->query_until(qr/starting\n/,
		"\\echo starting\nSELECT count(*) FROM bench.sweep('tpcb', clients => '{1,2}', repeat => 2, duration => '30 s');\n");
	ok(poll(qq{SELECT count(*) FROM bench.suites WHERE id > $before}, '1', 30), "$what: the suite exists");
	my $suite = sql(qq{SELECT max(id) FROM bench.suites});
	my $run = run_going($suite, 1, $what);
	is(sql(qq{SELECT pg_terminate_backend($pid)}), 't', "$what: terminated");
	ok(poll(qq{SELECT status FROM bench.suites WHERE id = $suite}, 'canceled', 20),
		"$what: the suite is canceled");
	is(sql(qq{SELECT status FROM bench.runs WHERE id = $run}), 'canceled', "$what: so is its run");
	eval { $bg->quit };
	workers_gone($what);
}

# ------------------------------------------------------------------ kill -9 of the worker
{
	my $what = 'kill -9 of the suite\'s worker';
	my $suite = sql(q{SELECT bench.start_sweep('tpcb', clients => '{1,2}', repeat => 1,
	                  duration => '2 s', progress => '0')});
	# the first run (2 s) ends; kill during the second
	my $run = run_going($suite, 2, $what);
	my $first = sql(qq{SELECT min(id) FROM bench.runs WHERE suite_id = $suite});
	my $wpid = sql(qq{SELECT worker_pid FROM bench.suites WHERE id = $suite});
	ok(kill('KILL', $wpid), "$what: killed $wpid");
	# the postmaster restarts every backend; wait until it accepts connections
	ok(poll('SELECT 1', '1', 60), "$what: the server is back");
	my ($ret, $out, $err) = $node->psql('bk',
		"SELECT clients, position, runs_planned, runs_done FROM bench.wait_suite($suite) WHERE clients = 1");
	like($err, qr/suite $suite ended aborted after 1 of 2 runs: the suite's worker ended before the suite finished/,
		"$what: bench.wait_suite says the suite was aborted");
	is($out, '1|1|1|1', "$what: and returns what it finished") or diag $out;
	is(sql(qq{SELECT status, sqlstate FROM bench.suites WHERE id = $suite}), 'aborted|57P01',
		"$what: the suite is aborted");
	is(sql(qq{SELECT status FROM bench.runs WHERE id = $first}), 'done', "$what: its finished run stays done");
	is(sql(qq{SELECT runs_done FROM bench.suite_summary WHERE suite_id = $suite AND clients = 1}), '1',
		"$what: and counts in the summary");
	workers_gone($what);
}

$node->stop;
done_testing();
