--
-- bench.sweep: every client count, repeated, as one suite run by a worker
-- of its own; bench.start_sweep, bench.wait_suite, bench.cancel_suite
--
SET search_path = runs, public;
\set SHOW_CONTEXT never

-- 2 client counts x 2 repeats, interleaved: each run is a bench.run of
-- 20 transactions per client
SET client_min_messages = warning;
SELECT clients, position, runs_planned, runs_done, tps_median > 0 AS has_tps,
       tps_min <= tps_median AND tps_median <= tps_max AS tps_ordered,
       latency_p99_ms_min <= latency_p99_ms_median AND latency_p99_ms_median <= latency_p99_ms_max AS p99_ordered,
       latency_p95_ms_median <= latency_p99_ms_median AS p95_below_p99,
       array_length(run_ids, 1) AS runs
  FROM bench.sweep('tpcb', clients => '{2,1}', repeat => 2, transactions => 20,
                   progress => '0', tag => 'sweep test');
RESET client_min_messages;
SELECT max(id) AS sid FROM bench.suites \gset
SELECT workload, clients, repeat, run_order, tag, schedule, runs_planned, status, sqlstate, error,
       created_by = current_user AS by_me, ended_at >= started_at AS ended,
       worker_pid IS NULL AS worker_gone, search_path, args,
       server_version = current_setting('server_version') AS version
  FROM bench.suites WHERE id = :sid;
-- the runs: in the suite's order (2, 1, 2, 1), tagged, each in full
SELECT row_number() OVER (ORDER BY id) AS step, clients, status, tag, transactions,
       transactions_per_client, protocol, id > :sid AS after_suite
  FROM bench.runs WHERE suite_id = :sid ORDER BY id;
-- the summary is over those runs: the median of two is their mean
SELECT m.clients, m.run_ids = array_agg(r.id ORDER BY r.id) AS same_runs,
       abs(m.tps_median - avg(r.tps)) < 1e-6 * avg(r.tps) AS median_of_two,
       m.tps_min = min(r.tps) AND m.tps_max = max(r.tps) AS min_max
  FROM bench.suite_summary m JOIN bench.runs r ON r.suite_id = m.suite_id AND r.clients = m.clients
 WHERE m.suite_id = :sid
 GROUP BY m.clients, m.run_ids, m.tps_median, m.tps_min, m.tps_max, m.position
 ORDER BY m.position;

-- run_order => 'blocks': every repeat of one client count, then the next
SET client_min_messages = warning;
SELECT count(*) AS client_counts
  FROM bench.sweep('tpcb', clients => '{1,2}', repeat => 2, transactions => 10,
                   progress => '0', run_order => 'blocks');
RESET client_min_messages;
SELECT string_agg(clients::text, ',' ORDER BY id) AS order_of_runs
  FROM bench.runs WHERE suite_id = (SELECT max(id) FROM bench.suites);

-- bench.start_sweep returns at once; a second suite started while it runs
-- is refused, and the refusal is recorded
SELECT bench.start_sweep('tpcb', clients => '{1}', repeat => 2, duration => '2 s',
                         progress => '0') AS sid3 \gset
-- (the message names suite ids: the suite's row is checked for it below)
\set VERBOSITY sqlstate
SELECT * FROM bench.sweep('tpcb', clients => '{1}', repeat => 1, transactions => 5);
\set VERBOSITY default
SELECT status, sqlstate, error ~ '^suite [0-9]+ is still running$' AS says_why,
       ended_at IS NOT NULL AS ended, runs_planned
  FROM bench.suites WHERE id > :sid3;
SELECT count(*) FROM bench.runs WHERE suite_id > :sid3;
-- bench.wait_suite waits for it and returns its summary
SET client_min_messages = warning;
SELECT clients, runs_planned, runs_done, tps_median > 0 AS has_tps FROM bench.wait_suite(:sid3);
RESET client_min_messages;
SELECT status, (SELECT count(*) FROM bench.runs WHERE suite_id = :sid3 AND status = 'done') AS runs
  FROM bench.suites WHERE id = :sid3;

-- bench.cancel_suite: the run in progress is canceled, the suite says so,
-- the runs not started never start
SELECT bench.start_sweep('tpcb', clients => '{1}', repeat => 3, duration => '30 s',
                         progress => '0') AS sid4 \gset
DO $$
BEGIN
    FOR i IN 1..300 LOOP
        EXIT WHEN EXISTS (SELECT 1 FROM bench.runs WHERE suite_id = (SELECT max(id) FROM bench.suites));
        PERFORM pg_sleep(0.05);
    END LOOP;
END
$$;
SELECT bench.cancel_suite(:sid4);
SELECT status, sqlstate, error, ended_at IS NOT NULL AS ended, worker_pid IS NULL AS worker_gone
  FROM bench.suites WHERE id = :sid4;
SELECT status, sqlstate, measured_s > 0 AS measured FROM bench.runs WHERE suite_id = :sid4;
SELECT clients, runs_planned, runs_done FROM bench.suite_summary WHERE suite_id = :sid4;
SET client_min_messages = warning;
SELECT bench.cancel_suite(:sid4) AS canceled_again;
RESET client_min_messages;
-- waiting for a suite that ended does not wait; it returns what was done
-- (a NOTICE says how it ended)
SET client_min_messages = warning;
SELECT clients, runs_planned, runs_done FROM bench.wait_suite(:sid4);
RESET client_min_messages;

-- a run that fails ends the suite as 'failed' at that run
SELECT name FROM bench.define_workload('suite-divide', E'SELECT 1 / 0;\n', 'fails at once');
\set VERBOSITY sqlstate
SELECT * FROM bench.sweep('suite-divide', clients => '{1,2}', repeat => 2, transactions => 5);
\set VERBOSITY default
SELECT status, sqlstate, error ~ '^run [0-9]+ failed: client 0: division by zero \(script "suite-divide", line 1\)$' AS says_why,
       runs_planned, (SELECT count(*) FROM bench.runs r WHERE r.suite_id = s.id) AS runs,
       (SELECT string_agg(r.status, ',') FROM bench.runs r WHERE r.suite_id = s.id) AS run_status
  FROM bench.suites s WHERE id = (SELECT max(id) FROM bench.suites);
SELECT bench.drop_workload('suite-divide');

-- a sweep takes every run argument bench.run takes: an unnamed script with
-- variables, a seed, a rate and a latency limit, which each of its runs gets
SET client_min_messages = warning;
SELECT clients, runs_planned, runs_done
  FROM bench.sweep(script => E'\\set r random(1, 1000000)\nSELECT :r::integer + :base::integer;', clients => '{1,2}',
                   repeat => 1, transactions => 5, progress => '0', random_seed => 42,
                   variables => '{"base": 7}', rate => 1000, latency_limit => '1 s',
                   tag => 'sweep of a script');
RESET client_min_messages;
SELECT s.workload, s.args->>'script' IS NOT NULL AS has_script, s.args->'variables' AS variables,
       s.args->'random_seed' AS seed, s.args->'rate' AS rate, s.args->>'latency_limit' AS latency_limit
  FROM bench.suites s WHERE s.tag = 'sweep of a script';
SELECT r.clients, r.workload, r.transactions, r.random_seed, r.variables, r.rate,
       r.latency_limit, r.status
  FROM bench.runs r JOIN bench.suites s ON s.id = r.suite_id
 WHERE s.tag = 'sweep of a script' ORDER BY r.id;

-- the run arguments, as every function that starts runs takes them
SELECT argno, name, type, default_value FROM bench.run_arguments ORDER BY argno;
SELECT f, string_agg(name, ', ' ORDER BY argno) AS arguments
  FROM unnest(ARRAY['bench.sweep', 'bench.schedule']) f, bench._arguments_of(f)
 GROUP BY f ORDER BY f;
SELECT * FROM bench._arguments_of('bench.init');
SELECT * FROM bench._arguments_of(NULL);

-- bad input: refused before anything starts
SELECT max(id) AS last_suite FROM bench.suites \gset
SELECT * FROM bench.sweep('tpcb', clients => '{}');
SELECT * FROM bench.sweep('tpcb', clients => '{1,0}');
SELECT * FROM bench.sweep('tpcb', clients => '{-4}');
SELECT * FROM bench.sweep('tpcb', clients => '{1,NULL}');
SELECT * FROM bench.sweep('tpcb', clients => '{4,2,4}');
SELECT * FROM bench.sweep('tpcb', clients => '{{1,2},{3,4}}');
SELECT * FROM bench.sweep('tpcb', clients => NULL);
SELECT * FROM bench.sweep('tpcb', repeat => 0);
SELECT * FROM bench.sweep('tpcb', repeat => -1);
SELECT * FROM bench.sweep('tpcb', repeat => 1001);
SELECT * FROM bench.sweep('tpcb', run_order => 'random');
SELECT * FROM bench.sweep('tpcb', duration => '0 s');
SELECT * FROM bench.sweep('tpcb', protocol => 'binary');
SELECT * FROM bench.sweep('tpcd');
SELECT * FROM bench.sweep(NULL);
SELECT * FROM bench.sweep('tpcb', script => 'SELECT 1;');
SELECT * FROM bench.sweep(script => 'SELECT 1;', rate => -1);
SELECT * FROM bench.sweep(script => 'SELECT 1;', variables => '[1]');
SELECT * FROM bench.sweep(script => '\set x', clients => '{1}');
SELECT bench.start_sweep('tpcb', clients => '{}');
SELECT * FROM bench.sweep('tpcb', clients => '{20000}');
BEGIN;
SELECT * FROM bench.sweep('tpcb', transactions => 1);
ROLLBACK;
SELECT count(*) AS new_suites FROM bench.suites WHERE id > :last_suite;
-- unknown ids and names
SELECT * FROM bench.wait_suite(-1);
SELECT bench.cancel_suite(-1);
SELECT * FROM bench.wait_suite(NULL);
SELECT * FROM bench.run_schedule('no such schedule');
SELECT * FROM bench.run_schedule(NULL);
