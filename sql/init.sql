--
-- bench.init: loading pgbench's TPC-B dataset
--
CREATE EXTENSION pgbenchkit CASCADE;
SELECT extname, extversion FROM pg_extension WHERE extname IN ('pgbenchkit', 'pg_prewarm') ORDER BY 1;

-- a first load at scale 2, default options (phases are rounded to the
-- millisecond: the two small keys can take less than half of one)
SELECT dataset_id, workload, scale, rows_loaded,
       create_s >= 0 AS create_timed, load_s > 0 AS load_timed, vacuum_s >= 0 AS vacuum_timed,
       primary_keys_s >= 0 AS keys_timed, foreign_keys_s = 0 AS no_fkeys,
       abs(total_s - (create_s + load_s + vacuum_s + primary_keys_s + foreign_keys_s)) < 0.01 AS total_adds_up
  FROM bench.init('tpcb', scale => 2);

-- the rows pgbench -i makes: 100000 accounts, 10 tellers, 1 branch per unit of scale
SELECT count(*), min(aid), max(aid), sum(aid), count(DISTINCT bid), min(bid), max(bid),
       sum(abalance), bool_and(filler = '' AND pg_column_size(filler) = 85) AS blank_filler,
       bool_and(bid = (aid - 1) / 100000 + 1) AS bid_of_aid
  FROM pgbench_accounts;
SELECT count(*), sum(tid), sum(bid), sum(tbalance), bool_and(filler IS NULL) AS null_filler,
       bool_and(bid = (tid - 1) / 10 + 1) AS bid_of_tid
  FROM pgbench_tellers;
SELECT count(*), sum(bid), sum(bbalance), bool_and(filler IS NULL) AS null_filler FROM pgbench_branches;
SELECT count(*) FROM pgbench_history;

-- the same tables, columns and types as pgbench -i
SELECT c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
 WHERE c.relname IN ('pgbench_accounts', 'pgbench_branches', 'pgbench_tellers', 'pgbench_history')
   AND c.relnamespace = 'public'::regnamespace AND a.attnum > 0
 ORDER BY 1, 2;
SELECT relname, relkind, relpersistence, reloptions
  FROM pg_class
 WHERE relname LIKE 'pgbench%' AND relnamespace = 'public'::regnamespace
 ORDER BY 1;
SELECT conrelid::regclass, conname, pg_get_constraintdef(oid)
  FROM pg_constraint
 WHERE conrelid::regclass::text LIKE 'pgbench%' AND contype <> 'n'
 ORDER BY 1, 2;
-- no constraint keeps a staging name (PostgreSQL 18 names NOT NULL constraints)
SELECT count(*) FROM pg_constraint WHERE conname LIKE 'bench\_load%';

-- loaded frozen and vacuumed: every page all-visible, statistics present
SELECT relname, relpages > 0 AS has_pages, relallvisible = relpages AS all_visible, reltuples
  FROM pg_class
 WHERE relname IN ('pgbench_accounts', 'pgbench_branches', 'pgbench_tellers')
   AND relnamespace = 'public'::regnamespace
 ORDER BY 1;
SELECT tablename, count(*) > 0 AS analyzed
  FROM pg_stats WHERE schemaname = 'public' AND tablename LIKE 'pgbench%'
 GROUP BY 1 ORDER BY 1;

-- the dataset is recorded, with the tables it made
SELECT id, workload, scale, options, schema_name, status, created_by = current_user AS by_me,
       server_version = current_setting('server_version') AS this_server,
       rows_loaded, finished_at >= started_at AS finished, worker_pid, sqlstate, error,
       tables = ARRAY['pgbench_history'::regclass, 'pgbench_tellers'::regclass,
                      'pgbench_accounts'::regclass, 'pgbench_branches'::regclass] AS its_tables
  FROM bench.datasets ORDER BY id;

-- no staging table is left behind
SELECT count(*) FROM pg_class WHERE relname LIKE 'bench\_load\_%';

-- tables exist: refused without force
SELECT * FROM bench.init('tpcb');

-- force replaces a dataset bench.init made
SELECT dataset_id, scale, rows_loaded FROM bench.init('tpcb', scale => 1, fillfactor => 90, force => true);
SELECT id, scale, status FROM bench.datasets ORDER BY id;
SELECT count(*), max(aid) FROM pgbench_accounts;
SELECT relname, reloptions FROM pg_class
 WHERE relname IN ('pgbench_accounts', 'pgbench_branches', 'pgbench_tellers', 'pgbench_history')
   AND relnamespace = 'public'::regnamespace ORDER BY 1;

-- a failure in the last step keeps the old dataset and records the error:
-- a view on pgbench_accounts stops DROP TABLE
CREATE VIEW accounts_view AS SELECT aid FROM pgbench_accounts;
SELECT * FROM bench.init('tpcb', scale => 2, force => true);
SELECT id, scale, status, sqlstate, error IS NOT NULL AS has_error, rows_loaded
  FROM bench.datasets ORDER BY id;
SELECT count(*) FROM pgbench_accounts;
SELECT count(*) FROM pg_class WHERE relname LIKE 'bench\_load\_%';
DROP VIEW accounts_view;

-- a table of the same name that bench.init did not make is never dropped
DROP TABLE pgbench_history;
CREATE TABLE pgbench_history (note text);
INSERT INTO pgbench_history VALUES ('mine');
SELECT * FROM bench.init('tpcb', force => true);
SELECT note FROM pgbench_history;
DROP TABLE pgbench_history;
DROP TABLE pgbench_accounts, pgbench_branches, pgbench_tellers;
