--
-- bench.tpcc_check: TPC-C's consistency conditions 1 to 12 (clause 3.3.2)
-- on a dataset bench.init made, each one broken on purpose in a
-- transaction rolled back afterwards, on a copy in a schema another tool
-- would have made (no keys, a name to quote), and its bad input.
--
SET client_min_messages = warning;
SELECT dataset_id > 0 AS loaded FROM bench.init('tpcc', warehouses => 1);
RESET client_min_messages;

-- the counts each condition checks, as the server counts its rows
CREATE TEMP VIEW expected_checked (condition, checked) AS
VALUES (1, (SELECT count(*) FROM warehouse)), (2, (SELECT count(*) FROM district)),
       (3, (SELECT count(DISTINCT (no_w_id, no_d_id)) FROM new_order)), (4, (SELECT count(*) FROM district)),
       (5, (SELECT count(*) FROM orders)), (6, (SELECT count(*) FROM orders)),
       (7, (SELECT count(*) FROM order_line)), (8, (SELECT count(*) FROM warehouse)),
       (9, (SELECT count(*) FROM district)), (10, (SELECT count(*) FROM customer)),
       (11, (SELECT count(*) FROM district d WHERE NOT EXISTS (SELECT FROM customer c
                WHERE (c.c_w_id, c.c_d_id) = (d.d_w_id, d.d_id) AND c.c_delivery_cnt > 0))),
       (12, (SELECT count(*) FROM customer));

-- after the load: all twelve hold, each over the rows the server has (7's
-- order lines are 5 to 15 per order, at random)
SELECT t.condition, t.passed, CASE WHEN t.condition <> 7 THEN t.checked END AS checked,
       t.checked = e.checked AS counted_right, t.violations, t.note
  FROM bench.tpcc_check() t JOIN expected_checked e USING (condition) ORDER BY 1;
SELECT count(*) AS rows, count(DISTINCT description) AS described FROM bench.tpcc_check();

-- the condition rows that fail after a change
CREATE FUNCTION pg_temp.failing(OUT condition integer, OUT violations bigint, OUT checked_right boolean)
RETURNS SETOF record LANGUAGE sql AS $$
    SELECT t.condition, t.violations, t.checked = e.checked
      FROM bench.tpcc_check() t JOIN expected_checked e USING (condition)
     WHERE t.passed IS NOT TRUE ORDER BY 1
$$;

-- 1 and 8: a warehouse's W_YTD off by a cent
BEGIN;
UPDATE warehouse SET w_ytd = w_ytd + 0.01;
SELECT * FROM pg_temp.failing();
ROLLBACK;

-- 1 and 9: a district's D_YTD
BEGIN;
UPDATE district SET d_ytd = d_ytd - 1 WHERE d_id = 3;
SELECT * FROM pg_temp.failing();
ROLLBACK;

-- 2: a district's D_NEXT_O_ID
BEGIN;
UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_id IN (4, 7);
SELECT * FROM pg_temp.failing();
ROLLBACK;

-- 2, 5 and 11: the newest new order of district 1 gone (its order stays
-- undelivered)
BEGIN;
DELETE FROM new_order WHERE no_d_id = 1 AND no_o_id = (SELECT max(no_o_id) FROM new_order WHERE no_d_id = 1);
SELECT * FROM pg_temp.failing();
ROLLBACK;

-- 3, 5 and 11: a new order in the middle of district 2's gone
BEGIN;
DELETE FROM new_order WHERE no_d_id = 2 AND no_o_id = 2500;
SELECT * FROM pg_temp.failing();
ROLLBACK;

-- 4 and 6: a line of an undelivered order gone
BEGIN;
DELETE FROM order_line WHERE ol_d_id = 5 AND ol_o_id = 2200 AND ol_number = 1;
SELECT * FROM pg_temp.failing();
ROLLBACK;

-- 6: an order that says one line more than it has
BEGIN;
UPDATE orders SET o_ol_cnt = o_ol_cnt + 1 WHERE o_d_id = 6 AND o_id = 10;
SELECT * FROM pg_temp.failing();
ROLLBACK;

-- 5 and 7: an undelivered order with a carrier (each of its lines fails 7)
BEGIN;
UPDATE orders SET o_carrier_id = 1 WHERE o_d_id = 8 AND o_id = 2800;
SELECT condition, CASE WHEN condition <> 7 THEN violations END AS violations, checked_right FROM pg_temp.failing();
SELECT (SELECT o_ol_cnt FROM orders WHERE o_d_id = 8 AND o_id = 2800) =
       (SELECT violations FROM bench.tpcc_check() WHERE condition = 7) AS each_line_counted;
ROLLBACK;

-- 7, 10 and 12: a line of an undelivered order delivered (its amount now
-- counts for the customer, who was not charged)
BEGIN;
UPDATE order_line SET ol_delivery_d = now(), ol_amount = 12.34
 WHERE ol_d_id = 9 AND ol_o_id = 2900 AND ol_number = 1;
SELECT * FROM pg_temp.failing();
ROLLBACK;

-- 10 and 12: a customer's balance; 12 alone: its year-to-date payment
BEGIN;
UPDATE customer SET c_balance = c_balance + 1 WHERE c_d_id = 10 AND c_id IN (1, 2, 3);
SELECT * FROM pg_temp.failing();
ROLLBACK;
BEGIN;
UPDATE customer SET c_ytd_payment = c_ytd_payment + 1 WHERE c_d_id = 10 AND c_id = 4;
SELECT * FROM pg_temp.failing();
ROLLBACK;

-- 8, 9 and 10: a history row nobody paid
BEGIN;
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
VALUES (7, 2, 1, 2, 1, now(), 5.00, 'not paid');
SELECT * FROM pg_temp.failing();
ROLLBACK;

-- a payment and a delivery as the specification makes them (clauses 2.5.2.2
-- and 2.7.4.2) keep every condition; 11 then leaves out the district that
-- had a delivery, and says so
BEGIN;
UPDATE warehouse SET w_ytd = w_ytd + 42.50 WHERE w_id = 1;
UPDATE district SET d_ytd = d_ytd + 42.50 WHERE d_w_id = 1 AND d_id = 4;
UPDATE customer SET c_balance = c_balance - 42.50, c_ytd_payment = c_ytd_payment + 42.50,
       c_payment_cnt = c_payment_cnt + 1
 WHERE c_w_id = 1 AND c_d_id = 4 AND c_id = 99;
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
VALUES (99, 4, 1, 4, 1, now(), 42.50, 'payment');
WITH oldest AS (
    DELETE FROM new_order WHERE (no_w_id, no_d_id, no_o_id) =
        (SELECT 1, 3, min(no_o_id) FROM new_order WHERE no_w_id = 1 AND no_d_id = 3)
    RETURNING no_w_id, no_d_id, no_o_id
), carried AS (
    UPDATE orders o SET o_carrier_id = 7 FROM oldest
     WHERE (o.o_w_id, o.o_d_id, o.o_id) = (oldest.no_w_id, oldest.no_d_id, oldest.no_o_id)
    RETURNING o.o_w_id, o.o_d_id, o.o_id, o.o_c_id
), delivered AS (
    UPDATE order_line l SET ol_delivery_d = now() FROM carried
     WHERE (l.ol_w_id, l.ol_d_id, l.ol_o_id) = (carried.o_w_id, carried.o_d_id, carried.o_id)
    RETURNING l.ol_amount
)
UPDATE customer c SET c_balance = c_balance + (SELECT sum(ol_amount) FROM delivered),
       c_delivery_cnt = c_delivery_cnt + 1
  FROM carried WHERE (c.c_w_id, c.c_d_id, c.c_id) = (carried.o_w_id, carried.o_d_id, carried.o_c_id);
SELECT t.condition, t.passed, t.checked = e.checked AS counted_right, t.violations, t.note
  FROM bench.tpcc_check() t JOIN expected_checked e USING (condition) WHERE t.condition IN (2, 3, 5, 10, 11, 12) ORDER BY 1;
SELECT count(*) FILTER (WHERE passed) AS passed FROM bench.tpcc_check();
-- and after a delivery in every district, 11 applies nowhere: neither
-- passed nor failed
UPDATE customer SET c_delivery_cnt = c_delivery_cnt + 1 WHERE c_id = 1;
SELECT condition, passed, checked, violations, note FROM bench.tpcc_check() WHERE condition = 11;
ROLLBACK;

-- another tool's tables, without keys, in a schema whose name needs quotes
CREATE SCHEMA "Other Tool";
CREATE TABLE "Other Tool".warehouse AS SELECT * FROM warehouse;
CREATE TABLE "Other Tool".district AS SELECT * FROM district;
CREATE TABLE "Other Tool".customer AS SELECT * FROM customer;
CREATE TABLE "Other Tool".history AS SELECT * FROM history;
CREATE TABLE "Other Tool".new_order AS SELECT * FROM new_order;
CREATE TABLE "Other Tool".orders AS SELECT * FROM orders;
CREATE TABLE "Other Tool".order_line AS SELECT * FROM order_line;
SELECT count(*) FILTER (WHERE passed) AS passed FROM bench.tpcc_check(schema => 'Other Tool');
DELETE FROM "Other Tool".order_line WHERE ol_d_id = 1 AND ol_o_id = 1;
SELECT condition, violations FROM bench.tpcc_check(schema => 'Other Tool') WHERE NOT passed ORDER BY 1;
-- the search_path's first warehouse is the one checked; NULLs are the defaults
SET search_path = "Other Tool", public;
SELECT condition, violations FROM bench.tpcc_check(NULL, NULL) WHERE NOT passed ORDER BY 1;
RESET search_path;
SELECT count(*) FILTER (WHERE passed) AS passed FROM bench.tpcc_check(NULL, 'public');
-- empty tables: nothing to check, neither passed nor failed
TRUNCATE "Other Tool".warehouse, "Other Tool".district, "Other Tool".customer, "Other Tool".history,
         "Other Tool".new_order, "Other Tool".orders, "Other Tool".order_line;
SELECT condition, passed, checked, violations, note FROM bench.tpcc_check(schema => 'Other Tool') ORDER BY 1;
-- a missing table
DROP TABLE "Other Tool".history, "Other Tool".orders;
CREATE FUNCTION pg_temp.err(sql text, OUT state text, OUT message text, OUT detail text, OUT hint text)
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE sql;
    state := 'none';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT,
                            detail = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
END
$$;
\x on
SELECT * FROM pg_temp.err($$SELECT * FROM bench.tpcc_check(schema => 'Other Tool')$$);
SET client_min_messages = warning;
DROP SCHEMA "Other Tool" CASCADE;
RESET client_min_messages;

-- bad input
SELECT * FROM pg_temp.err($$SELECT * FROM bench.tpcc_check(schema => 'no_such_schema')$$);
SELECT * FROM pg_temp.err($$SELECT * FROM bench.tpcc_check(schema => 'bench')$$);
SET search_path = pg_catalog;
SELECT * FROM pg_temp.err($$SELECT * FROM bench.tpcc_check()$$);
RESET search_path;
SELECT * FROM pg_temp.err($$SELECT * FROM bench.tpcc_check(target => 'no_such_target')$$);
-- a role that may not read the tables gets the server's own error
CREATE ROLE bench_tpcc_checker;
GRANT EXECUTE ON FUNCTION bench.tpcc_check(text, text) TO bench_tpcc_checker;
SET ROLE bench_tpcc_checker;
SELECT * FROM pg_temp.err($$SELECT * FROM bench.tpcc_check()$$);
RESET ROLE;
\x off
DROP OWNED BY bench_tpcc_checker;
DROP ROLE bench_tpcc_checker;
SELECT has_function_privilege('public', 'bench.tpcc_check(text, text)', 'EXECUTE') AS public_may_execute;
