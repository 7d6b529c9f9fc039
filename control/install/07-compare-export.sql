--
-- Comparisons and export
--
--
-- Comparing runs and suites, and moving them between servers.
--

--
-- bench.compare: two runs, or two suites, side by side with a verdict.
--
-- First what differs between them (so that nobody compares apples with
-- pears unknowingly), then every metric with its change, an estimate of
-- the noise and a verdict at the threshold.  The noise rules:
--
--   suites, per client count, with two or more finished runs on at least
--   one side: the metric is the median over the runs; noise is the larger
--   relative half-range, (max - min) / 2 / median, of the two sides; the
--   verdict is an improvement or a regression only when the change is over
--   the threshold and the two sides' [min, max] ranges do not overlap.
--
--   single runs (or a client count with one finished run on each side):
--   noise = sqrt((cv_a^2 + cv_b^2) / 2), cv being the coefficient of
--   variation (stddev / mean) of the run's per-interval series: the
--   progress rows out of the warm-up for tps, latency average (also for
--   p50 and p95) and p99; the samples during the run for WAL (from the
--   insert position), FPI and blocks read per transaction.  The verdict is
--   an improvement or a regression only when the change is over
--   max(threshold, 3 * noise).  A series of fewer than 3 points gives no
--   noise (NULL): the threshold alone decides.  A series that is 0
--   throughout has a cv of 0.
--
--   checkpoints are counts: within noise when they differ by at most 1.
--   A change from 0 counts as 100%.  A metric unknown on either side has
--   no verdict (NULL).
--
--   runs of different workloads or scripts (a workload redefined between
--   them) did different work: every metric is 'not comparable', after a
--   warning, as loud as that of different drivers or targets.
--
CREATE FUNCTION bench.compare(a bigint, b bigint, threshold double precision DEFAULT 0.05)
RETURNS TABLE (section text, metric text, clients integer, a_value text, b_value text,
               ratio double precision, change_pct double precision,
               noise_pct double precision, verdict text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_column
DECLARE
    id_a        bigint := compare.a;
    id_b        bigint := compare.b;
    kind_a      text;
    kind_b      text;
    status_a    text;
    status_b    text;
    is_suite    boolean;
    comparable  boolean;
    run_clients integer;
    differing   bigint;
    -- the notable settings every run records, those that matter most for
    -- performance first; the other settings come after them, by name
    notable     text[] := ARRAY['wal_level', 'shared_buffers', 'max_wal_size', 'min_wal_size',
                                'checkpoint_timeout', 'checkpoint_completion_target',
                                'synchronous_commit', 'wal_compression', 'wal_buffers',
                                'data_checksums', 'huge_pages', 'huge_pages_status', 'fsync',
                                'full_page_writes', 'io_method', 'effective_io_concurrency',
                                'work_mem', 'max_connections', 'autovacuum', 'block_size',
                                'wal_segment_size'];
    -- the host facts that describe the machine (not the free disk space,
    -- which changes with every run)
    host_keys   text[] := ARRAY['cpus', 'cpu_model', 'memory_bytes', 'kernel', 'machine',
                                'data_directory_fs_bytes'];
BEGIN
    IF id_a IS NULL OR id_b IS NULL THEN
        RAISE EXCEPTION 'a and b must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the ids of two runs (bench.runs) or of two suites (bench.suites).';
    END IF;
    IF threshold IS NULL THEN
        RAISE EXCEPTION 'threshold must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'The threshold is a fraction: 0.05, the default, means a change of 5%.';
    END IF;
    IF NOT (threshold > 0 AND threshold < 1) THEN
        RAISE EXCEPTION 'threshold must be between 0 and 1, not %', threshold
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The threshold is a fraction: 0.05, the default, means a change of 5%.';
    END IF;

    -- run ids and suite ids come from one sequence: an id is one or the other
    SELECT 'run', (bench._run_state(r)).status INTO kind_a, status_a FROM bench.runs r WHERE r.id = id_a;
    IF NOT FOUND THEN
        SELECT 'suite', s.status INTO kind_a, status_a FROM bench.suites s WHERE s.id = id_a;
    END IF;
    IF kind_a IS NULL THEN
        RAISE EXCEPTION 'run or suite % does not exist', id_a
            USING ERRCODE = 'no_data_found',
                  HINT = 'bench.runs and bench.suites list the runs and suites there are.';
    END IF;
    IF id_a = id_b THEN
        RAISE EXCEPTION 'cannot compare % % with itself', kind_a, id_a
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give two different runs, or two different suites.';
    END IF;
    SELECT 'run', (bench._run_state(r)).status INTO kind_b, status_b FROM bench.runs r WHERE r.id = id_b;
    IF NOT FOUND THEN
        SELECT 'suite', s.status INTO kind_b, status_b FROM bench.suites s WHERE s.id = id_b;
    END IF;
    IF kind_b IS NULL THEN
        RAISE EXCEPTION 'run or suite % does not exist', id_b
            USING ERRCODE = 'no_data_found',
                  HINT = 'bench.runs and bench.suites list the runs and suites there are.';
    END IF;
    IF kind_a <> kind_b THEN
        RAISE EXCEPTION 'cannot compare % % with % %', kind_a, id_a, kind_b, id_b
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Compare two runs, or two suites; the runs of a suite are the rows of bench.runs with its suite_id.';
    END IF;
    IF status_a = 'running' OR status_b = 'running' THEN
        RAISE EXCEPTION '% % is still running', kind_a, CASE WHEN status_a = 'running' THEN id_a ELSE id_b END
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = CASE WHEN kind_a = 'run'
                              THEN 'Wait for it to end (bench.wait) or cancel it (bench.cancel), then compare.'
                              ELSE 'Wait for the suite to end, then compare.' END;
    END IF;
    is_suite := kind_a = 'suite';
    -- runs by different drivers or against different targets measure
    -- different things (the network, the client): say so before the rows
    IF (SELECT count(DISTINCT (r.driver, r.target)) > 1
          FROM bench.runs r
         WHERE CASE WHEN is_suite THEN r.suite_id IN (id_a, id_b) ELSE r.id IN (id_a, id_b) END) THEN
        RAISE WARNING 'comparing runs of different drivers or targets'
            USING DETAIL = 'The rows "driver" and "target" show which; throughput and latency then include different networks and clients.',
                  HINT = 'Compare runs against the same target, or read the change as that of the whole path.';
    END IF;
    -- runs of different scripts (different workloads, or one workload
    -- redefined between them) do different work: their figures are shown,
    -- but judged 'not comparable'.  The scripts a run recorded decide
    -- (runs of two names with the same scripts do the same work); a run
    -- that recorded none is known by its workload's name only
    comparable := (SELECT count(DISTINCT k.scripts) <= 1
                          AND (bool_and(k.scripts IS NOT NULL) OR count(DISTINCT k.workload) <= 1)
                     FROM (SELECT r.workload,
                                  (SELECT md5(string_agg(x.weight || ':' || x.script, E'\x01'
                                                         ORDER BY x.script_no))
                                     FROM bench.run_scripts x WHERE x.run_id = r.id) AS scripts
                             FROM bench.runs r
                            WHERE CASE WHEN is_suite THEN r.suite_id IN (id_a, id_b)
                                       ELSE r.id IN (id_a, id_b) END) k);
    IF NOT comparable THEN
        RAISE WARNING 'comparing runs of different workloads or scripts'
            USING DETAIL = 'The rows "workload" and "scripts" show which; the runs did different work, so no metric is judged (verdict "not comparable").',
                  HINT = 'Compare runs of the same workload and scripts.';
    END IF;
    IF NOT is_suite THEN
        -- two runs: their client count, if it is the same
        SELECT CASE WHEN min(r.clients) = max(r.clients) THEN min(r.clients) END INTO run_clients
          FROM bench.runs r WHERE r.id IN (id_a, id_b);
    END IF;

    --
    -- What differs: a run that did not end 'done' (it may be compared, but
    -- measured less than it should have), the parameters, the server's
    -- version and settings, the host.  For a suite, each value is that of
    -- its runs; runs of one suite that disagree show as 'mixed: ...'.
    --
    IF status_a <> 'done' OR status_b <> 'done' THEN
        RETURN QUERY SELECT 'parameter'::text, 'status'::text, NULL::integer, status_a, status_b,
                            NULL::float8, NULL::float8, NULL::float8,
                            CASE WHEN status_a <> status_b THEN 'differs' ELSE 'not done' END;
    END IF;

    RETURN QUERY
    WITH side (side, id) AS (
        VALUES ('a', id_a), ('b', id_b)
    ), rs AS (
        -- the runs of each side: the run itself, or every run of the suite
        SELECT side.side, r.*
          FROM side
          JOIN bench.runs r0 ON CASE WHEN is_suite THEN r0.suite_id = side.id ELSE r0.id = side.id END
         CROSS JOIN LATERAL bench._run_state(r0) r
    ), setting_names AS (
        SELECT DISTINCT k.key AS name
          FROM rs, jsonb_object_keys(rs.settings) AS k (key)
         WHERE k.key NOT IN ('server_version', 'server_version_num')
    ), vals (side, ord, sub, name, value) AS (
        -- the run's parameters, in the order of bench.run's arguments
        SELECT rs.side, 1, p.ord, p.name, p.value
          FROM rs CROSS JOIN LATERAL (VALUES
               (1, 'workload', rs.workload),
               (2, 'scale', rs.scale::text),
               (3, 'clients', rs.clients::text),
               (4, 'duration', rs.duration::text),
               (5, 'transactions_per_client', rs.transactions_per_client::text),
               (6, 'protocol', rs.protocol),
               (7, 'warmup', rs.warmup::text),
               (8, 'max_tries', rs.max_tries::text),
               (9, 'prewarm', rs.prewarm::text),
               (10, 'rate', rs.rate::text),
               (11, 'latency_limit', rs.latency_limit::text),
               (12, 'variables', rs.variables::text),
               (14, 'driver', rs.driver),
               (15, 'target', rs.target),
               (16, 'target_host', rs.target_host),
               (17, 'jobs', rs.jobs::text),
               (18, 'connect', rs.connect),
               -- the scripts themselves (a workload may have been redefined)
               (13, 'scripts', (SELECT format('%s script%s, md5 %s', count(*),
                                             CASE WHEN count(*) = 1 THEN '' ELSE 's' END,
                                             left(md5(string_agg(x.weight || ':' || x.script, E'\x01'
                                                                 ORDER BY x.script_no)), 12))
                                  FROM bench.run_scripts x WHERE x.run_id = rs.id))) AS p (ord, name, value)
         WHERE NOT (is_suite AND p.name IN ('workload', 'clients'))
        UNION ALL
        SELECT rs.side, 2, 0, 'server_version', rs.server_version FROM rs
        UNION ALL
        -- every setting recorded on either side (absent: NULL)
        SELECT rs.side, 3, COALESCE(array_position(notable, n.name), 1000), n.name, rs.settings->>n.name
          FROM rs CROSS JOIN setting_names n
        UNION ALL
        SELECT rs.side, 4, h.ord::integer, 'host ' || h.key, rs.host->>h.key
          FROM rs CROSS JOIN unnest(host_keys) WITH ORDINALITY AS h (key, ord)
    ), suite_vals (side, ord, sub, name, value) AS (
        -- a suite's own parameters
        SELECT side.side, 0, p.ord, p.name, p.value
          FROM side
          JOIN bench.suites s ON s.id = side.id
         CROSS JOIN LATERAL (VALUES
               (1, 'workload', s.workload),
               (2, 'clients', s.clients::text),
               (3, 'repeat', s.repeat::text),
               (4, 'run_order', s.run_order),
               (5, 'runs_done', format('%s of %s',
                    (SELECT count(*) FROM bench.runs r WHERE r.suite_id = s.id AND r.status = 'done'),
                    s.runs_planned))) AS p (ord, name, value)
         WHERE is_suite
    ), agg AS (
        SELECT v.side, v.ord, v.sub, v.name,
               CASE WHEN count(DISTINCT COALESCE(v.value, E'\x01')) > 1
                    THEN 'mixed: ' || array_to_string(array_agg(DISTINCT v.value), ', ', '(none)')
                    ELSE max(v.value) END AS value,
               count(DISTINCT COALESCE(v.value, E'\x01')) > 1 AS mixed
          FROM vals v
         GROUP BY v.side, v.ord, v.sub, v.name
        UNION ALL
        SELECT v.side, v.ord, v.sub, v.name, v.value, false FROM suite_vals v
    ), pairs AS (
        SELECT COALESCE(x.ord, y.ord) AS ord, COALESCE(x.sub, y.sub) AS sub,
               COALESCE(x.name, y.name) AS name, x.value AS va, y.value AS vb,
               COALESCE(x.mixed, false) OR COALESCE(y.mixed, false) AS mixed
          FROM (SELECT * FROM agg WHERE agg.side = 'a') x
          FULL JOIN (SELECT * FROM agg WHERE agg.side = 'b') y USING (ord, sub, name)
    )
    SELECT 'parameter'::text, p.name, NULL::integer, p.va, p.vb,
           NULL::float8, NULL::float8, NULL::float8,
           CASE WHEN p.va IS DISTINCT FROM p.vb THEN 'differs' ELSE 'mixed' END
      FROM pairs p
     WHERE p.va IS DISTINCT FROM p.vb OR p.mixed
     ORDER BY p.ord, p.sub, p.name;
    GET DIAGNOSTICS differing = ROW_COUNT;
    IF differing = 0 THEN
        RETURN QUERY SELECT 'parameter'::text, 'none differ'::text, NULL::integer, NULL::text, NULL::text,
                            NULL::float8, NULL::float8, NULL::float8, NULL::text;
    END IF;

    --
    -- The metrics, per client count for suites.
    --
    RETURN QUERY
    WITH side (side, id) AS (
        VALUES ('a', id_a), ('b', id_b)
    ), ms (ord, metric, higher) AS (
        -- each metric and whether more is better
        VALUES (1, 'tps', true),
               (2, 'latency_avg_ms', false),
               (3, 'latency_p50_ms', false),
               (4, 'latency_p95_ms', false),
               (5, 'latency_p99_ms', false),
               (6, 'wal_bytes_per_tx', false),
               (7, 'wal_fpi_per_tx', false),
               (8, 'checkpoints', false),
               (9, 'blks_read_per_tx', false)
    ), rs AS (
        -- the runs that count: the run itself, or the finished runs of the suite
        SELECT side.side, r.id, r.clients, r.tps, r.latency_avg_ms, r.latency_p50_ms,
               r.latency_p95_ms, r.latency_p99_ms
          FROM side
          JOIN bench.runs r0 ON CASE WHEN is_suite THEN r0.suite_id = side.id AND r0.status = 'done'
                                     ELSE r0.id = side.id END
         CROSS JOIN LATERAL bench._run_state(r0) r
    ), mv AS (
        SELECT rs.side, rs.id AS run_id, COALESCE(CASE WHEN is_suite THEN rs.clients ELSE run_clients END, 0) AS k,
               m.metric, m.value
          FROM rs
          LEFT JOIN bench.run_counters c ON c.run_id = rs.id
         CROSS JOIN LATERAL (VALUES
               ('tps', rs.tps),
               ('latency_avg_ms', rs.latency_avg_ms),
               ('latency_p50_ms', rs.latency_p50_ms),
               ('latency_p95_ms', rs.latency_p95_ms),
               ('latency_p99_ms', rs.latency_p99_ms),
               ('wal_bytes_per_tx', (c.wal_bytes / NULLIF(c.transactions, 0))::float8),
               ('wal_fpi_per_tx', (c.wal_fpi::numeric / NULLIF(c.transactions, 0))::float8),
               ('checkpoints', (c.checkpoints_timed + c.checkpoints_requested)::float8),
               ('blks_read_per_tx', (c.blks_read::numeric / NULLIF(c.transactions, 0))::float8))
               AS m (metric, value)
    ), agg AS (
        SELECT mv.side, mv.k, mv.metric,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY mv.value) AS value,
               min(mv.value) AS lo, max(mv.value) AS hi,
               count(mv.value) AS n,
               min(mv.run_id) FILTER (WHERE mv.value IS NOT NULL) AS run_id
          FROM mv
         GROUP BY mv.side, mv.k, mv.metric
    ), keys (k) AS (
        SELECT mv.k FROM mv
        UNION
        SELECT c.c FROM bench.suites s, unnest(s.clients) AS c (c)
         WHERE is_suite AND s.id IN (id_a, id_b)
        UNION
        SELECT COALESCE(run_clients, 0) WHERE NOT is_suite
    ), single AS (
        -- the runs whose series give the noise: where each side has one
        SELECT x.run_id FROM agg x JOIN agg y ON y.k = x.k AND y.metric = x.metric AND y.side <> x.side
         WHERE x.n = 1 AND y.n = 1
    ), series (run_id, metric, v) AS (
        -- per progress interval, out of the warm-up, leaving out a last
        -- interval shorter than half the others
        SELECT p.run_id, s.metric, s.v
          FROM bench.progress p
          JOIN bench.runs r ON r.id = p.run_id
         CROSS JOIN LATERAL (VALUES
               ('tps', p.tps),
               ('latency_avg_ms', p.latency_avg_ms),
               ('latency_p50_ms', p.latency_avg_ms),
               ('latency_p95_ms', p.latency_avg_ms),
               ('latency_p99_ms', p.latency_p99_ms)) AS s (metric, v)
         WHERE p.run_id IN (SELECT single.run_id FROM single)
           AND NOT p.in_warmup
           AND extract(epoch FROM p.interval_end - p.interval_start)
               >= 0.5 * extract(epoch FROM r.progress)
        UNION ALL
        -- per sample interval while the clients ran.  WAL per transaction
        -- comes from the insert position here: pg_stat_wal's counters
        -- reach a sample up to a second late, its per-interval series
        -- would be noise of the sampling, not of the run
        SELECT i.run_id, s.metric, s.v
          FROM bench.interval_counters i
          JOIN bench.runs r ON r.id = i.run_id
         CROSS JOIN LATERAL (VALUES
               ('wal_bytes_per_tx', (i.wal_generated_bytes / i.transactions)::float8),
               ('wal_fpi_per_tx', (i.wal_fpi::numeric / i.transactions)::float8),
               ('blks_read_per_tx', (i.blks_read::numeric / i.transactions)::float8)) AS s (metric, v)
         WHERE i.run_id IN (SELECT single.run_id FROM single)
           AND i.phase = 'during' AND i.transactions > 0
           AND i.elapsed_s > extract(epoch FROM r.warmup)
    ), cv AS (
        SELECT series.run_id, series.metric,
               -- a series that is 0 throughout (no FPI, no block read) does
               -- not vary: its cv is 0
               CASE WHEN count(series.v) < 3 THEN NULL
                    WHEN avg(series.v) = 0 THEN 0
                    ELSE stddev_samp(series.v) / abs(avg(series.v)) END AS cv
          FROM series
         GROUP BY series.run_id, series.metric
    ), cmp AS (
        SELECT m.ord, m.metric, m.higher, keys.k,
               x.value AS va, y.value AS vb, x.lo AS lo_a, x.hi AS hi_a, y.lo AS lo_b, y.hi AS hi_b,
               x.n AS n_a, y.n AS n_b,
               x.n >= 1 AND y.n >= 1 AND (x.n >= 2 OR y.n >= 2) AS by_range,
               CASE WHEN m.metric = 'checkpoints' THEN NULL
                    WHEN x.n >= 2 OR y.n >= 2
                    THEN GREATEST((x.hi - x.lo) / 2 / NULLIF(abs(x.value), 0),
                                  (y.hi - y.lo) / 2 / NULLIF(abs(y.value), 0))
                    ELSE sqrt((cx.cv ^ 2 + cy.cv ^ 2) / 2) END AS noise,
               -- from 0 to anything, the change counts as 100%
               CASE WHEN x.value = 0 THEN 1
                    ELSE abs(y.value / x.value - 1) END AS change
          FROM keys CROSS JOIN ms m
          LEFT JOIN agg x ON x.side = 'a' AND x.k = keys.k AND x.metric = m.metric
          LEFT JOIN agg y ON y.side = 'b' AND y.k = keys.k AND y.metric = m.metric
          LEFT JOIN cv cx ON cx.run_id = x.run_id AND cx.metric = m.metric AND x.n = 1
          LEFT JOIN cv cy ON cy.run_id = y.run_id AND cy.metric = m.metric AND y.n = 1
    )
    SELECT 'metric'::text, c.metric,
           CASE WHEN is_suite THEN c.k ELSE run_clients END,
           fa.t, fb.t,
           c.vb / NULLIF(c.va, 0),
           (c.vb / NULLIF(c.va, 0) - 1) * 100,
           c.noise * 100,
           CASE WHEN c.va IS NULL OR c.vb IS NULL THEN NULL
                WHEN NOT comparable THEN 'not comparable'
                WHEN c.metric = 'checkpoints'
                THEN CASE WHEN abs(c.vb - c.va) <= 1 THEN 'within noise'
                          WHEN c.vb < c.va THEN 'improvement' ELSE 'regression' END
                WHEN c.va = c.vb THEN 'within noise'
                WHEN c.by_range AND NOT (c.change > threshold AND (c.hi_a < c.lo_b OR c.hi_b < c.lo_a))
                THEN 'within noise'
                WHEN NOT c.by_range AND NOT c.change > GREATEST(threshold, 3 * COALESCE(c.noise, 0))
                THEN 'within noise'
                WHEN (c.vb > c.va) = c.higher THEN 'improvement'
                ELSE 'regression' END
      FROM cmp c
     -- figures as text: four significant digits, at least one decimal
     -- (none for counts of checkpoints); with repeats, the range after the
     -- median
     CROSS JOIN LATERAL (
           SELECT string_agg(CASE WHEN f.v = 0 THEN '0'
                                  WHEN c.metric = 'checkpoints' AND f.v = trunc(f.v) THEN f.v::bigint::text
                                  ELSE round(f.v::numeric, GREATEST(1, 3 - floor(log(abs(f.v::numeric)))::integer))::text
                             END, ', ' ORDER BY f.i) AS t
             FROM unnest(ARRAY[c.va, c.lo_a, c.hi_a]) WITH ORDINALITY AS f (v, i)
            WHERE f.i = 1 OR c.n_a >= 2) fa0
     CROSS JOIN LATERAL (
           SELECT string_agg(CASE WHEN f.v = 0 THEN '0'
                                  WHEN c.metric = 'checkpoints' AND f.v = trunc(f.v) THEN f.v::bigint::text
                                  ELSE round(f.v::numeric, GREATEST(1, 3 - floor(log(abs(f.v::numeric)))::integer))::text
                             END, ', ' ORDER BY f.i) AS t
             FROM unnest(ARRAY[c.vb, c.lo_b, c.hi_b]) WITH ORDINALITY AS f (v, i)
            WHERE f.i = 1 OR c.n_b >= 2) fb0
     CROSS JOIN LATERAL (SELECT regexp_replace(fa0.t, '^([^,]*), (.*)$', '\1 [\2]') AS t) fa
     CROSS JOIN LATERAL (SELECT regexp_replace(fb0.t, '^([^,]*), (.*)$', '\1 [\2]') AS t) fb
     ORDER BY c.ord, c.k;

    --
    -- Two runs with groups: each group's tps and latencies, the groups
    -- matched by name, its clients in the clients column; the noise from
    -- each group's own progress series, the verdict as for single runs.
    --
    IF is_suite THEN
        RETURN;
    END IF;
    RETURN QUERY
    WITH ms (ord, metric, higher) AS (
        VALUES (1, 'tps', true),
               (2, 'latency_avg_ms', false),
               (3, 'latency_p95_ms', false),
               (4, 'latency_p99_ms', false)
    ), gv AS (
        SELECT CASE g.run_id WHEN id_a THEN 'a' ELSE 'b' END AS side, g.run_id, g.group_no,
               g.name, g.clients, m.metric, m.value
          FROM bench.run_groups g
         CROSS JOIN LATERAL (VALUES
               ('tps', g.tps), ('latency_avg_ms', g.latency_avg_ms),
               ('latency_p95_ms', g.latency_p95_ms), ('latency_p99_ms', g.latency_p99_ms))
               AS m (metric, value)
         WHERE g.run_id IN (id_a, id_b)
    ), cv AS (
        SELECT p.run_id, p.group_no, s.metric,
               CASE WHEN count(s.v) < 3 THEN NULL
                    WHEN avg(s.v) = 0 THEN 0
                    ELSE stddev_samp(s.v) / abs(avg(s.v)) END AS cv
          FROM bench.group_progress p
          JOIN bench.runs r ON r.id = p.run_id
         CROSS JOIN LATERAL (VALUES
               ('tps', p.tps), ('latency_avg_ms', p.latency_avg_ms),
               ('latency_p95_ms', p.latency_avg_ms), ('latency_p99_ms', p.latency_p99_ms)) AS s (metric, v)
         WHERE p.run_id IN (id_a, id_b) AND NOT p.in_warmup
           AND extract(epoch FROM p.interval_end - p.interval_start)
               >= 0.5 * extract(epoch FROM r.progress)
         GROUP BY p.run_id, p.group_no, s.metric
    ), names AS (
        SELECT DISTINCT gv.name FROM gv
    ), cmp AS (
        SELECT m.ord, m.metric, m.higher, names.name,
               COALESCE(y.clients, x.clients) AS clients,
               x.value AS va, y.value AS vb,
               sqrt((cx.cv ^ 2 + cy.cv ^ 2) / 2) AS noise,
               CASE WHEN x.value = 0 THEN 1 ELSE abs(y.value / x.value - 1) END AS change
          FROM names CROSS JOIN ms m
          LEFT JOIN gv x ON x.side = 'a' AND x.name = names.name AND x.metric = m.metric
          LEFT JOIN gv y ON y.side = 'b' AND y.name = names.name AND y.metric = m.metric
          LEFT JOIN cv cx ON cx.run_id = x.run_id AND cx.group_no = x.group_no AND cx.metric = m.metric
          LEFT JOIN cv cy ON cy.run_id = y.run_id AND cy.group_no = y.group_no AND cy.metric = m.metric
    )
    SELECT 'group'::text, format('%s: %s', c.name, c.metric), c.clients,
           fa.t, fb.t,
           c.vb / NULLIF(c.va, 0),
           (c.vb / NULLIF(c.va, 0) - 1) * 100,
           c.noise * 100,
           CASE WHEN c.va IS NULL OR c.vb IS NULL THEN NULL
                WHEN NOT comparable THEN 'not comparable'
                WHEN c.va = c.vb THEN 'within noise'
                WHEN NOT c.change > GREATEST(threshold, 3 * COALESCE(c.noise, 0)) THEN 'within noise'
                WHEN (c.vb > c.va) = c.higher THEN 'improvement'
                ELSE 'regression' END
      FROM cmp c
     CROSS JOIN LATERAL (
           SELECT CASE WHEN c.va = 0 THEN '0'
                       ELSE round(c.va::numeric, GREATEST(1, 3 - floor(log(abs(c.va::numeric)))::integer))::text
                  END AS t) fa
     CROSS JOIN LATERAL (
           SELECT CASE WHEN c.vb = 0 THEN '0'
                       ELSE round(c.vb::numeric, GREATEST(1, 3 - floor(log(abs(c.vb::numeric)))::integer))::text
                  END AS t) fb
     ORDER BY c.name, c.ord;
END
$fn$;

COMMENT ON FUNCTION bench.compare(bigint, bigint, double precision) IS
    'Two runs or two suites side by side: what differs between them, then tps, latencies, WAL, FPI, checkpoints and blocks read per transaction with change, noise and verdict (improvement, regression, within noise; not comparable for runs of different workloads or scripts), then for runs with groups each group''s tps and latencies. Noise: suites with repeats, the larger relative half-range of the two sides, a verdict only when the ranges do not overlap; single runs and groups, sqrt((cv_a^2 + cv_b^2) / 2) of their per-interval series, a verdict only when the change is over max(threshold, 3 * noise)';

GRANT EXECUTE ON FUNCTION bench.compare(bigint, bigint, double precision) TO PUBLIC;

--
-- Export: flat views for CSV (\copy (SELECT * FROM bench.export_runs) TO
-- 'runs.csv' CSV HEADER), and whole runs or suites as jsonb for
-- bench.import on another server.
--

--
-- bench.export_runs: one row per run, scalar columns only.
--
CREATE VIEW bench.export_runs AS
SELECT r.id, r.suite_id, r.tag, r.workload, r.scale, r.clients, r.protocol,
       extract(epoch FROM r.duration)::double precision AS duration_s,
       r.transactions_per_client, r.status, r.server_version, r.started_at, r.ended_at,
       r.measured_s, r.transactions, r.tps,
       r.latency_avg_ms, r.latency_stddev_ms, r.latency_min_ms, r.latency_p50_ms,
       r.latency_p90_ms, r.latency_p95_ms, r.latency_p99_ms, r.latency_p999_ms, r.latency_max_ms,
       r.failures, r.retries,
       c.wal_bytes_per_tx, c.wal_fpi_per_tx,
       c.checkpoints_timed + c.checkpoints_requested AS checkpoints,
       c.blks_read_per_tx, c.cache_hit_ratio, c.server_cpu_ms_per_tx
  FROM bench.runs r0
 CROSS JOIN LATERAL bench._run_state(r0) r
  LEFT JOIN bench.run_counters c ON c.run_id = r.id
 ORDER BY r.id;

COMMENT ON VIEW bench.export_runs IS
    'One flat row per run for CSV export: parameters, status, summary, and WAL, FPI, checkpoints, blocks read and CPU per transaction';

--
-- bench.export_progress: the progress rows of every run.
--
CREATE VIEW bench.export_progress AS
SELECT p.run_id, p.elapsed_s, p.tps, p.latency_avg_ms, p.latency_stddev_ms,
       p.latency_p99_ms, p.latency_max_ms, p.failures, p.in_warmup
  FROM bench.progress p
 ORDER BY p.run_id, p.interval_start;

COMMENT ON VIEW bench.export_progress IS
    'The progress rows of every run for CSV export: seconds since the start, tps, latency, failures, warm-up';

--
-- bench.export_suites: per suite and client count, as bench.suite_summary.
--
CREATE VIEW bench.export_suites AS
SELECT m.suite_id, s.schedule, s.tag, s.workload, m.clients, m.runs_done, m.runs_planned,
       m.tps_median, m.tps_min, m.tps_max,
       m.latency_p95_ms_median, m.latency_p99_ms_median
  FROM bench.suite_summary m
  JOIN bench.suites s ON s.id = m.suite_id
 ORDER BY m.suite_id, m.position;

COMMENT ON VIEW bench.export_suites IS
    'Per suite and client count for CSV export: runs done of planned, median, min and max tps, median p95 and p99 latency';

GRANT SELECT ON bench.export_runs, bench.export_progress, bench.export_suites TO PUBLIC;

--
-- bench.export: a run or a suite with everything needed to compare it on
-- another server, as one jsonb document: the rows of bench.runs (every
-- column) and of the tables that belong to them, as to_jsonb writes them.
-- Floats are written with every digit and intervals in one style, so that
-- bench.import reads back exactly what was here.
--
CREATE FUNCTION bench.export(id bigint)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
SET extra_float_digits = 3
SET intervalstyle = 'postgres'
AS $fn$
#variable_conflict use_column
DECLARE
    the_id  bigint := export.id;
    kind    text;
    status  text;
    suite   jsonb;
    run_ids bigint[];
BEGIN
    IF the_id IS NULL THEN
        RAISE EXCEPTION 'id must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the id of a run (bench.runs) or of a suite (bench.suites).';
    END IF;
    SELECT 'run', (bench._run_state(r)).status INTO kind, status FROM bench.runs r WHERE r.id = the_id;
    IF NOT FOUND THEN
        SELECT 'suite', s.status, to_jsonb(s) INTO kind, status, suite FROM bench.suites s WHERE s.id = the_id;
    END IF;
    IF kind IS NULL THEN
        RAISE EXCEPTION 'run or suite % does not exist', the_id
            USING ERRCODE = 'no_data_found',
                  HINT = 'bench.runs and bench.suites list the runs and suites there are.';
    END IF;
    -- a run still running would arrive as one that never ends
    IF status = 'running' THEN
        RAISE EXCEPTION '% % is still running', kind, the_id
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = CASE WHEN kind = 'run'
                              THEN 'Wait for it to end (bench.wait) or cancel it (bench.cancel), then export it.'
                              ELSE 'Wait for the suite to end, then export it.' END;
    END IF;
    SELECT array_agg(r.id ORDER BY r.id) INTO run_ids
      FROM bench.runs r
     WHERE CASE WHEN kind = 'run' THEN r.id = the_id ELSE r.suite_id = the_id END;

    RETURN jsonb_build_object(
        'format', 'pgbenchkit export',
        'format_version', 1,
        'kind', kind,
        'id', the_id,
        'system_identifier', (SELECT c.system_identifier::text FROM pg_control_system() c),
        'server_version', current_setting('server_version'),
        'server_version_num', current_setting('server_version_num')::integer,
        'pgbenchkit_version', (SELECT e.extversion FROM pg_extension e WHERE e.extname = 'pgbenchkit'),
        'exported_at', now(),
        'suite', suite,
        'runs', COALESCE((SELECT jsonb_agg(to_jsonb(r) ORDER BY r.id)
                            FROM bench.runs r0 CROSS JOIN LATERAL bench._run_state(r0) r
                           WHERE r0.id = ANY (run_ids)), '[]'),
        'progress', COALESCE((SELECT jsonb_agg(to_jsonb(p) ORDER BY p.run_id, p.interval_start)
                                FROM bench.progress p WHERE p.run_id = ANY (run_ids)), '[]'),
        -- an aborted run not yet recorded so: its progress rows' histogram (its stored row
        -- still says running)
        'histograms', COALESCE((SELECT jsonb_agg(to_jsonb(h) ORDER BY h.run_id, h.lower_ms)
                                  FROM (SELECT * FROM bench.histograms h WHERE h.run_id = ANY (run_ids)
                                        UNION ALL
                                        SELECT r.id, p.lower_ms, p.upper_ms, p.count
                                          FROM bench._runs r CROSS JOIN LATERAL bench._progress_histogram(r.id) p
                                         WHERE r.id = ANY (run_ids) AND r.status = 'running') h), '[]'),
        'samples', COALESCE((SELECT jsonb_agg(to_jsonb(s) ORDER BY s.run_id, s.sample_no)
                               FROM bench.samples s WHERE s.run_id = ANY (run_ids)), '[]'),
        'relation_sizes', COALESCE((SELECT jsonb_agg(to_jsonb(z) ORDER BY z.run_id, z.phase, z.relid)
                                      FROM bench.relation_sizes z WHERE z.run_id = ANY (run_ids)), '[]'),
        'prewarms', COALESCE((SELECT jsonb_agg(to_jsonb(w) ORDER BY w.run_id, w.relid)
                                FROM bench.prewarms w WHERE w.run_id = ANY (run_ids)), '[]'),
        'run_scripts', COALESCE((SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.script_no)
                                   FROM bench.run_scripts x WHERE x.run_id = ANY (run_ids)), '[]'),
        'command_latencies', COALESCE((SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.script_no, x.command_no)
                                         FROM bench.command_latencies x WHERE x.run_id = ANY (run_ids)), '[]'),
        'run_groups', COALESCE((SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.group_no)
                                  FROM bench.run_groups x WHERE x.run_id = ANY (run_ids)), '[]'),
        'group_progress', COALESCE((SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.group_no, x.interval_start)
                                      FROM bench.group_progress x WHERE x.run_id = ANY (run_ids)), '[]'));
END
$fn$;

COMMENT ON FUNCTION bench.export(bigint) IS
    'A run or a suite as jsonb, with its progress, histograms, samples, sizes, prewarms, scripts, command latencies and groups of clients, for bench.import on another server';

GRANT EXECUTE ON FUNCTION bench.export(bigint) TO PUBLIC;

--
-- bench.import: a document of bench.export, under new ids.  Runs and
-- suites get ids of bench.runs_id_seq, the runs of a suite point to the
-- new suite, and each imported row says where it came from (origin).  The
-- dataset it ran on and its processes are not here: dataset_id,
-- coordinator_pid and worker_pid are NULL.  A run or suite is imported
-- once per server it came from.  What is imported belongs to the role
-- that imports it (created_by), whoever made it over there: the library
-- calls bench._import as the owner of schema bench, with OWNER the
-- calling role.
--
CREATE FUNCTION bench.import(document jsonb)
RETURNS bigint
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_import';

COMMENT ON FUNCTION bench.import(jsonb) IS
    'Insert a document of bench.export under new ids, with its origin (system identifier, server version, original id), as the calling role''s; returns the new id of the run or suite';

-- writing the tables is for roles the administrator chose
REVOKE ALL ON FUNCTION bench.import(jsonb) FROM PUBLIC;

CREATE FUNCTION bench._import(document jsonb, owner name)
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
SET intervalstyle = 'postgres'
AS $fn$
DECLARE
    doc         jsonb := _import.document;
    kind        text;
    doc_id      bigint;
    sysid       text;
    missing     text;
    ids         jsonb := '{}';
    new_suite   bigint;
    old         bigint;
    dup         record;
    origin      jsonb;
    err_message text;
BEGIN
    IF doc IS NULL THEN
        RAISE EXCEPTION 'document must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give a document bench.export made.';
    END IF;

    -- the document: ours, of a version we read, complete
    IF jsonb_typeof(doc) IS DISTINCT FROM 'object' OR doc->>'format' IS DISTINCT FROM 'pgbenchkit export' THEN
        RAISE EXCEPTION 'document is not a pgbenchkit export'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'bench.export(id) makes the documents bench.import reads: a jsonb object whose "format" is "pgbenchkit export".';
    END IF;
    IF doc->'format_version' IS DISTINCT FROM '1'::jsonb THEN
        RAISE EXCEPTION 'pgbenchkit export format version % is not supported', COALESCE(doc->>'format_version', 'null')
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'This version of pgbenchkit reads format version 1.';
    END IF;
    SELECT string_agg(k, ', ' ORDER BY n) INTO missing
      FROM unnest(ARRAY['kind', 'id', 'system_identifier', 'server_version', 'exported_at', 'runs',
                        'progress', 'histograms', 'samples', 'relation_sizes', 'prewarms'])
           WITH ORDINALITY AS r (k, n)
     WHERE NOT doc ? k OR jsonb_typeof(doc->k) = 'null';
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION 'the export document lacks %', missing
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Import the document as bench.export made it.';
    END IF;
    kind := doc->>'kind';
    sysid := doc->>'system_identifier';
    IF kind NOT IN ('run', 'suite') OR jsonb_typeof(doc->'id') <> 'number'
       OR jsonb_typeof(doc->'system_identifier') <> 'string' OR jsonb_typeof(doc->'runs') <> 'array'
       OR jsonb_typeof(doc->'progress') <> 'array' OR jsonb_typeof(doc->'histograms') <> 'array'
       OR jsonb_typeof(doc->'samples') <> 'array' OR jsonb_typeof(doc->'relation_sizes') <> 'array'
       OR jsonb_typeof(doc->'prewarms') <> 'array'
       OR (kind = 'suite' AND jsonb_typeof(doc->'suite') IS DISTINCT FROM 'object') THEN
        RAISE EXCEPTION 'the export document is malformed'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'kind must be "run" or "suite", id a number, system_identifier a string, runs, progress, histograms, samples, relation_sizes and prewarms arrays, and a suite''s document needs the suite.',
                  HINT = 'Import the document as bench.export made it.';
    END IF;
    doc_id := (doc->>'id')::bigint;
    IF EXISTS (SELECT FROM jsonb_array_elements(doc->'runs') r
                WHERE jsonb_typeof(r) <> 'object' OR jsonb_typeof(r->'id') IS DISTINCT FROM 'number'
                   OR r->>'status' = 'running'
                   OR (kind = 'run' AND (r->>'id')::bigint <> doc_id)
                   OR (kind = 'suite' AND (r->>'suite_id')::bigint IS DISTINCT FROM doc_id))
       OR (kind = 'run' AND jsonb_array_length(doc->'runs') <> 1)
       OR (kind = 'suite' AND ((doc->'suite'->>'id')::bigint IS DISTINCT FROM doc_id
                               OR doc->'suite'->>'status' = 'running')) THEN
        RAISE EXCEPTION 'the runs of the export document do not match its %', kind
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A run''s document has that one run; a suite''s has the suite and the runs whose suite_id it is; none of them running.',
                  HINT = 'Import the document as bench.export made it.';
    END IF;

    -- once per origin: the same document imported twice is refused (the
    -- lock makes two sessions importing it at once take turns)
    PERFORM pg_advisory_xact_lock(hashtextextended('pgbenchkit import ' || sysid || ' ' || doc_id, 0));
    SELECT x.kind, x.id, (x.origin->>'id')::bigint AS orig INTO dup
      FROM (SELECT 'suite' AS kind, s.id, s.origin FROM bench.suites s
            UNION ALL
            SELECT 'run', r.id, r.origin FROM bench.runs r) x
     WHERE x.origin->>'system_identifier' = sysid
       AND (x.origin->>'id')::bigint IN (SELECT (r->>'id')::bigint FROM jsonb_array_elements(doc->'runs') r
                                         UNION ALL SELECT doc_id)
     ORDER BY x.kind DESC, x.id
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% % of system % was imported before, as % %', dup.kind, dup.orig, sysid, dup.kind, dup.id
            USING ERRCODE = 'unique_violation',
                  HINT = format('Compare with %s %s as it is, or delete it (and its runs) before importing it again.',
                                dup.kind, dup.id);
    END IF;

    origin := jsonb_build_object('system_identifier', sysid,
                                 'server_version', doc->'server_version',
                                 'exported_at', doc->'exported_at',
                                 'imported_at', now());
    BEGIN
        IF kind = 'suite' THEN
            new_suite := nextval('bench.runs_id_seq');
            INSERT INTO bench.suites
            SELECT * FROM jsonb_populate_record(NULL::bench.suites,
                doc->'suite' || jsonb_build_object('id', new_suite, 'worker_pid', NULL,
                                                   'created_by', _import.owner,
                                                   'origin', origin || jsonb_build_object('id', doc_id)));
        END IF;
        -- new ids in the order of the old ones
        FOR old IN SELECT (r->>'id')::bigint FROM jsonb_array_elements(doc->'runs') r ORDER BY 1 LOOP
            ids := ids || jsonb_build_object(old::text, nextval('bench.runs_id_seq'));
        END LOOP;
        INSERT INTO bench.runs
        SELECT * FROM jsonb_populate_recordset(NULL::bench.runs, (
            SELECT jsonb_agg(r || jsonb_build_object(
                       'id', ids->(r->>'id'), 'suite_id', new_suite, 'dataset_id', NULL,
                       'coordinator_pid', NULL, 'created_by', _import.owner,
                       'origin', origin || jsonb_build_object('id', (r->>'id')::bigint))
                       ORDER BY (r->>'id')::bigint)
              FROM jsonb_array_elements(doc->'runs') r));
        -- the rows of the runs: run_id is the new id (NULL, and refused,
        -- for a row of a run not in the document)
        INSERT INTO bench.progress
        SELECT * FROM jsonb_populate_recordset(NULL::bench.progress, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(doc->'progress') x));
        INSERT INTO bench.histograms
        SELECT * FROM jsonb_populate_recordset(NULL::bench.histograms, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(doc->'histograms') x));
        INSERT INTO bench.samples
        SELECT * FROM jsonb_populate_recordset(NULL::bench.samples, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(doc->'samples') x));
        INSERT INTO bench.relation_sizes
        SELECT * FROM jsonb_populate_recordset(NULL::bench.relation_sizes, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(doc->'relation_sizes') x));
        INSERT INTO bench.prewarms
        SELECT * FROM jsonb_populate_recordset(NULL::bench.prewarms, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(doc->'prewarms') x));
        -- the scripts and command latencies (documents of older versions have none)
        INSERT INTO bench.run_scripts
        SELECT * FROM jsonb_populate_recordset(NULL::bench.run_scripts, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(COALESCE(doc->'run_scripts', '[]')) x));
        INSERT INTO bench.command_latencies
        SELECT * FROM jsonb_populate_recordset(NULL::bench.command_latencies, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(COALESCE(doc->'command_latencies', '[]')) x));
        -- the groups of clients and their progress (none in older documents)
        INSERT INTO bench.run_groups
        SELECT * FROM jsonb_populate_recordset(NULL::bench.run_groups, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(COALESCE(doc->'run_groups', '[]')) x));
        INSERT INTO bench.group_progress
        SELECT * FROM jsonb_populate_recordset(NULL::bench.group_progress, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(COALESCE(doc->'group_progress', '[]')) x));
    EXCEPTION
        -- a value that does not fit its column, a missing one, a row twice:
        -- the document was not made by bench.export, or was edited
        WHEN data_exception OR integrity_constraint_violation THEN
            GET STACKED DIAGNOSTICS err_message = MESSAGE_TEXT;
            RAISE EXCEPTION 'the export document is malformed: %', err_message
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'Import the document as bench.export made it; nothing was imported.';
    END;
    RETURN CASE WHEN kind = 'suite' THEN new_suite ELSE (ids->>(doc_id::text))::bigint END;
END
$fn$;

COMMENT ON FUNCTION bench._import(jsonb, name) IS
    'Internal: insert a document of bench.export as the work of role OWNER (the library calls it as the owner of schema bench)';

REVOKE ALL ON FUNCTION bench._import(jsonb, name) FROM PUBLIC;
