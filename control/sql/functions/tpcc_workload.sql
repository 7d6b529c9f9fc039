--
-- bench.tpcc_workload: a workload of TPC-C's transactions in a mix of the
-- user's, as bench.define_workload defines one: each transaction's script
-- (bench.tpcc_script) with its weight, on dataset tpcc.  The built-in
-- 'tpcc' is the specification's mix, 45/43/4/4/4.  Its scripts hold both
-- modes: a run's mode argument chooses.
--
CREATE OR REPLACE FUNCTION bench.tpcc_workload(
    name         text,
    mix          jsonb,
    description  text     DEFAULT NULL,
    replace      boolean  DEFAULT false)
RETURNS bench.workloads
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    names   constant text[] := ARRAY['new_order', 'payment', 'order_status', 'delivery', 'stock_level'];
    hint    constant text := 'The transactions are new_order, payment, order_status, delivery and stock_level, each with a whole weight from 0 up, as {"new_order": 45, "payment": 43, "order_status": 4, "delivery": 4, "stock_level": 4}.';
    k       text;
    scripts text[] := '{}';
    weights integer[] := '{}';
    parts   text[] := '{}';
BEGIN
    IF mix IS NULL OR jsonb_typeof(mix) <> 'object' THEN
        RAISE EXCEPTION 'mix must be a JSON object of transactions and weights'
            USING ERRCODE = 'invalid_parameter_value', HINT = hint;
    END IF;
    FOR k IN SELECT jsonb_object_keys(mix) LOOP
        IF NOT k = ANY (names) THEN
            RAISE EXCEPTION 'unknown TPC-C transaction "%" in mix', left(k, 64)
                USING ERRCODE = 'invalid_parameter_value', HINT = hint;
        END IF;
        IF jsonb_typeof(mix->k) <> 'number' OR (mix->>k)::numeric <> trunc((mix->>k)::numeric)
           OR (mix->>k)::numeric NOT BETWEEN 0 AND 1000000 THEN
            RAISE EXCEPTION 'the weight of % must be a whole number from 0 to 1000000, not %', k, left(mix->>k, 64)
                USING ERRCODE = 'invalid_parameter_value', HINT = hint;
        END IF;
    END LOOP;
    -- in the specification's order, those with a weight
    FOREACH k IN ARRAY names LOOP
        CONTINUE WHEN coalesce((mix->>k)::integer, 0) = 0;
        scripts := scripts || bench.tpcc_script(k);
        weights := weights || (mix->>k)::integer;
        parts := parts || format('%s %s', k, mix->>k);
    END LOOP;
    IF cardinality(scripts) = 0 THEN
        RAISE EXCEPTION 'mix must give at least one transaction a weight above 0'
            USING ERRCODE = 'invalid_parameter_value', HINT = hint;
    END IF;
    RETURN bench.define_workload(name, scripts, weights,
                                 coalesce(description, format('TPC-C: %s', array_to_string(parts, ', '))),
                                 'tpcc', replace);
END
$fn$;

COMMENT ON FUNCTION bench.tpcc_workload(text, jsonb, text, boolean) IS
    'Define a workload of TPC-C''s transactions in a mix of weights, as {"new_order": 50, "payment": 50}';
REVOKE ALL ON FUNCTION bench.tpcc_workload(text, jsonb, text, boolean) FROM PUBLIC;
