--
-- bench.chart_suite: tps against client count for a suite: the median of
-- the finished repeats as a line through points, with bars from the
-- slowest to the fastest repeat; under it the same for p99 latency.
-- Client counts are evenly spaced categories, in ascending order; one
-- without a finished run keeps its place and label, without a point.  A
-- suite over several targets has a line per target in both panels, in a
-- colour of its own (the legend names them), its points and bars set a
-- little apart from the other targets' at each client count.
-- metric => 'nopm' draws TPC-C's new orders per minute (bench.tpcc_results)
-- instead of tps, for a suite of a workload with new-order.  The subtitle
-- names the suite's node when it has one (a fleet's central database
-- holds the suites of many; its targets are that node's).
--
CREATE OR REPLACE FUNCTION bench.chart_suite(suite_id bigint, width integer DEFAULT 900, height integer DEFAULT 560,
                                             metric text DEFAULT 'tps')
RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    tps_colour  constant text := '#1f77b4';
    p99_colour  constant text := '#ff7f0e';
    palette     constant text[] := ARRAY['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd',
                                         '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
    s           bench.suites;
    tg          text[];             -- the series: the targets, or one (NULL)
    nt          integer;
    c1          text;               -- a series' colours in the two panels
    c2          text;
    off         double precision;   -- its offset from the category's middle
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
    PERFORM bench._metric_check('bench.chart_suite', chart_suite.suite_id, metric);
    SELECT * INTO s FROM bench.suites WHERE id = chart_suite.suite_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'suite % does not exist', chart_suite.suite_id
            USING ERRCODE = 'no_data_found',
                  HINT = 'bench.suites lists the suites.';
    END IF;

    -- one category per client count (a count listed twice is drawn once);
    -- a suite over several targets: the runs of all of them, the ranges
    -- of the axes over all of them
    tg := COALESCE(s.targets, ARRAY[NULL::text]);
    nt := cardinality(tg);
    SELECT count(*), COALESCE(sum(m.runs_done), 0),
           array_agg(m.clients ORDER BY m.clients), array_agg(m.runs_done ORDER BY m.clients),
           array_agg(m.runs_planned ORDER BY m.clients),
           array_agg(m.tps_median ORDER BY m.clients), array_agg(m.tps_min ORDER BY m.clients),
           array_agg(m.tps_max ORDER BY m.clients),
           array_agg(m.latency_p99_ms_median ORDER BY m.clients), array_agg(m.latency_p99_ms_min ORDER BY m.clients),
           array_agg(m.latency_p99_ms_max ORDER BY m.clients)
      INTO n, done, cl, rdone, rplan, tmed, tmin, tmax, lmed, lmin, lmax
      FROM (SELECT ss.clients, sum(ss.runs_done)::integer AS runs_done,
                   sum(ss.runs_planned)::integer AS runs_planned,
                   min(CASE metric WHEN 'nopm' THEN ss.nopm_median ELSE ss.tps_median END) AS tps_median,
                   min(CASE metric WHEN 'nopm' THEN ss.nopm_min ELSE ss.tps_min END) AS tps_min,
                   max(CASE metric WHEN 'nopm' THEN ss.nopm_max ELSE ss.tps_max END) AS tps_max,
                   min(ss.latency_p99_ms_median) AS latency_p99_ms_median,
                   min(ss.latency_p99_ms_min) AS latency_p99_ms_min,
                   max(ss.latency_p99_ms_max) AS latency_p99_ms_max
              FROM (SELECT DISTINCT ON (x.clients, x.target) x.*
                      FROM bench.suite_summary x
                     WHERE x.suite_id = s.id
                     ORDER BY x.clients, x.target, x.position) ss
             GROUP BY ss.clients) m;

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

    IF s.targets IS NULL THEN
        lg := bench._svg_legend(pl, 52, pw, GREATEST(18, (height - 120) * 0.2), ARRAY['linepoint', 'errorbar', 'linepoint'],
                                ARRAY[tps_colour, '#555555', p99_colour],
                                ARRAY[CASE metric WHEN 'nopm' THEN 'NOPM' ELSE 'tps' END || ' (median of the repeats)',
                                      'slowest to fastest repeat', 'p99 latency (median)']);
    ELSE
        lg := bench._svg_legend(pl, 52, pw, GREATEST(18, (height - 120) * 0.2),
                                array_fill('linepoint'::text, ARRAY[nt]) || 'errorbar'::text,
                                ARRAY(SELECT palette[1 + (j - 1) % cardinality(palette)] FROM generate_series(1, nt) j)
                                    || '#555555'::text,
                                ARRAY(SELECT 'target ' || t || ' (median of the repeats)' FROM unnest(tg) t)
                                    || 'slowest to fastest repeat'::text);
    END IF;
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
    IF s.targets IS NOT NULL THEN
        sub := sub || ('targets ' || array_to_string(s.targets, ', '));
    END IF;
    IF s.node_name IS NOT NULL THEN
        sub := sub || ('node ' || s.node_name);
    END IF;

    o := ARRAY[bench._svg_open(width, height, format('suite %s: %s and p99 latency by client count', s.id,
                                                     CASE metric WHEN 'nopm' THEN 'NOPM' ELSE 'tps' END)),
               bench._svg_heading(width,
                   format('suite %s: %s, %s client%s, %s repeat%s each, PostgreSQL %s', s.id, s.workload,
                          array_to_string(cl, ', '), CASE WHEN cl = '{1}' THEN '' ELSE 's' END,
                          s.repeat, CASE WHEN s.repeat = 1 THEN '' ELSE 's' END, split_part(s.server_version, ' ', 1)),
                   array_to_string(sub, ', ')),
               lg.svg,
               bench._svg_panel(pl, top1, pw, ph, 0.5, n + 0.5, xt, NULL,
                                yt1, bench._svg_tick_labels(yt1),
                                CASE metric WHEN 'nopm' THEN 'NOPM (new orders per minute)' ELSE 'tps' END),
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

    -- each series (a target), each panel: bars, then the median line
    -- (broken at a count without runs), then its points
    FOR j IN 1 .. nt LOOP
        IF s.targets IS NULL THEN
            c1 := tps_colour;
            c2 := p99_colour;
            off := 0;
        ELSE
            c1 := palette[1 + (j - 1) % cardinality(palette)];
            c2 := c1;
            off := (j - (nt + 1) / 2.0) * LEAST(8, bx / (nt + 1));
            SELECT array_agg(CASE metric WHEN 'nopm' THEN m.nopm_median ELSE m.tps_median END ORDER BY c.i),
                   array_agg(CASE metric WHEN 'nopm' THEN m.nopm_min ELSE m.tps_min END ORDER BY c.i),
                   array_agg(CASE metric WHEN 'nopm' THEN m.nopm_max ELSE m.tps_max END ORDER BY c.i),
                   array_agg(m.latency_p99_ms_median ORDER BY c.i), array_agg(m.latency_p99_ms_min ORDER BY c.i),
                   array_agg(m.latency_p99_ms_max ORDER BY c.i)
              INTO tmed, tmin, tmax, lmed, lmin, lmax
              FROM unnest(cl) WITH ORDINALITY AS c(clients, i)
              LEFT JOIN LATERAL (SELECT x.* FROM bench.suite_summary x
                                  WHERE x.suite_id = s.id AND x.clients = c.clients AND x.target = tg[j]
                                  ORDER BY x.position LIMIT 1) m ON true;
        END IF;
        o := o || ARRAY(
            SELECT format('<path class="%s-range" d="M%s %sV%sM%s %sH%sM%s %sH%s" stroke="%s" stroke-width="1.2" fill="none"/>',
                          k.name, bench._svg_num(x), bench._svg_num(ylo), bench._svg_num(yhi),
                          bench._svg_num(x - 5), bench._svg_num(ylo), bench._svg_num(x + 5),
                          bench._svg_num(x - 5), bench._svg_num(yhi), bench._svg_num(x + 5), k.colour)
              FROM (VALUES (1, 'tps', c1, tmin, tmax, yt1, bot1),
                           (2, 'p99', c2, lmin, lmax, yt2, bot2)) k (no, name, colour, lo, hi, yt, bot)
             CROSS JOIN generate_series(1, n) i
             CROSS JOIN LATERAL (SELECT ax + bx * i + off AS x,
                                        k.bot - (k.lo[i] - k.yt[1]) / (k.yt[cardinality(k.yt)] - k.yt[1]) * ph AS ylo,
                                        k.bot - (k.hi[i] - k.yt[1]) / (k.yt[cardinality(k.yt)] - k.yt[1]) * ph AS yhi) c
             WHERE k.lo[i] IS NOT NULL
             ORDER BY k.no, i);
        o := o || ARRAY(
            SELECT format('<polyline class="%s" fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round" points="%s"/>',
                          q.name, q.colour, string_agg(q.xy, ' ' ORDER BY q.i))
              FROM (SELECT k.no, k.name, k.colour, i,
                           bench._svg_num(ax + bx * i + off) || ',' ||
                           bench._svg_num(k.bot - (k.med[i] - k.yt[1]) / (k.yt[cardinality(k.yt)] - k.yt[1]) * ph) AS xy,
                           k.med[i] IS NULL AS gap,
                           count(*) FILTER (WHERE k.med[i] IS NULL) OVER (PARTITION BY k.no ORDER BY i) AS segment
                      FROM (VALUES (1, 'tps', c1, tmed, yt1, bot1),
                                   (2, 'p99', c2, lmed, yt2, bot2)) k (no, name, colour, med, yt, bot)
                     CROSS JOIN generate_series(1, n) i) q
             WHERE NOT q.gap
             GROUP BY q.no, q.name, q.colour, q.segment
             ORDER BY q.no, q.segment);
        o := o || ARRAY(
            SELECT format('<circle class="%s-median" cx="%s" cy="%s" r="4" fill="%s"/>', k.name,
                          bench._svg_num(ax + bx * i + off),
                          bench._svg_num(k.bot - (k.med[i] - k.yt[1]) / (k.yt[cardinality(k.yt)] - k.yt[1]) * ph), k.colour)
              FROM (VALUES (1, 'tps', c1, tmed, yt1, bot1),
                           (2, 'p99', c2, lmed, yt2, bot2)) k (no, name, colour, med, yt, bot)
             CROSS JOIN generate_series(1, n) i
             WHERE k.med[i] IS NOT NULL
             ORDER BY k.no, i);
    END LOOP;
    RETURN array_to_string(o, E'\n') || E'\n</svg>';
END
$fn$;

COMMENT ON FUNCTION bench.chart_suite(bigint, integer, integer, text) IS
    'A suite as an SVG chart: median tps (or TPC-C''s NOPM) and p99 latency by client count, with the range of the repeats';
