--
-- bench.tpcc_script: the script of one of TPC-C's five transactions
-- (v5.11, clauses 2.4 to 2.8) in the kit's script language, for its
-- options: one execution is one transaction of one terminal.
--
-- The script draws what the clause's "input data generation" has the
-- terminal draw, so that a run's seed repeats a run's inputs: the
-- warehouse (the client's home warehouse, :client_id % :warehouses + 1, as
-- the specification binds terminals, or one drawn per transaction when the
-- run has warehouse_choice => 'random': :random_warehouse), the district,
-- the customer by NURand(1023, 1, 3000) with the run's :c_id or by last
-- name NURand(255, 0, 999) with :c_last, amounts, the carrier, the
-- threshold.  New-order's lines are drawn by the function from a seed the
-- script draws (the language has no arrays): items by NURand(8191, 1,
-- 100000) with :ol_i_id.  :warehouses, :c_id, :ol_i_id and :c_last are set
-- by bench.run from the tpcc dataset; :random_warehouse and
-- :keying_and_thinking from its arguments.
--
-- mode 'procedures' sends each transaction as one call of the dataset's
-- function (tpcc_new_order, tpcc_payment, tpcc_order_status,
-- tpcc_delivery, tpcc_stock_level: bench.init('tpcc') makes them), as
-- HammerDB's TPROC-C does on PostgreSQL.
--
-- With :keying_and_thinking, the keying time (clause 5.2.5.7: 18, 3, 2, 2
-- and 2 s) is slept before the call and the think time after it (negative
-- exponential with means 12, 12, 10, 5 and 5 s, cut at 10 times the mean).
--
CREATE OR REPLACE FUNCTION bench.tpcc_script(transaction text, options jsonb DEFAULT '{}')
RETURNS text
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    names   constant text[] := ARRAY['new_order', 'payment', 'order_status', 'delivery', 'stock_level'];
    keying  constant integer[] := ARRAY[18, 3, 2, 2, 2];
    think   constant integer[] := ARRAY[12, 12, 10, 5, 5];
    t       integer;
    k       text;
    mode    text;
    s       text[];
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
    IF options IS NULL OR jsonb_typeof(options) <> 'object' THEN
        RAISE EXCEPTION 'options must be a JSON object'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give the options by name, as {"mode": "procedures"}.';
    END IF;
    FOR k IN SELECT jsonb_object_keys(options) LOOP
        IF k <> 'mode' THEN
            RAISE EXCEPTION 'unknown TPC-C option "%"', left(k, 64)
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'The only option is mode (procedures).';
        END IF;
    END LOOP;
    mode := CASE WHEN NOT options ? 'mode' THEN 'procedures'
                 WHEN jsonb_typeof(options->'mode') = 'string' THEN options->>'mode'
                 ELSE (options->'mode')::text END;
    IF mode = 'statements' THEN
        RAISE EXCEPTION 'TPC-C''s mode "statements" is not available yet'
            USING ERRCODE = 'feature_not_supported',
                  HINT = 'Use mode "procedures": one call of the dataset''s function per transaction.';
    ELSIF mode <> 'procedures' THEN
        RAISE EXCEPTION 'unknown TPC-C mode "%"', left(mode, 64)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The mode is "procedures": one call of the dataset''s function per transaction.';
    END IF;

    s := ARRAY[format('-- <builtin: TPC-C %s, %s>', replace(transaction, '_', '-'), mode),
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
            '\set rbk random(1, 100)',
            -- the lines' items, supplying warehouses and quantities
            '\set seed random(0, 2147483647)'];
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
    s := s || CASE transaction
        WHEN 'new_order' THEN 'SELECT * FROM tpcc_new_order(:w_id, :d_id, :customer, :ol_cnt, :rbk = 1, :seed, :ol_i_id, :warehouses);'
        WHEN 'payment' THEN 'SELECT * FROM tpcc_payment(:w_id, :d_id, :c_w_id, :c_d_id, :customer, :last, :by_name, :amount / 100.0);'
        WHEN 'order_status' THEN 'SELECT * FROM tpcc_order_status(:w_id, :d_id, :customer, :last, :by_name);'
        WHEN 'delivery' THEN 'SELECT * FROM tpcc_delivery(:w_id, :carrier);'
        ELSE 'SELECT * FROM tpcc_stock_level(:w_id, :d_id, :threshold);' END;
    s := s || ARRAY['\if :keying_and_thinking',
                    format('\set think least(int(-ln(random(1, 1000000) / 1000000.0) * %s), %s)',
                           think[t] * 1000000, think[t] * 10000000),
                    '\sleep :think us', '\endif'];
    RETURN array_to_string(s, E'\n') || E'\n';
END
$fn$;

COMMENT ON FUNCTION bench.tpcc_script(text, jsonb) IS
    'The script of one TPC-C transaction (new_order, payment, order_status, delivery, stock_level) for its options (mode), for bench.run(script => ...) or bench.define_workload';
GRANT EXECUTE ON FUNCTION bench.tpcc_script(text, jsonb) TO PUBLIC;
