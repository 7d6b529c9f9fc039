--
-- The state of a run: how its end cuts a transaction short, what a
-- forced reload of its dataset meets while it runs, how readers show a run
-- whose coordinator is gone, and the host's CPU counters that go back.
--
CREATE SCHEMA runstate;
SET search_path = runstate, public;
SET client_min_messages = warning;
SELECT dataset_id AS dataset FROM bench.init('tpcb', scale => 1) \gset
RESET client_min_messages;

-- a \sleep cut short by the end of the duration: its transaction is not
-- counted, as pgbench counts none the end of its run interrupts
SELECT status, transactions, failures, measured_s
  FROM bench.run(script => E'\\sleep 100 s\nselect 1;', clients => 2, duration => '2 s',
                 progress => '0', prewarm => false);
SELECT c.command, c.executions
  FROM bench.command_latencies c
 WHERE c.run_id = (SELECT max(id) FROM bench.runs) ORDER BY c.command_no;

-- ... and by a cancel: four clients asleep, no transaction
SELECT bench.start(script => E'\\sleep 10 s\nselect 1;', clients => 4, duration => '60 s',
                   progress => '0', prewarm => false) AS slept \gset
SELECT bench.cancel(:slept) AS canceled;
SELECT status, transactions, latency_avg_ms, failures FROM bench.runs WHERE id = :slept;

-- what the cut transaction did before its \sleep is rolled back
CREATE TABLE cut (x integer);
SELECT status, transactions, failures
  FROM bench.run(script => E'BEGIN;\nINSERT INTO runstate.cut VALUES (1);\n\\sleep 100 s\nEND;',
                 clients => 2, duration => '2 s', progress => '0', prewarm => false);
SELECT count(*) AS rows_of_cut_transactions FROM cut;

-- a \sleep that ends within the run completes its transaction
SELECT status, transactions > 0 AS counted, failures
  FROM bench.run(script => E'BEGIN;\nINSERT INTO runstate.cut VALUES (2);\n\\sleep 1 ms\nEND;',
                 clients => 1, transactions => 20, progress => '0', prewarm => false);
SELECT count(*) AS rows_of_completed_transactions FROM cut WHERE x = 2;

-- bench.init(force => true) while a run uses the dataset: refused at once
-- with the error bench.run gives (55006), and the run does not notice
SELECT bench.start('tpcb', clients => 2, duration => '60 s', progress => '0',
                   prewarm => false) AS busy \gset
SELECT bench._run_alive(:busy) AS busy_alive;
-- (the ids in the messages are those of this run and dataset)
\set VERBOSITY sqlstate
SELECT * FROM bench.init('tpcb', scale => 1, force => true);
\set VERBOSITY default
SELECT :'LAST_ERROR_MESSAGE' = format('dataset %s is in use by run %s', :dataset, :busy) AS init_message;
\set VERBOSITY sqlstate
SELECT * FROM bench.run('tpcb', transactions => 1);
\set VERBOSITY default
SELECT :'LAST_ERROR_MESSAGE' = format('dataset %s is in use by run %s', :dataset, :busy) AS run_message;
SELECT id = :busy AS same_run FROM bench.runs_in_progress;
SELECT bench.cancel(:busy) AS canceled;
SELECT status, failures, deadlock_failures, transactions > 0 AS measured
  FROM bench.runs WHERE id = :busy;
SELECT status FROM bench.datasets WHERE id = :dataset;
SELECT count(*) AS accounts FROM pgbench_accounts;
-- once the run is over, the forced reload works
SET client_min_messages = warning;
SELECT dataset_id > :dataset AS reloaded FROM bench.init('tpcb', scale => 1, force => true);
RESET client_min_messages;
SELECT status FROM bench.datasets WHERE id = :dataset;

-- a finished run is not a dead one (its final row is there, though no one
-- holds its lock); every progress row keeps its interval's histogram, and
-- the measured ones add up to the run's
SELECT bench._run_alive(:busy) AS finished_not_dead;
SELECT count(*) > 0 AS intervals,
       bool_and(cardinality(histogram_count) = cardinality(histogram_lower_ms)
                AND cardinality(histogram_count) = cardinality(histogram_upper_ms)) AS aligned,
       (SELECT sum(c) FROM bench.progress q, unnest(q.histogram_count) c
         WHERE q.run_id = :busy AND NOT q.in_warmup)
       = (SELECT sum(count) FROM bench.histograms WHERE run_id = :busy) AS adds_up
  FROM bench.progress WHERE run_id = :busy;

-- a run whose coordinator is gone (as after a crash: a row 'running', its
-- progress rows, nobody holding its lock) is aborted to every reader at once
INSERT INTO bench.runs (workload, clients, duration, protocol, warmup, progress, max_tries,
                        status, created_by, coordinator_pid, started_at, dataset_id, scale)
VALUES ('tpcb', 2, '60 s', 'prepared', '1 s', '1 s', 1, 'running', current_user, 999999,
        '2026-01-01 00:00:00+00', (SELECT max(id) FROM bench.datasets), 1)
RETURNING id AS gone \gset
INSERT INTO bench.progress (run_id, interval_start, interval_end, elapsed_s, transactions, tps,
                            latency_avg_ms, latency_stddev_ms, latency_p99_ms, latency_max_ms,
                            failures, retries, in_warmup,
                            histogram_lower_ms, histogram_upper_ms, histogram_count)
VALUES (:gone, '2026-01-01 00:00:00+00', '2026-01-01 00:00:01+00', 1, 10, 10, 1.5, 0.5, 2.0, 2.0,
        0, 0, true, '{1.0, 2.0}', '{1.01, 2.02}', '{5, 5}'),
       (:gone, '2026-01-01 00:00:01+00', '2026-01-01 00:00:02+00', 2, 100, 100, 3.0, 1.0, 5.0, 5.0,
        1, 2, false, '{2.0, 4.0}', '{2.02, 4.04}', '{60, 40}'),
       (:gone, '2026-01-01 00:00:02+00', '2026-01-01 00:00:03+00', 3, 100, 100, 5.0, 1.0, 9.0, 9.0,
        0, 0, false, '{4.0, 8.0}', '{4.04, 8.08}', '{50, 50}');
SELECT bench._run_alive(:gone) AS gone_alive;
SELECT count(*) AS in_progress FROM bench.runs_in_progress WHERE id = :gone;
SELECT status, transactions, tps, failures, retries, measured_s,
       latency_avg_ms, round(latency_stddev_ms::numeric, 6) AS stddev, latency_min_ms,
       latency_p50_ms, latency_p90_ms, latency_p99_ms, latency_max_ms
  FROM bench.export_runs WHERE id = :gone;
SELECT lower_ms, upper_ms, count FROM bench._progress_histogram(:gone);
SELECT regexp_replace(line, '^run \d+', 'run N') AS line
  FROM regexp_split_to_table(bench.report(:gone), E'\n') AS line
 WHERE line ~ '^(run |error|latency percentiles|number of transactions)';
SELECT j->'runs'->0->>'status' AS exported, jsonb_array_length(j->'histograms') AS buckets
  FROM bench.export(:gone) AS j;
SELECT section, metric, a_value, b_value FROM bench.compare(:busy, :gone) WHERE metric = 'status';
SELECT bench.chart_run(:gone) LIKE '%aborted%' AS chart_says_aborted;
-- a plain read of bench.runs shows it so at once, with the counts of its
-- progress rows, while its stored row still says running
SELECT status, sqlstate, transactions, warmup_transactions, failures, retries, measured_s,
       latency_p50_ms, ended_at, coordinator_pid
  FROM bench.runs WHERE id = :gone;
SELECT status, transactions, coordinator_pid FROM bench._runs WHERE id = :gone;
-- an UPDATE of the view writes the columns it changes into the table
UPDATE bench.runs SET tag = 'gone' WHERE id = :gone;
SELECT status, tag, transactions FROM bench._runs WHERE id = :gone;
-- the table itself says so from the next bench call on, with the histogram
SELECT status, transactions, latency_p50_ms, latency_p99_ms, coordinator_pid
  FROM bench.wait(:gone);
SELECT status, transactions, latency_p50_ms, coordinator_pid, tag FROM bench._runs WHERE id = :gone;
SELECT lower_ms, upper_ms, count FROM bench.histograms WHERE run_id = :gone ORDER BY lower_ms;

-- the host's CPUs: iowait and idle that go back are held at the highest
-- value the run's samples showed, whoever read them, so that busy time
-- never grows by more than total time between two samples
CREATE TEMP TABLE stat (n integer, line text);
INSERT INTO stat VALUES
    (1, 'cpu  100 0 50 1000 200 0 0 0'),
    (2, 'cpu  110 0 55 990 150 0 0 0'),  -- idle and iowait back
    (3, 'cpu  120 0 60 1005 160 0 0 0'), -- still below what sample 1 showed
    (4, 'cpu  130 0 65 1300 400 2 1 0');
CREATE TEMP TABLE samples AS
WITH RECURSIVE s (n, cpu) AS (
    SELECT 1, bench._host_cpu_sample(line, NULL) FROM stat WHERE n = 1
    UNION ALL
    SELECT stat.n, bench._host_cpu_sample(stat.line, s.cpu) FROM s JOIN stat ON stat.n = s.n + 1
)
SELECT n, cpu FROM s;
SELECT n, cpu FROM samples ORDER BY n;
-- every pair, subtracted as bench.run_counters subtracts them
SELECT count(*) AS pairs,
       bool_and((b.cpu->>'host_busy_s')::numeric - (a.cpu->>'host_busy_s')::numeric
                <= (b.cpu->>'host_total_s')::numeric - (a.cpu->>'host_total_s')::numeric) AS busy_within_total
  FROM samples a JOIN samples b ON b.n > a.n;
-- read alone, without the sample before, the same lines break that
SELECT (bench._host_cpu_sample(s3.line, NULL)->>'host_busy_s')::numeric - (s1.cpu->>'host_busy_s')::numeric
       <= (bench._host_cpu_sample(s3.line, NULL)->>'host_total_s')::numeric - (s1.cpu->>'host_total_s')::numeric
       AS unheld_within_total
  FROM stat s3, samples s1 WHERE s3.n = 3 AND s1.n = 1;
SELECT bench._host_cpu_sample('intr 1 2 3');

-- a run's samples hold each other: each one's busy and idle at least the one before
SELECT count(*) > 0 AS pairs,
       bool_and(b.host_cpu_busy_s::numeric >= a.host_cpu_busy_s::numeric
                AND b.host_cpu_total_s::numeric - b.host_cpu_busy_s::numeric
                    >= a.host_cpu_total_s::numeric - a.host_cpu_busy_s::numeric) AS held
  FROM bench.sample_counters a JOIN bench.sample_counters b
    ON b.run_id = a.run_id AND b.sample_no = a.sample_no + 1
 WHERE a.run_id = :busy;

-- a DELETE of the view deletes the table's row, and the rows of the run with it
DELETE FROM bench.runs WHERE id = :gone;
SELECT (SELECT count(*) FROM bench._runs WHERE id = :gone) AS runs,
       (SELECT count(*) FROM bench.progress WHERE run_id = :gone) AS progress,
       (SELECT count(*) FROM bench.histograms WHERE run_id = :gone) AS histograms;
DROP SCHEMA runstate CASCADE;
