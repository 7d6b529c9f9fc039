--
-- Charts: bench.chart_run, bench.chart_suite and bench.chart_schedule draw
-- standalone SVG documents
--
SET search_path = runs, public;
\set SHOW_CONTEXT never
-- the tpcb dataset of run.sql, or one of its own when this test runs alone
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbenchkit CASCADE;
CREATE SCHEMA IF NOT EXISTS runs;
SELECT to_regclass('pgbench_accounts') IS NULL AS need_dataset \gset
\if :need_dataset
SELECT dataset_id FROM bench.init('tpcb', scale => 2) \gset
\endif
RESET client_min_messages;

-- what every chart must be: one svg element of the asked size on a white
-- background, with its tags balanced, its text escaped and its numbers
-- finite (an XML parser is not at hand on every build: the test checks
-- the structure itself)
CREATE FUNCTION pg_temp.svg_ok(svg text, width integer, height integer)
RETURNS boolean LANGUAGE sql AS $$
SELECT svg LIKE format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s"%%',
                       width, height, width, height)
   AND svg LIKE '%</svg>'
   AND regexp_count(svg, '<svg') = 1
   AND svg LIKE format(E'%%\n<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>\n%%', width, height)
   AND regexp_count(svg, '<g[ >]') = regexp_count(svg, '</g>')
   AND regexp_count(svg, '<text[ >]') = regexp_count(svg, '</text>')
   AND regexp_count(svg, '<tspan[ >]') = regexp_count(svg, '</tspan>')
   AND regexp_replace(svg, '<[^<>]*>', '', 'g') !~ '[<>]'
   AND regexp_replace(svg, '&(amp|lt|gt|quot|#[0-9]+);', '', 'g') !~ '&'
   AND svg !~ '(NaN|Infinity|="-?[0-9.]+e[-+]?[0-9])'
$$;
CREATE FUNCTION pg_temp.vertices(svg text, class text)
RETURNS integer LANGUAGE sql AS $$
SELECT COALESCE(sum(regexp_count(m[1], '[0-9.-]+,[0-9.-]+'))::integer, 0)
  FROM regexp_matches(svg, '<polyline class="' || class || '"[^>]* points="([^"]*)"', 'g') m
$$;

-- bad arguments: an SQLSTATE, a message and a hint
SELECT bench.chart_run(NULL);
\echo :SQLSTATE
SELECT bench.chart_run(-1);
\echo :SQLSTATE
SELECT bench.chart_run(-1, width => NULL);
\echo :SQLSTATE
SELECT bench.chart_run(-1, width => 199);
\echo :SQLSTATE
SELECT bench.chart_run(-1, height => 4001);
\echo :SQLSTATE
SELECT bench.chart_suite(NULL);
\echo :SQLSTATE
SELECT bench.chart_suite(-1);
\echo :SQLSTATE
SELECT bench.chart_suite(-1, 900, NULL);
\echo :SQLSTATE
SELECT bench.chart_schedule(NULL);
\echo :SQLSTATE
SELECT bench.chart_schedule('no such schedule');
\echo :SQLSTATE
SELECT bench.chart_schedule('no such schedule', 5000);
\echo :SQLSTATE

--
-- bench.chart_run on a run made up for the test, so that the whole picture
-- is known: 12 intervals of 1 s, the first 2 warm-up, the 7th a stall
-- (tps 10 against a median of 1000, and no latency), one checkpoint seen
-- by the sample at 5 s and two by the one at 9 s
--
INSERT INTO bench.runs (id, workload, clients, duration, protocol, warmup, progress, max_tries, tag,
                        status, created_by, server_version, started_at, ended_at, measured_s,
                        transactions, tps, latency_p99_ms)
VALUES (900000001, 'tpcb', 4, '12 s', 'prepared', '2 s', '1 s', 1, 'a <tag> & "quotes"',
        'done', 'someone', '15.0 (test)', '2025-01-01 12:00:00', '2025-01-01 12:00:12', 10,
        9500, 950.5, 4.25);
INSERT INTO bench.progress (run_id, interval_start, interval_end, elapsed_s, transactions, tps,
                            latency_avg_ms, latency_p99_ms, failures, retries, in_warmup)
SELECT 900000001, timestamptz '2025-01-01 12:00:00' + (i - 1) * interval '1 s',
       timestamptz '2025-01-01 12:00:00' + i * interval '1 s', i, tps, tps, 1, p99, 0, 0, i <= 2
  FROM unnest('{800, 900, 1000, 1010, 990, 1005, 10, 995, 1000, 1020, 980, 1000}'::int[],
              '{5, 4.5, 4, 4.1, 3.9, 4.2, NULL, 4.4, 4, 4.1, 3.8, 4}'::float8[])
       WITH ORDINALITY AS v (tps, p99, i);
INSERT INTO bench.samples (run_id, sample_no, phase, taken_at, elapsed_s, data)
SELECT 900000001, k, CASE k WHEN 0 THEN 'before' WHEN 13 THEN 'after' ELSE 'during' END,
       timestamptz '2025-01-01 12:00:00' + k * interval '1 s', k,
       jsonb_build_object('bgwriter', jsonb_build_object('checkpoints_timed', (k >= 5)::int,
                                                         'checkpoints_req', CASE WHEN k >= 9 THEN 2 ELSE 0 END))
  FROM generate_series(0, 13) k;
SELECT pg_temp.svg_ok(bench.chart_run(900000001), 900, 560) AS default_size,
       pg_temp.svg_ok(bench.chart_run(900000001, 200, 200), 200, 200) AS smallest,
       pg_temp.svg_ok(bench.chart_run(900000001, 4000, 4000), 4000, 4000) AS largest;
SELECT pg_temp.vertices(svg, 'tps') AS tps_vertices,
       pg_temp.vertices(svg, 'p99') AS p99_vertices,
       regexp_count(svg, '<polyline class="p99"') AS p99_lines,
       regexp_count(svg, '<circle ') AS points,
       regexp_count(svg, '<rect class="warmup"') AS warmup,
       regexp_count(svg, '<rect class="stall"') AS stalls,
       regexp_count(svg, '<circle class="stall-point"') AS stall_points,
       regexp_count(svg, '<line class="checkpoint"') AS checkpoints,
       svg ~ '>checkpoint &#215;2</text>' AS two_at_once
  FROM bench.chart_run(900000001) svg;
-- and the whole of it, at 600 x 400
\pset format unaligned
\pset tuples_only on
SELECT bench.chart_run(900000001, 600, 400);
\pset format aligned
\pset tuples_only off

-- a run without progress intervals, and one whose intervals are all 0 tps
-- without latency: axes and a note, nothing divided by zero
INSERT INTO bench.runs (id, workload, clients, transactions_per_client, protocol, warmup, progress, max_tries,
                        status, created_by, server_version, started_at)
VALUES (900000002, 'tpcb', 1, 10, 'prepared', '0', '0', 1, 'done', 'someone', '15.0 (test)', '2025-01-01 12:00:00'),
       (900000003, 'tpcb', 1, NULL, 'prepared', '0', '1 s', 1, 'failed', 'someone', '15.0 (test)', '2025-01-01 12:00:00');
INSERT INTO bench.progress (run_id, interval_start, interval_end, elapsed_s, transactions, tps,
                            latency_avg_ms, latency_p99_ms, failures, retries, in_warmup)
SELECT 900000003, timestamptz '2025-01-01 12:00:00' + (i - 1) * interval '1 s',
       timestamptz '2025-01-01 12:00:00' + i * interval '1 s', i, 0, 0, NULL, NULL, 0, 0, false
  FROM generate_series(1, 3) i;
SELECT r.id, pg_temp.svg_ok(svg, 900, 560) AS ok,
       regexp_count(svg, 'class="no-data"') AS no_data_notes,
       substring(svg FROM '<text [^>]*class="no-data"[^>]*>no data</text>\n<text [^>]*>([^<]*)</text>') AS why,
       pg_temp.vertices(svg, 'tps') AS tps_vertices,
       regexp_count(svg, '<polyline class="p99"') AS p99_lines,
       regexp_count(svg, 'class="stall') AS stalls,
       svg ~ '>tps</text>' AND svg ~ '>p99 latency \(ms\)</text>' AND svg ~ '>elapsed \(s\)</text>' AS axis_titles
  FROM bench.runs r, bench.chart_run(r.id) svg
 WHERE r.id IN (900000002, 900000003) ORDER BY r.id;

-- a real run: one vertex per interval, whatever their number
SET client_min_messages = warning;
SELECT id AS run1 FROM bench.run('tpcb', clients => 2, transactions => 200, progress => '1 s') \gset
RESET client_min_messages;
SELECT pg_temp.svg_ok(svg, 900, 560) AS ok,
       pg_temp.vertices(svg, 'tps') = (SELECT count(*) FROM bench.progress p WHERE p.run_id = :run1) AS vertices,
       svg ~ format('>run %s: tpcb, 2 clients, PostgreSQL %s</text>', :run1,
                    split_part(current_setting('server_version'), ' ', 1)) AS title,
       svg ~ '>done, started [0-9-]+ [0-9:]+, 200 transactions per client, progress every 1 s, [0-9]+ tps, p99 [0-9.]+ ms overall</text>' AS subtitle,
       svg ~ '>tps</text>' AND svg ~ '>p99 latency \(ms\)</text>' AND svg ~ '>elapsed \(s\)</text>' AS axis_titles,
       svg !~ 'class="no-data"' AS has_data
  FROM bench.chart_run(:run1) svg;

--
-- bench.chart_suite: a suite made here the way bench.sweep records one:
-- client counts 4, 1, 2, two repeats each; canceled after 1 and 2 ran
-- twice, 4 not at all.  The runs' tps and p99 latency are set afterwards,
-- so that the picture is known.
--
INSERT INTO bench.suites (workload, clients, repeat, run_order, args, search_path, runs_planned, status, created_by)
VALUES ('tpcb', '{4,1,2}', 2, 'interleaved', '{}', current_setting('search_path'), 6, 'canceled', current_user)
RETURNING id AS suite1 \gset
SET client_min_messages = warning;
SELECT id AS r FROM bench.run('tpcb', clients => 1, transactions => 50, progress => '1 s') \gset
UPDATE bench.runs SET suite_id = :suite1 WHERE id = :r;
SELECT id AS r FROM bench.run('tpcb', clients => 2, transactions => 50, progress => '1 s') \gset
UPDATE bench.runs SET suite_id = :suite1 WHERE id = :r;
SELECT id AS r FROM bench.run('tpcb', clients => 1, transactions => 50, progress => '1 s') \gset
UPDATE bench.runs SET suite_id = :suite1 WHERE id = :r;
SELECT id AS r FROM bench.run('tpcb', clients => 2, transactions => 50, progress => '1 s') \gset
UPDATE bench.runs SET suite_id = :suite1 WHERE id = :r;
RESET client_min_messages;
UPDATE bench.runs r
   SET tps = CASE r.clients WHEN 1 THEN 900 + 200 * n ELSE 1500 + 600 * n END,
       latency_p99_ms = CASE r.clients WHEN 1 THEN 1 + 0.5 * n ELSE 2 + n END
  FROM (SELECT id, row_number() OVER (PARTITION BY clients ORDER BY id) - 1 AS n
          FROM bench.runs WHERE suite_id = :suite1) o
 WHERE o.id = r.id;
SELECT clients, runs_done, tps_median, tps_min, tps_max,
       latency_p99_ms_median, latency_p99_ms_min, latency_p99_ms_max
  FROM bench.suite_summary WHERE suite_id = :suite1 ORDER BY clients;
SELECT pg_temp.svg_ok(svg, 900, 560) AS ok,
       svg ~ format('>suite %s: tpcb, 1, 2, 4 clients, 2 repeats each, PostgreSQL %s</text>', :suite1,
                    split_part(current_setting('server_version'), ' ', 1)) AS title,
       svg ~ '>canceled, started [0-9-]+ [0-9:]+, 4 of 6 runs done, interleaved order</text>' AS subtitle,
       regexp_count(svg, '<circle class="tps-median"') AS tps_points,
       regexp_count(svg, '<path class="tps-range"') AS tps_bars,
       regexp_count(svg, '<circle class="p99-median"') AS p99_points,
       regexp_count(svg, '<path class="p99-range"') AS p99_bars,
       pg_temp.vertices(svg, 'tps') AS tps_vertices,
       -- categories in ascending order, the one without runs says so
       svg ~ E'>1</text>\n<text [^>]*>2</text>\n<text [^>]*>4<tspan [^>]*>\\(0 of 2\\)</tspan></text>' AS x_labels,
       svg ~ '>clients</text>' AND svg ~ '>tps</text>' AND svg ~ '>p99 latency \(ms\)</text>' AS axis_titles
  FROM bench.chart_suite(:suite1) svg;
-- and the whole of it at 500 x 300, less the lines that name the suite
-- and the server
\pset format unaligned
\pset tuples_only on
SELECT regexp_replace(bench.chart_suite(:suite1, 500, 300),
                      E'\n(<title>|<text [^>]*class="(title|subtitle)")[^\n]*', '', 'g');
\pset format aligned
\pset tuples_only off

-- a suite with no finished run
INSERT INTO bench.suites (workload, clients, repeat, run_order, args, search_path, runs_planned, status, created_by)
VALUES ('tpcb', '{8}', 1, 'blocks', '{}', current_setting('search_path'), 1, 'canceled', current_user)
RETURNING id AS suite2 \gset
SELECT pg_temp.svg_ok(svg, 640, 480) AS ok,
       regexp_count(svg, 'class="no-data"') AS no_data_notes,
       svg ~ '>the suite has no finished run</text>' AS why,
       svg !~ 'class="tps-median"' AS no_points
  FROM bench.chart_suite(:suite2, 640, 480) svg;

--
-- bench.chart_schedule: three suites of a schedule on three days, each at
-- 1 and 2 clients, with their tps set after the runs so that the picture
-- is known: the first suite has no baseline yet, the third's 2 clients ran
-- at half the speed, a regression
--
INSERT INTO bench.schedules (name, cron, workload, clients, repeat, run_order, args, search_path,
                             baseline_runs, threshold, cron_database)
VALUES ('charts <nightly>', '0 3 * * *', 'tpcb', '{1,2}', 1, 'interleaved', '{}', current_setting('search_path'),
        5, 0.1, current_database()),
       ('charts empty', '0 4 * * *', 'tpcb', '{1}', 1, 'interleaved', '{}', current_setting('search_path'),
        5, 0.05, current_database());
INSERT INTO bench.suites (workload, clients, repeat, run_order, args, search_path, runs_planned, status,
                          created_by, schedule, started_at)
SELECT 'tpcb', '{1,2}', 1, 'interleaved', '{}', current_setting('search_path'), 2, 'done',
       current_user, 'charts <nightly>', timestamptz '2025-01-01 03:00' + k * interval '1 day'
  FROM generate_series(0, 2) k;
SELECT d[1] AS day1, d[2] AS day2, d[3] AS day3
  FROM (SELECT array_agg(id ORDER BY started_at) AS d FROM bench.suites WHERE schedule = 'charts <nightly>') s \gset
SET client_min_messages = warning;
SELECT id AS r FROM bench.run('tpcb', clients => 1, transactions => 20, progress => '1 s') \gset
UPDATE bench.runs SET suite_id = :day1 WHERE id = :r;
SELECT id AS r FROM bench.run('tpcb', clients => 2, transactions => 20, progress => '1 s') \gset
UPDATE bench.runs SET suite_id = :day1 WHERE id = :r;
SELECT id AS r FROM bench.run('tpcb', clients => 1, transactions => 20, progress => '1 s') \gset
UPDATE bench.runs SET suite_id = :day2 WHERE id = :r;
SELECT id AS r FROM bench.run('tpcb', clients => 2, transactions => 20, progress => '1 s') \gset
UPDATE bench.runs SET suite_id = :day2 WHERE id = :r;
SELECT id AS r FROM bench.run('tpcb', clients => 1, transactions => 20, progress => '1 s') \gset
UPDATE bench.runs SET suite_id = :day3 WHERE id = :r;
SELECT id AS r FROM bench.run('tpcb', clients => 2, transactions => 20, progress => '1 s') \gset
UPDATE bench.runs SET suite_id = :day3 WHERE id = :r;
RESET client_min_messages;
UPDATE bench.runs r
   SET tps = CASE WHEN r.clients = 1 THEN 1000 ELSE 2000 END
             * CASE WHEN r.clients = 2 AND s.id = :day3 THEN 0.5 ELSE 1 END
  FROM bench.suites s
 WHERE s.id = r.suite_id AND s.schedule = 'charts <nightly>';
SELECT to_char(started_at, 'YYYY-MM-DD HH24:MI') AS started_at, clients, tps, tps_ratio, regression
  FROM bench.schedule_results WHERE schedule = 'charts <nightly>' ORDER BY started_at, clients;
SELECT pg_temp.svg_ok(svg, 900, 560) AS ok,
       regexp_count(svg, '<polyline class="series"') AS series,
       pg_temp.vertices(svg, 'series') AS vertices,
       regexp_count(svg, '<circle class="point"') AS points,
       regexp_count(svg, '<circle class="regression"[^>]* fill="#d62728"') AS red_points,
       regexp_count(svg, '<circle class="no-baseline"[^>]* fill="#ffffff"') AS open_points,
       regexp_count(svg, '<rect class="threshold"') AS band,
       regexp_count(svg, '<line class="baseline"') AS baseline,
       svg ~ '>schedule &quot;charts &lt;nightly&gt;&quot;: tpcb, tps relative to the baseline</text>' AS title,
       svg ~ '>1 client</text>' AND svg ~ '>2 clients</text>' AND svg ~ '>regression</text>'
         AND svg ~ '>no baseline yet</text>' AND svg ~ '>within 10%</text>' AS legend
  FROM bench.chart_schedule('charts <nightly>') svg;
-- and the whole of it, at 500 x 300
\pset format unaligned
\pset tuples_only on
SELECT bench.chart_schedule('charts <nightly>', 500, 300);
\pset format aligned
\pset tuples_only off
-- a schedule that has not run yet
SELECT pg_temp.svg_ok(svg, 900, 560) AS ok,
       regexp_count(svg, 'class="no-data"') AS no_data_notes,
       svg ~ '>no suite of the schedule has finished</text>' AS why
  FROM bench.chart_schedule('charts empty') svg;

-- the made-up runs and schedules go; the real runs and the suites stay,
-- as after a sweep
DELETE FROM bench.runs WHERE id IN (900000001, 900000002, 900000003);
DELETE FROM bench.schedules WHERE name IN ('charts <nightly>', 'charts empty');
