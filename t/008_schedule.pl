# Schedules end to end.
#
#  - Regression detection: a schedule whose workload becomes ten times
#    slower is flagged in bench.regressions, and its execution notifies
#    channel bench_regression once, with the suite's id as the payload and
#    nothing else (any role may LISTEN; the details are read under row
#    level security).
#  - With pg_cron (where the server has it): pg_cron lives in database
#    postgres, pgbenchkit in database lab, so the job is created over there;
#    a schedule every minute runs; an execution that would overlap a
#    running benchmark is refused, and the refusal shows in bench.suites and
#    in cron.job_run_details as a failure with the reason; unschedule
#    removes the job.
#
# Needs the server's bin directory first in PATH and pgbenchkit installed
# into that server.  The pg_cron part waits for two minute boundaries.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);

my $sharedir = `pg_config --sharedir`;
chomp $sharedir;
my $has_cron = -e "$sharedir/extension/pg_cron.control";

my $node = PostgreSQL::Test::Cluster->new('schedule');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 40
autovacuum = off
});
# (the version's TAP settings preload pg_cron where it exists, with
# cron.database_name = 'postgres'); jobs run in background workers
$node->append_conf('postgresql.conf', qq{
cron.use_background_workers = on
}) if $has_cron;
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE lab');
$node->safe_psql('lab', 'CREATE EXTENSION pgbenchkit CASCADE');
$node->safe_psql('lab', q{SELECT dataset_id FROM bench.init('tpcb', scale => 1)});
$node->safe_psql('postgres', 'CREATE EXTENSION pg_cron') if $has_cron;

sub lab { return $node->safe_psql('lab', $_[0]); }

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

# ------------------------------------------------------------------ regressions

# a workload of one pg_sleep per transaction: its speed is the test's to
# set, in a table (a scheduled workload's scripts cannot be replaced)
lab(q{CREATE TABLE sleep_for (seconds double precision); INSERT INTO sleep_for VALUES (0.002)});
lab(q{SELECT name FROM bench.define_workload('sleepy', E'SELECT pg_sleep(seconds) FROM sleep_for;\n', 'sleeps as long as sleep_for says')});
if ($has_cron)
{
	lab(q{SELECT name FROM bench.schedule('sleepy', '0 0 1 1 *', 'sleepy', clients => '{1,2}',
	      transactions => 40, progress => '0', baseline_runs => 2, threshold => 0.3)});
}
else
{
	# the same row bench.schedule would make; run_schedule needs no pg_cron
	lab(q{INSERT INTO bench.schedules (name, cron, workload, clients, repeat, run_order, args,
	                                   search_path, baseline_runs, threshold, cron_database)
	      SELECT 'sleepy', '0 0 1 1 *', s->>'workload', '{1,2}', 1, s->>'run_order', s->'args',
	             s->>'search_path', 2, 0.3, 'postgres'
	        FROM bench._sweep_spec('sleepy', '{1,2}', 1, NULL, 40, 'prepared', '0', '0', 1,
	                               NULL, true, '1 s', 'interleaved') AS s});
}

lab(q{SELECT count(*) FROM bench.run_schedule('sleepy')}) for 1 .. 2;
is(lab(q{SELECT count(*) FILTER (WHERE regression), count(*) FILTER (WHERE baseline_runs = 1)
         FROM bench.schedule_results WHERE schedule = 'sleepy'}),
	'0|2', 'two executions at the same speed: no regression; the second has a baseline of one');

# ten times slower; its execution in a session that listens
lab(q{UPDATE sleep_for SET seconds = 0.02});
my ($ret, $out, $err) = $node->psql('lab',
	"LISTEN bench_regression;\nSELECT count(*) FROM bench.run_schedule('sleepy');\nSELECT 1;");
is($ret, 0, 'the slow execution ends done') or diag $err;
my @notes = $out =~ /notification "bench_regression" with payload "(.*?)" received/g;
my $slow_suite = lab(q{SELECT max(id) FROM bench.suites WHERE schedule = 'sleepy'});
is_deeply(\@notes, [$slow_suite], 'one notification, whose payload is exactly the suite\'s id')
  or diag $out;
is(lab(q{SELECT count(*), bool_and(tps_ratio < 0.5), min(baseline_runs)
         FROM bench.regressions WHERE schedule = 'sleepy'}),
	'2|t|2', 'bench.regressions lists both client counts of the slow execution');
is(lab(q{SELECT last_status, last_regression, done FROM bench.schedule_status WHERE name = 'sleepy'}),
	'done|t|3', 'bench.schedule_status shows the last execution regressed');

# a suite that is not scheduled never notifies, and is not in the views
($ret, $out, $err) = $node->psql('lab',
	"LISTEN bench_regression;\nSELECT count(*) FROM bench.sweep('sleepy', clients => '{1}', repeat => 1, transactions => 5, progress => '0');\nSELECT 1;");
unlike($out, qr/Asynchronous notification/, 'an unscheduled sweep sends no notification');
is(lab(q{SELECT count(*) FROM bench.schedule_results WHERE schedule IS NULL}), '0',
	'bench.schedule_results holds scheduled suites only');

# a run of a suite that commits no transaction (its one client sleeps past
# the end): its NOTICE says 0 tps and no latency, as its report does
lab(q{SELECT name FROM bench.define_workload('nothing', '\sleep 5 s' || chr(10) || 'SELECT 1;')});
($ret, $out, $err) = $node->psql('lab',
	"SELECT count(*) FROM bench.sweep('nothing', clients => '{1}', repeat => 1, duration => '1 s', progress => '0');");
is($ret, 0, 'a sweep whose run commits nothing ends') or diag $err;
my $nothing_run = lab(q{SELECT max(id) FROM bench.runs WHERE workload = 'nothing'});
is(lab(qq{SELECT status, transactions FROM bench.runs WHERE id = $nothing_run}), 'done|0',
	'its run is done with 0 transactions');
like($err, qr/NOTICE:  suite \d+: run $nothing_run done: 0 tps, latency average n\/a \(no transaction\)$/m,
	'its NOTICE says 0 tps and no latency') or diag $err;
like(lab(qq{SELECT bench.report($nothing_run)}), qr/^tps = 0\.000000 /m, 'as the report says tps = 0');
unlike(lab(qq{SELECT bench.report($nothing_run)}), qr/^latency average/m, 'and gives no latency');

# ------------------------------------------------------------------ pg_cron
SKIP:
{
	skip 'pg_cron is not installed for this server version', 12 unless $has_cron;

	is(lab(q{SELECT cron_database, jobid IS NOT NULL FROM bench.schedules WHERE name = 'sleepy'}),
		'postgres|t', 'the job of a schedule lives in pg_cron\'s database');

	# every minute: a short tpcb run
	lab(q{SELECT name FROM bench.schedule('minutely', '* * * * *', 'tpcb', clients => '{1}',
	      duration => '2 s', progress => '0')});
	is($node->safe_psql('postgres',
			q{SELECT jobname, schedule, command, database, username = current_user, active
			    FROM cron.job WHERE jobname LIKE '%minutely'}),
		q{pgbenchkit lab minutely|* * * * *|SELECT * FROM bench.run_schedule('minutely')|lab|t|t},
		'the pg_cron job: every minute, bench.run_schedule in database lab, as the caller');

	ok(poll('lab', q{SELECT count(*) > 0 FROM bench.suites WHERE schedule = 'minutely' AND status = 'done'},
			't', 80),
		'pg_cron ran the schedule: a suite is done');
	is(lab(q{SELECT r.tag, r.clients, r.status FROM bench.runs r JOIN bench.suites s ON s.id = r.suite_id
	         WHERE s.schedule = 'minutely' ORDER BY r.id LIMIT 1}),
		'minutely|1|done', 'its run is tagged with the schedule\'s name');
	ok(poll('postgres', q{SELECT count(*) > 0 FROM cron.job_run_details d JOIN cron.job j USING (jobid)
	                      WHERE j.jobname LIKE '%minutely' AND d.status = 'succeeded'}, 't', 20),
		'cron.job_run_details says succeeded');

	# a run that lasts over the next minute boundary: that execution is refused
	my $secs = 60 - (time % 60);
	if ($secs < 8)
	{
		sleep($secs + 1);
		$secs = 60 - (time % 60);
	}
	my $run = lab(sprintf(q{SELECT bench.start('tpcb', duration => '%d s', progress => '0')}, $secs + 10));
	ok(poll('lab', q{SELECT count(*) > 0 FROM bench.suites WHERE schedule = 'minutely' AND status = 'refused'},
			't', $secs + 20),
		'the execution that would overlap a running benchmark is refused');
	like(lab(q{SELECT sqlstate || ' ' || error FROM bench.suites WHERE schedule = 'minutely' AND status = 'refused'
	           ORDER BY id LIMIT 1}),
		qr/^55006 run $run is still running$/, 'the refused suite names the run it would have overlapped');
	ok(poll('postgres', q{SELECT count(*) > 0 FROM cron.job_run_details d JOIN cron.job j USING (jobid)
	                      WHERE j.jobname LIKE '%minutely' AND d.status = 'failed'
	                        AND d.return_message LIKE '%was refused: run % is still running%'}, 't', 20),
		'cron.job_run_details says failed, with the reason');
	is(lab(qq{SELECT status FROM bench.wait($run)}), 'done', 'the overlapped run itself was not disturbed');
	is(lab(q{SELECT suites >= 2, refused >= 1, last_error IS NULL OR last_error LIKE '%still running'
	         FROM bench.schedule_status WHERE name = 'minutely'}),
		't|t|t', 'bench.schedule_status counts executions and refusals');

	# changing pg_cron's job from here is refused in a transaction block
	my ($r2, $o2, $e2) = $node->psql('lab',
		q{BEGIN; SELECT bench.schedule('intx', '0 3 * * *', 'tpcb'); ROLLBACK;});
	like($e2, qr/its job cannot be changed inside a transaction block/,
		'a schedule in another database cannot be made inside a transaction block');

	lab(q{SELECT bench.unschedule('minutely')});
	lab(q{SELECT bench.unschedule('sleepy')});
	is($node->safe_psql('postgres', q{SELECT count(*) FROM cron.job}), '0',
		'bench.unschedule removed the jobs from pg_cron\'s database');
}

$node->stop;
done_testing();
