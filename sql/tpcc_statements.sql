--
-- TPC-C's transactions sent as statements (mode => 'statements': each
-- statement its own round trip, in go-tpc's shapes): the built-in
-- workloads run on bench.init's tpcc dataset of 2 warehouses, with the
-- 'prepared' and 'simple' protocols, their effects checked against the
-- server's rows (new orders against d_next_o_id, orders, new_order,
-- order_line and the stock's counters; payments against history, w_ytd
-- and d_ytd; deliveries against o_carrier_id and new_order), the
-- rollbacks, the mix's shares, the consistency conditions after runs in
-- both modes, a dataset without the functions, and the bad inputs.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbenchkit CASCADE;
\set VERBOSITY default
SELECT coalesce(max(id), 0) AS runs_before FROM bench.runs \gset
CREATE SCHEMA ts;
SET search_path = ts, public;

SELECT workload FROM bench.init('tpcc', warehouses => 2);

-- what the transactions leave in the tables
CREATE FUNCTION pg_temp.tables(OUT next_o_id bigint, OUT orders bigint, OUT new_orders bigint,
    OUT lines bigint, OUT history bigint, OUT w_ytd numeric, OUT d_ytd numeric, OUT carriers bigint,
    OUT delivered_lines bigint, OUT payments bigint, OUT remote_stock bigint, OUT stock_orders bigint,
    OUT deliveries bigint)
LANGUAGE sql AS $$
SELECT (SELECT sum(d_next_o_id) FROM ts.district), (SELECT count(*) FROM ts.orders),
       (SELECT count(*) FROM ts.new_order), (SELECT count(*) FROM ts.order_line),
       (SELECT count(*) FROM ts.history), (SELECT sum(w_ytd) FROM ts.warehouse),
       (SELECT sum(d_ytd) FROM ts.district),
       (SELECT count(*) FROM ts.orders WHERE o_carrier_id IS NOT NULL),
       (SELECT count(*) FROM ts.order_line WHERE ol_delivery_d IS NOT NULL),
       (SELECT sum(c_payment_cnt) FROM ts.customer),
       (SELECT sum(s_remote_cnt) FROM ts.stock), (SELECT sum(s_order_cnt) FROM ts.stock),
       (SELECT sum(c_delivery_cnt) FROM ts.customer)
$$;
CREATE TEMP TABLE t0 AS SELECT * FROM pg_temp.tables();

-- new-order, prepared: 2 clients, 300 each; those committed advanced
-- d_next_o_id and made one order, one new_order and 5 to 15 lines each,
-- of distinct items, each line's stock row (its supplying warehouse's)
-- counted once; about 1% rolled back (an unused item), leaving nothing
SELECT status, transactions, failures FROM bench.run('tpcc-new-order', clients => 2, transactions => 300,
    progress => '0', random_seed => 7, mode => 'statements');
CREATE TEMP TABLE t1 AS SELECT * FROM pg_temp.tables();
SELECT t1.next_o_id - t0.next_o_id AS committed FROM t0, t1 \gset
SELECT :committed BETWEEN 582 AND 599 AS committed_ok,
       t1.orders - t0.orders = :committed AS orders_match,
       t1.new_orders - t0.new_orders = :committed AS new_orders_match,
       t1.lines - t0.lines = (SELECT sum(o_ol_cnt) FROM ts.orders WHERE o_id > 3000) AS lines_match,
       t1.stock_orders - t0.stock_orders = t1.lines - t0.lines AS stock_counted_per_line,
       t1.remote_stock - t0.remote_stock = (SELECT count(*) FROM ts.order_line WHERE ol_o_id > 3000 AND ol_supply_w_id <> ol_w_id)
           AS remote_lines_counted
  FROM t0, t1;
SELECT count(*) = :committed AS every_new_order_has_its_lines,
       bool_and(n = o_ol_cnt AND n BETWEEN 5 AND 15) AS lines_5_to_15,
       bool_and(items = n) AS distinct_items,
       bool_and(o_all_local = CASE WHEN remote = 0 THEN 1 ELSE 0 END) AS all_local_right,
       bool_and(numbers) AS numbered_1_to_n
  FROM (SELECT o.o_ol_cnt, o.o_all_local, count(*) AS n, count(DISTINCT l.ol_i_id) AS items,
               count(*) FILTER (WHERE l.ol_supply_w_id <> l.ol_w_id) AS remote,
               min(l.ol_number) = 1 AND max(l.ol_number) = count(*) AS numbers
          FROM ts.orders o JOIN ts.order_line l ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id
         WHERE o.o_id > 3000 GROUP BY o.o_w_id, o.o_d_id, o.o_id, o.o_ol_cnt, o.o_all_local) x;
-- about 1% of the lines from the other warehouse, and each line's
-- s_dist_NN of its district
SELECT count(*) FILTER (WHERE ol_supply_w_id <> ol_w_id) BETWEEN 1 AND 3 * count(*) / 100 AS about_1pct_remote,
       bool_and(ol_dist_info = (ARRAY[s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07,
                                      s_dist_08, s_dist_09, s_dist_10])[ol_d_id]) AS dist_info_of_the_district,
       bool_and(ol_amount > 0) AS amounts
  FROM ts.order_line JOIN ts.stock ON s_w_id = ol_supply_w_id AND s_i_id = ol_i_id WHERE ol_o_id > 3000;
-- the run counted each rollback as one (the script's ROLLBACK), and the
-- committed new orders as the districts count them
SELECT rs.transactions AS new_order_transactions, rs.rollbacks = 600 - :committed AS rollbacks_exact,
       rs.failures
  FROM bench.run_scripts rs WHERE rs.run_id = (SELECT max(id) FROM bench.runs);
SELECT transaction, mode, committed = :committed AS committed_exact
  FROM bench.tpcc_transactions WHERE run_id = (SELECT max(id) FROM bench.runs);
SELECT mode, new_orders = :committed AS clients_counted, new_orders_server = :committed AS server_counted,
       new_orders_rolled_back = 600 - :committed AS rolled_back_counted,
       nopm > 0 AND tpmc > nopm AND tpm_total = tpmc AS rates
  FROM bench.tpcc_results WHERE run_id = (SELECT max(id) FROM bench.runs);

-- new-order, simple: the same statements written as text
SELECT status, transactions, failures FROM bench.run('tpcc-new-order', clients => 2, transactions => 100,
    progress => '0', random_seed => 8, mode => 'statements', protocol => 'simple');
CREATE TEMP TABLE t1s AS SELECT * FROM pg_temp.tables();
SELECT t1s.next_o_id - t1.next_o_id AS committed_simple FROM t1, t1s \gset
SELECT t1s.orders - t1.orders = :committed_simple AS orders_match,
       t1s.stock_orders - t1.stock_orders = t1s.lines - t1.lines AS stock_counted_per_line,
       rs.rollbacks = 200 - :committed_simple AS rollbacks_exact, rs.failures
  FROM t1, t1s, bench.run_scripts rs WHERE rs.run_id = (SELECT max(id) FROM bench.runs);

-- payment, prepared then simple: each a history row, its amount in w_ytd
-- and d_ytd; about 15% paid to a customer of the other warehouse
SELECT localtimestamp AS payments_from \gset
SELECT status, transactions, failures FROM bench.run('tpcc-payment', clients => 2, transactions => 200,
    progress => '0', random_seed => 7, mode => 'statements');
SELECT status, transactions, failures FROM bench.run('tpcc-payment', clients => 2, transactions => 50,
    progress => '0', random_seed => 9, mode => 'statements', protocol => 'simple');
CREATE TEMP TABLE t2 AS SELECT * FROM pg_temp.tables();
SELECT t2.history - t1s.history AS history_rows, t2.payments - t1s.payments AS customers_paid,
       t2.w_ytd - t1s.w_ytd = (SELECT sum(h_amount) FROM ts.history WHERE h_date >= :'payments_from') AS w_ytd_is_their_sum,
       t2.w_ytd - t1s.w_ytd = t2.d_ytd - t1s.d_ytd AS d_ytd_too
  FROM t1s, t2;
SELECT bool_and(h_amount BETWEEN 1.00 AND 5000.00) AS amounts_in_range,
       count(*) FILTER (WHERE h_c_w_id <> h_w_id) BETWEEN 25 AND 125 AS about_15pct_remote,
       bool_and(length(h_data) = 24) AS h_data_of_the_names
  FROM ts.history WHERE h_date >= :'payments_from';
-- a BC customer's c_data starts with the payment
SELECT count(*) > 0 AS bc_customers_paid, bool_and(c_data LIKE '| %') AS c_data_written, max(length(c_data)) <= 500 AS within_500
  FROM ts.customer WHERE c_credit = 'BC' AND c_payment_cnt > 1;

-- delivery: 5, each the oldest undelivered order of the ten districts of
-- its warehouse, in one transaction
SELECT status, transactions, failures FROM bench.run('tpcc-delivery', clients => 1, transactions => 5,
    progress => '0', random_seed => 7, mode => 'statements');
CREATE TEMP TABLE t3 AS SELECT * FROM pg_temp.tables();
SELECT t2.new_orders - t3.new_orders AS delivered, t3.carriers - t2.carriers AS carriers_set,
       t3.deliveries - t2.deliveries AS customers_delivered,
       t3.delivered_lines - t2.delivered_lines = (SELECT sum(o_ol_cnt) FROM ts.orders o
                                                   WHERE o_carrier_id IS NOT NULL AND o_id > 2100) AS lines_delivered
  FROM t2, t3;

-- order-status and stock-level read, and write nothing
SELECT status, transactions, failures FROM bench.run('tpcc-order-status', clients => 2, transactions => 50,
    progress => '0', random_seed => 7, mode => 'statements');
SELECT status, transactions, failures FROM bench.run('tpcc-stock-level', clients => 2, transactions => 50,
    progress => '0', random_seed => 7, mode => 'statements', protocol => 'simple');
CREATE TEMP TABLE t4 AS SELECT * FROM pg_temp.tables();
SELECT (SELECT row(t3.*)::text FROM t3) = (SELECT row(t4.*)::text FROM t4) AS nothing_written;

-- the mix: 45/43/4/4/4 of 1000 transactions, script by script
SELECT status, transactions, failures FROM bench.run('tpcc', clients => 4, transactions => 250,
    progress => '0', random_seed => 11, mode => 'statements');
SELECT transaction, mode, weight,
       round(100.0 * transactions / sum(transactions) OVER ()) BETWEEN weight - 5 AND weight + 5 AS share_ok
  FROM bench.tpcc_transactions WHERE run_id = (SELECT max(id) FROM bench.runs) ORDER BY weight DESC, 1;
-- and in procedures: the same workload, the dataset's functions
SELECT status, failures FROM bench.run('tpcc', clients => 2, transactions => 100, progress => '0', random_seed => 12);
SELECT DISTINCT mode FROM bench.tpcc_transactions WHERE run_id = (SELECT max(id) FROM bench.runs);
SELECT mode, new_orders = new_orders_server AS counted_alike FROM bench.tpcc_results
 WHERE run_id > :runs_before AND workload IN ('tpcc', 'tpcc-new-order') ORDER BY run_id;
-- the consistency conditions hold after both modes' runs (11 holds only
-- before the first delivery)
SELECT condition, passed, violations FROM bench.tpcc_check() ORDER BY 1;

-- mode flows through sweeps like every run argument, and is recorded
SELECT spec->'args'->'mode' AS mode
  FROM bench._sweep_spec('tpcc', clients => '{1}', repeat => 1, transactions => 1, mode => 'statements') AS spec;
SELECT max(id) AS runs_before_sweep FROM bench.runs \gset
SELECT count(*) AS rows FROM bench.sweep('tpcc-stock-level', clients => '{1,2}', repeat => 1, transactions => 5,
    progress => '0', mode => 'statements');
SELECT clients, status, variables->'statements' AS statements
  FROM bench.runs WHERE id > :runs_before_sweep ORDER BY clients;

-- a dataset without the functions (tables go-tpc prepared): refused in
-- procedures, run in statements
SET search_path = ts;
DROP FUNCTION ts.tpcc_new_order, ts.tpcc_payment, ts.tpcc_order_status, ts.tpcc_delivery, ts.tpcc_stock_level;
SELECT * FROM bench.run('tpcc', transactions => 1);
SELECT status, failures FROM bench.run('tpcc', clients => 2, transactions => 50, progress => '0', mode => 'statements');

-- bad input
SELECT * FROM bench.run('tpcc', transactions => 1, mode => 'batch');
SELECT * FROM bench.run('tpcc', transactions => 1, mode => NULL);
SELECT * FROM bench.run('tpcb', transactions => 1, mode => 'statements');
SELECT * FROM bench.run(script => 'SELECT 1;', transactions => 1, mode => 'statements');
SELECT status FROM bench.run(script => 'SELECT 1;', transactions => 1, mode => 'procedures', progress => '0');

RESET search_path;
DROP SCHEMA ts CASCADE;
DELETE FROM bench.runs WHERE id > :runs_before;
DELETE FROM bench.datasets WHERE schema_name = 'ts';
