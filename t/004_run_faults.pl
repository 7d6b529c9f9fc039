# bench.run when things go wrong, and what it measures when they do not.
#
#  - a cancel of the caller (pg_cancel_backend, as Ctrl-C in psql) ends the
#    run within a second: the caller gets 57014, the run is 'canceled' with
#    its progress rows, no worker is left;
#  - bench.cancel from another session does the same to a bench.run;
#  - pg_terminate_backend of a client fails the run with 57P01, of the
#    coordinator aborts it;
#  - kill -9 of the postmaster mid-run: after the restart bench.runs shows
#    the run 'aborted' at once, and the next bench call records it so, with
#    its progress rows and the transactions they counted;
#  - the transactions counted match pg_stat_database.xact_commit's delta;
#  - the statements show up in pg_stat_statements as the workload's;
#  - 100 short runs in a row leave no worker, shared memory segment, lock or
#    memory growth behind.
#
# Needs the server's bin directory first in PATH, pgbenchkit installed into
# that server, and pg_stat_statements in shared_preload_libraries (the
# suite's TEMP_CONFIG sets it).
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);

my $node = PostgreSQL::Test::Cluster->new('runs');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 32
autovacuum = off
restart_after_crash = on
# segments as files in pg_dynshmem, so the test can count this server's own
dynamic_shared_memory_type = mmap
});
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE bk');
$node->safe_psql('bk', 'CREATE EXTENSION pgbenchkit CASCADE');
$node->safe_psql('bk', q{SELECT dataset_id FROM bench.init('tpcb', scale => 2)});

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

# Start "SELECT ... FROM bench.run(ARGS)" in a background session; returns
# the session and the pid of its backend once the run is going (its row
# exists and has a progress row).
sub start_run
{
	my ($args, $what) = @_;
	my $bg = $node->background_psql('bk', on_error_stop => 0);
	$bg->query_safe('\set VERBOSITY verbose');
	my $pid = $bg->query_safe('SELECT pg_backend_pid()');
	my $before = sql('SELECT coalesce(max(id), 0) FROM bench.runs');
	$bg->query_until(qr/starting\n/,
		"\\echo starting\nSELECT status FROM bench.run($args);\n");
	ok( poll(qq{SELECT count(*) > 0 FROM bench.progress p JOIN bench.runs r ON r.id = p.run_id
	             WHERE r.id > $before AND r.status = 'running'}, 't', 60),
		"$what: the run is going and has a progress row");
	my $id = sql("SELECT max(id) FROM bench.runs");
	return ($bg, $pid, $id);
}

# Wait for the background call to end; returns (seconds, stdout, stderr).
sub finish_run
{
	my ($bg) = @_;
	my $t = time;
	my ($out) = $bg->query(q{SELECT 'call ended'});
	my $err = $bg->{stderr};
	$bg->quit;
	return (time - $t, $out, $err);
}

sub workers_gone
{
	my ($what) = @_;
	is( sql(q{SELECT count(*) FROM pg_stat_activity
	           WHERE backend_type IN ('pgbenchkit run', 'pgbenchkit client')}),
		'0', "$what: no pgbenchkit worker is left");
	return;
}

sub progress_kept
{
	my ($what, $id) = @_;
	is( sql(qq{SELECT count(*) > 0 AND sum(transactions) > 0 FROM bench.progress WHERE run_id = $id}),
		't', "$what: run $id keeps its progress rows");
	return;
}

# ------------------------------------------------------------------ cancel of the caller

{
	my $what = 'cancel of the caller';
	my ($bg, $pid, $id) = start_run(
		q{'tpcb', clients => 4, duration => '60 s', progress => '200 ms'}, $what);
	# the waiting caller holds back no cleanup (docs/design.md)
	is(sql("SELECT backend_xmin IS NULL AND backend_xid IS NULL FROM pg_stat_activity WHERE pid = $pid"),
		't', 'the session waiting in bench.run has neither an xmin nor an xid');
	my $t = time;
	is(sql("SELECT pg_cancel_backend($pid)"), 't', "$what: pg_cancel_backend");
	my (undef, $out, $err) = finish_run($bg);
	my $secs = time - $t;
	ok($secs < 1.5, sprintf("$what: the call ended within a second or so (%.2f s)", $secs));
	like($err, qr/ERROR:  57014: canceling statement due to user request/,
		"$what: the caller got the usual cancel error");
	is(sql("SELECT status || ' ' || sqlstate FROM bench.runs WHERE id = $id"), 'canceled 57014',
		"$what: run $id is canceled, at once");
	is( sql(qq{SELECT transactions > 0 AND tps > 0 AND latency_p99_ms > 0 AND ended_at IS NOT NULL
	             FROM bench.runs WHERE id = $id}),
		't', "$what: run $id keeps its summary up to the cancel");
	progress_kept($what, $id);
	workers_gone($what);
}

# ------------------------------------------------------------------ bench.cancel from elsewhere

{
	my $what = 'bench.cancel';
	my ($bg, $pid, $id) = start_run(
		q{'select-only', clients => 2, duration => '60 s', progress => '200 ms'}, $what);
	my $t = time;
	is(sql("SELECT bench.cancel($id)"), 't', "$what: bench.cancel($id) returns true");
	ok(time - $t < 1.5, "$what: it returned within a second or so");
	is(sql("SELECT status FROM bench.runs WHERE id = $id"), 'canceled',
		"$what: run $id is canceled when bench.cancel returns");
	my (undef, $out, $err) = finish_run($bg);
	like($err, qr/ERROR:  57014: run $id was canceled/, "$what: the bench.run call ends with 57014");
	progress_kept($what, $id);
	workers_gone($what);
	is(sql("SELECT bench.cancel($id)"), 'f', "$what: canceling it again returns false");
}

# ------------------------------------------------------------------ terminated client

{
	my $what = 'pg_terminate_backend of a client';
	my ($bg, $pid, $id) = start_run(
		q{'tpcb', clients => 3, duration => '60 s', progress => '200 ms'}, $what);
	my $client = sql(q{SELECT min(pid) FROM pg_stat_activity WHERE backend_type = 'pgbenchkit client'});
	is(sql("SELECT pg_terminate_backend($client)"), 't', "$what: terminated $client");
	my (undef, $out, $err) = finish_run($bg);
	like($err, qr/ERROR:  57P01: run $id failed: client \d+: terminating connection due to administrator command/,
		"$what: the bench.run call fails with 57P01");
	is(sql("SELECT status || ' ' || sqlstate FROM bench.runs WHERE id = $id"), 'failed 57P01',
		"$what: run $id failed with 57P01");
	progress_kept($what, $id);
	workers_gone($what);
}

# ------------------------------------------------------------------ terminated coordinator

{
	my $what = 'pg_terminate_backend of the coordinator';
	my ($bg, $pid, $id) = start_run(
		q{'select-only', clients => 2, duration => '60 s', progress => '200 ms'}, $what);
	my $coord = sql("SELECT coordinator_pid FROM bench.runs WHERE id = $id");
	is(sql("SELECT pg_terminate_backend($coord)"), 't', "$what: terminated $coord");
	my (undef, $out, $err) = finish_run($bg);
	like($err, qr/ERROR:  57P01: run $id was aborted/, "$what: the bench.run call fails with 57P01");
	is(sql("SELECT status FROM bench.runs WHERE id = $id"), 'aborted', "$what: run $id is aborted");
	progress_kept($what, $id);
	workers_gone($what);
}

# ------------------------------------------------------------------ xact_commit

# On an otherwise idle cluster the run's transactions are the database's
# commits, but for a few of the coordinator's own.
foreach my $workload ('select-only', 'tpcb')
{
	my $what = "xact_commit, $workload";
	my $before = sql(q{SELECT xact_commit FROM pg_stat_database WHERE datname = 'bk'});
	my $n = sql(qq{SELECT transactions + warmup_transactions FROM bench.run('$workload', clients => 2, duration => '3 s', progress => '0')});
	my $after = sql(q{SELECT xact_commit FROM pg_stat_database WHERE datname = 'bk'});
	my $delta = $after - $before;
	ok($n > 1000, "$what: the run counted $n transactions");
	ok(abs($delta - $n) <= 0.01 * $n,
		sprintf("$what: xact_commit rose by %d, within 1%% of %d (%.3f%%)", $delta, $n, 100 * ($delta - $n) / $n));
}

# ------------------------------------------------------------------ retries

# At serializable isolation (the clients take the database's setting, as
# pgbench's connections would), tpcb at scale 2 with 8 clients fights over
# two branch rows: serialization failures by the hundred.  With one try they
# count as failed transactions and the run goes on; with no limit every one
# is retried until it commits.  Either way every committed transaction wrote
# exactly one history row and the balances agree.
{
	my $what = 'serialization failures';
	sql(q{ALTER DATABASE bk SET default_transaction_isolation = 'serializable'});
	my $history = sql('SELECT count(*) FROM pgbench_history');
	my $row = sql(q{SELECT status || ' ' || (serialization_failures > 0) || ' ' || (failures = serialization_failures)
	                       || ' ' || retries || ' ' || (transactions > 0)
	                  FROM bench.run('tpcb', clients => 8, duration => '3 s', progress => '0')});
	is($row, 'done true true 0 true', "$what: with max_tries 1 they are counted as failures, the run is done");
	# (as with pgbench, a try that fails once the duration is over is not
	# retried: at most one such failure per client)
	$row = sql(q{SELECT status || ' ' || (failures <= clients) || ' ' || (retries > 0) || ' ' || (retried > 0)
	                    || ' ' || (retries >= retried) || ' ' || (transactions + warmup_transactions)
	               FROM bench.run('tpcb', clients => 8, duration => '3 s', progress => '0', max_tries => 0)});
	like($row, qr/^done true true true true \d+$/, "$what: with max_tries 0 every one is retried until the end ($row)");
	sql(q{ALTER DATABASE bk RESET default_transaction_isolation});
	is( sql(qq{SELECT count(*) - $history = (SELECT sum(transactions + warmup_transactions) FROM bench.runs
	                                            WHERE id > (SELECT max(id) - 2 FROM bench.runs))
	           FROM pgbench_history}),
		't', "$what: one history row per committed transaction, none from the failed or retried tries");
	is( sql(q{SELECT sum(delta) = (SELECT sum(abalance) FROM pgbench_accounts)
	                 AND sum(delta) = (SELECT sum(bbalance) FROM pgbench_branches)
	                 AND sum(delta) = (SELECT sum(tbalance) FROM pgbench_tellers) FROM pgbench_history}),
		't', "$what: the balances agree");
}

# ------------------------------------------------------------------ pg_stat_statements

{
	my $what = 'pg_stat_statements';
	sql('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
	sql('SELECT pg_stat_statements_reset()');
	sql(q{SELECT status FROM bench.run('tpcb', clients => 2, transactions => 50, progress => '0')});
	is( sql(q{SELECT calls FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
	           WHERE d.datname = 'bk'
	             AND query = 'UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2'}),
		'100', "$what: the accounts UPDATE is there with its 100 calls");
	is( sql(q{SELECT calls FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
	           WHERE d.datname = 'bk'
	             AND query = 'INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)'}),
		'100', "$what: so is the history INSERT");
}

# ------------------------------------------------------------------ an ordinary role

# A role with EXECUTE on the functions and the privileges pgbench's
# statements need runs as itself: its clients connect as it, the run is
# recorded as its own, and another ordinary role neither sees nor cancels it.
{
	my $what = 'an ordinary role';
	sql(q{CREATE ROLE alice LOGIN; CREATE ROLE mallory LOGIN;
	      GRANT EXECUTE ON FUNCTION bench.run, bench.start, bench.wait, bench.cancel TO alice, mallory;
	      GRANT SELECT, UPDATE ON pgbench_accounts, pgbench_branches, pgbench_tellers TO alice;
	      GRANT INSERT ON pgbench_history TO alice});
	is( $node->safe_psql('bk', q{SELECT status || ' ' || created_by || ' ' || transactions
	                             FROM bench.run('tpcb', clients => 2, transactions => 10, progress => '0')},
			extra_params => [ '-U', 'alice' ]),
		'done alice 20', "$what: alice runs tpcb as herself");
	my $id = $node->safe_psql('bk', q{SELECT bench.start('select-only', clients => 1, duration => '30 s')},
		extra_params => [ '-U', 'alice' ]);
	is( $node->safe_psql('bk', "SELECT usename FROM pg_stat_activity WHERE backend_type = 'pgbenchkit client'"),
		'alice', "$what: her client connects as alice");
	my ($ret, $out, $err) = $node->psql('bk', "SELECT bench.cancel($id)",
		extra_params => [ '-U', 'mallory', '-v', 'VERBOSITY=verbose' ]);
	like($err, qr/ERROR:  42704: run $id does not exist/,
		"$what: mallory cannot cancel her run, which she does not see (row level security)");
	is($node->safe_psql('bk', "SELECT bench.cancel($id)", extra_params => [ '-U', 'alice' ]),
		't', "$what: alice can");
	($ret, $out, $err) = $node->psql('bk', q{SELECT status FROM bench.run('tpcb', transactions => 1)},
		extra_params => [ '-U', 'mallory', '-v', 'VERBOSITY=verbose' ]);
	like($err, qr/ERROR:  42501: .*client 0: permission denied for table pgbench_accounts|ERROR:  42501: permission denied for table pgbench_accounts/,
		"$what: mallory, without privileges on the tables, is refused by the server, as pgbench would be");
	# (permissions are checked when a statement executes, not when it is
	# prepared, so the run starts and fails on the first transaction)
	is(sql(q{SELECT status || ' ' || sqlstate FROM bench.runs WHERE created_by = 'mallory'}), 'failed 42501',
		"$what: her run is recorded as failed with 42501");
}

# ------------------------------------------------------------------ 100 runs

{
	my $what = '100 short runs';
	my $bg = $node->background_psql('bk', on_error_stop => 1);
	my $dir = $node->data_dir . '/pg_dynshmem';
	my $segments = sub { my @s = glob("$dir/mmap.*"); return scalar @s; };
	my $memory = q{SELECT sum(total_bytes) FROM pg_backend_memory_contexts};
	$bg->query_safe(q{SELECT status FROM bench.run('select-only', clients => 2, transactions => 5, progress => '0')})
	  for 1 .. 10;
	my $mem10 = $bg->query_safe($memory);
	# the last run's coordinator may still be exiting
	my $gone = q{SELECT count(*) FROM pg_stat_activity WHERE backend_type IN ('pgbenchkit run', 'pgbenchkit client')};
	poll($gone, '0', 10);
	my $shm10 = $segments->();
	my $bgw10 = sql(q{SELECT count(*) FROM pg_stat_activity WHERE backend_type NOT IN ('client backend', 'checkpointer', 'background writer', 'walwriter', 'autovacuum launcher', 'archiver')});
	my $done = 0;
	for (1 .. 100)
	{
		$done++ if $bg->query_safe(
			q{SELECT status FROM bench.run('select-only', clients => 2, transactions => 5, progress => '0')}) eq 'done';
	}
	is($done, 100, "$what: all 100 runs are done");
	my $mem110 = $bg->query_safe($memory);
	ok($mem110 - $mem10 < 256 * 1024,
		"$what: the calling session's memory grew by less than 256 kB ($mem10 -> $mem110 bytes)");
	poll($gone, '0', 10);
	my $shm110 = $segments->();
	ok($shm110 <= $shm10, "$what: no more shared memory segments than before ($shm10 -> $shm110)");
	is(sql(q{SELECT count(*) FROM pg_stat_activity WHERE backend_type NOT IN ('client backend', 'checkpointer', 'background writer', 'walwriter', 'autovacuum launcher', 'archiver')}),
		$bgw10, "$what: as many background processes as before ($bgw10)");
	workers_gone($what);
	is(sql(q{SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'}), '0',
		"$what: no advisory lock is held");
	$bg->quit;
}

# ------------------------------------------------------------------ kill -9 of the postmaster

{
	my $what = 'kill -9 of the postmaster';
	my $id = sql(q{SELECT bench.start('tpcb', clients => 4, duration => '60 s', progress => '200 ms')});
	ok(poll("SELECT count(*) >= 3 FROM bench.progress WHERE run_id = $id", 't', 30),
		"$what: run $id has progress rows");
	my @pids = split /\n/, sql('SELECT pid FROM pg_stat_activity');
	$node->kill9;
	my $deadline = time + 60;
	my @alive;
	while (time < $deadline)
	{
		@alive = grep { kill(0, $_) } @pids;
		last unless @alive;
		usleep(100_000);
	}
	is("@alive", '', "$what: every server process is gone, clients included");
	$node->start;
	is(sql("SELECT status FROM bench.runs WHERE id = $id"), 'aborted',
		"$what: after the restart bench.runs shows run $id aborted at once");
	is(sql("SELECT status FROM bench._runs WHERE id = $id"), 'running',
		"$what: while its stored row still says running");
	my $row = sql("SELECT status || ' ' || sqlstate || ' ' || (transactions > 0) || ' ' || (tps > 0)
	               FROM bench.wait($id)");
	is($row, 'aborted 57P01 true true',
		"$what: the next bench call marks it aborted, with the transactions of its progress rows");
	is( sql("SELECT transactions = (SELECT sum(transactions) FROM bench.progress WHERE run_id = $id AND NOT in_warmup)
	           FROM bench.runs WHERE id = $id"),
		't', "$what: which add up to its transactions");
}

$node->stop;
done_testing();
