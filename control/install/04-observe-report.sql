--
-- Observability: what the server did during every run.
--

--
-- bench.prewarms: the relations a run loaded into shared buffers with
-- pg_prewarm before its clients started.
--
CREATE TABLE bench.prewarms (
    run_id          bigint      NOT NULL REFERENCES bench._runs (id) ON DELETE CASCADE,
    relid           oid         NOT NULL,
    relation        text        NOT NULL,
    kind            text        NOT NULL CHECK (kind IN ('table', 'index', 'toast table', 'toast index')),
    blocks          bigint      NOT NULL,
    seconds         double precision NOT NULL,
    PRIMARY KEY (run_id, relid)
);

COMMENT ON TABLE bench.prewarms IS
    'Relations each run prewarmed with pg_prewarm before its clients started: blocks loaded and seconds taken';

--
-- bench.samples: the server's counters, read by the coordinator before
-- the clients start, every sample_interval while they run, and after they
-- stopped.  data holds one key per source, each as the server's own view
-- returns it (to_jsonb of its rows), so that one table serves every
-- server version; bench.sample_counters names the columns.
--
CREATE TABLE bench.samples (
    run_id          bigint      NOT NULL REFERENCES bench._runs (id) ON DELETE CASCADE,
    sample_no       integer     NOT NULL,
    phase           text        NOT NULL CHECK (phase IN ('before', 'during', 'after')),
    taken_at        timestamptz NOT NULL,
    elapsed_s       double precision NOT NULL,
    data            jsonb       NOT NULL,
    PRIMARY KEY (run_id, sample_no)
);

COMMENT ON TABLE bench.samples IS
    'Server counters of every run (pg_stat_wal, pg_stat_bgwriter, pg_stat_checkpointer, pg_stat_io, pg_stat_database, table and index statistics, pg_stat_statements, CPU), one jsonb key per source';

--
-- bench.relation_sizes: the workload's tables and indexes before and after
-- every run.
--
CREATE TABLE bench.relation_sizes (
    run_id          bigint      NOT NULL REFERENCES bench._runs (id) ON DELETE CASCADE,
    phase           text        NOT NULL CHECK (phase IN ('before', 'after')),
    relid           oid         NOT NULL,
    relation        text        NOT NULL,
    kind            text        NOT NULL CHECK (kind IN ('table', 'index')),
    table_name      text        NOT NULL,
    main_bytes      bigint      NOT NULL,
    toast_bytes     bigint,
    indexes_bytes   bigint,
    total_bytes     bigint      NOT NULL,
    PRIMARY KEY (run_id, phase, relid)
);

COMMENT ON TABLE bench.relation_sizes IS
    'Sizes of the workload''s tables (heap, toast, indexes, total) and indexes, before and after every run';

SELECT pg_catalog.pg_extension_config_dump('bench.prewarms', '');
SELECT pg_catalog.pg_extension_config_dump('bench.samples', '');
SELECT pg_catalog.pg_extension_config_dump('bench.relation_sizes', '');
GRANT SELECT ON bench.prewarms, bench.samples, bench.relation_sizes TO PUBLIC;

--
-- bench._redact_statement: the text of a statement as samples keep it,
-- with what could be a secret redacted (src/observe/redact.c).  Every role may read
-- bench.samples, and pg_stat_statements keeps the text of CREATE USER
-- MAPPING ... OPTIONS (password '...') and the like as it was written.
--
CREATE FUNCTION bench._redact_statement(query text)
RETURNS text
LANGUAGE c STRICT IMMUTABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'bench_redact_statement';

COMMENT ON FUNCTION bench._redact_statement(text) IS
    'Internal: a statement''s text with its string constants and comments redacted when it may hold a password or another secret, as samples keep it';

--
-- bench._host_cpu_sample: the host CPU figures a sample keeps, from the text
-- of /proc/stat and the sample before (src/observe/cpu.c): each counter held at
-- the highest value the run's samples showed, so that busy time never grows
-- by more than total time between two samples of a run.
--
CREATE FUNCTION bench._host_cpu_sample(stat text, previous jsonb DEFAULT NULL)
RETURNS jsonb
LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'bench_host_cpu_sample';

COMMENT ON FUNCTION bench._host_cpu_sample(text, jsonb) IS
    'Internal: the host CPU figures of a sample (host_busy_s, host_total_s) from the first line of /proc/stat, each counter held at the sample before';

--
-- bench.sample_counters: every sample's cumulative counters under names
-- that do not change with the server version (pg_stat_checkpointer's
-- num_timed is checkpoints_timed here, as pg_stat_bgwriter called it up to
-- 16; buffers written by backends come from pg_stat_io from 17 on).
-- NULL: the source was not available.
--
CREATE VIEW bench.sample_counters AS
SELECT s.run_id, s.sample_no, s.phase, s.taken_at, s.elapsed_s,
       (s.data->>'transactions')::bigint AS transactions,
       (s.data->>'wal_insert_lsn')::numeric AS wal_insert_lsn,
       (s.data->'wal'->>'wal_records')::bigint AS wal_records,
       (s.data->'wal'->>'wal_fpi')::bigint AS wal_fpi,
       (s.data->'wal'->>'wal_bytes')::numeric AS wal_bytes,
       (s.data->'wal'->>'wal_buffers_full')::bigint AS wal_buffers_full,
       COALESCE(s.data->'checkpointer'->>'num_timed',
                s.data->'bgwriter'->>'checkpoints_timed')::bigint AS checkpoints_timed,
       COALESCE(s.data->'checkpointer'->>'num_requested',
                s.data->'bgwriter'->>'checkpoints_req')::bigint AS checkpoints_requested,
       COALESCE(s.data->'checkpointer'->>'buffers_written',
                s.data->'bgwriter'->>'buffers_checkpoint')::bigint AS buffers_checkpoint,
       (s.data->'bgwriter'->>'buffers_clean')::bigint AS buffers_clean,
       (s.data->'bgwriter'->>'maxwritten_clean')::bigint AS maxwritten_clean,
       COALESCE((s.data->'bgwriter'->>'buffers_backend')::bigint, io.backend_writes) AS buffers_backend,
       (s.data->'bgwriter'->>'buffers_alloc')::bigint AS buffers_alloc,
       io.reads AS io_reads,
       io.writes AS io_writes,
       io.extends AS io_extends,
       io.fsyncs AS io_fsyncs,
       (s.data->'database'->>'xact_commit')::bigint AS xact_commit,
       (s.data->'database'->>'xact_rollback')::bigint AS xact_rollback,
       (s.data->'database'->>'blks_read')::bigint AS blks_read,
       (s.data->'database'->>'blks_hit')::bigint AS blks_hit,
       (s.data->'database'->>'tup_returned')::bigint AS tup_returned,
       (s.data->'database'->>'tup_fetched')::bigint AS tup_fetched,
       (s.data->'database'->>'tup_inserted')::bigint AS tup_inserted,
       (s.data->'database'->>'tup_updated')::bigint AS tup_updated,
       (s.data->'database'->>'tup_deleted')::bigint AS tup_deleted,
       (s.data->'database'->>'temp_files')::bigint AS temp_files,
       (s.data->'database'->>'temp_bytes')::bigint AS temp_bytes,
       (s.data->'database'->>'deadlocks')::bigint AS deadlocks,
       (s.data->'database'->>'blk_read_time')::double precision AS blk_read_time_ms,
       (s.data->'database'->>'blk_write_time')::double precision AS blk_write_time_ms,
       (s.data->'cpu'->>'server_s')::double precision AS server_cpu_s,
       (s.data->'cpu'->>'host_busy_s')::double precision AS host_cpu_busy_s,
       (s.data->'cpu'->>'host_total_s')::double precision AS host_cpu_total_s
  FROM bench.samples s
  LEFT JOIN LATERAL (
       SELECT sum((e->>'reads')::bigint) AS reads,
              sum((e->>'writes')::bigint) AS writes,
              sum((e->>'extends')::bigint) AS extends,
              sum((e->>'fsyncs')::bigint) AS fsyncs,
              sum((e->>'writes')::bigint)
                  FILTER (WHERE e->>'object' = 'relation'
                          AND e->>'backend_type' NOT IN ('checkpointer', 'background writer'))
                  AS backend_writes
         FROM pg_catalog.jsonb_array_elements(s.data->'io') e
        WHERE s.data ? 'io') io ON true;

COMMENT ON VIEW bench.sample_counters IS
    'Every sample''s cumulative server counters under version-independent column names';

--
-- bench.interval_counters: what happened between one sample and the next.
--
CREATE VIEW bench.interval_counters AS
SELECT c.run_id, c.sample_no, c.phase,
       p.taken_at AS interval_start, c.taken_at AS interval_end,
       c.elapsed_s,
       c.elapsed_s - p.elapsed_s AS seconds,
       c.transactions - p.transactions AS transactions,
       c.wal_insert_lsn - p.wal_insert_lsn AS wal_generated_bytes,
       c.wal_bytes - p.wal_bytes AS wal_bytes,
       c.wal_records - p.wal_records AS wal_records,
       c.wal_fpi - p.wal_fpi AS wal_fpi,
       round((c.wal_insert_lsn - p.wal_insert_lsn) / 1e6
             / NULLIF(c.elapsed_s - p.elapsed_s, 0)::numeric, 3) AS wal_mb_per_s,
       c.checkpoints_timed - p.checkpoints_timed AS checkpoints_timed,
       c.checkpoints_requested - p.checkpoints_requested AS checkpoints_requested,
       c.buffers_checkpoint - p.buffers_checkpoint AS buffers_checkpoint,
       c.buffers_clean - p.buffers_clean AS buffers_clean,
       c.buffers_backend - p.buffers_backend AS buffers_backend,
       c.blks_read - p.blks_read AS blks_read,
       c.blks_hit - p.blks_hit AS blks_hit,
       c.temp_bytes - p.temp_bytes AS temp_bytes,
       c.server_cpu_s - p.server_cpu_s AS server_cpu_s,
       -- the CPU seconds are decimal counts of clock ticks: subtracted in
       -- numeric, so that an interval in which no CPU was idle has busy equal
       -- to total (as doubles, one could come out a rounding above the other)
       (c.host_cpu_busy_s::numeric - p.host_cpu_busy_s::numeric)::double precision AS host_cpu_busy_s,
       (c.host_cpu_total_s::numeric - p.host_cpu_total_s::numeric)::double precision AS host_cpu_total_s
  FROM bench.sample_counters c
  JOIN bench.sample_counters p ON p.run_id = c.run_id AND p.sample_no = c.sample_no - 1;

COMMENT ON VIEW bench.interval_counters IS
    'Server counters between consecutive samples of a run: WAL, checkpoints, buffers, blocks, CPU';

--
-- bench.run_counters: what the server did from the sample before a run's
-- clients started to the sample after they stopped, and per transaction.
-- Transactions here are every transaction the clients ended in that time:
-- measured, warm-up and failed.
--
CREATE VIEW bench.run_counters AS
SELECT r.id AS run_id,
       a.elapsed_s - b.elapsed_s AS seconds,
       a.transactions - b.transactions AS transactions,
       a.wal_insert_lsn - b.wal_insert_lsn AS wal_generated_bytes,
       a.wal_bytes - b.wal_bytes AS wal_bytes,
       a.wal_records - b.wal_records AS wal_records,
       a.wal_fpi - b.wal_fpi AS wal_fpi,
       a.wal_buffers_full - b.wal_buffers_full AS wal_buffers_full,
       round((a.wal_bytes - b.wal_bytes) / NULLIF(a.transactions - b.transactions, 0), 1) AS wal_bytes_per_tx,
       round((a.wal_fpi - b.wal_fpi)::numeric / NULLIF(a.transactions - b.transactions, 0), 4) AS wal_fpi_per_tx,
       round((a.wal_insert_lsn - b.wal_insert_lsn) / 1e6
             / NULLIF(a.elapsed_s - b.elapsed_s, 0)::numeric, 3) AS wal_mb_per_s,
       a.checkpoints_timed - b.checkpoints_timed AS checkpoints_timed,
       a.checkpoints_requested - b.checkpoints_requested AS checkpoints_requested,
       a.buffers_checkpoint - b.buffers_checkpoint AS buffers_checkpoint,
       a.buffers_clean - b.buffers_clean AS buffers_clean,
       a.maxwritten_clean - b.maxwritten_clean AS maxwritten_clean,
       a.buffers_backend - b.buffers_backend AS buffers_backend,
       a.buffers_alloc - b.buffers_alloc AS buffers_alloc,
       a.io_reads - b.io_reads AS io_reads,
       a.io_writes - b.io_writes AS io_writes,
       a.io_extends - b.io_extends AS io_extends,
       a.io_fsyncs - b.io_fsyncs AS io_fsyncs,
       a.xact_commit - b.xact_commit AS xact_commit,
       a.xact_rollback - b.xact_rollback AS xact_rollback,
       a.blks_read - b.blks_read AS blks_read,
       a.blks_hit - b.blks_hit AS blks_hit,
       round((a.blks_read - b.blks_read)::numeric / NULLIF(a.transactions - b.transactions, 0), 4) AS blks_read_per_tx,
       round((a.blks_hit - b.blks_hit)::numeric / NULLIF(a.transactions - b.transactions, 0), 4) AS blks_hit_per_tx,
       round((a.blks_hit - b.blks_hit)::numeric
             / NULLIF(a.blks_hit - b.blks_hit + a.blks_read - b.blks_read, 0), 6) AS cache_hit_ratio,
       a.temp_files - b.temp_files AS temp_files,
       a.temp_bytes - b.temp_bytes AS temp_bytes,
       a.deadlocks - b.deadlocks AS deadlocks,
       a.server_cpu_s - b.server_cpu_s AS server_cpu_s,
       round(((a.server_cpu_s - b.server_cpu_s) * 1000
              / NULLIF(a.transactions - b.transactions, 0))::numeric, 6) AS server_cpu_ms_per_tx,
       -- in numeric, as in bench.interval_counters
       (a.host_cpu_busy_s::numeric - b.host_cpu_busy_s::numeric)::double precision AS host_cpu_busy_s,
       (a.host_cpu_total_s::numeric - b.host_cpu_total_s::numeric)::double precision AS host_cpu_total_s
  FROM bench.runs r
  JOIN bench.sample_counters b ON b.run_id = r.id AND b.phase = 'before'
  JOIN bench.sample_counters a ON a.run_id = r.id AND a.phase = 'after';

COMMENT ON VIEW bench.run_counters IS
    'Server counters over each run (sample after minus sample before), with WAL, blocks and CPU per transaction';

--
-- bench.run_statements: pg_stat_statements over each run (after minus
-- before), the run's own statements and the busiest others.
--
CREATE VIEW bench.run_statements AS
SELECT a.run_id, a.queryid, a.userid, a.toplevel, a.query,
       a.calls - COALESCE(b.calls, 0) AS calls,
       round((a.total_exec_time - COALESCE(b.total_exec_time, 0))::numeric, 3) AS total_exec_ms,
       round(((a.total_exec_time - COALESCE(b.total_exec_time, 0))
              / NULLIF(a.calls - COALESCE(b.calls, 0), 0))::numeric, 4) AS mean_exec_ms,
       a.rows - COALESCE(b.rows, 0) AS rows,
       a.shared_blks_hit - COALESCE(b.shared_blks_hit, 0) AS shared_blks_hit,
       a.shared_blks_read - COALESCE(b.shared_blks_read, 0) AS shared_blks_read,
       a.shared_blks_dirtied - COALESCE(b.shared_blks_dirtied, 0) AS shared_blks_dirtied,
       a.shared_blks_written - COALESCE(b.shared_blks_written, 0) AS shared_blks_written,
       a.temp_blks_written - COALESCE(b.temp_blks_written, 0) AS temp_blks_written,
       a.wal_records - COALESCE(b.wal_records, 0) AS wal_records,
       a.wal_fpi - COALESCE(b.wal_fpi, 0) AS wal_fpi,
       a.wal_bytes - COALESCE(b.wal_bytes, 0) AS wal_bytes,
       a.own AS run_role,
       a.plans - COALESCE(b.plans, 0) AS plans,
       round((a.total_plan_time - COALESCE(b.total_plan_time, 0))::numeric, 3) AS total_plan_ms,
       round(((a.total_plan_time - COALESCE(b.total_plan_time, 0))
              / NULLIF(a.plans - COALESCE(b.plans, 0), 0))::numeric, 4) AS mean_plan_ms
  FROM (SELECT s.run_id, st.*
          FROM bench.samples s,
               pg_catalog.jsonb_to_recordset(s.data->'statements') AS st(
                   queryid bigint, userid oid, toplevel boolean, query text, own boolean,
                   calls bigint, total_exec_time double precision, plans bigint,
                   total_plan_time double precision, rows bigint,
                   shared_blks_hit bigint, shared_blks_read bigint, shared_blks_dirtied bigint,
                   shared_blks_written bigint, temp_blks_written bigint,
                   wal_records bigint, wal_fpi bigint, wal_bytes numeric)
         WHERE s.phase = 'after') a
  LEFT JOIN (SELECT s.run_id, st.*
               FROM bench.samples s,
                    pg_catalog.jsonb_to_recordset(s.data->'statements') AS st(
                        queryid bigint, userid oid, toplevel boolean,
                        calls bigint, total_exec_time double precision, plans bigint,
                        total_plan_time double precision, rows bigint,
                        shared_blks_hit bigint, shared_blks_read bigint, shared_blks_dirtied bigint,
                        shared_blks_written bigint, temp_blks_written bigint,
                        wal_records bigint, wal_fpi bigint, wal_bytes numeric)
              WHERE s.phase = 'before') b
    ON b.run_id = a.run_id AND b.queryid = a.queryid AND b.userid = a.userid
   AND b.toplevel IS NOT DISTINCT FROM a.toplevel
 WHERE a.calls - COALESCE(b.calls, 0) > 0;

COMMENT ON VIEW bench.run_statements IS
    'pg_stat_statements over each run: calls, execution and planning time, rows, blocks and WAL per statement';

GRANT SELECT ON bench.sample_counters, bench.interval_counters, bench.run_counters,
    bench.run_statements TO PUBLIC;

--
-- bench.prewarm: load a workload's relations into shared buffers.
--
CREATE FUNCTION bench.prewarm(workload text,
    OUT relation text, OUT kind text, OUT blocks bigint, OUT seconds double precision)
RETURNS SETOF record
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_prewarm';

COMMENT ON FUNCTION bench.prewarm(text) IS
    'Load the tables and indexes of a workload''s dataset into shared buffers with pg_prewarm; one row per relation';

--
-- bench.report_json: everything known about one run, as jsonb.
--
CREATE FUNCTION bench.report_json(run_id bigint)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    r       bench.runs;
    d       bench.datasets;
    script  text;
    c       bench.run_counters;
    failed  bigint;
    cpu     jsonb;
    sb      jsonb;
    result  jsonb;
BEGIN
    IF run_id IS NULL THEN
        RAISE EXCEPTION 'run_id must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the id of a run, as bench.runs lists them.';
    END IF;
    SELECT * INTO r FROM bench.runs WHERE id = run_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'run % does not exist', run_id
            USING ERRCODE = 'no_data_found',
                  HINT = 'bench.runs lists the runs there are.';
    END IF;
    -- aborted as soon as its coordinator is gone
    r := bench._run_state(r);
    SELECT * INTO d FROM bench.datasets WHERE id = r.dataset_id;
    SELECT CASE WHEN count(*) = 1 THEN min(rs.script) END INTO script
      FROM bench.run_scripts rs WHERE rs.run_id = r.id;
    SELECT * INTO c FROM bench.run_counters rc WHERE rc.run_id = r.id;
    failed := COALESCE(r.failures, 0);

    IF r.unavailable ? 'cpu' THEN
        cpu := jsonb_build_object('available', false, 'reason', r.unavailable->>'cpu');
    ELSE
        cpu := jsonb_build_object('available', c.server_cpu_s IS NOT NULL,
                                  'server_s', round(c.server_cpu_s::numeric, 3),
                                  'server_ms_per_tx', c.server_cpu_ms_per_tx,
                                  'host_busy_s', round(c.host_cpu_busy_s::numeric, 3),
                                  'host_total_s', round(c.host_cpu_total_s::numeric, 3),
                                  'host_ms_per_tx', round((c.host_cpu_busy_s * 1000
                                        / NULLIF(c.transactions, 0))::numeric, 6));
    END IF;

    -- sysbench's statistics, for a run on a sysbench dataset or of scripts
    -- that ignore errors as sysbench does: its queries by kind, from the
    -- statements' first words (BEGIN and COMMIT are "other")
    IF d.workload = 'sysbench' OR EXISTS (
           SELECT 1 FROM bench.run_scripts rs
            WHERE rs.run_id = r.id AND rs.script ~ '(^|\n)[ \t]*\\ignore_errors') THEN
        SELECT jsonb_build_object(
                   'read', COALESCE(sum(cl.executions) FILTER (WHERE k.kind = 'read'), 0),
                   'write', COALESCE(sum(cl.executions) FILTER (WHERE k.kind = 'write'), 0),
                   'other', COALESCE(sum(cl.executions) FILTER (WHERE k.kind = 'other'), 0),
                   'total', COALESCE(sum(cl.executions), 0))
          INTO sb
          FROM bench.command_latencies cl,
               LATERAL (SELECT CASE WHEN w IN ('select', 'values', 'table', 'show', 'fetch') THEN 'read'
                                    WHEN w IN ('insert', 'update', 'delete', 'merge', 'copy') THEN 'write'
                                    WHEN w = 'with' AND cl.command ~* '\m(insert|update|delete|merge)\M' THEN 'write'
                                    WHEN w = 'with' THEN 'read'
                                    ELSE 'other' END AS kind
                          FROM (SELECT lower(substring(cl.command FROM '^\s*([A-Za-z]+)')) AS w) f) k
         WHERE cl.run_id = r.id AND cl.command !~ '^\s*\\';
        sb := jsonb_build_object(
            'queries', sb,
            'transactions', r.transactions,
            'transactions_per_s', round((r.transactions / NULLIF(r.measured_s, 0))::numeric, 2),
            'queries_per_s', round(((sb->>'total')::bigint / NULLIF(r.measured_s, 0))::numeric, 2),
            'ignored_errors', COALESCE(r.ignored_errors, 0),
            'ignored_errors_per_s', round((COALESCE(r.ignored_errors, 0) / NULLIF(r.measured_s, 0))::numeric, 2),
            'reconnects', 0,
            'total_time_s', round(r.measured_s::numeric, 4),
            'events', r.transactions,
            'latency_ms', jsonb_build_object(
                'min', round(r.latency_min_ms::numeric, 2), 'avg', round(r.latency_avg_ms::numeric, 2),
                'max', round(r.latency_max_ms::numeric, 2), 'p95', round(r.latency_p95_ms::numeric, 2),
                'sum', round((r.latency_avg_ms * r.transactions)::numeric, 2)));
    END IF;

    result := jsonb_build_object(
        'run', jsonb_build_object(
            'id', r.id, 'workload', r.workload, 'status', r.status,
            'sqlstate', r.sqlstate, 'error', r.error, 'tag', r.tag,
            'created_by', r.created_by, 'server_version', r.server_version,
            'started_at', r.started_at, 'ended_at', r.ended_at,
            'dataset_id', r.dataset_id, 'prewarm', r.prewarm,
            'sample_interval_s', extract(epoch FROM r.sample_interval),
            'warmup_s', extract(epoch FROM r.warmup),
            'warmup_transactions', r.warmup_transactions,
            'driver', r.driver, 'target', r.target),
        'pgbench', jsonb_build_object(
            'transaction_type', CASE WHEN script IS NULL AND EXISTS (SELECT FROM bench.run_scripts rs WHERE rs.run_id = r.id)
                                     THEN 'multiple scripts'
                                     ELSE COALESCE(substring(script FROM '^-- (<builtin: [^>]*>)'), r.workload) END,
            'rate_tps', r.rate,
            'latency_limit_ms', extract(epoch FROM r.latency_limit) * 1000,
            'random_seed', r.random_seed,
            'variables', r.variables,
            'skipped_transactions', r.skipped,
            'skipped_pct', round(100.0 * r.skipped / NULLIF(COALESCE(r.transactions, 0) + r.skipped
                                   + (SELECT COALESCE(sum(rs.failures), 0) FROM bench.run_scripts rs WHERE rs.run_id = r.id), 0), 3),
            'late_transactions', r.late,
            'late_pct', round(100.0 * r.late / NULLIF(r.transactions, 0), 3),
            'schedule_lag_avg_ms', round(r.lag_avg_ms::numeric, 3),
            'schedule_lag_max_ms', round(r.lag_max_ms::numeric, 3),
            'scaling_factor', r.scale,
            'partition_method', CASE WHEN (d.options->>'partitions')::int > 0
                                     THEN d.options->>'partition_method' END,
            'partitions', CASE WHEN (d.options->>'partitions')::int > 0
                               THEN (d.options->>'partitions')::int END,
            'query_mode', r.protocol,
            'number_of_clients', r.clients,
            'number_of_threads', CASE WHEN r.driver = 'libpq' THEN r.jobs ELSE r.clients END,
            'maximum_number_of_tries', r.max_tries,
            'duration_s', extract(epoch FROM r.duration)::double precision,
            'transactions_per_client', r.transactions_per_client,
            'transactions', r.transactions,
            'failed_transactions', failed,
            'failed_pct', round(100.0 * failed / NULLIF(COALESCE(r.transactions, 0) + failed, 0), 3),
            'serialization_failures', r.serialization_failures,
            'deadlock_failures', r.deadlock_failures,
            'transactions_retried', r.retried,
            'total_retries', r.retries,
            'ignored_errors', r.ignored_errors,
            'latency_average_ms', round(r.latency_avg_ms::numeric, 3),
            'latency_stddev_ms', round(r.latency_stddev_ms::numeric, 3),
            'tps', round(r.tps::numeric, 6),
            'measured_s', round(r.measured_s::numeric, 3)),
        'scripts', COALESCE((
            SELECT jsonb_agg(jsonb_build_object(
                       'script_no', rs.script_no, 'weight', rs.weight,
                       'weight_pct', round(100.0 * rs.weight / NULLIF(rs.total_weight, 0), 1),
                       'name', COALESCE(substring(rs.script FROM '^-- (<builtin: [^>]*>)'),
                                        CASE WHEN rs.group_no IS NOT NULL THEN rs.group_workload
                                             WHEN rs.nscripts = 1 THEN r.workload
                                             ELSE format('%s script %s', r.workload, rs.script_no) END)
                               || COALESCE(format(' (group %s)', rs.group_name), ''),
                       'group_no', rs.group_no,
                       'transactions', rs.transactions,
                       'transactions_pct', round(100.0 * rs.transactions / NULLIF(r.transactions, 0), 1),
                       'tps', round((rs.transactions / NULLIF(r.measured_s, 0))::numeric, 6),
                       'failures', rs.failures, 'skipped', rs.skipped,
                       'latency_average_ms', round(rs.latency_avg_ms::numeric, 3),
                       'commands', COALESCE((
                           SELECT jsonb_agg(jsonb_build_object(
                                      'command_no', cl.command_no, 'line', cl.line,
                                      'command', cl.command, 'executions', cl.executions,
                                      'latency_ms', round(cl.latency_avg_ms::numeric, 3),
                                      'failures', cl.failures, 'retries', cl.retries,
                                      'parse_ms', round(cl.parse_ms::numeric, 4),
                                      'rewrite_ms', round(cl.rewrite_ms::numeric, 4),
                                      'plan_ms', round(cl.plan_ms::numeric, 4),
                                      'execute_ms', round(cl.execute_ms::numeric, 4)) ORDER BY cl.command_no)
                             FROM bench.command_latencies cl
                            WHERE cl.run_id = rs.run_id AND cl.script_no = rs.script_no), '[]'::jsonb))
                       ORDER BY rs.script_no)
              FROM (SELECT q.*, sum(q.weight) OVER (PARTITION BY q.group_no) AS total_weight,
                           count(*) OVER () AS nscripts, g.name AS group_name, g.workload AS group_workload
                      FROM bench.run_scripts q
                      LEFT JOIN bench.run_groups g ON g.run_id = q.run_id AND g.group_no = q.group_no
                     WHERE q.run_id = r.id) rs), '[]'::jsonb),
        'latency_ms', jsonb_build_object(
            'min', round(r.latency_min_ms::numeric, 3), 'p50', round(r.latency_p50_ms::numeric, 3),
            'p90', round(r.latency_p90_ms::numeric, 3), 'p95', round(r.latency_p95_ms::numeric, 3),
            'p99', round(r.latency_p99_ms::numeric, 3), 'p99_9', round(r.latency_p999_ms::numeric, 3),
            'max', round(r.latency_max_ms::numeric, 3)),
        'server', jsonb_build_object(
            'seconds', round(c.seconds::numeric, 3),
            'transactions', c.transactions,
            'wal', jsonb_build_object(
                'bytes', c.wal_bytes, 'generated_bytes', c.wal_generated_bytes,
                'records', c.wal_records, 'fpi', c.wal_fpi,
                'bytes_per_tx', c.wal_bytes_per_tx, 'fpi_per_tx', c.wal_fpi_per_tx,
                'mb_per_s', c.wal_mb_per_s, 'buffers_full', c.wal_buffers_full),
            'checkpoints', jsonb_build_object(
                'timed', c.checkpoints_timed, 'requested', c.checkpoints_requested,
                'buffers_written', c.buffers_checkpoint),
            'buffers', jsonb_build_object(
                'checkpointer', c.buffers_checkpoint, 'bgwriter', c.buffers_clean,
                'bgwriter_stopped_full', c.maxwritten_clean,
                'backends', c.buffers_backend, 'allocated', c.buffers_alloc),
            'io', CASE WHEN c.io_reads IS NOT NULL THEN jsonb_build_object(
                'reads', c.io_reads, 'writes', c.io_writes,
                'extends', c.io_extends, 'fsyncs', c.io_fsyncs) END,
            'cache', jsonb_build_object(
                'blks_read', c.blks_read, 'blks_hit', c.blks_hit,
                'blks_read_per_tx', c.blks_read_per_tx, 'blks_hit_per_tx', c.blks_hit_per_tx,
                'hit_ratio', c.cache_hit_ratio,
                'temp_files', c.temp_files, 'temp_bytes', c.temp_bytes),
            'database', jsonb_build_object(
                'xact_commit', c.xact_commit, 'xact_rollback', c.xact_rollback,
                'deadlocks', c.deadlocks),
            'cpu', cpu,
            'statements', (
                SELECT jsonb_agg(jsonb_build_object(
                           'query', s.query, 'calls', s.calls, 'total_ms', s.total_exec_ms,
                           'mean_ms', s.mean_exec_ms, 'plans', s.plans, 'mean_plan_ms', s.mean_plan_ms,
                           'total_plan_ms', s.total_plan_ms,
                           'rows', s.rows,
                           'wal_bytes', s.wal_bytes, 'run_role', s.run_role)
                           ORDER BY s.total_exec_ms DESC, s.queryid)
                  FROM (SELECT * FROM bench.run_statements rs WHERE rs.run_id = r.id
                         ORDER BY rs.total_exec_ms DESC, rs.queryid LIMIT 10) s),
            'sizes', (
                SELECT jsonb_agg(jsonb_build_object(
                           'relation', COALESCE(a.relation, b.relation),
                           'kind', COALESCE(a.kind, b.kind),
                           'before_bytes', b.total_bytes, 'after_bytes', a.total_bytes)
                           ORDER BY COALESCE(a.kind, b.kind) DESC, COALESCE(a.relation, b.relation))
                  FROM (SELECT * FROM bench.relation_sizes WHERE relation_sizes.run_id = r.id
                           AND phase = 'before') b
                  FULL JOIN (SELECT * FROM bench.relation_sizes WHERE relation_sizes.run_id = r.id
                                AND phase = 'after') a ON a.relid = b.relid),
            'prewarm', (
                SELECT jsonb_agg(jsonb_build_object(
                           'relation', p.relation, 'kind', p.kind,
                           'blocks', p.blocks, 'seconds', round(p.seconds::numeric, 6))
                           ORDER BY p.relation)
                  FROM bench.prewarms p WHERE p.run_id = r.id),
            'settings', r.settings,
            'host', r.host,
            'unavailable', COALESCE(r.unavailable, '{}')));
    IF sb IS NOT NULL THEN
        result := result || jsonb_build_object('sysbench', sb);
    END IF;
    -- a run with groups: what each group measured
    IF EXISTS (SELECT FROM bench.run_groups g WHERE g.run_id = r.id) THEN
        result := result || jsonb_build_object('groups', (
            SELECT jsonb_agg(jsonb_build_object(
                       'group_no', g.group_no, 'name', g.name, 'workload', g.workload,
                       'clients', g.clients, 'rate_tps', g.rate,
                       'scripts', (SELECT jsonb_agg(rs.script_no ORDER BY rs.script_no)
                                     FROM bench.run_scripts rs
                                    WHERE rs.run_id = r.id AND rs.group_no = g.group_no),
                       'transactions', g.transactions,
                       'transactions_pct', round(100.0 * g.transactions / NULLIF(r.transactions, 0), 1),
                       'tps', round(g.tps::numeric, 6),
                       'failures', g.failures, 'ignored_errors', g.ignored_errors,
                       'skipped', g.skipped,
                       'schedule_lag_avg_ms', round(g.lag_avg_ms::numeric, 3),
                       'latency_ms', jsonb_build_object(
                           'avg', round(g.latency_avg_ms::numeric, 3),
                           'stddev', round(g.latency_stddev_ms::numeric, 3),
                           'p50', round(g.latency_p50_ms::numeric, 3),
                           'p95', round(g.latency_p95_ms::numeric, 3),
                           'p99', round(g.latency_p99_ms::numeric, 3),
                           'max', round(g.latency_max_ms::numeric, 3)))
                       ORDER BY g.group_no)
              FROM bench.run_groups g WHERE g.run_id = r.id));
    END IF;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION bench.report_json(bigint) IS
    'Everything known about a run as jsonb: pgbench''s summary, latency percentiles, and what the server did';

--
-- bench.report: the same as text; it starts with the lines pgbench prints
-- at the end of a run.
--
CREATE FUNCTION bench.report(run_id bigint)
RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    j       jsonb := bench.report_json(run_id);
    p       jsonb := j->'pgbench';
    s       jsonb := j->'server';
    l       jsonb := j->'latency_ms';
    o       text[] := '{}';
    total   bigint;
    x       jsonb;
    k       text;
    v       text;
BEGIN
    -- as pgbench's printResults
    o := o || format('transaction type: %s', p->>'transaction_type');
    IF p->>'scaling_factor' IS NOT NULL THEN
        o := o || format('scaling factor: %s', p->>'scaling_factor');
    END IF;
    IF p->>'partitions' IS NOT NULL THEN
        o := o || format('partition method: %s', p->>'partition_method')
               || format('partitions: %s', p->>'partitions');
    END IF;
    o := o || format('query mode: %s', p->>'query_mode')
           || format('number of clients: %s', p->>'number_of_clients')
           || format('number of threads: %s', p->>'number_of_threads')
           || format('maximum number of tries: %s', p->>'maximum_number_of_tries');
    total := COALESCE((p->>'transactions')::bigint, 0);
    IF p->>'transactions_per_client' IS NOT NULL THEN
        o := o || format('number of transactions per client: %s', p->>'transactions_per_client')
               || format('number of transactions actually processed: %s/%s', total,
                         (p->>'transactions_per_client')::bigint * (p->>'number_of_clients')::int);
    ELSE
        o := o || format('duration: %s s', p->>'duration_s')
               || format('number of transactions actually processed: %s', total);
    END IF;
    o := o || format('number of failed transactions: %s (%s%%)', p->>'failed_transactions',
                     to_char(COALESCE((p->>'failed_pct')::numeric, 0), 'FM990.000'));
    IF (p->>'failed_transactions')::bigint > 0 THEN
        o := o || format('number of serialization failures: %s', p->>'serialization_failures')
               || format('number of deadlock failures: %s', p->>'deadlock_failures');
    END IF;
    IF (p->>'maximum_number_of_tries')::int <> 1 THEN
        o := o || format('number of transactions retried: %s', p->>'transactions_retried')
               || format('total number of retries: %s', p->>'total_retries');
    END IF;
    IF p->>'rate_tps' IS NOT NULL AND p->>'latency_limit_ms' IS NOT NULL THEN
        o := o || format('number of transactions skipped: %s (%s%%)', COALESCE(p->>'skipped_transactions', '0'),
                         to_char(COALESCE((p->>'skipped_pct')::numeric, 0), 'FM990.000'));
    END IF;
    IF p->>'latency_limit_ms' IS NOT NULL THEN
        o := o || format('number of transactions above the %s ms latency limit: %s/%s (%s%%)',
                         to_char((p->>'latency_limit_ms')::numeric, 'FM999999990.0'),
                         COALESCE(p->>'late_transactions', '0'), total,
                         to_char(COALESCE((p->>'late_pct')::numeric, 0), 'FM990.000'));
    END IF;
    IF total > 0 THEN
        o := o || format('latency average = %s ms', to_char((p->>'latency_average_ms')::numeric, 'FM999999990.000'))
               || format('latency stddev = %s ms', to_char((p->>'latency_stddev_ms')::numeric, 'FM999999990.000'));
    END IF;
    IF p->>'rate_tps' IS NOT NULL THEN
        o := o || format('rate limit schedule lag: avg %s (max %s) ms',
                         to_char(COALESCE((p->>'schedule_lag_avg_ms')::numeric, 0), 'FM999999990.000'),
                         to_char(COALESCE((p->>'schedule_lag_max_ms')::numeric, 0), 'FM999999990.000'));
    END IF;
    o := o || format('tps = %s (without initial connection time)',
                     to_char(COALESCE((p->>'tps')::numeric, 0), 'FM999999990.000000'));

    -- each script and its statement latencies, as pgbench -r
    FOR x IN SELECT * FROM jsonb_array_elements(COALESCE(j->'scripts', '[]')) LOOP
        IF jsonb_array_length(j->'scripts') > 1 THEN
            o := o || format('SQL script %s: %s', x->>'script_no', x->>'name')
                   || format(' - weight: %s (targets %s%% of total)', x->>'weight', x->>'weight_pct')
                   || format(' - %s transactions (%s%% of total, tps = %s)', COALESCE(x->>'transactions', '0'),
                             COALESCE(x->>'transactions_pct', '0'),
                             to_char(COALESCE((x->>'tps')::numeric, 0), 'FM999999990.000000'))
                   || format(' - number of failed transactions: %s', COALESCE(x->>'failures', '0'));
            IF x->>'latency_average_ms' IS NOT NULL THEN
                o := o || format(' - latency average = %s ms', x->>'latency_average_ms');
            END IF;
        END IF;
        -- with retries (max_tries other than 1) a column more, as pgbench
        o := o || format('%sstatement latencies in milliseconds%s:',
                         CASE WHEN jsonb_array_length(j->'scripts') > 1 THEN ' - ' ELSE '' END,
                         CASE WHEN (p->>'maximum_number_of_tries')::int = 1 THEN ' and failures'
                              ELSE ', failures and retries' END);
        o := o || ARRAY(SELECT format('   %s  %s  %s%s', lpad(COALESCE(to_char((c->>'latency_ms')::numeric, 'FM999999990.000'), '-'), 11),
                                      lpad(c->>'failures', 10),
                                      CASE WHEN (p->>'maximum_number_of_tries')::int = 1 THEN ''
                                           ELSE lpad(COALESCE(c->>'retries', '0'), 10) || '  ' END,
                                      c->>'command')
                          FROM jsonb_array_elements(COALESCE(x->'commands', '[]')) c);
    END LOOP;

    -- where the time of each SQL command went, when its phases were timed
    IF EXISTS (SELECT 1 FROM jsonb_array_elements(COALESCE(j->'scripts', '[]')) sc,
                             jsonb_array_elements(COALESCE(sc->'commands', '[]')) c
                WHERE c->>'execute_ms' IS NOT NULL) THEN
        o := o || ''::text
               || 'where the time goes, in milliseconds per execution (the server''s clients time each statement''s phases):'::text
               || format('   %s %s %s %s %s  %s', lpad('parse', 9), lpad('rewrite', 9), lpad('plan', 9),
                         lpad('execute', 9), lpad('other', 9), 'command');
        FOR x IN SELECT * FROM jsonb_array_elements(COALESCE(j->'scripts', '[]')) LOOP
            o := o || ARRAY(SELECT format('   %s %s %s %s %s  %s',
                                          lpad(to_char((c->>'parse_ms')::numeric, 'FM999990.0000'), 9),
                                          lpad(to_char((c->>'rewrite_ms')::numeric, 'FM999990.0000'), 9),
                                          lpad(to_char((c->>'plan_ms')::numeric, 'FM999990.0000'), 9),
                                          lpad(to_char((c->>'execute_ms')::numeric, 'FM999990.0000'), 9),
                                          lpad(to_char(greatest((c->>'latency_ms')::numeric - (c->>'parse_ms')::numeric
                                                                - (c->>'rewrite_ms')::numeric - (c->>'plan_ms')::numeric
                                                                - (c->>'execute_ms')::numeric, 0), 'FM999990.0000'), 9),
                                          c->>'command')
                              FROM jsonb_array_elements(COALESCE(x->'commands', '[]')) c
                             WHERE c->>'execute_ms' IS NOT NULL);
        END LOOP;
    ELSIF j->'run'->>'driver' = 'libpq' THEN
        -- a target's statements are parsed, planned and executed by its
        -- server: what its pg_stat_statements measured of the run's own
        o := o || ''::text;
        IF jsonb_typeof(s->'statements') = 'array'
           AND EXISTS (SELECT 1 FROM jsonb_array_elements(s->'statements') e
                        WHERE (e->>'run_role')::boolean) THEN
            IF EXISTS (SELECT 1 FROM jsonb_array_elements(s->'statements') e
                        WHERE (e->>'run_role')::boolean AND (e->>'plans')::bigint > 0) THEN
                o := o || 'where the time goes, in milliseconds per call, as pg_stat_statements measured it on the target (planning and execution; parse, analysis and rewrite are not measured there):'::text;
            ELSE
                o := o || 'where the time goes, in milliseconds per call, as pg_stat_statements measured it on the target: execution only (planning is measured with pg_stat_statements.track_planning on there; parse, analysis and rewrite are not measured there):'::text;
            END IF;
            o := o || format('   %s %s %s  %s', lpad('plan', 9), lpad('execute', 9), lpad('calls', 10), 'statement')
                   || ARRAY(SELECT format('   %s %s %s  %s',
                                          lpad(COALESCE(CASE WHEN (e->>'plans')::bigint > 0
                                                             THEN to_char((e->>'total_plan_ms')::numeric
                                                                          / (e->>'calls')::numeric, 'FM999990.0000') END, '-'), 9),
                                          lpad(to_char((e->>'mean_ms')::numeric, 'FM999990.0000'), 9),
                                          lpad(e->>'calls', 10),
                                          left(regexp_replace(e->>'query', '\s+', ' ', 'g'), 100))
                              FROM jsonb_array_elements(s->'statements') e
                             WHERE (e->>'run_role')::boolean
                               -- not the coordinator's samples, taken as the same role
                               AND e->>'query' NOT LIKE 'SELECT pg\_catalog.jsonb\_strip\_nulls(pg\_catalog.jsonb\_build\_object(%'
                             ORDER BY (e->>'total_ms')::numeric DESC);
        ELSE
            o := o || format('where the time goes: not measured (the target''s statements are timed by its server, and its pg_stat_statements %s)',
                             COALESCE('is not available: ' || (s->'unavailable'->>'statements'), 'showed none of the run''s'));
        END IF;
    END IF;

    -- sysbench's statistics block, as sysbench 1.0 prints it
    IF jsonb_typeof(j->'sysbench') = 'object' THEN
        x := j->'sysbench';
        o := o || ARRAY['', 'SQL statistics:', '    queries performed:']
               || format('        read:                            %s', x->'queries'->>'read')
               || format('        write:                           %s', x->'queries'->>'write')
               || format('        other:                           %s', x->'queries'->>'other')
               || format('        total:                           %s', x->'queries'->>'total')
               || format('    transactions:                        %s (%s per sec.)',
                         rpad(COALESCE(x->>'transactions', '0'), 6), to_char(COALESCE((x->>'transactions_per_s')::numeric, 0), 'FM999999990.00'))
               || format('    queries:                             %s (%s per sec.)',
                         rpad(x->'queries'->>'total', 6), to_char(COALESCE((x->>'queries_per_s')::numeric, 0), 'FM999999990.00'))
               || format('    ignored errors:                      %s (%s per sec.)',
                         rpad(x->>'ignored_errors', 6), to_char(COALESCE((x->>'ignored_errors_per_s')::numeric, 0), 'FM999999990.00'))
               || format('    reconnects:                          %s (%s per sec.)', rpad(x->>'reconnects', 6), '0.00')
               || ARRAY['', 'General statistics:']
               || format('    total time:                          %ss', to_char(COALESCE((x->>'total_time_s')::numeric, 0), 'FM999999990.0000'))
               || format('    total number of events:              %s', COALESCE(x->>'events', '0'))
               || ARRAY['', 'Latency (ms):']
               || format('         min:                            %s', lpad(COALESCE(to_char((x->'latency_ms'->>'min')::numeric, 'FM999999990.00'), '-'), 12))
               || format('         avg:                            %s', lpad(COALESCE(to_char((x->'latency_ms'->>'avg')::numeric, 'FM999999990.00'), '-'), 12))
               || format('         max:                            %s', lpad(COALESCE(to_char((x->'latency_ms'->>'max')::numeric, 'FM999999990.00'), '-'), 12))
               || format('         95th percentile:                %s', lpad(COALESCE(to_char((x->'latency_ms'->>'p95')::numeric, 'FM999999990.00'), '-'), 12))
               || format('         sum:                            %s', lpad(COALESCE(to_char((x->'latency_ms'->>'sum')::numeric, 'FM999999990.00'), '-'), 12));
    END IF;

    -- each group of clients: its workload, rate and what it measured
    IF jsonb_typeof(j->'groups') = 'array' THEN
        o := o || ''::text || 'groups:'::text;
        FOR x IN SELECT * FROM jsonb_array_elements(j->'groups') LOOP
            o := o || format('  group %s: %s - %s, %s client%s%s', x->>'group_no', x->>'name',
                             x->>'workload', x->>'clients',
                             CASE WHEN x->>'clients' = '1' THEN '' ELSE 's' END,
                             CASE WHEN x->>'rate_tps' IS NOT NULL THEN format(', rate %s tps', x->>'rate_tps') ELSE '' END)
                   || format('   %s transactions (%s%% of total), tps = %s, %s failed%s',
                             COALESCE(x->>'transactions', '0'), COALESCE(x->>'transactions_pct', '0'),
                             to_char(COALESCE((x->>'tps')::numeric, 0), 'FM999999990.000000'),
                             COALESCE(x->>'failures', '0'),
                             CASE WHEN COALESCE((x->>'ignored_errors')::bigint, 0) > 0
                                  THEN format(', %s ignored errors', x->>'ignored_errors') ELSE '' END);
            IF COALESCE((x->>'transactions')::bigint, 0) > 0 THEN
                o := o || format('   latency average %s ms, stddev %s ms, p50 %s ms, p95 %s ms, p99 %s ms, max %s ms',
                                 x->'latency_ms'->>'avg', x->'latency_ms'->>'stddev', x->'latency_ms'->>'p50',
                                 x->'latency_ms'->>'p95', x->'latency_ms'->>'p99', x->'latency_ms'->>'max');
            END IF;
            IF x->>'schedule_lag_avg_ms' IS NOT NULL THEN
                o := o || format('   rate limit schedule lag: avg %s ms', x->>'schedule_lag_avg_ms');
            END IF;
        END LOOP;
    END IF;

    -- the run
    o := o || ARRAY['', format('run %s: workload %s, status %s%s', j->'run'->>'id', j->'run'->>'workload',
                     j->'run'->>'status',
                     CASE WHEN j->'run'->>'tag' IS NOT NULL THEN format(', tag %s', j->'run'->>'tag') ELSE '' END)]
           || format('started %s, measured %s s, server %s', j->'run'->>'started_at',
                     p->>'measured_s', j->'run'->>'server_version');
    IF j->'run'->>'error' IS NOT NULL THEN
        o := o || format('error: %s (SQLSTATE %s)', j->'run'->>'error', j->'run'->>'sqlstate');
    END IF;
    IF (j->'run'->>'warmup_s')::numeric > 0 THEN
        o := o || format('warm-up: %s s, %s transactions left out of the figures above',
                         j->'run'->>'warmup_s', j->'run'->>'warmup_transactions');
    END IF;
    IF total > 0 THEN
        o := o || format('latency percentiles: min %s ms, p50 %s ms, p90 %s ms, p95 %s ms, p99 %s ms, p99.9 %s ms, max %s ms',
                         l->>'min', l->>'p50', l->>'p90', l->>'p95', l->>'p99', l->>'p99_9', l->>'max');
    END IF;

    -- the server
    o := o || ARRAY['', 'server:'];
    IF s->>'seconds' IS NULL THEN
        o := o || '  no samples: the run ended before its clients started or its samples were lost'::text;
    ELSE
        o := o || format('  samples: %s s and %s transactions from before the clients started to after they stopped',
                         s->>'seconds', s->>'transactions')
               || format('  WAL: %s bytes (%s generated), %s records, %s full-page images; %s bytes and %s FPI per transaction; %s MB/s',
                         s->'wal'->>'bytes', s->'wal'->>'generated_bytes', s->'wal'->>'records',
                         s->'wal'->>'fpi', s->'wal'->>'bytes_per_tx', s->'wal'->>'fpi_per_tx',
                         s->'wal'->>'mb_per_s')
               || format('  checkpoints during the run: %s timed, %s requested',
                         s->'checkpoints'->>'timed', s->'checkpoints'->>'requested')
               || format('  buffers written: %s by the checkpointer, %s by the background writer, %s by backends; %s allocated',
                         s->'buffers'->>'checkpointer', s->'buffers'->>'bgwriter',
                         COALESCE(s->'buffers'->>'backends', 'unknown'), s->'buffers'->>'allocated');
        IF jsonb_typeof(s->'io') = 'object' THEN
            o := o || format('  IO (pg_stat_io): %s reads, %s writes, %s extends, %s fsyncs',
                             s->'io'->>'reads', s->'io'->>'writes', s->'io'->>'extends', s->'io'->>'fsyncs');
        END IF;
        o := o || format('  cache: %s blocks read and %s hit per transaction, hit ratio %s; %s temp files, %s temp bytes',
                         s->'cache'->>'blks_read_per_tx', s->'cache'->>'blks_hit_per_tx',
                         s->'cache'->>'hit_ratio', s->'cache'->>'temp_files', s->'cache'->>'temp_bytes');
        IF (s->'cpu'->>'available')::boolean THEN
            o := o || format('  CPU: server processes %s s, %s ms per transaction; host busy %s s of %s s',
                             s->'cpu'->>'server_s', s->'cpu'->>'server_ms_per_tx',
                             s->'cpu'->>'host_busy_s', s->'cpu'->>'host_total_s');
        ELSE
            o := o || format('  CPU: not available (%s)', COALESCE(s->'cpu'->>'reason', 'not sampled'));
        END IF;
    END IF;
    IF jsonb_typeof(s->'statements') = 'array' THEN
        o := o || '  top statements (pg_stat_statements, over the run):'::text;
        FOR x IN SELECT * FROM jsonb_array_elements(s->'statements') LOOP
            o := o || format('    %s calls, %s ms total, %s ms mean: %s', x->>'calls', x->>'total_ms',
                             x->>'mean_ms', left(regexp_replace(x->>'query', '\s+', ' ', 'g'), 100));
        END LOOP;
    END IF;
    IF jsonb_typeof(s->'sizes') = 'array' THEN
        o := o || '  sizes before -> after:'::text;
        FOR x IN SELECT * FROM jsonb_array_elements(s->'sizes') LOOP
            o := o || format('    %s %s: %s -> %s', x->>'kind', x->>'relation',
                             COALESCE(pg_size_pretty((x->>'before_bytes')::bigint), '-'),
                             COALESCE(pg_size_pretty((x->>'after_bytes')::bigint), '-'));
        END LOOP;
    END IF;
    IF jsonb_typeof(s->'prewarm') = 'array' THEN
        o := o || format('  prewarm: %s relations, %s blocks in %s s',
                         (SELECT count(*) FROM jsonb_array_elements(s->'prewarm')),
                         (SELECT sum((e->>'blocks')::bigint) FROM jsonb_array_elements(s->'prewarm') e),
                         (SELECT round(sum((e->>'seconds')::numeric), 3) FROM jsonb_array_elements(s->'prewarm') e));
    ELSIF (j->'run'->>'prewarm')::boolean IS FALSE THEN
        o := o || '  prewarm: off (cold cache)'::text;
    END IF;
    IF jsonb_typeof(s->'settings') = 'object' THEN
        o := o || ('  settings: ' || (SELECT string_agg(key || '=' || value, ', ' ORDER BY key)
                                        FROM jsonb_each_text(s->'settings')
                                       WHERE key IN ('wal_level', 'shared_buffers', 'max_wal_size',
                                             'checkpoint_timeout', 'synchronous_commit',
                                             'wal_compression', 'data_checksums', 'huge_pages',
                                             'huge_pages_status', 'fsync', 'full_page_writes',
                                             'io_method'))
                   || format(' (%s settings in bench.runs.settings)',
                             (SELECT count(*) FROM jsonb_object_keys(s->'settings'))));
    END IF;
    IF jsonb_typeof(s->'host') = 'object' THEN
        o := o || format('  host: %s CPUs (%s), %s memory, %s %s; data directory filesystem %s free of %s',
                         s->'host'->>'cpus', COALESCE(s->'host'->>'cpu_model', 'model unknown'),
                         pg_size_pretty((s->'host'->>'memory_bytes')::bigint),
                         s->'host'->>'kernel', s->'host'->>'machine',
                         pg_size_pretty((s->'host'->>'data_directory_fs_free_bytes')::bigint),
                         pg_size_pretty((s->'host'->>'data_directory_fs_bytes')::bigint));
    END IF;
    FOR k, v IN SELECT key, value FROM jsonb_each_text(s->'unavailable') ORDER BY key LOOP
        o := o || format('  not available: %s (%s)', k, v);
    END LOOP;
    RETURN array_to_string(o, E'\n') || E'\n';
END
$fn$;

COMMENT ON FUNCTION bench.report(bigint) IS
    'A run as text: pgbench''s summary lines, then latency percentiles and what the server did';

