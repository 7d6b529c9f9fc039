--
-- bench.init('tpcc'): the nine tables of TPC-C as go-tpc makes them for
-- PostgreSQL, and the initial population of clause 4.3.3.1 checked over
-- the rows themselves; with jobs => 2 the same; every bad input.
-- t/030 loads the same into a target.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbenchkit CASCADE;
\set VERBOSITY default
SELECT coalesce(max(id), 0) AS runs_before FROM bench.runs \gset
CREATE SCHEMA tc;
SET search_path = tc, public;

SELECT workload, scale, rows_loaded > 590000 AS rows_loaded FROM bench.init('tpcc', warehouses => 1);
-- the dataset's record: the warehouses and NURand's constants (clause 2.1.6)
SELECT workload, status, scale, options->'warehouses' AS warehouses, cardinality(tables) AS ntables,
       (options->>'c_last')::int BETWEEN 0 AND 255 AS c_last_ok,
       (options->>'c_id')::int BETWEEN 0 AND 1023 AS c_id_ok,
       (options->>'ol_i_id')::int BETWEEN 0 AND 8191 AS ol_i_id_ok
  FROM bench.datasets WHERE schema_name = 'tc' AND status = 'ready';
-- rows_loaded is the tables' rows
SELECT rows_loaded = (SELECT (SELECT count(*) FROM warehouse) + (SELECT count(*) FROM district)
                           + (SELECT count(*) FROM customer) + (SELECT count(*) FROM history)
                           + (SELECT count(*) FROM new_order) + (SELECT count(*) FROM orders)
                           + (SELECT count(*) FROM order_line) + (SELECT count(*) FROM item)
                           + (SELECT count(*) FROM stock)) AS rows_loaded_counted
  FROM bench.datasets WHERE schema_name = 'tc' AND status = 'ready';
-- the tables, as go-tpc creates them
SELECT c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull
  FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
 WHERE c.relnamespace = 'tc'::regnamespace AND c.relkind = 'r'
 ORDER BY c.relname, a.attnum;
SELECT indexrelid::regclass AS index, indrelid::regclass AS table, pg_get_indexdef(indexrelid) AS definition
  FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
 WHERE c.relnamespace = 'tc'::regnamespace
 ORDER BY indrelid::regclass::text, indexrelid::regclass::text;
SELECT conname, contype, conrelid::regclass FROM pg_constraint
 WHERE connamespace = 'tc'::regnamespace AND contype IN ('p', 'u', 'f') ORDER BY 1;
-- nothing left under staging names
SELECT count(*) AS staged FROM pg_class WHERE relname LIKE 'bench\_load\_%';

-- the cardinalities of clause 4.3.3.1 (one warehouse)
SELECT (SELECT count(*) FROM warehouse) AS warehouse, (SELECT count(*) FROM district) AS district,
       (SELECT count(*) FROM customer) AS customer, (SELECT count(*) FROM history) AS history,
       (SELECT count(*) FROM orders) AS orders, (SELECT count(*) FROM new_order) AS new_order,
       (SELECT count(*) FROM item) AS item, (SELECT count(*) FROM stock) AS stock,
       (SELECT count(*) FROM order_line) = (SELECT sum(o_ol_cnt) FROM orders) AS order_lines_match;
SELECT min(o_ol_cnt) AS min_lines, max(o_ol_cnt) AS max_lines,
       count(DISTINCT o_ol_cnt) AS line_counts FROM orders;
SELECT bool_and(n = o_ol_cnt) AS every_order_its_lines
  FROM orders o JOIN (SELECT ol_w_id, ol_d_id, ol_o_id, count(*) AS n, max(ol_number) AS m
                        FROM order_line GROUP BY 1, 2, 3) l
    ON (l.ol_w_id, l.ol_d_id, l.ol_o_id) = (o.o_w_id, o.o_d_id, o.o_id)
 WHERE l.m = l.n;
-- keys: ids 1 .. N
SELECT min(i_id), max(i_id), count(DISTINCT i_id) FROM item;
SELECT min(s_i_id), max(s_i_id), bool_and(s_w_id = 1) FROM stock;
SELECT d_id, d_next_o_id, d_ytd, d_tax BETWEEN 0 AND 0.2 AS tax_ok FROM district ORDER BY d_id;
SELECT w_id, w_ytd, w_tax BETWEEN 0 AND 0.2 AS tax_ok, w_zip LIKE '____11111' AS zip_ok,
       length(w_name) BETWEEN 6 AND 10 AS name_ok, length(w_state) AS state_len FROM warehouse;
-- per district: 3000 customers and orders, the last 900 undelivered and new
SELECT o_d_id, count(*) AS orders, count(DISTINCT o_c_id) AS customers, min(o_c_id), max(o_c_id),
       count(*) FILTER (WHERE o_carrier_id IS NULL) AS undelivered,
       bool_and((o_carrier_id IS NULL) = (o_id >= 2101)) AS last_900,
       bool_and(o_carrier_id IS NULL OR o_carrier_id BETWEEN 1 AND 10) AS carrier_ok,
       bool_and(o_all_local = 1) AS all_local
  FROM orders GROUP BY o_d_id ORDER BY o_d_id;
SELECT no_d_id, count(*), min(no_o_id), max(no_o_id) FROM new_order GROUP BY 1 ORDER BY 1;
-- the customers of a district's orders are a permutation, not 1, 2, 3, ...
SELECT count(*) FILTER (WHERE o_c_id = o_id) < 100 AS shuffled FROM orders;
-- order lines: delivered ones 0.00 on the order's date, undelivered ones NULL and 0.01 .. 9999.99
SELECT ol_o_id >= 2101 AS undelivered, count(*) > 0 AS some,
       bool_and((ol_delivery_d IS NULL) = (ol_o_id >= 2101)) AS delivery_ok,
       bool_and(CASE WHEN ol_o_id < 2101 THEN ol_amount = 0 ELSE ol_amount BETWEEN 0.01 AND 9999.99 END) AS amount_ok,
       bool_and(ol_quantity = 5) AS quantity_ok, bool_and(ol_supply_w_id = ol_w_id) AS supply_ok,
       bool_and(ol_i_id BETWEEN 1 AND 100000) AS item_ok, bool_and(length(ol_dist_info) = 24) AS dist_ok
  FROM order_line GROUP BY 1 ORDER BY 1;
SELECT bool_and(l.ol_delivery_d = o.o_entry_d) AS delivered_at_entry
  FROM order_line l JOIN orders o ON (o.o_w_id, o.o_d_id, o.o_id) = (l.ol_w_id, l.ol_d_id, l.ol_o_id)
 WHERE o.o_id < 2101;
-- customers: the constants, 10% BC (a range), names, the syllable rule
SELECT bool_and(c_middle = 'OE') AS middle, bool_and(c_balance = -10.00) AS balance,
       bool_and(c_ytd_payment = 10.00) AS ytd, bool_and(c_payment_cnt = 1) AS payments,
       bool_and(c_delivery_cnt = 0) AS deliveries, bool_and(c_credit_lim = 50000.00) AS credit_lim,
       bool_and(c_discount BETWEEN 0 AND 0.5) AS discount, bool_and(c_credit IN ('GC', 'BC')) AS credit,
       count(*) FILTER (WHERE c_credit = 'BC') BETWEEN 2400 AND 3600 AS bc_about_10pct,
       bool_and(length(c_first) BETWEEN 8 AND 16) AS first, bool_and(length(c_data) BETWEEN 300 AND 500) AS data,
       bool_and(c_phone ~ '^[0-9]{16}$') AS phone, bool_and(c_zip LIKE '____11111') AS zip
  FROM customer;
WITH s(syl, n) AS (SELECT * FROM unnest('{BAR,OUGHT,ABLE,PRI,PRES,ESE,ANTI,CALLY,ATION,EING}'::text[])
                                  WITH ORDINALITY AS u(syl, n))
SELECT bool_and(c.c_last = (SELECT a.syl || b.syl || d.syl FROM s a, s b, s d
                             WHERE a.n = (c.c_id - 1) / 100 + 1 AND b.n = (c.c_id - 1) / 10 % 10 + 1
                               AND d.n = (c.c_id - 1) % 10 + 1)) AS syllables_first_1000
  FROM customer c WHERE c.c_id <= 1000;
SELECT c_last FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id IN (1, 2, 11, 111, 1000) ORDER BY c_id;
-- the others: names of three syllables, NURand-skewed (not all 1000 names equally)
SELECT bool_and(c_last ~ '^((BAR|OUGHT|ABLE|PRI|PRES|ESE|ANTI|CALLY|ATION|EING)){3}$') AS three_syllables,
       count(DISTINCT c_last) BETWEEN 500 AND 1000 AS many_names
  FROM customer WHERE c_id > 1000;
-- history: one row per customer, 10.00
SELECT count(*) AS rows, count(DISTINCT (h_c_w_id, h_c_d_id, h_c_id)) AS customers,
       bool_and(h_amount = 10.00) AS amount, bool_and(h_d_id = h_c_d_id AND h_w_id = h_c_w_id) AS same_district,
       bool_and(length(h_data) BETWEEN 12 AND 24) AS data
  FROM history;
-- 10% of i_data and s_data hold ORIGINAL (a range), lengths 26 .. 50
SELECT count(*) FILTER (WHERE i_data LIKE '%ORIGINAL%') BETWEEN 9000 AND 11000 AS items_original,
       bool_and(length(i_data) BETWEEN 26 AND 50) AS data, bool_and(length(i_name) BETWEEN 14 AND 24) AS name,
       bool_and(i_price BETWEEN 1.00 AND 100.00) AS price, bool_and(i_im_id BETWEEN 1 AND 10000) AS im_id
  FROM item;
SELECT count(*) FILTER (WHERE s_data LIKE '%ORIGINAL%') BETWEEN 9000 AND 11000 AS stock_original,
       bool_and(length(s_data) BETWEEN 26 AND 50) AS data, bool_and(s_quantity BETWEEN 10 AND 100) AS quantity,
       bool_and(s_ytd = 0 AND s_order_cnt = 0 AND s_remote_cnt = 0) AS counters,
       bool_and(length(s_dist_01) = 24 AND length(s_dist_10) = 24) AS dist
  FROM stock;
-- the same date everywhere: the load's
SELECT count(DISTINCT d) AS dates FROM (SELECT c_since AS d FROM customer UNION SELECT h_date FROM history
                                        UNION SELECT o_entry_d FROM orders) x;

-- the consistency conditions of clause 3.3.2 that the initial population meets
SELECT (SELECT bool_and(w_ytd = (SELECT sum(d_ytd) FROM district WHERE d_w_id = w_id)) FROM warehouse) AS c1,
       (SELECT bool_and(d_next_o_id - 1 = (SELECT max(o_id) FROM orders WHERE (o_w_id, o_d_id) = (d_w_id, d_id))
                    AND d_next_o_id - 1 = (SELECT max(no_o_id) FROM new_order WHERE (no_w_id, no_d_id) = (d_w_id, d_id)))
          FROM district) AS c2,
       (SELECT bool_and(n = hi - lo + 1) FROM (SELECT count(*) AS n, max(no_o_id) AS hi, min(no_o_id) AS lo
                                                 FROM new_order GROUP BY no_w_id, no_d_id) x) AS c3,
       (SELECT sum(o_ol_cnt) FROM orders) = (SELECT count(*) FROM order_line) AS c4,
       (SELECT bool_and((o_carrier_id IS NULL) = EXISTS (SELECT 1 FROM new_order
                                                         WHERE (no_w_id, no_d_id, no_o_id) = (o_w_id, o_d_id, o_id)))
          FROM orders) AS c5,
       (SELECT bool_and((l.ol_delivery_d IS NULL) = (o.o_carrier_id IS NULL))
          FROM order_line l JOIN orders o ON (o.o_w_id, o.o_d_id, o.o_id) = (l.ol_w_id, l.ol_d_id, l.ol_o_id)) AS c7,
       (SELECT bool_and(w_ytd = (SELECT sum(h_amount) FROM history WHERE h_w_id = w_id)) FROM warehouse) AS c8,
       (SELECT bool_and(d_ytd = (SELECT sum(h_amount) FROM history WHERE (h_w_id, h_d_id) = (d_w_id, d_id)))
          FROM district) AS c9,
       (SELECT bool_and(n = 2100) FROM (SELECT count(*) - (SELECT count(*) FROM new_order
                                                            WHERE (no_w_id, no_d_id) = (o_w_id, o_d_id)) AS n
                                          FROM orders GROUP BY o_w_id, o_d_id) x) AS c11;
SELECT bool_and(c.c_balance = coalesce(l.delivered, 0) - coalesce(h.paid, 0)) AS c10,
       bool_and(c.c_balance + c.c_ytd_payment = coalesce(l.delivered, 0)) AS c12
  FROM customer c
  LEFT JOIN (SELECT o_w_id, o_d_id, o_c_id, sum(ol_amount) AS delivered
               FROM orders JOIN order_line ON (ol_w_id, ol_d_id, ol_o_id) = (o_w_id, o_d_id, o_id)
              WHERE ol_delivery_d IS NOT NULL GROUP BY 1, 2, 3) l ON (l.o_w_id, l.o_d_id, l.o_c_id) = (c.c_w_id, c.c_d_id, c.c_id)
  LEFT JOIN (SELECT h_c_w_id, h_c_d_id, h_c_id, sum(h_amount) AS paid FROM history GROUP BY 1, 2, 3) h
    ON (h.h_c_w_id, h.h_c_d_id, h.h_c_id) = (c.c_w_id, c.c_d_id, c.c_id);

-- jobs => 2, with foreign keys: the same counts; the keys by go-tpc's names
SELECT workload, scale FROM bench.init('tpcc', warehouses => 1, jobs => 2, foreign_keys => true, force => true);
SELECT (SELECT count(*) FROM warehouse) AS warehouse, (SELECT count(*) FROM district) AS district,
       (SELECT count(*) FROM customer) AS customer, (SELECT count(*) FROM history) AS history,
       (SELECT count(*) FROM orders) AS orders, (SELECT count(*) FROM new_order) AS new_order,
       (SELECT count(*) FROM item) AS item, (SELECT count(*) FROM stock) AS stock,
       (SELECT count(*) FROM order_line) = (SELECT sum(o_ol_cnt) FROM orders) AS order_lines_match;
SELECT count(*) FILTER (WHERE c_credit = 'BC') BETWEEN 2400 AND 3600 AS bc_about_10pct,
       count(DISTINCT (c_d_id, c_id)) AS customers FROM customer;
SELECT conname, conrelid::regclass, pg_get_constraintdef(oid) FROM pg_constraint
 WHERE connamespace = 'tc'::regnamespace AND contype = 'f' ORDER BY 1;
SELECT count(*) AS datasets, count(*) FILTER (WHERE status = 'ready') AS ready
  FROM bench.datasets WHERE schema_name = 'tc' AND workload = 'tpcc';
-- order_line, stock and customer are written a unit at a time on pages of
-- their own, and their primary keys filled from those pages without a
-- sort: every index passes amcheck's strictest check (structure, order,
-- every row found by a descent from the root), and those three are, page
-- for page and in their metapage, what CREATE INDEX builds (REINDEX)
CREATE EXTENSION amcheck;
CREATE EXTENSION pageinspect;
SELECT c.relname, bt_index_parent_check(c.oid, true, true) IS NOT NULL AS checked
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
 WHERE c.relnamespace = 'tc'::regnamespace ORDER BY 1;
CREATE FUNCTION pg_temp.layout(idx regclass) RETURNS text LANGUAGE sql AS $$
  SELECT md5(string_agg(format('%s:%s:%s:%s', b, s.type, s.live_items,
                               (SELECT md5(string_agg(format('%s/%s/%s/%s', itemoffset, ctid, itemlen, data), ','
                                                      ORDER BY itemoffset))
                                  FROM bt_page_items(idx::text, b))), ';' ORDER BY b))
         || (SELECT md5(row(m.*)::text) FROM bt_metap(idx::text) m)
    FROM generate_series(1, pg_relation_size(idx) / current_setting('block_size')::int - 1) b,
         LATERAL bt_page_stats(idx::text, b) s
$$;
CREATE TEMP TABLE tc_built AS
  SELECT k, pg_temp.layout(k) AS layout, pg_relation_size(k) AS size
    FROM unnest('{tc.order_line_pkey,tc.stock_pkey,tc.customer_pkey}'::regclass[]) k;
REINDEX TABLE order_line;
REINDEX TABLE stock;
REINDEX TABLE customer;
SELECT k AS index, size > 0 AS has_pages, layout = pg_temp.layout(k) AS as_create_index
  FROM tc_built ORDER BY k::text;
DROP TABLE tc_built;
DROP EXTENSION pageinspect;
DROP EXTENSION amcheck;

-- a run on it (\dataset tpcc) sees the warehouses, the load's constants,
-- and the run's C for C_LAST at a delta of 65 .. 119, not 96 nor 112
CREATE TABLE public.tc_vars (warehouses int, scale int, c_id int, ol_i_id int, c_last int, c_last_load int);
SELECT status, transactions FROM bench.run(script => E'\\dataset tpcc\nINSERT INTO public.tc_vars VALUES (:warehouses, :scale, :c_id, :ol_i_id, :c_last, :c_last_load);',
                                           transactions => 1, clients => 1, progress => '0');
SELECT v.warehouses, v.scale, v.c_id = (d.options->>'c_id')::int AS c_id_load,
       v.ol_i_id = (d.options->>'ol_i_id')::int AS ol_i_id_load,
       v.c_last_load = (d.options->>'c_last')::int AS c_last_load,
       abs(v.c_last - v.c_last_load) BETWEEN 65 AND 119 AND abs(v.c_last - v.c_last_load) NOT IN (96, 112) AS c_last_delta,
       v.c_last BETWEEN 0 AND 255 AS c_last_range
  FROM public.tc_vars v, bench.datasets d
 WHERE d.schema_name = 'tc' AND d.status = 'ready';
-- tables go-tpc prepared (no record): its warehouses counted, the constants the run's own
CREATE SCHEMA tc_gotpc;
CREATE TABLE tc_gotpc.warehouse (w_id int);
INSERT INTO tc_gotpc.warehouse SELECT generate_series(1, 3);
SET search_path = tc_gotpc, public;
TRUNCATE public.tc_vars;
SELECT status, transactions FROM bench.run(script => E'\\dataset tpcc\nINSERT INTO public.tc_vars VALUES (:warehouses, :scale, :c_id, :ol_i_id, :c_last, :c_last_load);',
                                           transactions => 1, clients => 1, progress => '0');
SELECT warehouses, scale, c_id BETWEEN 0 AND 1023 AS c_id, ol_i_id BETWEEN 0 AND 8191 AS ol_i_id,
       c_last BETWEEN 0 AND 255 AS c_last, c_last_load FROM public.tc_vars;
TRUNCATE tc_gotpc.warehouse;
SELECT bench.run(script => E'\\dataset tpcc\nSELECT 1;', transactions => 1);
DROP SCHEMA tc_gotpc CASCADE;
SET search_path = tc, public;

-- bad input: nothing is written
SELECT count(*) AS datasets_before FROM bench.datasets \gset
SELECT bench.init('tpcc', warehouses => 0);
SELECT bench.init('tpcc', warehouses => -1);
SELECT bench.init('tpcc', warehouses => NULL);
SELECT bench.init('tpcc');
SET client_min_messages = notice;
DO $$
BEGIN
  PERFORM bench.init('tpcc', warehouses => 100000);
EXCEPTION WHEN disk_full THEN
  RAISE NOTICE 'refused with %: %', SQLSTATE, regexp_replace(SQLERRM, '[0-9]+ MB', 'N MB', 'g');
END $$;
SET client_min_messages = warning;
SELECT bench.init('tpcc', warehouses => 100001);
SELECT bench.init('tpcc', warehouses => 1, scale => 5);
SELECT bench.init('tpcc', warehouses => 1, tables => 2);
SELECT bench.init('tpcc', warehouses => 1, table_size => 2);
SELECT bench.init('tpcc', warehouses => 1, unlogged => true);
SELECT bench.init('sysbench', warehouses => 1);
SELECT bench.init('tpcb', warehouses => 1);
SELECT bench.init('ibench', warehouses => 1);
SELECT bench.init('tpcc', warehouses => 1, generate => 'server', target => 'no_such_target');
SELECT count(*) = :datasets_before AS nothing_recorded FROM bench.datasets;
-- a table of that name it did not make is refused, not dropped
CREATE SCHEMA tc_user;
CREATE TABLE tc_user.item (i_id int);
SET search_path = tc_user, public;
SELECT bench.init('tpcc', warehouses => 1, force => true);
SELECT count(*) AS still_there FROM tc_user.item;

RESET search_path;
DROP SCHEMA tc CASCADE;
DROP SCHEMA tc_user CASCADE;
DROP TABLE public.tc_vars;
DELETE FROM bench.runs WHERE id > :runs_before;
DELETE FROM bench.datasets WHERE schema_name IN ('tc', 'tc_user');
