--
-- The Insert Benchmark: bench.init('ibench') makes its tables pi1 .. piN
-- (empty, as iibench.py creates them), bench.ibench_script writes its
-- load steps, and the built-in workloads ibench.l.i0, ibench.l.x,
-- ibench.l.i1 and ibench.l.i2 run them: rows in primary key order, the
-- secondary indexes, inserts with deletes that keep each table's size.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbenchkit CASCADE;
\set VERBOSITY default
SELECT coalesce(max(id), 0) AS runs_before FROM bench.runs \gset
CREATE SCHEMA ib;
SET search_path = ib, public;

-- ------------------------------------------------------------ the tables
SELECT workload, scale, rows_loaded FROM bench.init('ibench', tables => 2);
SELECT workload, status, options, cardinality(tables) AS ntables
  FROM bench.datasets WHERE schema_name = 'ib' AND status = 'ready';
-- the columns as the benchmark creates them, its primary key, and its
-- sequence's cache of 1000
SELECT c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull,
       pg_get_expr(d.adbin, d.adrelid) AS default
  FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
  LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
 WHERE c.relnamespace = 'ib'::regnamespace AND c.relkind = 'r' AND c.relname = 'pi1'
 ORDER BY a.attnum;
SELECT indexrelid::regclass AS index, pg_get_indexdef(indexrelid) AS definition
  FROM pg_index WHERE indrelid IN ('pi1'::regclass, 'pi2'::regclass) ORDER BY 1;
SELECT seqrelid::regclass AS sequence, seqcache FROM pg_sequence
 WHERE seqrelid IN ('pi1_transactionid_seq'::regclass, 'pi2_transactionid_seq'::regclass) ORDER BY 1;
SELECT (SELECT count(*) FROM pi1) + (SELECT count(*) FROM pi2) AS rows;

-- ------------------------------------------------------------ the steps
SELECT name, dataset, builtin FROM bench.workloads WHERE dataset = 'ibench' ORDER BY name;
SELECT bench.ibench_script('l.i1');
-- l.i0: each client fills its own table, 100 rows a batch, ids in order
SELECT status, transactions, variables FROM bench.run('ibench.l.i0', clients => 2, transactions => 20,
       prewarm => false, progress => '0');
SELECT 'pi' || t AS table, count(*) AS rows, min(transactionid) AS first, max(transactionid) AS last,
       min(cashregisterid) >= 0 AND max(cashregisterid) < 1000 AS cashregisterid,
       min(customerid) >= 0 AND max(customerid) < 100000 AS customerid,
       min(productid) >= 0 AND max(productid) < 10000 AS productid,
       min(price) >= 0 AND max(price) < 500 AS price,
       min(length(data)) >= 10 AND max(length(data)) <= 20 AS data_length,
       bool_and(data ~ ('^a{' || (length(data) - floor(length(data) * 0.75 * 50 / 100))::int || '}[A-Za-z0-9+/]+$')) AS data_pattern,
       count(DISTINCT dateandtime) <= 20 AS time_per_batch
  FROM (SELECT 1 AS t, * FROM pi1 UNION ALL SELECT 2, * FROM pi2) r
 GROUP BY t ORDER BY t;
-- l.x: a batch more, then the three secondary indexes of each table, one
-- client each (a run's sessions take the sequence's ids 1000 at a time)
SELECT status, transactions FROM bench.run('ibench.l.x', clients => 2, transactions => 1,
       prewarm => false, progress => '0');
SELECT indexrelid::regclass AS index, pg_get_indexdef(indexrelid) AS definition
  FROM pg_index WHERE indrelid = 'pi1'::regclass ORDER BY 1;
-- l.i1: 50 rows in, the 50 oldest out, each batch; the table keeps its size
SELECT status, transactions, variables FROM bench.run('ibench.l.i1', clients => 2, transactions => 10,
       prewarm => false, progress => '0');
SELECT 'pi' || t AS table, count(*) AS rows, min(transactionid) AS first, max(transactionid) AS last
  FROM (SELECT 1 AS t, * FROM pi1 UNION ALL SELECT 2, * FROM pi2) r
 GROUP BY t ORDER BY t;
-- commands per batch: an insert and a delete; the oldest row read once
SELECT regexp_replace(command, '\s+', ' ', 'g') AS command, executions
  FROM bench.command_latencies
 WHERE run_id = (SELECT max(id) FROM bench.runs) AND command !~ '^\\' ORDER BY command_no;
-- l.i2: 5 rows a batch
SELECT status, transactions FROM bench.run('ibench.l.i2', clients => 2, transactions => 10,
       prewarm => false, progress => '0');
SELECT count(*) AS rows, min(transactionid) AS first FROM pi1;
-- the query steps: query clients as fast as they go beside inserts held to
-- a rate (qr100's 100 rows a second per table: 2 batches of 50 a second)
SELECT bench.ibench_script('qr');
SELECT bench.ibench_script('qp', '{"rows_per_query": 3}');
SELECT workload, status, transactions, variables FROM bench.run(groups => $$[
         {"name": "insert", "workload": "ibench.l.i1", "clients": 2, "rate": 400},
         {"name": "query", "workload": "ibench.qr", "clients": 2}]$$,
       transactions => 10, prewarm => false, progress => '0');
SELECT name, transactions, rate FROM bench.run_groups
 WHERE run_id = (SELECT max(id) FROM bench.runs) ORDER BY group_no;
-- every query of the query group: a range query of one of the three indexes
SELECT sum(executions) FILTER (WHERE command ~ '^select') AS range_queries,
       count(*) FILTER (WHERE command ~ '^select' AND executions > 0) <= 3 AS of_the_three
  FROM bench.command_latencies
 WHERE run_id = (SELECT max(id) FROM bench.runs) AND script_no = 2;
SELECT count(*) AS rows FROM pi1;
-- qp: the ids there are, read at the first query (and every 100th), then
-- 10 random ids a query
SELECT status, transactions FROM bench.run(groups => $$[
         {"name": "insert", "workload": "ibench.l.i1", "clients": 2, "rate": 400},
         {"name": "query", "workload": "ibench.qp", "clients": 2}]$$,
       transactions => 10, prewarm => false, progress => '0');
SELECT regexp_replace(command, '\s+', ' ', 'g') AS command, executions
  FROM bench.command_latencies
 WHERE run_id = (SELECT max(id) FROM bench.runs) AND script_no = 2 AND command !~ '^\\' ORDER BY command_no;
-- options: a shared table is :tables 1; fewer indexes; no deletes
SELECT bench.ibench_script('l.x', '{"secondary_indexes": 1}');
SELECT bench.ibench_script('l.i0', '{"rows_per_commit": 1000, "data_length_min": 5, "data_length_max": 5, "data_random_pct": 0, "products": 7}');
SELECT bench.ibench_script('l.i1', '{"delete_per_insert": false}');
-- long data: 4,000 characters at most, all of it random; each row's
-- random part is as long as asked (the pool is long enough for it)
SELECT status FROM bench.run(script => bench.ibench_script('l.i0',
         '{"rows_per_commit": 10, "data_length_min": 3000, "data_length_max": 4000, "data_random_pct": 100}'),
       clients => 1, transactions => 3, prewarm => false, progress => '0');
SELECT count(*) AS rows, min(length(data)) >= 3000 AND max(length(data)) <= 4000 AS data_length,
       bool_and(left(data, a) = repeat('a', a) AND substr(data, a + 1) ~ '^[A-Za-z0-9+/]+$') AS data_pattern,
       sum(length(data) - a - length(replace(substr(data, a + 1), 'a', '')))::float8
         / sum(length(data) - a) < 0.05 AS random_part_random,
       -- two rows of a batch with the same length and the same window of
       -- its pool are equal (about one run in 3,000 has such a pair)
       count(DISTINCT data) >= count(*) - 1 AS distinct_data
  FROM pi1, LATERAL (SELECT length(data) - length(data) * 3 / 4 AS a) AS x
 WHERE transactionid > (SELECT max(transactionid) - 30 FROM pi1);

-- ------------------------------------------------------------ bad input
SELECT bench.ibench_script(NULL);
SELECT bench.ibench_script('l.i3');
SELECT bench.ibench_script('qr100');
SELECT bench.ibench_script('l.i0', NULL);
SELECT bench.ibench_script('l.i0', '[]');
SELECT bench.ibench_script('l.i0', '{"rows": 10}');
SELECT bench.ibench_script('l.i0', '{"rows_per_commit": 0}');
SELECT bench.ibench_script('l.i0', '{"rows_per_commit": 2.5}');
SELECT bench.ibench_script('l.x', '{"secondary_indexes": 4}');
SELECT bench.ibench_script('l.x', '{"secondary_indexes": 0}');
SELECT bench.ibench_script('l.i1', '{"delete_per_insert": "yes"}');
SELECT bench.ibench_script('l.i0', '{"data_length_min": 30, "data_length_max": 20}');
SELECT bench.ibench_script('l.i0', '{"data_random_pct": 101}');
SELECT bench.ibench_script('qr', '{"rows_per_query": 0}');
SELECT bench.ibench_script('qp', '{"rows_per_query": 1001}');
SELECT * FROM bench.init('ibench', tables => 0);
SELECT * FROM bench.init('ibench', table_size => 10);
SELECT * FROM bench.init('ibench', scale => 2);
SELECT * FROM bench.init('ibench', tables => 2);
-- an ibench workload where there is no ibench dataset, and the reverse
RESET search_path;
SELECT status FROM bench.run('ibench.l.i0', transactions => 1, progress => '0');
SET search_path = ib;
SELECT status FROM bench.run('select-only', transactions => 1, progress => '0');

RESET search_path;
DELETE FROM bench.runs WHERE id > :runs_before;
DROP SCHEMA ib CASCADE;
DELETE FROM bench.datasets WHERE schema_name = 'ib';
