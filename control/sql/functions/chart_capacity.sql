--
-- bench.chart_capacity: a capacity search (bench.capacity) as a chart: the
-- achieved rate against the offered rate (on the dashed diagonal the
-- server keeps up), and under it the objective's percentile against the
-- offered rate, with its confidence interval and the objective's limit as
-- a dashed line.  Each rate is a point: green where it passed, red where it
-- failed, grey where it was still to be repeated.  The capacity found is a
-- vertical line through both panels.
--
CREATE OR REPLACE FUNCTION bench.chart_capacity(suite_id bigint, width integer DEFAULT 900,
                                                height integer DEFAULT 560)
RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    s           bench.suites;
    c           record;
    n           integer;
    rate        double precision[];
    ach         double precision[];
    pct         double precision[];
    lo          double precision[];
    hi          double precision[];
    colour      text[];
    xmax        double precision;
    lg          record;
    pl          constant double precision := 72;
    pw          double precision := width - 72 - 24;
    top1        double precision;
    bot1        double precision;
    top2        double precision;
    bot2        double precision;
    ph          double precision;
    xt          double precision[];
    yt1         double precision[];
    yt2         double precision[];
    sub         text[] := '{}';
    o           text[];
BEGIN
    IF chart_capacity.suite_id IS NULL THEN
        RAISE EXCEPTION 'argument "suite_id" of bench.chart_capacity must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the id of a capacity search, as bench.capacity_results lists them.';
    END IF;
    PERFORM bench._svg_check_size('bench.chart_capacity', width, height);
    SELECT * INTO s FROM bench.suites WHERE id = chart_capacity.suite_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'suite % does not exist', chart_capacity.suite_id
            USING ERRCODE = 'no_data_found',
                  HINT = 'bench.capacity_results lists the capacity searches.';
    END IF;
    IF s.capacity IS NULL THEN
        RAISE EXCEPTION 'suite % is not a capacity search', s.id
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Draw a sweep with bench.chart_suite; bench.capacity_results lists the capacity searches.';
    END IF;
    SELECT * INTO c FROM bench.capacity_results r WHERE r.suite_id = s.id;

    -- the rates offered, in ascending order (the probe is no rate: it is in the subtitle)
    SELECT count(*), array_agg(x.rate ORDER BY x.rate), array_agg(x.achieved_tps ORDER BY x.rate),
           array_agg(x.percentile_ms ORDER BY x.rate), array_agg(x.ci_low_ms ORDER BY x.rate),
           array_agg(x.ci_high_ms ORDER BY x.rate),
           array_agg(CASE x.verdict WHEN 'pass' THEN '#2ca02c' WHEN 'fail' THEN '#d62728' ELSE '#7f7f7f' END
                     ORDER BY x.rate)
      INTO n, rate, ach, pct, lo, hi, colour
      FROM bench.capacity_steps(s.id) x
     WHERE x.rate IS NOT NULL;

    xmax := GREATEST((SELECT max(v) FROM unnest(rate) v), (SELECT max(v) FROM unnest(ach) v), 1) * 1.05;
    xt := bench._svg_ticks(0, xmax, GREATEST(2, LEAST(8, floor(pw / 90)::integer)));
    lg := bench._svg_legend(pl, 52, pw, GREATEST(18, (height - 120) * 0.2),
                            ARRAY['point', 'point', 'point', 'dash', 'line'],
                            ARRAY['#2ca02c', '#d62728', '#7f7f7f', '#d62728', '#1f77b4'],
                            ARRAY['passed', 'failed', 'to be repeated',
                                  'objective: ' || (s.capacity->>'slo'),
                                  'capacity found']);
    top1 := 52 + lg.height + 14;
    ph := GREATEST((height - 58 - top1 - 18) / 2, 10);
    bot1 := top1 + ph;
    top2 := bot1 + 18;
    bot2 := top2 + ph;
    yt1 := bench._svg_ticks(0, xmax, GREATEST(2, LEAST(6, floor(ph / 20)::integer)));
    yt2 := bench._svg_ticks(0, GREATEST((SELECT max(v) FROM unnest(hi) v),
                                        (s.capacity->>'limit_ms')::double precision) * 1.05,
                            GREATEST(2, LEAST(6, floor(ph / 20)::integer)));

    sub := sub || (s.status || ', started ' || to_char(s.started_at, 'YYYY-MM-DD HH24:MI:SS'))
               || (c.runs || ' run' || CASE WHEN c.runs = 1 THEN '' ELSE 's' END
                   || ' (' || c.repeats || ' repeated)');
    IF c.probe_tps IS NOT NULL THEN
        sub := sub || ('unthrottled probe ' || round(c.probe_tps::numeric, 1) || ' tps');
    END IF;
    sub := sub || CASE WHEN c.capacity_tps IS NOT NULL
                       THEN 'capacity ' || c.capacity_tps || ' tps (' || coalesce(c.limited_by, 'running') || ')'
                       ELSE 'no capacity found (' || coalesce(c.limited_by, 'running') || ')' END;
    IF s.tag IS NOT NULL THEN
        sub := sub || ('tag ' || s.tag);
    END IF;

    o := ARRAY[bench._svg_open(width, height, format('suite %s: capacity under %s', s.id, s.capacity->>'slo')),
               bench._svg_heading(width,
                   format('suite %s: capacity of %s at %s client%s under %s, PostgreSQL %s', s.id, s.workload,
                          s.clients[1], CASE WHEN s.clients[1] = 1 THEN '' ELSE 's' END,
                          s.capacity->>'slo', split_part(s.server_version, ' ', 1)),
                   array_to_string(sub, ', ')),
               lg.svg,
               bench._svg_panel(pl, top1, pw, ph, xt[1], xt[cardinality(xt)], xt, NULL,
                                yt1, bench._svg_tick_labels(yt1), 'achieved tps'),
               bench._svg_panel(pl, top2, pw, ph, xt[1], xt[cardinality(xt)], xt, bench._svg_tick_labels(xt),
                                yt2, bench._svg_tick_labels(yt2),
                                split_part(s.capacity->>'slo', ' ', 1) || ' latency (ms)'),
               bench._svg_text(pl + pw / 2, height - 14, 'offered tps',
                               'class="axis-title" font-size="12" fill="#222222" text-anchor="middle"')];

    IF coalesce(n, 0) = 0 THEN
        o := o || bench._svg_no_data(pl + pw / 2, top1 + ph / 2,
                                     CASE WHEN s.status = 'running' THEN 'no rate has been offered yet'
                                          ELSE 'the search offered no rate' END)
               || bench._svg_no_data(pl + pw / 2, top2 + ph / 2);
        RETURN array_to_string(o, E'\n') || E'\n</svg>';
    END IF;

    -- the diagonal (achieved = offered), the objective's limit, the capacity
    o := o || format('<path class="keeping-up" d="M%s %sL%s %s" stroke="#999999" stroke-width="1" stroke-dasharray="4 3" fill="none"/>',
                     bench._svg_num(pl), bench._svg_num(bot1),
                     bench._svg_num(pl + LEAST(xt[cardinality(xt)], yt1[cardinality(yt1)]) / xt[cardinality(xt)] * pw),
                     bench._svg_num(bot1 - LEAST(xt[cardinality(xt)], yt1[cardinality(yt1)]) / yt1[cardinality(yt1)] * ph))
           || format('<path class="slo" d="M%s %sH%s" stroke="#d62728" stroke-width="1.5" stroke-dasharray="6 4" fill="none"/>',
                     bench._svg_num(pl),
                     bench._svg_num(bot2 - (s.capacity->>'limit_ms')::double precision / yt2[cardinality(yt2)] * ph),
                     bench._svg_num(pl + pw));
    IF c.capacity_tps IS NOT NULL THEN
        o := o || format('<path class="capacity" d="M%s %sV%sM%s %sV%s" stroke="#1f77b4" stroke-width="1.5" fill="none"/>',
                         bench._svg_num(pl + c.capacity_tps / xt[cardinality(xt)] * pw), bench._svg_num(top1),
                         bench._svg_num(bot1),
                         bench._svg_num(pl + c.capacity_tps / xt[cardinality(xt)] * pw), bench._svg_num(top2),
                         bench._svg_num(bot2));
    END IF;

    -- each rate: its achieved rate; its percentile with the interval
    o := o || ARRAY(
        SELECT format('<circle class="achieved" cx="%s" cy="%s" r="4" fill="%s"><title>offered %s tps: achieved %s tps</title></circle>',
                      bench._svg_num(pl + rate[i] / xt[cardinality(xt)] * pw),
                      bench._svg_num(bot1 - coalesce(ach[i], 0) / yt1[cardinality(yt1)] * ph), colour[i],
                      rate[i], round(coalesce(ach[i], 0)::numeric, 1))
          FROM generate_series(1, n) i ORDER BY i);
    o := o || ARRAY(
        SELECT format('<path class="interval" d="M%s %sV%s" stroke="%s" stroke-width="1.2" fill="none"/>',
                      bench._svg_num(pl + rate[i] / xt[cardinality(xt)] * pw),
                      bench._svg_num(bot2 - lo[i] / yt2[cardinality(yt2)] * ph),
                      bench._svg_num(bot2 - hi[i] / yt2[cardinality(yt2)] * ph), colour[i])
          FROM generate_series(1, n) i WHERE lo[i] IS NOT NULL AND hi[i] IS NOT NULL ORDER BY i);
    o := o || ARRAY(
        SELECT format('<circle class="percentile" cx="%s" cy="%s" r="4" fill="%s"><title>offered %s tps: %s %s ms [%s, %s]</title></circle>',
                      bench._svg_num(pl + rate[i] / xt[cardinality(xt)] * pw),
                      bench._svg_num(bot2 - pct[i] / yt2[cardinality(yt2)] * ph), colour[i],
                      rate[i], split_part(s.capacity->>'slo', ' ', 1), round(pct[i]::numeric, 3),
                      round(lo[i]::numeric, 3), round(hi[i]::numeric, 3))
          FROM generate_series(1, n) i WHERE pct[i] IS NOT NULL ORDER BY i);
    RETURN array_to_string(o, E'\n') || E'\n</svg>';
END
$fn$;

COMMENT ON FUNCTION bench.chart_capacity(bigint, integer, integer) IS
    'A capacity search as an SVG chart: achieved rate and the objective''s percentile against the offered rate, with the limit';
