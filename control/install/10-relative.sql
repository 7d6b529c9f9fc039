--
-- Relative throughput: runs or suites against a base, step by step, as the
-- Insert Benchmark reports versions and configurations.
--

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
-- columns).
--
CREATE FUNCTION bench.relative_throughput(base bigint, others bigint[])
RETURNS TABLE (id bigint, kind text, label text, server_version text,
               step_no integer, step text, tps double precision,
               base_tps double precision, relative double precision)
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
              FROM bench.runs r WHERE r.id = ANY (ids)) THEN
            RAISE WARNING 'the runs differ in workload, clients, driver or target'
                USING DETAIL = 'Each run''s throughput is divided by the base''s all the same.',
                      HINT = 'bench.compare shows what differs between two runs.';
        END IF;
        RETURN QUERY
        WITH b AS (SELECT r.workload, r.clients, r.tps FROM bench.runs r WHERE r.id = base_id)
        SELECT r.id, 'run'::text, COALESCE(r.tag || ' (run ' || r.id || ')', 'run ' || r.id), r.server_version,
               1, CASE WHEN one_wl THEN '' ELSE b.workload || ', ' END
                  || b.clients || CASE WHEN b.clients = 1 THEN ' client' ELSE ' clients' END,
               r.tps, b.tps, r.tps / NULLIF(b.tps, 0)
          FROM unnest(ids) WITH ORDINALITY AS i(id, pos)
          JOIN bench.runs r ON r.id = i.id
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
        SELECT s.id, 'suite'::text, COALESCE(s.tag || ' (suite ' || s.id || ')', 'suite ' || s.id),
               s.server_version, (row_number() OVER (PARTITION BY s.id ORDER BY bs.step_no))::integer,
               bs.step, v.throughput, bs.throughput, v.throughput / NULLIF(bs.throughput, 0)
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
                   AND (bench._run_state(r)).status = 'done') AS tps
          FROM bench.suites s CROSS JOIN numbered n
         WHERE s.id = ANY (ids))
    SELECT s.id, 'suite'::text, COALESCE(s.tag || ' (suite ' || s.id || ')', 'suite ' || s.id), s.server_version,
           n.step_no, CASE WHEN one_wl THEN '' ELSE n.workload || ', ' END
                      || n.clients || CASE WHEN n.clients = 1 THEN ' client' ELSE ' clients' END,
           m.tps, mb.tps, m.tps / NULLIF(mb.tps, 0)
      FROM unnest(ids) WITH ORDINALITY AS i(id, pos)
      JOIN bench.suites s ON s.id = i.id
     CROSS JOIN numbered n
      JOIN medians m ON m.suite_id = s.id AND m.step_no = n.step_no
      JOIN medians mb ON mb.suite_id = base_id AND mb.step_no = n.step_no
     ORDER BY i.pos, n.step_no;
END
$fn$;

COMMENT ON FUNCTION bench.relative_throughput(bigint, bigint[]) IS
    'Runs or suites against a base: per step (client count, or a bench.ibench suite''s named steps), throughput and its ratio to the base''s';
GRANT EXECUTE ON FUNCTION bench.relative_throughput(bigint, bigint[]) TO PUBLIC;

--
-- bench.relative_table: the same in the Insert Benchmark's table form, one
-- line per run or suite (the base first, at 1.00), one column per step,
-- as a Markdown table.
--
CREATE FUNCTION bench.relative_table(base bigint, others bigint[])
RETURNS SETOF text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    steps   text[] := '{}';
    lines   text[] := '{}';
    cells   text[];
    cur     bigint;
    r       record;
BEGIN
    FOR r IN SELECT * FROM bench.relative_throughput(base, others) LOOP
        IF cur IS DISTINCT FROM r.id THEN
            IF cur IS NOT NULL THEN
                lines := lines || ('| ' || array_to_string(cells, ' | ') || ' |');
            END IF;
            cur := r.id;
            cells := ARRAY[replace(r.label, '|', '\|'), split_part(r.server_version, ' ', 1)];
        END IF;
        IF r.id = base THEN
            steps := steps || replace(r.step, '|', '\|');
        END IF;
        cells := cells || COALESCE(to_char(r.relative, 'FM990.00'), '-');
    END LOOP;
    lines := lines || ('| ' || array_to_string(cells, ' | ') || ' |');
    RETURN NEXT '| ' || array_to_string(ARRAY['run or suite', 'version'] || steps, ' | ') || ' |';
    RETURN NEXT '|' || repeat('---|', 2 + cardinality(steps));
    RETURN QUERY SELECT unnest(lines);
END
$fn$;

COMMENT ON FUNCTION bench.relative_table(bigint, bigint[]) IS
    'Relative throughput as the Insert Benchmark shows it: one line per run or suite, one column per step (Markdown)';
GRANT EXECUTE ON FUNCTION bench.relative_table(bigint, bigint[]) TO PUBLIC;

--
-- bench.chart_relative: relative throughput as grouped bars, one group per
-- step, one bar per run or suite (the base's at 1.0), a dashed line at 1.0.
--
CREATE FUNCTION bench.chart_relative(base bigint, others bigint[],
                                     width integer DEFAULT 900, height integer DEFAULT 560)
RETURNS text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    palette     constant text[] := ARRAY['#7f7f7f', '#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd',
                                         '#8c564b', '#e377c2', '#bcbd22', '#17becf'];
    r           record;
    nsteps      integer;
    nseries     integer := 0;
    steps       text[];
    labels      text[] := '{}';
    colours     text[] := '{}';
    rel         double precision[] := '{}';     -- series by series, step by step
    base_kind   text;
    base_label  text;
    top_v       double precision;
    yt          double precision[];
    lg          record;
    pl          constant double precision := 72;
    pw          double precision := width - 72 - 24;
    pt          double precision;
    ph          double precision;
    gw          double precision;
    bw          double precision;
    x           double precision;
    y0          double precision;
    y           double precision;
    v           double precision;
    o           text[];
BEGIN
    PERFORM bench._svg_check_size('bench.chart_relative', width, height);
    steps := '{}';
    FOR r IN SELECT * FROM bench.relative_throughput(base, others) LOOP
        IF r.step_no = 1 THEN
            nseries := nseries + 1;
            labels := labels || r.label;
            colours := colours || palette[1 + (nseries - 1) % cardinality(palette)];
        END IF;
        IF r.id = base THEN
            steps := steps || r.step;
            base_kind := r.kind;
            base_label := r.label;
        END IF;
        rel := rel || r.relative;
    END LOOP;
    nsteps := cardinality(steps);
    top_v := GREATEST(1.0, (SELECT max(q) FROM unnest(rel) q)) * 1.1;

    lg := bench._svg_legend(pl, 52, pw, GREATEST(18, (height - 120) * 0.25),
                            array_fill('point'::text, ARRAY[nseries]), colours, labels);
    pt := 52 + lg.height + 14;
    ph := GREATEST(height - pt - 58, 10);
    yt := bench._svg_ticks(0, top_v, GREATEST(2, LEAST(8, floor(ph / 30)::integer)));
    o := ARRAY[bench._svg_open(width, height, format('throughput relative to %s %s', base_kind, base)),
               bench._svg_heading(width,
                   format('throughput relative to %s, by step', base_label),
                   format('%s %ss, each step''s tps divided by the base''s', nseries, base_kind)),
               lg.svg,
               bench._svg_panel(pl, pt, pw, ph, 0.5, nsteps + 0.5,
                                ARRAY(SELECT generate_series(1, nsteps)::double precision), steps,
                                yt, bench._svg_tick_labels(yt), 'relative throughput'),
               bench._svg_text(pl + pw / 2, height - 14, 'step',
                               'class="axis-title" font-size="12" fill="#222222" text-anchor="middle"')];
    IF (SELECT count(q) FROM unnest(rel) q) = 0 THEN
        o := o || bench._svg_no_data(pl + pw / 2, pt + ph / 2, 'no step has a finished run on both sides');
        RETURN array_to_string(o, E'\n') || E'\n</svg>';
    END IF;

    -- the bars: a group per step, 80% of its width
    gw := pw / nsteps;
    bw := gw * 0.8 / nseries;
    y0 := pt + ph - (0 - yt[1]) / (yt[cardinality(yt)] - yt[1]) * ph;
    o := o || '<g class="bars">'::text;
    FOR st IN 1 .. nsteps LOOP
        FOR se IN 1 .. nseries LOOP
            v := rel[(se - 1) * nsteps + st];
            CONTINUE WHEN v IS NULL;
            x := pl + (st - 1) * gw + gw * 0.1 + (se - 1) * bw;
            y := pt + ph - (v - yt[1]) / (yt[cardinality(yt)] - yt[1]) * ph;
            o := o || format('<rect class="bar" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s, %s: %s</title></rect>',
                             bench._svg_num(x), bench._svg_num(y), bench._svg_num(GREATEST(bw - 1, 1)),
                             bench._svg_num(y0 - y), colours[se], bench._svg_escape(labels[se]),
                             bench._svg_escape(steps[st]), to_char(v, 'FM990.00'));
            IF bw >= 24 THEN
                o := o || bench._svg_text(x + bw / 2, y - 3, to_char(v, 'FM990.00'),
                                          'font-size="10" fill="#333333" text-anchor="middle"');
            END IF;
        END LOOP;
    END LOOP;
    o := o || '</g>'::text;
    -- the base's level
    y := pt + ph - (1.0 - yt[1]) / (yt[cardinality(yt)] - yt[1]) * ph;
    o := o || format('<line class="base" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#222222" stroke-width="1.2" stroke-dasharray="4,3"/>',
                     bench._svg_num(pl), bench._svg_num(y), bench._svg_num(pl + pw), bench._svg_num(y));
    RETURN array_to_string(o, E'\n') || E'\n</svg>';
END
$fn$;

COMMENT ON FUNCTION bench.chart_relative(bigint, bigint[], integer, integer) IS
    'Relative throughput as an SVG chart: per step, a bar per run or suite, the base at 1.0';
GRANT EXECUTE ON FUNCTION bench.chart_relative(bigint, bigint[], integer, integer) TO PUBLIC;
