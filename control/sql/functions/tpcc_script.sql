--
-- bench.tpcc_script: the script of one of TPC-C's five transactions
-- (v5.11, clauses 2.4 to 2.8) in the kit's script language: one execution
-- is one transaction of one terminal.
--
-- The script draws what the clause's "input data generation" has the
-- terminal draw, so that a run's seed repeats a run's inputs: the
-- warehouse (the client's home warehouse, :client_id % :warehouses + 1, as
-- the specification binds terminals, or one drawn per transaction when the
-- run has warehouse_choice => 'random': :random_warehouse), the district,
-- the customer by NURand(1023, 1, 3000) with the run's :c_id or by last
-- name NURand(255, 0, 999) with :c_last, amounts, the carrier, the
-- threshold.  New-order's lines are drawn by the function from a seed the
-- script draws (procedures), or by the script (statements): items by
-- NURand(8191, 1, 100000) with :ol_i_id.  :warehouses, :c_id, :ol_i_id
-- and :c_last are set by bench.run from the tpcc dataset;
-- :random_warehouse, :keying_and_thinking and :statements from its
-- arguments.
--
-- Each script holds both ways of sending the transaction, and the run's
-- mode chooses (its :statements, 0 or 1): mode 'procedures' sends it as
-- one call of the dataset's function (tpcc_new_order, tpcc_payment,
-- tpcc_order_status, tpcc_delivery, tpcc_stock_level: bench.init('tpcc')
-- makes them), as HammerDB's TPROC-C does on PostgreSQL; mode
-- 'statements' sends each statement as its own round trip, in go-tpc's
-- (v1.0.12) statement shapes for PostgreSQL: one IN-list for the order's
-- items and one for their stock rows (FOR UPDATE), one UPDATE per stock
-- row, one multi-row INSERT of the order lines, delivery's 10 districts
-- in one transaction.  Where go-tpc departs from the specification, the
-- statements keep the specification's rules: the stock of a line is its
-- supplying warehouse's, 1% of lines are supplied by another warehouse
-- when there are several, an order's items are distinct, 1% of orders
-- end in an unused item and roll back (the item lookup finds fewer rows
-- than lines: the script sends ROLLBACK, counted as a rollback), and
-- NURand uses the run's constants.
--
-- With :keying_and_thinking, the keying time (clause 5.2.5.7: 18, 3, 2, 2
-- and 2 s) is slept before the call and the think time after it (negative
-- exponential with means 12, 12, 10, 5 and 5 s, cut at 10 times the mean).
--
CREATE OR REPLACE FUNCTION bench.tpcc_script(transaction text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    names   constant text[] := ARRAY['new_order', 'payment', 'order_status', 'delivery', 'stock_level'];
    keying  constant integer[] := ARRAY[18, 3, 2, 2, 2];
    think   constant integer[] := ARRAY[12, 12, 10, 5, 5];
    t       integer;
    s       text[];
    st      text[];
BEGIN
    IF transaction IS NULL THEN
        RAISE EXCEPTION 'transaction must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Name one of TPC-C''s transactions: new_order, payment, order_status, delivery or stock_level.';
    END IF;
    t := array_position(names, transaction);
    IF t IS NULL THEN
        RAISE EXCEPTION 'unknown TPC-C transaction "%"', left(transaction, 64)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The transactions are new_order, payment, order_status, delivery and stock_level.';
    END IF;
    s := ARRAY[format('-- <builtin: TPC-C %s>', replace(transaction, '_', '-')),
               '\dataset tpcc',
               -- the terminal's home warehouse, or one per transaction
               '\set w_id CASE WHEN :random_warehouse THEN random(1, :warehouses) ELSE :client_id % :warehouses + 1 END'];
    IF transaction = 'new_order' THEN
        s := s || ARRAY[
            -- the unused item's error: the rollback the specification asks
            -- for, counted as one (bench.run_scripts.rollbacks)
            '\rollback_errors TPC01',
            '\set d_id random(1, 10)',
            '\set customer ((random(0, 1023) | random(1, 3000)) + :c_id) % 3000 + 1',
            '\set ol_cnt random(5, 15)',
            -- 1%: an unused item number in the last line, rolled back
            '\set rbk random(1, 100)'];
    ELSIF transaction = 'payment' THEN
        s := s || ARRAY[
            '\set d_id random(1, 10)',
            -- 85%: the customer of the home warehouse and district
            '\set c_w_id :w_id',
            '\set c_d_id :d_id',
            '\set remote :warehouses > 1 AND random(1, 100) > 85',
            '\if :remote',
            '\set c_w_id (:w_id + random(0, :warehouses - 2)) % :warehouses + 1',
            '\set c_d_id random(1, 10)',
            '\endif',
            -- 60%: by last name
            '\set by_name random(1, 100) <= 60',
            '\set customer ((random(0, 1023) | random(1, 3000)) + :c_id) % 3000 + 1',
            '\set last ((random(0, 255) | random(0, 999)) + :c_last) % 1000',
            '\set amount random(100, 500000)'];
    ELSIF transaction = 'order_status' THEN
        s := s || ARRAY[
            '\set d_id random(1, 10)',
            '\set by_name random(1, 100) <= 60',
            '\set customer ((random(0, 1023) | random(1, 3000)) + :c_id) % 3000 + 1',
            '\set last ((random(0, 255) | random(0, 999)) + :c_last) % 1000'];
    ELSIF transaction = 'delivery' THEN
        s := s || '\set carrier random(1, 10)'::text;
    ELSE
        -- the terminal's own district, or one per transaction
        s := s || ARRAY[
            '\set d_id CASE WHEN :random_warehouse THEN random(1, 10) ELSE :client_id / :warehouses % 10 + 1 END',
            '\set threshold random(10, 20)'];
    END IF;
    s := s || ARRAY['\if :keying_and_thinking', format('\sleep %s s', keying[t]), '\endif'];
    -- statements: go-tpc's, each its own round trip
    st := string_to_array(CASE transaction
        WHEN 'new_order' THEN $st$\unset item
\unset supply_w_id
\unset quantity
\unset remote
\unset line
\set all_local 1
\set k 1
\while :k <= :ol_cnt
\set i ((random(0, 8191) | random(1, 100000)) + :ol_i_id) % 100000 + 1
\while array_length(:item) > 0 AND array_position(:item, :i) IS NOT NULL
\set i ((random(0, 8191) | random(1, 100000)) + :ol_i_id) % 100000 + 1
\endwhile
\set item[:k] CASE WHEN :rbk = 1 AND :k = :ol_cnt THEN 100001 ELSE :i END
\set supply_w_id[:k] CASE WHEN :warehouses > 1 AND random(1, 100) = 1 THEN (:w_id + random(0, greatest(:warehouses - 2, 0))) % :warehouses + 1 ELSE :w_id END
\set remote[:k] CASE WHEN :supply_w_id[:k] = :w_id THEN 0 ELSE 1 END
\set all_local CASE WHEN :supply_w_id[:k] = :w_id THEN :all_local ELSE 0 END
\set quantity[:k] random(1, 10)
\set line[:k] :k
\set k :k + 1
\endwhile
BEGIN;
SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = :w_id AND c_w_id = w_id AND c_d_id = :d_id AND c_id = :customer \gset no_
SELECT d_next_o_id, d_tax FROM district WHERE d_id = :d_id AND d_w_id = :w_id FOR UPDATE \gset no_
UPDATE district SET d_next_o_id = :no_d_next_o_id + 1 WHERE d_id = :d_id AND d_w_id = :w_id;
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local) VALUES (:no_d_next_o_id, :d_id, :w_id, :customer, LOCALTIMESTAMP, :ol_cnt, :all_local);
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (:no_d_next_o_id, :d_id, :w_id);
SELECT i_price, i_name, i_data, i_id FROM item WHERE i_id IN (:item[*]) \garray no_
\if array_length(:no_i_id) < :ol_cnt
ROLLBACK;
\else
SELECT s_i_id, s_w_id, s_quantity, s_data, (ARRAY[s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10])[:d_id] AS s_dist FROM stock WHERE (s_w_id, s_i_id) IN (:(supply_w_id, item)[*]) FOR UPDATE \garray no_
\unset amount
\unset dist
\set k 1
\while :k <= :ol_cnt
\set i array_position(:no_i_id, :item[:k])
\set s array_position(:no_s_i_id, :item[:k])
\set q :no_s_quantity[:s] - :quantity[:k]
\set q CASE WHEN :q < 10 THEN :q + 91 ELSE :q END
\set sq :quantity[:k]
\set sr :remote[:k]
\set si :item[:k]
\set sw :supply_w_id[:k]
UPDATE stock SET s_quantity = :q, s_ytd = s_ytd + :sq, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + :sr WHERE s_i_id = :si AND s_w_id = :sw;
\set amount[:k] :quantity[:k] * :no_i_price[:i] * (1 + :no_w_tax + :no_d_tax) * (1 - :no_c_discount)
\set dist[:k] :no_s_dist[:s]
\set k :k + 1
\endwhile
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info) VALUES :(no_d_next_o_id, d_id, w_id, line, item, supply_w_id, quantity, amount, dist)[*];
COMMIT;
\endif$st$
        WHEN 'payment' THEN $st$BEGIN;
UPDATE district SET d_ytd = d_ytd + :amount / 100.0 WHERE d_w_id = :w_id AND d_id = :d_id;
SELECT d_street_1, d_street_2, d_city, d_state, d_zip, d_name FROM district WHERE d_w_id = :w_id AND d_id = :d_id \gset pay_
UPDATE warehouse SET w_ytd = w_ytd + :amount / 100.0 WHERE w_id = :w_id;
SELECT w_street_1, w_street_2, w_city, w_state, w_zip, w_name FROM warehouse WHERE w_id = :w_id \gset pay_
\if :by_name
SELECT c_id FROM customer WHERE c_w_id = :c_w_id AND c_d_id = :c_d_id AND c_last = (ARRAY['BAR', 'OUGHT', 'ABLE', 'PRI', 'PRES', 'ESE', 'ANTI', 'CALLY', 'ATION', 'EING'])[:last / 100 + 1] || (ARRAY['BAR', 'OUGHT', 'ABLE', 'PRI', 'PRES', 'ESE', 'ANTI', 'CALLY', 'ATION', 'EING'])[:last / 10 % 10 + 1] || (ARRAY['BAR', 'OUGHT', 'ABLE', 'PRI', 'PRES', 'ESE', 'ANTI', 'CALLY', 'ATION', 'EING'])[:last % 10 + 1] ORDER BY c_first \garray pay_
\set customer :pay_c_id[(array_length(:pay_c_id) + 1) / 2]
\endif
SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_credit, c_credit_lim, c_discount, c_balance, c_since, (c_credit = 'BC')::integer AS bad_credit FROM customer WHERE c_w_id = :c_w_id AND c_d_id = :c_d_id AND c_id = :customer FOR UPDATE \gset pay_
\if :pay_bad_credit
SELECT c_data FROM customer WHERE c_w_id = :c_w_id AND c_d_id = :c_d_id AND c_id = :customer \gset pay_
UPDATE customer SET c_balance = c_balance - :amount / 100.0, c_ytd_payment = c_ytd_payment + :amount / 100.0, c_payment_cnt = c_payment_cnt + 1, c_data = left(format('| %4s %2s %4s %2s %4s $%7s %12s ', :customer::text, :c_d_id::text, :c_w_id::text, :d_id::text, :w_id::text, to_char(:amount / 100.0, 'FM99990.00'), LOCALTIMESTAMP::text) || c_data, 500) WHERE c_w_id = :c_w_id AND c_d_id = :c_d_id AND c_id = :customer;
\else
UPDATE customer SET c_balance = c_balance - :amount / 100.0, c_ytd_payment = c_ytd_payment + :amount / 100.0, c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = :c_w_id AND c_d_id = :c_d_id AND c_id = :customer;
\endif
INSERT INTO history (h_c_d_id, h_c_w_id, h_c_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (:c_d_id, :c_w_id, :customer, :d_id, :w_id, LOCALTIMESTAMP, :amount / 100.0, lpad(:'pay_w_name', 10) || '    ' || lpad(:'pay_d_name', 10));
COMMIT;$st$
        WHEN 'order_status' THEN $st$BEGIN;
\if :by_name
SELECT count(c_id) AS namecnt FROM customer WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_last = (ARRAY['BAR', 'OUGHT', 'ABLE', 'PRI', 'PRES', 'ESE', 'ANTI', 'CALLY', 'ATION', 'EING'])[:last / 100 + 1] || (ARRAY['BAR', 'OUGHT', 'ABLE', 'PRI', 'PRES', 'ESE', 'ANTI', 'CALLY', 'ATION', 'EING'])[:last / 10 % 10 + 1] || (ARRAY['BAR', 'OUGHT', 'ABLE', 'PRI', 'PRES', 'ESE', 'ANTI', 'CALLY', 'ATION', 'EING'])[:last % 10 + 1] \gset os_
SELECT c_balance, c_first, c_middle, c_id FROM customer WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_last = (ARRAY['BAR', 'OUGHT', 'ABLE', 'PRI', 'PRES', 'ESE', 'ANTI', 'CALLY', 'ATION', 'EING'])[:last / 100 + 1] || (ARRAY['BAR', 'OUGHT', 'ABLE', 'PRI', 'PRES', 'ESE', 'ANTI', 'CALLY', 'ATION', 'EING'])[:last / 10 % 10 + 1] || (ARRAY['BAR', 'OUGHT', 'ABLE', 'PRI', 'PRES', 'ESE', 'ANTI', 'CALLY', 'ATION', 'EING'])[:last % 10 + 1] ORDER BY c_first \garray os_
\set customer :os_c_id[(:os_namecnt + 1) / 2]
\else
SELECT c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_id = :customer \gset os_
\endif
SELECT o_id, o_carrier_id, o_entry_d FROM orders WHERE o_w_id = :w_id AND o_d_id = :d_id AND o_c_id = :customer ORDER BY o_id DESC LIMIT 1 \gset os_
SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE ol_w_id = :w_id AND ol_d_id = :d_id AND ol_o_id = :os_o_id;
COMMIT;$st$
        WHEN 'delivery' THEN $st$BEGIN;
\unset dl_d
\unset dl_o
\set k 1
\while :k <= 10
SELECT no_o_id FROM new_order WHERE no_w_id = :w_id AND no_d_id = :k ORDER BY no_o_id ASC LIMIT 1 FOR UPDATE \garray dl_
\if array_length(:dl_no_o_id) > 0
\set dl_d[array_length(:dl_d) + 1] :k
\set dl_o[array_length(:dl_o) + 1] :dl_no_o_id[1]
\endif
\set k :k + 1
\endwhile
\if array_length(:dl_d) > 0
DELETE FROM new_order WHERE (no_w_id, no_d_id, no_o_id) IN (:(w_id, dl_d, dl_o)[*]);
UPDATE orders SET o_carrier_id = :carrier WHERE (o_w_id, o_d_id, o_id) IN (:(w_id, dl_d, dl_o)[*]);
SELECT o_d_id, o_c_id FROM orders WHERE (o_w_id, o_d_id, o_id) IN (:(w_id, dl_d, dl_o)[*]) \garray dl_
UPDATE order_line SET ol_delivery_d = LOCALTIMESTAMP WHERE (ol_w_id, ol_d_id, ol_o_id) IN (:(w_id, dl_d, dl_o)[*]);
SELECT ol_d_id, sum(ol_amount) AS ol_total FROM order_line WHERE (ol_w_id, ol_d_id, ol_o_id) IN (:(w_id, dl_d, dl_o)[*]) GROUP BY ol_d_id \garray dl_
\set k 1
\while :k <= array_length(:dl_ol_d_id)
\set dd :dl_ol_d_id[:k]
\set cc :dl_o_c_id[array_position(:dl_o_d_id, :dd)]
\set amt :dl_ol_total[:k]
UPDATE customer SET c_balance = c_balance + :amt, c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = :w_id AND c_d_id = :dd AND c_id = :cc;
\set k :k + 1
\endwhile
\endif
COMMIT;$st$
        ELSE $st$BEGIN;
SELECT d_next_o_id FROM district WHERE d_w_id = :w_id AND d_id = :d_id \gset sl_
SELECT count(DISTINCT (s_i_id)) AS stock_count FROM order_line, stock WHERE ol_w_id = :w_id AND ol_d_id = :d_id AND ol_o_id < :sl_d_next_o_id AND ol_o_id >= :sl_d_next_o_id - 20 AND s_w_id = :w_id AND s_i_id = ol_i_id AND s_quantity < :threshold \gset sl_
COMMIT;$st$ END, E'\n');
    s := s || '\if :statements'::text || st || '\else'::text;
    s := s || CASE transaction
        WHEN 'new_order' THEN ARRAY[
            -- the lines' items, supplying warehouses and quantities
            '\set seed random(0, 2147483647)',
            'SELECT * FROM tpcc_new_order(:w_id, :d_id, :customer, :ol_cnt, :rbk = 1, :seed, :ol_i_id, :warehouses);']
        WHEN 'payment' THEN ARRAY['SELECT * FROM tpcc_payment(:w_id, :d_id, :c_w_id, :c_d_id, :customer, :last, :by_name, :amount / 100.0);']
        WHEN 'order_status' THEN ARRAY['SELECT * FROM tpcc_order_status(:w_id, :d_id, :customer, :last, :by_name);']
        WHEN 'delivery' THEN ARRAY['SELECT * FROM tpcc_delivery(:w_id, :carrier);']
        ELSE ARRAY['SELECT * FROM tpcc_stock_level(:w_id, :d_id, :threshold);'] END;
    s := s || '\endif'::text;
    s := s || ARRAY['\if :keying_and_thinking',
                    format('\set think least(int(-ln(random(1, 1000000) / 1000000.0) * %s), %s)',
                           think[t] * 1000000, think[t] * 10000000),
                    '\sleep :think us', '\endif'];
    RETURN array_to_string(s, E'\n') || E'\n';
END
$fn$;

COMMENT ON FUNCTION bench.tpcc_script(text) IS
    'The script of one TPC-C transaction (new_order, payment, order_status, delivery, stock_level) holding both modes (procedures, statements; the run''s mode chooses), for bench.run(script => ...) or bench.define_workload';
GRANT EXECUTE ON FUNCTION bench.tpcc_script(text) TO PUBLIC;
