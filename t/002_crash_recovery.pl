# bench.init interrupted in the middle of a load: the caller canceled or
# timed out, the coordinator or a loader terminated, the server crashed
# (immediate shutdown, kill -9 of the postmaster, kill -9 of a loader).
# Each time the call must end (not hang), the staging tables
# (bench_load_<id>_*) must go, the dataset row must not stay 'loading' (after
# a crash: until the next load, which marks it aborted), and the dataset
# loaded before must be left as it was.  Also: a second load into the same
# schema is refused (55P03) while one into another schema works, and a
# failure in the last step (a view on the tables to replace) leaves the old
# dataset in place.  Last, a completed load survives a crash before any
# checkpoint, checked with amcheck.
#
# Needs the server's bin directory (initdb, pg_ctl, postgres) first in
# PATH, and pgbenchkit installed into that server.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);

# A scale whose load takes several seconds, so that it is still loading
# when the test interrupts it: 100 is 10 million accounts (about 1.6 GB if
# it ran to the end; the interrupted loads write much less).
my $SCALE = 100;

my $node = PostgreSQL::Test::Cluster->new('crash');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 32
autovacuum = off
# a backend killed with SIGKILL makes the postmaster restart every process
# (as after the OOM killer); PostgreSQL::Test::Cluster turns that off
restart_after_crash = on
});
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE bk');
$node->safe_psql('bk', 'CREATE EXTENSION pgbenchkit CASCADE');

# ------------------------------------------------------------------ helpers

sub sql { return $node->safe_psql('bk', $_[0]); }

# psql's (status, stdout, stderr) for QUERY; survives a server that is
# restarting (psql then fails to connect and IPC::Run may die writing to it).
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

# Start bench.init(ARGS) in a background session; returns the session and
# the pid of its backend.
sub start_load
{
	my ($args) = @_;
	my $bg = $node->background_psql('bk', on_error_stop => 0);
	$bg->query_safe('\set VERBOSITY verbose');
	my $pid = $bg->query_safe('SELECT pg_backend_pid()');
	$bg->query_until(qr/starting\n/,
		"\\echo starting\nSELECT dataset_id FROM bench.init('tpcb', $args);\n");
	return ($bg, $pid);
}

# Wait until the background load is filling pgbench_accounts: its dataset
# row and staging tables are committed and a loader is at work.  Returns
# the dataset id.
sub wait_loading
{
	my ($what) = @_;
	ok( poll(q{
			SELECT EXISTS (SELECT 1 FROM pg_stat_activity
			                WHERE backend_type = 'pgbenchkit loader' AND state = 'active'
			                  AND query LIKE 'bench.init: loading pgbench\_accounts%')
			   AND EXISTS (SELECT 1 FROM bench.datasets
			                WHERE status = 'loading' AND tables IS NOT NULL)},
			't', 60),
		"$what: the load is under way (a loader fills pgbench_accounts)");
	my $id = sql(q{SELECT max(id) FROM bench.datasets WHERE status = 'loading'});
	is( sql(qq{SELECT count(*) FROM pg_class WHERE relname LIKE 'bench\\_load\\_${id}\\_%' AND relkind = 'r'}),
		'4', "$what: dataset $id has its four staging tables");
	return $id;
}

# Wait for the background call to end; returns (seconds waited, stdout,
# stderr).
sub finish_load
{
	my ($bg) = @_;
	my $t = time;
	my ($out) = $bg->query(q{SELECT 'call ended'});
	my $err = $bg->{stderr};
	$bg->quit;
	return (time - $t, $out, $err);
}

# The dataset loaded at the start must be untouched.
my ($ready_id, $ready_oid);

sub ready_dataset_untouched
{
	my ($what) = @_;
	is( sql(qq{
			SELECT d.status || ' ' || ('public.pgbench_accounts'::regclass::oid = $ready_oid)
			       || ' ' || (SELECT count(*) FROM pgbench_accounts)
			  FROM bench.datasets d WHERE d.id = $ready_id}),
		'ready true 100000',
		"$what: the dataset loaded before is still ready, with its tables and rows");
	return;
}

sub no_leftovers
{
	my ($what, $id, @statuses) = @_;
	is(sql(q{SELECT count(*) FROM pg_class WHERE relname LIKE 'bench\_load\_%'}),
		'0', "$what: no staging table (bench_load_%) remains");
	my $status = sql("SELECT status FROM bench.datasets WHERE id = $id");
	ok((grep { $_ eq $status } @statuses),
		"$what: dataset $id is " . join(' or ', @statuses) . " (it is $status)");
	is( sql("SELECT rows_loaded IS NULL AND finished_at IS NOT NULL AND error <> '' FROM bench.datasets WHERE id = $id"),
		't', "$what: dataset $id has an error and a finish time, and no row count");
	return;
}

sub workers_gone
{
	my ($what) = @_;
	ok( poll(q{SELECT count(*) FROM pg_stat_activity
	            WHERE backend_type IN ('pgbenchkit init', 'pgbenchkit loader')}, '0', 60),
		"$what: no pgbenchkit worker is left");
	return;
}

# ------------------------------------------------------------------ a dataset to protect

($ready_id) = sql(q{SELECT dataset_id FROM bench.init('tpcb', scale => 1)});
$ready_oid = sql(q{SELECT 'public.pgbench_accounts'::regclass::oid});
is(sql("SELECT status FROM bench.datasets WHERE id = $ready_id"), 'ready', 'a scale 1 dataset is ready');

# ------------------------------------------------------------------ cancel the caller

{
	my $what = 'cancel of the caller';
	my ($bg, $pid) = start_load("scale => $SCALE, force => true");
	my $id = wait_loading($what);
	is(sql("SELECT pg_cancel_backend($pid)"), 't', "$what: pg_cancel_backend");
	my ($secs, $out, $err) = finish_load($bg);
	note "$what: the call ended after ${secs}s:\n$err";
	ok($secs < 10, sprintf("$what: the call ended within 10 s (%.1f s)", $secs));
	like($err, qr/ERROR:  57014: canceling statement due to user request/,
		"$what: the call failed with 57014");
	unlike($out, qr/^\d+$/m, "$what: the call returned no dataset");

	# the coordinator cleans up on its own, right after
	ok( poll("SELECT status <> 'loading' FROM bench.datasets WHERE id = $id", 't', 30),
		"$what: dataset $id is no longer loading");
	no_leftovers($what, $id, 'aborted', 'failed');
	is(sql("SELECT sqlstate FROM bench.datasets WHERE id = $id"), '57014',
		"$what: bench.datasets records 57014");
	workers_gone($what);
	ready_dataset_untouched($what);
}

# ------------------------------------------------------------------ statement_timeout

{
	my $what = 'statement_timeout';
	my $t = time;
	my ($ret, $out, $err) = $node->psql('bk',
		"SET statement_timeout = '1s'; SELECT dataset_id FROM bench.init('tpcb', scale => $SCALE, force => true)",
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	my $secs = time - $t;
	ok($secs < 10, sprintf("$what: the call ended within 10 s (%.1f s)", $secs));
	like($err, qr/ERROR:  57014: canceling statement due to statement timeout/,
		"$what: the call failed with 57014");
	my $id = sql('SELECT max(id) FROM bench.datasets');
	ok( poll("SELECT status <> 'loading' FROM bench.datasets WHERE id = $id", 't', 30),
		"$what: dataset $id is no longer loading");
	no_leftovers($what, $id, 'aborted', 'failed');
	workers_gone($what);
	ready_dataset_untouched($what);
}

# ------------------------------------------------------------------ terminate the coordinator

{
	my $what = 'termination of the coordinator';
	my ($bg, $pid) = start_load("scale => $SCALE, force => true");
	my $id = wait_loading($what);
	my $coordinator = sql(q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'pgbenchkit init'});
	is(sql("SELECT pg_terminate_backend($coordinator)"), 't', "$what: pg_terminate_backend");
	my ($secs, $out, $err) = finish_load($bg);
	note "$what: the call ended after ${secs}s:\n$err";
	ok($secs < 120, sprintf("$what: the call ended, it did not hang (%.1f s)", $secs));
	like($err, qr/ERROR:  57P01: the init worker was terminated/,
		"$what: the call failed with 57P01, the init worker was terminated");
	unlike($out, qr/^\d+$/m, "$what: the call returned no dataset");

	# the terminated coordinator cleaned up before it exited
	no_leftovers($what, $id, 'aborted', 'failed');
	workers_gone($what);
	ready_dataset_untouched($what);
}

# ------------------------------------------------------------------ terminate a loader

{
	my $what = 'termination of a loader';
	my ($bg, $pid) = start_load("scale => $SCALE, jobs => 2, force => true");
	my $id = wait_loading($what);
	my $loader = sql(q{SELECT min(pid) FROM pg_stat_activity WHERE backend_type = 'pgbenchkit loader'});
	is(sql("SELECT pg_terminate_backend($loader)"), 't', "$what: pg_terminate_backend");
	my ($secs, $out, $err) = finish_load($bg);
	note "$what: the call ended after ${secs}s:\n$err";
	ok($secs < 30, sprintf("$what: the call ended within 30 s (%.1f s)", $secs));
	like($err, qr/ERROR:  (57P01|57014): /, "$what: the call failed with the loader's error");
	unlike($out, qr/^\d+$/m, "$what: the call returned no dataset");
	ok(poll("SELECT status <> 'loading' FROM bench.datasets WHERE id = $id", 't', 30),
		"$what: dataset $id is no longer loading");
	no_leftovers($what, $id, 'aborted', 'failed');
	workers_gone($what);
	ready_dataset_untouched($what);
}

# ------------------------------------------------------------------ two loads at once

{
	my $what = 'a second load into the same schema';
	my ($bg, $pid) = start_load("scale => $SCALE, force => true");
	my $id = wait_loading($what);
	my $before = sql(q{SELECT count(*) FROM bench.datasets WHERE schema_name = 'public'});
	my ($ret, $out, $err) = $node->psql('bk',
		q{SELECT dataset_id FROM bench.init('tpcb', scale => 1, force => true)},
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	like($err, qr/ERROR:  55P03: another bench.init is loading into schema "public"/,
		"$what: fails with 55P03 while the first one loads");
	is(sql(q{SELECT count(*) FROM bench.datasets WHERE schema_name = 'public'}), $before,
		"$what: records no dataset");

	$what = 'a load into another schema meanwhile';
	sql('CREATE SCHEMA other');
	is( sql(q{SET search_path = other; SELECT rows_loaded FROM bench.init('tpcb', scale => 1)}),
		'100011', "$what: succeeds");
	is(sql(q{SELECT count(*) FROM other.pgbench_accounts}), '100000', "$what: its accounts are there");
	is(sql("SELECT status FROM bench.datasets WHERE id = $id"), 'loading',
		"$what: the first load is still under way");

	sql("SELECT pg_cancel_backend($pid)");
	finish_load($bg);
	ok(poll("SELECT status <> 'loading' FROM bench.datasets WHERE id = $id", 't', 30),
		"$what: the first load, canceled, ends");
	workers_gone($what);
	ready_dataset_untouched('two loads at once');
	is(sql(q{SELECT count(*) FROM other.pgbench_accounts}), '100000',
		'two loads at once: the other schema\'s dataset is still there');
	sql('DROP SCHEMA other CASCADE');
}

# ------------------------------------------------------------------ a failure in the last step

{
	# force drops the old tables in the last transaction; a view on them
	# makes that fail, after the new tables were loaded
	my $what = 'a view on the tables to replace';
	sql('CREATE VIEW accounts_view AS SELECT aid FROM pgbench_accounts');
	my ($ret, $out, $err) = $node->psql('bk',
		q{SELECT dataset_id FROM bench.init('tpcb', scale => 2, force => true)},
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	like($err, qr/ERROR:  2BP01: cannot drop desired object\(s\) because other objects depend on them\nDETAIL:  view public.accounts_view depends on table public.pgbench_accounts/,
		"$what: the load fails with 2BP01");
	my $id = sql('SELECT max(id) FROM bench.datasets');
	no_leftovers($what, $id, 'failed');
	is(sql("SELECT sqlstate FROM bench.datasets WHERE id = $id"), '2BP01',
		"$what: bench.datasets records 2BP01");
	ready_dataset_untouched($what);
	is(sql('SELECT count(*) FROM accounts_view'), '100000', "$what: the view still works");
	is( sql(q{SELECT string_agg(relname, ',' ORDER BY relname) FROM pg_class
	           WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'}),
		'pgbench_accounts,pgbench_branches,pgbench_history,pgbench_tellers',
		"$what: the schema holds the old tables only");
	sql('DROP VIEW accounts_view');
}

# ------------------------------------------------------------------ crashes

# Crash the server in the middle of a load with CRASH (a sub), then check
# that the dataset stays 'loading' with its staging tables until the next
# load, which marks it aborted and drops them.
sub crash_and_recover
{
	my ($what, $crash) = @_;
	my ($bg, $pid) = start_load("scale => $SCALE, force => true");
	my $id = wait_loading($what);
	my $staging = sql(qq{
		SELECT string_agg(relname, ',' ORDER BY relname) FROM pg_class
		 WHERE relname LIKE 'bench\\_load\\_${id}\\_%'});

	$crash->($bg);
	eval { $bg->quit; };

	is(sql("SELECT status FROM bench.datasets WHERE id = $id"), 'loading',
		"$what: after the restart dataset $id is still marked loading");
	is( sql(qq{
			SELECT string_agg(relname, ',' ORDER BY relname) FROM pg_class
			 WHERE relname LIKE 'bench\\_load\\_${id}\\_%'}),
		$staging,
		"$what: its staging tables are still there ($staging)");
	is( sql(qq{
			SELECT count(*) FROM pg_class c, bench.datasets d
			 WHERE d.id = $id AND c.oid = ANY (d.tables)}),
		'4', "$what: bench.datasets.tables points at them");
	ready_dataset_untouched("$what, after the restart");

	# the next load finds the abandoned one and cleans up after it
	my ($new_id) = sql(q{SELECT dataset_id FROM bench.init('tpcb', scale => 1, force => true)});
	ok($new_id > $id, "$what: a new load succeeds (dataset $new_id)");
	is(sql("SELECT status FROM bench.datasets WHERE id = $id"), 'aborted',
		"$what: the abandoned dataset $id is now aborted");
	like(sql("SELECT error FROM bench.datasets WHERE id = $id"), qr/ended before it finished/,
		"$what: with an error that says why");
	is( sql("SELECT worker_pid IS NULL AND finished_at IS NOT NULL AND rows_loaded IS NULL
	           FROM bench.datasets WHERE id = $id"),
		't', "$what: and a finish time, no worker pid, no row count");
	is(sql(q{SELECT count(*) FROM pg_class WHERE relname LIKE 'bench\_load\_%'}),
		'0', "$what: no staging table (bench_load_%) remains");
	is(sql("SELECT status FROM bench.datasets WHERE id = $ready_id"), 'replaced',
		"$what: the force load replaced the dataset that was ready");
	is(sql("SELECT status FROM bench.datasets WHERE id = $new_id"), 'ready',
		"$what: the new dataset is ready");
	is(sql(q{SELECT count(*) FROM pgbench_accounts}), '100000',
		"$what: and holds its 100000 accounts");
	is(sql(q{SELECT count(*) FROM bench.datasets WHERE status = 'loading'}), '0',
		"$what: no dataset is left loading");

	# the dataset to protect from now on
	$ready_id = $new_id;
	$ready_oid = sql(q{SELECT 'public.pgbench_accounts'::regclass::oid});
	return;
}

# An immediate shutdown: every process ends at once, nothing cleans up, and
# the next start runs crash recovery.
crash_and_recover(
	'immediate shutdown',
	sub {
		$node->stop('immediate');
		$node->start;
	});

# The postmaster killed with SIGKILL.  Its children end when they notice:
# the caller and the coordinator at once (they wait on latches), a loader
# only once it has inserted its share.  The server can start again when
# they are all gone.
crash_and_recover(
	'kill -9 of the postmaster',
	sub {
		my @pids = split /\n/, sql('SELECT pid FROM pg_stat_activity');
		$node->kill9;
		my $deadline = time + 180;
		my @alive;
		while (time < $deadline)
		{
			@alive = grep { kill(0, $_) } @pids;
			last unless @alive;
			usleep(200_000);
		}
		is("@alive", '', 'kill -9 of the postmaster: the old server processes are gone');
		$node->start;
	});

# A loader killed with SIGKILL (as the OOM killer would): the postmaster
# ends every process and restarts.
crash_and_recover(
	'SIGKILL of a loader',
	sub {
		my $loader = sql(q{SELECT min(pid) FROM pg_stat_activity WHERE backend_type = 'pgbenchkit loader'});
		ok(kill('KILL', $loader), "SIGKILL of a loader: kill -9 $loader");
		# the restart is under way once the caller's session is gone
		my $deadline = time + 60;
		usleep(100_000)
		  until time > $deadline
		  || (try_sql(q{SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'pgbenchkit loader'}))[1] eq '0';
		ok(poll('SELECT 1', '1', 60), 'SIGKILL of a loader: the server is back');
	});

# A load that has completed survives a crash that comes before any
# checkpoint: most of its pages were written around the page cache, all
# of them as WAL, and recovery replays that WAL over them.  Afterwards the
# rows are where they were and amcheck finds the table and its key whole
# (every row in the key), with one loader and with two.
sql('CREATE EXTENSION amcheck');
for my $jobs (1, 2)
{
	my $layout = q{SELECT count(*) || ' ' || sum(aid) || ' ' || sum(bid) || ' '
	                      || md5(string_agg(ctid::text, ',' ORDER BY aid)) FROM pgbench_accounts};
	sql("SELECT 1 FROM bench.init('tpcb', scale => 3, jobs => $jobs, force => true)");
	my $before = sql($layout);
	like($before, qr/^300000 45000150000 /, "jobs => $jobs: 300000 accounts loaded");
	$node->stop('immediate');
	$node->start;
	is(sql($layout), $before, "jobs => $jobs: after a crash and recovery the rows are where they were");
	is(sql(q{SELECT count(*) FROM verify_heapam('pgbench_accounts')}), '0',
		"jobs => $jobs: verify_heapam finds nothing wrong in pgbench_accounts");
	my ($ret, $out, $err) = $node->psql('bk',
		q{SELECT bt_index_parent_check('pgbench_accounts_pkey', true, true)});
	is("$ret $err", '0 ', "jobs => $jobs: bt_index_parent_check finds pgbench_accounts_pkey whole, every row in it");
}

$node->stop;
done_testing();
