--
-- TPC-C's transactions sent as procedures: the built-in workloads (tpcc
-- and each transaction alone) run on bench.init's tpcc dataset, their
-- effects checked against the server's rows (new orders against
-- d_next_o_id, orders, new_order and order_line; payments against history
-- and the warehouse's w_ytd; deliveries against o_carrier_id), the
-- rollbacks, the mix's shares, warehouse_choice, keying_and_thinking's
-- limit, a user's mix, and every bad input.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbenchkit CASCADE;
\set VERBOSITY default
SELECT coalesce(max(id), 0) AS runs_before FROM bench.runs \gset
CREATE SCHEMA tc;
SET search_path = tc, public;

SELECT workload FROM bench.init('tpcc', warehouses => 1);
-- the five transactions' functions, made with the tables
SELECT p.proname, pg_get_function_identity_arguments(p.oid) AS arguments
  FROM pg_proc p WHERE p.pronamespace = 'tc'::regnamespace AND p.proname LIKE 'tpcc%' ORDER BY 1;

-- what the transactions leave in the tables
CREATE FUNCTION pg_temp.tables(OUT next_o_id bigint, OUT orders bigint, OUT new_orders bigint,
    OUT lines bigint, OUT history bigint, OUT w_ytd numeric, OUT d_ytd numeric, OUT carriers bigint,
    OUT delivered_lines bigint, OUT payments bigint)
LANGUAGE sql AS $$
SELECT (SELECT sum(d_next_o_id) FROM tc.district), (SELECT count(*) FROM tc.orders),
       (SELECT count(*) FROM tc.new_order), (SELECT count(*) FROM tc.order_line),
       (SELECT count(*) FROM tc.history), (SELECT sum(w_ytd) FROM tc.warehouse),
       (SELECT sum(d_ytd) FROM tc.district),
       (SELECT count(*) FROM tc.orders WHERE o_carrier_id IS NOT NULL),
       (SELECT count(*) FROM tc.order_line WHERE ol_delivery_d IS NOT NULL),
       (SELECT sum(c_payment_cnt) FROM tc.customer)
$$;
CREATE TEMP TABLE t0 AS SELECT * FROM pg_temp.tables();

-- new-order: 2 clients, 300 each; those committed advanced d_next_o_id and
-- made one order, one new_order and 5 to 15 lines each; about 1% rolled
-- back (an unused item), leaving nothing
SELECT status, transactions, failures FROM bench.run('tpcc-new-order', clients => 2, transactions => 300,
    progress => '0', random_seed => 7);
CREATE TEMP TABLE t1 AS SELECT * FROM pg_temp.tables();
SELECT t1.next_o_id - t0.next_o_id AS committed,
       600 - (t1.next_o_id - t0.next_o_id) BETWEEN 1 AND 18 AS about_1pct_rolled_back,
       t1.orders - t0.orders = t1.next_o_id - t0.next_o_id AS orders_match,
       t1.new_orders - t0.new_orders = t1.next_o_id - t0.next_o_id AS new_orders_match
  FROM t0, t1 \gset
SELECT :committed BETWEEN 582 AND 599 AS committed_ok, :'about_1pct_rolled_back' AS about_1pct_rolled_back,
       :'orders_match' AS orders_match, :'new_orders_match' AS new_orders_match;
SELECT count(*) = :committed AS every_new_order_has_its_lines,
       bool_and(n = o_ol_cnt AND n BETWEEN 5 AND 15) AS lines_5_to_15,
       bool_and(o_all_local = 1) AS all_local
  FROM (SELECT o.o_ol_cnt, o.o_all_local, count(*) AS n
          FROM tc.orders o JOIN tc.order_line l ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id
         WHERE o.o_id > 3000 GROUP BY o.o_w_id, o.o_d_id, o.o_id, o.o_ol_cnt, o.o_all_local) x;
SELECT t1.lines - t0.lines = (SELECT sum(o_ol_cnt) FROM tc.orders WHERE o_id > 3000) AS lines_match FROM t0, t1;
-- the run counted each rollback as one, and the committed new orders as
-- the districts count them: NOPM's two readings agree to the order
SELECT rs.transactions AS new_order_transactions, rs.rollbacks = 600 - :committed AS rollbacks_exact,
       rs.failures
  FROM bench.run_scripts rs WHERE rs.run_id = (SELECT max(id) FROM bench.runs);
SELECT transaction, mode, committed = :committed AS committed_exact
  FROM bench.tpcc_transactions WHERE run_id = (SELECT max(id) FROM bench.runs);
SELECT new_orders = :committed AS clients_counted, new_orders_server = :committed AS server_counted,
       new_orders_rolled_back = 600 - :committed AS rolled_back_counted,
       nopm > 0 AND tpmc > nopm AND tpm_total = tpmc AS rates, tpm > 0 AS tpm
  FROM bench.tpcc_results WHERE run_id = (SELECT max(id) FROM bench.runs);
-- the function returns the order, or raises TPC01 for an unused item
SELECT o_id IS NOT NULL AS ordered, total > 0 AS total FROM tc.tpcc_new_order(1, 1, 1, 5, false, 1, 0, 1);
\set VERBOSITY sqlstate
SELECT o_id, total FROM tc.tpcc_new_order(1, 1, 1, 5, true, 1, 0, 1);
\set VERBOSITY default
SELECT sum(d_next_o_id) - :committed - 1 = (SELECT next_o_id FROM t0) AS rollback_left_nothing FROM tc.district;

-- payment: 400, each a history row, its amount in w_ytd and d_ytd
SELECT localtimestamp AS payments_from \gset
SELECT status, transactions, failures FROM bench.run('tpcc-payment', clients => 2, transactions => 200,
    progress => '0', random_seed => 7);
SELECT max(id) AS runs_payment FROM bench.runs \gset
CREATE TEMP TABLE t2 AS SELECT * FROM pg_temp.tables();
SELECT t2.history - t1.history AS history_rows, t2.payments - t1.payments AS customers_paid,
       t2.w_ytd - t1.w_ytd = (SELECT sum(h_amount) FROM tc.history WHERE h_date >= :'payments_from') AS w_ytd_is_their_sum,
       t2.w_ytd - t1.w_ytd = t2.d_ytd - t1.d_ytd AS d_ytd_too,
       (SELECT bool_and(h_amount BETWEEN 1.00 AND 5000.00) FROM tc.history WHERE h_date >= :'payments_from') AS amounts_in_range
  FROM t1, t2;

-- delivery: 5, each the oldest undelivered order of the ten districts
SELECT status, transactions, failures FROM bench.run('tpcc-delivery', clients => 1, transactions => 5,
    progress => '0', random_seed => 7);
SELECT max(id) AS runs_delivery FROM bench.runs \gset
CREATE TEMP TABLE t3 AS SELECT * FROM pg_temp.tables();
SELECT t2.new_orders - t3.new_orders AS delivered, t3.carriers - t2.carriers AS carriers_set,
       t3.delivered_lines > t2.delivered_lines AS lines_delivered
  FROM t2, t3;

-- order-status and stock-level read, and write nothing
SELECT status, transactions, failures FROM bench.run('tpcc-order-status', clients => 2, transactions => 50,
    progress => '0', random_seed => 7);
SELECT status, transactions, failures FROM bench.run('tpcc-stock-level', clients => 2, transactions => 50,
    progress => '0', random_seed => 7);
CREATE TEMP TABLE t4 AS SELECT * FROM pg_temp.tables();
SELECT (SELECT row(t3.*)::text FROM t3) = (SELECT row(t4.*)::text FROM t4) AS nothing_written;
SELECT c.customer IS NOT NULL AS found, c.o_id IS NOT NULL AS has_an_order, c.lines BETWEEN 5 AND 15 AS lines
  FROM tc.tpcc_order_status(1, 1, 0, 0, true) c;
SELECT low_stock >= 0 AS counted FROM tc.tpcc_stock_level(1, 1, 20);
-- a delivery called alone: the ten districts
SELECT * FROM tc.tpcc_delivery(1, 3);

-- the mix: 45/43/4/4/4 of 1000 transactions, script by script
SELECT status, transactions, failures FROM bench.run('tpcc', clients => 4, transactions => 250,
    progress => '0', random_seed => 11);
SELECT substring(script FROM 'TPC-C ([a-z-]+)>') AS transaction, weight,
       round(100.0 * transactions / sum(transactions) OVER ()) BETWEEN weight - 5 AND weight + 5 AS share_ok
  FROM bench.run_scripts WHERE run_id = (SELECT max(id) FROM bench.runs) ORDER BY weight DESC, 1;

-- NOPM and TPM beside tps where runs are compared: bench.compare's metrics,
-- relative throughput, its table and its chart (metric => 'nopm')
SELECT max(id) AS mix_a FROM bench.runs \gset
SELECT status FROM bench.run('tpcc', clients => 4, transactions => 250, progress => '0', random_seed => 12);
SELECT max(id) AS mix_b FROM bench.runs \gset
SELECT c.metric, c.a_value = round(t.a::numeric, GREATEST(1, 3 - floor(log(t.a::numeric))::integer))::text AS a_is_results,
       c.b_value = round(t.b::numeric, GREATEST(1, 3 - floor(log(t.b::numeric))::integer))::text AS b_is_results,
       abs(c.ratio - t.b / t.a) < 1e-9 AS ratio
  FROM bench.compare(:mix_a, :mix_b) c
  JOIN (SELECT 'nopm' AS metric, a.nopm::float8 AS a, b.nopm::float8 AS b
          FROM bench.tpcc_results a, bench.tpcc_results b WHERE a.run_id = :mix_a AND b.run_id = :mix_b
        UNION ALL
        SELECT 'tpm', a.tpm, b.tpm
          FROM bench.tpcc_results a, bench.tpcc_results b WHERE a.run_id = :mix_a AND b.run_id = :mix_b) t
    ON t.metric = c.metric
 WHERE c.section = 'metric' ORDER BY c.metric;
SELECT array_agg(metric ORDER BY metric) FILTER (WHERE metric IN ('nopm', 'tpm')) AS tpcc_metrics
  FROM bench.compare(:mix_a, :mix_b) WHERE section = 'metric';
SELECT t.id = :mix_b AS other, t.nopm = r.nopm AS nopm, t.base_nopm = b.nopm AS base_nopm,
       abs(t.relative_nopm - r.nopm / b.nopm) < 1e-9 AS relative_nopm
  FROM bench.relative_throughput(:mix_a, ARRAY[:mix_b]) t
  JOIN bench.tpcc_results r ON r.run_id = t.id
  JOIN bench.tpcc_results b ON b.run_id = :mix_a
 ORDER BY t.id;
SELECT split_part(rtrim(line, ' |'), ' | ', 3) = to_char((SELECT relative_nopm FROM bench.relative_throughput(:mix_a, ARRAY[:mix_b])
                                                          WHERE id = :mix_b), 'FM990.00') AS nopm_cell
  FROM bench.relative_table(:mix_a, ARRAY[:mix_b], metric => 'nopm') WITH ORDINALITY AS l(line, n) WHERE n = 4;
SELECT svg LIKE '%NOPM relative to run%' AS titled, svg LIKE '%new orders per minute divided by the base%' AS explained,
       (regexp_match(svg, '<title>[^<]*: ([0-9.]+)</title>'))[1] = '1.00' AS base_bar
  FROM bench.chart_relative(:mix_a, ARRAY[:mix_b], metric => 'nopm') AS svg;
-- runs without new orders have no NOPM (TPM they have: the database's
-- commits), and cannot be the base of NOPM read against it
SET client_min_messages = error;
\set SHOW_CONTEXT never
SELECT count(*) FILTER (WHERE metric IN ('nopm', 'tpm')) AS tpcc_rows,
       count(*) FILTER (WHERE metric = 'tps') AS tps_rows
  FROM bench.compare(:runs_payment, :runs_delivery) WHERE section = 'metric';
SELECT nopm > 0 AS nopm, base_nopm, relative_nopm, relative > 0 AS tps_relative
  FROM bench.relative_throughput(:runs_payment, ARRAY[:mix_a]) WHERE id = :mix_a;
SELECT * FROM bench.relative_table(:runs_payment, ARRAY[:mix_a], metric => 'nopm');
SELECT bench.chart_relative(:runs_payment, ARRAY[:mix_a], metric => 'nopm');
SELECT * FROM bench.relative_table(:mix_a, ARRAY[:mix_b], metric => 'tpmc');
SELECT bench.chart_relative(:mix_a, ARRAY[:mix_b], metric => NULL);
-- the ids are checked first, with relative throughput's errors
SELECT * FROM bench.relative_table(:mix_a, ARRAY[999999999], metric => 'nopm');
SET client_min_messages = warning;
\set SHOW_CONTEXT errors

-- the terminals' warehouses and stock-level districts: home (client i:
-- warehouse i mod W + 1, district (i / W) mod 10 + 1) or random
CREATE TABLE tc.seen (client integer, w integer, d integer);
SELECT status FROM bench.run(script => bench.tpcc_script('stock_level') || 'INSERT INTO tc.seen VALUES (:client_id, :w_id, :d_id);',
    clients => 4, transactions => 20, progress => '0', random_seed => 3, variables => '{"warehouses": 3}');
SELECT client, min(w) AS w, max(w) = min(w) AS one_w, min(d) AS d, max(d) = min(d) AS one_d, count(*)
  FROM tc.seen GROUP BY client ORDER BY client;
TRUNCATE tc.seen;
SELECT status FROM bench.run(script => bench.tpcc_script('stock_level') || 'INSERT INTO tc.seen VALUES (:client_id, :w_id, :d_id);',
    clients => 4, transactions => 20, progress => '0', random_seed => 3, variables => '{"warehouses": 3}',
    warehouse_choice => 'random');
SELECT count(DISTINCT w) AS warehouses, count(DISTINCT d) > 3 AS districts, bool_and(w BETWEEN 1 AND 3) AS in_range,
       count(*) FILTER (WHERE client IN (SELECT client FROM tc.seen GROUP BY client HAVING count(DISTINCT w) > 1)) > 0 AS clients_move
  FROM tc.seen;
DROP TABLE tc.seen;

-- a user's mix
SELECT name, dataset, weights, description, cardinality(scripts) AS scripts
  FROM bench.tpcc_workload('tpcc-half', '{"new_order": 50, "payment": 50, "delivery": 0}');
SELECT status, failures FROM bench.run('tpcc-half', clients => 2, transactions => 20, progress => '0');
SELECT bench.drop_workload('tpcc-half');

-- the arguments flow through sweeps like every run argument
SELECT spec->'args'->'warehouse_choice' AS warehouse_choice, spec->'args'->'keying_and_thinking' AS keying_and_thinking
  FROM bench._sweep_spec('tpcc', clients => '{1}', repeat => 1, transactions => 1, warehouse_choice => 'random') AS spec;

SELECT max(id) AS runs_before_sweep FROM bench.runs \gset
SELECT count(*) AS rows FROM bench.sweep('tpcc-stock-level', clients => '{1,2}', repeat => 1, transactions => 5,
    progress => '0', warehouse_choice => 'random');
SELECT clients, status, variables->'random_warehouse' AS random_warehouse, variables->'keying_and_thinking' AS keying
  FROM bench.runs WHERE id > :runs_before_sweep ORDER BY clients;
SELECT max(id) AS sweep_stock_level FROM bench.suites \gset
-- suites read against each other by NOPM: each step's median over its runs
SELECT count(*) AS rows FROM bench.sweep('tpcc-new-order', clients => '{1,2}', repeat => 1, transactions => 10,
    progress => '0');
SELECT max(id) AS sweep_a FROM bench.suites \gset
SELECT count(*) AS rows FROM bench.sweep('tpcc-new-order', clients => '{1,2}', repeat => 1, transactions => 10,
    progress => '0');
SELECT max(id) AS sweep_b FROM bench.suites \gset
SELECT t.id = :sweep_b AS other, t.step, t.nopm = r.nopm AS nopm, t.base_nopm = b.nopm AS base_nopm,
       abs(t.relative_nopm - r.nopm / b.nopm) < 1e-9 AS relative_nopm
  FROM bench.relative_throughput(:sweep_a, ARRAY[:sweep_b]) t
  JOIN bench.runs rr ON rr.suite_id = t.id AND t.step = rr.clients || CASE WHEN rr.clients = 1 THEN ' client' ELSE ' clients' END
  JOIN bench.tpcc_results r ON r.run_id = rr.id
  JOIN bench.runs br ON br.suite_id = :sweep_a AND br.clients = rr.clients
  JOIN bench.tpcc_results b ON b.run_id = br.id
 ORDER BY t.id, t.step_no;
-- a suite's chart of NOPM: bench.suite_summary's medians by client count
SELECT m.clients, m.nopm_median = r.nopm AS median_is_the_run, m.nopm_min = m.nopm_max AS one_run
  FROM bench.suite_summary m
  JOIN bench.runs rr ON rr.suite_id = m.suite_id AND rr.clients = m.clients
  JOIN bench.tpcc_results r ON r.run_id = rr.id
 WHERE m.suite_id = :sweep_a ORDER BY m.clients;
SELECT svg LIKE '%suite ' || :sweep_a || ': NOPM and p99 latency by client count%' AS titled,
       svg LIKE '%NOPM (new orders per minute)%' AS axis,
       (SELECT count(*) FROM regexp_matches(svg, '<circle class="tps-median"', 'g')) AS nopm_points,
       ((regexp_match(svg, '<polyline class="tps" [^>]*points="[0-9.]+,([0-9.]+) ([0-9.]+),([0-9.]+)"'))[1]::float8
        > (regexp_match(svg, '<polyline class="tps" [^>]*points="[0-9.]+,([0-9.]+) ([0-9.]+),([0-9.]+)"'))[3]::float8)
       = ((SELECT nopm_median FROM bench.suite_summary WHERE suite_id = :sweep_a AND clients = 2)
          > (SELECT nopm_median FROM bench.suite_summary WHERE suite_id = :sweep_a AND clients = 1)) AS drawn_as_read
  FROM bench.chart_suite(:sweep_a, metric => 'nopm') AS svg;
\set SHOW_CONTEXT never
SELECT bench.chart_suite(:sweep_stock_level, metric => 'nopm');
SELECT bench.chart_suite(:sweep_a, metric => 'tpmC');
SELECT bench.chart_suite(:sweep_a, metric => NULL);
\set SHOW_CONTEXT errors

-- bad input
SELECT * FROM bench.run('tpcc', clients => 11, transactions => 1, keying_and_thinking => true);
SELECT * FROM bench.run('tpcc', transactions => 1, warehouse_choice => 'nearest');
SELECT * FROM bench.run('tpcc', transactions => 1, warehouse_choice => NULL);
SELECT * FROM bench.run(script => 'SELECT 1;', transactions => 1, warehouse_choice => 'random');
SELECT * FROM bench.run(script => 'SELECT 1;', transactions => 1, keying_and_thinking => true);
SELECT * FROM bench.tpcc_workload('bad', '{"new_order": 50, "neworder": 50}');
SELECT * FROM bench.tpcc_workload('bad', '{"new_order": 0}');
SELECT * FROM bench.tpcc_workload('bad', '{"new_order": 1.5}');
SELECT * FROM bench.tpcc_workload('bad', '[1]');
SELECT bench.tpcc_script(NULL);
SELECT bench.tpcc_script('neworder');
SELECT bench.tpcc_functions(NULL);
SELECT bench.tpcc_functions('');
SELECT bench.tpcc_functions('tc', 130000);
SELECT cardinality(bench.tpcc_functions('tc', 140000)) AS statements,
       bool_and(s LIKE 'CREATE OR REPLACE FUNCTION tc.tpcc_%') AS in_schema
  FROM unnest(bench.tpcc_functions('tc')) AS s;
-- a dataset without the functions (tables another tool loaded): refused
-- before the run starts, saying how to make them
ALTER FUNCTION tc.tpcc_delivery(integer, integer) RENAME TO tpcc_delivery_gone;
SET search_path = tc;
SELECT * FROM bench.run('tpcc', transactions => 1);
SELECT status FROM bench.run('tpcc-payment', transactions => 1, progress => '0');
-- a function of that name found first elsewhere would work on another
-- schema's tables: refused too
CREATE SCHEMA tc_other;
CREATE FUNCTION tc_other.tpcc_delivery(w_id integer, carrier_id integer) RETURNS integer
    LANGUAGE sql AS 'SELECT 0';
SET search_path = tc_other, tc;
SELECT * FROM bench.run('tpcc-delivery', transactions => 1);
DROP SCHEMA tc_other CASCADE;
SET search_path = tc, public;
DROP FUNCTION tc.tpcc_delivery_gone(integer, integer);
DO $$ DECLARE s text; BEGIN FOREACH s IN ARRAY bench.tpcc_functions('tc') LOOP EXECUTE s; END LOOP; END $$;
SELECT status FROM bench.run('tpcc-delivery', transactions => 1, progress => '0');

RESET search_path;
DROP SCHEMA tc CASCADE;
DELETE FROM bench.runs WHERE id > :runs_before;
DELETE FROM bench.datasets WHERE schema_name = 'tc';
