--
-- bench.init('sysbench'): the tables sysbench 1.0 prepares for PostgreSQL
-- (sbtest1 .. sbtestN: columns, defaults, serial, primary key, index on k,
-- the values' patterns and k's distribution), replaced with force, and
-- every bad input.  t/024 holds them against sysbench prepare's own and
-- runs sysbench on them.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbenchkit CASCADE;
\set VERBOSITY default
SELECT coalesce(max(id), 0) AS runs_before FROM bench.runs \gset
CREATE SCHEMA sb;
CREATE SCHEMA sb2;
SET search_path = sb, public;

SELECT workload, scale, rows_loaded FROM bench.init('sysbench', tables => 3, table_size => 2000, jobs => 2);
-- the dataset's record
SELECT workload, status, scale, options->'tables' AS tables, options->'table_size' AS table_size,
       cardinality(tables) AS ntables, rows_loaded
  FROM bench.datasets WHERE schema_name = 'sb' AND status = 'ready';
-- the tables, as sysbench creates them
SELECT c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull,
       pg_get_expr(d.adbin, d.adrelid) AS default
  FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
  LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
 WHERE c.relnamespace = 'sb'::regnamespace AND c.relkind = 'r'
 ORDER BY c.relname, a.attnum;
SELECT indexrelid::regclass AS index, indrelid::regclass AS table, pg_get_indexdef(indexrelid) AS definition
  FROM pg_index WHERE indrelid IN ('sbtest1'::regclass, 'sbtest2'::regclass, 'sbtest3'::regclass)
 ORDER BY 2, 1;
SELECT conname, contype, conrelid::regclass FROM pg_constraint
 WHERE connamespace = 'sb'::regnamespace AND contype IN ('p', 'u', 'f') ORDER BY 1;
-- the serials, where sysbench's 2000 inserts leave them
SELECT last_value, is_called FROM sbtest1_id_seq;
SELECT last_value, is_called FROM sbtest3_id_seq;
SELECT pg_get_serial_sequence('sbtest2', 'id') AS serial;
SELECT count(*) AS sequences FROM pg_class WHERE relnamespace = 'sb'::regnamespace AND relkind = 'S';
-- the rows: ids 1 .. 2000; k from 1 to 2000, 75% of it in the middle 1%
-- (sysbench's special distribution: 990 .. 1011 here); c and pad of
-- random digits in groups of eleven, blank-padded to the column's width
SELECT 'sbtest' || t AS table, count(*) AS rows, min(id) = 1 AND max(id) = 2000 AND count(DISTINCT id) = 2000 AS ids,
       min(k) >= 1 AND max(k) <= 2000 AS k_in_range,
       avg((k BETWEEN 990 AND 1011)::int) BETWEEN 0.70 AND 0.82 AS k_special,
       bool_and(c::text ~ '^([0-9]{11}-){9}[0-9]{11}$' AND octet_length(c) = 120) AS c_pattern,
       bool_and(pad::text ~ '^([0-9]{11}-){4}[0-9]{11}$' AND octet_length(pad) = 60) AS pad_pattern,
       count(DISTINCT c) = 2000 AS c_distinct
  FROM (SELECT 1 AS t, * FROM sbtest1 UNION ALL SELECT 2, * FROM sbtest2 UNION ALL SELECT 3, * FROM sbtest3) r
 GROUP BY t ORDER BY t;
-- every digit about as often as the others (220,000 digits in sbtest1's c)
SELECT count(*) AS digits, min(n)::float8 / sum(n) > 0.09 AND max(n)::float8 / sum(n) < 0.11 AS even
  FROM (SELECT count(*) AS n FROM sbtest1, regexp_split_to_table(replace(c::text, '-', ''), '') d GROUP BY d) q;
-- a new row takes the next id, as after sysbench prepare
INSERT INTO sbtest1 (k, c, pad) VALUES (1, 'x', 'y') RETURNING id;
DELETE FROM sbtest1 WHERE id = 2001;

-- without force an existing dataset is refused; force replaces it whole:
-- the old dataset's sbtest3, which the new one does not make, goes too
SELECT * FROM bench.init('sysbench', tables => 3, table_size => 10);
SELECT workload, rows_loaded FROM bench.init('sysbench', tables => 2, table_size => 10, force => true);
SELECT (SELECT count(*) FROM sbtest1) AS t1, (SELECT count(*) FROM sbtest2) AS t2,
       to_regclass('sbtest3') AS t3, to_regclass('sbtest3_id_seq') AS t3_serial;
SELECT count(*) FILTER (WHERE status = 'ready') AS ready, count(*) FILTER (WHERE status = 'replaced') AS replaced
  FROM bench.datasets WHERE schema_name = 'sb';
SELECT last_value FROM sbtest2_id_seq;

-- ------------------------------------------------------------ sysbench's workloads
-- built in at sysbench's defaults, run on the dataset: :tables and
-- :table_size come from it (2 and 10 here)
SELECT name, dataset, builtin FROM bench.workloads WHERE dataset = 'sysbench' ORDER BY name;
SELECT w AS workload, r.status, r.transactions, r.failures
  FROM unnest(ARRAY['oltp_read_write', 'oltp_read_only', 'oltp_write_only', 'oltp_point_select',
                    'oltp_update_index', 'oltp_update_non_index']) AS w,
       LATERAL bench.run(w, transactions => 20, random_seed => 7, prewarm => false, progress => '0') r;
-- the runs record the :tables and :table_size they took
SELECT DISTINCT variables FROM bench.runs WHERE id > :runs_before AND workload LIKE 'oltp%';
-- the queries each ran, per command: oltp_read_write's 10 point selects,
-- 4 ranges, 2 updates, a delete and an insert, in a transaction
SELECT count(*) FILTER (WHERE command LIKE 'SELECT c FROM sbtest:{t} WHERE id = :id%') AS point_selects,
       count(*) FILTER (WHERE command LIKE '%BETWEEN%') AS ranges,
       count(*) FILTER (WHERE command LIKE 'UPDATE%') AS updates,
       count(*) FILTER (WHERE command LIKE 'DELETE%') AS deletes,
       count(*) FILTER (WHERE command LIKE 'INSERT%') AS inserts,
       min(executions) FILTER (WHERE command NOT LIKE '\\%') = 20 AS each_ran_20
  FROM bench.command_latencies
 WHERE run_id = (SELECT min(id) FROM bench.runs WHERE workload = 'oltp_read_write' AND status = 'done');
-- sysbench's statistics block: per transaction 14 reads (10 point selects,
-- 4 ranges), 4 writes (2 updates, a delete, an insert) and 2 others
-- (BEGIN, COMMIT); one client meets no error to ignore
SELECT j->'sysbench'->'queries' AS queries, j->'sysbench'->>'transactions' AS transactions,
       j->'sysbench'->>'events' AS events, j->'sysbench'->>'ignored_errors' AS ignored,
       j->'sysbench'->>'reconnects' AS reconnects,
       (j->'sysbench'->'latency_ms'->>'min')::numeric <= (j->'sysbench'->'latency_ms'->>'p95')::numeric
       AND (j->'sysbench'->'latency_ms'->>'p95')::numeric <= (j->'sysbench'->'latency_ms'->>'max')::numeric AS ordered,
       abs((j->'sysbench'->'latency_ms'->>'sum')::numeric - r.latency_avg_ms::numeric * 20) < 0.01 AS latency_sum
  FROM bench.runs r, bench.report_json(r.id) j
 WHERE r.id = (SELECT min(id) FROM bench.runs WHERE workload = 'oltp_read_write' AND status = 'done');
SELECT line FROM bench.runs r, regexp_split_to_table(bench.report(r.id), E'\n') WITH ORDINALITY AS l (line, n)
 WHERE r.id = (SELECT min(id) FROM bench.runs WHERE workload = 'oltp_read_write' AND status = 'done')
   AND (line ~ '^(SQL statistics|General statistics|Latency \(ms\)|    queries performed):$'
        OR line ~ '^ +(read|write|other|total|total number of events|reconnects):')
 ORDER BY n;
-- a delete and an insert of the same id keep the rows; an insert adds one;
-- a delete removes one at most
SELECT (SELECT count(*) FROM sbtest1) + (SELECT count(*) FROM sbtest2) AS rows_kept;
SELECT status, transactions FROM bench.run('oltp_insert', transactions => 5, prewarm => false, progress => '0');
SELECT (SELECT count(*) FROM sbtest1) + (SELECT count(*) FROM sbtest2) AS rows_after_insert,
       (SELECT max(id) FROM sbtest1) > 10 OR (SELECT max(id) FROM sbtest2) > 10 AS serial_ids;
SELECT status, transactions FROM bench.run('oltp_delete', transactions => 5, prewarm => false, progress => '0');
SELECT (SELECT count(*) FROM sbtest1) + (SELECT count(*) FROM sbtest2) BETWEEN 20 AND 25 AS rows_after_delete;
-- the 'simple' protocol too: c and pad go in as quoted literals (:'c')
SELECT status, transactions FROM bench.run('oltp_write_only', protocol => 'simple', transactions => 10,
                                          random_seed => 5, prewarm => false, progress => '0');
SELECT count(*) FILTER (WHERE c::text !~ '^([0-9]{11}-){9}[0-9]{11}$') AS c_broken,
       count(*) FILTER (WHERE pad::text !~ '^([0-9]{11}-){4}[0-9]{11}$') AS pad_broken
  FROM (SELECT c, pad FROM sbtest1 UNION ALL SELECT c, pad FROM sbtest2) r;
-- other options: bench.sysbench_script
SELECT bench.sysbench_script('oltp_read_only', '{"point_selects": 1, "range_selects": false, "rand_type": "uniform", "skip_trx": true}');
SELECT bench.sysbench_script('oltp_write_only', '{"index_updates": 0, "non_index_updates": 0, "delete_inserts": 2, "rand_type": "pareto", "rand_pareto_h": 0.3}');
SELECT name, dataset FROM bench.define_workload('sb_zipf', bench.sysbench_script('oltp_read_only',
       '{"point_selects": 3, "rand_type": "zipfian", "range_size": 5}'), dataset => 'sysbench');
SELECT status, transactions FROM bench.run('sb_zipf', transactions => 10, prewarm => false, progress => '0');
SELECT bench.drop_workload('sb_zipf') IS NOT NULL AS dropped;
-- the script of bench.sysbench_script runs alone too: it declares its
-- dataset, which the run finds with its variables
SELECT status, transactions, variables
  FROM bench.run(script => bench.sysbench_script('oltp_point_select', '{"point_selects": 2}'),
                 transactions => 5, prewarm => false, progress => '0');
-- a workload and a dataset that do not go together
SET search_path = sb2, public;
SELECT status FROM bench.run('oltp_read_only', transactions => 1, progress => '0');
SET search_path = sb, public;
SELECT status FROM bench.run('select-only', transactions => 1, progress => '0');
-- bad options
SELECT bench.sysbench_script(NULL);
SELECT bench.sysbench_script('oltp_read_writ');
SELECT bench.sysbench_script('oltp_read_write', NULL);
SELECT bench.sysbench_script('oltp_read_write', '[1]');
SELECT bench.sysbench_script('oltp_read_write', '{"point_select": 1}');
SELECT bench.sysbench_script('oltp_read_write', '{"point_selects": -1}');
SELECT bench.sysbench_script('oltp_read_write', '{"point_selects": 1.5}');
SELECT bench.sysbench_script('oltp_read_write', '{"point_selects": "ten"}');
SELECT bench.sysbench_script('oltp_read_write', '{"point_selects": 1001}');
SELECT bench.sysbench_script('oltp_read_write', '{"range_size": 0}');
SELECT bench.sysbench_script('oltp_read_write', '{"rand_spec_pct": 101}');
SELECT bench.sysbench_script('oltp_read_write', '{"rand_spec_iter": 0}');
SELECT bench.sysbench_script('oltp_read_write', '{"range_selects": "yes"}');
SELECT bench.sysbench_script('oltp_read_write', '{"rand_type": "normal"}');
SELECT bench.sysbench_script('oltp_read_write', '{"rand_pareto_h": 1}');
SELECT bench.sysbench_script('oltp_read_write', '{"rand_zipfian_exp": -1}');
SELECT bench.sysbench_script('oltp_point_select', '{"point_selects": 0}');
SELECT bench.sysbench_script('oltp_read_only', '{"point_selects": 0, "simple_ranges": 0, "sum_ranges": 0, "order_ranges": 0, "distinct_ranges": 0}');

-- ------------------------------------------------------------ bad input
SELECT * FROM bench.init('sysbench', tables => 0);
SELECT * FROM bench.init('sysbench', tables => -1);
SELECT * FROM bench.init('sysbench', tables => 10001);
SELECT * FROM bench.init('sysbench', table_size => 0);
SELECT * FROM bench.init('sysbench', table_size => -5);
-- -1 is a value like -5, not "not given" (NULL is), whatever the kind
SELECT * FROM bench.init('sysbench', table_size => -1);
SELECT * FROM bench.init('tpcb', table_size => -1);
SELECT * FROM bench.init('ibench', table_size => -1);
SELECT count(*) AS datasets FROM bench.datasets WHERE options->>'table_size' = '-1';
-- a dataset too large for the disk, refused before anything starts, in
-- sysbench's words
DO $$
DECLARE
  hint text;
BEGIN
  PERFORM bench.init('sysbench', tables => 10000, table_size => 2000000000);
EXCEPTION WHEN disk_full THEN
  GET STACKED DIAGNOSTICS hint = PG_EXCEPTION_HINT;
  RAISE WARNING 'refused with %: %', SQLSTATE, regexp_replace(SQLERRM, '[0-9]+ MB', 'N MB', 'g');
  RAISE WARNING 'hint: %', hint;
END $$;
SELECT * FROM bench.init('sysbench', scale => 2);
SELECT * FROM bench.init('sysbench', fillfactor => 90);
SELECT * FROM bench.init('sysbench', partitions => 2);
SELECT * FROM bench.init('sysbench', partition_method => 'hash');
SELECT * FROM bench.init('sysbench', unlogged => true);
SELECT * FROM bench.init('sysbench', foreign_keys => true);
SELECT * FROM bench.init('tpcb', tables => 4);
SELECT * FROM bench.init('tpcb', table_size => 100);
SELECT * FROM bench.init('sysbench', generate => 'server');
-- a table of that name that bench.init did not make
CREATE TABLE sb2.sbtest2 (id int);
SET search_path = sb2, public;
SELECT * FROM bench.init('sysbench', tables => 2, table_size => 10, force => true);
SELECT count(*) AS left_behind FROM pg_class WHERE relnamespace = 'sb2'::regnamespace AND relname <> 'sbtest2';

RESET search_path;
DROP SCHEMA sb CASCADE;
DROP SCHEMA sb2 CASCADE;
DELETE FROM bench.runs WHERE id > :runs_before;
DELETE FROM bench.datasets WHERE schema_name IN ('sb', 'sb2');
