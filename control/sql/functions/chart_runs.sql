--
-- bench.chart_runs: several runs over time on one chart, throughput above
-- and p99 latency below, one line per run in its colour.  The legend names
-- each run by what differs between them (target, server version,
-- workload, clients, tag, the settings that differ), the title says what
-- they have in common.  Runs of a fleet's nodes: where they come from
-- more than one node, the target is named with its node ("rds @ aws-1",
-- as bench.compare_many names it); a node they share is in the title.
--
CREATE OR REPLACE FUNCTION bench.chart_runs(ids bigint[], width integer DEFAULT 900, height integer DEFAULT 560)
RETURNS text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    max_runs    constant integer := 12;
    palette     constant text[] := ARRAY['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b',
                                         '#e377c2', '#7f7f7f', '#bcbd22', '#17becf', '#393b79', '#ad494a'];
    keys        text[];
    d           record;         -- which facets differ
    labels      text[];
    common      text[];
    n           integer;        -- progress rows of all the runs
    nempty      integer;        -- runs without any
    xmax        double precision;
    tps_max     double precision;
    p99_max     double precision;
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
    ax          constant double precision := 72;
    bx          double precision;
    ay1         double precision;
    by1         double precision;
    ay2         double precision;
    by2         double precision;
    o           text[];
BEGIN
    IF chart_runs.ids IS NULL THEN
        RAISE EXCEPTION 'argument "ids" of bench.chart_runs must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the ids of the runs to draw, as in ARRAY[12, 15].';
    END IF;
    PERFORM bench._svg_check_size('bench.chart_runs', width, height);
    IF cardinality(ids) = 0 THEN
        RAISE EXCEPTION 'ids must list at least one run'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give the ids of the runs to draw, as in ARRAY[12, 15].';
    END IF;
    IF array_ndims(ids) > 1 THEN
        RAISE EXCEPTION 'ids must be a one-dimensional array'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give the ids as ARRAY[12, 15].';
    END IF;
    IF array_position(ids, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'ids must not hold a null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the ids of runs, as bench.runs lists them.';
    END IF;
    IF (SELECT count(DISTINCT i) FROM unnest(ids) i) < cardinality(ids) THEN
        RAISE EXCEPTION 'ids lists run % twice', (SELECT i FROM unnest(ids) i GROUP BY i HAVING count(*) > 1 ORDER BY i LIMIT 1)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give each run once.';
    END IF;
    IF cardinality(ids) > max_runs THEN
        RAISE EXCEPTION 'bench.chart_runs draws at most % runs, not %', max_runs, cardinality(ids)
            USING ERRCODE = 'program_limit_exceeded',
                  HINT = 'More lines than that cannot be told apart: draw them in groups.';
    END IF;
    FOR i IN 1 .. cardinality(ids) LOOP
        IF NOT EXISTS (SELECT FROM bench.runs r WHERE r.id = ids[i]) THEN
            RAISE EXCEPTION 'run % does not exist', ids[i]
                USING ERRCODE = 'no_data_found',
                      HINT = 'bench.runs lists the runs.';
        END IF;
    END LOOP;

    -- what differs between the runs, and what they share
    keys := bench._differing_settings(ids);
    SELECT count(DISTINCT (COALESCE(r.target, E'\x01'), COALESCE(r.node_name, E'\x01'))) > 1 AS target,
           count(DISTINCT COALESCE(r.node_name, E'\x01')) > 1 AS node,
           count(DISTINCT r.server_version) > 1 AS version,
           count(DISTINCT r.workload) > 1 AS workload,
           count(DISTINCT r.clients) > 1 AS clients,
           count(DISTINCT COALESCE(r.tag, E'\x01')) > 1 AS tag,
           min(COALESCE(r.target, 'local')) AS the_target, min(r.node_name) AS the_node,
           min(split_part(r.server_version, ' ', 1)) AS the_version,
           min(r.workload) AS the_workload, min(r.clients) AS the_clients, min(r.tag) AS the_tag
      INTO d
      FROM bench.runs r WHERE r.id = ANY (ids);
    labels := ARRAY(
        SELECT 'run ' || r.id || COALESCE(': ' || NULLIF(concat_ws(', ',
                   CASE WHEN d.target THEN COALESCE(r.target, 'local')
                                           || CASE WHEN d.node THEN COALESCE(' @ ' || r.node_name, '') ELSE '' END END,
                   CASE WHEN d.version THEN split_part(r.server_version, ' ', 1) END,
                   CASE WHEN d.workload THEN r.workload END,
                   CASE WHEN d.clients THEN r.clients || CASE WHEN r.clients = 1 THEN ' client' ELSE ' clients' END END,
                   CASE WHEN d.tag THEN COALESCE(r.tag, '(no tag)') END,
                   (SELECT string_agg(k.k || '=' || COALESCE(r.settings->>k.k, '(not set)'), ', ' ORDER BY k.o)
                      FROM unnest(keys) WITH ORDINALITY AS k (k, o))), ''), '')
               || CASE WHEN NOT EXISTS (SELECT FROM bench.progress p WHERE p.run_id = r.id) THEN ' (no data)' ELSE '' END
          FROM unnest(ids) WITH ORDINALITY AS u (id, pos)
          JOIN bench.runs r ON r.id = u.id
         ORDER BY u.pos);
    common := array_remove(ARRAY[
        CASE WHEN NOT d.workload THEN d.the_workload END,
        CASE WHEN NOT d.clients THEN d.the_clients || CASE WHEN d.the_clients = 1 THEN ' client' ELSE ' clients' END END,
        CASE WHEN NOT d.version THEN 'PostgreSQL ' || d.the_version END,
        CASE WHEN NOT d.target THEN CASE WHEN d.the_node IS NOT NULL THEN 'target ' || d.the_target || ' @ ' || d.the_node
                                         WHEN d.the_target = 'local' THEN 'in this server'
                                         ELSE 'target ' || d.the_target END END,
        CASE WHEN d.target AND NOT d.node AND d.the_node IS NOT NULL THEN 'node ' || d.the_node END,
        CASE WHEN NOT d.tag AND d.the_tag IS NOT NULL THEN 'tag ' || d.the_tag END], NULL);

    SELECT count(*), max(p.elapsed_s), max(p.tps), max(p.latency_p99_ms)
      INTO n, xmax, tps_max, p99_max
      FROM bench.progress p WHERE p.run_id = ANY (ids);
    SELECT count(*) INTO nempty
      FROM unnest(ids) i WHERE NOT EXISTS (SELECT FROM bench.progress p WHERE p.run_id = i);
    IF xmax IS NULL OR NOT xmax > 0 THEN
        xmax := 1;
    END IF;

    -- layout as bench.chart_run's: heading, legend, two panels over one
    -- axis of elapsed seconds
    lg := bench._svg_legend(pl, 52, pw, GREATEST(18, (height - 120) * 0.3),
                            array_fill('line'::text, ARRAY[cardinality(ids)]),
                            palette[1:cardinality(ids)], labels);
    top1 := 52 + lg.height + 14;
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

    o := ARRAY[bench._svg_open(width, height, format('runs %s: tps and p99 latency over time', array_to_string(ids, ', '))),
               bench._svg_heading(width,
                   'tps and p99 latency over time' || COALESCE(': ' || NULLIF(array_to_string(common, ', '), ''), ''),
                   format('%s run%s', cardinality(ids), CASE WHEN cardinality(ids) = 1 THEN '' ELSE 's' END)
                   || CASE WHEN cardinality(keys) > 0
                           THEN ', settings that differ: ' || array_to_string(keys, ', ') ELSE '' END
                   || ', a point per progress interval at its end, warm-up included'),
               lg.svg,
               bench._svg_panel(pl, top1, pw, ph, 0, xt[cardinality(xt)], xt, NULL,
                                yt1, bench._svg_tick_labels(yt1), 'tps'),
               bench._svg_panel(pl, top2, pw, ph, 0, xt[cardinality(xt)], xt, bench._svg_tick_labels(xt),
                                yt2, bench._svg_tick_labels(yt2), 'p99 latency (ms)'),
               bench._svg_text(pl + pw / 2, bot2 + 38, 'elapsed (s)',
                               'class="axis-title" font-size="12" fill="#222222" text-anchor="middle"')];

    -- a line per run: tps, and p99 latency broken where an interval had
    -- none; each titled with its run's label
    o := o || ARRAY(
        SELECT format('<polyline class="tps" fill="none" stroke="%s" stroke-width="1.5" stroke-linejoin="round" points="%s"><title>%s</title></polyline>',
                      palette[u.pos],
                      string_agg(bench._svg_num(ax + bx * p.elapsed_s) || ',' || bench._svg_num(ay1 + by1 * p.tps),
                                 ' ' ORDER BY p.elapsed_s),
                      bench._svg_escape(labels[u.pos]))
          FROM unnest(ids) WITH ORDINALITY AS u (id, pos)
          JOIN bench.progress p ON p.run_id = u.id
         GROUP BY u.pos
         ORDER BY u.pos);
    o := o || ARRAY(
        SELECT format('<polyline class="p99" fill="none" stroke="%s" stroke-width="1.5" stroke-linejoin="round" points="%s"><title>%s</title></polyline>',
                      palette[q.pos],
                      string_agg(bench._svg_num(ax + bx * q.elapsed_s) || ',' || bench._svg_num(ay2 + by2 * q.latency_p99_ms),
                                 ' ' ORDER BY q.elapsed_s),
                      bench._svg_escape(labels[q.pos]))
          FROM (SELECT u.pos, p.elapsed_s, p.latency_p99_ms,
                       count(*) FILTER (WHERE p.latency_p99_ms IS NULL)
                           OVER (PARTITION BY u.pos ORDER BY p.elapsed_s) AS segment
                  FROM unnest(ids) WITH ORDINALITY AS u (id, pos)
                  JOIN bench.progress p ON p.run_id = u.id) q
         WHERE q.latency_p99_ms IS NOT NULL
         GROUP BY q.pos, q.segment
         ORDER BY q.pos, q.segment);
    -- points too, while there are few enough to tell apart
    IF n BETWEEN 1 AND 240 THEN
        o := o || ARRAY(
            SELECT format('<g class="points" fill="%s">', palette[u.pos])
                   || string_agg(format('<circle cx="%s" cy="%s" r="2"/>',
                                        bench._svg_num(ax + bx * p.elapsed_s), bench._svg_num(ay1 + by1 * p.tps))
                                 || CASE WHEN p.latency_p99_ms IS NULL THEN ''
                                         ELSE format('<circle cx="%s" cy="%s" r="2"/>',
                                                     bench._svg_num(ax + bx * p.elapsed_s),
                                                     bench._svg_num(ay2 + by2 * p.latency_p99_ms)) END,
                                 '' ORDER BY p.elapsed_s) || '</g>'
              FROM unnest(ids) WITH ORDINALITY AS u (id, pos)
              JOIN bench.progress p ON p.run_id = u.id
             GROUP BY u.pos
             ORDER BY u.pos);
    END IF;

    IF n = 0 THEN
        o := o || bench._svg_no_data(pl + pw / 2, top1 + ph / 2,
                                     CASE WHEN cardinality(ids) = 1 THEN 'the run recorded no progress intervals'
                                          ELSE 'none of the runs recorded progress intervals' END)
               || bench._svg_no_data(pl + pw / 2, top2 + ph / 2);
    END IF;
    RETURN array_to_string(o, E'\n') || E'\n</svg>';
END
$fn$;

COMMENT ON FUNCTION bench.chart_runs(bigint[], integer, integer) IS
    'Several runs as one SVG chart: tps and p99 latency per progress interval over elapsed time, a line per run labelled by what differs between them (the target with its node where the runs come from several)';
