--
-- bench.chart_schedule: the suites of a schedule over time, each client
-- count's tps relative to its baseline (1.0: the median of the schedule's
-- previous suites, as bench.schedule_results has it), one line per client
-- count.  The band is the schedule's threshold around 1.0; points flagged
-- as regressions are red.  A suite with no baseline yet (the schedule's
-- first) has no ratio: it is drawn as an open circle at 1.0, apart from
-- the lines, so that the chart shows when the schedule started and that
-- such suites exist without pretending they were compared.
--
CREATE OR REPLACE FUNCTION bench.chart_schedule(schedule text, width integer DEFAULT 900, height integer DEFAULT 560)
RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    palette     constant text[] := ARRAY['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b',
                                         '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
    red         constant text := '#d62728';
    band_colour constant text := '#2ca02c';
    sc          bench.schedules;
    known       boolean;
    wl          text;
    n           integer;            -- results (suite x client count)
    nsuites     integer;
    nbase       integer;            -- results without a baseline
    nreg        integer;            -- regressions
    thr         double precision;
    series      integer[];          -- client counts, ascending
    tlo         timestamptz;
    thi         timestamptz;
    rlo         double precision;
    rhi         double precision;
    span        double precision;
    tt          record;
    xt          double precision[];
    yt          double precision[];
    kinds       text[] := '{}';
    colours     text[] := '{}';
    names       text[] := '{}';
    sub         text[] := '{}';
    lg          record;
    pl          constant double precision := 72;
    pw          double precision := width - 72 - 24;
    top1        double precision;
    bot1        double precision;
    ph          double precision;
    -- x = ax + bx * epoch, y = ay + ky * ratio
    ax          double precision;
    bx          double precision;
    ay          double precision;
    ky          double precision;
    o           text[];
BEGIN
    IF chart_schedule.schedule IS NULL THEN
        RAISE EXCEPTION 'argument "schedule" of bench.chart_schedule must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the name of a schedule, as bench.schedules lists them.';
    END IF;
    PERFORM bench._svg_check_size('bench.chart_schedule', width, height);
    -- a schedule is known by its row, or by suites that ran under its name
    -- (its row may have been dropped since)
    SELECT * INTO sc FROM bench.schedules s WHERE s.name = chart_schedule.schedule;
    known := FOUND;
    IF NOT known AND NOT EXISTS (SELECT FROM bench.suites s WHERE s.schedule = chart_schedule.schedule) THEN
        RAISE EXCEPTION 'schedule "%" does not exist', chart_schedule.schedule
            USING ERRCODE = 'no_data_found',
                  HINT = 'bench.schedules lists the schedules.';
    END IF;
    wl := COALESCE(sc.workload,
                         (SELECT s.workload FROM bench.suites s WHERE s.schedule = chart_schedule.schedule
                           ORDER BY s.started_at DESC LIMIT 1));

    SELECT count(*), count(DISTINCT sr.suite_id), count(*) FILTER (WHERE sr.tps_ratio IS NULL),
           count(*) FILTER (WHERE sr.regression),
           max(sr.threshold), array_agg(DISTINCT sr.clients ORDER BY sr.clients),
           min(sr.started_at), max(sr.started_at), min(sr.tps_ratio), max(sr.tps_ratio)
      INTO n, nsuites, nbase, nreg, thr, series, tlo, thi, rlo, rhi
      FROM bench.schedule_results sr
     WHERE sr.schedule = chart_schedule.schedule;
    thr := COALESCE(thr, sc.threshold, 0.05);
    series := COALESCE(series, '{}');

    -- x: the suites' start times with 5% room at both ends; one suite (or
    -- none: around the schedule's creation) gets an hour either side
    IF n = 0 THEN
        tlo := COALESCE(sc.created_at, now());
        thi := tlo;
    END IF;
    span := extract(epoch FROM thi - tlo);
    IF span = 0 THEN
        tlo := tlo - interval '1 hour';
        thi := thi + interval '1 hour';
    ELSE
        tlo := tlo - make_interval(secs => GREATEST(span * 0.05, 30));
        thi := thi + make_interval(secs => GREATEST(span * 0.05, 30));
    END IF;
    -- y: the ratios and the band, with 10% of that room (ticks below,
    -- once the height of the plot is known)
    rlo := LEAST(COALESCE(rlo, 1), 1 - thr);
    rhi := GREATEST(COALESCE(rhi, 1), 1 + thr);

    FOR i IN 1 .. cardinality(series) LOOP
        kinds := kinds || 'linepoint'::text;
        colours := colours || palette[(i - 1) % cardinality(palette) + 1];
        names := names || (series[i] || CASE WHEN series[i] = 1 THEN ' client' ELSE ' clients' END);
    END LOOP;
    kinds := kinds || ARRAY['line', 'band'];
    colours := colours || ARRAY['#444444', band_colour];
    names := names || ARRAY['baseline (1.0)', format('within %s%%', bench._svg_num(thr * 100))];
    IF nreg > 0 THEN
        kinds := kinds || 'point'::text; colours := colours || red; names := names || 'regression'::text;
    END IF;
    IF nbase > 0 THEN
        kinds := kinds || 'hollow'::text; colours := colours || '#444444'::text;
        names := names || 'no baseline yet'::text;
    END IF;

    lg := bench._svg_legend(pl, 52, pw, GREATEST(18, (height - 120) * 0.2), kinds, colours, names);
    top1 := 52 + lg.height + 14;
    ph := GREATEST(height - 60 - top1, 10);
    yt := bench._svg_ticks(rlo - (rhi - rlo) * 0.1, rhi + (rhi - rlo) * 0.1,
                           GREATEST(2, LEAST(8, floor(ph / 25)::integer)));
    bot1 := top1 + ph;
    tt := bench._svg_time_ticks(tlo, thi, GREATEST(2, LEAST(10, floor(pw / 100)::integer)));
    xt := ARRAY(SELECT extract(epoch FROM t)::double precision FROM unnest(tt.ticks) t);
    bx := pw / extract(epoch FROM thi - tlo)::double precision;
    ax := pl - bx * extract(epoch FROM tlo)::double precision;
    ky := -ph / (yt[cardinality(yt)] - yt[1]);
    ay := bot1 - ky * yt[1];

    sub := sub || (nsuites || CASE WHEN nsuites = 1 THEN ' suite' ELSE ' suites' END
                   || CASE WHEN nreg > 0 THEN ', ' || nreg || ' regression' || CASE WHEN nreg = 1 THEN '' ELSE 's' END
                           ELSE '' END);
    IF known THEN
        sub := sub || ('cron ' || sc.cron)
                   || format('baseline: median of the previous %s suites', sc.baseline_runs);
    END IF;

    o := ARRAY[bench._svg_open(width, height, format('schedule %s: tps relative to the baseline', chart_schedule.schedule)),
               bench._svg_heading(width,
                   format('schedule "%s": %s, tps relative to the baseline', chart_schedule.schedule,
                          COALESCE(wl, 'no suites')),
                   array_to_string(sub, '; ')),
               lg.svg,
               bench._svg_panel(pl, top1, pw, ph, extract(epoch FROM tlo)::double precision,
                                extract(epoch FROM thi)::double precision, xt, tt.labels,
                                yt, bench._svg_tick_labels(yt), 'tps / baseline tps'),
               bench._svg_text(pl + pw / 2, height - 14,
                               bench._svg_escape('suite started (' || current_setting('TimeZone') || ')'),
                               'class="axis-title" font-size="12" fill="#222222" text-anchor="middle"')];

    IF n = 0 THEN
        o := o || bench._svg_no_data(pl + pw / 2, top1 + ph / 2, 'no suite of the schedule has finished');
        RETURN array_to_string(o, E'\n') || E'\n</svg>';
    END IF;

    -- the threshold band and the baseline
    o := o || format('<rect class="threshold" x="%s" y="%s" width="%s" height="%s" fill="%s" fill-opacity="0.2"/>',
                     bench._svg_num(pl), bench._svg_num(ay + ky * (1 + thr)), bench._svg_num(pw),
                     bench._svg_num(ky * -2 * thr), band_colour)
           || format('<line class="baseline" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#444444" stroke-width="1.2"/>',
                     bench._svg_num(pl), bench._svg_num(ay + ky), bench._svg_num(pl + pw), bench._svg_num(ay + ky));

    -- a line per client count through the suites that have a ratio
    o := o || ARRAY(
        SELECT format('<polyline class="series" fill="none" stroke="%s" stroke-width="1.8" stroke-linejoin="round" points="%s"/>',
                      palette[(array_position(series, sr.clients) - 1) % cardinality(palette) + 1],
                      string_agg(bench._svg_num(ax + bx * extract(epoch FROM sr.started_at)::double precision)
                                 || ',' || bench._svg_num(ay + ky * sr.tps_ratio), ' ' ORDER BY sr.started_at))
          FROM bench.schedule_results sr
         WHERE sr.schedule = chart_schedule.schedule AND sr.tps_ratio IS NOT NULL
         GROUP BY sr.clients
         ORDER BY sr.clients);
    -- the points: open at 1.0 without a baseline, red for a regression
    o := o || ARRAY(
        SELECT CASE WHEN sr.tps_ratio IS NULL
                    THEN format('<circle class="no-baseline" cx="%s" cy="%s" r="4" fill="#ffffff" stroke="%s" stroke-width="1.5"/>',
                                bench._svg_num(x), bench._svg_num(ay + ky), c)
                    WHEN sr.regression
                    THEN format('<circle class="regression" cx="%s" cy="%s" r="5" fill="%s"/>',
                                bench._svg_num(x), bench._svg_num(ay + ky * sr.tps_ratio), red)
                    ELSE format('<circle class="point" cx="%s" cy="%s" r="3.5" fill="%s"/>',
                                bench._svg_num(x), bench._svg_num(ay + ky * sr.tps_ratio), c)
               END
          FROM bench.schedule_results sr
         CROSS JOIN LATERAL (SELECT ax + bx * extract(epoch FROM sr.started_at)::double precision AS x,
                                    palette[(array_position(series, sr.clients) - 1) % cardinality(palette) + 1] AS c) p
         WHERE sr.schedule = chart_schedule.schedule
         ORDER BY sr.regression, sr.clients, sr.started_at);
    RETURN array_to_string(o, E'\n') || E'\n</svg>';
END
$fn$;

COMMENT ON FUNCTION bench.chart_schedule(text, integer, integer) IS
    'A schedule as an SVG chart: each suite''s tps relative to its rolling baseline over time, per client count, regressions in red';
