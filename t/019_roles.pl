# Two ordinary roles, set up as docs/install.md says, logged in as
# themselves, with a member of pgbenchkit_admin beside them.
#
#  - Schedules: alice schedules a benchmark every minute; pg_cron (in
#    database postgres, pgbenchkit in database lab) runs it as alice over a
#    libpq connection to the server's socket (cron.host), as docs/install.md
#    describes; bob neither sees, runs nor removes it, and schedules his own.
#  - Runs: bob neither sees, waits for nor cancels alice's run; the admin
#    sees and cancels it.
#  - pgbenchkit.max_workers_per_role set for bob alone (ALTER ROLE ... SET)
#    refuses a run of bob's that needs more, and caps nobody else.
#
# Needs the server's bin directory first in PATH and pgbenchkit installed
# into that server; the schedule part needs pg_cron (and waits for a
# minute boundary).
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);

my $sharedir = `pg_config --sharedir`;
chomp $sharedir;
my $has_cron = -e "$sharedir/extension/pg_cron.control";

my $node = PostgreSQL::Test::Cluster->new('roles');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 40
autovacuum = off
});
# pg_cron connects to the server's socket directory, where the node's
# pg_hba.conf trusts local connections (docs/install.md: a pg_hba.conf rule
# for local connections of the role)
$node->append_conf('postgresql.conf', "cron.host = '" . $node->host . "'\n") if $has_cron;
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION pg_cron') if $has_cron;
$node->safe_psql('postgres', 'CREATE DATABASE lab');
$node->safe_psql('lab', 'CREATE EXTENSION pgbenchkit CASCADE');

# the roles: LOGIN, a schema of their own first in their search_path, and
# the grants of docs/install.md
$node->safe_psql('lab', q{
CREATE ROLE alice LOGIN;
CREATE ROLE bob LOGIN;
CREATE ROLE carol LOGIN IN ROLE pgbenchkit_admin;
CREATE SCHEMA alice AUTHORIZATION alice;
CREATE SCHEMA bob AUTHORIZATION bob;
ALTER ROLE alice SET search_path = alice, public;
ALTER ROLE bob SET search_path = bob, public;
GRANT EXECUTE ON FUNCTION bench.init, bench.run, bench.start, bench.wait, bench.cancel TO alice, bob, carol;
GRANT EXECUTE ON FUNCTION bench.sweep, bench.start_sweep, bench.wait_suite, bench.cancel_suite TO alice, bob, carol;
GRANT EXECUTE ON FUNCTION bench.schedule, bench.unschedule, bench.run_schedule TO alice, bob, carol;
});

# a query as ROLE, logged in as that role: its output, or its error
sub as
{
	my ($role, $sql) = @_;
	my ($ret, $out, $err) = $node->psql('lab', $sql, extra_params => [ '-U', $role ]);
	return $ret == 0 ? $out : "ERROR: $err";
}

sub poll
{
	my ($db, $query, $expected, $seconds) = @_;
	my $deadline = time + $seconds;
	my $last = '';
	while (time < $deadline)
	{
		$last = $node->safe_psql($db, $query);
		return 1 if $last eq $expected;
		usleep(200_000);
	}
	diag "polling timed out after $seconds s: $query\nexpected: $expected\nlast: $last";
	return 0;
}

is(as('alice', q{SELECT workload || ' ' || scale FROM bench.init('tpcb')}), 'tpcb 1', 'alice loads tpcb into her schema');
is(as('bob', q{SELECT workload || ' ' || scale FROM bench.init('tpcb')}), 'tpcb 1', 'bob loads tpcb into his');

# ------------------------------------------------------------------ schedules
SKIP:
{
	skip 'pg_cron is not installed for this server version', 14 unless $has_cron;

	is(as('alice', q{SELECT name || ' ' || created_by || ' ' || (jobid IS NOT NULL)
	                 FROM bench.schedule('alice_minutely', '* * * * *', 'tpcb', clients => '{1}',
	                                     duration => '2 s', progress => '0')}),
		'alice_minutely alice true', 'alice, an ordinary role, makes a schedule');
	is($node->safe_psql('postgres', q{SELECT username, database, command FROM cron.job
	                                  WHERE jobname = 'pgbenchkit lab alice_minutely'}),
		q{alice|lab|SELECT * FROM bench.run_schedule('alice_minutely')},
		'its pg_cron job runs bench.run_schedule as alice, in database lab');
	is(as('alice', q{SELECT count(*) FROM bench.schedule_status WHERE name = 'alice_minutely'}), '1',
		'alice sees her schedule');

	is(as('bob', q{SELECT count(*) FROM bench.schedules}) . ' ' . as('bob', q{SELECT count(*) FROM bench.schedule_status}),
		'0 0', 'bob does not see it');
	like(as('bob', q{SELECT bench.unschedule('alice_minutely')}),
		qr/permission denied to unschedule schedule "alice_minutely"/, 'bob cannot remove it');
	like(as('bob', q{SELECT * FROM bench.run_schedule('alice_minutely')}),
		qr/permission denied to run schedule "alice_minutely"/, 'nor run it');
	is(as('bob', q{SELECT name || ' ' || created_by FROM bench.schedule('bob_nightly', '0 3 * * *', 'tpcb')}),
		'bob_nightly bob', 'bob makes a schedule of his own');

	ok(poll('lab', q{SELECT count(*) > 0 FROM bench.suites WHERE schedule = 'alice_minutely' AND status = 'done'},
			't', 80),
		'pg_cron ran alice\'s schedule: a suite is done');
	is($node->safe_psql('lab', q{SELECT s.created_by || ' ' || r.created_by || ' ' || r.status
	                             FROM bench.suites s JOIN bench.runs r ON r.suite_id = s.id
	                            WHERE s.schedule = 'alice_minutely' ORDER BY r.id LIMIT 1}),
		'alice alice done', 'as alice: the suite and its run are hers');
	ok(poll('postgres', q{SELECT count(*) > 0 FROM cron.job_run_details d JOIN cron.job j USING (jobid)
	                      WHERE j.jobname = 'pgbenchkit lab alice_minutely' AND d.status = 'succeeded'
	                        AND d.username = 'alice'}, 't', 20),
		'cron.job_run_details says alice\'s job succeeded');
	is(as('alice', q{SELECT count(*) > 0 FROM bench.suites WHERE schedule = 'alice_minutely'}) . ' '
		  . as('bob', q{SELECT count(*) FROM bench.suites WHERE schedule = 'alice_minutely'}),
		't 0', 'alice sees the suite, bob does not');

	is(as('alice', q{SELECT bench.unschedule('alice_minutely')}), 't', 'alice removes her schedule');
	is(as('bob', q{SELECT bench.unschedule('bob_nightly')}), 't', 'bob removes his');
	is($node->safe_psql('postgres', q{SELECT count(*) FROM cron.job}), '0', 'and their pg_cron jobs are gone');
}

# ------------------------------------------------------------------ runs
my $run = as('alice', q{SELECT bench.start('tpcb', duration => '60 s', progress => '0')});
like($run, qr/^\d+$/, "alice starts a run ($run)");
ok(poll('lab', qq{SELECT count(*) FROM bench.runs_in_progress WHERE id = $run}, '1', 20), 'it is running');
is(as('bob', qq{SELECT count(*) FROM bench.runs_in_progress WHERE id = $run}), '0', 'bob does not see it in progress');
like(as('bob', qq{SELECT bench.cancel($run)}), qr/run $run does not exist/, 'bob cannot cancel it');
like(as('bob', qq{SELECT * FROM bench.wait($run)}), qr/run $run does not exist/, 'nor wait for it');
is(as('carol', qq{SELECT count(*) FROM bench.runs_in_progress WHERE id = $run}), '1',
	'carol, a member of pgbenchkit_admin, sees it');
is(as('carol', qq{SELECT bench.cancel($run)}), 't', 'and cancels it');
is(as('alice', qq{SELECT status || ' ' || created_by FROM bench.runs WHERE id = $run}), 'canceled alice',
	'alice\'s run was canceled');

# ------------------------------------------------------------------ workers per role
$node->safe_psql('lab', q{ALTER ROLE bob SET pgbenchkit.max_workers_per_role = 2});
like(as('bob', q{SELECT status FROM bench.run('tpcb', clients => 2, transactions => 10, progress => '0')}),
	qr/bench\.run needs 3 background workers, but role "bob" may hold at most 2 \(pgbenchkit\.max_workers_per_role\)/,
	'a run of bob\'s that needs more workers than his cap is refused');
is(as('bob', q{SELECT status || ' ' || clients FROM bench.run('tpcb', clients => 1, transactions => 10, progress => '0')}),
	'done 1', 'one within it runs');
is(as('alice', q{SELECT status || ' ' || clients FROM bench.run('tpcb', clients => 2, transactions => 10, progress => '0')}),
	'done 2', 'alice is not capped');

$node->stop;
done_testing();
