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
--   TPC-C runs (bench.tpcc_results) have two metrics more after tps:
--   nopm (new orders committed per minute, as the clients counted them)
--   and tpm (HammerDB's TPM: the database's commits and rollbacks per
--   minute).  Both are rates of the same transactions as tps, so their
--   noise is that of tps.  They show where either side has them.
--
--   checkpoints are counts: within noise when they differ by at most 1.
--   A change from 0 counts as 100%.  A metric unknown on either side has
--   no verdict (NULL).
--
--   runs of different workloads or scripts (a workload redefined between
--   them) did different work: every metric is 'not comparable', after a
--   warning, as loud as that of different drivers or targets.
--
--   cost: where runs have a price (bench.runs.price_per_hour, currency),
--   the metric cost_per_million (a million transactions' cost, lower is
--   better) follows the others; its noise is that of tps (the cost is the
--   price over tps).  A comparison of runs priced in different currencies
--   is refused (22023): no exchange rate is known here, and a cost in
--   one currency is no better or worse than one in another.  cost => false
--   leaves the cost out, and compares throughput and latency of such runs.
--
CREATE OR REPLACE FUNCTION bench.compare(a bigint, b bigint, threshold double precision DEFAULT 0.05,
                                         cost boolean DEFAULT true)
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
    differing_path  boolean;
    differing_nodes boolean;
    priced      boolean;
    currencies  text;
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
    IF compare.cost IS NULL THEN
        RAISE EXCEPTION 'cost must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'cost => true compares the cost per million transactions of runs with a price; cost => false leaves it out.';
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
    -- different things (the network, the client): say so before the rows.
    -- Runs of two nodes of a fleet ran on different targets, whatever
    -- their names (rds of one node is not rds of another)
    SELECT count(DISTINCT (r.driver, r.target)) > 1, count(DISTINCT r.node_name) > 1
      INTO differing_path, differing_nodes
      FROM bench.runs r
     WHERE CASE WHEN is_suite THEN r.suite_id IN (id_a, id_b) ELSE r.id IN (id_a, id_b) END;
    IF differing_path OR differing_nodes THEN
        RAISE WARNING 'comparing runs of different drivers or targets'
            USING DETAIL = CASE WHEN differing_nodes
                                THEN 'The rows "node", "driver" and "target" show which; throughput and latency then include different networks and clients.'
                                ELSE 'The rows "driver" and "target" show which; throughput and latency then include different networks and clients.' END,
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
    -- the cost: compared where runs have a price, refused across currencies
    SELECT bool_or(r.currency IS NOT NULL),
           CASE WHEN count(DISTINCT r.currency) > 1
                THEN string_agg(DISTINCT r.currency, ' and ' ORDER BY r.currency) END
      INTO priced, currencies
      FROM bench.runs r
     WHERE CASE WHEN is_suite THEN r.suite_id IN (id_a, id_b) ELSE r.id IN (id_a, id_b) END;
    priced := compare.cost AND COALESCE(priced, false);
    IF priced AND currencies IS NOT NULL THEN
        RAISE EXCEPTION 'cannot compare the cost of runs priced in different currencies: %', currencies
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'No exchange rate is known here: a cost in one currency is neither more nor less than one in another.',
                  HINT = 'Compare throughput and latency alone with cost => false, or give the runs prices in one currency.';
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
               -- the node of a fleet that ran it (a target's name means
               -- something only together with its node)
               (14, 'node', rs.node_name),
               (15, 'driver', rs.driver),
               (16, 'target', rs.target),
               (17, 'target_host', rs.target_host),
               (18, 'jobs', rs.jobs::text),
               (19, 'connect', rs.connect),
               (20, 'price_per_hour', rs.price_per_hour::text),
               (21, 'currency', rs.currency),
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
               (2, 'nopm', true),
               (3, 'tpm', true),
               (4, 'latency_avg_ms', false),
               (5, 'latency_p50_ms', false),
               (6, 'latency_p95_ms', false),
               (7, 'latency_p99_ms', false),
               (8, 'wal_bytes_per_tx', false),
               (9, 'wal_fpi_per_tx', false),
               (10, 'checkpoints', false),
               (11, 'blks_read_per_tx', false),
               (12, 'cost_per_million', false)
    ), rs AS (
        -- the runs that count: the run itself, or the finished runs of the suite
        SELECT side.side, r.id, r.clients, r.tps, r.latency_avg_ms, r.latency_p50_ms,
               r.latency_p95_ms, r.latency_p99_ms, r.price_per_hour
          FROM side
          JOIN bench.runs r0 ON CASE WHEN is_suite THEN r0.suite_id = side.id AND r0.status = 'done'
                                     ELSE r0.id = side.id END
         CROSS JOIN LATERAL bench._run_state(r0) r
    ), mv AS (
        SELECT rs.side, rs.id AS run_id, COALESCE(CASE WHEN is_suite THEN rs.clients ELSE run_clients END, 0) AS k,
               m.metric, m.value
          FROM rs
          LEFT JOIN bench.run_counters c ON c.run_id = rs.id
          LEFT JOIN LATERAL bench._tpcc_rates(rs.id) t ON true
         CROSS JOIN LATERAL (VALUES
               ('tps', rs.tps),
               ('nopm', t.nopm::float8),
               ('tpm', t.tpm::float8),
               ('latency_avg_ms', rs.latency_avg_ms),
               ('latency_p50_ms', rs.latency_p50_ms),
               ('latency_p95_ms', rs.latency_p95_ms),
               ('latency_p99_ms', rs.latency_p99_ms),
               ('wal_bytes_per_tx', (c.wal_bytes / NULLIF(c.transactions, 0))::float8),
               ('wal_fpi_per_tx', (c.wal_fpi::numeric / NULLIF(c.transactions, 0))::float8),
               ('checkpoints', (c.checkpoints_timed + c.checkpoints_requested)::float8),
               ('blks_read_per_tx', (c.blks_read::numeric / NULLIF(c.transactions, 0))::float8),
               ('cost_per_million', bench._cost_per_million(rs.price_per_hour, rs.tps)))
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
    ), cv AS (
        -- the cv of each single run's series (bench._run_cv, shared with
        -- bench.compare_many)
        SELECT v.run_id, v.metric, v.cv
          FROM bench._run_cv(ARRAY(SELECT single.run_id FROM single)) v
    ), cmp AS (
        SELECT m.ord, m.metric, m.higher, keys.k,
               x.value AS va, y.value AS vb, x.lo AS lo_a, x.hi AS hi_a, y.lo AS lo_b, y.hi AS hi_b,
               x.n AS n_a, y.n AS n_b, j.noise, j.verdict
          FROM keys CROSS JOIN ms m
          LEFT JOIN agg x ON x.side = 'a' AND x.k = keys.k AND x.metric = m.metric
          LEFT JOIN agg y ON y.side = 'b' AND y.k = keys.k AND y.metric = m.metric
          -- NOPM and TPM have the noise of tps: rates of the same transactions
          LEFT JOIN cv cx ON cx.run_id = x.run_id AND x.n = 1
                         AND cx.metric = CASE WHEN m.metric IN ('nopm', 'tpm') THEN 'tps' ELSE m.metric END
          LEFT JOIN cv cy ON cy.run_id = y.run_id AND y.n = 1
                         AND cy.metric = CASE WHEN m.metric IN ('nopm', 'tpm') THEN 'tps' ELSE m.metric END
         -- the noise and the verdict as bench._judge has them (shared with
         -- bench.compare_many)
         CROSS JOIN LATERAL bench._judge(x.value, x.lo, x.hi, x.n, cx.cv,
                                         y.value, y.lo, y.hi, y.n, cy.cv, m.higher, threshold) j
    )
    SELECT 'metric'::text, c.metric,
           CASE WHEN is_suite THEN c.k ELSE run_clients END,
           fa.t, fb.t,
           c.vb / NULLIF(c.va, 0),
           (c.vb / NULLIF(c.va, 0) - 1) * 100,
           CASE WHEN c.metric = 'checkpoints' THEN NULL ELSE c.noise * 100 END,
           CASE WHEN c.va IS NULL OR c.vb IS NULL THEN NULL
                WHEN NOT comparable THEN 'not comparable'
                WHEN c.metric = 'checkpoints'
                THEN CASE WHEN abs(c.vb - c.va) <= 1 THEN 'within noise'
                          WHEN c.vb < c.va THEN 'improvement' ELSE 'regression' END
                ELSE c.verdict END
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
     WHERE (c.metric <> 'cost_per_million' OR priced)
       AND (c.metric NOT IN ('nopm', 'tpm') OR c.va IS NOT NULL OR c.vb IS NOT NULL)
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
               x.value AS va, y.value AS vb, j.noise, j.verdict
          FROM names CROSS JOIN ms m
          LEFT JOIN gv x ON x.side = 'a' AND x.name = names.name AND x.metric = m.metric
          LEFT JOIN gv y ON y.side = 'b' AND y.name = names.name AND y.metric = m.metric
          LEFT JOIN cv cx ON cx.run_id = x.run_id AND cx.group_no = x.group_no AND cx.metric = m.metric
          LEFT JOIN cv cy ON cy.run_id = y.run_id AND cy.group_no = y.group_no AND cy.metric = m.metric
         -- one run a side: the rule of single runs
         CROSS JOIN LATERAL bench._judge(x.value, x.value, x.value, 1, cx.cv,
                                         y.value, y.value, y.value, 1, cy.cv, m.higher, threshold) j
    )
    SELECT 'group'::text, format('%s: %s', c.name, c.metric), c.clients,
           fa.t, fb.t,
           c.vb / NULLIF(c.va, 0),
           (c.vb / NULLIF(c.va, 0) - 1) * 100,
           c.noise * 100,
           CASE WHEN c.va IS NULL OR c.vb IS NULL THEN NULL
                WHEN NOT comparable THEN 'not comparable'
                ELSE c.verdict END
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

COMMENT ON FUNCTION bench.compare(bigint, bigint, double precision, boolean) IS
    'Two runs or two suites side by side: what differs between them, then tps, latencies, WAL, FPI, checkpoints, blocks read per transaction and the cost per million transactions (where runs have a price; refused across currencies unless cost => false) with change, noise and verdict (improvement, regression, within noise; not comparable for runs of different workloads or scripts), then for runs with groups each group''s tps and latencies. Noise: suites with repeats, the larger relative half-range of the two sides, a verdict only when the ranges do not overlap; single runs and groups, sqrt((cv_a^2 + cv_b^2) / 2) of their per-interval series, a verdict only when the change is over max(threshold, 3 * noise)';

GRANT EXECUTE ON FUNCTION bench.compare(bigint, bigint, double precision, boolean) TO PUBLIC;
