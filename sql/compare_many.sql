--
-- Many runs compared: bench.compare_many and bench.compare_many_table
-- group runs into configurations (target, server version, tag, the
-- settings that differ) against columns (workload and clients, or step);
-- bench.chart_runs draws several runs over time.  And every bad input.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbenchkit CASCADE;
RESET client_min_messages;
\set VERBOSITY default
\set SHOW_CONTEXT never
SELECT coalesce(max(id), 0) AS runs_before FROM bench.runs \gset
SELECT clock_timestamp() AS t0 \gset
SELECT split_part(current_setting('server_version'), ' ', 1) AS v \gset

-- errors as rows: SQLSTATE, message and hint (this test's ids by name)
CREATE FUNCTION pg_temp.error_of(query text, ids jsonb DEFAULT '{}')
RETURNS TABLE (state text, message text, hint text)
LANGUAGE plpgsql AS $$
DECLARE
    k text;
    v text;
BEGIN
    EXECUTE query;
    state := 'no error';
    RETURN NEXT;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
    FOR k, v IN SELECT * FROM jsonb_each_text(ids) LOOP
        message := regexp_replace(message, '\m' || v || '\M', k, 'g');
        hint := regexp_replace(hint, '\m' || v || '\M', k, 'g');
    END LOOP;
    RETURN NEXT;
END
$$;

-- one workload whose transactions sleep :ms milliseconds: the runs of 1 ms
-- are some ten times faster than those of 10 ms, whatever else the
-- machine does
SELECT name FROM bench.define_workload('cm_sleep', E'\\sleep :ms ms\nSELECT 1;');
SET client_min_messages = warning;
SELECT count(*) AS steps FROM bench.sweep('cm_sleep', clients => '{1,2}', repeat => 2, duration => '1 s',
       progress => '0', prewarm => false, sample_interval => '0', tag => 'cm-fast', variables => '{"ms": 1}');
SELECT max(id) AS a FROM bench.suites \gset
-- the second suite started, and compared while it runs: refused
SELECT bench.start_sweep('cm_sleep', clients => '{1,2}', repeat => 2, duration => '1 s',
       progress => '0', prewarm => false, sample_interval => '0', tag => 'cm-slow', variables => '{"ms": 10}') AS b \gset
RESET client_min_messages;
SELECT * FROM pg_temp.error_of(format('SELECT * FROM bench.compare_many(suites => ARRAY[%s, %s])', :a, :b),
                               jsonb_build_object('A', :a, 'B', :b));
SET client_min_messages = warning;
SELECT sum(runs_done) AS runs_done FROM bench.wait_suite(:b);
RESET client_min_messages;

-- two configurations (the tags differ, nothing else), two columns (the
-- client counts); each cell the suite's median, min and max tps and median
-- p99 as bench.suite_summary has them, relative to the first suite's; the
-- noise the larger half-range of the two cells (repeats), the verdict a
-- regression: the ranges do not overlap
SELECT m.config_no, m.configuration, m.target, m.server_version = current_setting('server_version') AS version,
       m.run_tag, m.settings, m.column_no, m.column_label, m.workload, m.clients, m.step, m.run_count,
       m.run_ids = s.run_ids AS run_ids,
       m.tps_median = s.tps_median AND m.tps_min = s.tps_min AND m.tps_max = s.tps_max AS tps,
       m.latency_p99_ms_median = s.latency_p99_ms_median AS p99,
       m.base_tps_median = b.tps_median AS base_tps,
       abs(m.relative - s.tps_median / b.tps_median) < 1e-12 AS relative,
       abs(m.noise_pct - 100 * GREATEST((s.tps_max - s.tps_min) / 2 / s.tps_median,
                                        (b.tps_max - b.tps_min) / 2 / b.tps_median)) < 1e-9 AS noise,
       m.relative < 0.5 AS slower, m.verdict
  FROM bench.compare_many(suites => ARRAY[:a, :b]) m
  JOIN bench.suite_summary s ON s.suite_id = CASE m.config_no WHEN 1 THEN :a ELSE :b END AND s.clients = m.clients
  JOIN bench.suite_summary b ON b.suite_id = :a AND b.clients = m.clients
 ORDER BY m.config_no, m.column_no;
-- the other way round (the base named by its label): an improvement
SELECT config_no, configuration, column_label, round(relative::numeric, 6) = round((tps_median / base_tps_median)::numeric, 6) AS relative,
       relative > 2 AS faster, verdict
  FROM bench.compare_many(suites => ARRAY[:a, :b], base => 'cm-slow');

-- the Markdown form: a line per configuration, a column per client count;
-- the base's cells its median tps, the others' relative median, range of
-- the repeats against the base's median, and the verdict's mark
SELECT regexp_replace(line, '[0-9]+(\.[0-9]+)?', 'x', 'g') AS line
  FROM bench.compare_many_table(suites => ARRAY[:a, :b]) line;
-- each cell's figures are compare_many's
SELECT t.n, split_part(rtrim(t.line, ' |'), ' | ', c.column_no + 1)
            = round(c.relative::numeric, 2) || ' [' || round((c.tps_min / c.base_tps_median)::numeric, 2)
              || ', ' || round((c.tps_max / c.base_tps_median)::numeric, 2) || ']'
              || CASE c.verdict WHEN 'base' THEN ' (' || bench._many_tps(c.tps_median) || ' tps)'
                                WHEN 'regression' THEN ' ' || chr(9660) ELSE ' ?' END AS cell
  FROM bench.compare_many_table(suites => ARRAY[:a, :b]) WITH ORDINALITY AS t (line, n)
  JOIN bench.compare_many(suites => ARRAY[:a, :b]) c ON c.config_no = t.n - 2
 ORDER BY t.n, c.column_no;
\pset format unaligned
\pset tuples_only on
\o results/compare_many_table.md
SELECT * FROM bench.compare_many_table(suites => ARRAY[:a, :b]);
\o
\pset format aligned
\pset tuples_only off

-- by tag: the runs with it, one configuration (named after where they
-- ran), which is the base
SELECT config_no, configuration, run_tag, column_label, run_count, relative, verdict
  FROM bench.compare_many(tag => 'cm-fast');
-- by target: local stands for the runs without one; since leaves out
-- what ran before
SELECT config_no, configuration, column_label, run_count, verdict
  FROM bench.compare_many(targets => '{local}', since => :'t0');

-- configurations made to differ in target, version and settings: copies
-- of the two suites (bench.import), moved to a target "cm-cloud" of
-- another version, one with synchronous_commit off, and throughputs set
-- so that each verdict is known
SELECT bench.import(bench.export(:a)) AS x \gset
SELECT bench.import(bench.export(:b)) AS y \gset
UPDATE bench.runs SET target = 'cm-cloud', server_version = '99.1 (elsewhere)', tag = 'cm-copy',
                      settings = settings || '{"synchronous_commit": "off"}'
 WHERE suite_id = :x;
UPDATE bench.runs SET target = 'cm-cloud', server_version = '99.1 (elsewhere)', tag = 'cm-copy'
 WHERE suite_id = :y;
-- x: 100 and 110 tps at 1 client, 200 and 220 at 2; y: 150 and 160 (an
-- improvement over x's, ranges apart), 205 and 230 (ranges overlapping:
-- within noise)
UPDATE bench.runs r SET tps = v.tps
  FROM (SELECT id, (ARRAY[100, 110, 200, 220])[row_number() OVER (ORDER BY clients, id)] AS tps
          FROM bench.runs WHERE suite_id = :x) v
 WHERE r.id = v.id;
UPDATE bench.runs r SET tps = v.tps
  FROM (SELECT id, (ARRAY[150, 160, 205, 230])[row_number() OVER (ORDER BY clients, id)] AS tps
          FROM bench.runs WHERE suite_id = :y) v
 WHERE r.id = v.id;
SELECT config_no, configuration, target, server_version, run_tag, settings, column_label, run_count,
       tps_median, tps_min, tps_max, base_tps_median, round(relative::numeric, 6) AS relative,
       round(noise_pct::numeric, 4) AS noise_pct, verdict
  FROM bench.compare_many(suites => ARRAY[:x, :y]);
-- a threshold over the change: within noise, ranges apart or not
SELECT column_label, verdict FROM bench.compare_many(suites => ARRAY[:x, :y], threshold => 0.6) WHERE config_no = 2;
-- with the local suite: the target, the version and the setting differ
-- (the configurations' labels say so); the base chosen by target name
SELECT config_no, replace(configuration, :'v', 'V') AS configuration, target, settings, column_label,
       run_count, CASE WHEN verdict = 'base' THEN verdict ELSE (relative IS NOT NULL)::text END AS verdict
  FROM bench.compare_many(suites => ARRAY[:a, :x], base => 'cm-cloud');
-- and as Markdown (the figures of the copies are known exactly)
SELECT * FROM bench.compare_many_table(suites => ARRAY[:x, :y]);

-- single runs: the noise of each from its own series (bench.compare's
-- rule: here one interval each, no noise: the threshold alone decides)
SELECT min(id) AS x1 FROM bench.runs WHERE suite_id = :x AND clients = 1 \gset
SELECT min(id) AS y1 FROM bench.runs WHERE suite_id = :y AND clients = 1 \gset
UPDATE bench.runs SET tps = 104 WHERE id = :y1;
SELECT config_no, run_count, tps_median, relative, noise_pct, verdict
  FROM bench.compare_many(runs => ARRAY[:x1, :y1]);
UPDATE bench.runs SET tps = 94 WHERE id = :y1;
SELECT config_no, run_count, tps_median, relative, noise_pct, verdict
  FROM bench.compare_many(runs => ARRAY[:x1, :y1]);
-- a run series that varies: tps 80, 100, 120 twice (cv 0.179), so a
-- change of 40% is within 3 * noise
DELETE FROM bench.progress WHERE run_id IN (:x1, :y1);
INSERT INTO bench.progress (run_id, interval_start, interval_end, elapsed_s, transactions, tps,
                            latency_avg_ms, failures, retries, in_warmup)
SELECT r.id, '2000-01-01'::timestamptz + (i - 1) * interval '1 s', '2000-01-01'::timestamptz + i * interval '1 s',
       i, t, t, 1, 0, 0, false
  FROM bench.runs r, unnest(ARRAY[80, 100, 120, 80, 100, 120]) WITH ORDINALITY AS s (t, i)
 WHERE r.id IN (:x1, :y1);
UPDATE bench.runs SET progress = '1 s' WHERE id IN (:x1, :y1);
UPDATE bench.runs SET tps = 140 WHERE id = :y1;
SELECT config_no, relative, round(noise_pct::numeric, 2) AS noise_pct, verdict,
       noise_pct = (SELECT c.noise_pct FROM bench.compare(:x1, :y1) c WHERE c.metric = 'tps') AS as_compare
  FROM bench.compare_many(runs => ARRAY[:x1, :y1]);

-- runs of one workload name but different scripts cannot share a column
-- (two unnamed scripts); runs of different workloads get columns of
-- their own
SET client_min_messages = warning;
SELECT id AS s1 FROM bench.run(script => 'SELECT 1;', transactions => 10, progress => '0', prewarm => false,
                               sample_interval => '0', tag => 'cm-s1') \gset
SELECT id AS s2 FROM bench.run(script => 'SELECT 2;', transactions => 10, progress => '0', prewarm => false,
                               sample_interval => '0', tag => 'cm-s2') \gset
RESET client_min_messages;
SELECT * FROM pg_temp.error_of(format('SELECT * FROM bench.compare_many(runs => ARRAY[%s, %s])', :s1, :s2),
                               jsonb_build_object('S1', :s1, 'S2', :s2));
SELECT config_no, replace(configuration, :'v', 'V') AS configuration, column_no, column_label, run_count, verdict
  FROM bench.compare_many(runs => ARRAY[:x1, :s1]);

-- ------------------------------------------------------------ chart_runs
-- two runs of 3 seconds, a progress row a second; one still running when
-- compared (refused) and drawn (what it has so far)
SET client_min_messages = warning;
SELECT bench.start('cm_sleep', duration => '3 s', progress => '1 s', prewarm => false,
                   tag => 'cm-chart-1', variables => '{"ms": 1}') AS c1 \gset
RESET client_min_messages;
SELECT * FROM pg_temp.error_of(format('SELECT * FROM bench.compare_many(runs => ARRAY[%s])', :c1),
                               jsonb_build_object('C1', :c1));
SELECT bench.chart_runs(ARRAY[:c1]) LIKE '<svg %</svg>' AS drawn_while_running;
SET client_min_messages = warning;
SELECT status FROM bench.wait(:c1);
SELECT id AS c2 FROM bench.run('cm_sleep', duration => '3 s', progress => '1 s', prewarm => false,
                               tag => 'cm-chart-10', variables => '{"ms": 10}') \gset
RESET client_min_messages;

-- XML where the server can parse it (not every build can)
CREATE FUNCTION pg_temp.well_formed(doc text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    RETURN xml_is_well_formed_document(doc);
EXCEPTION WHEN feature_not_supported THEN
    RETURN true;
END
$$;
SELECT bench.chart_runs(ARRAY[:c1, :c2]) AS svg \gset
-- one document; a tps and a p99 line per run, in its colour, with a point
-- per progress row; a legend entry per run named by what differs (the
-- tag), the title by what they share
SELECT pg_temp.well_formed(:'svg') AS well_formed,
       :'svg' LIKE '<svg xmlns="http://www.w3.org/2000/svg" width="900" height="560" %</svg>' AS svg,
       regexp_count(:'svg', '<polyline class="tps"') AS tps_lines,
       regexp_count(:'svg', '<polyline class="p99"') AS p99_lines,
       regexp_count(:'svg', '<polyline class="tps" fill="none" stroke="#1f77b4"') AS first_blue,
       regexp_count(:'svg', '<polyline class="tps" fill="none" stroke="#ff7f0e"') AS second_orange,
       (SELECT sum(regexp_count(m[1], '[0-9.]+,[0-9.]+'))
          FROM regexp_matches(:'svg', '<polyline class="tps"[^>]* points="([^"]*)"', 'g') m)
       = (SELECT count(*) FROM bench.progress WHERE run_id IN (:c1, :c2)) AS a_vertex_per_row,
       regexp_count(:'svg', '<g class="legend"') AS legends,
       regexp_replace(regexp_replace(regexp_replace(regexp_replace(:'svg', '^.*<g class="legend"[^>]*>(.*?)</g>.*$', '\1'),
                      '(<[^>]*>|\n)+', ' / ', 'g'), '\m' || :c1 || '\M', 'C1', 'g'), '\m' || :c2 || '\M', 'C2', 'g') AS legend,
       regexp_replace((regexp_match(:'svg', '<text[^>]*class="title"[^>]*>([^<]*)</text>'))[1], :'v', 'V') AS title;
-- a run without progress rows: named so in the legend; alone, the chart
-- says there is no data in both panels
DELETE FROM bench.progress WHERE run_id = :s2;
SELECT regexp_count(bench.chart_runs(ARRAY[:x1, :s2]), '\(no data\)') AS no_data_labels,
       regexp_count(bench.chart_runs(ARRAY[:x1, :s2]), 'class="no-data"') AS no_data_panels,
       regexp_count(bench.chart_runs(ARRAY[:s2]), 'class="no-data"') AS alone_no_data_panels;
\pset format unaligned
\pset tuples_only on
\o results/compare_many_chart.svg
SELECT bench.chart_runs(ARRAY[:c1, :c2]);
\o
\pset format aligned
\pset tuples_only off

-- ------------------------------------------------------------ bad input
SELECT e.* FROM unnest(ARRAY[
    'SELECT * FROM bench.compare_many()',
    format('SELECT * FROM bench.compare_many(runs => ARRAY[%s], tag => ''cm-fast'')', :x1),
    format('SELECT * FROM bench.compare_many(suites => ARRAY[%s], targets => ''{local}'', tag => ''x'')', :a),
    format('SELECT * FROM bench.compare_many(runs => ARRAY[%s], since => now())', :x1),
    'SELECT * FROM bench.compare_many(runs => ''{}'')',
    'SELECT * FROM bench.compare_many(suites => ''{}'')',
    'SELECT * FROM bench.compare_many(targets => ''{}'')',
    format('SELECT * FROM bench.compare_many(runs => ARRAY[[%s], [%s]])', :x1, :x1),
    format('SELECT * FROM bench.compare_many(runs => ARRAY[%s, NULL])', :x1),
    'SELECT * FROM bench.compare_many(targets => ARRAY[''local'', NULL])',
    format('SELECT * FROM bench.compare_many(runs => ARRAY[%s, %s])', :x1, :x1),
    'SELECT * FROM bench.compare_many(runs => ARRAY(SELECT generate_series(1, 1001)::bigint))',
    'SELECT * FROM bench.compare_many(runs => ARRAY[999999999])',
    'SELECT * FROM bench.compare_many(suites => ARRAY[999999999])',
    format('SELECT * FROM bench.compare_many(suites => ARRAY[%s])', :x1),
    'SELECT * FROM bench.compare_many(tag => ''cm-no-such-tag'')',
    'SELECT * FROM bench.compare_many(targets => ''{cm-no-such-target}'')',
    'SELECT * FROM bench.compare_many(targets => ''{local}'', since => ''infinity'')',
    format('SELECT * FROM bench.compare_many(suites => ARRAY[%s, %s], base => ''cm-nothing'')', :a, :b),
    format('SELECT * FROM bench.compare_many(suites => ARRAY[%s, %s], base => ''local'')', :a, :b),
    format('SELECT * FROM bench.compare_many(suites => ARRAY[%s], threshold => NULL)', :a),
    format('SELECT * FROM bench.compare_many(suites => ARRAY[%s], threshold => 1)', :a),
    'SELECT * FROM bench.compare_many_table()',
    format('SELECT * FROM bench.compare_many_table(suites => ARRAY[%s, %s], base => ''cm-nothing'')', :a, :b)]) q,
       pg_temp.error_of(q, jsonb_build_object('A', :a, 'B', :b, 'X1', :x1)) e;
SELECT e.* FROM unnest(ARRAY[
    'SELECT bench.chart_runs(NULL)',
    'SELECT bench.chart_runs(''{}'')',
    format('SELECT bench.chart_runs(ARRAY[[%s], [%s]])', :x1, :x1),
    format('SELECT bench.chart_runs(ARRAY[%s, NULL])', :x1),
    format('SELECT bench.chart_runs(ARRAY[%s, %s])', :x1, :x1),
    'SELECT bench.chart_runs(ARRAY(SELECT generate_series(1, 13)::bigint))',
    'SELECT bench.chart_runs(ARRAY[999999999])',
    format('SELECT bench.chart_runs(ARRAY[%s], width => 10)', :x1),
    format('SELECT bench.chart_runs(ARRAY[%s], height => NULL)', :x1)]) q,
       pg_temp.error_of(q, jsonb_build_object('X1', :x1)) e;

-- prices: a cell's cost per million transactions is the median of its
-- runs' (price_per_hour x 10^6 / (tps x 3600)), read against the base's;
-- a configuration without a price has none, and the table says so; runs
-- priced in two currencies are not compared by cost
UPDATE bench.runs SET price_per_hour = 0.36, currency = 'USD' WHERE suite_id = :a;
SELECT configuration, column_label, currency,
       abs(cost_per_million_median - (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY 0.36 * 1000000 / (r.tps * 3600))
                                        FROM bench.runs r WHERE r.id = ANY (c.run_ids))) < 1e-9 * cost_per_million_median
           AS median_of_costs,
       cost_relative
  FROM bench.compare_many(suites => ARRAY[:a, :b]) c WHERE c.run_count > 0 ORDER BY config_no, column_no;
SELECT regexp_replace(l, '[0-9]+(\.[0-9]+)?', 'x', 'g') AS line
  FROM bench.compare_many_table(suites => ARRAY[:a, :b]) AS l OFFSET 2;
UPDATE bench.runs SET currency = 'EUR' WHERE id = (SELECT min(id) FROM bench.runs WHERE suite_id = :a);
SELECT e.* FROM pg_temp.error_of(format('SELECT * FROM bench.compare_many(suites => ARRAY[%s, %s])', :a, :b),
                                 jsonb_build_object('A', :a, 'B', :b)) e;
SELECT count(*) AS cells, count(cost_per_million_median) AS with_cost
  FROM bench.compare_many(suites => ARRAY[:a, :b], cost => false);
SELECT e.* FROM pg_temp.error_of(format('SELECT * FROM bench.compare_many(suites => ARRAY[%s], cost => NULL)', :a),
                                 jsonb_build_object('A', :a)) e;
UPDATE bench.runs SET price_per_hour = NULL, currency = NULL WHERE suite_id = :a;

SELECT bench.drop_workload('cm_sleep') IS NOT NULL AS dropped;
DELETE FROM bench.runs WHERE id > :runs_before;
DELETE FROM bench.suites WHERE id > :runs_before;
