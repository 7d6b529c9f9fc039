--
-- bench.compare_many: many runs as a table of configurations against
-- workloads.  The runs are chosen one way (a list of runs, the finished
-- runs of suites, those with a tag, those on targets); they are grouped
-- into configurations: the node and the target (a fleet's central
-- database holds the runs of many nodes, and a target of one name on two
-- nodes is two targets), the server's version, the tag, and the settings
-- that differ between them (bench._differing_settings); into
-- columns: the workload and client count, or the step of a suite of
-- steps.  Each cell is the median throughput of its runs with their range,
-- read against the base configuration's cell of the same column, with the
-- noise and the verdict of bench.compare (bench._judge).  A column holds
-- one workload: runs of one name but different scripts are refused.
--
CREATE OR REPLACE FUNCTION bench.compare_many(runs bigint[] DEFAULT NULL, suites bigint[] DEFAULT NULL,
                                              tag text DEFAULT NULL, targets text[] DEFAULT NULL,
                                              base text DEFAULT NULL,
                                              threshold double precision DEFAULT 0.05,
                                              since timestamptz DEFAULT NULL,
                                              cost boolean DEFAULT true)
RETURNS TABLE (config_no integer, configuration text, target text, node text, server_version text,
               run_tag text, settings jsonb, column_no integer, column_label text,
               workload text, clients integer, step text, run_count integer, run_ids bigint[],
               tps_median double precision, tps_min double precision, tps_max double precision,
               latency_p99_ms_median double precision, base_tps_median double precision,
               relative double precision, noise_pct double precision, verdict text,
               currency text, cost_per_million_median double precision, cost_relative double precision)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_column
DECLARE
    max_runs    constant integer := 1000;
    sel_runs    bigint[] := compare_many.runs;
    sel_suites  bigint[] := compare_many.suites;
    sel_tag     text := compare_many.tag;
    sel_targets text[] := compare_many.targets;
    base_name   text := compare_many.base;
    thr         double precision := compare_many.threshold;
    sel_since   timestamptz := compare_many.since;
    with_cost   boolean := compare_many.cost;
    given       text[];
    lim         integer;
    ids         bigint[];
    keys        text[];
    st          text;
    a_id        bigint;
    b_id        bigint;
    col_name    text;
    ncfg        integer;
    cfg_label   text[];
    cfg_target  text[];
    cfg_node    text[];
    cfg_version text[];
    cfg_tag     text[];
    cfg_set     jsonb[];
    cfg_of_run  jsonb;
    base_no     integer;
    matches     integer[];
    one_wl      boolean;
BEGIN
    IF with_cost IS NULL THEN
        RAISE EXCEPTION 'cost must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'cost => false leaves the prices out; true, the default, compares them where the runs have one.';
    END IF;
    IF thr IS NULL THEN
        RAISE EXCEPTION 'threshold must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'The threshold is a fraction: 0.05, the default, means a change of 5%.';
    END IF;
    IF NOT (thr > 0 AND thr < 1) THEN
        RAISE EXCEPTION 'threshold must be between 0 and 1, not %', thr
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The threshold is a fraction: 0.05, the default, means a change of 5%.';
    END IF;

    -- one way of choosing the runs
    given := array_remove(ARRAY[CASE WHEN sel_runs IS NOT NULL THEN 'runs' END,
                                CASE WHEN sel_suites IS NOT NULL THEN 'suites' END,
                                CASE WHEN sel_tag IS NOT NULL THEN 'tag' END,
                                CASE WHEN sel_targets IS NOT NULL THEN 'targets' END], NULL);
    IF cardinality(given) = 0 THEN
        RAISE EXCEPTION 'no runs chosen: runs, suites, tag and targets are all null'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give one of them: runs => ARRAY[12, 13], suites => ARRAY[5, 9], tag => ''nightly'' or targets => ARRAY[''local'', ''cloud''].';
    END IF;
    IF cardinality(given) > 1 THEN
        RAISE EXCEPTION 'runs are chosen one way, not by % at once', array_to_string(given, ' and ')
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give only one of runs, suites, tag and targets.';
    END IF;
    IF sel_since IS NOT NULL AND (sel_runs IS NOT NULL OR sel_suites IS NOT NULL) THEN
        RAISE EXCEPTION 'since applies to tag and targets, not to %', given[1]
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Leave since out when naming runs or suites: they are compared as given.';
    END IF;

    IF sel_runs IS NOT NULL OR sel_suites IS NOT NULL OR sel_targets IS NOT NULL THEN
        IF cardinality(COALESCE(sel_runs::text[], sel_suites::text[], sel_targets)) = 0 THEN
            RAISE EXCEPTION '% must not be empty', given[1]
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = CASE given[1] WHEN 'targets' THEN 'Give target names, as in ARRAY[''local'', ''cloud''] (local: this server).'
                                          ELSE format('Give the ids of %s, as in ARRAY[12, 15].', given[1]) END;
        END IF;
        IF array_ndims(COALESCE(sel_runs::text[], sel_suites::text[], sel_targets)) > 1 THEN
            RAISE EXCEPTION '% must be a one-dimensional array', given[1]
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'Give a list, as in ARRAY[12, 15].';
        END IF;
        IF array_position(COALESCE(sel_runs::text[], sel_suites::text[], sel_targets), NULL) IS NOT NULL THEN
            RAISE EXCEPTION '% must not hold a null', given[1]
                USING ERRCODE = 'null_value_not_allowed',
                      HINT = CASE given[1] WHEN 'targets' THEN 'Give target names (local: this server).'
                                          ELSE format('Give the ids of %s.', given[1]) END;
        END IF;
        IF (SELECT count(DISTINCT v) FROM unnest(COALESCE(sel_runs::text[], sel_suites::text[], sel_targets)) v)
           < cardinality(COALESCE(sel_runs::text[], sel_suites::text[], sel_targets)) THEN
            RAISE EXCEPTION '% lists % twice', given[1],
                            (SELECT v FROM unnest(COALESCE(sel_runs::text[], sel_suites::text[], sel_targets)) v
                              GROUP BY v HAVING count(*) > 1 ORDER BY v LIMIT 1)
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'Give each once.';
        END IF;
        lim := CASE WHEN sel_runs IS NOT NULL THEN max_runs ELSE 100 END;
        IF cardinality(COALESCE(sel_runs::text[], sel_suites::text[], sel_targets)) > lim THEN
            RAISE EXCEPTION '% may list at most %, not %', given[1], lim,
                            cardinality(COALESCE(sel_runs::text[], sel_suites::text[], sel_targets))
                USING ERRCODE = 'program_limit_exceeded',
                      HINT = 'Compare fewer at a time.';
        END IF;
    END IF;

    IF sel_runs IS NOT NULL THEN
        -- the runs as given, whatever their ending but running
        FOR i IN 1 .. cardinality(sel_runs) LOOP
            SELECT (bench._run_state(r)).status INTO st FROM bench.runs r WHERE r.id = sel_runs[i];
            IF NOT FOUND THEN
                RAISE EXCEPTION 'run % does not exist', sel_runs[i]
                    USING ERRCODE = 'no_data_found',
                          HINT = 'bench.runs lists the runs there are.';
            END IF;
            IF st = 'running' THEN
                RAISE EXCEPTION 'run % is still running', sel_runs[i]
                    USING ERRCODE = 'object_not_in_prerequisite_state',
                          HINT = 'Wait for it to end (bench.wait) or cancel it (bench.cancel), then compare.';
            END IF;
        END LOOP;
        ids := sel_runs;
    ELSIF sel_suites IS NOT NULL THEN
        -- the finished runs of each suite, the suites in the order given
        FOR i IN 1 .. cardinality(sel_suites) LOOP
            SELECT (bench._suite_state(s)).status INTO st FROM bench.suites s WHERE s.id = sel_suites[i];
            IF NOT FOUND THEN
                RAISE EXCEPTION 'suite % does not exist', sel_suites[i]
                    USING ERRCODE = 'no_data_found',
                          HINT = 'bench.suites lists the suites there are; name runs with runs =>.';
            END IF;
            IF st = 'running' THEN
                RAISE EXCEPTION 'suite % is still running', sel_suites[i]
                    USING ERRCODE = 'object_not_in_prerequisite_state',
                          HINT = 'Wait for the suite to end (bench.wait_suite), then compare.';
            END IF;
        END LOOP;
        ids := ARRAY(SELECT r.id
                       FROM unnest(sel_suites) WITH ORDINALITY AS u (id, pos)
                       JOIN bench.runs r ON r.suite_id = u.id
                      WHERE r.status = 'done'
                      ORDER BY u.pos, r.id);
        IF cardinality(ids) = 0 THEN
            RAISE EXCEPTION 'the suites have no finished run'
                USING ERRCODE = 'no_data_found',
                      HINT = 'Only runs that ended done are compared; bench.suite_summary shows how many each suite has.';
        END IF;
    ELSIF sel_tag IS NOT NULL THEN
        ids := ARRAY(SELECT r.id FROM bench.runs r
                      WHERE r.tag = sel_tag AND r.status = 'done'
                        AND (sel_since IS NULL OR r.started_at >= sel_since)
                      ORDER BY r.started_at, r.id);
        IF cardinality(ids) = 0 THEN
            RAISE EXCEPTION 'no finished run has the tag "%"%', sel_tag,
                            COALESCE(' since ' || sel_since, '')
                USING ERRCODE = 'no_data_found',
                      HINT = 'bench.runs lists the runs and their tags; only runs that ended done are compared.';
        END IF;
    ELSE
        -- local stands for this server: the runs without a target; a
        -- name matches the targets of that name of every node (each
        -- node's a configuration of its own)
        FOR i IN 1 .. cardinality(sel_targets) LOOP
            IF sel_targets[i] <> 'local'
               AND NOT EXISTS (SELECT FROM bench.targets t WHERE t.name = sel_targets[i])
               AND NOT EXISTS (SELECT FROM bench.runs r WHERE r.target = sel_targets[i]) THEN
                RAISE EXCEPTION 'target "%" does not exist', sel_targets[i]
                    USING ERRCODE = 'undefined_object',
                          HINT = 'bench.targets lists the targets, bench.runs the targets runs were made on; local stands for this server.';
            END IF;
        END LOOP;
        ids := ARRAY(SELECT r.id
                       FROM unnest(sel_targets) WITH ORDINALITY AS u (name, pos)
                       JOIN bench.runs r ON CASE WHEN u.name = 'local' THEN r.target IS NULL
                                                 ELSE r.target = u.name END
                      WHERE r.status = 'done'
                        AND (sel_since IS NULL OR r.started_at >= sel_since)
                      ORDER BY u.pos, r.started_at, r.id);
        IF cardinality(ids) = 0 THEN
            RAISE EXCEPTION 'no finished run on %', array_to_string(sel_targets, ', ')
                                                   || COALESCE(' since ' || sel_since, '')
                USING ERRCODE = 'no_data_found',
                      HINT = 'Only runs that ended done are compared; bench.runs lists the runs and their targets.';
        END IF;
    END IF;
    IF cardinality(ids) > max_runs THEN
        RAISE EXCEPTION 'too many runs to compare: %, at most %', cardinality(ids), max_runs
            USING ERRCODE = 'program_limit_exceeded',
                  HINT = 'Choose fewer: a later since, fewer suites or targets, or a tag of their own.';
    END IF;

    -- a column holds one workload: runs that share its key (workload name
    -- and clients, or step) but ran other scripts (unnamed scripts, a
    -- workload redefined between them) or another workload cannot share it
    SELECT k.col, min(k.id) INTO col_name, a_id
      FROM (SELECT r.id, CASE WHEN r.step IS NOT NULL THEN r.step
                              ELSE r.workload || ', ' || r.clients
                                   || CASE WHEN r.clients = 1 THEN ' client' ELSE ' clients' END END AS col,
                   r.workload,
                   (SELECT md5(string_agg(x.weight || ':' || x.script, E'\x01' ORDER BY x.script_no))
                      FROM bench.run_scripts x WHERE x.run_id = r.id) AS scripts
              FROM bench.runs r WHERE r.id = ANY (ids)) k
     GROUP BY k.col
    HAVING count(DISTINCT k.scripts) > 1 OR count(DISTINCT k.workload) > 1
     ORDER BY min(k.id)
     LIMIT 1;
    IF col_name IS NOT NULL THEN
        SELECT min(r.id) INTO b_id
          FROM bench.runs r, bench.runs a
         WHERE a.id = a_id AND r.id = ANY (ids)
           AND CASE WHEN a.step IS NOT NULL THEN r.step = a.step
                    ELSE r.step IS NULL AND r.workload = a.workload AND r.clients = a.clients END
           AND (r.workload <> a.workload
                OR (SELECT md5(string_agg(x.weight || ':' || x.script, E'\x01' ORDER BY x.script_no))
                      FROM bench.run_scripts x WHERE x.run_id = r.id)
                   IS DISTINCT FROM
                   (SELECT md5(string_agg(x.weight || ':' || x.script, E'\x01' ORDER BY x.script_no))
                      FROM bench.run_scripts x WHERE x.run_id = a.id));
        RAISE EXCEPTION 'runs % and % ran different workloads but would share the column "%"', a_id, b_id, col_name
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A column is a workload''s name and client count (or a step); these runs ran different scripts under it.',
                  HINT = 'Give each script a workload name of its own (bench.define_workload), or compare the runs of each workload apart.';
    END IF;

    -- the configurations, in the order their first run was chosen.  Where
    -- the runs come from more than one node, the target is named with its
    -- node ("rds @ aws-1"; a run without a node: its target alone)
    keys := bench._differing_settings(ids);
    WITH rs AS (
        SELECT u.pos, r.id, r.target, r.node_name, r.server_version, r.tag,
               (SELECT COALESCE(jsonb_object_agg(k.k, r.settings->k.k), '{}')
                  FROM unnest(keys) AS k (k)) AS cfg_settings
          FROM unnest(ids) WITH ORDINALITY AS u (id, pos)
          JOIN bench.runs r ON r.id = u.id
    ), cf AS (
        SELECT rs.target, rs.node_name, rs.server_version, rs.tag, rs.cfg_settings,
               (row_number() OVER (ORDER BY min(rs.pos)))::integer AS no,
               array_agg(rs.id) AS members
          FROM rs
         GROUP BY rs.target, rs.node_name, rs.server_version, rs.tag, rs.cfg_settings
    ), differ AS (
        SELECT count(DISTINCT (COALESCE(cf.target, E'\x01'), COALESCE(cf.node_name, E'\x01'))) > 1 AS targets,
               count(DISTINCT COALESCE(cf.node_name, E'\x01')) > 1 AS nodes,
               count(DISTINCT cf.server_version) > 1 AS versions,
               count(DISTINCT split_part(cf.server_version, ' ', 1)) = count(DISTINCT cf.server_version) AS short_versions,
               count(DISTINCT COALESCE(cf.tag, E'\x01')) > 1 AS tags
          FROM cf
    ), labelled AS (
        SELECT cf.*,
               COALESCE(NULLIF(concat_ws(', ',
                   CASE WHEN d.targets THEN COALESCE(cf.target, 'local')
                                            || CASE WHEN d.nodes THEN COALESCE(' @ ' || cf.node_name, '') ELSE '' END END,
                   CASE WHEN d.versions THEN CASE WHEN d.short_versions THEN split_part(cf.server_version, ' ', 1)
                                                  ELSE cf.server_version END END,
                   CASE WHEN d.tags THEN COALESCE(cf.tag, '(no tag)') END,
                   (SELECT string_agg(k.k || '=' || COALESCE(cf.cfg_settings->>k.k, '(not set)'), ', ' ORDER BY k.o)
                      FROM unnest(keys) WITH ORDINALITY AS k (k, o))), ''),
                        COALESCE(cf.target, 'local') || COALESCE(' @ ' || cf.node_name, '')) AS label
          FROM cf CROSS JOIN differ d
    )
    SELECT count(*), array_agg(l.label ORDER BY l.no), array_agg(l.target ORDER BY l.no),
           array_agg(l.node_name ORDER BY l.no),
           array_agg(l.server_version ORDER BY l.no), array_agg(l.tag ORDER BY l.no),
           array_agg(l.cfg_settings ORDER BY l.no),
           (SELECT jsonb_object_agg(m.id, l2.no) FROM labelled l2, unnest(l2.members) AS m (id))
      INTO ncfg, cfg_label, cfg_target, cfg_node, cfg_version, cfg_tag, cfg_set, cfg_of_run
      FROM labelled l;

    -- the base: a configuration's label, else the configuration of a
    -- target (local: this server), of a node or of a tag; by default the
    -- first
    IF base_name IS NULL THEN
        base_no := 1;
    ELSE
        base_no := array_position(cfg_label, base_name);
        IF base_no IS NULL THEN
            matches := ARRAY(SELECT i FROM generate_series(1, ncfg) i
                              WHERE COALESCE(cfg_target[i], 'local') = base_name OR cfg_node[i] = base_name
                                 OR cfg_tag[i] = base_name);
            IF cardinality(matches) = 0 THEN
                RAISE EXCEPTION 'base "%" is none of the configurations compared', base_name
                    USING ERRCODE = 'invalid_parameter_value',
                          HINT = 'Give a configuration''s label, its target (local: this server), its node or its tag; the configurations are: '
                                 || (SELECT string_agg(format('"%s"', l), ', ') FROM unnest(cfg_label) l) || '.';
            END IF;
            IF cardinality(matches) > 1 THEN
                RAISE EXCEPTION 'base "%" matches % configurations', base_name, cardinality(matches)
                    USING ERRCODE = 'invalid_parameter_value',
                          HINT = 'Give one configuration''s label: '
                                 || (SELECT string_agg(format('"%s"', cfg_label[m]), ', ') FROM unnest(matches) m) || '.';
            END IF;
            base_no := matches[1];
        END IF;
    END IF;

    SELECT count(DISTINCT r.workload) <= 1 INTO one_wl
      FROM bench.runs r WHERE r.id = ANY (ids) AND r.step IS NULL;

    -- costs are compared in one currency only
    IF with_cost AND (SELECT count(DISTINCT r.currency) FROM bench.runs r WHERE r.id = ANY (ids)) > 1 THEN
        RAISE EXCEPTION 'the runs compared are priced in different currencies: %',
                        (SELECT string_agg(DISTINCT r.currency, ', ') FROM bench.runs r WHERE r.id = ANY (ids))
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A cost per million transactions in one currency cannot be read against one in another.',
                  HINT = 'Compare them with cost => false (throughput and latency only), or set the prices in one currency.';
    END IF;

    RETURN QUERY
    WITH rs AS (
        SELECT (cfg_of_run->>r.id::text)::integer AS cfg, r.id, r.workload, r.clients, r.step,
               r.tps, r.latency_p99_ms, u.pos, r.currency,
               bench._cost_per_million(r.price_per_hour, r.tps) AS cost,
               CASE WHEN r.step IS NOT NULL THEN 's:' || r.step
                    ELSE 'w:' || r.workload || ':' || r.clients END AS col,
               min(u.pos) OVER (PARTITION BY r.workload) AS wl_first,
               (SELECT min(v.step_no) FROM bench.ibench_steps v WHERE v.run_id = r.id) AS step_no
          FROM unnest(ids) WITH ORDINALITY AS u (id, pos)
          JOIN bench.runs r0 ON r0.id = u.id
         CROSS JOIN LATERAL bench._run_state(r0) r
    ), cols AS (
        SELECT x.col, x.workload, x.clients, x.step,
               CASE WHEN x.step IS NOT NULL THEN x.step
                    ELSE CASE WHEN one_wl THEN '' ELSE x.workload || ', ' END
                         || x.clients || CASE WHEN x.clients = 1 THEN ' client' ELSE ' clients' END END AS label,
               (row_number() OVER (ORDER BY x.step IS NOT NULL, x.wl_first, x.clients, x.step_no, x.first))::integer AS no
          FROM (SELECT rs.col, min(rs.workload) AS workload,
                       CASE WHEN min(rs.clients) = max(rs.clients) THEN min(rs.clients) END AS clients,
                       min(rs.step) AS step, min(rs.wl_first) AS wl_first, min(rs.step_no) AS step_no,
                       min(rs.pos) AS first
                  FROM rs GROUP BY rs.col) x
    ), agg AS (
        SELECT rs.cfg, rs.col, count(*) AS n, array_agg(rs.id ORDER BY rs.id) AS members,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY rs.tps) AS med,
               min(rs.tps) AS lo, max(rs.tps) AS hi, count(rs.tps) AS n_tps,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY rs.latency_p99_ms) AS p99,
               min(rs.id) FILTER (WHERE rs.tps IS NOT NULL) AS one_run,
               -- a cell's cost: when every run of it has one (in the one currency)
               min(rs.currency) AS currency,
               CASE WHEN with_cost AND count(rs.cost) = count(*)
                    THEN percentile_cont(0.5) WITHIN GROUP (ORDER BY rs.cost) END AS cost
          FROM rs
         GROUP BY rs.cfg, rs.col
    ), cv AS (
        -- the noise of a cell of one run: the cv of its tps series
        SELECT v.run_id, v.cv
          FROM bench._run_cv(ARRAY(SELECT agg.one_run FROM agg WHERE agg.n_tps = 1)) v
         WHERE v.metric = 'tps'
    ), cells AS (
        SELECT g.i AS cfg, cols.col, cols.no, cols.label, cols.workload, cols.clients, cols.step,
               COALESCE(a.n, 0) AS n, COALESCE(a.members, '{}') AS members, a.med, a.lo, a.hi,
               COALESCE(a.n_tps, 0) AS n_tps, a.p99, cv.cv,
               CASE WHEN a.cost IS NOT NULL THEN a.currency END AS currency, a.cost
          FROM generate_series(1, ncfg) AS g (i)
         CROSS JOIN cols
          LEFT JOIN agg a ON a.cfg = g.i AND a.col = cols.col
          LEFT JOIN cv ON cv.run_id = a.one_run AND a.n_tps = 1
    )
    SELECT c.cfg, cfg_label[c.cfg], cfg_target[c.cfg], cfg_node[c.cfg], cfg_version[c.cfg], cfg_tag[c.cfg], cfg_set[c.cfg],
           c.no, c.label, c.workload, c.clients, c.step, c.n::integer, c.members,
           c.med, c.lo, c.hi, c.p99, b.med, c.med / NULLIF(b.med, 0),
           CASE WHEN c.med IS NOT NULL AND b.med IS NOT NULL THEN j.noise * 100 END,
           CASE WHEN c.med IS NULL OR b.med IS NULL THEN 'n/a'
                WHEN c.cfg = base_no THEN 'base'
                ELSE j.verdict END,
           c.currency, c.cost, c.cost / NULLIF(b.cost, 0)
      FROM cells c
      JOIN cells b ON b.cfg = base_no AND b.col = c.col
     CROSS JOIN LATERAL bench._judge(b.med, b.lo, b.hi, b.n_tps, b.cv,
                                     c.med, c.lo, c.hi, c.n_tps, c.cv, true, thr) j
     ORDER BY c.cfg, c.no;
END
$fn$;

COMMENT ON FUNCTION bench.compare_many(bigint[], bigint[], text, text[], text, double precision, timestamptz, boolean) IS
    'Many runs as configurations (node and target, server version, tag, the settings that differ) against columns (workload and clients, or step): per cell the runs'' median tps with its range, relative to the base configuration''s, with noise and verdict as bench.compare judges them, and the cost per million transactions where the runs have a price';
GRANT EXECUTE ON FUNCTION bench.compare_many(bigint[], bigint[], text, text[], text, double precision, timestamptz, boolean) TO PUBLIC;
