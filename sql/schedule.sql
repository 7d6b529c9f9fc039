--
-- bench.schedule: sweeps pg_cron starts; bench.unschedule, bench.run_schedule,
-- bench.schedule_status.  (Without pg_cron, bench.schedule says so.)
--
SET search_path = runs, public;
\set SHOW_CONTEXT never

-- cron expressions: what pg_cron takes passes, the usual mistakes are named
SELECT e, bench._cron_check(e) AS why_not
  FROM (VALUES ('* * * * *'), ('0 3 * * *'), ('*/15 0-6 1,15 * *'), ('0 0 * JAN-MAR mon-fri'),
               ('5,35 */2 $ * 0,7'), ('@daily'), ('@hourly'), ('30 seconds'),
               (''), ('* * * *'), ('* * * * * *'), ('60 * * * *'), ('0 24 * * *'),
               ('0 0 0 * *'), ('0 0 * 13 *'), ('0 0 * * 8'), ('5-1 * * * *'),
               ('*/0 * * * *'), ('a * * * *'), ('@sometimes'), ('90 seconds'),
               ('99999999999 * * * *')) AS t(e);

-- bad input, refused before pg_cron is asked
SELECT * FROM bench.schedule('bad', '61 * * * *', 'tpcb');
SELECT * FROM bench.schedule('bad', 'every night', 'tpcb');
SELECT * FROM bench.schedule('bad name', '0 3 * * *', 'tpcb');
SELECT * FROM bench.schedule('', '0 3 * * *', 'tpcb');
SELECT * FROM bench.schedule(NULL, '0 3 * * *', 'tpcb');
SELECT * FROM bench.schedule('bad', NULL, 'tpcb');
SELECT * FROM bench.schedule('bad', '0 3 * * *', 'tpcb', clients => '{}');
SELECT * FROM bench.schedule('bad', '0 3 * * *', 'tpcb', clients => '{0,1}');
SELECT * FROM bench.schedule('bad', '0 3 * * *', 'tpcb', repeat => 0);
SELECT * FROM bench.schedule('bad', '0 3 * * *', 'tpcb', baseline_runs => 0);
SELECT * FROM bench.schedule('bad', '0 3 * * *', 'tpcb', threshold => 1.5);
SELECT * FROM bench.schedule('bad', '0 3 * * *', 'tpcd');
SELECT * FROM bench.schedule('bad', '0 3 * * *', 'tpcb', clients => '{500}');
SELECT count(*) AS schedules FROM bench.schedules;

-- pg_cron, in this database (cron.database_name)
CREATE EXTENSION pg_cron;
SELECT name, cron, workload, clients, repeat, run_order, args, search_path,
       baseline_runs, threshold, cron_database = current_database() AS here,
       jobid IS NOT NULL AS has_job, created_by = current_user AS by_me
  FROM bench.schedule('nightly', '0 3 * * *', 'tpcb', clients => '{1,2}', repeat => 3,
                      duration => '10 s', threshold => 0.1);
SELECT jobname, schedule, command, database = current_database() AS here,
       username = current_user AS as_me, active
  FROM cron.job ORDER BY jobid;
-- a name is taken once; pg_cron's job too
SELECT * FROM bench.schedule('nightly', '0 4 * * *', 'tpcb');
SELECT count(*) AS jobs FROM cron.job;

-- one execution, as the job runs it: a suite tagged with the schedule's name
SELECT * FROM bench.schedule('quick', '0 0 1 1 *', 'tpcb', clients => '{1}', transactions => 10,
                             progress => '0') \gset q_
SET client_min_messages = warning;
SELECT clients, runs_planned, runs_done FROM bench.run_schedule('quick');
SELECT clients, runs_planned, runs_done FROM bench.run_schedule('quick');
RESET client_min_messages;
SELECT s.schedule, s.status, s.tag, r.tag AS run_tag, r.transactions_per_client
  FROM bench.suites s JOIN bench.runs r ON r.suite_id = s.id
 WHERE s.schedule = 'quick' ORDER BY s.id;
-- the second is judged against the first
SELECT schedule, clients, baseline_runs, tps_ratio > 0 AS has_ratio, threshold,
       regression = (tps < baseline_tps * 0.95) AS flag_is_rule
  FROM bench.schedule_results WHERE schedule = 'quick' ORDER BY started_at;
SELECT name, cron, suites, done, refused, failed, last_status, last_error,
       last_tps ? '1' AS last_tps_has_clients, last_regression IS NOT NULL AS judged
  FROM bench.schedule_status ORDER BY name;

-- a schedule takes every run argument bench.run takes (its tag is its name)
SELECT name, workload, args->>'script' IS NOT NULL AS has_script, args->'variables' AS variables,
       args->'random_seed' AS seed, args->'rate' AS rate, args->>'latency_limit' AS latency_limit
  FROM bench.schedule('scripted', '0 5 * * *', script => E'\\set n random(1, 10)\nSELECT :n::integer * :k::integer;',
                      transactions => 5, progress => '0', variables => '{"k": 3}',
                      random_seed => 11, rate => 500, latency_limit => '2 s');
SET client_min_messages = warning;
SELECT clients, runs_planned, runs_done FROM bench.run_schedule('scripted');
RESET client_min_messages;
SELECT r.workload, r.tag, r.transactions, r.random_seed, r.variables, r.rate, r.latency_limit, r.status
  FROM bench.suites s JOIN bench.runs r ON r.suite_id = s.id
 WHERE s.schedule = 'scripted';
SELECT * FROM bench.schedule('bad', '0 5 * * *', script => 'SELECT 1;', tag => 'mine');
SELECT bench.unschedule('scripted');

-- bench.unschedule removes the schedule and its job; the suites stay
SELECT bench.unschedule('nightly');
SELECT bench.unschedule('quick');
SELECT bench.unschedule('nightly');
SELECT bench.unschedule(NULL);
SELECT count(*) AS jobs FROM cron.job;
SELECT count(*) AS schedules FROM bench.schedules;
SELECT count(*) AS quick_suites FROM bench.suites WHERE schedule = 'quick';
DROP EXTENSION pg_cron;
