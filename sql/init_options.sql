--
-- bench.init options: partitions, fillfactor, unlogged, foreign keys, jobs
--
CREATE SCHEMA opt;
SET search_path = opt, public;

-- range partitions: pgbench's bounds, every account in the partition its aid routes to
SELECT rows_loaded FROM bench.init('tpcb', scale => 1, partitions => 3);
SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) AS bound, c.reloptions
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
 WHERE i.inhparent = 'opt.pgbench_accounts'::regclass ORDER BY 1;
SELECT tableoid::regclass, count(*), min(aid), max(aid) FROM pgbench_accounts GROUP BY 1 ORDER BY 1;
SELECT count(*) FROM pgbench_accounts WHERE aid IN (1, 33334, 33335, 66668, 66669, 100000);
SELECT conrelid::regclass, conname FROM pg_constraint
 WHERE connamespace = 'opt'::regnamespace AND contype = 'p' ORDER BY 1;
SELECT options->>'partitions' AS partitions, options->>'partition_method' AS method
  FROM bench.datasets WHERE schema_name = 'opt' AND status = 'ready';

-- hash partitions: rows land where PostgreSQL's routing puts them
SELECT rows_loaded FROM bench.init('tpcb', scale => 1, partitions => 4, partition_method => 'hash', force => true);
SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) AS bound
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
 WHERE i.inhparent = 'opt.pgbench_accounts'::regclass ORDER BY 1;
SELECT count(*) AS misplaced FROM (
  SELECT tableoid, aid FROM pgbench_accounts
  EXCEPT
  SELECT 'opt.pgbench_accounts_1'::regclass, aid FROM generate_series(1, 100000) aid
   WHERE satisfies_hash_partition('opt.pgbench_accounts'::regclass, 4, 0, aid)
  EXCEPT
  SELECT 'opt.pgbench_accounts_2'::regclass, aid FROM generate_series(1, 100000) aid
   WHERE satisfies_hash_partition('opt.pgbench_accounts'::regclass, 4, 1, aid)
  EXCEPT
  SELECT 'opt.pgbench_accounts_3'::regclass, aid FROM generate_series(1, 100000) aid
   WHERE satisfies_hash_partition('opt.pgbench_accounts'::regclass, 4, 2, aid)
  EXCEPT
  SELECT 'opt.pgbench_accounts_4'::regclass, aid FROM generate_series(1, 100000) aid
   WHERE satisfies_hash_partition('opt.pgbench_accounts'::regclass, 4, 3, aid)) s;
SELECT count(*), sum(aid) FROM pgbench_accounts;
SELECT count(*) FROM pgbench_accounts WHERE aid IN (1, 777, 50000, 99999, 100000);

-- fillfactor, unlogged and foreign keys
SELECT rows_loaded, foreign_keys_s > 0 AS fk_timed
  FROM bench.init('tpcb', scale => 1, fillfactor => 50, unlogged => true,
                  foreign_keys => true, force => true);
SELECT relname, relpersistence, reloptions FROM pg_class
 WHERE relnamespace = 'opt'::regnamespace AND relkind = 'r' ORDER BY 1;
SELECT conrelid::regclass, conname, pg_get_constraintdef(oid) FROM pg_constraint
 WHERE connamespace = 'opt'::regnamespace AND contype = 'f' ORDER BY 1, 2;
-- 30 rows in a half-full page, as pgbench -i -F 50 makes them
SELECT relpages, pg_relation_size('opt.pgbench_accounts') / 8192 AS blocks
  FROM pg_class WHERE oid = 'opt.pgbench_accounts'::regclass;
SELECT max(n), min(n) FROM (SELECT (ctid::text::point)[0], count(*) n FROM pgbench_accounts GROUP BY 1) s;

-- two loaders give the same rows as one
SELECT rows_loaded FROM bench.init('tpcb', scale => 3, jobs => 2, force => true);
SELECT count(*), count(DISTINCT aid), sum(aid), sum(bid), min(aid), max(aid) FROM pgbench_accounts;
-- (the page layout of parallel loads is checked in t/001_pgbench_compat.pl)
SELECT status, options->>'jobs' AS jobs FROM bench.datasets
 WHERE schema_name = 'opt' ORDER BY id;

-- written through the page cache (pgbenchkit.init_direct_writes off) or
-- around it (on), the tables and keys hold the same rows in the same
-- places, and the dataset records the choice ('auto', the default, writes
-- a dataset smaller than a quarter of the memory through the page cache)
CREATE TEMP TABLE layouts (direct_writes text, heap text, pages bigint, keyed bigint, key_pages bigint);
-- the dataset as loaded: its rows and their places, and 300 of them looked up by key
CREATE FUNCTION pg_temp.layout() RETURNS SETOF layouts LANGUAGE sql
  SET enable_seqscan = off SET enable_bitmapscan = off AS $$
SELECT (SELECT options->>'direct_writes' FROM bench.datasets WHERE schema_name = 'opt' AND status = 'ready'),
       (SELECT md5(string_agg(ctid::text || aid || ',' || bid || ',' || abalance || filler, ';' ORDER BY aid))
          FROM pgbench_accounts),
       pg_relation_size('opt.pgbench_accounts') / 8192,
       (SELECT count(*) FROM generate_series(7, 300000, 1000) g JOIN pgbench_accounts a ON a.aid = g),
       pg_relation_size('opt.pgbench_accounts_pkey') / 8192 $$;
SET pgbenchkit.init_direct_writes = off;
SHOW pgbenchkit.init_direct_writes;
SELECT rows_loaded FROM bench.init('tpcb', scale => 3, jobs => 2, force => true);
INSERT INTO layouts SELECT * FROM pg_temp.layout();
SET pgbenchkit.init_direct_writes = on;
SELECT rows_loaded FROM bench.init('tpcb', scale => 3, force => true);
INSERT INTO layouts SELECT * FROM pg_temp.layout();
SELECT direct_writes, pages, keyed, key_pages, heap = first_value(heap) OVER () AS same_rows
  FROM layouts ORDER BY direct_writes;
-- (the first load of init.sql, at the default 'auto', recorded false)
RESET pgbenchkit.init_direct_writes;
SHOW pgbenchkit.init_direct_writes;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM generate_series(7, 300000, 1000) g JOIN pgbench_accounts a ON a.aid = g;
RESET enable_seqscan;
RESET enable_bitmapscan;
SET pgbenchkit.init_direct_writes = maybe;
SET pgbenchkit.init_direct_writes = yes;
SHOW pgbenchkit.init_direct_writes;
RESET pgbenchkit.init_direct_writes;

-- pgbench's statements run against the result
SELECT abalance FROM pgbench_accounts WHERE aid = 123456;
UPDATE pgbench_accounts SET abalance = abalance + 5 WHERE aid = 123456;
UPDATE pgbench_tellers SET tbalance = tbalance + 5 WHERE tid = 7;
UPDATE pgbench_branches SET bbalance = bbalance + 5 WHERE bid = 2;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (7, 2, 123456, 5, CURRENT_TIMESTAMP);
SELECT abalance FROM pgbench_accounts WHERE aid = 123456;

RESET search_path;
