--
-- bench._ibench_spec: the suite of steps of a call of bench.ibench, every
-- argument checked.  The steps, in the order given (l.i0, if there, first):
--
--   l.i0    tables made anew (bench.init('ibench', tables), as iibench.py
--           --setup), then rows rows per table, rows_per_commit 100, by
--           insert_clients clients
--   l.x     a batch, then the secondary indexes: one client per table
--   l.i1    inserts of 50 rows with as many deletes, for duration
--   l.i2    the same, 5 rows at a time
--   qrN     range queries (ibench.qr) by query_clients clients as fast as
--   qpN     they go, point queries (ibench.qp) for qp, beside insert_clients
--           clients of l.i1 held to N rows a second each (the benchmark's
--           --inserts_per_second, one table per insert process), for
--           duration; N is 100, 500 or 1000
--
CREATE OR REPLACE FUNCTION bench._ibench_spec(rows bigint, steps text[], insert_clients integer,
                                              query_clients integer, tables integer,
                                              secondary_indexes integer, duration interval, options jsonb,
                                              tag text, target text, progress interval, search_path text)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    known     constant text[] := ARRAY['l.i0', 'l.x', 'l.i1', 'l.i2', 'qr100', 'qp100',
                                       'qr500', 'qp500', 'qr1000', 'qp1000'];
    data_opts constant text[] := ARRAY['cashregisters', 'customers', 'products', 'max_price',
                                       'data_length_min', 'data_length_max', 'data_random_pct',
                                       'rows_per_query'];
    ntables   integer;
    nquery    integer;
    st        text;
    k         text;
    o         jsonb;
    common    jsonb;
    args      jsonb;
    out_steps jsonb := '[]';
    clients   integer[] := '{}';
    rpc       integer;
    ips       integer;
    extra     jsonb;
    builtin   boolean;
BEGIN
    IF rows IS NULL OR steps IS NULL OR insert_clients IS NULL OR secondary_indexes IS NULL
       OR duration IS NULL OR options IS NULL OR progress IS NULL THEN
        RAISE EXCEPTION 'bench.ibench''s arguments must not be null, but for query_clients, tables, tag and target'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Leave an argument out for its default.';
    END IF;
    IF cardinality(steps) = 0 OR array_ndims(steps) > 1 OR array_position(steps, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'steps must list at least one step, without nulls'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The steps are ' || array_to_string(known, ', ') || '.';
    END IF;
    FOREACH st IN ARRAY steps LOOP
        IF NOT st = ANY (known) THEN
            RAISE EXCEPTION 'unknown Insert Benchmark step "%"', left(st, 64)
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'The steps are ' || array_to_string(known, ', ') || '.';
        END IF;
        IF (SELECT count(*) FROM unnest(steps) AS u(x) WHERE u.x = st) > 1 THEN
            RAISE EXCEPTION 'steps lists % twice', st
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'Each step is one run of the suite; list it once.';
        END IF;
    END LOOP;
    IF 'l.i0' = ANY (steps) AND steps[1] <> 'l.i0' THEN
        RAISE EXCEPTION 'step l.i0 must come first'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'l.i0 makes the tables anew and loads them; the other steps work on what it loaded.';
    END IF;
    IF rows < 1 THEN
        RAISE EXCEPTION 'rows must be at least 1, not %', rows
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'rows is how many rows l.i0 loads into each table (iibench.py --max_rows).';
    END IF;
    IF insert_clients < 1 OR insert_clients > 10000 THEN
        RAISE EXCEPTION 'insert_clients must be between 1 and 10000, not %', insert_clients
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'insert_clients are the benchmark''s insert processes, one per table unless tables says otherwise.';
    END IF;
    ntables := COALESCE(tables, insert_clients);
    IF ntables < 1 OR ntables > insert_clients THEN
        RAISE EXCEPTION 'tables must be between 1 and insert_clients (%), not %', insert_clients, ntables
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'One table per insert client (the default), or fewer that they share (1: one table for all).';
    END IF;
    nquery := COALESCE(query_clients, insert_clients);
    IF nquery < 1 OR nquery > 10000 THEN
        RAISE EXCEPTION 'query_clients must be between 1 and 10000, not %', nquery
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'query_clients run the queries of the query steps, beside the insert clients (one per insert client by default, as the benchmark has one query process beside each insert process).';
    END IF;
    IF secondary_indexes < 0 OR secondary_indexes > 3 THEN
        RAISE EXCEPTION 'secondary_indexes must be between 0 and 3, not %', secondary_indexes
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'l.x creates marketsegment, registersegment and pdc, the first secondary_indexes of them.';
    END IF;
    IF 'l.x' = ANY (steps) AND secondary_indexes = 0 THEN
        RAISE EXCEPTION 'step l.x with secondary_indexes 0 creates no index'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give secondary_indexes from 1 to 3, or leave l.x out.';
    END IF;
    IF duration <= interval '0' OR duration > interval '1 year' THEN
        RAISE EXCEPTION 'duration must be positive and at most a year, not %', duration
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'duration is how long each of l.i1, l.i2 and the query steps runs.';
    END IF;
    IF jsonb_typeof(options) <> 'object' THEN
        RAISE EXCEPTION 'options must be a JSON object'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give the benchmark''s data options by name, as {"max_price": 1000}.';
    END IF;
    FOR k IN SELECT jsonb_object_keys(options) LOOP
        IF NOT k = ANY (data_opts) THEN
            RAISE EXCEPTION 'option "%" is not one bench.ibench takes', left(k, 64)
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'Its options are ' || array_to_string(data_opts, ', ')
                             || '; each step has its own rows per commit, and secondary_indexes is an argument.';
        END IF;
    END LOOP;

    -- what every run of the suite shares
    common := jsonb_build_object('progress', progress);
    IF target IS NOT NULL THEN
        common := common || jsonb_build_object('target', target);
    END IF;
    o := options || jsonb_build_object('secondary_indexes', secondary_indexes);
    -- the built-in workloads where they are the steps' scripts (the
    -- benchmark's defaults): their names label the runs
    builtin := options = '{}' AND secondary_indexes = 3;
    FOREACH st IN ARRAY steps LOOP
        extra := '{}';
        IF st IN ('l.i0', 'l.x', 'l.i1', 'l.i2') THEN
            rpc := CASE st WHEN 'l.i0' THEN 100 WHEN 'l.x' THEN 100 WHEN 'l.i1' THEN 50 ELSE 5 END;
            args := common || CASE WHEN builtin THEN jsonb_build_object('workload', 'ibench.' || st)
                                   ELSE jsonb_build_object('script', bench.ibench_script(st,
                                            o || jsonb_build_object('rows_per_commit', rpc))) END
                           || jsonb_build_object('clients', CASE WHEN st = 'l.x' THEN ntables ELSE insert_clients END);
            IF st = 'l.i0' THEN
                args := args || jsonb_build_object('transactions',
                    ceil(rows::numeric * ntables / insert_clients / rpc)::bigint);
                extra := jsonb_build_object('rows', ceil(rows::numeric * ntables / insert_clients / rpc)::bigint
                                                    * rpc * insert_clients);
            ELSIF st = 'l.x' THEN
                args := args || jsonb_build_object('transactions', 1);
            ELSE
                args := args || jsonb_build_object('duration', duration);
            END IF;
            clients := clients || (args->>'clients')::integer;
        ELSE
            -- the query steps: l.i1's inserts at a rate beside the queries
            rpc := 50;
            ips := substring(st FROM '[0-9]+')::integer;
            args := common || jsonb_build_object(
                'duration', duration,
                'groups', jsonb_build_array(
                    jsonb_build_object('name', 'insert',
                        'clients', insert_clients,
                        'rate', ips::numeric * insert_clients / rpc)
                    || CASE WHEN builtin THEN jsonb_build_object('workload', 'ibench.l.i1')
                            ELSE jsonb_build_object('script', bench.ibench_script('l.i1',
                                     o || jsonb_build_object('rows_per_commit', rpc))) END,
                    jsonb_build_object('name', 'query', 'clients', nquery)
                    || CASE WHEN builtin THEN jsonb_build_object('workload', 'ibench.' || left(st, 2))
                            ELSE jsonb_build_object('script', bench.ibench_script(left(st, 2), o)) END));
            extra := jsonb_build_object('target_inserts_per_s', ips * insert_clients);
            clients := clients || (insert_clients + nquery);
        END IF;
        out_steps := out_steps || jsonb_build_array(
            jsonb_build_object('step', st, 'rows_per_commit', rpc, 'args', args) || extra);
    END LOOP;

    RETURN jsonb_build_object(
        'workload', 'ibench', 'clients', to_jsonb(clients), 'repeat', 1, 'run_order', 'blocks',
        'tag', tag, 'search_path', search_path,
        'args', jsonb_build_object('ibench', jsonb_build_object(
            'rows', rows, 'steps', to_jsonb(steps), 'insert_clients', insert_clients,
            'query_clients', nquery, 'tables', ntables, 'secondary_indexes', secondary_indexes,
            'duration', duration, 'options', options, 'target', target, 'progress', progress)),
        'steps', out_steps)
        || CASE WHEN 'l.i0' = ANY (steps)
                THEN jsonb_build_object('init', jsonb_build_object('workload', 'ibench',
                                                                   'tables', ntables, 'target', target))
                ELSE '{}' END;
END
$fn$;

COMMENT ON FUNCTION bench._ibench_spec(bigint, text[], integer, integer, integer, integer, interval, jsonb, text, text, interval, text) IS
    'Internal: the suite of steps of a call of bench.ibench, every argument checked';
