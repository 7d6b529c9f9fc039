--
-- The Insert Benchmark as one call: bench.ibench runs its steps as a
-- suite of steps, one run per step (bench.runs.step), and
-- bench.ibench_steps shows each step as the benchmark reports it.
--

-- internal: a suite of steps, each a run of its own arguments (suite.c)
CREATE FUNCTION bench._steps(spec jsonb, wait boolean)
RETURNS bigint
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_steps';

COMMENT ON FUNCTION bench._steps(jsonb, boolean) IS
    'Internal: start a suite of steps (bench.ibench''s), each step checked as bench.run checks its arguments first; its id, when done (wait) or started';
REVOKE ALL ON FUNCTION bench._steps(jsonb, boolean) FROM PUBLIC;

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
CREATE FUNCTION bench._ibench_spec(rows bigint, steps text[], insert_clients integer,
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

--
-- bench.ibench_steps: each step of each suite of bench.ibench, as the
-- Insert Benchmark reports it: its throughput (inserts per second for the
-- load steps, queries per second for the query steps, rows indexed per
-- second for l.x), the inserts' achieved rate against the target in the
-- query steps, the tables' sizes after it, WAL and checkpoints over it,
-- and the server's reads, writes and CPU per insert or per query.
--
CREATE VIEW bench.ibench_steps AS
SELECT s.id AS suite_id, e.i::integer AS step_no, e.s ->> 'step' AS step, r.id AS run_id,
       COALESCE(r.status, 'planned') AS status, r.clients, r.measured_s,
       x.inserts,
       x.inserts / NULLIF(r.measured_s, 0) AS inserts_per_s,
       (e.s ->> 'target_inserts_per_s')::double precision AS target_inserts_per_s,
       x.queries,
       x.queries / NULLIF(r.measured_s, 0) AS queries_per_s,
       CASE WHEN e.s ->> 'step' LIKE 'q%' THEN x.queries / NULLIF(r.measured_s, 0)
            WHEN e.s ->> 'step' = 'l.x' THEN x.indexed / NULLIF(r.measured_s, 0)
            ELSE x.inserts / NULLIF(r.measured_s, 0) END AS throughput,
       sz.table_bytes, sz.index_bytes, sz.total_bytes,
       c.wal_bytes, c.wal_bytes::double precision / NULLIF(x.inserts, 0) AS wal_bytes_per_insert,
       c.checkpoints_timed, c.checkpoints_requested,
       c.buffers_checkpoint, c.buffers_clean, c.buffers_backend,
       io.kb_read, io.kb_written,
       -- per insert in the load steps, per query in the query steps (where
       -- the server's work is both: the benchmark reports it per query)
       io.kb_read / NULLIF(x.inserts, 0) * x.load AS kb_read_per_insert,
       io.kb_written / NULLIF(x.inserts, 0) * x.load AS kb_written_per_insert,
       io.kb_read / NULLIF(x.queries, 0) AS kb_read_per_query,
       io.kb_written / NULLIF(x.queries, 0) AS kb_written_per_query,
       c.server_cpu_s * 1e6 / NULLIF(x.inserts, 0) * x.load AS cpu_us_per_insert,
       c.server_cpu_s * 1e6 / NULLIF(x.queries, 0) AS cpu_us_per_query
  FROM bench.suites s
 CROSS JOIN LATERAL jsonb_array_elements(s.steps) WITH ORDINALITY AS e(s, i)
  LEFT JOIN bench.runs r ON r.suite_id = s.id AND r.step = e.s ->> 'step'
  LEFT JOIN bench.run_counters c ON c.run_id = r.id
 CROSS JOIN LATERAL (
       -- inserts: the insert scripts' transactions times their rows per
       -- commit; queries: the query group's transactions
       SELECT CASE WHEN e.s ->> 'step' LIKE 'q%'
                   THEN (SELECT g.transactions FROM bench.run_groups g
                          WHERE g.run_id = r.id AND g.name = 'insert')
                   WHEN e.s ->> 'step' = 'l.x' THEN NULL
                   ELSE r.transactions END * (e.s ->> 'rows_per_commit')::bigint AS inserts,
              CASE WHEN e.s ->> 'step' LIKE 'q%'
                   THEN (SELECT g.transactions FROM bench.run_groups g
                          WHERE g.run_id = r.id AND g.name = 'query') END AS queries,
              CASE WHEN e.s ->> 'step' LIKE 'q%' THEN NULL ELSE 1 END AS load,
              -- l.x indexes the rows l.i0 loaded
              CASE WHEN e.s ->> 'step' = 'l.x'
                   THEN (SELECT sum((p.st ->> 'rows')::bigint) FROM jsonb_array_elements(s.steps) AS p(st)
                          WHERE p.st ->> 'step' = 'l.i0') END AS indexed) x
 CROSS JOIN LATERAL (
       -- the tables after the step: heap (with toast), indexes, total
       SELECT sum(rs.main_bytes + COALESCE(rs.toast_bytes, 0)) AS table_bytes,
              sum(rs.indexes_bytes) AS index_bytes, sum(rs.total_bytes) AS total_bytes
         FROM bench.relation_sizes rs
        WHERE rs.run_id = r.id AND rs.phase = 'after' AND rs.kind = 'table') sz
 CROSS JOIN LATERAL (
       -- the server's reads and writes of blocks: pg_stat_io's where it has
       -- them (PostgreSQL 16 and later), else blocks read (pg_stat_database)
       -- and buffers written by the checkpointer, the background writer
       -- and backends (pg_stat_bgwriter)
       SELECT COALESCE(c.io_reads, c.blks_read) * current_setting('block_size')::numeric / 1024 AS kb_read,
              COALESCE(c.io_writes, c.buffers_checkpoint + c.buffers_clean + c.buffers_backend)
                * current_setting('block_size')::numeric / 1024 AS kb_written) io
 WHERE s.steps IS NOT NULL;

COMMENT ON VIEW bench.ibench_steps IS
    'Each step of each bench.ibench suite as the Insert Benchmark reports it: throughput, inserts and queries per second, the insert rate against its target, sizes after the step, WAL, checkpoints, KB read and written and CPU per insert or query';
GRANT SELECT ON bench.ibench_steps TO PUBLIC;

-- read as the role that queries it, as the other views of runs (09-privileges)
DO $do$
BEGIN
    IF pg_catalog.current_setting('server_version_num')::integer >= 150000 THEN
        ALTER VIEW bench.ibench_steps SET (security_invoker = true);
    ELSE
        REVOKE SELECT ON bench.ibench_steps FROM PUBLIC;
        GRANT SELECT ON bench.ibench_steps TO pgbenchkit_admin;
    END IF;
END
$do$;

--
-- bench.ibench and bench.start_ibench: the benchmark as one suite.
--
CREATE FUNCTION bench.ibench(rows bigint DEFAULT 1000000,
                             steps text[] DEFAULT '{l.i0,l.x,l.i1,l.i2,qr100,qp100,qr500,qp500,qr1000,qp1000}',
                             insert_clients integer DEFAULT 1,
                             query_clients integer DEFAULT NULL,
                             tables integer DEFAULT NULL,
                             secondary_indexes integer DEFAULT 3,
                             duration interval DEFAULT '5 min',
                             options jsonb DEFAULT '{}',
                             tag text DEFAULT NULL,
                             target text DEFAULT NULL,
                             progress interval DEFAULT '1 s',
                             search_path text DEFAULT pg_catalog.current_setting('search_path'))
RETURNS SETOF bench.ibench_steps
LANGUAGE plpgsql VOLATILE
-- search_path pinned as every function's; the caller's (search_path, the
-- default evaluated in the caller's query) finds the dataset and is the
-- one the steps run with, as bench.run's
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    id bigint;
BEGIN
    id := bench._steps(bench._ibench_spec(rows, steps, insert_clients, query_clients, tables,
                                          secondary_indexes, duration, options, tag, target, progress,
                                          search_path),
                       true);
    RETURN QUERY SELECT * FROM bench.ibench_steps v WHERE v.suite_id OPERATOR(pg_catalog.=) id
                  ORDER BY v.step_no;
END
$fn$;

COMMENT ON FUNCTION bench.ibench(bigint, text[], integer, integer, integer, integer, interval, jsonb, text, text, interval, text) IS
    'The Insert Benchmark as one suite: its steps (l.i0, l.x, l.i1, l.i2, qr100 ... qp1000) one run each, on this server or a target; waits, and returns each step as bench.ibench_steps shows it';

CREATE FUNCTION bench.start_ibench(rows bigint DEFAULT 1000000,
                                   steps text[] DEFAULT '{l.i0,l.x,l.i1,l.i2,qr100,qp100,qr500,qp500,qr1000,qp1000}',
                                   insert_clients integer DEFAULT 1,
                                   query_clients integer DEFAULT NULL,
                                   tables integer DEFAULT NULL,
                                   secondary_indexes integer DEFAULT 3,
                                   duration interval DEFAULT '5 min',
                                   options jsonb DEFAULT '{}',
                                   tag text DEFAULT NULL,
                                   target text DEFAULT NULL,
                                   progress interval DEFAULT '1 s',
                                   search_path text DEFAULT pg_catalog.current_setting('search_path'))
RETURNS bigint
LANGUAGE plpgsql VOLATILE
-- search_path pinned: as bench.ibench
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN bench._steps(bench._ibench_spec(rows, steps, insert_clients, query_clients, tables,
                                           secondary_indexes, duration, options, tag, target, progress,
                                           search_path),
                        false);
END
$fn$;

COMMENT ON FUNCTION bench.start_ibench(bigint, text[], integer, integer, integer, integer, interval, jsonb, text, text, interval, text) IS
    'bench.ibench without waiting: the suite''s id once it has started (bench.wait_suite waits for it)';

REVOKE ALL ON FUNCTION bench.ibench(bigint, text[], integer, integer, integer, integer, interval, jsonb, text, text, interval, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.start_ibench(bigint, text[], integer, integer, integer, integer, interval, jsonb, text, text, interval, text) FROM PUBLIC;
