--
-- bench.ibench: the Insert Benchmark as one call, a suite of steps, one
-- run per step; bench.ibench_steps shows each step as the benchmark
-- reports it, and two such suites read against each other step by step.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbenchkit CASCADE;
\set VERBOSITY default
SELECT coalesce(max(id), 0) AS runs_before FROM bench.runs \gset
CREATE SCHEMA ibs;
SET search_path = ibs, public;
-- an old dataset, which l.i0 makes anew
SELECT workload FROM bench.init('ibench', tables => 1);

-- two insert clients, each its table, 300 rows each; the query steps
-- with two query clients beside them
SELECT step_no, step, status, clients,
       CASE WHEN step = 'l.i0' THEN inserts::text ELSE (inserts >= 0)::text END AS inserts,
       target_inserts_per_s, queries >= 0 AS queried, throughput >= 0 AS has_throughput,
       table_bytes > 0 AS table_sized, index_bytes > 0 AS indexes_sized,
       total_bytes >= table_bytes + index_bytes AS total_sized,
       wal_bytes > 0 AS wrote_wal,
       kb_read >= 0 AND kb_written >= 0 AS io_counted
  FROM bench.ibench(rows => 300, insert_clients => 2, duration => '1 s', progress => '0',
                    steps => '{l.i0,l.x,l.i1,qr1000,qp500}', tag => 'ib base');
SELECT max(id) AS suite1 FROM bench.suites \gset
-- l.i0 made two tables anew and filled them; l.x indexed them
SELECT count(*) AS datasets, max(cardinality(tables)) AS tables
  FROM bench.datasets WHERE schema_name = 'ibs' AND status = 'ready';
SELECT indexrelid::regclass AS index FROM pg_index WHERE indrelid = 'pi2'::regclass ORDER BY 1;
-- each run: its step, the built-in workloads that are the benchmark's
-- steps at its defaults, the insert group's rate in the query steps
SELECT r.step, r.workload, r.clients, r.transactions_per_client, r.duration, r.tag,
       (SELECT string_agg(g.name || ' ' || g.clients || COALESCE(' at ' || g.rate, ''), ', ' ORDER BY g.group_no)
          FROM bench.run_groups g WHERE g.run_id = r.id) AS groups
  FROM bench.runs r WHERE r.suite_id = :suite1 ORDER BY r.id;
SELECT workload, clients, runs_planned, status, steps IS NOT NULL AS has_steps,
       args->'ibench'->>'tables' AS tables, jsonb_array_length(steps) AS nsteps
  FROM bench.suites WHERE id = :suite1;
-- bench.suite_summary: one row per step
SELECT position, clients, runs_done, cardinality(run_ids) AS runs FROM bench.suite_summary
 WHERE suite_id = :suite1 ORDER BY position;

-- the same steps again, without waiting; then read against the first
SELECT bench.start_ibench(rows => 300, insert_clients => 2, duration => '1 s', progress => '0',
                          steps => '{l.i0,l.x,l.i1,qr1000,qp500}', tag => 'ib again') AS suite2 \gset
SET client_min_messages = warning;
SELECT count(*) AS steps FROM bench.wait_suite(:suite2);
RESET client_min_messages;
SELECT status, runs_planned FROM bench.suites WHERE id = :suite2;
-- its runs had the caller's search_path (bench.start_ibench pins its own)
SELECT search_path FROM bench.suites WHERE id = :suite2;
SELECT split_part(t.label, ' (', 1) AS tag, t.step_no, t.step,
       t.tps IS NOT DISTINCT FROM v.throughput AS its_throughput,
       t.base_tps IS NOT DISTINCT FROM b.throughput AS base_throughput,
       t.relative IS NOT DISTINCT FROM v.throughput / NULLIF(b.throughput, 0) AS ratio
  FROM bench.relative_throughput(:suite1, ARRAY[:suite2]) t
  JOIN bench.ibench_steps v ON v.suite_id = t.id AND v.step = t.step
  JOIN bench.ibench_steps b ON b.suite_id = :suite1 AND b.step = t.step
 ORDER BY t.id = :suite1 DESC, t.step_no;
SELECT line FROM bench.relative_table(:suite1, ARRAY[:suite2]) AS line LIMIT 2;
-- and its chart: a category per step, by name
SELECT c ~ '^<svg' AS svg, c ~ '>l\.i0<' AND c ~ '>qr1000<' AND c ~ '>qp500<' AS steps_named
  FROM bench.chart_relative(:suite1, ARRAY[:suite2]) AS c;

-- options of the benchmark's data: the steps run its scripts for them
SET client_min_messages = warning;
SELECT step, status, CASE WHEN step = 'l.i0' THEN inserts END AS inserts
  FROM bench.ibench(rows => 100, insert_clients => 2, tables => 1, secondary_indexes => 1,
                    options => '{"products": 7, "rows_per_query": 3}', duration => '1 s',
                    progress => '0', steps => '{l.i0,l.x,qp100}');
RESET client_min_messages;
SELECT r.step, r.workload, (SELECT count(*) FROM bench.run_scripts s
                             WHERE s.run_id = r.id AND s.script ~ '"products": 7') AS scripts_with_options
  FROM bench.runs r WHERE r.suite_id = (SELECT max(id) FROM bench.suites) ORDER BY r.id;
-- l.i0's 200 rows are there; qp100's rate-limited clients insert 50 rows
-- a commit and delete as many of the oldest in the next: how many of
-- their statements fit in its second depends on the machine
SELECT count(*) >= 200 AS loaded, (count(*) - 200) % 50 = 0 AS whole_commits,
       max(productid) < 7 AS products FROM pi1;

-- bad input, refused before anything starts
SELECT coalesce(max(id), 0) AS ids_before FROM bench.runs \gset
SELECT * FROM bench.ibench(steps => '{l.i0,l.i3}');
SELECT * FROM bench.ibench(steps => '{}');
SELECT * FROM bench.ibench(steps => '{l.i1,l.i1}');
SELECT * FROM bench.ibench(steps => '{l.x,l.i0}');
SELECT * FROM bench.ibench(rows => 0);
SELECT * FROM bench.ibench(insert_clients => 0);
SELECT * FROM bench.ibench(insert_clients => 2, tables => 3);
SELECT * FROM bench.ibench(tables => 0);
SELECT * FROM bench.ibench(query_clients => 0);
SELECT * FROM bench.ibench(secondary_indexes => 4);
SELECT * FROM bench.ibench(secondary_indexes => 0);
SELECT * FROM bench.ibench(duration => '0 s');
SELECT * FROM bench.ibench(options => '{"rows_per_commit": 10}');
SELECT * FROM bench.ibench(options => '[]');
SELECT * FROM bench.ibench(options => '{"products": 0}');
SELECT * FROM bench.ibench(rows => NULL);
SELECT * FROM bench.ibench(target => 'nowhere');
-- without an ibench dataset, steps that need one and do not make it
RESET search_path;
SELECT * FROM bench.ibench(steps => '{l.i1}');
SET search_path = ibs;
SELECT count(*) AS nothing_started FROM bench.runs WHERE id > :ids_before;
-- sweeps and suites of steps are not read against each other
SET client_min_messages = warning;
SELECT DISTINCT suite_id AS sweep FROM bench.sweep('ibench.l.i1', clients => '{1}', repeat => 1,
                                                   transactions => 1, progress => '0') \gset
RESET client_min_messages;
SELECT * FROM bench.relative_throughput(:suite1, ARRAY[:sweep]);
SELECT * FROM bench.relative_throughput(:sweep, ARRAY[:suite1]);

RESET search_path;
DELETE FROM bench.runs WHERE id > :runs_before;
DELETE FROM bench.suites WHERE id > :runs_before;
DROP SCHEMA ibs CASCADE;
DELETE FROM bench.datasets WHERE schema_name = 'ibs';
