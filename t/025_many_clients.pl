# A thousand clients against a target, and what a dead driver leaves there.
#
# The end of a run with many connections: every query still in progress on
# the target gets its cancel request at once (helper threads send them, the
# worker does not wait for each), so that no session is left running there
# when the run returns; every transaction the target committed is counted,
# and none it did not (pgbench_history against the run's count), at 1,000
# clients on 4 workers and 1,100 on one.
#
# A driver that dies: the run's sessions on the target have it check that
# their client is still there (client_connection_check_interval), so that
# their queries end without waiting for the statement to finish; and the
# next bench call that records the run as aborted terminates, as the run's
# role, whatever of the run is still there by its application_name.
#
# Needs the server's bin directory first in PATH and pgbenchkit installed
# into that server.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);

my $password = 'M4ny-s3cret';

my $remote = PostgreSQL::Test::Cluster->new('remote');
$remote->init(allows_streaming => 0);
$remote->append_conf('postgresql.conf', qq{
listen_addresses = '127.0.0.1'
max_connections = 1200
password_encryption = 'scram-sha-256'
});
my $hba = $remote->data_dir . '/pg_hba.conf';
my $rules = slurp_file($hba);
open my $fh, '>', $hba or die "cannot write $hba: $!";
print $fh "host all bench_remote 127.0.0.1/32 scram-sha-256\n", $rules;
close $fh;
$remote->start;
$remote->safe_psql('postgres', qq{
	SET log_statement = 'none';
	CREATE ROLE bench_remote LOGIN PASSWORD '$password';
	RESET log_statement;
	GRANT CREATE ON SCHEMA public TO bench_remote;
	CREATE TABLE seen (setting text);
	GRANT ALL ON seen TO bench_remote;
});
my $rport = $remote->port;

my $node = PostgreSQL::Test::Cluster->new('driver');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 16
# a backend killed with SIGKILL makes the postmaster restart every process
restart_after_crash = on
});
$node->start;
$node->safe_psql('postgres', qq{
	CREATE EXTENSION pgbenchkit CASCADE;
	SET log_statement = 'none';
	SELECT name FROM bench.add_target('remote', 'host=127.0.0.1 port=$rport dbname=postgres',
	                                  password => '$password', "user" => 'bench_remote');
});
$node->safe_psql('postgres', q{SELECT dataset_id FROM bench.init('tpcb', scale => 2, target => 'remote')});

sub sql { return $node->safe_psql('postgres', $_[0]); }
sub remote { return $remote->safe_psql('postgres', $_[0]); }

# Poll SQL on NODE until it returns EXPECTED or SECONDS pass; true if it did.
sub poll
{
	my ($n, $query, $expected, $seconds) = @_;
	my $deadline = time + $seconds;
	my $last = '';
	while (time < $deadline)
	{
		my ($ret, $out, $err) = (1, '', '');
		eval { ($ret, $out, $err) = $n->psql('postgres', $query); 1 };
		$last = "$out$err";
		return 1 if $ret == 0 && $out eq $expected;
		usleep(100_000);
	}
	diag "polling timed out after $seconds s: $query\nexpected: $expected\nlast: $last";
	return 0;
}

# the run's sessions on the target, by the application names it gives them
sub sessions_of
{
	my ($id) = @_;
	return remote(qq{SELECT count(*) FROM pg_stat_activity
	                  WHERE application_name = 'pgbenchkit run $id'
	                     OR application_name LIKE 'pgbenchkit run $id worker %'});
}

# ------------------------------------------------------------------
# Every committed transaction counted, at 1,000 clients on 4 workers and
# 1,100 on one: the run's count is what pgbench_history gained, and the
# balances agree (a transaction counted is one the target committed).
for my $case ([1000, 4], [1100, 1])
{
	my ($clients, $jobs) = @$case;
	my $before = remote('SELECT count(*) FROM pgbench_history');
	my $row = sql(qq{
		SELECT id, status, transactions, failures, measured_s > 0
		  FROM bench.run('tpcb', clients => $clients, jobs => $jobs, duration => '4 s',
		                 progress => '0', prewarm => false, target => 'remote')});
	my ($id, $status, $xacts, $failures, $measured) = split /\|/, $row;
	is("$status|$failures|$measured", 'done|0|t', "tpcb, $clients clients on $jobs workers: done, no failure");
	my $after = remote('SELECT count(*) FROM pgbench_history');
	cmp_ok($xacts, '>', 0, "tpcb, $clients clients on $jobs workers: transactions counted");
	is($after - $before, $xacts,
		"tpcb, $clients clients on $jobs workers: pgbench_history gained exactly the $xacts transactions counted");
	is(remote(q{SELECT (SELECT sum(abalance) FROM pgbench_accounts) = (SELECT sum(delta) FROM pgbench_history)
	               AND (SELECT sum(tbalance) FROM pgbench_tellers) = (SELECT sum(delta) FROM pgbench_history)
	               AND (SELECT sum(bbalance) FROM pgbench_branches) = (SELECT sum(delta) FROM pgbench_history)}),
		't', "tpcb, $clients clients on $jobs workers: the balances agree with the history");
	is(sessions_of($id), '0', "tpcb, $clients clients on $jobs workers: no session of the run left on the target");
}

# ------------------------------------------------------------------
# The end cancels every query in progress, all at once: a thousand
# sessions each in a long pg_sleep at the end of a 2 s run.  Each worker
# hands its requests to its threads in one pass (the debug line says how
# many), and the run returns with nothing of it left on the target.
sql(q{ALTER SYSTEM SET log_min_messages = debug1});
$node->reload;
# the workers are forked by the postmaster: once a new session has the
# setting, so have they
ok(poll($node, 'SHOW log_min_messages', 'debug1', 60), 'the driver logs debug lines');
my $offset = -s $node->logfile;
my $row = sql(q{
	SELECT id, status, transactions
	  FROM bench.run(script => 'SELECT pg_sleep(600);', clients => 1000, jobs => 4,
	                 duration => '2 s', progress => '0', prewarm => false, target => 'remote')});
sql(q{ALTER SYSTEM RESET log_min_messages});
$node->reload;
my ($sleep_id, $sleep_status, $sleep_xacts) = split /\|/, $row;
is("$sleep_status|$sleep_xacts", 'done|0', 'a thousand pg_sleep(600): the run ends done at its end, none counted');
is(sessions_of($sleep_id), '0', 'a thousand pg_sleep(600): no session of the run left on the target');
my $log = substr(slurp_file($node->logfile), $offset);
my @passes = $log =~ /(\d+) cancel requests to the target handed to (\d+) threads at once/g;
my ($requests, $multi) = (0, 1);
for (my $i = 0; $i < @passes; $i += 2)
{
	$requests += $passes[$i];
	$multi = 0 unless $passes[$i + 1] > 1;
}
is(scalar(@passes) / 2, 4, 'a thousand pg_sleep(600): each of the 4 workers sent its cancel requests in one pass');
is($requests, 1000, 'a thousand pg_sleep(600): a cancel request for every query in progress');
ok($multi, 'a thousand pg_sleep(600): each pass on several threads');

# ------------------------------------------------------------------
# The sessions of a run have the target check for their client.
sql(q{SELECT status FROM bench.run(script => $$INSERT INTO seen SELECT current_setting('client_connection_check_interval');$$,
                                   clients => 2, jobs => 1, transactions => 1,
                                   progress => '0', prewarm => false, target => 'remote')});
is(remote(q{SELECT string_agg(DISTINCT setting, ',') || ' ' || count(*) FROM seen}), '1s 2',
	'the run\'s sessions on the target check for their client every second');

# ------------------------------------------------------------------
# A driver that dies (kill -9 of a client worker, the crash restart of
# every process): the run's queries on the target end without running
# their course, and the next bench call terminates what is left.
my $id = sql(q{SELECT bench.start(script => 'SELECT pg_sleep(600);', clients => 4, jobs => 2,
                                  duration => '5 min', prewarm => false, target => 'remote')});
ok(poll($remote, qq{SELECT count(*) FROM pg_stat_activity
                     WHERE application_name LIKE 'pgbenchkit run $id worker %' AND state = 'active'
                       AND query LIKE 'SELECT pg_sleep%'}, '4', 60),
	'a dying driver: the run\'s four sleeps run on the target');
# what a target that does not check for its clients would keep: a session
# of the run's role under the run's name, whose client stays
my ($lout, $lerr) = ('', '');
my $leftover;
{
	local $ENV{PGPASSWORD} = $password;
	local $ENV{PGAPPNAME} = "pgbenchkit run $id worker 99";
	$leftover = IPC::Run::start(['psql', '-X', '-h', '127.0.0.1', '-p', $rport, '-U', 'bench_remote',
		'-d', 'postgres', '-c', 'SELECT pg_sleep(600)'], '>', \$lout, '2>', \$lerr);
}
ok(poll($remote, qq{SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pgbenchkit run $id worker 99'
                       AND state = 'active'}, '1', 60), 'a dying driver: a session left under the run\'s name');

my $pid = sql(q{SELECT min(pid) FROM pg_stat_activity WHERE backend_type = 'pgbenchkit client'});
$offset = -s $node->logfile;
ok(kill('KILL', $pid), "a dying driver: kill -9 of client worker $pid");
$node->wait_for_log(qr/all server processes terminated; reinitializing/, $offset);
ok(poll($node, 'SELECT 1', '1', 120), 'a dying driver: the server is back');
ok(poll($remote, qq{SELECT count(*) FROM pg_stat_activity
                     WHERE application_name = 'pgbenchkit run $id'
                        OR application_name LIKE 'pgbenchkit run $id worker _'}, '0', 60),
	'a dying driver: the run\'s own sessions ended on the target (they check for their client)');
is(sessions_of($id), '1', 'a dying driver: only the session without a checking client is left');

$offset = -s $node->logfile;
# a bench call that waits for a run records the dead one as aborted
is(sql(qq{SELECT status FROM bench.wait($id)}), 'aborted', 'a dying driver: the run is aborted');
is(sessions_of($id), '0', 'a dying driver: the next bench call terminated what was left on the target');
like(substr(slurp_file($node->logfile), $offset),
	qr/terminated 1 session that run $id left on target "remote"/,
	'a dying driver: the log says what was terminated');
$leftover->finish;
like($lerr, qr/terminating connection due to administrator command/,
	'a dying driver: the session left was terminated by an administrator command');

done_testing();
