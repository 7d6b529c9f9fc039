# bench.capacity against a server whose capacity is known in advance.
#
# The workload is one pg_sleep of 20 ms per transaction, run by 8 clients
# at a rate: each client follows a Poisson schedule of an eighth of the
# rate and runs one transaction at a time, so each is an M/D/1 queue whose
# service time D is the transaction's (the sleep and the statement's
# overhead, measured here as the average latency of the search's
# unthrottled probe).  A transaction's latency counts from its scheduled
# start: its wait in the queue plus D.  For an M/D/1 queue of arrival rate
# a the wait W has the distribution (Erlang)
#
#   P(W <= t) = (1 - aD) sum_{k=0}^{floor(t/D)} (a(kD - t))^k / k! e^{-a(kD - t)}
#
# so the highest total rate 8a whose p-quantile of W + D stays within a
# limit L is a number this test computes exactly, by bisection on a.  The
# search's answer must be within its precision (5%) of it, plus a
# tolerance for what the model leaves out: the sleep's own jitter (the
# service time is not quite deterministic, which lengthens the queue and
# lowers the capacity), the histogram's percentile and the first seconds
# of each run, where the queues start empty.  Two objectives, p99 <= 100 ms
# and p99 <= 200 ms, whose capacities are some 30% apart: the stricter one
# must give the lower answer.
#
# Then the answer's bookkeeping: the steps' verdicts agree with their
# percentiles and the limit, the bracket doubles until a failure and
# bisects after it; and an exported search whose first failing rate is
# edited to look as if the clients could not keep their schedule (the lag
# most of the latency, the clients mostly idle) is imported and said to be
# limited by the clients.
#
# Needs the server's bin directory first in PATH and pgbenchkit installed
# into that server.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use POSIX qw(floor);

my ($CLIENTS, $SLEEP) = (8, 0.02);
my $PRECISION = 0.05;
my $TOLERANCE = 0.15;

my $node = PostgreSQL::Test::Cluster->new('capacity');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 32
});
$node->start;
$node->safe_psql('postgres', 'SET client_min_messages = warning; CREATE EXTENSION pgbenchkit CASCADE');

sub sql { return $node->safe_psql('postgres', $_[0]); }

# P(W <= t) of an M/D/1 queue with arrival rate a and service time d
sub mdl_wait_cdf
{
	my ($t, $a, $d) = @_;
	return 0 if $t < 0;
	my $sum = 0;
	for my $k (0 .. floor($t / $d))
	{
		my $x = $a * ($k * $d - $t);
		my $fact = 1;
		$fact *= $_ for 1 .. $k;
		$sum += ($x**$k) / $fact * exp(-$x);
	}
	return (1 - $a * $d) * $sum;
}

# the highest total rate of CLIENTS such queues whose P-quantile of latency
# (wait + d) is within LIMIT (seconds)
sub reference_capacity
{
	my ($p, $limit, $d) = @_;
	my ($lo, $hi) = (0, 1 / $d);
	for (1 .. 200)
	{
		my $mid = ($lo + $hi) / 2;
		if (mdl_wait_cdf($limit - $d, $mid, $d) >= $p) { $lo = $mid; }
		else { $hi = $mid; }
	}
	return $lo * $CLIENTS;
}

# the Erlang formula against a known point: at aD = 0.5, P(W = 0) = 0.5 and
# P(W <= D) = 0.5 e^{0.5}
cmp_ok(abs(mdl_wait_cdf(0, 25, 0.02) - 0.5), '<', 1e-12, 'M/D/1: P(W = 0) = 1 - rho');
cmp_ok(abs(mdl_wait_cdf(0.02, 25, 0.02) - 0.5 * exp(0.5)), '<', 1e-12, 'M/D/1: P(W <= D) = (1 - rho) e^rho');

my %answer;
foreach my $limit_ms (100, 200)
{
	my $row = sql(qq{SET client_min_messages = warning;
		SELECT suite_id, status, capacity_tps, last_pass_rate, first_fail_rate, probe_tps, runs,
		       precision_reached, limited_by, percentile_ms, ci_high_ms
		  FROM bench.capacity(script => 'SELECT pg_sleep($SLEEP);', slo => 'p99 <= $limit_ms ms',
		                      clients => $CLIENTS, duration => '3 s', warmup => '1 s',
		                      max_runs => 30, progress => '0', prewarm => false)});
	my %c;
	@c{qw(suite status capacity pass fail probe runs reached limited pct ci_high)} = split /\|/, $row;
	is($c{status}, 'done', "p99 <= $limit_ms ms: the search is done");
	is($c{reached}, 't', "p99 <= $limit_ms ms: the precision was reached in $c{runs} runs");
	is($c{limited}, 'server', "p99 <= $limit_ms ms: limited by the server");
	cmp_ok(($c{fail} - $c{pass}) / $c{pass}, '<=', $PRECISION + 1e-9,
		"p99 <= $limit_ms ms: passing $c{pass} and failing $c{fail} tps are within 5%");
	cmp_ok($c{pct}, '<=', $limit_ms, "p99 <= $limit_ms ms: the answer's p99 ($c{pct} ms) is within the limit");

	# the service time: the unthrottled probe's average latency
	my $d = sql("SELECT latency_avg_ms / 1000 FROM bench.runs WHERE suite_id = $c{suite} AND rate IS NULL");
	my $ref = reference_capacity(0.99, $limit_ms / 1000, $d);
	my $off = $c{capacity} / $ref - 1;
	note(sprintf('p99 <= %d ms: capacity %.1f tps, M/D/1 with D = %.2f ms: %.1f tps (%+.1f%%)',
			$limit_ms, $c{capacity}, 1000 * $d, $ref, 100 * $off));
	cmp_ok(abs($off), '<=', $PRECISION + $TOLERANCE,
		sprintf('p99 <= %d ms: %.1f tps is within %d%% of the M/D/1 capacity %.1f tps (%+.1f%%)',
			$limit_ms, $c{capacity}, 100 * ($PRECISION + $TOLERANCE), $ref, 100 * $off));
	$answer{$limit_ms} = \%c;

	# the steps: verdicts agree with the interval and the limit; the
	# bracket doubles from an eighth of the probe until the first failure
	my $bad = sql(qq{SELECT count(*) FROM bench.capacity_steps($c{suite})
		WHERE rate IS NOT NULL AND NOT (
		      (verdict = 'pass' AND (ci_high_ms <= limit_ms OR (runs = 3 AND percentile_ms <= limit_ms)))
		   OR (verdict = 'fail' AND (ci_low_ms > limit_ms OR reason ~ 'achieved|every repeat'))
		   OR verdict = 'uncertain')});
	is($bad, '0', "p99 <= $limit_ms ms: every step's verdict agrees with its percentile's interval and the limit");
	my @rates = split /,/, sql(qq{SELECT string_agg(rate::text, ',' ORDER BY step_no)
		FROM bench.capacity_steps($c{suite}) WHERE rate IS NOT NULL});
	my $start = $c{probe} / 8;
	cmp_ok(abs($rates[0] / $start - 1), '<', 0.001, "p99 <= $limit_ms ms: the first rate is an eighth of the probe's tps");
	my $runs_sum = sql("SELECT sum(runs) FROM bench.capacity_steps($c{suite})");
	is($runs_sum, $c{runs} + 1, "p99 <= $limit_ms ms: the steps hold every run of the suite (and the probe)");
}
cmp_ok($answer{100}{capacity}, '<', $answer{200}{capacity},
	"the stricter objective gives the lower capacity ($answer{100}{capacity} < $answer{200}{capacity} tps)");

# limited by the clients: the first failing rate of the first search, as if
# its schedule lag had made 90% of the latency
my $suite = $answer{100}{suite};
my $imported = sql(qq{
	WITH d AS (SELECT bench.export($suite) AS d),
	     f AS (SELECT first_fail_rate AS rate FROM bench.capacity_results WHERE suite_id = $suite)
	SELECT bench.import(d.d || jsonb_build_object('runs',
	         (SELECT jsonb_agg(CASE WHEN (r->>'rate')::float8 = f.rate
	                                THEN r || jsonb_build_object('lag_avg_ms', 0.9 * (r->>'latency_avg_ms')::float8)
	                                ELSE r END)
	            FROM jsonb_array_elements(d.d->'runs') r)))
	  FROM d, f});
my $lim = sql("SELECT limited_by || '|' || capacity_tps FROM bench.capacity_results WHERE suite_id = $imported");
is($lim, "clients|$answer{100}{capacity}",
	'a first failing rate where the lag made the latency while the clients idled: limited by the clients');
like(sql("SELECT note FROM bench.capacity_results WHERE suite_id = $imported"),
	qr/the clients could not keep the schedule/, 'the note says why');

# a schedule of capacity searches: each execution's capacity judged against
# the previous one's; the service time doubled between them halves the
# capacity, a regression bench.regressions names and the schedule's status
# shows.  Made by bench.schedule_capacity where pg_cron is installed, else
# the same row by hand (bench.run_schedule needs no pg_cron).
my $sharedir = `pg_config --sharedir`;
chomp $sharedir;
my $has_cron = -e "$sharedir/extension/pg_cron.control";
sql(q{CREATE TABLE service (seconds double precision); INSERT INTO service VALUES (0.02)});
my $script = q{SELECT pg_sleep(seconds) FROM service;};
if ($has_cron)
{
	sql('SET client_min_messages = warning; CREATE EXTENSION pg_cron');
	is(sql(qq{SELECT name || ' ' || (capacity->>'slo') || ' ' || clients[1]
		FROM bench.schedule_capacity('capacity-nightly', '0 3 * * *', script => '$script',
		                             slo => 'p99 <= 200 ms', clients => 4, start_rate => 20, max_runs => 14,
		                             duration => '2 s', progress => '0', prewarm => false,
		                             baseline_runs => 1, threshold => 0.2)}),
		'capacity-nightly p99 <= 200 ms 4', 'bench.schedule_capacity keeps the search with the schedule');
}
else
{
	sql(qq{INSERT INTO bench.schedules (name, cron, workload, clients, repeat, run_order, args, search_path,
	                                    baseline_runs, threshold, cron_database, capacity)
	       SELECT 'capacity-nightly', '0 3 * * *', s->>'workload', '{4}', 1, s->>'run_order', s->'args',
	              s->>'search_path', 1, 0.2, 'postgres', s->'capacity'
	         FROM bench._capacity_spec(bench._sweep_spec(script => '$script', clients => '{4}', repeat => 1,
	                                                     duration => '2 s', progress => '0', prewarm => false),
	                                   'p99 <= 200 ms', NULL, 0.05, 14, NULL, 20, 2, 'test') AS s});
	pass('without pg_cron, the schedule\'s row as bench.schedule_capacity makes it');
}
sql(q{SET client_min_messages = warning; SELECT count(*) FROM bench.run_schedule('capacity-nightly')});
sql(q{UPDATE service SET seconds = 0.04});
my ($ret, $out, $err) = $node->psql('postgres',
	"SET client_min_messages = warning;\nLISTEN bench_regression;\nSELECT count(*) FROM bench.run_schedule('capacity-nightly');\nSELECT 1;");
is($ret, 0, 'the second execution, at twice the service time, ends done') or diag $err;
my @caps = split /\n/, sql(q{SELECT c.capacity_tps FROM bench.capacity_results c
	JOIN bench.suites s ON s.id = c.suite_id WHERE s.schedule = 'capacity-nightly' ORDER BY s.started_at});
is(scalar(@caps), 2, "two executions, each a capacity search: @caps tps");
is(sql(q{SELECT string_agg(baseline_runs || ':' || regression || ':' || COALESCE((tps_ratio < 0.8)::text, ''), ',' ORDER BY started_at)
	FROM bench.schedule_results WHERE schedule = 'capacity-nightly'}),
	'0:false:,1:true:true', 'the second is judged against the first by the capacity it found: a regression');
my $last = sql(q{SELECT max(id) FROM bench.suites WHERE schedule = 'capacity-nightly'});
like($out, qr/notification "bench_regression" with payload "$last" received/, 'and notified as a sweep\'s is');
is(sql(q{SELECT round(tps::numeric, 1) = round(tps_ratio::numeric * baseline_tps::numeric, 1)
	FROM bench.regressions WHERE schedule = 'capacity-nightly'}), 't', 'bench.regressions lists it');
is(sql(q{SELECT last_tps = jsonb_build_object('4', round(c.capacity_tps::numeric, 1)) AND last_regression
	FROM bench.schedule_status, bench.capacity_results c
	WHERE name = 'capacity-nightly' AND c.suite_id = last_suite_id}),
	't', 'the schedule\'s status shows the last capacity and its regression');

done_testing();
