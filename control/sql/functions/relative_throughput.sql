--
-- bench.relative_throughput: for the base and each of the others (all
-- runs, or all suites), per step of the base, the throughput and its ratio
-- to the base's.  A suite's steps are its client counts (with its
-- workload), in the order the suite lists them; its throughput at a step is
-- the median over its finished runs there.  A suite of bench.ibench has
-- its named steps (l.i0 ... qp1000), their throughput as bench.ibench_steps
-- has it.  A run is one step: its
-- workload at its client count.  A step the base has and another lacks is
-- NULL there; a step only another has is not shown (the base decides the
-- columns).  TPC-C runs and suites have their NOPM beside (bench.tpcc_results'
-- nopm: new orders committed per minute, a suite's the median over its
-- finished runs at a step), read against the base's NOPM; it is NULL
-- where a side has no new orders (bench._tpcc_rates reads them run by
-- run).  A row's label is the run's or suite's tag and id, with its node
-- when it has one (a fleet's central database holds many nodes' runs):
-- "pg18 (run 1099511627777 @ aws-1)".
--
CREATE OR REPLACE FUNCTION bench.relative_throughput(base bigint, others bigint[])
RETURNS TABLE (id bigint, kind text, label text, server_version text,
               step_no integer, step text, tps double precision,
               base_tps double precision, relative double precision,
               nopm double precision, base_nopm double precision, relative_nopm double precision)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_column
DECLARE
    base_id     bigint := relative_throughput.base;
    ids         bigint[];
    base_kind   text;
    k           text;
    st          text;
    one_wl      boolean;
BEGIN
    IF base_id IS NULL THEN
        RAISE EXCEPTION 'base must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the id of the run or suite the others are read against.';
    END IF;
    IF others IS NULL THEN
        RAISE EXCEPTION 'others must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the ids to read against the base, as in ARRAY[12, 15].';
    END IF;
    IF cardinality(others) = 0 THEN
        RAISE EXCEPTION 'others must list at least one run or suite'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give the ids to read against the base, as in ARRAY[12, 15].';
    END IF;
    IF array_ndims(others) > 1 THEN
        RAISE EXCEPTION 'others must be a one-dimensional array'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give the ids as ARRAY[12, 15].';
    END IF;
    IF cardinality(others) > 100 THEN
        RAISE EXCEPTION 'others may list at most 100 runs or suites, not %', cardinality(others)
            USING ERRCODE = 'program_limit_exceeded',
                  HINT = 'Read them against the base in groups of 100 or fewer.';
    END IF;
    IF array_position(others, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'others must not hold a null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the ids of runs or suites.';
    END IF;
    IF base_id = ANY (others) THEN
        RAISE EXCEPTION 'the base, %, is also among the others', base_id
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The base is read against itself anyway: its row is the first.';
    END IF;
    IF (SELECT count(DISTINCT o) FROM unnest(others) o) < cardinality(others) THEN
        RAISE EXCEPTION 'others lists an id twice'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give each run or suite once.';
    END IF;
    ids := base_id || others;

    -- run ids and suite ids come from one sequence: an id is one or the other
    FOR i IN 1 .. cardinality(ids) LOOP
        k := NULL;
        SELECT 'run', (bench._run_state(r)).status INTO k, st FROM bench.runs r WHERE r.id = ids[i];
        IF NOT FOUND THEN
            SELECT 'suite', (bench._suite_state(s)).status INTO k, st FROM bench.suites s WHERE s.id = ids[i];
        END IF;
        IF k IS NULL THEN
            RAISE EXCEPTION 'run or suite % does not exist', ids[i]
                USING ERRCODE = 'no_data_found',
                      HINT = 'bench.runs and bench.suites list the runs and suites there are.';
        END IF;
        IF i = 1 THEN
            base_kind := k;
        ELSIF k <> base_kind THEN
            RAISE EXCEPTION 'cannot read % % against % %', k, ids[i], base_kind, base_id
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'Read runs against a run, or suites against a suite.';
        END IF;
        IF st = 'running' THEN
            RAISE EXCEPTION '% % is still running', k, ids[i]
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      HINT = CASE WHEN k = 'run'
                                  THEN 'Wait for it to end (bench.wait) or cancel it (bench.cancel), then compare.'
                                  ELSE 'Wait for the suite to end (bench.wait_suite), then compare.' END;
        END IF;
    END LOOP;

    IF base_kind = 'run' THEN
        SELECT count(DISTINCT r.workload) = 1 INTO one_wl FROM bench.runs r WHERE r.id = ANY (ids);
        -- runs are read against the base whatever they ran: say so when
        -- that was something else
        IF (SELECT count(DISTINCT (r.workload, r.clients, r.driver, r.target)) > 1
                   OR count(DISTINCT r.node_name) > 1
              FROM bench.runs r WHERE r.id = ANY (ids)) THEN
            RAISE WARNING 'the runs differ in workload, clients, driver or target'
                USING DETAIL = 'Each run''s throughput is divided by the base''s all the same.',
                      HINT = 'bench.compare shows what differs between two runs.';
        END IF;
        RETURN QUERY
        WITH b AS (SELECT r.workload, r.clients, r.tps, (bench._tpcc_rates(r.id)).nopm
                     FROM bench.runs r WHERE r.id = base_id)
        SELECT r.id, 'run'::text,
               COALESCE(r.tag || ' (run ' || r.id || COALESCE(' @ ' || r.node_name, '') || ')',
                        'run ' || r.id || COALESCE(' @ ' || r.node_name, '')),
               r.server_version,
               1, CASE WHEN one_wl THEN '' ELSE b.workload || ', ' END
                  || b.clients || CASE WHEN b.clients = 1 THEN ' client' ELSE ' clients' END,
               r.tps, b.tps, r.tps / NULLIF(b.tps, 0),
               t.nopm, b.nopm, t.nopm / NULLIF(b.nopm, 0)
          FROM unnest(ids) WITH ORDINALITY AS i(id, pos)
          JOIN bench.runs r ON r.id = i.id
          LEFT JOIN LATERAL bench._tpcc_rates(r.id) t ON true
         CROSS JOIN b
         ORDER BY i.pos;
        RETURN;
    END IF;

    -- suites of steps (bench.ibench): the steps of the base by name, each
    -- step's throughput as bench.ibench_steps has it (inserts, queries or
    -- rows indexed per second)
    IF (SELECT count(*) FILTER (WHERE s.steps IS NOT NULL) FROM bench.suites s WHERE s.id = ANY (ids))
       NOT IN (0, cardinality(ids)) THEN
        RAISE EXCEPTION 'cannot read sweeps and suites of steps against each other'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Read sweeps against a sweep, and suites of bench.ibench against one of them.';
    END IF;
    IF (SELECT s.steps IS NOT NULL FROM bench.suites s WHERE s.id = base_id) THEN
        RETURN QUERY
        WITH bs AS (SELECT v.step_no, v.step, v.throughput FROM bench.ibench_steps v
                     WHERE v.suite_id = base_id AND v.status = 'done')
        SELECT s.id, 'suite'::text,
               COALESCE(s.tag || ' (suite ' || s.id || COALESCE(' @ ' || s.node_name, '') || ')',
                        'suite ' || s.id || COALESCE(' @ ' || s.node_name, '')),
               s.server_version, (row_number() OVER (PARTITION BY s.id ORDER BY bs.step_no))::integer,
               bs.step, v.throughput, bs.throughput, v.throughput / NULLIF(bs.throughput, 0),
               NULL::float8, NULL::float8, NULL::float8
          FROM unnest(ids) WITH ORDINALITY AS i(id, pos)
          JOIN bench.suites s ON s.id = i.id
         CROSS JOIN bs
          LEFT JOIN bench.ibench_steps v ON v.suite_id = s.id AND v.step = bs.step AND v.status = 'done'
         ORDER BY i.pos, bs.step_no;
        RETURN;
    END IF;

    -- suites: the steps of the base, each suite's median there
    SELECT count(DISTINCT s.workload) = 1 INTO one_wl FROM bench.suites s WHERE s.id = ANY (ids);
    RETURN QUERY
    WITH steps AS (
        SELECT DISTINCT ON (c.clients) c.clients, bs.workload, c.pos
          FROM bench.suites bs
         CROSS JOIN LATERAL unnest(bs.clients) WITH ORDINALITY AS c(clients, pos)
         WHERE bs.id = base_id
         ORDER BY c.clients, c.pos),
    numbered AS (
        SELECT st.*, (row_number() OVER (ORDER BY st.pos))::integer AS step_no FROM steps st),
    medians AS (
        SELECT s.id AS suite_id, n.step_no,
               (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY r.tps)
                  FROM bench.runs r
                 WHERE r.suite_id = s.id AND r.clients = n.clients AND r.workload = n.workload
                   AND (bench._run_state(r)).status = 'done') AS tps,
               (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY t.nopm)
                  FROM bench.runs r
                 CROSS JOIN LATERAL bench._tpcc_rates(r.id) t
                 WHERE r.suite_id = s.id AND r.clients = n.clients AND r.workload = n.workload
                   AND (bench._run_state(r)).status = 'done') AS nopm
          FROM bench.suites s CROSS JOIN numbered n
         WHERE s.id = ANY (ids))
    SELECT s.id, 'suite'::text,
           COALESCE(s.tag || ' (suite ' || s.id || COALESCE(' @ ' || s.node_name, '') || ')',
                    'suite ' || s.id || COALESCE(' @ ' || s.node_name, '')),
           s.server_version,
           n.step_no, CASE WHEN one_wl THEN '' ELSE n.workload || ', ' END
                      || n.clients || CASE WHEN n.clients = 1 THEN ' client' ELSE ' clients' END,
           m.tps, mb.tps, m.tps / NULLIF(mb.tps, 0),
           m.nopm, mb.nopm, m.nopm / NULLIF(mb.nopm, 0)
      FROM unnest(ids) WITH ORDINALITY AS i(id, pos)
      JOIN bench.suites s ON s.id = i.id
     CROSS JOIN numbered n
      JOIN medians m ON m.suite_id = s.id AND m.step_no = n.step_no
      JOIN medians mb ON mb.suite_id = base_id AND mb.step_no = n.step_no
     ORDER BY i.pos, n.step_no;
END
$fn$;

COMMENT ON FUNCTION bench.relative_throughput(bigint, bigint[]) IS
    'Runs or suites against a base: per step (client count, or a bench.ibench suite''s named steps), throughput and its ratio to the base''s (and NOPM, for TPC-C)';
GRANT EXECUTE ON FUNCTION bench.relative_throughput(bigint, bigint[]) TO PUBLIC;
