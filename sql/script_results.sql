--
-- What each script of a run measured beyond its mean: the transactions
-- that rolled back as the script means them to (its ROLLBACK, an error
-- its \rollback_errors names), and its latency percentiles.
--
CREATE TABLE rb (proto text, x int);
CREATE FUNCTION rb_raise_if(b boolean) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF b THEN
        RAISE EXCEPTION 'item number is not valid' USING ERRCODE = 'P0001';
    END IF;
END $$;

-- three scripts: one that always rolls back, one whose function raises
-- the declared error half of the time (its INSERT rolled back with it),
-- one that commits
SELECT name FROM bench.define_workload('rollback-mix', ARRAY[
$s$BEGIN;
INSERT INTO rb VALUES (:'proto', 1);
ROLLBACK;
$s$,
$s$\rollback_errors P0001
\set r random(0, 1)
BEGIN;
INSERT INTO rb VALUES (:'proto', 10 + :r);
SELECT rb_raise_if(:r = 1);
END;
$s$,
$s$INSERT INTO rb VALUES (:'proto', 3);
$s$], ARRAY[1, 1, 1]);

SELECT id AS run_simple FROM bench.run('rollback-mix', clients => 3, transactions => 100, protocol => 'simple',
                                       variables => '{"proto": "simple"}', progress => '0') \gset
SELECT id AS run_prepared FROM bench.run('rollback-mix', clients => 2, transactions => 150, protocol => 'prepared',
                                         variables => '{"proto": "prepared"}', progress => '0') \gset

-- every transaction counted once: the run's own count is the scripts' sum,
-- no failure; the rows left are exactly the transactions that committed
SELECT r.protocol, r.transactions, r.failures,
       (SELECT sum(transactions) FROM bench.run_scripts s WHERE s.run_id = r.id) AS scripts_sum
  FROM bench.runs r WHERE r.id IN (:run_simple, :run_prepared) ORDER BY r.id;
SELECT r.protocol,
       -- script 1 always rolls back, script 3 never
       s1.rollbacks = s1.transactions AS all_rolled_back, s3.rollbacks AS rollbacks_3,
       (SELECT count(*) FROM rb WHERE proto = r.protocol AND x = 1) AS rows_1,
       -- script 2: its committed transactions are its rows with x = 10,
       -- its rollbacks the draws of r = 1, of which no row is left
       s2.transactions - s2.rollbacks = (SELECT count(*) FROM rb WHERE proto = r.protocol AND x = 10) AS committed_2,
       (SELECT count(*) FROM rb WHERE proto = r.protocol AND x = 11) AS rows_11,
       s2.rollbacks > 0 AND s2.rollbacks < s2.transactions AS some_rolled_back,
       s3.transactions = (SELECT count(*) FROM rb WHERE proto = r.protocol AND x = 3) AS committed_3
  FROM bench.runs r
  JOIN bench.run_scripts s1 ON s1.run_id = r.id AND s1.script_no = 1
  JOIN bench.run_scripts s2 ON s2.run_id = r.id AND s2.script_no = 2
  JOIN bench.run_scripts s3 ON s3.run_id = r.id AND s3.script_no = 3
 WHERE r.id IN (:run_simple, :run_prepared) ORDER BY r.id;

-- each script's percentiles: in order, the longest at least the mean
SELECT script_no,
       latency_p50_ms > 0 AND latency_p50_ms <= latency_p90_ms AND latency_p90_ms <= latency_p95_ms
       AND latency_p95_ms <= latency_p99_ms AND latency_p99_ms <= latency_max_ms * 1.01 AS ordered,
       latency_max_ms >= latency_avg_ms AS max_above_mean
  FROM bench.run_scripts WHERE run_id = :run_prepared ORDER BY script_no;

-- the report shows them, and the rollbacks
SELECT count(*) FILTER (WHERE l ~ '^ - latency percentiles: p50 [0-9.]+, p90 [0-9.]+, p95 [0-9.]+, p99 [0-9.]+, max [0-9.]+ ms$') AS percentile_lines,
       count(*) FILTER (WHERE l ~ '^ - rolled back: [0-9]+ \([0-9.]+%\)$') AS rollback_lines,
       count(*) FILTER (WHERE l ~ '^ - rolled back: [0-9]+ \(100\.000%\)$') AS script_1_all,
       count(*) FILTER (WHERE l ~ '\(group \)') AS empty_group
  FROM regexp_split_to_table(bench.report(:run_prepared), E'\n') l;
SELECT jsonb_path_query_array(bench.report_json(:run_prepared), '$.scripts[*].rollbacks')
       = (SELECT jsonb_agg(rollbacks ORDER BY script_no) FROM bench.run_scripts WHERE run_id = :run_prepared) AS rollbacks_json,
       jsonb_path_query_array(bench.report_json(:run_prepared), '$.scripts[0].latency_ms.keyvalue().key') AS keys;

-- an error the script does not declare still fails the run
\set VERBOSITY sqlstate
SELECT * FROM bench.run(script => E'SELECT rb_raise_if(true);\n', transactions => 1, progress => '0');
\set VERBOSITY default
SELECT status, error FROM bench.runs WHERE id = (SELECT max(id) FROM bench.runs);

-- \rollback_errors is a declaration, checked when the script is defined
SELECT bench.define_workload('rb-bad', $s$\rollback_errors
SELECT 1;
$s$);
SELECT bench.define_workload('rb-bad', $s$\rollback_errors P00X
$s$);
SELECT bench.define_workload('rb-bad', $s$\rollback_errors 02000
$s$);
SELECT bench.define_workload('rb-bad', $s$\rollback_errors 57014
$s$);
SELECT bench.define_workload('rb-bad', $s$\rollback_errors 08006
$s$);
SELECT bench.define_workload('rb-bad', $s$\ignore_errors 40001
\rollback_errors 23505 40001
$s$);
SELECT bench.define_workload('rb-bad', $s$\rollback_errors 23505
\ignore_errors 23505
$s$);
SELECT bench.define_workload('rb-bad', $s$\rollback_errors 22000 22001 22002 22003 22004 22005 22007 22008 22009 2200B 2200C 2200D 2200F 2200G 2200H 22010 22011
$s$);
-- lower case is taken as upper case, repeats are one
SELECT name FROM bench.define_workload('rb-ok', $s$\rollback_errors p0001 P0001
SELECT 1;
$s$);
SELECT bench.drop_workload('rb-ok');
SELECT bench.drop_workload('rollback-mix');
DROP TABLE rb;
DROP FUNCTION rb_raise_if(boolean);
