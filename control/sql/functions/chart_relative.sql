--
-- bench.chart_relative: relative throughput as grouped bars, one group per
-- step, one bar per run or suite (the base's at 1.0), a dashed line at 1.0.
-- metric => 'nopm' reads TPC-C's new orders per minute instead of tps.
--
CREATE OR REPLACE FUNCTION bench.chart_relative(base bigint, others bigint[],
                                                width integer DEFAULT 900, height integer DEFAULT 560,
                                                metric text DEFAULT 'tps')
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
    PERFORM bench._metric_check('bench.chart_relative', base, metric);
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
        rel := rel || CASE metric WHEN 'nopm' THEN r.relative_nopm ELSE r.relative END;
    END LOOP;
    nsteps := cardinality(steps);
    top_v := GREATEST(1.0, (SELECT max(q) FROM unnest(rel) q)) * 1.1;

    lg := bench._svg_legend(pl, 52, pw, GREATEST(18, (height - 120) * 0.25),
                            array_fill('point'::text, ARRAY[nseries]), colours, labels);
    pt := 52 + lg.height + 14;
    ph := GREATEST(height - pt - 58, 10);
    yt := bench._svg_ticks(0, top_v, GREATEST(2, LEAST(8, floor(ph / 30)::integer)));
    o := ARRAY[bench._svg_open(width, height, format('%s relative to %s %s',
                                                     CASE metric WHEN 'nopm' THEN 'NOPM' ELSE 'throughput' END,
                                                     base_kind, base)),
               bench._svg_heading(width,
                   format('%s relative to %s, by step', CASE metric WHEN 'nopm' THEN 'NOPM' ELSE 'throughput' END,
                          base_label),
                   format('%s %ss, each step''s %s divided by the base''s', nseries, base_kind,
                          CASE metric WHEN 'nopm' THEN 'new orders per minute' ELSE 'tps' END)),
               lg.svg,
               bench._svg_panel(pl, pt, pw, ph, 0.5, nsteps + 0.5,
                                ARRAY(SELECT generate_series(1, nsteps)::double precision), steps,
                                yt, bench._svg_tick_labels(yt),
                                CASE metric WHEN 'nopm' THEN 'relative NOPM' ELSE 'relative throughput' END),
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

COMMENT ON FUNCTION bench.chart_relative(bigint, bigint[], integer, integer, text) IS
    'Relative throughput (tps, or TPC-C''s NOPM) as an SVG chart: per step, a bar per run or suite, the base at 1.0';
GRANT EXECUTE ON FUNCTION bench.chart_relative(bigint, bigint[], integer, integer, text) TO PUBLIC;
