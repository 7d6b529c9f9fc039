--
-- Client groups: groups => gives each group of a run's clients its own
-- workload or script and its own rate; each group's results are kept
-- (bench.run_groups, bench.group_progress), reported and compared.
--
CREATE SCHEMA grp;
SET search_path = grp, public;
SET client_min_messages = warning;
SELECT dataset_id > 0 AS loaded FROM bench.init('tpcb', scale => 1);
RESET client_min_messages;
SELECT coalesce(max(id), 0) AS runs_before FROM bench.runs \gset

-- every transaction says which client ran which script
CREATE TABLE grp.tries (client integer, script text);
GRANT INSERT ON grp.tries TO PUBLIC;
SELECT name FROM bench.define_workload('grp_two', ARRAY[
    'INSERT INTO grp.tries VALUES (:client_id, ''b1'');',
    'INSERT INTO grp.tries VALUES (:client_id, ''b2'');'], '{3,1}');

-- two groups, 2 and 3 clients, 20 transactions each: each group's clients
-- run only its own scripts, and every count adds up
SELECT workload, clients, transactions_per_client, status, transactions, rate IS NULL AS no_run_rate
  FROM bench.run(groups => $$[
         {"name": "writers", "script": "INSERT INTO grp.tries VALUES (:client_id, 'a');", "clients": 2},
         {"name": "mixed", "workload": "grp_two", "clients": 3}]$$,
       transactions => 20, progress => '0', random_seed => 42);
SELECT max(id) AS run1 FROM bench.runs \gset
SELECT script, count(*) AS tries, array_agg(DISTINCT client ORDER BY client) AS clients
  FROM grp.tries GROUP BY script ORDER BY script;
SELECT group_no, name, workload, clients, rate, transactions, failures, ignored_errors, skipped,
       lag_avg_ms IS NULL AS no_lag,
       abs(tps - transactions / (SELECT measured_s FROM bench.runs WHERE id = :run1)) < 1e-6 * tps AS tps_is_rate,
       latency_avg_ms > 0 AND latency_p50_ms <= latency_p95_ms AND latency_p95_ms <= latency_p99_ms
         AND latency_p99_ms <= latency_max_ms AS latencies_ordered,
       (SELECT sum(c) FROM unnest(histogram_count) c) = transactions AS histogram_counts_all,
       histogram_lower_ms[1] <= latency_p50_ms AS histogram_spans
  FROM bench.run_groups WHERE run_id = :run1 ORDER BY group_no;
SELECT script_no, group_no, weight, transactions,
       transactions = (SELECT count(*) FROM grp.tries t
                        WHERE t.script = CASE rs.script_no WHEN 1 THEN 'a' WHEN 2 THEN 'b1' ELSE 'b2' END) AS as_tried
  FROM bench.run_scripts rs WHERE run_id = :run1 ORDER BY script_no;
-- the groups' progress rows add up to the groups' and to the run's
SELECT g.group_no, count(p.*) = (SELECT count(*) FROM bench.progress WHERE run_id = :run1) AS every_interval,
       sum(p.transactions) FILTER (WHERE NOT p.in_warmup) = g.transactions AS adds_up
  FROM bench.run_groups g JOIN bench.group_progress p USING (run_id, group_no)
 WHERE g.run_id = :run1 GROUP BY g.group_no, g.transactions ORDER BY 1;
SELECT (SELECT sum(transactions) FROM bench.run_groups WHERE run_id = :run1) = transactions AS groups_add_up
  FROM bench.runs WHERE id = :run1;

-- the report: a section per group; report_json: the groups, their scripts
SELECT line FROM regexp_split_to_table(bench.report(:run1), E'\n') AS line
 WHERE line ~ '^(groups:|  group |SQL script )';
SELECT jsonb_path_query_array(bench.report_json(:run1), '$.groups[*].name') AS names,
       jsonb_path_query_array(bench.report_json(:run1), '$.groups[*].scripts') AS scripts,
       jsonb_path_query_array(bench.report_json(:run1), '$.groups[*].transactions') AS transactions,
       jsonb_path_query_array(bench.report_json(:run1), '$.scripts[*].group_no') AS script_groups;

-- a rate per group: only the limited group has a schedule lag; bench.start
-- takes groups too
TRUNCATE grp.tries;
SELECT bench.start(groups => $$[
         {"name": "limited", "script": "INSERT INTO grp.tries VALUES (:client_id, 'a');", "clients": 1, "rate": 2000},
         {"name": "free", "script": "INSERT INTO grp.tries VALUES (:client_id, 'b');", "clients": 1}]$$,
       transactions => 30, progress => '0') AS run2 \gset
SET client_min_messages = warning;
SELECT status, transactions FROM bench.wait(:run2);
RESET client_min_messages;
SELECT name, rate, transactions, lag_avg_ms >= 0 AS has_lag, lag_avg_ms IS NULL AS no_lag
  FROM bench.run_groups WHERE run_id = :run2 ORDER BY group_no;
SELECT regexp_replace(line, 'avg [0-9.]+ ms', 'avg N ms') AS line
  FROM regexp_split_to_table(bench.report(:run2), E'\n') AS line
 WHERE line ~ '^  group |rate limit schedule lag' ORDER BY line;

-- bench.compare: each group's tps and latencies, the groups matched by
-- name; a group of one run only has no verdict
SELECT id AS run3 FROM bench.run(groups => $$[
         {"name": "writers", "script": "INSERT INTO grp.tries VALUES (:client_id, 'a');", "clients": 2},
         {"name": "mixed", "workload": "grp_two", "clients": 3}]$$,
       transactions => 20, progress => '0', random_seed => 42) \gset
SELECT metric, clients, a_value::float8 > 0 AS has_a, b_value::float8 > 0 AS has_b,
       abs(ratio - b_value::float8 / a_value::float8) < 0.01 * ratio AS ratio_of_values,
       verdict IN ('improvement', 'regression', 'within noise') AS has_verdict
  FROM bench.compare(:run1, :run3) WHERE section = 'group' ORDER BY metric;
SELECT count(*) AS one_sided, count(verdict) AS verdicts,
       count(*) FILTER (WHERE (a_value IS NULL) <> (b_value IS NULL)) AS with_one_value
  FROM bench.compare(:run1, :run2) WHERE section = 'group';

-- export and import carry the groups and their progress
SELECT bench.import(bench.export(:run1)) AS run1_copy \gset
SELECT (SELECT jsonb_agg(to_jsonb(g) - 'run_id' ORDER BY group_no) FROM bench.run_groups g WHERE run_id = :run1)
     = (SELECT jsonb_agg(to_jsonb(g) - 'run_id' ORDER BY group_no) FROM bench.run_groups g WHERE run_id = :run1_copy)
       AS groups_copied,
       (SELECT jsonb_agg(to_jsonb(p) - 'run_id' ORDER BY group_no, interval_start) FROM bench.group_progress p WHERE run_id = :run1)
     = (SELECT jsonb_agg(to_jsonb(p) - 'run_id' ORDER BY group_no, interval_start) FROM bench.group_progress p WHERE run_id = :run1_copy)
       AS progress_copied,
       (SELECT count(*) FROM bench.run_groups WHERE run_id = :run1_copy) AS groups;

-- bad input, refused before anything starts
SELECT * FROM bench.run(groups => '{}');
SELECT * FROM bench.run(groups => '[]');
SELECT * FROM bench.run(groups => '[1]');
SELECT * FROM bench.run(groups => '[{"workload": "tpcb"}]');
SELECT * FROM bench.run(groups => '[{"workload": "tpcb", "clients": 0}]');
SELECT * FROM bench.run(groups => '[{"workload": "tpcb", "clients": 1.5}]');
SELECT * FROM bench.run(groups => '[{"workload": "tpcb", "clients": "2"}]');
SELECT * FROM bench.run(groups => '[{"workload": "tpcb", "clients": 1, "rate": 0}]');
SELECT * FROM bench.run(groups => '[{"workload": "tpcb", "clients": 1, "rate": -5}]');
SELECT * FROM bench.run(groups => '[{"workload": "tpcb", "clients": 1, "rate": "fast"}]');
SELECT * FROM bench.run(groups => '[{"workload": "tpcb", "clients": 1, "rate": 2000001}]');
SELECT * FROM bench.run(groups => '[{"workload": "tpcb", "clients": 1, "colour": "red"}]');
SELECT * FROM bench.run(groups => '[{"clients": 1}]');
SELECT * FROM bench.run(groups => '[{"workload": "tpcb", "script": "SELECT 1;", "clients": 1}]');
SELECT * FROM bench.run(groups => '[{"workload": 5, "clients": 1}]');
SELECT * FROM bench.run(groups => '[{"name": 5, "script": "SELECT 1;", "clients": 1}]');
SELECT * FROM bench.run(groups => '[{"name": "", "script": "SELECT 1;", "clients": 1}]');
SELECT * FROM bench.run(groups => '[{"workload": "tpcb", "clients": 1}, {"workload": "tpcb", "clients": 1}]');
SELECT * FROM bench.run(groups => '[{"workload": "tpcd", "clients": 1}]');
SELECT * FROM bench.run(groups => '[{"script": "\\set x", "clients": 1}]');
SELECT * FROM bench.run(groups => '[{"workload": "tpcb", "clients": 1}, {"workload": "oltp_read_only", "clients": 1}]');
SELECT * FROM bench.run(groups => '[{"workload": "tpcb", "clients": 10000}, {"workload": "select-only", "clients": 1}]');
SELECT * FROM bench.run(groups => (SELECT jsonb_agg(jsonb_build_object('name', 'g' || i, 'script', 'SELECT 1;', 'clients', 1))
                                     FROM generate_series(1, 17) i));
SELECT * FROM bench.run('tpcb', groups => '[{"workload": "tpcb", "clients": 1}]');
SELECT * FROM bench.run(script => 'SELECT 1;', groups => '[{"workload": "tpcb", "clients": 1}]');
SELECT * FROM bench.run(groups => '[{"workload": "tpcb", "clients": 1}]', rate => 5);
SELECT * FROM bench.run(groups => '[{"workload": "tpcb", "clients": 1}]', clients => 3);
SELECT * FROM bench.sweep('tpcb', clients => '{1,2}', groups => '[{"workload": "tpcb", "clients": 1}]');
SELECT bench.start_sweep('tpcb', clients => '{1,2}', groups => '[{"workload": "tpcb", "clients": 1}]');
-- nothing was started
SELECT count(*) AS runs_after FROM bench.runs WHERE id > :runs_before AND id NOT IN (:run1, :run2, :run3, :run1_copy);

SET client_min_messages = warning;
DROP SCHEMA grp CASCADE;
SELECT bench.drop_workload('grp_two');
RESET client_min_messages;
