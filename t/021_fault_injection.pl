# Faults at every moment of a run, and of suites, each leaving a true final
# status, the committed results, nothing behind, and a server where a new
# run works.
#
# The matrix: kill -9 and pg_terminate_backend of a client worker and of
# the coordinator during the prewarm, the warm-up, the steady state and the
# final write of the results (the prewarm and the final write are reached
# with pgbenchkit.test_pause, which holds the coordinator there; by the
# final write the clients have exited, which the test checks); an
# immediate shutdown then a start; the caller's connection dropped; a
# statement_timeout of the caller; a client stuck on a row lock another
# session holds when the duration ends (the stuck statement is canceled,
# the run ends 'done' without waiting for the lock holder, the interrupted
# transaction is not counted).  Then kills of suites' workers and of runs'
# coordinators at random moments.  After each: the status, the counts
# against pgbench_history (one row per committed tpcb transaction), no
# pgbenchkit worker, no shared memory segment (files of pg_dynshmem), no
# advisory lock, and a new run.  After each kill -9 of a run's process or
# of a suite's worker, the first statement the restarted server answers, a
# plain read of bench.runs or bench.suites, shows the run or suite aborted
# (a run with the counts of its progress rows) before any bench function
# has recorded it, and the row recorded afterwards agrees.  What t/004 and t/020 check of the readers
# and of the caller's cancel is not repeated here.
#
# Needs the server's bin directory first in PATH and pgbenchkit installed
# into that server.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);

my $node = PostgreSQL::Test::Cluster->new('faults');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 32
autovacuum = off
# a backend killed with SIGKILL makes the postmaster restart every process
restart_after_crash = on
# segments as files in pg_dynshmem, so the test can count this server's own
dynamic_shared_memory_type = mmap
});
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE bk');
$node->safe_psql('bk', 'CREATE EXTENSION pgbenchkit CASCADE');
$node->safe_psql('bk', q{SELECT dataset_id FROM bench.init('tpcb', scale => 1)});

my $seed = $ENV{PGBENCHKIT_FAULT_SEED} // int(rand(1_000_000));
srand($seed);
note "random moments drawn with seed $seed (PGBENCHKIT_FAULT_SEED)";

# ------------------------------------------------------------------ helpers

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
		usleep(50_000);
	}
	diag "polling timed out after $seconds s: $query\nexpected: $expected\nlast: $last";
	return 0;
}

my $dynshmem = $node->data_dir . '/pg_dynshmem';
sub segments { my @s = glob("$dynshmem/mmap.*"); return scalar @s; }

# the segments of an idle server (the control segment of the mmap kind):
# once bench.init's workers are gone (the last may still be exiting, its
# segment still there, on a loaded machine), the fewest of a few counts
poll(q{SELECT count(*) FROM pg_stat_activity WHERE backend_type LIKE 'pgbenchkit%'}, '0', 60);
my $idle_segments = segments();
for (1 .. 10)
{
	usleep(100_000);
	my $n = segments();
	$idle_segments = $n if $n < $idle_segments;
}

my $workers = q{SELECT count(*) FROM pg_stat_activity
                 WHERE backend_type IN ('pgbenchkit run', 'pgbenchkit client', 'pgbenchkit suite')};

# the pid of a backend of TYPE ('pgbenchkit run', 'pgbenchkit client', ...)
sub pid_of
{
	my ($type) = @_;
	return sql(qq{SELECT min(pid) FROM pg_stat_activity WHERE backend_type = '$type'});
}

# the server is back after a crash (restart_after_crash) and answers
sub wait_restart
{
	my ($what) = @_;
	ok(poll('SELECT 1', '1', 120), "$what: the server is back");
	return;
}

# kill -9 of PID, then the restart the postmaster makes of every process
# (restart_after_crash), waited for in the log before the server is asked
# anything: a query sent before the postmaster notices the death is still
# answered, and the next one refused (the database system is in recovery).
# With FIRST, the first statement the restarted server answers is FIRST,
# and its output is returned.
sub kill9
{
	my ($pid, $what, $first) = @_;
	my $offset = -s $node->logfile;
	ok(kill('KILL', $pid), "$what: killed $pid");
	$node->wait_for_log(qr/all server processes terminated; reinitializing/, $offset);
	return first_answer($first, $what) if defined $first;
	wait_restart($what);
	return;
}

# the output of QUERY, the first statement the restarted server answers
sub first_answer
{
	my ($query, $what) = @_;
	my $deadline = time + 120;
	my ($ret, $out, $err) = (1, '', '');
	while (time < $deadline)
	{
		($ret, $out, $err) = try_sql($query);
		last if $ret == 0;
		usleep(100_000);
	}
	is($ret, 0, "$what: the server is back, and answers $query") or diag $err;
	return $out;
}

# Run ID, whose coordinator a crash ended: the first statement after the
# restart, a plain read of bench.runs (ANSWER: status, transactions,
# warm-up transactions), shows it aborted with the counts of its progress
# rows, while its stored row still says running: no bench function has
# recorded it yet.
sub read_aborted_at_once
{
	my ($what, $id, $answer) = @_;
	is( $answer, sql(qq{
			SELECT 'aborted|' || coalesce(sum(transactions) FILTER (WHERE NOT in_warmup)::text, '')
			       || '|' || coalesce(sum(transactions) FILTER (WHERE in_warmup)::text, '')
			  FROM bench.progress WHERE run_id = $id}),
		"$what: the first read of bench.runs after the restart shows run $id aborted, with the counts of its progress rows");
	is(sql("SELECT status FROM bench._runs WHERE id = $id"), 'running',
		"$what: before any bench function has recorded it (its stored row says running)");
	return;
}

# the status and counts of run ID as bench.runs shows them
sub first_read_of_run
{
	my ($id) = @_;
	return "SELECT status, transactions, warmup_transactions FROM bench.runs WHERE id = $id";
}

sub history { return sql('SELECT count(*) FROM pgbench_history'); }

# What must hold after every fault: no worker, segment or lock left, and a
# new run works (and commits what it counts).
sub nothing_left
{
	my ($what) = @_;
	ok(poll($workers, '0', 60), "$what: no pgbenchkit worker is left");
	ok(poll(q{SELECT count(*) FROM bench.runs WHERE status = 'running'}, '0', 30),
		"$what: no run is left running");
	my $deadline = time + 30;
	usleep(100_000) while segments() > $idle_segments && time < $deadline;
	is(segments(), $idle_segments,
		"$what: no dynamic shared memory segment is left in pg_dynshmem (the server's own: $idle_segments)");
	is(sql(q{SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'}), '0',
		"$what: no advisory lock is held");
	my $before = history();
	is( sql(q{SELECT status || ' ' || transactions
	            FROM bench.run('tpcb', clients => 2, transactions => 10, progress => '0', prewarm => false)}),
		'done 20', "$what: a new run works");
	is(history() - $before, 20, "$what: and its 20 transactions are committed");
	sql('TRUNCATE pgbench_history');
	return;
}

# Run ID ended by its coordinator after a fault: STATUS and SQLSTATE, and
# it counted exactly what was committed (clients stopped, nothing in flight
# counted).
sub counted_exactly
{
	my ($what, $id, $status, $sqlstate) = @_;
	is( sql(qq{SELECT status || ' ' || coalesce(sqlstate, '-') FROM bench.runs WHERE id = $id}),
		"$status $sqlstate", "$what: run $id is $status ($sqlstate)");
	my ($counted, $progress) = split /\|/, sql(qq{
		SELECT coalesce(transactions, 0) + coalesce(warmup_transactions, 0),
		       (SELECT coalesce(sum(transactions), 0) FROM bench.progress WHERE run_id = $id)
		  FROM bench.runs WHERE id = $id});
	my $committed = history();
	ok($committed > 0, "$what: transactions were committed ($committed)");
	is($counted, $committed, "$what: the run counts the $committed transactions committed");
	is($progress, $committed, "$what: its progress rows add up to them");
	return;
}

# Run ID whose coordinator died: the next bench call records it aborted
# with what its progress rows counted, which is no more than was committed.
sub recorded_from_progress
{
	my ($what, $id, $phase) = @_;
	is(sql("SELECT status || ' ' || sqlstate FROM bench.wait($id)"), 'aborted 57P01',
		"$what: bench.wait records run $id as aborted");
	my ($measured, $warmup, $pm, $pw) = split /\|/, sql(qq{
		SELECT coalesce(transactions, 0), coalesce(warmup_transactions, 0),
		       (SELECT coalesce(sum(transactions), 0) FROM bench.progress WHERE run_id = $id AND NOT in_warmup),
		       (SELECT coalesce(sum(transactions), 0) FROM bench.progress WHERE run_id = $id AND in_warmup)
		  FROM bench.runs WHERE id = $id});
	is("$measured $warmup", "$pm $pw", "$what: its counts are those of its progress rows ($pm measured, $pw warm-up)");
	ok($phase eq 'warmup' ? $pw > 0 && $pm == 0 : $pm > 0,
		"$what: they are of the $phase");
	my $committed = history();
	ok($pm + $pw <= $committed,
		"$what: no more than the $committed committed (what came after the last interval is not counted)");
	return;
}

# pgbenchkit.test_pause for the workers that start from now on
sub pause_at
{
	my ($moments) = @_;
	$node->safe_psql('postgres', "ALTER DATABASE bk SET pgbenchkit.test_pause = '$moments'");
	return;
}

# ------------------------------------------------------------------ a first run

sql('TRUNCATE pgbench_history');
nothing_left('before any fault');

# ------------------------------------------------------------------ prewarm

# The coordinator holds at the prewarm (its clients ready, the run's row
# not yet written): whatever happens there, the run never started, no row
# says otherwise, and the caller is told.
for my $victim ('client', 'coordinator')
{
	for my $how ('kill -9', 'pg_terminate_backend')
	{
		my $what = "$how of the $victim during the prewarm";
		pause_at('prewarm');
		my $before = sql('SELECT coalesce(max(id), 0) FROM bench.runs');
		my $bg = $node->background_psql('bk', on_error_stop => 0);
		$bg->query_until(qr/starting\n/,
			"\\echo starting\nSELECT bench.start('tpcb', clients => 2, duration => '10 min', progress => '500 ms');\n");
		ok( poll(q{SELECT count(*) FROM pg_stat_activity
		            WHERE backend_type = 'pgbenchkit run' AND query LIKE 'pgbenchkit: paused before prewarm%'},
				'1', 60),
			"$what: the coordinator is at the prewarm");
		is(sql(q{SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'pgbenchkit client'}), '2',
			"$what: its two clients are ready");
		my $pid = pid_of($victim eq 'client' ? 'pgbenchkit client' : 'pgbenchkit run');
		pause_at('');
		if ($how eq 'kill -9')
		{
			kill9($pid, $what);
			eval { $bg->quit; };
		}
		else
		{
			is(sql("SELECT pg_terminate_backend($pid)"), 't', "$what: terminated $pid");
			my ($out) = $bg->query(q{SELECT 'call ended'});
			like($bg->{stderr}, qr/ERROR:  .*(the run was terminated before it started|terminating connection due to administrator command)/,
				"$what: the caller is told the run did not start");
			$bg->quit;
		}
		is(sql("SELECT count(*) FROM bench.runs WHERE id > $before"), '0',
			"$what: no run row was written (the run never started)");
		is(history(), '0', "$what: no transaction was committed");
		nothing_left($what);
	}
}

# ------------------------------------------------------------------ warm-up and steady state

# A run of 2 clients in its warm-up (a long one) or its measured phase,
# with committed intervals.
sub start_going
{
	my ($phase, $what) = @_;
	my $id = sql(qq{SELECT bench.start('tpcb', clients => 2, duration => '10 min',
		warmup => '@{[ $phase eq 'warmup' ? '9 min' : '0' ]}', progress => '300 ms', prewarm => false)});
	ok( poll(qq{SELECT count(*) >= 2 AND sum(transactions) > 0 FROM bench.progress
	             WHERE run_id = $id AND in_warmup = @{[ $phase eq 'warmup' ? 'true' : 'false' ]}},
			't', 60),
		"$what: run $id has committed intervals of its $phase");
	return $id;
}

for my $phase ('warmup', 'steady')
{
	my $when = $phase eq 'warmup' ? 'the warm-up' : 'the steady state';
	for my $victim ('client', 'coordinator')
	{
		for my $how ('kill -9', 'pg_terminate_backend')
		{
			my $what = "$how of the $victim during $when";
			my $id = start_going($phase, $what);
			my $pid = pid_of($victim eq 'client' ? 'pgbenchkit client' : 'pgbenchkit run');
			if ($how eq 'kill -9')
			{
				my $answer = kill9($pid, $what, first_read_of_run($id));
				read_aborted_at_once($what, $id, $answer);
				recorded_from_progress($what, $id, $phase);
				is(sql("SELECT status, transactions, warmup_transactions FROM bench._runs WHERE id = $id"),
					$answer, "$what: the row recorded since agrees with that first read");
			}
			else
			{
				is(sql("SELECT pg_terminate_backend($pid)"), 't', "$what: terminated $pid");
				ok(poll("SELECT status <> 'running' FROM bench.runs WHERE id = $id", 't', 60),
					"$what: run $id ended");
				counted_exactly($what, $id, $victim eq 'client' ? ('failed', '57P01') : ('aborted', '57P01'));
				is(sql("SELECT coalesce(transactions, 0) = 0 FROM bench.runs WHERE id = $id"),
					$phase eq 'warmup' ? 't' : 'f',
					"$what: its measured transactions are those of $when");
			}
			nothing_left($what);
		}
	}
}

# ------------------------------------------------------------------ the final write

# The duration is over, the last interval is committed, the summary and
# status are not yet: the clients have exited already.
for my $how ('kill -9', 'pg_terminate_backend')
{
	my $what = "$how of the coordinator before the final write";
	pause_at('final_write');
	my $id = sql(q{SELECT bench.start('tpcb', clients => 2, duration => '2 s', progress => '500 ms',
		prewarm => false)});
	pause_at('');
	ok( poll(q{SELECT count(*) FROM pg_stat_activity
	            WHERE backend_type = 'pgbenchkit run' AND query LIKE 'pgbenchkit: paused before final_write%'},
			'1', 60),
		"$what: the coordinator of run $id is at the final write");
	is(sql(q{SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'pgbenchkit client'}), '0',
		"$what: its clients have exited (no client to hit at this moment)");
	is(sql("SELECT status FROM bench.runs WHERE id = $id"), 'running', "$what: the row still says running");
	my $pid = pid_of('pgbenchkit run');
	if ($how eq 'kill -9')
	{
		kill9($pid, $what);
		is(sql("SELECT status || ' ' || sqlstate FROM bench.wait($id)"), 'aborted 57P01',
			"$what: bench.wait records run $id as aborted");
		# every interval was committed before the kill: they count all
		my ($counted, $progress) = split /\|/, sql(qq{
			SELECT coalesce(transactions, 0) + coalesce(warmup_transactions, 0),
			       (SELECT sum(transactions) FROM bench.progress WHERE run_id = $id)
			  FROM bench.runs WHERE id = $id});
		my $committed = history();
		ok($committed > 0, "$what: transactions were committed ($committed)");
		is("$counted $progress", "$committed $committed",
			"$what: its progress rows and its counts are the $committed committed, all of them");
	}
	else
	{
		is(sql("SELECT pg_terminate_backend($pid)"), 't', "$what: terminated $pid");
		ok(poll("SELECT status <> 'running' FROM bench.runs WHERE id = $id", 't', 60),
			"$what: run $id ended");
		# the run had measured all it was to measure: it is recorded as such
		counted_exactly($what, $id, 'done', '-');
	}
	nothing_left($what);
}

# ------------------------------------------------------------------ immediate shutdown

{
	my $what = 'an immediate shutdown, then a start';
	my $id = start_going('steady', $what);
	$node->stop('immediate');
	$node->start;
	recorded_from_progress($what, $id, 'steady');
	nothing_left($what);
}

# ------------------------------------------------------------------ the caller

{
	my $what = "the caller's connection dropped";
	my $before = sql('SELECT coalesce(max(id), 0) FROM bench.runs');
	my $bg = $node->background_psql('bk', on_error_stop => 0);
	my $caller = $bg->query_safe('SELECT pg_backend_pid()');
	$bg->query_until(qr/starting\n/,
		"\\echo starting\nSELECT status FROM bench.run('tpcb', clients => 2, duration => '10 min', progress => '100 ms', prewarm => false);\n");
	ok( poll(qq{SELECT count(*) >= 2 FROM bench.progress p JOIN bench.runs r ON r.id = p.run_id
	             WHERE r.id > $before}, 't', 60),
		"$what: the run is going");
	my $id = sql('SELECT max(id) FROM bench.runs');
	# psql dies without a word: the socket closes under the waiting backend
	$bg->{run}->kill_kill;
	ok(poll("SELECT count(*) FROM pg_stat_activity WHERE pid = $caller", '0', 60),
		"$what: the caller's backend noticed and ended");
	ok(poll("SELECT status <> 'running' FROM bench.runs WHERE id = $id", 't', 60), "$what: run $id ended");
	counted_exactly($what, $id, 'canceled', '57014');
	like(sql("SELECT error FROM bench.runs WHERE id = $id"), qr/the caller of bench.run was canceled or went away/,
		"$what: it says the caller went away");
	nothing_left($what);
}

{
	my $what = "statement_timeout on the caller";
	my $before = sql('SELECT coalesce(max(id), 0) FROM bench.runs');
	my ($ret, $out, $err) = $node->psql('bk', q{SET statement_timeout = '3 s';
		SELECT status FROM bench.run('tpcb', clients => 2, duration => '10 min', progress => '0', prewarm => false)});
	like($err, qr/canceling statement due to statement timeout/, "$what: the caller gets its timeout");
	my $id = sql("SELECT max(id) FROM bench.runs WHERE id > $before");
	ok(poll("SELECT status <> 'running' FROM bench.runs WHERE id = $id", 't', 60), "$what: run $id ended");
	counted_exactly($what, $id, 'canceled', '57014');
	nothing_left($what);
}

# ------------------------------------------------------------------ a client stuck on a row lock

# Every tpcb transaction updates the one branch of scale 1: once another
# session holds its row lock, every client waits for it.  When the
# duration ends, their statements are canceled and the run ends 'done',
# while the holder still holds the lock: before its 45 s sleep is over (the
# coordinator's grace for clients that do not stop is 60 s);
# the transactions that committed are counted, the interrupted ones not.
sub stuck_on_lock
{
	my ($what, $extra) = @_;
	my $id = sql(qq{SELECT bench.start('tpcb', clients => 2, duration => '10 s', progress => '200 ms',
		prewarm => false $extra)});
	ok(poll(qq{SELECT count(*) > 0 AND sum(transactions) > 0 FROM bench.progress WHERE run_id = $id}, 't', 60),
		"$what: run $id has committed transactions");
	my $holder = $node->background_psql('bk', on_error_stop => 0);
	my $hpid = $holder->query_safe('SELECT pg_backend_pid()');
	$holder->query_safe('BEGIN');
	$holder->query_safe('SELECT bid FROM pgbench_branches FOR UPDATE');
	$holder->query_until(qr/holding\n/, "\\echo holding\nSELECT pg_sleep(45);\n");
	ok( poll(qq{SELECT count(*) > 0 FROM pg_stat_activity a
	             WHERE a.wait_event_type = 'Lock' AND $hpid = ANY (pg_blocking_pids(a.pid))}, 't', 60),
		"$what: the clients wait for the holder's lock");
	is(sql("SELECT status || ' ' || coalesce(sqlstate, '-') FROM bench.wait($id)"), 'done -',
		"$what: run $id ends done");
	is( sql(qq{SELECT state || ' ' || (backend_xid IS NOT NULL) || ' ' || (xact_start < (SELECT ended_at FROM bench.runs WHERE id = $id))
	             FROM pg_stat_activity WHERE pid = $hpid}),
		'active true true',
		"$what: it ended while the holder still held the lock, asleep (the stuck statements were canceled)");
	is(sql(q{SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'}), '0',
		"$what: nobody waits for the lock any more");
	# the holder lets go (its pg_sleep canceled, its transaction rolled back)
	is(sql("SELECT pg_cancel_backend($hpid)"), 't', "$what: the holder gives up");
	$holder->query('ROLLBACK');
	$holder->quit;
	counted_exactly($what, $id, 'done', '-');
	return;
}

stuck_on_lock('a client stuck on a row lock', '');
nothing_left('a client stuck on a row lock');

{
	# the same against a target (this server, over libpq): cancel requests
	my $host = $node->host;
	my $port = $node->port;
	sql(qq{SELECT name FROM bench.add_target('self', 'host=$host port=$port dbname=bk')});
	stuck_on_lock('a libpq client stuck on a row lock', q{, target => 'self'});
	nothing_left('a libpq client stuck on a row lock');
}

# ------------------------------------------------------------------ suites

# A suite is alive while its worker holds the suite's lock, not while some
# process has the pid its row recorded.
{
	my $what = 'a suite row whose pid another suite\'s worker has';
	my $suite = sql(q{SELECT bench.start_sweep('tpcb', clients => '{1}', repeat => 3, duration => '10 min',
		progress => '0', prewarm => false)});
	ok(poll(qq{SELECT count(*) FROM bench.runs WHERE suite_id = $suite AND status = 'running'}, '1', 60),
		"$what: suite $suite runs");
	is(sql("SELECT bench._suite_alive($suite)"), 't', "$what: suite $suite is alive");
	# as after a restart in which the pid went to another suite's worker
	my $ghost = sql(qq{INSERT INTO bench.suites (workload, clients, repeat, run_order, args, search_path,
	                       runs_planned, status, created_by, worker_pid)
	                   SELECT workload, clients, repeat, run_order, args, search_path, runs_planned,
	                          'running', created_by, worker_pid
	                     FROM bench.suites WHERE id = $suite RETURNING id});
	is(sql("SELECT bench._suite_alive($ghost)"), 'f', "$what: suite $ghost, whose worker is gone, is not");
	is(sql("SELECT (bench._suite_state(s)).status FROM bench.suites s WHERE id = $ghost"), 'aborted',
		"$what: its readers show it aborted at once");
	my ($ret, $out, $err) = $node->psql('bk', "SELECT bench.cancel_suite($ghost)");
	is($out, 'f', "$what: bench.cancel_suite($ghost) finds it not running");
	is(sql("SELECT status || ' ' || sqlstate FROM bench.suites WHERE id = $ghost"), 'aborted 57P01',
		"$what: and records it aborted");
	is(sql("SELECT status FROM bench.suites WHERE id = $suite"), 'running',
		"$what: suite $suite, whose worker has that pid, is not touched");
	is(sql("SELECT bench.cancel_suite($suite)"), 't', "$what: suite $suite is canceled");
	is(sql("SELECT status FROM bench.suites WHERE id = $suite"), 'canceled', "$what: and says so");
	nothing_left($what);
}

# kill -9 of a suite's worker at random moments: the suite is aborted to
# its readers at once, then recorded so; the runs it finished stay 'done'.
for my $round (1 .. 3)
{
	my $what = "kill -9 of a suite's worker, round $round";
	my $suite = sql(q{SELECT bench.start_sweep('tpcb', clients => '{1,2}', repeat => 2, duration => '1 s',
		progress => '0', prewarm => false)});
	my $delay = 0.2 + rand(4);
	note sprintf("$what: killing after %.2f s", $delay);
	usleep(int($delay * 1e6));
	my $wpid = sql("SELECT worker_pid FROM bench.suites WHERE id = $suite");
	if ($wpid eq '')
	{
		is(sql("SELECT status FROM bench.suites WHERE id = $suite"), 'done',
			"$what: the suite was over before the kill");
		nothing_left($what);
		next;
	}
	my $done = sql("SELECT string_agg(id::text, ',' ORDER BY id) FROM bench.runs WHERE suite_id = $suite AND status = 'done'");
	# the first statement after the restart: a plain read of bench.suites
	my $answer = kill9($wpid, $what,
		"SELECT status, sqlstate, worker_pid IS NULL, ended_at FROM bench.suites WHERE id = $suite");
	like($answer, qr/^aborted\|57P01\|t\|\d/,
		"$what: the first read of bench.suites after the restart shows suite $suite aborted, ended, with no worker");
	is(sql("SELECT status FROM bench._suites WHERE id = $suite"), 'running',
		"$what: before any bench function has recorded it (its stored row says running)");
	is(sql("SELECT count(*) FROM bench.runs WHERE suite_id = $suite AND status = 'running'"), '0',
		"$what: and bench.runs shows none of its runs running");
	my (undef, undef, $err) = $node->psql('bk', "SELECT * FROM bench.wait_suite($suite)");
	is(sql("SELECT status || ' ' || sqlstate FROM bench.suites WHERE id = $suite"), 'aborted 57P01',
		"$what: suite $suite is recorded aborted");
	is(sql("SELECT status, sqlstate, worker_pid IS NULL, ended_at FROM bench._suites WHERE id = $suite"),
		$answer, "$what: the row recorded since agrees with that first read");
	is(sql("SELECT count(*) FROM bench.runs WHERE suite_id = $suite AND status NOT IN ('done', 'aborted')"), '0',
		"$what: its runs are done or aborted");
	is( sql("SELECT coalesce(string_agg(id::text, ',' ORDER BY id), '') FROM bench.runs WHERE suite_id = $suite AND status = 'done' AND id IN (" . ($done eq '' ? '0' : $done) . ")"),
		$done, "$what: the runs it had finished stay done ($done)");
	nothing_left($what);
}

# kill -9 of a run's coordinator or of a client at random moments of a
# short run: whatever the moment, the run ends with a true status and
# counts no more than was committed.
for my $round (1 .. 3)
{
	my $victim = $round % 2 ? 'pgbenchkit run' : 'pgbenchkit client';
	my $what = "kill -9 of a $victim at a random moment, round $round";
	my $bg = $node->background_psql('bk', on_error_stop => 0);
	my $before = sql('SELECT coalesce(max(id), 0) FROM bench.runs');
	$bg->query_until(qr/starting\n/,
		"\\echo starting\nSELECT status FROM bench.run('tpcb', clients => 2, duration => '4 s', warmup => '1 s', progress => '300 ms');\n");
	my $delay = rand(4.5);
	note sprintf("$what: killing after %.2f s", $delay);
	usleep(int($delay * 1e6));
	my $pid = pid_of($victim);
	if ($pid ne '')
	{
		kill9($pid, $what);
	}
	eval { $bg->quit; };
	my $id = sql("SELECT coalesce(max(id), 0) FROM bench.runs WHERE id > $before");
	if ($id > 0)
	{
		my $status = sql("SELECT status FROM bench.wait($id)");
		ok($status eq 'done' || $status eq 'aborted', "$what: run $id ended $status");
		ok( sql(qq{SELECT coalesce(transactions, 0) + coalesce(warmup_transactions, 0)
		             FROM bench.runs WHERE id = $id}) <= history(),
			"$what: it counts no more than was committed");
	}
	else
	{
		is(history(), '0', "$what: the run never started, and nothing was committed");
	}
	nothing_left($what);
}

$node->stop;
done_testing();
