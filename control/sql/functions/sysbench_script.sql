--
-- bench.sysbench_script: the script of one of sysbench 1.0's OLTP
-- workloads (oltp_common.lua and the workload's own file), for its
-- options, in the kit's script language: one execution is one sysbench
-- event.  Each query group draws its table as oltp_common.lua draws it
-- (uniformly, once per group) and its ids with the distribution of
-- rand_type; c and pad are random_string()s of sysbench's patterns.  The
-- tables are sbtest:{t}, t from 1 to :tables; ids from 1 to :table_size
-- (both set by bench.run from the sysbench dataset).
--
CREATE OR REPLACE FUNCTION bench.sysbench_script(workload text, options jsonb DEFAULT '{}')
RETURNS text
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    known   constant text[] := ARRAY['point_selects', 'simple_ranges', 'sum_ranges', 'order_ranges',
                                     'distinct_ranges', 'index_updates', 'non_index_updates',
                                     'delete_inserts', 'range_size', 'range_selects', 'skip_trx',
                                     'rand_type', 'rand_spec_iter', 'rand_spec_pct', 'rand_spec_res',
                                     'rand_pareto_h', 'rand_zipfian_exp'];
    counts  constant text[] := ARRAY['point_selects', 'simple_ranges', 'sum_ranges', 'order_ranges',
                                     'distinct_ranges', 'index_updates', 'non_index_updates',
                                     'delete_inserts'];
    c_pat   constant text := '###########-###########-###########-###########-###########-'
                             '###########-###########-###########-###########-###########';
    pad_pat constant text := '###########-###########-###########-###########-###########';
    o       jsonb;
    k       text;
    n       integer;
    id_fn   text;
    s       text[] := '{}';
    trx     boolean;
    ranges  boolean;
BEGIN
    IF workload IS NULL THEN
        RAISE EXCEPTION 'workload must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Name one of sysbench''s OLTP workloads, as oltp_read_write.';
    END IF;
    IF workload NOT IN ('oltp_read_write', 'oltp_read_only', 'oltp_write_only', 'oltp_point_select',
                        'oltp_update_index', 'oltp_update_non_index', 'oltp_insert', 'oltp_delete') THEN
        RAISE EXCEPTION 'unknown sysbench workload "%"', left(workload, 64)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The workloads are oltp_read_write, oltp_read_only, oltp_write_only, oltp_point_select, oltp_update_index, oltp_update_non_index, oltp_insert and oltp_delete.';
    END IF;
    IF options IS NULL OR jsonb_typeof(options) <> 'object' THEN
        RAISE EXCEPTION 'options must be a JSON object'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give sysbench''s options by name, as {"point_selects": 0, "rand_type": "uniform"}.';
    END IF;
    FOR k IN SELECT jsonb_object_keys(options) LOOP
        IF NOT k = ANY (known) THEN
            RAISE EXCEPTION 'unknown sysbench option "%"', left(k, 64)
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'The options are ' || array_to_string(known, ', ') || ' (sysbench''s, with _ for -).';
        END IF;
    END LOOP;
    -- sysbench 1.0.20's defaults; oltp_point_select runs one point select
    o := jsonb_build_object('point_selects', CASE WHEN workload = 'oltp_point_select' THEN 1 ELSE 10 END,
                            'simple_ranges', 1, 'sum_ranges', 1, 'order_ranges', 1, 'distinct_ranges', 1,
                            'index_updates', 1, 'non_index_updates', 1, 'delete_inserts', 1,
                            'range_size', 100, 'range_selects', true, 'skip_trx', false,
                            'rand_type', 'special', 'rand_spec_iter', 12, 'rand_spec_pct', 1,
                            'rand_spec_res', 75, 'rand_pareto_h', 0.2, 'rand_zipfian_exp', 0.8) || options;
    FOREACH k IN ARRAY counts || ARRAY['range_size', 'rand_spec_iter', 'rand_spec_pct', 'rand_spec_res'] LOOP
        IF jsonb_typeof(o->k) <> 'number' OR (o->>k)::numeric <> trunc((o->>k)::numeric)
           OR (o->>k)::numeric < (CASE WHEN k IN ('range_size', 'rand_spec_iter') THEN 1 ELSE 0 END)
           OR (o->>k)::numeric > (CASE WHEN k IN ('rand_spec_pct', 'rand_spec_res') THEN 100
                                       WHEN k = 'rand_spec_iter' THEN 1000
                                       WHEN k = 'range_size' THEN 2147483647 ELSE 1000 END) THEN
            RAISE EXCEPTION 'sysbench option % must be a whole number from % to %, not %', k,
                  CASE WHEN k IN ('range_size', 'rand_spec_iter') THEN 1 ELSE 0 END,
                  CASE WHEN k IN ('rand_spec_pct', 'rand_spec_res') THEN 100
                       WHEN k = 'rand_spec_iter' THEN 1000
                       WHEN k = 'range_size' THEN 2147483647 ELSE 1000 END, left(o->>k, 64)
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'Counts of queries run from 0 to 1000 per transaction; range_size from 1.';
        END IF;
    END LOOP;
    FOREACH k IN ARRAY ARRAY['range_selects', 'skip_trx'] LOOP
        IF jsonb_typeof(o->k) <> 'boolean' THEN
            RAISE EXCEPTION 'sysbench option % must be true or false, not %', k, left(o->>k, 64)
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'As sysbench''s --range-selects=on|off and --skip-trx=on|off.';
        END IF;
    END LOOP;
    IF NOT (o->>'rand_type') = ANY (ARRAY['uniform', 'gaussian', 'special', 'pareto', 'zipfian']) THEN
        RAISE EXCEPTION 'unknown rand_type "%"', left(o->>'rand_type', 64)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'sysbench''s --rand-type: uniform, gaussian, special, pareto or zipfian.';
    END IF;
    IF jsonb_typeof(o->'rand_pareto_h') <> 'number' OR NOT ((o->>'rand_pareto_h')::float8 > 0 AND (o->>'rand_pareto_h')::float8 < 1) THEN
        RAISE EXCEPTION 'sysbench option rand_pareto_h must be between 0 and 1 (both excluded), not %', left(o->>'rand_pareto_h', 64)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'sysbench''s --rand-pareto-h; its default is 0.2.';
    END IF;
    IF jsonb_typeof(o->'rand_zipfian_exp') <> 'number' OR NOT ((o->>'rand_zipfian_exp')::float8 BETWEEN 0 AND 1000) THEN
        RAISE EXCEPTION 'sysbench option rand_zipfian_exp must be from 0 to 1000, not %', left(o->>'rand_zipfian_exp', 64)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'sysbench''s --rand-zipfian-exp; its default is 0.8.';
    END IF;

    -- sysbench.rand.default(1, table_size) under rand_type
    id_fn := CASE o->>'rand_type'
        WHEN 'uniform' THEN 'random(1, :table_size)'
        WHEN 'gaussian' THEN format('sysbench_gaussian(1, :table_size, %s)', o->>'rand_spec_iter')
        WHEN 'special' THEN format('sysbench_special(1, :table_size, %s, %s, %s)',
                                   o->>'rand_spec_pct', o->>'rand_spec_res', o->>'rand_spec_iter')
        WHEN 'pareto' THEN format('sysbench_pareto(1, :table_size, %s)', o->>'rand_pareto_h')
        ELSE format('sysbench_zipfian(1, :table_size, %s)', o->>'rand_zipfian_exp') END;
    trx := NOT (o->>'skip_trx')::boolean
           AND workload IN ('oltp_read_write', 'oltp_read_only', 'oltp_write_only');
    ranges := (o->>'range_selects')::boolean AND workload IN ('oltp_read_write', 'oltp_read_only');

    s := s || format('-- <builtin: sysbench %s%s>', workload,
                     CASE WHEN options = '{}' THEN '' ELSE ', ' || options::text END)
           -- the tables it runs on, sbtest1 .. sbtestN
           || '\dataset sysbench'::text
           -- what sysbench's pgsql driver ignores: the transaction restarts
           || '\ignore_errors 40P01 23505 40001'::text;
    IF trx THEN
        s := s || 'BEGIN;'::text;
    END IF;

    IF workload IN ('oltp_insert', 'oltp_delete') THEN
        s := s || '\set t random(1, :tables)'::text;
        IF workload = 'oltp_insert' THEN
            -- with auto_inc (sysbench's default) PostgreSQL makes the id
            s := s || ('\set k ' || id_fn)
                   || format('\set c random_string(%L)', c_pat)
                   || format('\set pad random_string(%L)', pad_pat)
                   || 'INSERT INTO sbtest:{t} (k, c, pad) VALUES (:k, :''c'', :''pad'');'::text;
        ELSE
            s := s || ('\set id ' || id_fn)
                   || 'DELETE FROM sbtest:{t} WHERE id = :id;'::text;
        END IF;
        RETURN array_to_string(s, E'\n') || E'\n';
    END IF;

    -- point selects
    IF workload IN ('oltp_read_write', 'oltp_read_only', 'oltp_point_select') THEN
        n := (o->>'point_selects')::integer;
        IF n > 0 THEN
            s := s || '\set t random(1, :tables)'::text;
            FOR i IN 1 .. n LOOP
                s := s || ('\set id ' || id_fn) || 'SELECT c FROM sbtest:{t} WHERE id = :id;'::text;
            END LOOP;
        END IF;
    END IF;
    -- ranges: simple, sum, order, distinct
    IF ranges THEN
        FOR r IN 1 .. 4 LOOP
            n := (o->>(counts[r + 1]))::integer;
            CONTINUE WHEN n = 0;
            s := s || '\set t random(1, :tables)'::text;
            FOR i IN 1 .. n LOOP
                s := s || ('\set id ' || id_fn)
                       || format('\set id2 :id + %s', (o->>'range_size')::bigint - 1)
                       || (CASE r WHEN 1 THEN 'SELECT c FROM sbtest:{t} WHERE id BETWEEN :id AND :id2;'
                                  WHEN 2 THEN 'SELECT SUM(k) FROM sbtest:{t} WHERE id BETWEEN :id AND :id2;'
                                  WHEN 3 THEN 'SELECT c FROM sbtest:{t} WHERE id BETWEEN :id AND :id2 ORDER BY c;'
                                  ELSE 'SELECT DISTINCT c FROM sbtest:{t} WHERE id BETWEEN :id AND :id2 ORDER BY c;' END);
            END LOOP;
        END LOOP;
    END IF;
    -- index updates
    IF workload IN ('oltp_read_write', 'oltp_write_only', 'oltp_update_index') THEN
        n := (o->>'index_updates')::integer;
        IF n > 0 THEN
            s := s || '\set t random(1, :tables)'::text;
            FOR i IN 1 .. n LOOP
                s := s || ('\set id ' || id_fn) || 'UPDATE sbtest:{t} SET k = k + 1 WHERE id = :id;'::text;
            END LOOP;
        END IF;
    END IF;
    -- non-index updates: c first, then the id, as sysbench sets them
    IF workload IN ('oltp_read_write', 'oltp_write_only', 'oltp_update_non_index') THEN
        n := (o->>'non_index_updates')::integer;
        IF n > 0 THEN
            s := s || '\set t random(1, :tables)'::text;
            FOR i IN 1 .. n LOOP
                s := s || format('\set c random_string(%L)', c_pat) || ('\set id ' || id_fn)
                       || 'UPDATE sbtest:{t} SET c = :''c'' WHERE id = :id;'::text;
            END LOOP;
        END IF;
    END IF;
    -- a delete and an insert of the same id
    IF workload IN ('oltp_read_write', 'oltp_write_only') THEN
        n := (o->>'delete_inserts')::integer;
        IF n > 0 THEN
            s := s || '\set t random(1, :tables)'::text;
            FOR i IN 1 .. n LOOP
                s := s || ('\set id ' || id_fn) || ('\set k ' || id_fn)
                       || format('\set c random_string(%L)', c_pat)
                       || format('\set pad random_string(%L)', pad_pat)
                       || 'DELETE FROM sbtest:{t} WHERE id = :id;'::text
                       || 'INSERT INTO sbtest:{t} (id, k, c, pad) VALUES (:id, :k, :''c'', :''pad'');'::text;
            END LOOP;
        END IF;
    END IF;
    IF trx THEN
        s := s || 'COMMIT;'::text;
    END IF;
    -- the header, \dataset and \ignore_errors, BEGIN and COMMIT: no query
    IF cardinality(s) = 3 + (CASE WHEN trx THEN 2 ELSE 0 END) THEN
        RAISE EXCEPTION 'sysbench workload % with these options runs no query', workload
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Keep at least one of its query counts above 0.';
    END IF;
    RETURN array_to_string(s, E'\n') || E'\n';
END
$fn$;

COMMENT ON FUNCTION bench.sysbench_script(text, jsonb) IS
    'The script of a sysbench 1.0 OLTP workload for its options (point_selects, ..., rand_type), for bench.run(script => ...) or bench.define_workload';
GRANT EXECUTE ON FUNCTION bench.sysbench_script(text, jsonb) TO PUBLIC;
