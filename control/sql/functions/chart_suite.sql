--
-- bench.chart_suite: tps against client count for a suite: the median of
-- the finished repeats as a line through points, with bars from the
-- slowest to the fastest repeat; under it the same for p99 latency.
-- Client counts are evenly spaced categories, in ascending order; one
-- without a finished run keeps its place and label, without a point.
--
CREATE OR REPLACE FUNCTION bench.chart_suite(suite_id bigint, width integer DEFAULT 900, height integer DEFAULT 560)
RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    tps_colour  constant text := '#1f77b4';
    p99_colour  constant text := '#ff7f0e';
    s           bench.suites;
    n           integer;            -- client counts
    done        integer;            -- finished runs
    cl          integer[];
    rdone       integer[];
    rplan       integer[];
    tmed        double precision[];
    tmin        double precision[];
    tmax        double precision[];
    lmed        double precision[];
    lmin        double precision[];
    lmax        double precision[];
    xt          double precision[];
    xl          text[];
    every       integer;            -- a label every so many categories
    sub         text[] := '{}';
    lg          record;
    pl          constant double precision := 72;
    pw          double precision := width - 72 - 24;
    top1        double precision;
    bot1        double precision;
    top2        double precision;
    bot2        double precision;
    ph          double precision;
    yt1         double precision[];
    yt2         double precision[];
    bx          double precision;
    ax          double precision;
    o           text[];
BEGIN
    IF chart_suite.suite_id IS NULL THEN
        RAISE EXCEPTION 'argument "suite_id" of bench.chart_suite must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the id of a suite, as bench.suites lists them.';
    END IF;
    PERFORM bench._svg_check_size('bench.chart_suite', width, height);
    SELECT * INTO s FROM bench.suites WHERE id = chart_suite.suite_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'suite % does not exist', chart_suite.suite_id
            USING ERRCODE = 'no_data_found',
                  HINT = 'bench.suites lists the suites.';
    END IF;

    -- one category per client count (a count listed twice is drawn once)
    SELECT count(*), COALESCE(sum(m.runs_done), 0),
           array_agg(m.clients ORDER BY m.clients), array_agg(m.runs_done ORDER BY m.clients),
           array_agg(m.runs_planned ORDER BY m.clients),
           array_agg(m.tps_median ORDER BY m.clients), array_agg(m.tps_min ORDER BY m.clients),
           array_agg(m.tps_max ORDER BY m.clients),
           array_agg(m.latency_p99_ms_median ORDER BY m.clients), array_agg(m.latency_p99_ms_min ORDER BY m.clients),
           array_agg(m.latency_p99_ms_max ORDER BY m.clients)
      INTO n, done, cl, rdone, rplan, tmed, tmin, tmax, lmed, lmin, lmax
      FROM (SELECT DISTINCT ON (ss.clients) ss.*
              FROM bench.suite_summary ss
             WHERE ss.suite_id = s.id
             ORDER BY ss.clients, ss.position) m;

    -- x: category i at i, half a step of room at both ends; labels thinned
    -- out when they would touch, and "(k of m)" under a count whose
    -- repeats are not all done
    bx := pw / GREATEST(n, 1);
    ax := pl - bx / 2;
    every := GREATEST(1, ceil(44 / bx)::integer);
    xt := ARRAY(SELECT generate_series(1, n)::double precision);
    xl := ARRAY(SELECT CASE WHEN (i - 1) % every = 0
                            THEN cl[i] || CASE WHEN rdone[i] < rplan[i]
                                               THEN E'\n(' || rdone[i] || ' of ' || rplan[i] || ')' ELSE '' END
                       END
                  FROM generate_series(1, n) i);

    lg := bench._svg_legend(pl, 52, pw, GREATEST(18, (height - 120) * 0.2), ARRAY['linepoint', 'errorbar', 'linepoint'],
                            ARRAY[tps_colour, '#555555', p99_colour],
                            ARRAY['tps (median of the repeats)', 'slowest to fastest repeat', 'p99 latency (median)']);
    top1 := 52 + lg.height + 14;
    ph := GREATEST((height - 58 - top1 - 18) / 2, 10);
    bot1 := top1 + ph;
    top2 := bot1 + 18;
    bot2 := top2 + ph;
    yt1 := bench._svg_ticks(0, (SELECT max(v) FROM unnest(tmax) v) * 1.02,
                            GREATEST(2, LEAST(6, floor(ph / 20)::integer)));
    yt2 := bench._svg_ticks(0, (SELECT max(v) FROM unnest(lmax) v) * 1.02,
                            GREATEST(2, LEAST(6, floor(ph / 20)::integer)));

    sub := sub || (s.status || ', started ' || to_char(s.started_at, 'YYYY-MM-DD HH24:MI:SS'))
               || (done || ' of ' || s.runs_planned || ' runs done')
               || (s.run_order || ' order');
    IF s.schedule IS NOT NULL THEN
        sub := sub || ('schedule ' || s.schedule);
    END IF;
    IF s.tag IS NOT NULL THEN
        sub := sub || ('tag ' || s.tag);
    END IF;

    o := ARRAY[bench._svg_open(width, height, format('suite %s: tps and p99 latency by client count', s.id)),
               bench._svg_heading(width,
                   format('suite %s: %s, %s client%s, %s repeat%s each, PostgreSQL %s', s.id, s.workload,
                          array_to_string(cl, ', '), CASE WHEN cl = '{1}' THEN '' ELSE 's' END,
                          s.repeat, CASE WHEN s.repeat = 1 THEN '' ELSE 's' END, split_part(s.server_version, ' ', 1)),
                   array_to_string(sub, ', ')),
               lg.svg,
               bench._svg_panel(pl, top1, pw, ph, 0.5, n + 0.5, xt, NULL,
                                yt1, bench._svg_tick_labels(yt1), 'tps'),
               bench._svg_panel(pl, top2, pw, ph, 0.5, n + 0.5, xt, xl,
                                yt2, bench._svg_tick_labels(yt2), 'p99 latency (ms)'),
               bench._svg_text(pl + pw / 2, height - 14, 'clients',
                               'class="axis-title" font-size="12" fill="#222222" text-anchor="middle"')];

    IF done = 0 THEN
        o := o || bench._svg_no_data(pl + pw / 2, top1 + ph / 2,
                                     CASE WHEN s.status = 'running' THEN 'no run of the suite has finished yet'
                                          ELSE 'the suite has no finished run' END)
               || bench._svg_no_data(pl + pw / 2, top2 + ph / 2);
        RETURN array_to_string(o, E'\n') || E'\n</svg>';
    END IF;

    -- each panel: bars, then the median line (broken at a count without
    -- runs), then its points
    o := o || ARRAY(
        SELECT format('<path class="%s-range" d="M%s %sV%sM%s %sH%sM%s %sH%s" stroke="%s" stroke-width="1.2" fill="none"/>',
                      k.name, bench._svg_num(x), bench._svg_num(ylo), bench._svg_num(yhi),
                      bench._svg_num(x - 5), bench._svg_num(ylo), bench._svg_num(x + 5),
                      bench._svg_num(x - 5), bench._svg_num(yhi), bench._svg_num(x + 5), k.colour)
          FROM (VALUES (1, 'tps', tps_colour, tmin, tmax, yt1, bot1),
                       (2, 'p99', p99_colour, lmin, lmax, yt2, bot2)) k (no, name, colour, lo, hi, yt, bot)
         CROSS JOIN generate_series(1, n) i
         CROSS JOIN LATERAL (SELECT ax + bx * i AS x,
                                    k.bot - (k.lo[i] - k.yt[1]) / (k.yt[cardinality(k.yt)] - k.yt[1]) * ph AS ylo,
                                    k.bot - (k.hi[i] - k.yt[1]) / (k.yt[cardinality(k.yt)] - k.yt[1]) * ph AS yhi) c
         WHERE k.lo[i] IS NOT NULL
         ORDER BY k.no, i);
    o := o || ARRAY(
        SELECT format('<polyline class="%s" fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round" points="%s"/>',
                      q.name, q.colour, string_agg(q.xy, ' ' ORDER BY q.i))
          FROM (SELECT k.no, k.name, k.colour, i,
                       bench._svg_num(ax + bx * i) || ',' ||
                       bench._svg_num(k.bot - (k.med[i] - k.yt[1]) / (k.yt[cardinality(k.yt)] - k.yt[1]) * ph) AS xy,
                       k.med[i] IS NULL AS gap,
                       count(*) FILTER (WHERE k.med[i] IS NULL) OVER (PARTITION BY k.no ORDER BY i) AS segment
                  FROM (VALUES (1, 'tps', tps_colour, tmed, yt1, bot1),
                               (2, 'p99', p99_colour, lmed, yt2, bot2)) k (no, name, colour, med, yt, bot)
                 CROSS JOIN generate_series(1, n) i) q
         WHERE NOT q.gap
         GROUP BY q.no, q.name, q.colour, q.segment
         ORDER BY q.no, q.segment);
    o := o || ARRAY(
        SELECT format('<circle class="%s-median" cx="%s" cy="%s" r="4" fill="%s"/>', k.name,
                      bench._svg_num(ax + bx * i),
                      bench._svg_num(k.bot - (k.med[i] - k.yt[1]) / (k.yt[cardinality(k.yt)] - k.yt[1]) * ph), k.colour)
          FROM (VALUES (1, 'tps', tps_colour, tmed, yt1, bot1),
                       (2, 'p99', p99_colour, lmed, yt2, bot2)) k (no, name, colour, med, yt, bot)
         CROSS JOIN generate_series(1, n) i
         WHERE k.med[i] IS NOT NULL
         ORDER BY k.no, i);
    RETURN array_to_string(o, E'\n') || E'\n</svg>';
END
$fn$;

COMMENT ON FUNCTION bench.chart_suite(bigint, integer, integer) IS
    'A suite as an SVG chart: median tps and p99 latency by client count, with the range of the repeats';
