--
-- bench.capacity: the highest rate within a latency objective, as a suite
-- of rate-limited runs; bench.start_capacity, bench.capacity_steps,
-- bench.capacity_results, bench.chart_capacity.  (The answer against a
-- server whose capacity is known in advance is t/'s.)
--
SET search_path = runs, public;
\set SHOW_CONTEXT never

-- an objective broken at the lowest rate: 50 ms a transaction, p99 <= 1 ms;
-- one run, no capacity, and the answer says so (3 s: the Poisson schedule
-- of 5 tps starts no transaction in a run with a chance of e^-15, in 1 s e^-5)
SET client_min_messages = warning;
SELECT status, workload, clients, slo, percentile, limit_ms, "precision", capacity_tps, last_pass_rate,
       first_fail_rate, runs, repeats, precision_reached, limited_by, note
  FROM bench.capacity(script => 'SELECT pg_sleep(0.05);', slo => 'p99 <= 1 ms', start_rate => 5,
                      duration => '3 s', progress => '0', tag => 'capacity none');
RESET client_min_messages;
SELECT max(id) AS sid FROM bench.suites \gset
SELECT workload, clients, repeat, runs_planned, status, tag, capacity
  FROM bench.suites WHERE id = :sid;
SELECT count(*) AS runs, min(rate) AS rate, bool_and(latency_p99_ms > 1) AS above_limit
  FROM bench.runs WHERE suite_id = :sid;
SELECT step_no, rate, runs, cardinality(run_ids) AS ids, limit_ms, verdict, reason,
       ci_low_ms <= percentile_ms AND percentile_ms <= ci_high_ms AS in_interval,
       abs(percentile_ms - (SELECT latency_p99_ms FROM bench.runs WHERE suite_id = :sid))
           <= 0.02 * percentile_ms AS runs_p99
  FROM bench.capacity_steps(:sid);

-- the budget: SELECT 1 passes p99 <= 10 s at any rate; max_runs => 3 stops
-- the bracket after 10, 20 and 40 tps, and the answer says the budget ran out
SET client_min_messages = warning;
SELECT capacity_tps, last_pass_rate, first_fail_rate, runs, repeats, precision_reached, limited_by, note
  FROM bench.capacity(script => 'SELECT 1;', slo => 'p99 <= 10 s', start_rate => 10, max_runs => 3,
                      duration => '1 s', progress => '0');
RESET client_min_messages;
SELECT max(id) AS sid2 FROM bench.suites \gset
SELECT string_agg(rate::text, ', ' ORDER BY id) AS rates, bool_and(status = 'done') AS done,
       count(*) FILTER (WHERE transactions > 0) AS with_transactions
  FROM bench.runs WHERE suite_id = :sid2;
SELECT step_no, rate, runs, verdict FROM bench.capacity_steps(:sid2);
-- each step's figures are its run's
SELECT bool_and(x.transactions = r.transactions AND x.measured_s = r.measured_s
                AND abs(x.achieved_tps - r.tps) <= 1e-9 * r.tps) AS steps_are_runs
  FROM bench.capacity_steps(:sid2) x JOIN bench.runs r ON r.id = x.run_ids[1];

-- without start_rate an unthrottled probe comes first: the rates start at
-- an eighth of its tps (four significant digits)
SET client_min_messages = warning;
SELECT runs, limited_by, probe_tps > 0 AS probed
  FROM bench.capacity(script => 'SELECT pg_sleep(0.005);', slo => 'p99.9 <= 5 s', max_runs => 2,
                      duration => '1 s', progress => '0');
RESET client_min_messages;
SELECT max(id) AS sid3 FROM bench.suites \gset
SELECT (array_agg(rate ORDER BY id))[1] IS NULL AS probe_first,
       (array_agg(rate ORDER BY id))[2] = (SELECT round(t::numeric, 3 - floor(log(t))::integer)::float8
                                             FROM (SELECT tps / 8 AS t FROM bench.runs
                                                    WHERE suite_id = :sid3 AND rate IS NULL) p) AS eighth
  FROM bench.runs WHERE suite_id = :sid3;
SELECT c.capacity_tps = (SELECT rate FROM bench.runs WHERE suite_id = :sid3 AND rate IS NOT NULL) AS answer,
       c.probe_tps = (SELECT tps FROM bench.runs WHERE suite_id = :sid3 AND rate IS NULL) AS probe,
       c.pass_run_ids = ARRAY(SELECT id FROM bench.runs WHERE suite_id = :sid3 AND rate IS NOT NULL) AS runs
  FROM bench.capacity_results c WHERE c.suite_id = :sid3;

-- a suite like any other: start, cancel, wait, summary, export and import
SELECT bench.start_capacity(script => 'SELECT 1;', slo => 'p99 <= 10 ms', start_rate => 5,
                            duration => '30 s', progress => '0') AS sid4 \gset
DO $$
BEGIN
    FOR i IN 1..300 LOOP
        EXIT WHEN EXISTS (SELECT 1 FROM bench.runs WHERE suite_id = (SELECT max(id) FROM bench.suites));
        PERFORM pg_sleep(0.05);
    END LOOP;
END
$$;
SELECT bench.cancel_suite(:sid4);
SELECT status, sqlstate, runs_planned FROM bench.suites WHERE id = :sid4;
SELECT status, capacity_tps, limited_by, note FROM bench.capacity_results WHERE suite_id = :sid4;
SET client_min_messages = warning;
SELECT clients, runs_planned, runs_done FROM bench.wait_suite(:sid2);
RESET client_min_messages;
SELECT bench.import(bench.export(:sid)) AS imported \gset
SELECT i.capacity_tps IS NOT DISTINCT FROM o.capacity_tps AND i.first_fail_rate = o.first_fail_rate
       AND i.limited_by = o.limited_by AND i.note = o.note AND i.slo = o.slo AS same_answer
  FROM bench.capacity_results i, bench.capacity_results o
 WHERE i.suite_id = :imported AND o.suite_id = :sid;

-- the chart: a point per rate in each panel, the objective's line (XML
-- where the server can parse it: not every build can)
CREATE FUNCTION pg_temp.well_formed(doc text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    RETURN xml_is_well_formed_document(doc);
EXCEPTION WHEN feature_not_supported THEN
    RETURN true;
END
$$;
SELECT pg_temp.well_formed(x) AS well_formed,
       regexp_count(x, '<circle class="achieved"') AS achieved,
       regexp_count(x, '<circle class="percentile"') AS percentiles,
       regexp_count(x, '<path class="slo"') AS slo_line,
       regexp_count(x, '<path class="capacity"') AS capacity_line
  FROM (SELECT bench.chart_capacity(:sid2) AS x) c;
SELECT regexp_count(bench.chart_capacity(:sid), '<path class="capacity"') AS no_capacity_line;

-- bad input, refused before anything starts
SELECT count(*) AS suites_before FROM bench.suites \gset
\set VERBOSITY sqlstate
SELECT * FROM bench.capacity(script => 'SELECT 1;');
\set VERBOSITY default
SELECT * FROM bench.capacity(script => 'SELECT 1;', slo => 'p99 < 10 ms');
SELECT * FROM bench.capacity(script => 'SELECT 1;', slo => 'latency 10 ms');
SELECT * FROM bench.capacity(script => 'SELECT 1;', slo => 'p99 <= 10');
SELECT * FROM bench.capacity(script => 'SELECT 1;', slo => 'p100 <= 10 ms');
SELECT * FROM bench.capacity(script => 'SELECT 1;', slo => 'p0 <= 10 ms');
SELECT * FROM bench.capacity(script => 'SELECT 1;', slo => 'p99 <= 0 ms');
SELECT * FROM bench.capacity(script => 'SELECT 1;', slo => 'p99 <= 10 ms', "precision" => 0);
SELECT * FROM bench.capacity(script => 'SELECT 1;', slo => 'p99 <= 10 ms', "precision" => -0.1);
SELECT * FROM bench.capacity(script => 'SELECT 1;', slo => 'p99 <= 10 ms', "precision" => 1);
SELECT * FROM bench.capacity(script => 'SELECT 1;', slo => 'p99 <= 10 ms', max_runs => 0);
SELECT * FROM bench.capacity(script => 'SELECT 1;', slo => 'p99 <= 10 ms', max_repeats => 11);
SELECT * FROM bench.capacity(script => 'SELECT 1;', slo => 'p99 <= 10 ms', start_rate => -1);
SELECT * FROM bench.capacity(script => 'SELECT 1;', slo => 'p99 <= 10 ms', max_failure_rate => 1.5);
SELECT * FROM bench.capacity(script => 'SELECT 1;', slo => 'p99 <= 10 ms', max_time => '30 s');
SELECT * FROM bench.capacity(script => 'SELECT 1;', slo => 'p99 <= 10 ms', clients => 0);
\set VERBOSITY sqlstate
SELECT * FROM bench.capacity('no-such-workload', slo => 'p99 <= 10 ms');
\set VERBOSITY default
SELECT * FROM bench.capacity(script => 'SELECT 1;', slo => 'p99 <= 10 ms', rate => 100);
SELECT * FROM bench.capacity(script => 'SELECT 1;', slo => 'p99 <= 10 ms', transactions => 100);
SELECT bench.start_capacity(script => 'SELECT 1;', slo => 'p99.99.9 <= 1 ms');
SELECT count(*) = :suites_before AS nothing_started FROM bench.suites;
SELECT bench.chart_capacity(NULL);
SELECT bench.chart_capacity(-1);
\set VERBOSITY sqlstate
SELECT bench.chart_capacity((SELECT min(id) FROM bench.suites WHERE capacity IS NULL));
\set VERBOSITY default
SELECT count(*) AS steps_of_a_sweep FROM bench.capacity_steps((SELECT min(id) FROM bench.suites WHERE capacity IS NULL));
