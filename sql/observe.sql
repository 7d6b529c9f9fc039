--
-- What the server did during a run: prewarm, samples, sizes, settings,
-- and bench.report
--
SET search_path = runs, public;
CREATE EXTENSION pg_stat_statements;
SET client_min_messages = warning;
SELECT pg_stat_statements_reset() IS NOT NULL AS reset;
RESET client_min_messages;

-- bench.prewarm alone: every table and index of the dataset, whole
SELECT relation, kind,
       blocks = pg_relation_size(relation::regclass) / current_setting('block_size')::int AS all_blocks,
       seconds >= 0 AS timed
  FROM bench.prewarm('tpcb') ORDER BY kind DESC, relation;

-- a tpcb run of 2 clients x 150 transactions; the test reads pg_stat_wal
-- around it itself
SELECT wal_bytes AS wal_before FROM pg_stat_wal \gset
SELECT count(*) AS history_before FROM runs.pgbench_history \gset
SELECT id AS run1, status, transactions
  FROM bench.run('tpcb', clients => 2, transactions => 150, progress => '0') \gset
SELECT :'status' AS status, :transactions AS transactions;
SELECT pg_stat_force_next_flush() IS NULL AS flushed \gset
SELECT wal_bytes AS wal_after FROM pg_stat_wal \gset

-- samples: one before, one after, numbered from 0
SELECT count(*) FILTER (WHERE phase = 'before') AS before, count(*) FILTER (WHERE phase = 'after') AS after,
       min(sample_no) = 0 AND max(sample_no) = count(*) - 1 AS numbered,
       bool_and(data ? 'wal' AND data ? 'bgwriter' AND data ? 'database' AND data ? 'tables'
                AND data ? 'indexes' AND data ? 'statements' AND data ? 'cpu') AS sources,
       bool_and((data ? 'checkpointer') = (current_setting('server_version_num')::int >= 170000)) AS checkpointer_17,
       bool_and((data ? 'io') = (current_setting('server_version_num')::int >= 160000)) AS io_16
  FROM bench.samples WHERE run_id = :run1;

-- the run's WAL is the delta of pg_stat_wal between its samples: all but
-- what the test's own reads and the run's bookkeeping add around it
SELECT c.transactions AS all_transactions,
       c.wal_bytes > 0 AND c.wal_bytes <= :wal_after - :wal_before AS within_test_delta,
       (:wal_after - :wal_before) - c.wal_bytes < 524288 AS bookkeeping_small,
       c.wal_bytes_per_tx BETWEEN 100 AND 20000 AS plausible_per_tx,
       round(c.wal_bytes / c.transactions, 1) = c.wal_bytes_per_tx AS per_tx,
       abs(c.wal_generated_bytes - c.wal_bytes) < 0.1 * c.wal_bytes AS lsn_agrees,
       c.xact_commit >= c.transactions AS commits,
       c.blks_hit_per_tx > 5 AS hits, c.cache_hit_ratio > 0.9 AS cached,
       c.server_cpu_ms_per_tx > 0 AND c.server_cpu_ms_per_tx < 100 AS cpu_per_tx,
       c.host_cpu_busy_s > 0 AND c.host_cpu_busy_s <= c.host_cpu_total_s AS host_cpu,
       (c.io_reads IS NOT NULL) = (current_setting('server_version_num')::int >= 160000) AS io_16,
       c.buffers_backend IS NOT NULL AS backend_writes_known
  FROM bench.run_counters c WHERE c.run_id = :run1;

-- a run during which no CPU was idle: the host's busy time grew exactly as
-- much as its total, and so it shows (the samples of run 1 borrowed, then
-- put back)
CREATE TEMP TABLE saved_cpu AS
SELECT run_id, sample_no, data->'cpu' AS cpu FROM bench.samples WHERE run_id = :run1;
UPDATE bench.samples
   SET data = jsonb_set(data, '{cpu}', data->'cpu' ||
              CASE phase WHEN 'before' THEN '{"host_busy_s": 9077.01, "host_total_s": 24512.27}'::jsonb
                         ELSE '{"host_busy_s": 9077.09, "host_total_s": 24512.35}'::jsonb END)
 WHERE run_id = :run1 AND phase IN ('before', 'after');
SELECT host_cpu_busy_s, host_cpu_total_s, host_cpu_busy_s <= host_cpu_total_s AS busy_within_total
  FROM bench.run_counters WHERE run_id = :run1;
UPDATE bench.samples s SET data = jsonb_set(s.data, '{cpu}', v.cpu)
  FROM saved_cpu v WHERE v.run_id = s.run_id AND v.sample_no = s.sample_no;

-- pg_stat_statements: each of the script's statements ran once per transaction
SELECT regexp_replace(query, '\s+', ' ', 'g') AS query, calls, calls = :transactions AS once_per_tx,
       mean_exec_ms > 0 AS timed, run_role
  FROM bench.run_statements
 WHERE run_id = :run1 AND query ~ 'pgbench_' ORDER BY query;

-- prewarm rows of the run, and sizes before and after: the history grew by
-- one row per transaction, the accounts table by nothing it could not hold
SELECT relation, kind, blocks > 0 OR relation = 'runs.pgbench_history' AS loaded
  FROM bench.prewarms WHERE run_id = :run1 ORDER BY kind DESC, relation;
SELECT b.relation, b.kind, a.total_bytes >= b.total_bytes AS not_smaller,
       a.total_bytes = pg_total_relation_size(a.relid) AS after_is_now,
       b.main_bytes + coalesce(b.toast_bytes, 0) + coalesce(b.indexes_bytes, 0) <= b.total_bytes AS parts
  FROM bench.relation_sizes b JOIN bench.relation_sizes a USING (run_id, relid)
 WHERE run_id = :run1 AND b.phase = 'before' AND a.phase = 'after' ORDER BY b.kind DESC, b.relation;
SELECT (SELECT count(*) FROM runs.pgbench_history) - :history_before AS history_rows_added,
       a.main_bytes >= b.main_bytes AS history_kept
  FROM bench.relation_sizes b JOIN bench.relation_sizes a USING (run_id, relid)
 WHERE run_id = :run1 AND b.phase = 'before' AND a.phase = 'after' AND b.relation = 'runs.pgbench_history';

-- where the time goes: the clients time each statement's phases.  With
-- 'prepared' (run 1) a statement is parsed and rewritten once, before the
-- run, and its plan cached; the phases never add up to more than the
-- command's latency; and the execution includes what pg_stat_statements
-- counts of the same executions (it leaves ExecutorStart out)
SELECT left(c.command, 20) AS command, c.parse_ms = 0 AS no_parse, c.rewrite_ms = 0 AS no_rewrite,
       c.plan_ms >= 0 AS plan, c.execute_ms > 0 AS executed,
       c.parse_ms + c.rewrite_ms + c.plan_ms + c.execute_ms <= c.latency_avg_ms AS within_latency,
       c.execute_ms >= 0.8 * s.mean_exec_ms AND c.execute_ms <= 10 * s.mean_exec_ms + 0.05 AS like_pgss
  FROM bench.command_latencies c
  LEFT JOIN bench.run_statements s ON s.run_id = c.run_id AND left(s.query, 20) = left(c.command, 20)
 WHERE c.run_id = :run1 AND c.command !~ '^\\' ORDER BY c.command_no;
-- with 'simple' every execution parses, rewrites and plans; with
-- pgbenchkit.time_phases off nothing is timed
SELECT id AS run_simple FROM bench.run('tpcb', transactions => 50, protocol => 'simple', progress => '0') \gset
SET pgbenchkit.time_phases = off;
SELECT id AS run_untimed FROM bench.run('tpcb', transactions => 50, progress => '0') \gset
RESET pgbenchkit.time_phases;
SELECT left(command, 20) AS command, parse_ms > 0 AS parsed, rewrite_ms >= 0 AS rewritten, plan_ms > 0 AS planned,
       execute_ms > 0 AS executed, parse_ms + rewrite_ms + plan_ms + execute_ms <= latency_avg_ms AS within_latency
  FROM bench.command_latencies WHERE run_id = :run_simple AND command ~ '^(UPDATE|SELECT|INSERT)' ORDER BY command_no;
SELECT count(*) AS commands, count(parse_ms) + count(rewrite_ms) + count(plan_ms) + count(execute_ms) AS timed
  FROM bench.command_latencies WHERE run_id = :run_untimed;
SELECT line FROM regexp_split_to_table(bench.report(:run_simple), E'\n') AS line
 WHERE line ~ '^where the time goes|^ +parse +rewrite';

-- settings and host facts
SELECT settings->>'shared_buffers' = current_setting('shared_buffers') AS shared_buffers,
       settings->>'wal_level' = current_setting('wal_level') AS wal_level,
       settings->>'data_checksums' = current_setting('data_checksums') AS checksums,
       settings->>'max_worker_processes' = current_setting('max_worker_processes') AS non_default,
       settings ? 'server_version' AS version,
       NOT settings ?| ARRAY['unix_socket_directories', 'data_directory', 'config_file'] AS no_superuser_only,
       (host->>'cpus')::int > 0 AS cpus, (host->>'memory_bytes')::bigint > 0 AS memory,
       (host->>'data_directory_fs_free_bytes')::bigint <= (host->>'data_directory_fs_bytes')::bigint AS disk,
       unavailable = '{}' AS all_sources, prewarm, sample_interval
  FROM bench.runs WHERE id = :run1;

-- bench.report begins with pgbench's own lines
SELECT line FROM regexp_split_to_table(bench.report(:run1), E'\n') WITH ORDINALITY AS l (line, n)
 WHERE n <= 9 ORDER BY n;
SELECT bench.report(:run1) ~ ('number of transactions actually processed: ' || :transactions * 2) AS no_such_count,
       bench.report(:run1) ~ ('tps = ' || to_char(tps, 'FM999999990.000000') || ' \(without initial connection time\)') AS tps_line,
       bench.report(:run1) ~ ('latency average = ' || to_char(latency_avg_ms, 'FM999999990.000') || ' ms') AS latency_line,
       bench.report(:run1) ~ E'\n  WAL: ' AS wal_line,
       bench.report(:run1) ~ E'\n  checkpoints during the run: 0 timed, 0 requested' AS no_checkpoint,
       bench.report(:run1) ~ E'\n    300 calls, [0-9.]+ ms total, [0-9.]+ ms mean: UPDATE pgbench_accounts' AS statements,
       bench.report(:run1) !~ 'not available' AS all_available
  FROM bench.runs WHERE id = :run1;
SELECT j->'pgbench'->>'transactions' = r.transactions::text AS transactions,
       (j->'pgbench'->>'tps')::numeric = round(r.tps::numeric, 6) AS tps,
       (j->'server'->'wal'->>'bytes')::numeric = c.wal_bytes AS wal,
       (j->'server'->'checkpoints'->>'requested')::bigint = c.checkpoints_requested AS checkpoints,
       jsonb_array_length(j->'server'->'sizes') AS sizes,
       jsonb_array_length(j->'server'->'prewarm') AS prewarmed
  FROM bench.runs r, bench.run_counters c, bench.report_json(r.id) j
 WHERE r.id = :run1 AND c.run_id = r.id;

-- a checkpoint during a run is counted in it, and in one of its intervals
SELECT bench.start('tpcb', clients => 2, duration => '3 s', sample_interval => '250 ms', prewarm => false) AS run2 \gset
SELECT pg_sleep(0.5);
CHECKPOINT;
SET client_min_messages = warning;
SELECT status FROM bench.wait(:run2);
RESET client_min_messages;
SELECT c.checkpoints_requested >= 1 AS counted,
       (SELECT sum(i.checkpoints_requested) FROM bench.interval_counters i WHERE i.run_id = :run2) = c.checkpoints_requested AS in_intervals,
       (SELECT count(*) FROM bench.samples s WHERE s.run_id = :run2 AND s.phase = 'during') BETWEEN 6 AND 13 AS sampled,
       (SELECT sum(i.transactions) FROM bench.interval_counters i WHERE i.run_id = :run2) = c.transactions AS intervals_add_up,
       (SELECT count(*) FROM bench.prewarms p WHERE p.run_id = :run2) AS prewarmed
  FROM bench.run_counters c WHERE c.run_id = :run2;
SELECT bench.report(:run2) ~ E'\n  checkpoints during the run: [0-9]+ timed, [1-9][0-9]* requested' AS reported,
       bench.report(:run2) ~ E'\n  prewarm: off \\(cold cache\\)' AS cold;

-- sample_interval => 0: samples before and after only
SELECT id AS run3 FROM bench.run('select-only', transactions => 20, sample_interval => '0', progress => '0') \gset
SELECT array_agg(phase ORDER BY sample_no) AS phases FROM bench.samples WHERE run_id = :run3;

-- without pg_stat_statements in the database: the run works, the report says so
DROP EXTENSION pg_stat_statements;
SELECT id AS run4, status FROM bench.run('select-only', transactions => 20, progress => '0') \gset
SELECT :'status' AS status, unavailable->>'statements' AS statements
  FROM bench.runs WHERE id = :run4;
SELECT count(*) AS statement_rows FROM bench.run_statements WHERE run_id = :run4;
SELECT line FROM regexp_split_to_table(bench.report(:run4), E'\n') AS line WHERE line ~ 'not available';

-- as a role without pg_read_all_stats: no CPU, no host facts, others'
-- statements hidden; the rest is there
CREATE EXTENSION pg_stat_statements;
CREATE ROLE bench_observer LOGIN;
GRANT USAGE ON SCHEMA runs TO bench_observer;
-- what tpcb needs, and no more: no SELECT on pgbench_history, so prewarm
-- skips it (and says so), and the run goes on
GRANT SELECT, UPDATE ON runs.pgbench_accounts, runs.pgbench_tellers, runs.pgbench_branches TO bench_observer;
GRANT INSERT ON runs.pgbench_history TO bench_observer;
GRANT EXECUTE ON FUNCTION bench.run(text, integer, interval, bigint, text, interval, interval, integer, text, boolean, interval, text, double precision, interval, bigint, jsonb, text, integer, text, text, jsonb, text, boolean, text, interval, interval, text, interval, timestamp with time zone, text) TO bench_observer;
SET ROLE bench_observer;
SELECT id AS run5, status FROM bench.run('tpcb', transactions => 30, progress => '0') \gset
RESET ROLE;
SELECT :'status' AS status, host IS NULL AS no_host, settings ? 'shared_buffers' AS settings,
       (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(unavailable) k) AS unavailable,
       unavailable->>'prewarm' AS prewarm
  FROM bench.runs WHERE id = :run5;
SELECT relation FROM bench.prewarms WHERE run_id = :run5 ORDER BY relation;
SELECT wal_bytes > 0 AS wal, server_cpu_s IS NULL AS no_cpu, blks_hit > 0 AS blocks
  FROM bench.run_counters WHERE run_id = :run5;
SELECT count(*) AS own_statements FROM bench.run_statements
 WHERE run_id = :run5 AND query ~ 'pgbench_accounts' AND calls = 30;
SELECT line FROM regexp_split_to_table(bench.report(:run5), E'\n') AS line
 WHERE line ~ '^  (CPU|not available)' ORDER BY line;
REVOKE ALL ON ALL TABLES IN SCHEMA runs FROM bench_observer;
REVOKE ALL ON SCHEMA runs FROM bench_observer;
REVOKE ALL ON FUNCTION bench.run(text, integer, interval, bigint, text, interval, interval, integer, text, boolean, interval, text, double precision, interval, bigint, jsonb, text, integer, text, text, jsonb, text, boolean, text, interval, interval, text, interval, timestamp with time zone, text) FROM bench_observer;
DROP ROLE bench_observer;

-- a statement is counted over the run from its count before it, even when
-- it was not among the role's busiest then: the sample before keeps every
-- statement.  A statement of this test alone, called 5 times before, is
-- lighter than fifty-five of the role's history (one a table, 10 ms each)
-- until the run calls it 10000 times
SELECT status FROM bench.run(script => $s$\set aid random(1, 100000)
SELECT abalance, 'lookup' AS lookup FROM pgbench_accounts WHERE aid = :aid;
$s$, transactions => 5, progress => '0');
DO $$BEGIN
  FOR i IN 1..55 LOOP
    EXECUTE format('CREATE TABLE runs.heavy%s AS SELECT 1 AS x', i);
  END LOOP;
END$$;
\set ECHO none
\o /dev/null
SELECT format('SELECT pg_sleep(0.01), count(*) FROM runs.heavy%s', i)
  FROM generate_series(1, 55) i \gexec
\o
\set ECHO all
SELECT id AS run6, status FROM bench.run(script => $s$\set aid random(1, 100000)
SELECT abalance, 'lookup' AS lookup FROM pgbench_accounts WHERE aid = :aid;
$s$, transactions => 10000, progress => '0') \gset
SELECT :'status' AS status, calls FROM bench.run_statements
 WHERE run_id = :run6 AND query ~ '^SELECT abalance, ';
SELECT (SELECT jsonb_array_length(data->'statements') FROM bench.samples WHERE run_id = :run6 AND phase = 'before')
     > (SELECT jsonb_array_length(data->'statements') FROM bench.samples WHERE run_id = :run6 AND phase = 'after')
       AS before_keeps_more,
       NOT EXISTS (SELECT 1 FROM bench.samples s, jsonb_array_elements(s.data->'statements') e
                    WHERE s.run_id = :run6 AND s.phase = 'before' AND e ? 'query') AS before_without_texts;
DO $$BEGIN
  FOR i IN 1..55 LOOP
    EXECUTE format('DROP TABLE runs.heavy%s', i);
  END LOOP;
END$$;
