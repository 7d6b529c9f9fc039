--
-- bench.chart_run: throughput and p99 latency of one run over time, as two
-- panels over one elapsed-time axis: a point per progress interval, at the
-- interval's end.  Warm-up intervals are shaded grey; stalls (intervals
-- under 10% of the median tps of the measured intervals) red; the outage
-- of a run that reconnects (from the first client's last success before a
-- lost connection to the last client's first success after it) purple,
-- labelled with its length and the clients' median downtime; checkpoints
-- are dashed lines where the checkpoint counters of the run's samples went
-- up (at the sample that saw it: within one sample_interval after it
-- started).
--
CREATE OR REPLACE FUNCTION bench.chart_run(run_id bigint, width integer DEFAULT 900, height integer DEFAULT 560)
RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    tps_colour  constant text := '#1f77b4';
    p99_colour  constant text := '#ff7f0e';
    stall_colour constant text := '#d62728';
    warm_colour constant text := '#888888';
    ck_colour   constant text := '#555555';
    out_colour  constant text := '#9467bd';
    out_from    double precision;   -- elapsed at the outage's start
    out_to      double precision;   -- and at its end (the run's, when open)
    n_out       bigint;             -- clients with an outage
    r           bench.runs;
    n           integer;            -- progress intervals
    xmax        double precision;   -- elapsed at the end of the last one
    tps_max     double precision;
    p99_max     double precision;
    warm_end    double precision;   -- elapsed at the end of the warm-up
    med         double precision;   -- median tps of the measured intervals
    stall_below double precision;   -- tps under which an interval is a stall
    nstalls     integer;
    ck_at       double precision[]; -- elapsed of the samples that saw checkpoints
    ck_n        bigint[];           -- and how many
    kinds       text[] := ARRAY['line', 'line'];
    colours     text[] := ARRAY[tps_colour, p99_colour];
    names       text[] := ARRAY['tps', 'p99 latency'];
    lg          record;
    sub         text[] := '{}';
    -- layout, in pixels: two panels of height ph, the tps one above
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
    -- data to pixels: x = ax + bx * elapsed, y = ayN + byN * value
    ax          constant double precision := 72;
    bx          double precision;
    ay1         double precision;
    by1         double precision;
    ay2         double precision;
    by2         double precision;
    x           double precision;
    last_label  double precision := '-Infinity';
    o           text[];
BEGIN
    IF chart_run.run_id IS NULL THEN
        RAISE EXCEPTION 'argument "run_id" of bench.chart_run must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the id of a run, as bench.runs lists them.';
    END IF;
    PERFORM bench._svg_check_size('bench.chart_run', width, height);
    SELECT * INTO r FROM bench.runs WHERE id = chart_run.run_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'run % does not exist', chart_run.run_id
            USING ERRCODE = 'no_data_found',
                  HINT = 'bench.runs lists the runs.';
    END IF;
    -- aborted as soon as its coordinator is gone
    r := bench._run_state(r);

    -- the intervals; the median is of the measured ones (of all when the
    -- run never left its warm-up)
    SELECT count(*), max(p.elapsed_s), max(p.tps), max(p.latency_p99_ms),
           max(p.elapsed_s) FILTER (WHERE p.in_warmup),
           COALESCE(percentile_cont(0.5) WITHIN GROUP (ORDER BY p.tps) FILTER (WHERE NOT p.in_warmup),
                    percentile_cont(0.5) WITHIN GROUP (ORDER BY p.tps))
      INTO n, xmax, tps_max, p99_max, warm_end, med
      FROM bench.progress p
     WHERE p.run_id = r.id;
    stall_below := CASE WHEN med > 0 THEN med * 0.1 END;
    SELECT count(*) INTO nstalls
      FROM bench.progress p
     WHERE p.run_id = r.id AND p.tps < stall_below;

    -- checkpoints: the samples whose timed + requested count went up
    SELECT COALESCE(array_agg(c.elapsed_s ORDER BY c.sample_no), '{}'),
           COALESCE(array_agg(c.n ORDER BY c.sample_no), '{}')
      INTO ck_at, ck_n
      FROM (SELECT s.sample_no, s.elapsed_s,
                   s.checkpoints_timed + s.checkpoints_requested
                   - lag(s.checkpoints_timed + s.checkpoints_requested) OVER (ORDER BY s.sample_no) AS n,
                   s.server_started IS NOT DISTINCT FROM lag(s.server_started) OVER (ORDER BY s.sample_no) AS same_server
              FROM bench.sample_counters s
             WHERE s.run_id = r.id) c
     WHERE c.n > 0 AND c.same_server;

    -- without intervals, the time axis spans the samples (or the run)
    IF n = 0 THEN
        SELECT max(s.elapsed_s) INTO xmax FROM bench.samples s WHERE s.run_id = r.id;
        xmax := COALESCE(xmax, r.measured_s);
    END IF;
    IF xmax IS NULL OR NOT xmax > 0 THEN
        xmax := 1;
    END IF;

    IF warm_end IS NOT NULL THEN
        kinds := kinds || 'band'::text; colours := colours || warm_colour; names := names || 'warm-up'::text;
    END IF;
    IF nstalls > 0 THEN
        kinds := kinds || 'band'::text; colours := colours || stall_colour;
        names := names || 'stall (under 10% of the median tps)'::text;
    END IF;
    -- the outage of a run that reconnects
    IF r.outage_started IS NOT NULL AND r.started_at IS NOT NULL THEN
        out_from := GREATEST(extract(epoch FROM r.outage_started - r.started_at)::double precision, 0);
        out_to := LEAST(COALESCE(extract(epoch FROM r.outage_ended - r.started_at)::double precision, xmax), xmax);
        kinds := kinds || 'band'::text; colours := colours || out_colour;
        SELECT count(*) INTO n_out FROM bench.outages o WHERE o.run_id = r.id;
        names := names || format('outage: %s client%s without a connection%s', n_out,
                                 CASE WHEN n_out = 1 THEN '' ELSE 's' END,
                                 CASE WHEN r.outage_ended IS NULL THEN ', still at the end' ELSE '' END);
    END IF;
    IF cardinality(ck_at) > 0 THEN
        kinds := kinds || 'dash'::text; colours := colours || ck_colour; names := names || 'checkpoint'::text;
    END IF;

    -- layout: heading, legend, room for the checkpoint labels, the two
    -- panels 18 px apart, the x tick labels and the x title under them
    lg := bench._svg_legend(pl, 52, pw, GREATEST(18, (height - 120) * 0.2), kinds, colours, names);
    top1 := 52 + lg.height + 20;
    ph := GREATEST((height - 46 - top1 - 18) / 2, 10);
    bot1 := top1 + ph;
    top2 := bot1 + 18;
    bot2 := top2 + ph;
    xt := bench._svg_ticks(0, xmax, GREATEST(2, LEAST(10, floor(pw / 80)::integer)));
    yt1 := bench._svg_ticks(0, tps_max * 1.02, GREATEST(2, LEAST(6, floor(ph / 20)::integer)));
    yt2 := bench._svg_ticks(0, p99_max * 1.02, GREATEST(2, LEAST(6, floor(ph / 20)::integer)));
    bx := pw / xt[cardinality(xt)];
    by1 := -ph / (yt1[cardinality(yt1)] - yt1[1]);
    ay1 := bot1 - by1 * yt1[1];
    by2 := -ph / (yt2[cardinality(yt2)] - yt2[1]);
    ay2 := bot2 - by2 * yt2[1];

    sub := sub || (r.status || ', started ' || to_char(r.started_at, 'YYYY-MM-DD HH24:MI:SS'));
    sub := sub || CASE WHEN r.transactions_per_client IS NOT NULL
                       THEN r.transactions_per_client || ' transactions per client'
                       ELSE bench._svg_num(extract(epoch FROM r.duration)::double precision) || ' s' END;
    IF r.warmup > '0' THEN
        sub := sub || ('warm-up ' || bench._svg_num(extract(epoch FROM r.warmup)::double precision) || ' s');
    END IF;
    IF r.progress > '0' THEN
        sub := sub || ('progress every ' || bench._svg_num(extract(epoch FROM r.progress)::double precision) || ' s');
    END IF;
    IF r.tps IS NOT NULL THEN
        sub := sub || (round(r.tps::numeric) || ' tps'
                       || COALESCE(', p99 ' || round(r.latency_p99_ms::numeric, 3) || ' ms', '')
                       || ' overall');
    END IF;
    IF r.tag IS NOT NULL THEN
        sub := sub || ('tag ' || r.tag);
    END IF;

    o := ARRAY[bench._svg_open(width, height, format('run %s: tps and p99 latency over time', r.id)),
               bench._svg_heading(width,
                   format('run %s: %s, %s client%s, PostgreSQL %s', r.id, r.workload, r.clients,
                          CASE WHEN r.clients = 1 THEN '' ELSE 's' END, split_part(r.server_version, ' ', 1)),
                   array_to_string(sub, ', ')),
               lg.svg,
               bench._svg_panel(pl, top1, pw, ph, 0, xt[cardinality(xt)], xt, NULL,
                                yt1, bench._svg_tick_labels(yt1), 'tps'),
               bench._svg_panel(pl, top2, pw, ph, 0, xt[cardinality(xt)], xt, bench._svg_tick_labels(xt),
                                yt2, bench._svg_tick_labels(yt2), 'p99 latency (ms)'),
               bench._svg_text(pl + pw / 2, bot2 + 38, 'elapsed (s)',
                               'class="axis-title" font-size="12" fill="#222222" text-anchor="middle"')];

    -- shaded spans of time, across both panels
    IF warm_end IS NOT NULL THEN
        o := o || format('<rect class="warmup" x="%s" y="%s" width="%s" height="%s" fill="%s" fill-opacity="0.2"/>',
                         bench._svg_num(ax), bench._svg_num(top1), bench._svg_num(bx * warm_end),
                         bench._svg_num(bot2 - top1), warm_colour);
        IF bx * warm_end >= 56 THEN
            o := o || bench._svg_text(ax + 5, bot1 - 6, 'warm-up', 'font-size="11" fill="#555555"');
        END IF;
    END IF;
    IF nstalls > 0 THEN
        o := o || ARRAY(
            SELECT format('<rect class="stall" x="%s" y="%s" width="%s" height="%s" fill="%s" fill-opacity="0.2"/>',
                          bench._svg_num(ax + bx * q.s), bench._svg_num(top1),
                          bench._svg_num(GREATEST(bx * (p.elapsed_s - q.s), 2)),
                          bench._svg_num(bot2 - top1), stall_colour)
              FROM bench.progress p
             CROSS JOIN LATERAL (SELECT GREATEST(p.elapsed_s - extract(epoch FROM p.interval_end - p.interval_start)::double precision, 0) AS s) q
             WHERE p.run_id = r.id AND p.tps < stall_below
             ORDER BY p.elapsed_s);
    END IF;

    IF out_from IS NOT NULL THEN
        o := o || format('<rect class="outage" x="%s" y="%s" width="%s" height="%s" fill="%s" fill-opacity="0.25"/>',
                         bench._svg_num(ax + bx * out_from), bench._svg_num(top1),
                         bench._svg_num(GREATEST(bx * (out_to - out_from), 2)),
                         bench._svg_num(bot2 - top1), out_colour);
        o := o || bench._svg_text(ax + bx * out_from + 3, top1 + 12,
                      format('outage %s s, downtime median %s s', bench._svg_num(round((out_to - out_from)::numeric, 2)::double precision),
                             bench._svg_num(round((r.downtime_median_ms / 1000)::numeric, 2)::double precision)),
                      format('class="outage-label" font-size="10" fill="%s"', out_colour));
    END IF;

    -- checkpoints: a dashed line across both panels, labelled above unless
    -- too close to the previous label
    FOR i IN 1 .. cardinality(ck_at) LOOP
        x := ax + bx * LEAST(GREATEST(ck_at[i], 0), xt[cardinality(xt)]);
        o := o || format('<line class="checkpoint" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.2" stroke-dasharray="5,4"/>',
                         bench._svg_num(x), bench._svg_num(top1), bench._svg_num(x), bench._svg_num(bot2), ck_colour);
        IF x - last_label >= 80 THEN
            o := o || bench._svg_text(x, top1 - 5,
                          'checkpoint' || CASE WHEN ck_n[i] > 1 THEN ' &#215;' || ck_n[i] ELSE '' END,
                          format('font-size="10" fill="%s" text-anchor="%s"', ck_colour,
                                 CASE WHEN x - 30 < pl THEN 'start' WHEN x + 30 > pl + pw THEN 'end' ELSE 'middle' END));
            last_label := x;
        END IF;
    END LOOP;

    -- the series: tps, and p99 latency broken where an interval had none
    o := o || (SELECT format('<polyline class="tps" fill="none" stroke="%s" stroke-width="1.5" stroke-linejoin="round" points="%s"/>',
                             tps_colour,
                             string_agg(bench._svg_num(ax + bx * p.elapsed_s) || ',' || bench._svg_num(ay1 + by1 * p.tps),
                                        ' ' ORDER BY p.elapsed_s))
                 FROM bench.progress p
                WHERE p.run_id = r.id
               HAVING count(*) > 0);
    o := o || ARRAY(
        SELECT format('<polyline class="p99" fill="none" stroke="%s" stroke-width="1.5" stroke-linejoin="round" points="%s"/>',
                      p99_colour,
                      string_agg(bench._svg_num(ax + bx * q.elapsed_s) || ',' || bench._svg_num(ay2 + by2 * q.latency_p99_ms),
                                 ' ' ORDER BY q.elapsed_s))
          FROM (SELECT p.elapsed_s, p.latency_p99_ms,
                       count(*) FILTER (WHERE p.latency_p99_ms IS NULL) OVER (ORDER BY p.elapsed_s) AS segment
                  FROM bench.progress p
                 WHERE p.run_id = r.id) q
         WHERE q.latency_p99_ms IS NOT NULL
         GROUP BY q.segment
         ORDER BY q.segment);
    -- points too, while there are few enough to tell apart
    IF n BETWEEN 1 AND 120 THEN
        o := o || (SELECT format('<g class="tps-points" fill="%s">', tps_colour)
                          || string_agg(format('<circle cx="%s" cy="%s" r="2.2"/>',
                                               bench._svg_num(ax + bx * p.elapsed_s), bench._svg_num(ay1 + by1 * p.tps)),
                                        '' ORDER BY p.elapsed_s) || '</g>'
                     FROM bench.progress p
                    WHERE p.run_id = r.id);
        o := o || (SELECT format('<g class="p99-points" fill="%s">', p99_colour)
                          || string_agg(format('<circle cx="%s" cy="%s" r="2.2"/>',
                                               bench._svg_num(ax + bx * p.elapsed_s), bench._svg_num(ay2 + by2 * p.latency_p99_ms)),
                                        '' ORDER BY p.elapsed_s) || '</g>'
                     FROM bench.progress p
                    WHERE p.run_id = r.id AND p.latency_p99_ms IS NOT NULL);
    END IF;
    IF nstalls > 0 THEN
        o := o || ARRAY(
            SELECT format('<circle class="stall-point" cx="%s" cy="%s" r="3.5" fill="%s"/>',
                          bench._svg_num(ax + bx * p.elapsed_s), bench._svg_num(ay1 + by1 * p.tps), stall_colour)
              FROM bench.progress p
             WHERE p.run_id = r.id AND p.tps < stall_below
             ORDER BY p.elapsed_s);
    END IF;

    IF n = 0 THEN
        o := o || bench._svg_no_data(pl + pw / 2, top1 + ph / 2,
                                     CASE WHEN r.progress = '0' THEN 'the run was made with progress => ''0'''
                                          WHEN r.status = 'running' THEN 'no progress interval has ended yet'
                                          ELSE 'the run recorded no progress intervals' END)
               || bench._svg_no_data(pl + pw / 2, top2 + ph / 2);
    END IF;
    RETURN array_to_string(o, E'\n') || E'\n</svg>';
END
$fn$;

COMMENT ON FUNCTION bench.chart_run(bigint, integer, integer) IS
    'A run as an SVG chart: tps and p99 latency per progress interval over elapsed time, with warm-up, stalls and checkpoints marked';
