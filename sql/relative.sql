--
-- Relative throughput: bench.relative_throughput, bench.relative_table and
-- bench.chart_relative read runs or suites against a base, step by step
-- (a suite's client counts); and every bad input.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbenchkit CASCADE;
\set VERBOSITY default
\set SHOW_CONTEXT never
SELECT coalesce(max(id), 0) AS runs_before FROM bench.runs \gset
SELECT name FROM bench.define_workload('rel_one', 'SELECT 1;');

-- three suites of one workload: the base (1 and 2 clients, twice each),
-- one with the same steps listed the other way round, one without 1 client
SELECT count(*) AS steps FROM bench.sweep('rel_one', clients => '{1,2}', repeat => 2, duration => '1 s',
       progress => '0', prewarm => false, tag => 'rel-a');
SELECT max(id) AS a FROM bench.suites \gset
SELECT count(*) AS steps FROM bench.sweep('rel_one', clients => '{2,1}', repeat => 1, duration => '1 s',
       progress => '0', prewarm => false, tag => 'rel-b');
SELECT max(id) AS b FROM bench.suites \gset
SELECT count(*) AS steps FROM bench.sweep('rel_one', clients => '{2}', repeat => 1, duration => '1 s',
       progress => '0', prewarm => false);
SELECT max(id) AS c FROM bench.suites \gset

-- a row per suite and step of the base, in the base's order; the base at
-- 1; each value the median of the suite's finished runs at that step (as
-- bench.suite_summary has it); a step a suite lacks is NULL
SELECT t.id = :a AS base, t.id = :b AS b, t.kind,
       regexp_replace(t.label, '[0-9]+', 'N', 'g') AS label, t.server_version = current_setting('server_version') AS version,
       t.step_no, t.step,
       t.tps = (SELECT m.tps_median FROM bench.suite_summary m
                 WHERE m.suite_id = t.id AND m.clients = (ARRAY[1, 2])[t.step_no]) AS tps_is_median,
       t.base_tps = (SELECT m.tps_median FROM bench.suite_summary m
                      WHERE m.suite_id = :a AND m.clients = (ARRAY[1, 2])[t.step_no]) AS base_is_median,
       t.relative = t.tps / t.base_tps AS ratio, t.relative IS NULL AS missing
  FROM bench.relative_throughput(:a, ARRAY[:b, :c]) t;
SELECT relative FROM bench.relative_throughput(:a, ARRAY[:b]) WHERE id = :a;

-- the Insert Benchmark's table: a line per suite, a column per step
SELECT regexp_replace(regexp_replace(line, 'suite [0-9]+', 'suite N', 'g'),
                      '[0-9]+\.[0-9]+', 'x.xx', 'g') AS line
  FROM bench.relative_table(:a, ARRAY[:b, :c]) line;
SELECT split_part(line, ' | ', 2) = split_part(current_setting('server_version'), ' ', 1) AS version,
       split_part(line, ' | ', 3) AS base_1, split_part(rtrim(line, ' |'), ' | ', 4) AS base_2
  FROM bench.relative_table(:a, ARRAY[:b, :c]) WITH ORDINALITY AS l(line, n) WHERE n = 3;
SELECT split_part(line, ' | ', 3) = to_char((SELECT relative FROM bench.relative_throughput(:a, ARRAY[:b])
                                              WHERE id = :b AND step_no = 1), 'FM990.00') AS b_1,
       split_part(rtrim(line, ' |'), ' | ', 4) = to_char((SELECT relative FROM bench.relative_throughput(:a, ARRAY[:b])
                                                           WHERE id = :b AND step_no = 2), 'FM990.00') AS b_2
  FROM bench.relative_table(:a, ARRAY[:b, :c]) WITH ORDINALITY AS l(line, n) WHERE n = 4;

-- the chart: a bar per suite and step with a value (5: suite c lacks 1
-- client), each as tall as its value against the base's dashed line
SELECT bench.chart_relative(:a, ARRAY[:b, :c]) AS svg \gset
SELECT :'svg' LIKE '<svg %' AND :'svg' LIKE '%</svg>' AS svg,
       (SELECT count(*) FROM regexp_matches(:'svg', '<rect class="bar"', 'g')) AS bars,
       (SELECT count(*) FROM regexp_matches(:'svg', '<line class="base"', 'g')) AS base_lines,
       :'svg' LIKE '%throughput relative to rel-a (suite %' AS title,
       (SELECT count(*) FROM regexp_matches(:'svg', '<tspan|>1 client<|>2 clients<', 'g')) AS step_labels;
-- the base's bars reach the dashed line exactly
SELECT count(*) AS base_bars_at_1
  FROM regexp_matches(:'svg', '<rect class="bar" x="[0-9.]+" y="([0-9.]+)"[^>]*fill="#7f7f7f"', 'g') m,
       regexp_matches(:'svg', '<line class="base" x1="[0-9.]+" y1="([0-9.]+)"') l
 WHERE m[1] = l[1];

-- runs against a run: one step, the base run's; a warning when the runs
-- ran something else
SELECT min(id) AS r1, max(id) AS r2 FROM bench.runs WHERE suite_id = :a AND clients = 1 \gset
SELECT min(id) AS r3 FROM bench.runs WHERE suite_id = :a AND clients = 2 \gset
SELECT t.kind, regexp_replace(t.label, '[0-9]+', 'N', 'g') AS label, t.step_no, t.step,
       t.relative = t.tps / t.base_tps AS ratio
  FROM bench.relative_throughput(:r1, ARRAY[:r2]) t;
SELECT t.step, t.id = :r3 AS two_clients FROM bench.relative_throughput(:r1, ARRAY[:r3]) t;

-- ------------------------------------------------------------ bad input
-- each error with its SQLSTATE, message (ids as N) and hint
CREATE FUNCTION rel_try(q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE
    hint text;
BEGIN
    EXECUTE q;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS hint = PG_EXCEPTION_HINT;
    RETURN SQLSTATE || ': ' || regexp_replace(SQLERRM, '[0-9]+', 'N', 'g') || ' (' || hint || ')';
END $f$;
SELECT rel_try(q) AS error FROM unnest(ARRAY[
  format('SELECT * FROM bench.relative_throughput(NULL, ARRAY[%s])', :b),
  format('SELECT * FROM bench.relative_throughput(%s, NULL)', :a),
  format('SELECT * FROM bench.relative_throughput(%s, ''{}'')', :a),
  format('SELECT * FROM bench.relative_throughput(%s, ARRAY[[%s], [%s]])', :a, :b, :c),
  format('SELECT * FROM bench.relative_throughput(%s, ARRAY[%s, NULL])', :a, :b),
  format('SELECT * FROM bench.relative_throughput(%s, ARRAY[%s, %s])', :a, :b, :a),
  format('SELECT * FROM bench.relative_throughput(%s, ARRAY[%s, %s])', :a, :b, :b),
  format('SELECT * FROM bench.relative_throughput(%s, ARRAY(SELECT generate_series(1000000, 1000100)::bigint))', :a),
  format('SELECT * FROM bench.relative_throughput(%s, ARRAY[999999999])', :a),
  format('SELECT * FROM bench.relative_throughput(999999999, ARRAY[%s])', :a),
  format('SELECT * FROM bench.relative_throughput(%s, ARRAY[%s])', :a, :r1),
  format('SELECT * FROM bench.relative_table(%s, ARRAY[%s])', :r1, :a),
  format('SELECT * FROM bench.relative_table(%s, NULL)', :a),
  format('SELECT bench.chart_relative(%s, ARRAY[%s], width => 10)', :a, :b),
  format('SELECT bench.chart_relative(%s, ARRAY[%s], height => 5000)', :a, :b),
  format('SELECT bench.chart_relative(%s, NULL)', :a)]) q;
DROP FUNCTION rel_try(text);

SELECT bench.drop_workload('rel_one') IS NOT NULL AS dropped;
DELETE FROM bench.runs WHERE id > :runs_before;
DELETE FROM bench.suites WHERE id > :runs_before;
