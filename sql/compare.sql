--
-- bench.compare: two runs or two suites side by side, what differs
-- between them, and a verdict per metric
--
SET search_path = runs, public;
\set SHOW_CONTEXT never

-- errors as rows: SQLSTATE, message (the ids of this test's runs by name,
-- since their numbers depend on the tests before) and hint
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

-- two runs with the same arguments, short (no series to estimate the
-- noise from: samples before and after only, one progress row)
SET client_min_messages = warning;
SELECT id AS r1 FROM bench.run('tpcb', clients => 2, transactions => 200, progress => '0', sample_interval => '0') \gset
SELECT id AS r2 FROM bench.run('tpcb', clients => 2, transactions => 200, progress => '0', sample_interval => '0') \gset
RESET client_min_messages;

-- nothing differs; then the metrics, in order, each with a verdict
SELECT section, metric, clients, a_value IS NOT NULL AS has_a, b_value IS NOT NULL AS has_b,
       verdict IN ('improvement', 'regression', 'within noise') AS judged,
       noise_pct IS NULL AS no_noise_estimate
  FROM bench.compare(:r1, :r2);

-- the figures are the runs' own: tps and latency from bench.runs, WAL,
-- FPI, checkpoints and blocks read per transaction from bench.run_counters
SELECT c.metric,
       abs(split_part(c.a_value, ' ', 1)::float8 - CASE c.metric
           WHEN 'tps' THEN r.tps
           WHEN 'latency_avg_ms' THEN r.latency_avg_ms
           WHEN 'latency_p99_ms' THEN r.latency_p99_ms
           WHEN 'wal_bytes_per_tx' THEN (k.wal_bytes / k.transactions)::float8
           WHEN 'checkpoints' THEN k.checkpoints_timed + k.checkpoints_requested END)
         <= 0.0005 * abs(split_part(c.a_value, ' ', 1)::float8) AS a_is_run_a,
       abs(c.ratio - CASE c.metric WHEN 'tps' THEN r2.tps / r.tps
                                   WHEN 'latency_avg_ms' THEN r2.latency_avg_ms / r.latency_avg_ms
                                   WHEN 'latency_p99_ms' THEN r2.latency_p99_ms / r.latency_p99_ms
                                   ELSE c.ratio END) < 1e-12 AS ratio_is_b_over_a,
       abs(c.change_pct - (c.ratio - 1) * 100) < 1e-9 AS change_is_ratio_minus_1
  FROM bench.compare(:r1, :r2) c, bench.runs r, bench.runs r2, bench.run_counters k
 WHERE r.id = :r1 AND r2.id = :r2 AND k.run_id = :r1 AND c.section = 'metric'
   AND c.metric IN ('tps', 'latency_avg_ms', 'latency_p99_ms', 'wal_bytes_per_tx', 'checkpoints');

-- a copy of run 1 (bench.import of its export): every metric the same,
-- so every verdict is 'within noise' (ratio and change are NULL for a
-- metric that is 0: no FPI without a checkpoint before, no checkpoint)
SELECT bench.import(bench.export(:r1)) AS c1 \gset
SELECT section, metric, clients, a_value = b_value AS same,
       COALESCE(ratio, 1) AS ratio, COALESCE(change_pct, 0) AS change_pct, verdict
  FROM bench.compare(:r1, :c1);

-- the copy made twice as fast, its p99 latency 50% worse and its average
-- latency 1% worse: an improvement, a regression, and within the 5%
-- threshold (no noise estimate: the threshold alone decides)
UPDATE bench.runs SET tps = tps * 2, latency_p99_ms = latency_p99_ms * 1.5,
       latency_avg_ms = latency_avg_ms * 1.01
 WHERE id = :c1;
SELECT metric, round(ratio::numeric, 6) AS ratio, round(change_pct::numeric, 3) AS change_pct, verdict
  FROM bench.compare(:r1, :c1) WHERE metric IN ('tps', 'latency_avg_ms', 'latency_p99_ms');
-- the other way round: a regression, an improvement
SELECT metric, round(ratio::numeric, 6) AS ratio, verdict
  FROM bench.compare(:c1, :r1) WHERE metric IN ('tps', 'latency_avg_ms', 'latency_p99_ms');
-- at a threshold of 0.5%, the 1% is a regression; at 60%, the 50% is not
SELECT metric, verdict FROM bench.compare(:r1, :c1, threshold => 0.005)
 WHERE metric IN ('tps', 'latency_avg_ms', 'latency_p99_ms');
SELECT metric, verdict FROM bench.compare(:r1, :c1, 0.6)
 WHERE metric IN ('tps', 'latency_avg_ms', 'latency_p99_ms');

-- the noise of single runs: sqrt((cv_a^2 + cv_b^2) / 2) of their series;
-- two series made to vary by a known amount (cv 0.179: tps
-- 80, 100, 120, 80, 100, 120 in the run and in its copy)
SELECT bench.import(bench.export(:r2)) AS c2 \gset
DELETE FROM bench.progress WHERE run_id IN (:r2, :c2);
INSERT INTO bench.progress (run_id, interval_start, interval_end, elapsed_s, transactions, tps,
                            latency_avg_ms, failures, retries, in_warmup)
SELECT r.id, '2000-01-01'::timestamptz + (i - 1) * interval '1 s', '2000-01-01'::timestamptz + i * interval '1 s',
       i, t, t, 1, 0, 0, false
  FROM bench.runs r, unnest(ARRAY[80, 100, 120, 80, 100, 120]) WITH ORDINALITY AS s (t, i)
 WHERE r.id IN (:r2, :c2);
UPDATE bench.runs SET progress = '1 s' WHERE id IN (:r2, :c2);
-- the two series vary alike: noise = cv = 0.1789; a change of 50% is
-- within 3 * noise, one of 60% is not
UPDATE bench.runs SET tps = (SELECT tps FROM bench.runs WHERE id = :r2) * 1.5 WHERE id = :c2;
SELECT metric, round(noise_pct::numeric, 2) AS noise_pct, round(change_pct::numeric, 1) AS change_pct, verdict
  FROM bench.compare(:r2, :c2) WHERE metric = 'tps';
UPDATE bench.runs SET tps = (SELECT tps FROM bench.runs WHERE id = :r2) * 1.6 WHERE id = :c2;
SELECT metric, round(noise_pct::numeric, 2) AS noise_pct, round(change_pct::numeric, 1) AS change_pct, verdict
  FROM bench.compare(:r2, :c2) WHERE metric = 'tps';
-- and downwards: a fall of 50% is within 3 * noise, one of 60% a
-- regression
UPDATE bench.runs SET tps = (SELECT tps FROM bench.runs WHERE id = :r2) * 0.5 WHERE id = :c2;
SELECT metric, round(noise_pct::numeric, 2) AS noise_pct, round(change_pct::numeric, 1) AS change_pct, verdict
  FROM bench.compare(:r2, :c2) WHERE metric = 'tps';
UPDATE bench.runs SET tps = (SELECT tps FROM bench.runs WHERE id = :r2) * 0.4 WHERE id = :c2;
SELECT metric, round(noise_pct::numeric, 2) AS noise_pct, round(change_pct::numeric, 1) AS change_pct, verdict
  FROM bench.compare(:r2, :c2) WHERE metric = 'tps';
UPDATE bench.runs SET tps = (SELECT tps FROM bench.runs WHERE id = :r2) * 1.6 WHERE id = :c2;
-- warm-up intervals and a last interval shorter than half the others are
-- left out of the series: the noise stays the same
INSERT INTO bench.progress (run_id, interval_start, interval_end, elapsed_s, transactions, tps,
                            latency_avg_ms, failures, retries, in_warmup)
VALUES (:c2, '1999-12-31 23:59:59', '2000-01-01', 0, 5, 5, 1, 0, 0, true),
       (:c2, '2000-01-01 00:00:06', '2000-01-01 00:00:06.2', 6.2, 1, 5, 1, 0, 0, false);
SELECT metric, round(noise_pct::numeric, 2) AS noise_pct
  FROM bench.compare(:r2, :c2) WHERE metric = 'tps';

-- what differs comes first, before the metrics: the status of a run that
-- did not end 'done', the arguments, the server's settings (the notable
-- ones first, then the others by name), the host
-- (a run is imported once: the first copy goes first)
DELETE FROM bench.runs WHERE id = :c1;
SELECT bench.import(bench.export(:r1)) AS c3 \gset
UPDATE bench.runs
   SET status = 'canceled', protocol = 'simple', warmup = '1 s',
       settings = settings || '{"synchronous_commit": "off", "random_page_cost": "1.1", "enable_seqscan": "off"}',
       host = host || jsonb_build_object('cpus', (host->>'cpus')::int * 2, 'data_directory_fs_free_bytes', 1)
 WHERE id = :c3;
SELECT section, metric, clients,
       CASE WHEN metric = 'host cpus' THEN a_value::int * 2 = b_value::int END AS cpus_doubled,
       CASE WHEN metric <> 'host cpus' THEN a_value END AS a_value,
       CASE WHEN metric <> 'host cpus' THEN b_value END AS b_value,
       verdict
  FROM bench.compare(:r1, :c3) WHERE section = 'parameter';

-- runs with different client counts: said so, and the metrics have no
-- client count
SET client_min_messages = warning;
SELECT id AS r3 FROM bench.run('tpcb', clients => 1, transactions => 200, progress => '0', sample_interval => '0') \gset
RESET client_min_messages;
SELECT section, metric, clients, CASE WHEN section = 'parameter' THEN a_value END AS a_value,
       CASE WHEN section = 'parameter' THEN b_value END AS b_value, verdict IS NOT NULL AS judged
  FROM bench.compare(:r1, :r3) WHERE section = 'parameter' OR metric = 'tps';

-- runs of different workloads (tpcb and select-only), or of one workload
-- whose scripts changed between them, did different work: a warning, and
-- no metric judged (their figures are still shown)
SET client_min_messages = warning;
SELECT id AS r5 FROM bench.run('select-only', clients => 2, transactions => 200, progress => '0', sample_interval => '0') \gset
SELECT id AS r6 FROM bench.run('tpcb', clients => 2, transactions => 200, progress => '0', sample_interval => '0') \gset
RESET client_min_messages;
SELECT section, metric, CASE WHEN metric = 'workload' THEN a_value END AS a_value,
       CASE WHEN metric = 'workload' THEN b_value END AS b_value,
       a_value IS NOT NULL AND b_value IS NOT NULL AS shown, verdict
  FROM bench.compare(:r1, :r5) WHERE metric IN ('workload', 'scripts') OR section = 'metric';
-- the same workload, its script redefined between the runs
UPDATE bench.run_scripts SET script = script || E'\n-- redefined' WHERE run_id = :r6;
SELECT section, metric, verdict FROM bench.compare(:r1, :r6) WHERE metric = 'scripts' OR section = 'metric';
-- the same scripts again: judged
UPDATE bench.run_scripts SET script = regexp_replace(script, E'\n-- redefined$', '') WHERE run_id = :r6;
SELECT count(*) FILTER (WHERE verdict IN ('improvement', 'regression', 'within noise')) AS judged,
       count(*) FILTER (WHERE verdict = 'not comparable') AS not_comparable
  FROM bench.compare(:r1, :r6) WHERE section = 'metric';

-- a metric unknown on one side (its samples lost): no verdict
DELETE FROM bench.samples WHERE run_id = :c3;
SELECT metric, b_value, ratio, verdict FROM bench.compare(:r1, :c3)
 WHERE metric IN ('wal_bytes_per_tx', 'wal_fpi_per_tx', 'checkpoints', 'blks_read_per_tx');

-- checkpoints are counts: within noise up to a difference of 1
DELETE FROM bench.runs WHERE id = :c2;
SELECT bench.import(bench.export(:r2)) AS c4 \gset
UPDATE bench.samples s
   SET data = jsonb_set(data, '{bgwriter,checkpoints_req}',
                        to_jsonb((data->'bgwriter'->>'checkpoints_req')::bigint + 1))
 WHERE run_id = :c4 AND phase = 'after' AND current_setting('server_version_num')::int < 170000;
UPDATE bench.samples s
   SET data = jsonb_set(data, '{checkpointer,num_requested}',
                        to_jsonb((data->'checkpointer'->>'num_requested')::bigint + 1))
 WHERE run_id = :c4 AND phase = 'after' AND current_setting('server_version_num')::int >= 170000;
SELECT metric, b_value::int - a_value::int AS more, verdict
  FROM bench.compare(:r2, :c4) WHERE metric = 'checkpoints';
UPDATE bench.samples s
   SET data = jsonb_set(data, '{bgwriter,checkpoints_req}',
                        to_jsonb((data->'bgwriter'->>'checkpoints_req')::bigint + 2))
 WHERE run_id = :c4 AND phase = 'after' AND current_setting('server_version_num')::int < 170000;
UPDATE bench.samples s
   SET data = jsonb_set(data, '{checkpointer,num_requested}',
                        to_jsonb((data->'checkpointer'->>'num_requested')::bigint + 2))
 WHERE run_id = :c4 AND phase = 'after' AND current_setting('server_version_num')::int >= 170000;
SELECT metric, b_value::int - a_value::int AS more, verdict
  FROM bench.compare(:r2, :c4) WHERE metric = 'checkpoints';

--
-- Suites: the median over each client count's finished runs, the noise
-- from their range.  Two suites of 2 client counts x 2 repeats, made of
-- real runs (as bench.sweep would make them) whose figures are then set to
-- known values.
--
-- (the suite's row as bench.sweep fills it)
INSERT INTO bench.suites
SELECT * FROM jsonb_populate_record(NULL::bench.suites, jsonb_build_object(
    'id', nextval('bench.runs_id_seq'), 'workload', 'tpcb', 'clients', '{1,2}'::int[], 'repeat', 2,
    'run_order', 'interleaved', 'args', '{}'::jsonb, 'search_path', current_setting('search_path'),
    'runs_planned', 4, 'status', 'running', 'created_by', current_user,
    'server_version', current_setting('server_version'), 'started_at', clock_timestamp()))
RETURNING id AS s1 \gset
SET client_min_messages = warning;
SELECT id AS s1r1 FROM bench.run('tpcb', clients => 1, transactions => 100, progress => '0', sample_interval => '0') \gset
SELECT id AS s1r2 FROM bench.run('tpcb', clients => 2, transactions => 100, progress => '0', sample_interval => '0') \gset
SELECT id AS s1r3 FROM bench.run('tpcb', clients => 1, transactions => 100, progress => '0', sample_interval => '0') \gset
SELECT id AS s1r4 FROM bench.run('tpcb', clients => 2, transactions => 100, progress => '0', sample_interval => '0') \gset
RESET client_min_messages;
UPDATE bench.runs SET suite_id = :s1 WHERE id IN (:s1r1, :s1r2, :s1r3, :s1r4);

UPDATE bench.suites SET status = 'done', ended_at = clock_timestamp() WHERE id = :s1;

-- the second suite: a copy of the first
SELECT bench.import(bench.export(:s1)) AS s2 \gset
-- a suite still running cannot be compared; a suite whose row says
-- running but whose worker is gone is the aborted suite it is
SELECT bench.start_sweep('tpcb', clients => '{1}', repeat => 1, duration => '1 min', progress => '0') AS s3 \gset
SELECT * FROM pg_temp.error_of(format('SELECT * FROM bench.compare(%s, %s)', :s1, :s3), jsonb_build_object('s1', :s1, 's3', :s3));
SELECT bench.cancel_suite(:s3) AS canceled;
SET client_min_messages = warning;
SELECT count(*) > 0 AS waited FROM bench.wait_suite(:s3);
RESET client_min_messages;
SELECT status FROM bench.suites WHERE id = :s3;
UPDATE bench.suites SET status = 'running' WHERE id = :s2;
SELECT status, sqlstate FROM bench.suites WHERE id = :s2;
SELECT * FROM pg_temp.error_of(format('SELECT * FROM bench.compare(%s, %s)', :s1, :s2), jsonb_build_object('s1', :s1, 's2', :s2));
UPDATE bench.suites SET status = 'done' WHERE id = :s2;
SELECT section, metric, clients, a_value = b_value AS same, verdict FROM bench.compare(:s1, :s2);

-- known figures: tps 1000 and 1100 at 1 client, 1800 and 2000 at 2 in the
-- first suite; 1500 and 1600 (50% more, ranges apart: an improvement), 1900
-- and 2100 (5.3% more, over the threshold but the ranges overlap: within
-- noise) in the second.  p99: within noise at 1 client, a regression at 2.
UPDATE bench.runs r SET tps = v.tps, latency_p99_ms = v.p99
  FROM (VALUES (1, 1, 1000, 2.0), (1, 2, 1800, 3.0), (1, 3, 1100, 2.2), (1, 4, 2000, 3.2),
               (2, 1, 1500, 2.1), (2, 2, 1900, 4.0), (2, 3, 1600, 2.3), (2, 4, 2100, 4.4))
       AS v (suite, n, tps, p99)
 WHERE r.id = (SELECT array_agg(q.id ORDER BY q.id) FROM bench.runs q
                WHERE q.suite_id = CASE v.suite WHEN 1 THEN :s1 ELSE :s2 END)[v.n];
SELECT metric, clients, a_value, b_value, round(ratio::numeric, 4) AS ratio,
       round(noise_pct::numeric, 2) AS noise_pct, verdict
  FROM bench.compare(:s1, :s2) WHERE metric IN ('tps', 'latency_p99_ms');
-- the medians are those of bench.suite_summary
SELECT m.clients, split_part(c.a_value, ' ', 1)::float8 = m.tps_median AS median,
       c.a_value = format('%s [%s, %s]', round(m.tps_median::numeric, 1), round(m.tps_min::numeric, 1),
                           round(m.tps_max::numeric, 1)) AS range
  FROM bench.compare(:s1, :s2) c JOIN bench.suite_summary m ON m.suite_id = :s1 AND m.clients = c.clients
 WHERE c.metric = 'tps' ORDER BY m.clients;

-- parameters of suites: their own (client counts, repeats, runs done) and
-- those of their runs; runs of one suite that disagree show as mixed.  A
-- client count of one suite only has no verdict.
UPDATE bench.suites SET clients = '{1,2,4}', runs_planned = 6 WHERE id = :s2;
UPDATE bench.runs SET settings = settings || '{"synchronous_commit": "off"}'
 WHERE id = (SELECT min(id) FROM bench.runs WHERE suite_id = :s2);
SELECT section, metric, clients, a_value, b_value, verdict
  FROM bench.compare(:s1, :s2) WHERE section = 'parameter' OR (metric = 'tps');
-- a run of a suite that failed does not count: 1 run against 2, the
-- range of the one run is its value (improvement: 1500 is outside [1000, 1100])
UPDATE bench.runs SET status = 'failed'
 WHERE id = (SELECT max(id) FROM bench.runs WHERE suite_id = :s2 AND clients = 1);
SELECT metric, clients, a_value, b_value, round(noise_pct::numeric, 2) AS noise_pct, verdict
  FROM bench.compare(:s1, :s2) WHERE metric = 'tps' AND clients = 1;
SELECT metric, a_value, b_value, verdict
  FROM bench.compare(:s1, :s2) WHERE metric = 'runs_done';

--
-- Bad input
--
SELECT * FROM pg_temp.error_of('SELECT * FROM bench.compare(NULL, 1)');
SELECT * FROM pg_temp.error_of(format('SELECT * FROM bench.compare(%s, NULL)', :r1));
SELECT * FROM pg_temp.error_of(format('SELECT * FROM bench.compare(%s, %s, NULL)', :r1, :r2));
SELECT * FROM pg_temp.error_of(format('SELECT * FROM bench.compare(%s, %s, 0)', :r1, :r2));
SELECT * FROM pg_temp.error_of(format('SELECT * FROM bench.compare(%s, %s, 1)', :r1, :r2));
SELECT * FROM pg_temp.error_of(format('SELECT * FROM bench.compare(%s, %s, -0.05)', :r1, :r2));
SELECT * FROM pg_temp.error_of(format('SELECT * FROM bench.compare(%s, %s, ''NaN'')', :r1, :r2));
SELECT * FROM pg_temp.error_of('SELECT * FROM bench.compare(987654321, 1)');
SELECT * FROM pg_temp.error_of(format('SELECT * FROM bench.compare(%s, 987654321)', :r1));
SELECT * FROM pg_temp.error_of(format('SELECT * FROM bench.compare(%s, %s)', :r1, :r1), jsonb_build_object('r1', :r1));
SELECT * FROM pg_temp.error_of(format('SELECT * FROM bench.compare(%s, %s)', :s1, :s1), jsonb_build_object('s1', :s1));
SELECT * FROM pg_temp.error_of(format('SELECT * FROM bench.compare(%s, %s)', :r1, :s1), jsonb_build_object('r1', :r1, 's1', :s1));
SELECT * FROM pg_temp.error_of(format('SELECT * FROM bench.compare(%s, %s)', :s1, :r1), jsonb_build_object('r1', :r1, 's1', :s1));

-- a run still running cannot be compared; once canceled it can, and says so
SELECT bench.start('tpcb', clients => 1, duration => '1 min', progress => '0') AS r4 \gset
SELECT * FROM pg_temp.error_of(format('SELECT * FROM bench.compare(%s, %s)', :r1, :r4), jsonb_build_object('r1', :r1, 'r4', :r4));
SELECT bench.cancel(:r4);
SELECT section, metric, a_value, b_value, verdict
  FROM bench.compare(:r1, :r4) WHERE section = 'parameter';

-- everyone may compare the runs it may see: not those of other roles,
-- unless it is a member of pgbenchkit_admin
CREATE ROLE bench_comparer;
SET ROLE bench_comparer;
\set VERBOSITY sqlstate
SELECT count(*) > 0 AS compared FROM bench.compare(:r1, :r2);
\set VERBOSITY default
RESET ROLE;
GRANT pgbenchkit_admin TO bench_comparer;
SET ROLE bench_comparer;
SELECT count(*) > 0 AS compared FROM bench.compare(:r1, :r2);
RESET ROLE;
DROP ROLE bench_comparer;
