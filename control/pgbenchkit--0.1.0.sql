-- pgbenchkit 0.1.0: the benchmark lab inside PostgreSQL
\echo Use "CREATE EXTENSION pgbenchkit CASCADE" to load this file. \quit

--
-- bench.datasets: one row per dataset bench.init made or tried to make.
--
-- tables holds the pg_class OIDs of the tables the load created; with
-- force => true, bench.init drops only tables listed in a 'ready' row.
--
CREATE TABLE bench.datasets (
    id              bigserial PRIMARY KEY,
    workload        text        NOT NULL,
    scale           integer     NOT NULL,
    options         jsonb       NOT NULL,
    schema_name     name        NOT NULL,
    tables          oid[],
    status          text        NOT NULL
                    CHECK (status IN ('loading', 'ready', 'failed', 'aborted', 'replaced')),
    sqlstate        text,
    error           text,
    created_by      name        NOT NULL DEFAULT current_user,
    started_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    finished_at     timestamptz,
    server_version  text        NOT NULL DEFAULT current_setting('server_version'),
    rows_loaded     bigint,
    create_s        double precision,
    load_s          double precision,
    vacuum_s        double precision,
    primary_keys_s  double precision,
    foreign_keys_s  double precision,
    worker_pid      integer
);

COMMENT ON TABLE bench.datasets IS
    'Datasets loaded by bench.init: workload, scale, options, who and when, status and timings';

-- results are user data: pg_dump keeps them
SELECT pg_catalog.pg_extension_config_dump('bench.datasets', '');
SELECT pg_catalog.pg_extension_config_dump('bench.datasets_id_seq', '');

GRANT USAGE ON SCHEMA bench TO PUBLIC;
GRANT SELECT ON bench.datasets TO PUBLIC;

--
-- The row bench.init returns.
--
CREATE TYPE bench.init_result AS (
    dataset_id      bigint,
    workload        text,
    scale           integer,
    rows_loaded     bigint,
    create_s        double precision,
    load_s          double precision,
    vacuum_s        double precision,
    primary_keys_s  double precision,
    foreign_keys_s  double precision,
    total_s         double precision
);

--
-- bench.init: create and load a workload's dataset, as pgbench -i does.
--
CREATE FUNCTION bench.init(
    workload         text,
    scale            integer DEFAULT 1,
    fillfactor       integer DEFAULT 100,
    partitions       integer DEFAULT 0,
    partition_method text    DEFAULT NULL,
    unlogged         boolean DEFAULT false,
    foreign_keys     boolean DEFAULT false,
    jobs             integer DEFAULT 1,
    force            boolean DEFAULT false)
RETURNS bench.init_result
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_init';

COMMENT ON FUNCTION bench.init(text, integer, integer, integer, text, boolean, boolean, integer, boolean) IS
    'Create and load a workload''s dataset (tpcb: the tables pgbench -i makes), in background workers';

-- starting workers and creating tables is for roles the administrator chose
REVOKE ALL ON FUNCTION bench.init(text, integer, integer, integer, text, boolean, boolean, integer, boolean) FROM PUBLIC;

--
-- bench.workloads: the scripts bench.run executes, in pgbench's script
-- language.  The built-in ones are pgbench's built-in scripts, verbatim.
--
CREATE TABLE bench.workloads (
    name            text        PRIMARY KEY,
    dataset         text,
    script          text        NOT NULL,
    description     text        NOT NULL,
    builtin         boolean     NOT NULL DEFAULT false
);

COMMENT ON TABLE bench.workloads IS
    'Workloads bench.run knows: the script its clients run, in pgbench''s script language, and the dataset it needs';

INSERT INTO bench.workloads (name, dataset, script, description, builtin) VALUES
('tpcb', 'tpcb',
$script$-- <builtin: TPC-B (sort of)>
\set aid random(1, 100000 * :scale)
\set bid random(1, 1 * :scale)
\set tid random(1, 10 * :scale)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
$script$, 'pgbench''s tpcb-like script (pgbench -b tpcb-like, the default)', true),
('simple-update', 'tpcb',
$script$-- <builtin: simple update>
\set aid random(1, 100000 * :scale)
\set bid random(1, 1 * :scale)
\set tid random(1, 10 * :scale)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
$script$, 'pgbench''s simple-update script (pgbench -N)', true),
('select-only', 'tpcb',
$script$-- <builtin: select only>
\set aid random(1, 100000 * :scale)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
$script$, 'pgbench''s select-only script (pgbench -S)', true);

SELECT pg_catalog.pg_extension_config_dump('bench.workloads', 'WHERE NOT builtin');
GRANT SELECT ON bench.workloads TO PUBLIC;

--
-- bench.runs: one row per benchmark run, from the moment its clients are
-- ready to start; the summary is filled when it ends, however it ends.
--
CREATE TABLE bench.runs (
    id                      bigserial PRIMARY KEY,
    workload                text        NOT NULL,
    dataset_id              bigint      REFERENCES bench.datasets (id),
    scale                   integer,
    clients                 integer     NOT NULL,
    duration                interval,
    transactions_per_client bigint,
    protocol                text        NOT NULL,
    warmup                  interval    NOT NULL,
    progress                interval    NOT NULL,
    max_tries               integer     NOT NULL,
    tag                     text,
    status                  text        NOT NULL
                            CHECK (status IN ('running', 'done', 'canceled', 'failed', 'aborted')),
    sqlstate                text,
    error                   text,
    created_by              name        NOT NULL,
    server_version          text        NOT NULL DEFAULT current_setting('server_version'),
    started_at              timestamptz NOT NULL DEFAULT clock_timestamp(),
    ended_at                timestamptz,
    measured_s              double precision,
    transactions            bigint,
    tps                     double precision,
    latency_avg_ms          double precision,
    latency_stddev_ms       double precision,
    latency_min_ms          double precision,
    latency_p50_ms          double precision,
    latency_p90_ms          double precision,
    latency_p95_ms          double precision,
    latency_p99_ms          double precision,
    latency_p999_ms         double precision,
    latency_max_ms          double precision,
    failures                bigint,
    serialization_failures  bigint,
    deadlock_failures       bigint,
    other_failures          bigint,
    retried                 bigint,
    retries                 bigint,
    warmup_transactions     bigint,
    coordinator_pid         integer,
    prewarm                 boolean     NOT NULL DEFAULT true,
    sample_interval         interval,
    settings                jsonb,
    host                    jsonb,
    unavailable             jsonb,
    suite_id                bigint,
    origin                  jsonb
);

CREATE INDEX runs_running ON bench.runs (dataset_id) WHERE status = 'running';

COMMENT ON TABLE bench.runs IS
    'Benchmark runs: workload, parameters as given, status, and the summary of what was measured';

--
-- bench.progress: one row per run per progress interval.
--
CREATE TABLE bench.progress (
    run_id          bigint      NOT NULL REFERENCES bench.runs (id) ON DELETE CASCADE,
    interval_start  timestamptz NOT NULL,
    interval_end    timestamptz NOT NULL,
    elapsed_s       double precision NOT NULL,
    transactions    bigint      NOT NULL,
    tps             double precision NOT NULL,
    latency_avg_ms  double precision,
    latency_stddev_ms double precision,
    latency_p99_ms  double precision,
    latency_max_ms  double precision,
    failures        bigint      NOT NULL,
    retries         bigint      NOT NULL,
    in_warmup       boolean     NOT NULL,
    PRIMARY KEY (run_id, interval_start)
);

COMMENT ON TABLE bench.progress IS
    'Per-interval progress of every run: transactions, tps, latency, failures; warm-up intervals marked';

--
-- bench.histograms: the merged latency histogram of each run's measured
-- transactions (warm-up excluded), one row per non-empty bucket.
--
CREATE TABLE bench.histograms (
    run_id          bigint      NOT NULL REFERENCES bench.runs (id) ON DELETE CASCADE,
    lower_ms        double precision NOT NULL,
    upper_ms        double precision NOT NULL,
    count           bigint      NOT NULL,
    PRIMARY KEY (run_id, lower_ms)
);

COMMENT ON TABLE bench.histograms IS
    'Latency histogram of each run (log-linear buckets, under 1% wide relative to their value)';

SELECT pg_catalog.pg_extension_config_dump('bench.runs', '');
SELECT pg_catalog.pg_extension_config_dump('bench.runs_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('bench.progress', '');
SELECT pg_catalog.pg_extension_config_dump('bench.histograms', '');
GRANT SELECT ON bench.runs, bench.progress, bench.histograms TO PUBLIC;

--
-- bench.runs_in_progress: runs still running, with their latest interval.
--
CREATE VIEW bench.runs_in_progress AS
SELECT r.id, r.workload, r.clients, r.protocol, r.tag, r.created_by,
       r.started_at,
       pg_catalog.clock_timestamp() - r.started_at AS elapsed,
       r.duration,
       p.done_transactions AS transactions,
       p.last_tps AS tps,
       p.last_latency_avg_ms AS latency_avg_ms,
       p.any_in_warmup AS in_warmup,
       r.coordinator_pid
  FROM bench.runs r
  LEFT JOIN LATERAL (
       SELECT sum(q.transactions)::bigint AS done_transactions,
              (array_agg(q.tps ORDER BY q.interval_start DESC))[1] AS last_tps,
              (array_agg(q.latency_avg_ms ORDER BY q.interval_start DESC))[1] AS last_latency_avg_ms,
              (array_agg(q.in_warmup ORDER BY q.interval_start DESC))[1] AS any_in_warmup
         FROM bench.progress q WHERE q.run_id = r.id) p ON true
 WHERE r.status = 'running';

COMMENT ON VIEW bench.runs_in_progress IS
    'Runs in progress: elapsed time, transactions so far, and the tps and latency of their latest progress interval';
GRANT SELECT ON bench.runs_in_progress TO PUBLIC;

--
-- bench.run and friends.
--
CREATE FUNCTION bench.run(
    workload     text,
    clients      integer  DEFAULT 1,
    duration     interval DEFAULT NULL,
    transactions bigint   DEFAULT NULL,
    protocol     text     DEFAULT 'prepared',
    warmup       interval DEFAULT '0',
    progress     interval DEFAULT '5 s',
    max_tries    integer  DEFAULT 1,
    tag          text     DEFAULT NULL,
    prewarm      boolean  DEFAULT true,
    sample_interval interval DEFAULT '1 s')
RETURNS bench.runs
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_run';

COMMENT ON FUNCTION bench.run(text, integer, interval, bigint, text, interval, interval, integer, text, boolean, interval) IS
    'Run a workload with background-worker clients; wait for it, print progress, return its row of bench.runs';

CREATE FUNCTION bench.start(
    workload     text,
    clients      integer  DEFAULT 1,
    duration     interval DEFAULT NULL,
    transactions bigint   DEFAULT NULL,
    protocol     text     DEFAULT 'prepared',
    warmup       interval DEFAULT '0',
    progress     interval DEFAULT '5 s',
    max_tries    integer  DEFAULT 1,
    tag          text     DEFAULT NULL,
    prewarm      boolean  DEFAULT true,
    sample_interval interval DEFAULT '1 s')
RETURNS bigint
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_start';

COMMENT ON FUNCTION bench.start(text, integer, interval, bigint, text, interval, interval, integer, text, boolean, interval) IS
    'Start a run in the background and return its id at once';

CREATE FUNCTION bench.wait(run_id bigint)
RETURNS bench.runs
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_wait';

COMMENT ON FUNCTION bench.wait(bigint) IS
    'Wait for a run to end, printing its progress, and return its row of bench.runs';

CREATE FUNCTION bench.cancel(run_id bigint)
RETURNS boolean
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_cancel';

COMMENT ON FUNCTION bench.cancel(bigint) IS
    'Cancel a running run: its clients stop, what it measured is kept, its status becomes canceled';

REVOKE ALL ON FUNCTION bench.run(text, integer, interval, bigint, text, interval, interval, integer, text, boolean, interval) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.start(text, integer, interval, bigint, text, interval, interval, integer, text, boolean, interval) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.wait(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.cancel(bigint) FROM PUBLIC;

--
-- Observability: what the server did during every run.
--

--
-- bench.prewarms: the relations a run loaded into shared buffers with
-- pg_prewarm before its clients started.
--
CREATE TABLE bench.prewarms (
    run_id          bigint      NOT NULL REFERENCES bench.runs (id) ON DELETE CASCADE,
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
    run_id          bigint      NOT NULL REFERENCES bench.runs (id) ON DELETE CASCADE,
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
    run_id          bigint      NOT NULL REFERENCES bench.runs (id) ON DELETE CASCADE,
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
       c.host_cpu_busy_s - p.host_cpu_busy_s AS host_cpu_busy_s,
       c.host_cpu_total_s - p.host_cpu_total_s AS host_cpu_total_s
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
       a.host_cpu_busy_s - b.host_cpu_busy_s AS host_cpu_busy_s,
       a.host_cpu_total_s - b.host_cpu_total_s AS host_cpu_total_s
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
       a.own AS run_role
  FROM (SELECT s.run_id, st.*
          FROM bench.samples s,
               pg_catalog.jsonb_to_recordset(s.data->'statements') AS st(
                   queryid bigint, userid oid, toplevel boolean, query text, own boolean,
                   calls bigint, total_exec_time double precision, rows bigint,
                   shared_blks_hit bigint, shared_blks_read bigint, shared_blks_dirtied bigint,
                   shared_blks_written bigint, temp_blks_written bigint,
                   wal_records bigint, wal_fpi bigint, wal_bytes numeric)
         WHERE s.phase = 'after') a
  LEFT JOIN (SELECT s.run_id, st.*
               FROM bench.samples s,
                    pg_catalog.jsonb_to_recordset(s.data->'statements') AS st(
                        queryid bigint, userid oid, toplevel boolean,
                        calls bigint, total_exec_time double precision, rows bigint,
                        shared_blks_hit bigint, shared_blks_read bigint, shared_blks_dirtied bigint,
                        shared_blks_written bigint, temp_blks_written bigint,
                        wal_records bigint, wal_fpi bigint, wal_bytes numeric)
              WHERE s.phase = 'before') b
    ON b.run_id = a.run_id AND b.queryid = a.queryid AND b.userid = a.userid
   AND b.toplevel IS NOT DISTINCT FROM a.toplevel
 WHERE a.calls - COALESCE(b.calls, 0) > 0;

COMMENT ON VIEW bench.run_statements IS
    'pg_stat_statements over each run: calls, time, rows, blocks and WAL per statement';

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
    SELECT * INTO d FROM bench.datasets WHERE id = r.dataset_id;
    SELECT w.script INTO script FROM bench.workloads w WHERE w.name = r.workload;
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

    result := jsonb_build_object(
        'run', jsonb_build_object(
            'id', r.id, 'workload', r.workload, 'status', r.status,
            'sqlstate', r.sqlstate, 'error', r.error, 'tag', r.tag,
            'created_by', r.created_by, 'server_version', r.server_version,
            'started_at', r.started_at, 'ended_at', r.ended_at,
            'dataset_id', r.dataset_id, 'prewarm', r.prewarm,
            'sample_interval_s', extract(epoch FROM r.sample_interval),
            'warmup_s', extract(epoch FROM r.warmup),
            'warmup_transactions', r.warmup_transactions),
        'pgbench', jsonb_build_object(
            'transaction_type', COALESCE(substring(script FROM '^-- (<builtin: [^>]*>)'), r.workload),
            'scaling_factor', r.scale,
            'partition_method', CASE WHEN (d.options->>'partitions')::int > 0
                                     THEN d.options->>'partition_method' END,
            'partitions', CASE WHEN (d.options->>'partitions')::int > 0
                               THEN (d.options->>'partitions')::int END,
            'query_mode', r.protocol,
            'number_of_clients', r.clients,
            'number_of_threads', r.clients,
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
            'latency_average_ms', round(r.latency_avg_ms::numeric, 3),
            'latency_stddev_ms', round(r.latency_stddev_ms::numeric, 3),
            'tps', round(r.tps::numeric, 6),
            'measured_s', round(r.measured_s::numeric, 3)),
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
                           'mean_ms', s.mean_exec_ms, 'rows', s.rows,
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
    IF total > 0 THEN
        o := o || format('latency average = %s ms', to_char((p->>'latency_average_ms')::numeric, 'FM999999990.000'))
               || format('latency stddev = %s ms', to_char((p->>'latency_stddev_ms')::numeric, 'FM999999990.000'));
    END IF;
    o := o || format('tps = %s (without initial connection time)',
                     to_char(COALESCE((p->>'tps')::numeric, 0), 'FM999999990.000000'));

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

--
-- Suites: many runs as one experiment (bench.sweep), and schedules of
-- them (bench.schedule, with pg_cron).
--

--
-- bench.suites: one row per sweep, scheduled or not.  Suite ids and run ids
-- are drawn from one sequence, so an id names either a run or a suite.
--
CREATE TABLE bench.suites (
    id              bigint      PRIMARY KEY DEFAULT pg_catalog.nextval('bench.runs_id_seq'),
    workload        text        NOT NULL,
    clients         integer[]   NOT NULL,
    repeat          integer     NOT NULL,
    run_order       text        NOT NULL CHECK (run_order IN ('interleaved', 'blocks')),
    args            jsonb       NOT NULL,
    search_path     text        NOT NULL,
    tag             text,
    schedule        text,
    runs_planned    integer     NOT NULL,
    status          text        NOT NULL
                    CHECK (status IN ('running', 'done', 'canceled', 'failed', 'aborted', 'refused')),
    sqlstate        text,
    error           text,
    created_by      name        NOT NULL,
    server_version  text        NOT NULL DEFAULT current_setting('server_version'),
    started_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    ended_at        timestamptz,
    worker_pid      integer,
    origin          jsonb
);

CREATE INDEX suites_schedule ON bench.suites (schedule, started_at) WHERE schedule IS NOT NULL;

COMMENT ON TABLE bench.suites IS
    'Sweeps: a workload run at several client counts, each repeated; one row per sweep with its status';

ALTER TABLE bench.runs ADD FOREIGN KEY (suite_id) REFERENCES bench.suites (id);
CREATE INDEX runs_suite ON bench.runs (suite_id) WHERE suite_id IS NOT NULL;

SELECT pg_catalog.pg_extension_config_dump('bench.suites', '');
GRANT SELECT ON bench.suites TO PUBLIC;

--
-- bench.suite_summary: per suite and client count, the median, min and max
-- over the finished repeats.
--
CREATE VIEW bench.suite_summary AS
SELECT s.id AS suite_id, c.clients, c.pos::integer AS position,
       s.repeat AS runs_planned,
       count(r.id)::integer AS runs_done,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY r.tps) AS tps_median,
       min(r.tps) AS tps_min,
       max(r.tps) AS tps_max,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY r.latency_avg_ms) AS latency_avg_ms_median,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY r.latency_p95_ms) AS latency_p95_ms_median,
       min(r.latency_p95_ms) AS latency_p95_ms_min,
       max(r.latency_p95_ms) AS latency_p95_ms_max,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY r.latency_p99_ms) AS latency_p99_ms_median,
       min(r.latency_p99_ms) AS latency_p99_ms_min,
       max(r.latency_p99_ms) AS latency_p99_ms_max,
       array_agg(r.id ORDER BY r.id) FILTER (WHERE r.id IS NOT NULL) AS run_ids
  FROM bench.suites s
 CROSS JOIN LATERAL pg_catalog.unnest(s.clients) WITH ORDINALITY AS c(clients, pos)
  LEFT JOIN bench.runs r ON r.suite_id = s.id AND r.clients = c.clients AND r.status = 'done'
 GROUP BY s.id, c.clients, c.pos, s.repeat;

COMMENT ON VIEW bench.suite_summary IS
    'Per suite and client count: runs done of planned, and median, min and max of tps and latency percentiles';
GRANT SELECT ON bench.suite_summary TO PUBLIC;

--
-- bench.schedules: sweeps (or single runs) pg_cron starts.
--
CREATE TABLE bench.schedules (
    name            text        PRIMARY KEY,
    cron            text        NOT NULL,
    workload        text        NOT NULL,
    clients         integer[]   NOT NULL,
    repeat          integer     NOT NULL,
    run_order       text        NOT NULL,
    args            jsonb       NOT NULL,
    search_path     text        NOT NULL,
    baseline_runs   integer     NOT NULL,
    threshold       double precision NOT NULL,
    cron_database   name        NOT NULL,
    jobid           bigint,
    created_by      name        NOT NULL DEFAULT current_user,
    created_at      timestamptz NOT NULL DEFAULT clock_timestamp()
);

COMMENT ON TABLE bench.schedules IS
    'Benchmarks pg_cron starts: when (cron), what (workload, client counts, repeats, run arguments) and how a regression is judged';

SELECT pg_catalog.pg_extension_config_dump('bench.schedules', '');
GRANT SELECT ON bench.schedules TO PUBLIC;

--
-- bench.schedule_results: every finished suite of a schedule, per client
-- count, against its rolling baseline: the median tps of the same client
-- count over the schedule's previous baseline_runs finished suites.
--
CREATE VIEW bench.schedule_results AS
WITH per AS (
    SELECT s.schedule, s.id AS suite_id, s.started_at, m.clients,
           m.tps_median AS tps, m.latency_p99_ms_median AS latency_p99_ms
      FROM bench.suites s
      JOIN bench.suite_summary m ON m.suite_id = s.id
     WHERE s.schedule IS NOT NULL AND s.status = 'done')
SELECT p.schedule, p.suite_id, p.started_at, p.clients, p.tps, p.latency_p99_ms,
       b.runs AS baseline_runs,
       b.tps AS baseline_tps,
       b.latency_p99_ms AS baseline_latency_p99_ms,
       p.tps / NULLIF(b.tps, 0) AS tps_ratio,
       p.latency_p99_ms / NULLIF(b.latency_p99_ms, 0) AS latency_p99_ratio,
       COALESCE(sc.threshold, 0.05) AS threshold,
       COALESCE(b.runs > 0 AND p.tps < b.tps * (1 - COALESCE(sc.threshold, 0.05)), false) AS regression
  FROM per p
  LEFT JOIN bench.schedules sc ON sc.name = p.schedule
  LEFT JOIN LATERAL (
       SELECT count(*)::integer AS runs,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY q.tps) AS tps,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY q.latency_p99_ms) AS latency_p99_ms
         FROM (SELECT q.tps, q.latency_p99_ms
                 FROM per q
                WHERE q.schedule = p.schedule AND q.clients = p.clients
                  AND q.started_at < p.started_at
                ORDER BY q.started_at DESC
                LIMIT COALESCE(sc.baseline_runs, 5)) q) b ON true;

COMMENT ON VIEW bench.schedule_results IS
    'Each finished scheduled suite per client count against the median of the schedule''s previous runs; regression when tps fell by more than the threshold';

--
-- bench.regressions: the scheduled results flagged as regressions.
--
CREATE VIEW bench.regressions AS
SELECT * FROM bench.schedule_results WHERE regression;

COMMENT ON VIEW bench.regressions IS
    'Scheduled results whose tps fell below the rolling baseline by more than the schedule''s threshold';

GRANT SELECT ON bench.schedule_results, bench.regressions TO PUBLIC;

--
-- bench.sweep and friends: suites of runs, each in a transaction of its own,
-- carried out by a background worker.
--
CREATE FUNCTION bench.sweep(
    workload     text,
    clients      integer[] DEFAULT '{1}',
    repeat       integer  DEFAULT 3,
    duration     interval DEFAULT NULL,
    transactions bigint   DEFAULT NULL,
    protocol     text     DEFAULT 'prepared',
    warmup       interval DEFAULT '0',
    progress     interval DEFAULT '5 s',
    max_tries    integer  DEFAULT 1,
    tag          text     DEFAULT NULL,
    prewarm      boolean  DEFAULT true,
    sample_interval interval DEFAULT '1 s',
    run_order    text     DEFAULT 'interleaved')
RETURNS SETOF bench.suite_summary
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_sweep';

COMMENT ON FUNCTION bench.sweep(text, integer[], integer, interval, bigint, text, interval, interval, integer, text, boolean, interval, text) IS
    'Run a workload at each client count, repeat times each, as one suite; wait for it and return its summary per client count';

CREATE FUNCTION bench.start_sweep(
    workload     text,
    clients      integer[] DEFAULT '{1}',
    repeat       integer  DEFAULT 3,
    duration     interval DEFAULT NULL,
    transactions bigint   DEFAULT NULL,
    protocol     text     DEFAULT 'prepared',
    warmup       interval DEFAULT '0',
    progress     interval DEFAULT '5 s',
    max_tries    integer  DEFAULT 1,
    tag          text     DEFAULT NULL,
    prewarm      boolean  DEFAULT true,
    sample_interval interval DEFAULT '1 s',
    run_order    text     DEFAULT 'interleaved')
RETURNS bigint
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_start_sweep';

COMMENT ON FUNCTION bench.start_sweep(text, integer[], integer, interval, bigint, text, interval, interval, integer, text, boolean, interval, text) IS
    'Start a sweep in the background and return its suite id at once';

-- internal: the checked arguments of a sweep as jsonb (bench.schedule)
CREATE FUNCTION bench._sweep_spec(
    workload     text,
    clients      integer[],
    repeat       integer,
    duration     interval,
    transactions bigint,
    protocol     text,
    warmup       interval,
    progress     interval,
    max_tries    integer,
    tag          text,
    prewarm      boolean,
    sample_interval interval,
    run_order    text)
RETURNS jsonb
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_sweep_spec';

COMMENT ON FUNCTION bench._sweep_spec(text, integer[], integer, interval, bigint, text, interval, interval, integer, text, boolean, interval, text) IS
    'Internal: check the arguments of a sweep and return them as jsonb';

CREATE FUNCTION bench.wait_suite(suite_id bigint)
RETURNS SETOF bench.suite_summary
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_wait_suite';

COMMENT ON FUNCTION bench.wait_suite(bigint) IS
    'Wait for a suite to end, printing its runs as they go, and return its summary';

CREATE FUNCTION bench.cancel_suite(suite_id bigint)
RETURNS boolean
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_cancel_suite';

COMMENT ON FUNCTION bench.cancel_suite(bigint) IS
    'Cancel a running suite: its current run is canceled, its finished runs are kept, its status becomes canceled';

CREATE FUNCTION bench.run_schedule(name text)
RETURNS SETOF bench.suite_summary
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_run_schedule';

COMMENT ON FUNCTION bench.run_schedule(text) IS
    'One execution of a schedule (what its pg_cron job runs): a suite tagged with the schedule''s name, refused while another run or suite is running';

-- internal: one of a few fixed pg_cron statements, in pg_cron's database
CREATE FUNCTION bench._cron_call(database name, operation text, args text[] DEFAULT '{}')
RETURNS text
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_cron_call';

COMMENT ON FUNCTION bench._cron_call(name, text, text[]) IS
    'Internal: reach pg_cron in the database cron.database_name names, as the calling role';

REVOKE ALL ON FUNCTION bench.sweep(text, integer[], integer, interval, bigint, text, interval, interval, integer, text, boolean, interval, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.start_sweep(text, integer[], integer, interval, bigint, text, interval, interval, integer, text, boolean, interval, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench._sweep_spec(text, integer[], integer, interval, bigint, text, interval, interval, integer, text, boolean, interval, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.wait_suite(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.cancel_suite(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.run_schedule(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench._cron_call(name, text, text[]) FROM PUBLIC;

--
-- bench._cron_check: why a cron expression is not one pg_cron takes, or
-- NULL when it is.  pg_cron is the final judge (bench.schedule passes its
-- error on); this gives the usual mistakes a clear message first.
--
CREATE FUNCTION bench._cron_check(expr text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $fn$
DECLARE
    fields text[];
    names  text[] := ARRAY['minute', 'hour', 'day of month', 'month', 'day of week'];
    lo     int[] := ARRAY[0, 0, 1, 1, 0];
    hi     int[] := ARRAY[59, 23, 31, 12, 7];
    f      text;
    part   text;
    m      text[];
    mon    text[] := ARRAY['jan','feb','mar','apr','may','jun','jul','aug','sep','oct','nov','dec'];
    dow    text[] := ARRAY['sun','mon','tue','wed','thu','fri','sat'];
    a      numeric;
    b      numeric;
    i      int;
    k      int;
BEGIN
    IF expr IS NULL OR btrim(expr) = '' THEN
        RETURN 'it is empty';
    END IF;
    expr := lower(btrim(expr));
    IF expr IN ('@reboot', '@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly') THEN
        RETURN NULL;
    END IF;
    IF expr LIKE '@%' THEN
        RETURN 'the special schedules are @reboot, @yearly, @annually, @monthly, @weekly, @daily, @midnight and @hourly';
    END IF;
    IF expr ~ '^[0-9]+ *seconds?$' THEN
        a := substring(expr from '^([0-9]+)')::numeric;
        IF a BETWEEN 1 AND 59 THEN
            RETURN NULL;
        END IF;
        RETURN 'an interval in seconds must be between 1 and 59 seconds';
    END IF;
    fields := regexp_split_to_array(expr, '\s+');
    IF array_length(fields, 1) <> 5 THEN
        RETURN format('it has %s fields, not 5 (minute, hour, day of month, month, day of week)',
                      array_length(fields, 1));
    END IF;
    FOR i IN 1..5 LOOP
        f := fields[i];
        -- names of months and days of the week, as cron takes them
        IF i = 4 THEN
            FOR k IN 1..12 LOOP
                f := regexp_replace(f, '\m' || mon[k] || '\M', k::text, 'g');
            END LOOP;
        ELSIF i = 5 THEN
            FOR k IN 1..7 LOOP
                f := regexp_replace(f, '\m' || dow[k] || '\M', (k - 1)::text, 'g');
            END LOOP;
        END IF;
        FOREACH part IN ARRAY string_to_array(f, ',') LOOP
            IF i = 3 AND part = '$' THEN
                CONTINUE;
            END IF;
            m := regexp_match(part, '^(\*|[0-9]+(?:-[0-9]+)?)(?:/([0-9]+))?$');
            IF m IS NULL THEN
                RETURN format('the %s field "%s" is not a number, a range a-b, * or a list of them, each with an optional /step',
                              names[i], fields[i]);
            END IF;
            IF m[2] IS NOT NULL AND m[2]::numeric NOT BETWEEN 1 AND hi[i] THEN
                RETURN format('the step in the %s field "%s" must be between 1 and %s', names[i], fields[i], hi[i]);
            END IF;
            IF m[1] <> '*' THEN
                a := split_part(m[1], '-', 1)::numeric;
                b := COALESCE(NULLIF(split_part(m[1], '-', 2), ''), split_part(m[1], '-', 1))::numeric;
                IF a NOT BETWEEN lo[i] AND hi[i] OR b NOT BETWEEN lo[i] AND hi[i] THEN
                    RETURN format('the %s field "%s" must be within %s-%s', names[i], fields[i], lo[i], hi[i]);
                END IF;
                IF b < a THEN
                    RETURN format('the range in the %s field "%s" runs backwards', names[i], fields[i]);
                END IF;
            END IF;
        END LOOP;
    END LOOP;
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION bench._cron_check(text) IS
    'Internal: why a cron expression is not one pg_cron takes, or NULL when it is';

--
-- bench.schedule: a sweep (or a single run: one client count, repeat 1)
-- that pg_cron starts on a cron schedule.  Everything is checked first; the
-- pg_cron job is created last, in pg_cron's database (cron.database_name),
-- named 'pgbenchkit <database> <name>', running bench.run_schedule(name)
-- as the calling role.
--
CREATE FUNCTION bench.schedule(
    name         text,
    schedule     text,
    workload     text,
    clients      integer[] DEFAULT '{1}',
    repeat       integer  DEFAULT 1,
    duration     interval DEFAULT NULL,
    transactions bigint   DEFAULT NULL,
    protocol     text     DEFAULT 'prepared',
    warmup       interval DEFAULT '0',
    progress     interval DEFAULT '5 s',
    max_tries    integer  DEFAULT 1,
    prewarm      boolean  DEFAULT true,
    sample_interval interval DEFAULT '1 s',
    run_order    text     DEFAULT 'interleaved',
    baseline_runs integer DEFAULT 5,
    threshold    double precision DEFAULT 0.05)
RETURNS bench.schedules
LANGUAGE plpgsql VOLATILE
AS $fn$
DECLARE
    spec     jsonb;
    why      text;
    cron_db  name;
    jobname  text;
    command  text;
    job_id   bigint;
    result   bench.schedules;
BEGIN
    IF name IS NULL OR schedule IS NULL THEN
        RAISE EXCEPTION 'argument "%" of bench.schedule must not be null',
                        CASE WHEN name IS NULL THEN 'name' ELSE 'schedule' END
              USING ERRCODE = 'null_value_not_allowed',
                    HINT = 'Give the schedule a name and a cron expression, for example bench.schedule(''nightly'', ''0 3 * * *'', ''tpcb'', clients => ''{1,16,64}'').';
    END IF;
    IF name !~ '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,62}$' THEN
        RAISE EXCEPTION 'invalid schedule name "%"', name
              USING ERRCODE = 'invalid_parameter_value',
                    HINT = 'A name is 1 to 63 letters, digits, "_", ".", ":" or "-", starting with a letter or digit; it tags the scheduled runs.';
    END IF;
    why := bench._cron_check(schedule);
    IF why IS NOT NULL THEN
        RAISE EXCEPTION 'invalid cron expression "%": %', schedule, why
              USING ERRCODE = 'invalid_parameter_value',
                    HINT = 'Five fields: minute hour day-of-month month day-of-week, as pg_cron takes them; for example ''0 3 * * *'' is every day at 03:00 (in cron.timezone), ''*/30 * * * *'' every half hour.';
    END IF;
    IF baseline_runs IS NULL OR baseline_runs NOT BETWEEN 1 AND 1000 THEN
        RAISE EXCEPTION 'baseline_runs must be between 1 and 1000, not %', COALESCE(baseline_runs::text, 'null')
              USING ERRCODE = 'invalid_parameter_value',
                    HINT = 'baseline_runs is how many previous runs of the schedule the median baseline is taken over.';
    END IF;
    IF threshold IS NULL OR NOT (threshold > 0 AND threshold < 1) THEN
        RAISE EXCEPTION 'threshold must be between 0 and 1 (exclusive), not %', COALESCE(threshold::text, 'null')
              USING ERRCODE = 'invalid_parameter_value',
                    HINT = 'threshold is the fall in tps below the baseline that counts as a regression: 0.05 is 5%.';
    END IF;
    IF EXISTS (SELECT 1 FROM bench.schedules s WHERE s.name = schedule.name) THEN
        RAISE EXCEPTION 'schedule "%" already exists', name
              USING ERRCODE = 'unique_violation',
                    HINT = format('Remove it first with bench.unschedule(%L), or choose another name.', name);
    END IF;

    -- the sweep itself, checked as bench.sweep checks it
    spec := bench._sweep_spec(workload, clients, repeat, duration, transactions, protocol,
                              warmup, progress, max_tries, NULL, prewarm, sample_interval,
                              run_order);

    -- pg_cron: loaded, and its extension created where cron.database_name says
    cron_db := current_setting('cron.database_name', true);
    IF cron_db IS NULL THEN
        RAISE EXCEPTION 'pg_cron is not installed'
              USING ERRCODE = 'object_not_in_prerequisite_state',
                    HINT = 'Add pg_cron to shared_preload_libraries, restart the server, and run CREATE EXTENSION pg_cron in the database cron.database_name names (postgres by default).';
    END IF;
    IF (CASE WHEN cron_db = current_database()
             THEN (SELECT extversion FROM pg_extension WHERE extname = 'pg_cron')
             ELSE bench._cron_call(cron_db, 'version') END) IS NULL THEN
        RAISE EXCEPTION 'pg_cron is loaded but its extension does not exist in database "%"', cron_db
              USING ERRCODE = 'object_not_in_prerequisite_state',
                    HINT = format('Run CREATE EXTENSION pg_cron in database %I (cron.database_name).', cron_db);
    END IF;

    INSERT INTO bench.schedules (name, cron, workload, clients, repeat, run_order, args,
                                 search_path, baseline_runs, threshold, cron_database)
    VALUES (name, schedule, spec->>'workload',
            ARRAY(SELECT e::integer FROM jsonb_array_elements_text(spec->'clients') WITH ORDINALITY AS x(e, pos) ORDER BY pos),
            (spec->>'repeat')::integer, spec->>'run_order', spec->'args',
            spec->>'search_path', baseline_runs, threshold, cron_db);

    -- last: the job, which in another database commits on its own
    jobname := format('pgbenchkit %s %s', current_database(), name);
    command := format('SELECT * FROM bench.run_schedule(%L)', name);
    IF cron_db = current_database() THEN
        BEGIN
            EXECUTE 'SELECT cron.schedule($1, $2, $3)' INTO job_id USING jobname, schedule, command;
        EXCEPTION WHEN invalid_parameter_value OR internal_error OR data_exception THEN
            RAISE EXCEPTION 'pg_cron refused the schedule "%": %', schedule, SQLERRM
                  USING ERRCODE = 'invalid_parameter_value',
                        HINT = 'Five fields: minute hour day-of-month month day-of-week, as pg_cron takes them.';
        END;
    ELSE
        -- not in an exception block: that would be a subtransaction, and
        -- the call must see whether the caller is in a transaction block
        job_id := bench._cron_call(cron_db, 'schedule',
                                   ARRAY[jobname, schedule, command, current_database()])::bigint;
    END IF;
    UPDATE bench.schedules s SET jobid = job_id WHERE s.name = schedule.name
    RETURNING * INTO result;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION bench.schedule(text, text, text, integer[], integer, interval, bigint, text, interval, interval, integer, boolean, interval, text, integer, double precision) IS
    'Have pg_cron run a sweep (or a single run) on a cron schedule; its runs are tagged with the schedule''s name and judged against a rolling baseline';

--
-- bench.unschedule: remove a schedule and its pg_cron job.  The suites it
-- ran stay, with their schedule's name.
--
CREATE FUNCTION bench.unschedule(name text)
RETURNS boolean
LANGUAGE plpgsql VOLATILE
AS $fn$
DECLARE
    s bench.schedules;
BEGIN
    IF name IS NULL THEN
        RAISE EXCEPTION 'argument "name" of bench.unschedule must not be null'
              USING ERRCODE = 'null_value_not_allowed',
                    HINT = 'Pass the name of a schedule, as bench.schedules lists it.';
    END IF;
    DELETE FROM bench.schedules sc WHERE sc.name = unschedule.name RETURNING * INTO s;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'schedule "%" does not exist', name
              USING ERRCODE = 'undefined_object',
                    HINT = 'bench.schedules lists the schedules.';
    END IF;
    IF s.jobid IS NOT NULL AND s.cron_database <> current_database() THEN
        IF bench._cron_call(s.cron_database, 'unschedule', ARRAY[s.jobid::text]) IS NULL THEN
            RAISE NOTICE 'pg_cron job % of schedule "%" was not there to remove', s.jobid, name;
        END IF;
    ELSIF s.jobid IS NOT NULL THEN
        BEGIN
            EXECUTE 'SELECT cron.unschedule($1)' USING s.jobid;
        EXCEPTION WHEN internal_error OR undefined_function OR invalid_schema_name THEN
            -- the job was removed with cron.unschedule already, or pg_cron is gone
            RAISE NOTICE 'pg_cron job % of schedule "%" was not there to remove: %', s.jobid, name, SQLERRM;
        END;
    END IF;
    RETURN true;
END
$fn$;

COMMENT ON FUNCTION bench.unschedule(text) IS
    'Remove a schedule and its pg_cron job; the suites it ran are kept';

REVOKE ALL ON FUNCTION bench.schedule(text, text, text, integer[], integer, interval, bigint, text, interval, interval, integer, boolean, interval, text, integer, double precision) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.unschedule(text) FROM PUBLIC;

--
-- bench.schedule_status: every schedule with its last suite and result.
--
CREATE VIEW bench.schedule_status AS
SELECT sc.name, sc.cron, sc.workload, sc.clients, sc.repeat, sc.jobid, sc.cron_database,
       sc.created_by,
       (SELECT count(*) FROM bench.suites s WHERE s.schedule = sc.name) AS suites,
       (SELECT count(*) FROM bench.suites s WHERE s.schedule = sc.name AND s.status = 'done') AS done,
       (SELECT count(*) FROM bench.suites s WHERE s.schedule = sc.name AND s.status = 'refused') AS refused,
       (SELECT count(*) FROM bench.suites s WHERE s.schedule = sc.name
           AND s.status IN ('failed', 'canceled', 'aborted')) AS failed,
       l.id AS last_suite_id,
       l.status AS last_status,
       l.started_at AS last_started_at,
       l.ended_at AS last_ended_at,
       l.error AS last_error,
       (SELECT jsonb_object_agg(m.clients, round(m.tps_median::numeric, 1) ORDER BY m.position)
          FROM bench.suite_summary m WHERE m.suite_id = l.id AND m.runs_done > 0) AS last_tps,
       (SELECT bool_or(r.regression) FROM bench.schedule_results r WHERE r.suite_id = l.id) AS last_regression
  FROM bench.schedules sc
  LEFT JOIN LATERAL (SELECT s.* FROM bench.suites s WHERE s.schedule = sc.name
                      ORDER BY s.started_at DESC, s.id DESC LIMIT 1) l ON true;

COMMENT ON VIEW bench.schedule_status IS
    'Every schedule with how often it ran, was refused or failed, and its last suite: status, tps per client count, regression';
GRANT SELECT ON bench.schedule_status TO PUBLIC;
