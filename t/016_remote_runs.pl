# Runs against a target: a second server ("remote") that asks for a
# password (scram-sha-256 over TCP) and has no pgbenchkit, with pgbench's
# tables made there by pgbench -i.  The driver's runs play their clients
# over libpq in a few workers (jobs), with each protocol, a pipeline, a
# connection per transaction; each run's row says what the target said of
# itself; the target's tables show exactly the transactions counted.  Bad
# arguments, a role without USAGE, a target without the dataset are
# refused before anything starts; a cancel leaves no query of the run on
# the target; a target stopped mid-run ends the run 'failed' with what was
# measured kept; the password is nowhere.
#
# Needs the server's bin directory first in PATH and pgbenchkit installed
# into that server.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $password = 'T4rget-s3cret';

my $remote = PostgreSQL::Test::Cluster->new('remote');
$remote->init(allows_streaming => 0);
$remote->append_conf('postgresql.conf', qq{
listen_addresses = '127.0.0.1'
max_connections = 150
password_encryption = 'scram-sha-256'
log_statement = 'mod'
});
my $hba = $remote->data_dir . '/pg_hba.conf';
my $rules = slurp_file($hba);
open my $fh, '>', $hba or die "cannot write $hba: $!";
print $fh "host all bench_remote 127.0.0.1/32 scram-sha-256\n", $rules;
close $fh;
$remote->start;
# the statement that carries the password stays out of the target's log
$remote->safe_psql('postgres', qq{
	SET log_statement = 'none';
	CREATE ROLE bench_remote LOGIN PASSWORD '$password';
	RESET log_statement;
	GRANT CREATE ON SCHEMA public TO bench_remote;
	CREATE DATABASE empty;
	-- what managed services offer: statements and prewarm, and pg_monitor
	-- (the statements kept from here on: the password above is the test's)
	CREATE EXTENSION pg_stat_statements;
	SELECT pg_stat_statements_reset();
	CREATE EXTENSION pg_prewarm;
	GRANT pg_monitor TO bench_remote;
	CREATE TABLE pipeline_seen (client int, nxt int);
	GRANT ALL ON pipeline_seen TO bench_remote;
});
my $rport = $remote->port;

# pgbench's tables on the target, as the target's role makes them
{
	local $ENV{PGPASSWORD} = $password;
	my ($ok, $out, $err) = (0, '', '');
	$ok = IPC::Run::run(['pgbench', '-i', '-q', '-s', '2', '-h', '127.0.0.1', '-p', $rport,
		'-U', 'bench_remote', 'postgres'], '>', \$out, '2>', \$err);
	ok($ok, 'pgbench -i made the dataset on the target') or diag($err);
}

my $node = PostgreSQL::Test::Cluster->new('driver');
$node->init;
$node->start;
$node->safe_psql('postgres', qq{
	CREATE EXTENSION pg_stat_statements;
	CREATE EXTENSION pgbenchkit CASCADE;
	CREATE ROLE alice LOGIN;
	CREATE ROLE bob LOGIN;
	-- alice's statements (bench.add_target's password among them) stay out
	-- of the log (docs/functions.md, Targets)
	ALTER ROLE alice SET log_statement = 'none';
	GRANT USAGE ON FOREIGN DATA WRAPPER bench_target TO alice;
	GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA bench TO alice, bob;
});

sub as_role
{
	my ($role, $sql) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', $sql, extra_params => ['-U', $role]);
	return ($ret, $out, $err);
}

sub remote_value
{
	my ($sql, $db) = @_;
	return $remote->safe_psql($db // 'postgres', $sql);
}

my ($ret, $out, $err) = as_role('alice', qq{
	SELECT name FROM bench.add_target('remote', 'host=127.0.0.1 port=$rport dbname=postgres',
	                                  password => '$password', "user" => 'bench_remote');
	SELECT name FROM bench.add_target('empty', 'host=127.0.0.1 port=$rport dbname=empty',
	                                  password => '$password', "user" => 'bench_remote');});
is($ret, 0, 'alice adds the targets') or diag($err);

my $history = remote_value('SELECT count(*) FROM pgbench_history');

# tpcb over two workers, prepared: the run's row and the target's tables
($ret, $out, $err) = as_role('alice', q{
	SELECT status, driver, target, jobs, connect, scale, transactions > 0,
	       target_rtt_ms > 0, connection_time_ms > 0, settings ? 'max_connections',
	       settings->>'server_version' = server_version, unavailable ? 'host'
	  FROM bench.run('tpcb', clients => 4, jobs => 2, duration => '3 s', progress => '0',
	                 target => 'remote')});
is($ret, 0, 'a tpcb run against the target') or diag($err);
is($out, 'done|libpq|remote|2|per_run|2|t|t|t|t|t|t',
	'its row: done, libpq, the target, its jobs, the scale counted there, a round-trip time, settings');
my $version = remote_value(q{SELECT current_setting('server_version')});
is($node->safe_psql('postgres', q{SELECT server_version FROM bench.runs ORDER BY id DESC LIMIT 1}),
	$version, 'server_version is the target\'s');

sub balances_ok
{
	return remote_value(q{
		SELECT (SELECT sum(abalance) FROM pgbench_accounts) = (SELECT sum(tbalance) FROM pgbench_tellers)
		   AND (SELECT sum(tbalance) FROM pgbench_tellers) = (SELECT sum(bbalance) FROM pgbench_branches)
		   AND (SELECT sum(bbalance) FROM pgbench_branches) = (SELECT coalesce(sum(delta), 0) FROM pgbench_history)});
}

sub last_run
{
	return $node->safe_psql('postgres', qq{SELECT $_[0] FROM bench.runs ORDER BY id DESC LIMIT 1});
}

# the target's statistics, sampled over the coordinator's connection
my $run = last_run('id');
is($node->safe_psql('postgres', qq{
	SELECT count(*) FILTER (WHERE phase = 'before') || '|' || count(*) FILTER (WHERE phase = 'after') || '|'
	       || bool_and(data ? 'wal' AND data ? 'database' AND data ? 'tables' AND data ? 'indexes')
	       || '|' || bool_or(data ? 'statements') || '|' || bool_and(NOT data ? 'cpu')
	  FROM bench.samples WHERE run_id = $run}), '1|1|true|true|true',
	'samples of the target before and after: WAL, database, tables, indexes, statements, no CPU');
cmp_ok($node->safe_psql('postgres', qq{SELECT count(*) FROM bench.samples WHERE run_id = $run AND phase = 'during'}),
	'>=', 1, 'and during the run');
is($node->safe_psql('postgres', qq{SELECT xact_commit >= transactions, wal_bytes > 0, blks_hit > 0
	FROM bench.run_counters WHERE run_id = $run}), 't|t|t',
	'the target\'s commits, WAL and buffer hits over the run, from its samples');
is($node->safe_psql('postgres', qq{SELECT string_agg(relation, ',' ORDER BY relation) FROM bench.prewarms WHERE run_id = $run}),
	'public.pgbench_accounts,public.pgbench_accounts_pkey,public.pgbench_branches,public.pgbench_branches_pkey,public.pgbench_history,public.pgbench_tellers,public.pgbench_tellers_pkey',
	'the target\'s tables and indexes were prewarmed with its pg_prewarm');
is($node->safe_psql('postgres', qq{SELECT count(DISTINCT relation) FROM bench.relation_sizes WHERE run_id = $run AND phase = 'after'}),
	'7', 'the sizes of the target\'s relations');
is($node->safe_psql('postgres', qq{SELECT string_agg(key, ',' ORDER BY key) FROM bench.runs, jsonb_object_keys(unavailable) key WHERE id = $run}),
	'cpu,host', 'what a target does not show is named: its CPU and its host')
	or diag($node->safe_psql('postgres', qq{SELECT unavailable FROM bench.runs WHERE id = $run}));
like($node->safe_psql('postgres', qq{SELECT string_agg(query, ' ') FROM bench.run_statements WHERE run_id = $run}),
	qr/UPDATE pgbench_accounts SET abalance/, 'the target\'s statements of the run, from its pg_stat_statements');
like($node->safe_psql('postgres', qq{SELECT bench.report($run)}), qr/not available: host \(the host of a target cannot be read from here\)/,
	'the report says what the target does not show');

my $counted = last_run('transactions + warmup_transactions');
is(remote_value('SELECT count(*) FROM pgbench_history') - $history, $counted,
	'the target\'s history has exactly the transactions counted');
$history = remote_value('SELECT count(*) FROM pgbench_history');
is(balances_ok(), 't', 'balances agree on the target');

# each protocol, a fixed number of transactions per client
foreach my $protocol (qw(simple extended prepared))
{
	($ret, $out, $err) = as_role('alice', qq{
		SELECT status, transactions FROM bench.run('tpcb', clients => 3, jobs => 2, transactions => 20,
		                                           protocol => '$protocol', progress => '0', target => 'remote')});
	is($out, 'done|60', "protocol $protocol: 3 clients x 20 transactions") or diag($err);
	is(remote_value('SELECT count(*) FROM pgbench_history') - $history, 60,
		"protocol $protocol: 60 rows more in the target's history");
	$history = remote_value('SELECT count(*) FROM pgbench_history');
}
is(balances_ok(), 't', 'balances agree after every protocol');

# groups over two workers, one of which plays clients of both: each
# client runs its own group's script, each group keeps its own rate
($ret, $out, $err) = as_role('alice', q{
	SELECT status, transactions, jobs FROM bench.run(groups => $g$[
	         {"name": "writers", "workload": "tpcb", "clients": 2, "rate": 400},
	         {"name": "readers", "script": "insert into pipeline_seen values (:client_id, 9);", "clients": 3}]$g$,
	       jobs => 2, transactions => 10, progress => '0', target => 'remote')});
is($out, 'done|50|2', 'a run with two groups against the target, over two workers') or diag($err);
$run = last_run('id');
is($node->safe_psql('postgres', qq{
	SELECT string_agg(name || ':' || transactions || ':' || (rate IS NOT NULL) || ':' || (lag_avg_ms IS NOT NULL), ',' ORDER BY group_no)
	  FROM bench.run_groups WHERE run_id = $run}), 'writers:20:true:true,readers:30:false:false',
	'each group counted its own transactions; the limited one has a schedule lag');
is(remote_value('SELECT count(*) FROM pgbench_history') - $history, 20,
	'only the writers wrote history rows on the target');
$history = remote_value('SELECT count(*) FROM pgbench_history');
is(remote_value(q{SELECT count(*) || '|' || string_agg(DISTINCT client::text, ',' ORDER BY client::text) FROM pipeline_seen WHERE nxt = 9}),
	'30|2,3,4', 'only the readers, clients 2 to 4, ran the readers\' script');
is(balances_ok(), 't', 'balances agree after the groups');
$remote->safe_psql('postgres', 'DELETE FROM pipeline_seen WHERE nxt = 9');

# a pipeline, with a sync inside: its commands are sent at once, their
# results read at its end
my $pipeline = join("\n", '\startpipeline', 'insert into pipeline_seen values (:client_id, 1);',
	'insert into pipeline_seen values (:client_id, 2);', '\syncpipeline',
	'insert into pipeline_seen values (:client_id, 3);', '\endpipeline');
($ret, $out, $err) = as_role('alice', qq{
	SELECT status, transactions FROM bench.run(script => \$s\$$pipeline\$s\$,
	                                           clients => 4, jobs => 2, transactions => 5, protocol => 'extended',
	                                           progress => '0', target => 'remote')});
is($out, 'done|20', 'a pipelined script runs') or diag($err);
is(remote_value(q{SELECT count(*), count(DISTINCT client), string_agg(DISTINCT nxt::text, ',') FROM pipeline_seen}),
	'60|4|1,2,3', 'every command of every pipeline reached the target');

# an error in a pipeline: the command it came from, and the rest rolled back
$pipeline = join("\n", '\startpipeline', 'insert into pipeline_seen values (:client_id, 4);',
	'select 1 / 0;', 'insert into pipeline_seen values (:client_id, 5);', '\endpipeline');
($ret, $out, $err) = as_role('alice', qq{
	SELECT * FROM bench.run(script => \$s\$$pipeline\$s\$, clients => 1, transactions => 1,
	                        protocol => 'prepared', progress => '0', target => 'remote')});
like($err, qr/division by zero \(script "\(script\)", line 3\)/, 'an error in a pipeline names its command');
is(remote_value(q{SELECT count(*) FROM pipeline_seen WHERE nxt >= 4}), '0',
	'the pipeline\'s implicit transaction was rolled back');

# more jobs than clients: as many workers as clients, as pgbench has threads
($ret, $out, $err) = as_role('alice', q{
	SELECT status, jobs FROM bench.run('select-only', clients => 2, jobs => 8, transactions => 5,
	                                   progress => '0', target => 'remote')});
is($out, 'done|2', 'jobs above clients run as many workers as clients') or diag($err);

# a connection per transaction (pgbench -C)
my $conns = remote_value(q{SELECT sum(numbackends) FROM pg_stat_database});
($ret, $out, $err) = as_role('alice', q{
	SELECT status, transactions, connect, connection_time_ms > 0
	  FROM bench.run('tpcb', clients => 2, transactions => 10, connect => 'per_transaction',
	                 progress => '0', target => 'remote')});
is($out, 'done|20|per_transaction|t', 'a run with a connection per transaction') or diag($err);
is(remote_value('SELECT count(*) FROM pgbench_history') - $history, 20,
	'its transactions reached the target');
$history = remote_value('SELECT count(*) FROM pgbench_history');

# many clients in a few workers
($ret, $out, $err) = as_role('alice', q{
	SELECT status, clients, jobs, transactions > 0,
	       (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'pgbenchkit client')
	  FROM bench.run('tpcb', clients => 100, jobs => 3, duration => '3 s', progress => '0',
	                 target => 'remote')});
is($out, 'done|100|3|t|0', '100 clients in 3 workers') or diag($err);
# its report gives the workers as pgbench gives its -j threads
like($node->safe_psql('postgres', 'SELECT bench.report(' . last_run('id') . ')'),
	qr/^number of clients: 100\nnumber of threads: 3\n/m,
	'the report: 100 clients, 3 threads (the run\'s jobs)');
is(last_run(q{bench.report_json(id)->'pgbench'->>'number_of_threads'}), '3',
	'report_json: number_of_threads is the run\'s jobs');
is(balances_ok(), 't', 'balances agree after 100 clients');

# the prepared statements gone under the session's feet, as behind a pooler
($ret, $out, $err) = as_role('alice', q{
	SELECT * FROM bench.run(script => E'select 1;\nDEALLOCATE ALL;', clients => 1, transactions => 3,
	                        progress => '0', target => 'remote')});
isnt($ret, 0, 'a prepared statement missing on the server fails the run');
like($err, qr/connection pooler in transaction mode/, 'the error says a pooler may be why');
like($err, qr/protocol => 'extended'/, 'and which protocol to use');

# bench.compare: an in-server run beside a run against the target, with a warning
$node->safe_psql('postgres', q{SELECT rows_loaded FROM bench.init('tpcb', scale => 1)});
my $local_run = $node->safe_psql('postgres',
	q{SELECT id FROM bench.run('select-only', clients => 2, transactions => 50, progress => '0')});
($ret, $out, $err) = $node->psql('postgres', qq{
	SELECT metric || '=' || coalesce(a_value, '') || '/' || coalesce(b_value, '')
	  FROM bench.compare($local_run, $run) WHERE metric IN ('driver', 'target') ORDER BY metric});
like($err, qr/WARNING:  comparing runs of different drivers or targets/,
	'bench.compare warns when the drivers or targets differ');
is($out, "driver=server/libpq
target=/remote", 'and shows both');

# a schedule with a target, where pg_cron is there to hold it
if ($node->safe_psql('postgres', q{SELECT count(*) FROM pg_available_extensions WHERE name = 'pg_cron'}) eq '1')
{
	# (as the superuser, with a user mapping of its own: a schedule of an
	# ordinary role is another issue's)
	$node->safe_psql('postgres', qq{CREATE EXTENSION pg_cron;
		SET log_statement = 'none'; SET pg_stat_statements.track_utility = off;
		CREATE USER MAPPING FOR CURRENT_USER SERVER remote OPTIONS (user 'bench_remote', password '$password')});
	($ret, $out, $err) = $node->psql('postgres', q{
		SELECT name FROM bench.schedule('nightly-remote', '0 3 * * *', 'select-only', clients => '{2}',
		                                duration => '1 s', progress => '0', jobs => 1, target => 'remote');
		SELECT count(*) FROM bench.run_schedule('nightly-remote');
		SELECT target || '|' || driver || '|' || status FROM bench.runs
		 WHERE tag = 'nightly-remote' ORDER BY id DESC LIMIT 1;});
	is((split /\n/, $out)[-1], 'remote|libpq|done', 'a schedule runs against its target') or diag($err);
}

# refused before anything starts
my $runs = $node->safe_psql('postgres', 'SELECT count(*) FROM bench.runs');
($ret, $out, $err) = as_role('bob', q{SELECT * FROM bench.run('tpcb', duration => '1 s', target => 'remote')});
like($err, qr/permission denied for target "remote"/, 'a role without USAGE on the target is refused');
($ret, $out, $err) = as_role('alice', q{SELECT * FROM bench.run('tpcb', duration => '1 s', target => 'nosuch')});
like($err, qr/target "nosuch" does not exist/, 'an unknown target is refused');
($ret, $out, $err) = as_role('alice', q{SELECT * FROM bench.run('tpcb', clients => 2, jobs => 0, duration => '1 s', target => 'remote')});
like($err, qr/jobs must be at least 1, not 0/, 'no jobs is refused');
($ret, $out, $err) = $node->psql('postgres', q{SELECT * FROM bench.run('select-only', clients => 2, jobs => 1, duration => '1 s')});
like($err, qr/jobs needs a target/, 'jobs without a target is refused');
($ret, $out, $err) = $node->psql('postgres', q{SELECT * FROM bench.run('select-only', connect => 'per_transaction', duration => '1 s')});
like($err, qr/connect => 'per_transaction' needs a target/, 'a connection per transaction needs a target');
($ret, $out, $err) = as_role('alice', q{SELECT * FROM bench.run('tpcb', connect => 'sometimes', duration => '1 s', target => 'remote')});
like($err, qr/unknown connect "sometimes"/, 'an unknown connect is refused');
($ret, $out, $err) = as_role('alice', q{SELECT * FROM bench.run('tpcb', duration => '1 s', target => 'empty')});
like($err, qr/target "empty" has no pgbench_branches/, 'a target without the dataset is refused');
is($node->safe_psql('postgres', 'SELECT count(*) FROM bench.runs'), $runs, 'no run row was made for any of them');

# a cancel: the run ends 'canceled', and no query of it is left on the target
my $id = (split /\n/, (as_role('alice', q{SELECT bench.start(script => 'select pg_sleep(30);', clients => 3,
	jobs => 1, duration => '60 s', target => 'remote')}))[1])[-1];
ok($id =~ /^\d+$/, 'a long run started') or diag($id);
$remote->poll_query_until('postgres',
	q{SELECT count(*) = 3 FROM pg_stat_activity WHERE query = 'select pg_sleep(30)' AND state = 'active'})
	or diag('the sleeps did not start');
($ret, $out, $err) = as_role('alice', qq{SELECT bench.cancel($id); SELECT status FROM bench.wait($id)});
is((split /\n/, $out)[-1], 'canceled', 'the run was canceled') or diag($err);
ok($remote->poll_query_until('postgres',
	q{SELECT count(*) = 0 FROM pg_stat_activity WHERE query = 'select pg_sleep(30)' AND state = 'active'}),
	'no query of the run is left running on the target');

# the target stops mid-run: 'failed', with what was measured kept
$id = (split /\n/, (as_role('alice', q{SELECT bench.start('select-only', clients => 2, jobs => 1,
	duration => '60 s', progress => '1 s', target => 'remote')}))[1])[-1];
$node->poll_query_until('postgres', qq{SELECT count(*) >= 2 FROM bench.progress WHERE run_id = $id})
	or diag('no progress');
$remote->stop('fast');
($ret, $out, $err) = as_role('alice', qq{SELECT status, sqlstate, transactions > 0, error FROM bench.wait($id)});
like($out, qr/^failed\|08006\|t\|client \d+: connection to target "remote" failed/,
	'a target stopped mid-run: failed, 08006, its transactions kept') or diag($err);
$remote->start;

# on_disconnect => 'continue': a client whose connection breaks ends, the
# others go on, and the run says how many it lost
$id = (split /\n/, (as_role('alice', q{SELECT bench.start('select-only', clients => 2, jobs => 1,
	duration => '4 s', progress => '1 s', on_disconnect => 'continue', target => 'remote')}))[1])[-1];
$remote->poll_query_until('postgres', qq{SELECT count(*) = 2 FROM pg_stat_activity
	WHERE application_name = 'pgbenchkit run $id worker 0'}) or diag('the clients did not connect');
$node->poll_query_until('postgres', qq{SELECT count(*) >= 1 FROM bench.progress WHERE run_id = $id})
	or diag('no progress');
is(remote_value(qq{SELECT count(pg_terminate_backend(pid)) FROM (SELECT pid FROM pg_stat_activity
	WHERE application_name = 'pgbenchkit run $id worker 0' LIMIT 1) c}), '1', 'one client\'s connection terminated');
($ret, $out, $err) = as_role('alice', qq{SELECT status, on_disconnect, clients_lost, transactions > 0 FROM bench.wait($id)});
is($out, 'done|continue|1|t', 'the run went on with the other client and says it lost one') or diag($err);

# the password, nowhere
my $dump = $node->safe_psql('postgres', q{
	SELECT string_agg(to_jsonb(r)::text, ' ') FROM bench.runs r});
unlike($dump, qr/\Q$password\E/, 'bench.runs has no password');
unlike(slurp_file($node->logfile), qr/\Q$password\E/, 'the driver\'s log has no password');
unlike(slurp_file($remote->logfile), qr/\Q$password\E/, 'the target\'s log has no password');
unlike(remote_value(q{SELECT string_agg(coalesce(application_name, '') || ' ' || coalesce(query, ''), ' ') FROM pg_stat_activity}),
	qr/\Q$password\E/, 'the target\'s pg_stat_activity has no password');
unlike(remote_value(q{SELECT string_agg(query, ' ') FROM pg_stat_statements}),
	qr/\Q$password\E/, 'the target\'s pg_stat_statements has no password');
unlike($node->safe_psql('postgres', q{SELECT string_agg(data::text, ' ') FROM bench.samples}),
	qr/\Q$password\E/, 'no sample has the password');
unlike($node->safe_psql('postgres', q{SELECT string_agg(query, ' ') FROM pg_stat_statements}),
	qr/\Q$password\E/, 'the driver\'s pg_stat_statements has no password');
{
	# every row of every table of the driver's database (the user mapping
	# itself, a catalog entry, is where the password is meant to be)
	my ($dump, $dump_err) = ('', '');
	IPC::Run::run(['pg_dump', '--data-only', '-d', $node->connstr('postgres')], '>', \$dump, '2>', \$dump_err)
		or die "pg_dump failed: $dump_err";
	like($dump, qr/COPY bench\._runs /, 'pg_dump --data-only dumps the results (the table under bench.runs)');
	unlike($dump, qr/\Q$password\E/, 'and no table of the driver\'s database has the password');
}

$node->stop;
$remote->stop;
done_testing();
