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
    name            text        PRIMARY KEY
                    CHECK (name ~ '^[A-Za-z0-9_][A-Za-z0-9_.-]*$' AND length(name) < 64),
    dataset         text,
    scripts         text[]      NOT NULL
                    CHECK (array_ndims(scripts) = 1 AND array_lower(scripts, 1) = 1
                           AND cardinality(scripts) BETWEEN 1 AND 128
                           AND array_position(scripts, NULL) IS NULL),
    weights         integer[]   NOT NULL
                    CHECK (array_ndims(weights) = 1 AND array_lower(weights, 1) = 1
                           AND array_position(weights, NULL) IS NULL
                           AND 0 <= ALL (weights)),
    description     text        NOT NULL,
    builtin         boolean     NOT NULL DEFAULT false,
    defined_by      name        NOT NULL DEFAULT current_user,
    defined_at      timestamptz NOT NULL DEFAULT now(),
    CHECK (cardinality(weights) = cardinality(scripts))
);

COMMENT ON TABLE bench.workloads IS
    'Workloads bench.run knows: the scripts its clients run (in pgbench''s script language) with their weights, and the dataset they need';

INSERT INTO bench.workloads (name, dataset, scripts, weights, description, builtin, defined_by) VALUES
('tpcb', 'tpcb',
ARRAY[$script$-- <builtin: TPC-B (sort of)>
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
$script$], '{1}', 'pgbench''s tpcb-like script (pgbench -b tpcb-like, the default)', true, current_user),
('simple-update', 'tpcb',
ARRAY[$script$-- <builtin: simple update>
\set aid random(1, 100000 * :scale)
\set bid random(1, 1 * :scale)
\set tid random(1, 10 * :scale)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
$script$], '{1}', 'pgbench''s simple-update script (pgbench -N)', true, current_user),
('select-only', 'tpcb',
ARRAY[$script$-- <builtin: select only>
\set aid random(1, 100000 * :scale)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
$script$], '{1}', 'pgbench''s select-only script (pgbench -S)', true, current_user);

SELECT pg_catalog.pg_extension_config_dump('bench.workloads', 'WHERE NOT builtin');
GRANT SELECT ON bench.workloads TO PUBLIC;

--
-- bench.workload_scripts: each script of each workload on a row of its own,
-- readable as pgbench --show-script prints it.
--
CREATE VIEW bench.workload_scripts AS
SELECT w.name AS workload, s.n::integer AS script_no, w.weights[s.n] AS weight,
       s.script, w.builtin
  FROM bench.workloads w,
       LATERAL unnest(w.scripts) WITH ORDINALITY AS s(script, n);

COMMENT ON VIEW bench.workload_scripts IS
    'The scripts of every workload, one row each, numbered from 1 as pgbench numbers them, with their weights';
GRANT SELECT ON bench.workload_scripts TO PUBLIC;

--
-- bench.define_workload, bench.drop_workload: custom workloads.
--
CREATE FUNCTION bench.define_workload(
    name         text,
    scripts      text[],
    weights      integer[] DEFAULT NULL,
    description  text     DEFAULT NULL,
    dataset      text     DEFAULT NULL,
    replace      boolean  DEFAULT false)
RETURNS bench.workloads
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_define_workload';

COMMENT ON FUNCTION bench.define_workload(text, text[], integer[], text, text, boolean) IS
    'Define a workload of several scripts with weights (pgbench -f a@5 -f b@1); every script is checked now';

CREATE FUNCTION bench.define_workload(
    name         text,
    script       text,
    description  text     DEFAULT NULL,
    dataset      text     DEFAULT NULL,
    replace      boolean  DEFAULT false)
RETURNS bench.workloads
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT bench.define_workload(name, ARRAY[script], NULL::integer[], description, dataset, replace)
$fn$;

COMMENT ON FUNCTION bench.define_workload(text, text, text, text, boolean) IS
    'Define a workload of one script in pgbench''s script language; the script is checked now';

CREATE FUNCTION bench.drop_workload(name text, if_exists boolean DEFAULT false)
RETURNS boolean
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_drop_workload';

COMMENT ON FUNCTION bench.drop_workload(text, boolean) IS
    'Drop a custom workload; runs keep the scripts they ran';

REVOKE ALL ON FUNCTION bench.define_workload(text, text[], integer[], text, text, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.define_workload(text, text, text, text, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.drop_workload(text, boolean) FROM PUBLIC;

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
    origin                  jsonb,
    rate                    double precision,
    latency_limit           interval,
    random_seed             bigint,
    variables               jsonb,
    skipped                 bigint,
    late                    bigint,
    lag_avg_ms              double precision,
    lag_max_ms              double precision
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

--
-- bench.run_scripts: the scripts each run ran, with their weights, and
-- what each one measured (pgbench -r's "SQL script N" lines).
--
CREATE TABLE bench.run_scripts (
    run_id          bigint      NOT NULL REFERENCES bench.runs (id) ON DELETE CASCADE,
    script_no       integer     NOT NULL,
    weight          integer     NOT NULL,
    script          text        NOT NULL,
    transactions    bigint,
    latency_avg_ms  double precision,
    failures        bigint,
    skipped         bigint,
    PRIMARY KEY (run_id, script_no)
);

COMMENT ON TABLE bench.run_scripts IS
    'The scripts of each run (numbered from 1) with their weights, transactions, average latency and failures in the measured phase';

--
-- bench.command_latencies: per-command latencies of each run, as pgbench -r
-- reports them: every command of every script, SQL and meta-commands.
--
CREATE TABLE bench.command_latencies (
    run_id          bigint      NOT NULL,
    script_no       integer     NOT NULL,
    command_no      integer     NOT NULL,
    line            integer     NOT NULL,
    command         text        NOT NULL,
    executions      bigint      NOT NULL,
    latency_avg_ms  double precision,
    failures        bigint      NOT NULL,
    retries         bigint      NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, script_no, command_no),
    FOREIGN KEY (run_id, script_no) REFERENCES bench.run_scripts (run_id, script_no) ON DELETE CASCADE
);

COMMENT ON TABLE bench.command_latencies IS
    'Per-command latencies of each run in its measured phase (pgbench -r): executions, average latency, failures, retries';

SELECT pg_catalog.pg_extension_config_dump('bench.run_scripts', '');
SELECT pg_catalog.pg_extension_config_dump('bench.command_latencies', '');
GRANT SELECT ON bench.run_scripts, bench.command_latencies TO PUBLIC;

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
    workload     text     DEFAULT NULL,
    clients      integer  DEFAULT 1,
    duration     interval DEFAULT NULL,
    transactions bigint   DEFAULT NULL,
    protocol     text     DEFAULT 'prepared',
    warmup       interval DEFAULT '0',
    progress     interval DEFAULT '5 s',
    max_tries    integer  DEFAULT 1,
    tag          text     DEFAULT NULL,
    prewarm      boolean  DEFAULT true,
    sample_interval interval DEFAULT '1 s',
    script       text     DEFAULT NULL,
    rate         double precision DEFAULT NULL,
    latency_limit interval DEFAULT NULL,
    random_seed  bigint   DEFAULT NULL,
    variables    jsonb    DEFAULT NULL)
RETURNS bench.runs
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_run';

COMMENT ON FUNCTION bench.run(text, integer, interval, bigint, text, interval, interval, integer, text, boolean, interval, text, double precision, interval, bigint, jsonb) IS
    'Run a workload with background-worker clients; wait for it, print progress, return its row of bench.runs';

CREATE FUNCTION bench.start(
    workload     text     DEFAULT NULL,
    clients      integer  DEFAULT 1,
    duration     interval DEFAULT NULL,
    transactions bigint   DEFAULT NULL,
    protocol     text     DEFAULT 'prepared',
    warmup       interval DEFAULT '0',
    progress     interval DEFAULT '5 s',
    max_tries    integer  DEFAULT 1,
    tag          text     DEFAULT NULL,
    prewarm      boolean  DEFAULT true,
    sample_interval interval DEFAULT '1 s',
    script       text     DEFAULT NULL,
    rate         double precision DEFAULT NULL,
    latency_limit interval DEFAULT NULL,
    random_seed  bigint   DEFAULT NULL,
    variables    jsonb    DEFAULT NULL)
RETURNS bigint
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_start';

COMMENT ON FUNCTION bench.start(text, integer, interval, bigint, text, interval, interval, integer, text, boolean, interval, text, double precision, interval, bigint, jsonb) IS
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

REVOKE ALL ON FUNCTION bench.run(text, integer, interval, bigint, text, interval, interval, integer, text, boolean, interval, text, double precision, interval, bigint, jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.start(text, integer, interval, bigint, text, interval, interval, integer, text, boolean, interval, text, double precision, interval, bigint, jsonb) FROM PUBLIC;
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
        'scripts', COALESCE((
            SELECT jsonb_agg(jsonb_build_object(
                       'script_no', rs.script_no, 'weight', rs.weight,
                       'weight_pct', round(100.0 * rs.weight / NULLIF(rs.total_weight, 0), 1),
                       'name', COALESCE(substring(rs.script FROM '^-- (<builtin: [^>]*>)'),
                                        CASE WHEN rs.nscripts = 1 THEN r.workload
                                             ELSE format('%s script %s', r.workload, rs.script_no) END),
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
                                      'failures', cl.failures, 'retries', cl.retries) ORDER BY cl.command_no)
                             FROM bench.command_latencies cl
                            WHERE cl.run_id = rs.run_id AND cl.script_no = rs.script_no), '[]'::jsonb))
                       ORDER BY rs.script_no)
              FROM (SELECT q.*, sum(q.weight) OVER () AS total_weight, count(*) OVER () AS nscripts
                      FROM bench.run_scripts q WHERE q.run_id = r.id) rs), '[]'::jsonb),
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

--
-- Charts: SVG drawn in SQL
--
--
-- Charts: a run, a suite or a schedule drawn as a standalone SVG document,
-- made in SQL from the tables above, to be saved with psql:
--
--   \pset format unaligned
--   \pset tuples_only on
--   \o run42.svg
--   SELECT bench.chart_run(42);
--   \o
--
-- The bench._svg_* functions are the drawing kit they share: internal, not
-- part of the interface.  The small ones are LANGUAGE sql without a SET
-- clause so that the planner inlines them (they are called once per point),
-- and name only pg_catalog functions; the others pin search_path as every
-- function of the extension does.  The install script is kept ASCII: what
-- needs another character in the picture is written as an XML character
-- reference.
--

--
-- bench._svg_escape: text made safe for an XML text node or attribute
-- value; control characters (not allowed in XML 1.0) become spaces.
--
CREATE FUNCTION bench._svg_escape(t text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(
           pg_catalog.regexp_replace(t, E'[\\x01-\\x1f]', ' ', 'g'),
           '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;')
$fn$;

COMMENT ON FUNCTION bench._svg_escape(text) IS
    'Internal (charts): text escaped for XML';

--
-- bench._svg_num: a coordinate or length, to 0.1 px, without trailing
-- zeros ("12", "12.5").
--
CREATE FUNCTION bench._svg_num(v double precision)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT pg_catalog.trim_scale(pg_catalog.round(v::numeric, 1))::text
$fn$;

COMMENT ON FUNCTION bench._svg_num(double precision) IS
    'Internal (charts): a number rounded to 0.1 as compact text';

--
-- bench._svg_text: a <text> element at (x, y); body is markup (escape text
-- with bench._svg_escape first), attrs more attributes.
--
CREATE FUNCTION bench._svg_text(x double precision, y double precision, body text,
                                           attrs text DEFAULT '')
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT '<text x="' || bench._svg_num(x) || '" y="' || bench._svg_num(y) || '"'
       || CASE WHEN attrs = '' THEN '' ELSE ' ' || attrs END
       || '>' || body || '</text>'
$fn$;

COMMENT ON FUNCTION bench._svg_text(double precision, double precision, text, text) IS
    'Internal (charts): an SVG text element';

--
-- bench._svg_fit: text cut to what fits in px pixels at a font size (an
-- estimate: the average glyph of a sans-serif font is about 0.6 em wide),
-- with "..." where it was cut.
--
CREATE FUNCTION bench._svg_fit(t text, px double precision, size double precision)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT CASE WHEN pg_catalog.length(t) * size * 0.6 <= px THEN t
            ELSE pg_catalog.rtrim(pg_catalog.left(t, GREATEST(pg_catalog.floor(px / (size * 0.6))::integer - 3, 1)))
                 || '...' END
$fn$;

COMMENT ON FUNCTION bench._svg_fit(text, double precision, double precision) IS
    'Internal (charts): text shortened to fit a width in pixels';

--
-- bench._svg_check_size: the checks of width and height every chart makes.
--
CREATE FUNCTION bench._svg_check_size(fn text, width integer, height integer)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF width IS NULL OR height IS NULL THEN
        RAISE EXCEPTION 'argument "%" of % must not be null',
                        CASE WHEN width IS NULL THEN 'width' ELSE 'height' END, fn
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Leave the argument out to use its default.';
    END IF;
    IF width NOT BETWEEN 200 AND 4000 OR height NOT BETWEEN 200 AND 4000 THEN
        RAISE EXCEPTION '% must be between 200 and 4000 pixels, not %',
                        CASE WHEN width NOT BETWEEN 200 AND 4000 THEN 'width' ELSE 'height' END,
                        CASE WHEN width NOT BETWEEN 200 AND 4000 THEN width ELSE height END
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'width and height are the size of the picture in pixels; the defaults are 900 and 560.';
    END IF;
END
$fn$;

COMMENT ON FUNCTION bench._svg_check_size(text, integer, integer) IS
    'Internal (charts): refuses a NULL or out-of-range picture size';

--
-- bench._svg_ticks: "nice" axis ticks covering lo..hi in at most n steps,
-- as many as fit, each step 1, 2 or 5 times a power of ten.  The first and
-- last elements are the ends of the axis (lo rounded down, hi up, to the
-- step).  An empty or unknown range still gives an axis: 0..1 for
-- nothing, +-10% around a single value.
--
CREATE FUNCTION bench._svg_ticks(lo double precision, hi double precision, n integer)
RETURNS double precision[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    mag     double precision;
    m       double precision;
    step    double precision;
    first   double precision;
    last    double precision;
    tmp     double precision;
BEGIN
    -- NaN and the infinities are no range to draw
    IF lo IS NULL OR lo <> lo OR abs(lo) = 'Infinity' THEN
        lo := NULL;
    END IF;
    IF hi IS NULL OR hi <> hi OR abs(hi) = 'Infinity' THEN
        hi := NULL;
    END IF;
    lo := COALESCE(lo, LEAST(hi, 0), 0);
    hi := COALESCE(hi, lo + 1);
    IF hi < lo THEN
        tmp := lo; lo := hi; hi := tmp;
    END IF;
    IF hi = lo THEN
        IF lo = 0 THEN
            hi := 1;
        ELSE
            lo := lo - abs(lo) * 0.1;
            hi := hi + abs(hi) * 0.1;
        END IF;
    END IF;
    n := GREATEST(n, 1);
    -- the smallest step that needs no more than n: from the power of ten
    -- under (hi - lo) / n up.  A value a hair past a round number (a last
    -- interval that ended at 20.005 s) counts as on it: up to 1% of a step.
    mag := power(10::double precision, floor(log((hi - lo) / n)));
    FOREACH m IN ARRAY ARRAY[1, 2, 5, 10, 20, 50]::double precision[] LOOP
        step := mag * m;
        first := floor(lo / step + 0.01) * step;
        last := ceil(hi / step - 0.01) * step;
        IF last <= first THEN
            last := first + step;
        END IF;
        EXIT WHEN round((last - first) / step) <= n;
    END LOOP;
    RETURN ARRAY(SELECT first + i * step
                   FROM generate_series(0, round((last - first) / step)::integer) i);
END
$fn$;

COMMENT ON FUNCTION bench._svg_ticks(double precision, double precision, integer) IS
    'Internal (charts): nice axis ticks (1-2-5 steps) covering a range';

--
-- bench._svg_tick_label: an axis value written with as many decimals as
-- the step between ticks needs; from a step of 1000 on in thousands ("5k"),
-- from 1000000 on in millions ("2M"); zero as "0".
--
CREATE FUNCTION bench._svg_tick_label(v double precision, step double precision)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT CASE WHEN pg_catalog.abs(v) < step * 1e-6 THEN '0'
            WHEN step >= 1e6
            THEN pg_catalog.round((v / 1e6)::numeric,
                     GREATEST(0, pg_catalog.ceil(-pg_catalog.log(step / 1e6) - 1e-6))::integer)::text || 'M'
            WHEN step >= 1e3
            THEN pg_catalog.round((v / 1e3)::numeric,
                     GREATEST(0, pg_catalog.ceil(-pg_catalog.log(step / 1e3) - 1e-6))::integer)::text || 'k'
            ELSE pg_catalog.round(v::numeric,
                     GREATEST(0, pg_catalog.ceil(-pg_catalog.log(step) - 1e-6))::integer)::text
       END
$fn$;

COMMENT ON FUNCTION bench._svg_tick_label(double precision, double precision) IS
    'Internal (charts): an axis tick value as a label';

--
-- bench._svg_tick_labels: the labels of ticks made by bench._svg_ticks.
--
CREATE FUNCTION bench._svg_tick_labels(ticks double precision[])
RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT pg_catalog.array_agg(bench._svg_tick_label(t.v, ticks[2] - ticks[1]) ORDER BY t.i)
  FROM pg_catalog.unnest(ticks) WITH ORDINALITY AS t (v, i)
$fn$;

COMMENT ON FUNCTION bench._svg_tick_labels(double precision[]) IS
    'Internal (charts): labels of axis ticks';

--
-- bench._svg_time_ticks: ticks of a time axis from lo to hi, about n of
-- them, at round times of the session's time zone (every 5 minutes, 6
-- hours, 1 day, 1 month...).  A label has two lines: the time in the
-- step's unit, and under it the date (or year), on the first tick and
-- where it changes.
--
CREATE FUNCTION bench._svg_time_ticks(lo timestamptz, hi timestamptz, n integer,
                                                 OUT ticks timestamptz[], OUT labels text[])
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    steps   constant interval[] := ARRAY[
                '1 s', '2 s', '5 s', '10 s', '15 s', '30 s',
                '1 min', '2 min', '5 min', '10 min', '15 min', '30 min',
                '1 hour', '2 hours', '3 hours', '6 hours', '12 hours',
                '1 day', '2 days', '7 days', '14 days',
                '1 mon', '2 mons', '3 mons', '6 mons',
                '1 year', '2 years', '5 years', '10 years']::interval[];
    span    double precision := extract(epoch FROM hi - lo);
    step    interval;
    start   timestamptz;
    t       timestamptz;
    k       integer := 0;
    fmt1    text;
    fmt2    text;
    line2   text;
    prev2   text;
BEGIN
    ticks := '{}';
    labels := '{}';
    -- the smallest step that gives no more than n ticks
    FOREACH step IN ARRAY steps LOOP
        EXIT WHEN span / extract(epoch FROM step) <= GREATEST(n, 1);
    END LOOP;
    IF step < '1 min' THEN
        start := date_trunc('minute', lo); fmt1 := 'HH24:MI:SS'; fmt2 := 'YYYY-MM-DD';
    ELSIF step < '1 hour' THEN
        start := date_trunc('hour', lo); fmt1 := 'HH24:MI'; fmt2 := 'YYYY-MM-DD';
    ELSIF step < '1 day' THEN
        start := date_trunc('day', lo); fmt1 := 'HH24:MI'; fmt2 := 'YYYY-MM-DD';
    ELSIF step < '7 days' THEN
        start := date_trunc('day', lo); fmt1 := 'Mon FMDD'; fmt2 := 'YYYY';
    ELSIF step < '1 mon' THEN
        start := date_trunc('week', lo); fmt1 := 'Mon FMDD'; fmt2 := 'YYYY';
    ELSIF step < '1 year' THEN
        start := date_trunc('year', lo); fmt1 := 'Mon'; fmt2 := 'YYYY';
    ELSE
        start := date_trunc('decade', lo); fmt1 := 'YYYY'; fmt2 := NULL;
    END IF;
    LOOP
        t := start + step * k;
        EXIT WHEN t > hi OR k > 1000;
        k := k + 1;
        CONTINUE WHEN t < lo;
        line2 := to_char(t, fmt2);
        ticks := ticks || t;
        labels := labels || (to_char(t, fmt1)
                             || CASE WHEN line2 IS DISTINCT FROM prev2 THEN E'\n' || line2 ELSE '' END);
        prev2 := line2;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION bench._svg_time_ticks(timestamptz, timestamptz, integer) IS
    'Internal (charts): ticks and labels of a time axis';

--
-- bench._svg_open: the start of a chart: the svg element, a title for
-- screen readers and tooltips, and the white background.
--
CREATE FUNCTION bench._svg_open(width integer, height integer, title text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT pg_catalog.format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s"'
                         ' font-family="Helvetica, Arial, sans-serif">', width, height, width, height)
       || E'\n<title>' || bench._svg_escape(title) || '</title>'
       || pg_catalog.format(E'\n<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>', width, height)
$fn$;

COMMENT ON FUNCTION bench._svg_open(integer, integer, text) IS
    'Internal (charts): the opening of an SVG document with a white background';

--
-- bench._svg_heading: the title (bold) and the subtitle (grey) of a chart,
-- each cut to the width.
--
CREATE FUNCTION bench._svg_heading(width integer, title text, subtitle text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT bench._svg_text(16, 24, bench._svg_escape(bench._svg_fit(title, width - 32, 16)),
                       'class="title" font-size="16" font-weight="bold" fill="#222222"')
       || CASE WHEN subtitle IS NULL THEN '' ELSE E'\n'
          || bench._svg_text(16, 42, bench._svg_escape(bench._svg_fit(subtitle, width - 32, 12)),
                             'class="subtitle" font-size="12" fill="#555555"') END
$fn$;

COMMENT ON FUNCTION bench._svg_heading(integer, text, text) IS
    'Internal (charts): title and subtitle of a chart';

--
-- bench._svg_panel: the frame of a plot: its grid lines at the ticks, the
-- tick labels, the border and the y axis title (written upwards, left of
-- the tick labels).  The plot is the rectangle l, t, w, h in pixels; x
-- runs from xlo to xhi, y over its ticks.  x labels may be NULL (a panel
-- sharing the x axis of the one below); a label with a newline gets a
-- second, smaller line.  An x tick with a NULL label gets its grid line
-- only.
--
CREATE FUNCTION bench._svg_panel(
    l double precision, t double precision, w double precision, h double precision,
    xlo double precision, xhi double precision, xticks double precision[], xlabels text[],
    yticks double precision[], ylabels text[], ytitle text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    ylo     double precision := yticks[1];
    yhi     double precision := yticks[cardinality(yticks)];
    o       text[] := '{}';
    x       double precision;
    y       double precision;
    lab     text;
BEGIN
    o := o || '<g class="panel">'::text;
    -- grid
    o := o || '<g stroke="#e4e4e4" stroke-width="1" shape-rendering="crispEdges">'::text;
    FOR i IN 1 .. COALESCE(cardinality(yticks), 0) LOOP
        y := t + h - (yticks[i] - ylo) / NULLIF(yhi - ylo, 0) * h;
        CONTINUE WHEN y IS NULL;
        o := o || format('<line x1="%s" y1="%s" x2="%s" y2="%s"/>',
                         bench._svg_num(l), bench._svg_num(y), bench._svg_num(l + w), bench._svg_num(y));
    END LOOP;
    FOR i IN 1 .. COALESCE(cardinality(xticks), 0) LOOP
        CONTINUE WHEN xticks[i] < xlo OR xticks[i] > xhi;
        x := l + (xticks[i] - xlo) / NULLIF(xhi - xlo, 0) * w;
        CONTINUE WHEN x IS NULL;
        o := o || format('<line x1="%s" y1="%s" x2="%s" y2="%s"/>',
                         bench._svg_num(x), bench._svg_num(t), bench._svg_num(x), bench._svg_num(t + h));
    END LOOP;
    o := o || '</g>'::text;
    -- border
    o := o || format('<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="#999999" shape-rendering="crispEdges"/>',
                     bench._svg_num(l), bench._svg_num(t), bench._svg_num(w), bench._svg_num(h));
    -- y tick labels, right-aligned left of the plot
    o := o || '<g font-size="11" fill="#333333" text-anchor="end">'::text;
    FOR i IN 1 .. COALESCE(cardinality(yticks), 0) LOOP
        y := t + h - (yticks[i] - ylo) / NULLIF(yhi - ylo, 0) * h;
        CONTINUE WHEN y IS NULL OR ylabels[i] IS NULL;
        o := o || bench._svg_text(l - 6, y + 4, bench._svg_escape(ylabels[i]));
    END LOOP;
    o := o || '</g>'::text;
    -- x tick labels, centered under their tick
    IF xlabels IS NOT NULL THEN
        o := o || '<g font-size="11" fill="#333333" text-anchor="middle">'::text;
        FOR i IN 1 .. COALESCE(cardinality(xticks), 0) LOOP
            CONTINUE WHEN xticks[i] < xlo OR xticks[i] > xhi OR xlabels[i] IS NULL;
            x := l + (xticks[i] - xlo) / NULLIF(xhi - xlo, 0) * w;
            CONTINUE WHEN x IS NULL;
            lab := bench._svg_escape(split_part(xlabels[i], E'\n', 1));
            IF strpos(xlabels[i], E'\n') > 0 THEN
                lab := lab || format('<tspan x="%s" dy="13" font-size="10" fill="#666666">%s</tspan>',
                                     bench._svg_num(x), bench._svg_escape(split_part(xlabels[i], E'\n', 2)));
            END IF;
            o := o || bench._svg_text(x, t + h + 15, lab);
        END LOOP;
        o := o || '</g>'::text;
    END IF;
    -- y axis title
    IF ytitle IS NOT NULL THEN
        o := o || bench._svg_text(16, t + h / 2, bench._svg_escape(bench._svg_fit(ytitle, h + 16, 12)),
                                  format('class="axis-title" font-size="12" fill="#222222" text-anchor="middle" transform="rotate(-90 16 %s)"',
                                         bench._svg_num(t + h / 2)));
    END IF;
    o := o || '</g>'::text;
    RETURN array_to_string(o, E'\n');
END
$fn$;

COMMENT ON FUNCTION bench._svg_panel(double precision, double precision, double precision, double precision,
                                     double precision, double precision, double precision[], text[],
                                     double precision[], text[], text) IS
    'Internal (charts): grid, border, tick labels and y title of a plot';

--
-- bench._svg_legend: a legend laid out in rows from (x, y), wrapping at
-- maxw pixels; returns the markup and the height it took, or nothing when
-- it would take more than maxh (a small picture keeps its room for the
-- data; the series have their names on the axes).  Each entry is a
-- kind of glyph, a colour and a label; the kinds: line, linepoint, point,
-- hollow (an open circle), band (a translucent box, as the charts shade
-- spans of time or value), dash (a dashed line), errorbar.
--
CREATE FUNCTION bench._svg_legend(x double precision, y double precision,
                                             maxw double precision, maxh double precision,
                                             kinds text[], colours text[], labels text[],
                                             OUT svg text, OUT height double precision)
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    cx      double precision := x;
    cy      double precision := y;
    iw      double precision;
    mid     double precision;
    c       text;
    o       text[] := ARRAY['<g class="legend" font-size="12" fill="#222222">'];
BEGIN
    IF COALESCE(cardinality(kinds), 0) = 0 THEN
        svg := '';
        height := 0;
        RETURN;
    END IF;
    FOR i IN 1 .. cardinality(kinds) LOOP
        iw := 24 + length(labels[i]) * 6.2;
        IF cx > x AND cx + iw > x + maxw THEN
            cx := x;
            cy := cy + 18;
        END IF;
        mid := cy + 9;
        c := colours[i];
        o := o || CASE kinds[i]
            WHEN 'line' THEN
                format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"/>',
                       bench._svg_num(cx), bench._svg_num(mid), bench._svg_num(cx + 18), bench._svg_num(mid), c)
            WHEN 'linepoint' THEN
                format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"/><circle cx="%s" cy="%s" r="3.5" fill="%s"/>',
                       bench._svg_num(cx), bench._svg_num(mid), bench._svg_num(cx + 18), bench._svg_num(mid), c,
                       bench._svg_num(cx + 9), bench._svg_num(mid), c)
            WHEN 'point' THEN
                format('<circle cx="%s" cy="%s" r="4.5" fill="%s"/>', bench._svg_num(cx + 9), bench._svg_num(mid), c)
            WHEN 'hollow' THEN
                format('<circle cx="%s" cy="%s" r="4" fill="#ffffff" stroke="%s" stroke-width="1.5"/>',
                       bench._svg_num(cx + 9), bench._svg_num(mid), c)
            WHEN 'band' THEN
                format('<rect x="%s" y="%s" width="18" height="12" fill="%s" fill-opacity="0.2" stroke="%s" stroke-opacity="0.5"/>',
                       bench._svg_num(cx), bench._svg_num(mid - 6), c, c)
            WHEN 'dash' THEN
                format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.2" stroke-dasharray="4,3"/>',
                       bench._svg_num(cx), bench._svg_num(mid), bench._svg_num(cx + 18), bench._svg_num(mid), c)
            WHEN 'errorbar' THEN
                format('<path d="M%s %sV%sM%s %sH%sM%s %sH%s" stroke="%s" stroke-width="1.2" fill="none"/>',
                       bench._svg_num(cx + 9), bench._svg_num(mid - 7), bench._svg_num(mid + 7),
                       bench._svg_num(cx + 5), bench._svg_num(mid - 7), bench._svg_num(cx + 13),
                       bench._svg_num(cx + 5), bench._svg_num(mid + 7), bench._svg_num(cx + 13), c)
            END;
        o := o || bench._svg_text(cx + 24, mid + 4, bench._svg_escape(labels[i]));
        cx := cx + iw + 16;
    END LOOP;
    o := o || '</g>'::text;
    svg := array_to_string(o, E'\n');
    height := cy - y + 18;
    IF height > maxh THEN
        svg := '';
        height := 0;
    END IF;
END
$fn$;

COMMENT ON FUNCTION bench._svg_legend(double precision, double precision, double precision, double precision,
                                      text[], text[], text[]) IS
    'Internal (charts): a legend in rows';

--
-- bench._svg_no_data: the note centered at (cx, cy) that a plot has
-- nothing to show, and why.
--
CREATE FUNCTION bench._svg_no_data(cx double precision, cy double precision, reason text DEFAULT NULL)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT bench._svg_text(cx, cy + 5, 'no data',
                       'class="no-data" font-size="16" fill="#777777" text-anchor="middle"')
       || CASE WHEN reason IS NULL THEN '' ELSE E'\n'
          || bench._svg_text(cx, cy + 23, bench._svg_escape(reason),
                             'font-size="12" fill="#777777" text-anchor="middle"') END
$fn$;

COMMENT ON FUNCTION bench._svg_no_data(double precision, double precision, text) IS
    'Internal (charts): a centered "no data" note';

--
-- bench.chart_run: throughput and p99 latency of one run over time, as two
-- panels over one elapsed-time axis: a point per progress interval, at the
-- interval's end.  Warm-up intervals are shaded grey; stalls (intervals
-- under 10% of the median tps of the measured intervals) red; checkpoints
-- are dashed lines where the checkpoint counters of the run's samples went
-- up (at the sample that saw it: within one sample_interval after it
-- started).
--
CREATE FUNCTION bench.chart_run(run_id bigint, width integer DEFAULT 900, height integer DEFAULT 560)
RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    tps_colour  constant text := '#1f77b4';
    p99_colour  constant text := '#ff7f0e';
    stall_colour constant text := '#d62728';
    warm_colour constant text := '#888888';
    ck_colour   constant text := '#555555';
    r           bench.runs;
    n           integer;            -- progress intervals
    xmax        double precision;   -- elapsed at the end of the last one
    tps_max     double precision;
    p99_max     double precision;
    warm_end    double precision;   -- elapsed at the end of the warm-up
    med         double precision;   -- median tps of the measured intervals
    stall_below double precision;   -- tps under which an interval is a stall
    nstalls     integer;
    ck_at       double precision[]; -- elapsed of the samples that saw checkpoints
    ck_n        bigint[];           -- and how many
    kinds       text[] := ARRAY['line', 'line'];
    colours     text[] := ARRAY[tps_colour, p99_colour];
    names       text[] := ARRAY['tps', 'p99 latency'];
    lg          record;
    sub         text[] := '{}';
    -- layout, in pixels: two panels of height ph, the tps one above
    pl          constant double precision := 72;
    pw          double precision := width - 72 - 24;
    top1        double precision;
    bot1        double precision;
    top2        double precision;
    bot2        double precision;
    ph          double precision;
    xt          double precision[];
    yt1         double precision[];
    yt2         double precision[];
    -- data to pixels: x = ax + bx * elapsed, y = ayN + byN * value
    ax          constant double precision := 72;
    bx          double precision;
    ay1         double precision;
    by1         double precision;
    ay2         double precision;
    by2         double precision;
    x           double precision;
    last_label  double precision := '-Infinity';
    o           text[];
BEGIN
    IF chart_run.run_id IS NULL THEN
        RAISE EXCEPTION 'argument "run_id" of bench.chart_run must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the id of a run, as bench.runs lists them.';
    END IF;
    PERFORM bench._svg_check_size('bench.chart_run', width, height);
    SELECT * INTO r FROM bench.runs WHERE id = chart_run.run_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'run % does not exist', chart_run.run_id
            USING ERRCODE = 'no_data_found',
                  HINT = 'bench.runs lists the runs.';
    END IF;

    -- the intervals; the median is of the measured ones (of all when the
    -- run never left its warm-up)
    SELECT count(*), max(p.elapsed_s), max(p.tps), max(p.latency_p99_ms),
           max(p.elapsed_s) FILTER (WHERE p.in_warmup),
           COALESCE(percentile_cont(0.5) WITHIN GROUP (ORDER BY p.tps) FILTER (WHERE NOT p.in_warmup),
                    percentile_cont(0.5) WITHIN GROUP (ORDER BY p.tps))
      INTO n, xmax, tps_max, p99_max, warm_end, med
      FROM bench.progress p
     WHERE p.run_id = r.id;
    stall_below := CASE WHEN med > 0 THEN med * 0.1 END;
    SELECT count(*) INTO nstalls
      FROM bench.progress p
     WHERE p.run_id = r.id AND p.tps < stall_below;

    -- checkpoints: the samples whose timed + requested count went up
    SELECT COALESCE(array_agg(c.elapsed_s ORDER BY c.sample_no), '{}'),
           COALESCE(array_agg(c.n ORDER BY c.sample_no), '{}')
      INTO ck_at, ck_n
      FROM (SELECT s.sample_no, s.elapsed_s,
                   s.checkpoints_timed + s.checkpoints_requested
                   - lag(s.checkpoints_timed + s.checkpoints_requested) OVER (ORDER BY s.sample_no) AS n
              FROM bench.sample_counters s
             WHERE s.run_id = r.id) c
     WHERE c.n > 0;

    -- without intervals, the time axis spans the samples (or the run)
    IF n = 0 THEN
        SELECT max(s.elapsed_s) INTO xmax FROM bench.samples s WHERE s.run_id = r.id;
        xmax := COALESCE(xmax, r.measured_s);
    END IF;
    IF xmax IS NULL OR NOT xmax > 0 THEN
        xmax := 1;
    END IF;

    IF warm_end IS NOT NULL THEN
        kinds := kinds || 'band'::text; colours := colours || warm_colour; names := names || 'warm-up'::text;
    END IF;
    IF nstalls > 0 THEN
        kinds := kinds || 'band'::text; colours := colours || stall_colour;
        names := names || 'stall (under 10% of the median tps)'::text;
    END IF;
    IF cardinality(ck_at) > 0 THEN
        kinds := kinds || 'dash'::text; colours := colours || ck_colour; names := names || 'checkpoint'::text;
    END IF;

    -- layout: heading, legend, room for the checkpoint labels, the two
    -- panels 18 px apart, the x tick labels and the x title under them
    lg := bench._svg_legend(pl, 52, pw, GREATEST(18, (height - 120) * 0.2), kinds, colours, names);
    top1 := 52 + lg.height + 20;
    ph := GREATEST((height - 46 - top1 - 18) / 2, 10);
    bot1 := top1 + ph;
    top2 := bot1 + 18;
    bot2 := top2 + ph;
    xt := bench._svg_ticks(0, xmax, GREATEST(2, LEAST(10, floor(pw / 80)::integer)));
    yt1 := bench._svg_ticks(0, tps_max * 1.02, GREATEST(2, LEAST(6, floor(ph / 20)::integer)));
    yt2 := bench._svg_ticks(0, p99_max * 1.02, GREATEST(2, LEAST(6, floor(ph / 20)::integer)));
    bx := pw / xt[cardinality(xt)];
    by1 := -ph / (yt1[cardinality(yt1)] - yt1[1]);
    ay1 := bot1 - by1 * yt1[1];
    by2 := -ph / (yt2[cardinality(yt2)] - yt2[1]);
    ay2 := bot2 - by2 * yt2[1];

    sub := sub || (r.status || ', started ' || to_char(r.started_at, 'YYYY-MM-DD HH24:MI:SS'));
    sub := sub || CASE WHEN r.transactions_per_client IS NOT NULL
                       THEN r.transactions_per_client || ' transactions per client'
                       ELSE bench._svg_num(extract(epoch FROM r.duration)::double precision) || ' s' END;
    IF r.warmup > '0' THEN
        sub := sub || ('warm-up ' || bench._svg_num(extract(epoch FROM r.warmup)::double precision) || ' s');
    END IF;
    IF r.progress > '0' THEN
        sub := sub || ('progress every ' || bench._svg_num(extract(epoch FROM r.progress)::double precision) || ' s');
    END IF;
    IF r.tps IS NOT NULL THEN
        sub := sub || (round(r.tps::numeric) || ' tps'
                       || COALESCE(', p99 ' || round(r.latency_p99_ms::numeric, 3) || ' ms', '')
                       || ' overall');
    END IF;
    IF r.tag IS NOT NULL THEN
        sub := sub || ('tag ' || r.tag);
    END IF;

    o := ARRAY[bench._svg_open(width, height, format('run %s: tps and p99 latency over time', r.id)),
               bench._svg_heading(width,
                   format('run %s: %s, %s client%s, PostgreSQL %s', r.id, r.workload, r.clients,
                          CASE WHEN r.clients = 1 THEN '' ELSE 's' END, split_part(r.server_version, ' ', 1)),
                   array_to_string(sub, ', ')),
               lg.svg,
               bench._svg_panel(pl, top1, pw, ph, 0, xt[cardinality(xt)], xt, NULL,
                                yt1, bench._svg_tick_labels(yt1), 'tps'),
               bench._svg_panel(pl, top2, pw, ph, 0, xt[cardinality(xt)], xt, bench._svg_tick_labels(xt),
                                yt2, bench._svg_tick_labels(yt2), 'p99 latency (ms)'),
               bench._svg_text(pl + pw / 2, bot2 + 38, 'elapsed (s)',
                               'class="axis-title" font-size="12" fill="#222222" text-anchor="middle"')];

    -- shaded spans of time, across both panels
    IF warm_end IS NOT NULL THEN
        o := o || format('<rect class="warmup" x="%s" y="%s" width="%s" height="%s" fill="%s" fill-opacity="0.2"/>',
                         bench._svg_num(ax), bench._svg_num(top1), bench._svg_num(bx * warm_end),
                         bench._svg_num(bot2 - top1), warm_colour);
        IF bx * warm_end >= 56 THEN
            o := o || bench._svg_text(ax + 5, bot1 - 6, 'warm-up', 'font-size="11" fill="#555555"');
        END IF;
    END IF;
    IF nstalls > 0 THEN
        o := o || ARRAY(
            SELECT format('<rect class="stall" x="%s" y="%s" width="%s" height="%s" fill="%s" fill-opacity="0.2"/>',
                          bench._svg_num(ax + bx * q.s), bench._svg_num(top1),
                          bench._svg_num(GREATEST(bx * (p.elapsed_s - q.s), 2)),
                          bench._svg_num(bot2 - top1), stall_colour)
              FROM bench.progress p
             CROSS JOIN LATERAL (SELECT GREATEST(p.elapsed_s - extract(epoch FROM p.interval_end - p.interval_start)::double precision, 0) AS s) q
             WHERE p.run_id = r.id AND p.tps < stall_below
             ORDER BY p.elapsed_s);
    END IF;

    -- checkpoints: a dashed line across both panels, labelled above unless
    -- too close to the previous label
    FOR i IN 1 .. cardinality(ck_at) LOOP
        x := ax + bx * LEAST(GREATEST(ck_at[i], 0), xt[cardinality(xt)]);
        o := o || format('<line class="checkpoint" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.2" stroke-dasharray="5,4"/>',
                         bench._svg_num(x), bench._svg_num(top1), bench._svg_num(x), bench._svg_num(bot2), ck_colour);
        IF x - last_label >= 80 THEN
            o := o || bench._svg_text(x, top1 - 5,
                          'checkpoint' || CASE WHEN ck_n[i] > 1 THEN ' &#215;' || ck_n[i] ELSE '' END,
                          format('font-size="10" fill="%s" text-anchor="%s"', ck_colour,
                                 CASE WHEN x - 30 < pl THEN 'start' WHEN x + 30 > pl + pw THEN 'end' ELSE 'middle' END));
            last_label := x;
        END IF;
    END LOOP;

    -- the series: tps, and p99 latency broken where an interval had none
    o := o || (SELECT format('<polyline class="tps" fill="none" stroke="%s" stroke-width="1.5" stroke-linejoin="round" points="%s"/>',
                             tps_colour,
                             string_agg(bench._svg_num(ax + bx * p.elapsed_s) || ',' || bench._svg_num(ay1 + by1 * p.tps),
                                        ' ' ORDER BY p.elapsed_s))
                 FROM bench.progress p
                WHERE p.run_id = r.id
               HAVING count(*) > 0);
    o := o || ARRAY(
        SELECT format('<polyline class="p99" fill="none" stroke="%s" stroke-width="1.5" stroke-linejoin="round" points="%s"/>',
                      p99_colour,
                      string_agg(bench._svg_num(ax + bx * q.elapsed_s) || ',' || bench._svg_num(ay2 + by2 * q.latency_p99_ms),
                                 ' ' ORDER BY q.elapsed_s))
          FROM (SELECT p.elapsed_s, p.latency_p99_ms,
                       count(*) FILTER (WHERE p.latency_p99_ms IS NULL) OVER (ORDER BY p.elapsed_s) AS segment
                  FROM bench.progress p
                 WHERE p.run_id = r.id) q
         WHERE q.latency_p99_ms IS NOT NULL
         GROUP BY q.segment
         ORDER BY q.segment);
    -- points too, while there are few enough to tell apart
    IF n BETWEEN 1 AND 120 THEN
        o := o || (SELECT format('<g class="tps-points" fill="%s">', tps_colour)
                          || string_agg(format('<circle cx="%s" cy="%s" r="2.2"/>',
                                               bench._svg_num(ax + bx * p.elapsed_s), bench._svg_num(ay1 + by1 * p.tps)),
                                        '' ORDER BY p.elapsed_s) || '</g>'
                     FROM bench.progress p
                    WHERE p.run_id = r.id);
        o := o || (SELECT format('<g class="p99-points" fill="%s">', p99_colour)
                          || string_agg(format('<circle cx="%s" cy="%s" r="2.2"/>',
                                               bench._svg_num(ax + bx * p.elapsed_s), bench._svg_num(ay2 + by2 * p.latency_p99_ms)),
                                        '' ORDER BY p.elapsed_s) || '</g>'
                     FROM bench.progress p
                    WHERE p.run_id = r.id AND p.latency_p99_ms IS NOT NULL);
    END IF;
    IF nstalls > 0 THEN
        o := o || ARRAY(
            SELECT format('<circle class="stall-point" cx="%s" cy="%s" r="3.5" fill="%s"/>',
                          bench._svg_num(ax + bx * p.elapsed_s), bench._svg_num(ay1 + by1 * p.tps), stall_colour)
              FROM bench.progress p
             WHERE p.run_id = r.id AND p.tps < stall_below
             ORDER BY p.elapsed_s);
    END IF;

    IF n = 0 THEN
        o := o || bench._svg_no_data(pl + pw / 2, top1 + ph / 2,
                                     CASE WHEN r.progress = '0' THEN 'the run was made with progress => ''0'''
                                          WHEN r.status = 'running' THEN 'no progress interval has ended yet'
                                          ELSE 'the run recorded no progress intervals' END)
               || bench._svg_no_data(pl + pw / 2, top2 + ph / 2);
    END IF;
    RETURN array_to_string(o, E'\n') || E'\n</svg>';
END
$fn$;

COMMENT ON FUNCTION bench.chart_run(bigint, integer, integer) IS
    'A run as an SVG chart: tps and p99 latency per progress interval over elapsed time, with warm-up, stalls and checkpoints marked';

--
-- bench.chart_suite: tps against client count for a suite: the median of
-- the finished repeats as a line through points, with bars from the
-- slowest to the fastest repeat; under it the same for p99 latency.
-- Client counts are evenly spaced categories, in ascending order; one
-- without a finished run keeps its place and label, without a point.
--
CREATE FUNCTION bench.chart_suite(suite_id bigint, width integer DEFAULT 900, height integer DEFAULT 560)
RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    tps_colour  constant text := '#1f77b4';
    p99_colour  constant text := '#ff7f0e';
    s           bench.suites;
    n           integer;            -- client counts
    done        integer;            -- finished runs
    cl          integer[];
    rdone       integer[];
    rplan       integer[];
    tmed        double precision[];
    tmin        double precision[];
    tmax        double precision[];
    lmed        double precision[];
    lmin        double precision[];
    lmax        double precision[];
    xt          double precision[];
    xl          text[];
    every       integer;            -- a label every so many categories
    sub         text[] := '{}';
    lg          record;
    pl          constant double precision := 72;
    pw          double precision := width - 72 - 24;
    top1        double precision;
    bot1        double precision;
    top2        double precision;
    bot2        double precision;
    ph          double precision;
    yt1         double precision[];
    yt2         double precision[];
    bx          double precision;
    ax          double precision;
    o           text[];
BEGIN
    IF chart_suite.suite_id IS NULL THEN
        RAISE EXCEPTION 'argument "suite_id" of bench.chart_suite must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the id of a suite, as bench.suites lists them.';
    END IF;
    PERFORM bench._svg_check_size('bench.chart_suite', width, height);
    SELECT * INTO s FROM bench.suites WHERE id = chart_suite.suite_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'suite % does not exist', chart_suite.suite_id
            USING ERRCODE = 'no_data_found',
                  HINT = 'bench.suites lists the suites.';
    END IF;

    -- one category per client count (a count listed twice is drawn once)
    SELECT count(*), COALESCE(sum(m.runs_done), 0),
           array_agg(m.clients ORDER BY m.clients), array_agg(m.runs_done ORDER BY m.clients),
           array_agg(m.runs_planned ORDER BY m.clients),
           array_agg(m.tps_median ORDER BY m.clients), array_agg(m.tps_min ORDER BY m.clients),
           array_agg(m.tps_max ORDER BY m.clients),
           array_agg(m.latency_p99_ms_median ORDER BY m.clients), array_agg(m.latency_p99_ms_min ORDER BY m.clients),
           array_agg(m.latency_p99_ms_max ORDER BY m.clients)
      INTO n, done, cl, rdone, rplan, tmed, tmin, tmax, lmed, lmin, lmax
      FROM (SELECT DISTINCT ON (ss.clients) ss.*
              FROM bench.suite_summary ss
             WHERE ss.suite_id = s.id
             ORDER BY ss.clients, ss.position) m;

    -- x: category i at i, half a step of room at both ends; labels thinned
    -- out when they would touch, and "(k of m)" under a count whose
    -- repeats are not all done
    bx := pw / GREATEST(n, 1);
    ax := pl - bx / 2;
    every := GREATEST(1, ceil(44 / bx)::integer);
    xt := ARRAY(SELECT generate_series(1, n)::double precision);
    xl := ARRAY(SELECT CASE WHEN (i - 1) % every = 0
                            THEN cl[i] || CASE WHEN rdone[i] < rplan[i]
                                               THEN E'\n(' || rdone[i] || ' of ' || rplan[i] || ')' ELSE '' END
                       END
                  FROM generate_series(1, n) i);

    lg := bench._svg_legend(pl, 52, pw, GREATEST(18, (height - 120) * 0.2), ARRAY['linepoint', 'errorbar', 'linepoint'],
                            ARRAY[tps_colour, '#555555', p99_colour],
                            ARRAY['tps (median of the repeats)', 'slowest to fastest repeat', 'p99 latency (median)']);
    top1 := 52 + lg.height + 14;
    ph := GREATEST((height - 58 - top1 - 18) / 2, 10);
    bot1 := top1 + ph;
    top2 := bot1 + 18;
    bot2 := top2 + ph;
    yt1 := bench._svg_ticks(0, (SELECT max(v) FROM unnest(tmax) v) * 1.02,
                            GREATEST(2, LEAST(6, floor(ph / 20)::integer)));
    yt2 := bench._svg_ticks(0, (SELECT max(v) FROM unnest(lmax) v) * 1.02,
                            GREATEST(2, LEAST(6, floor(ph / 20)::integer)));

    sub := sub || (s.status || ', started ' || to_char(s.started_at, 'YYYY-MM-DD HH24:MI:SS'))
               || (done || ' of ' || s.runs_planned || ' runs done')
               || (s.run_order || ' order');
    IF s.schedule IS NOT NULL THEN
        sub := sub || ('schedule ' || s.schedule);
    END IF;
    IF s.tag IS NOT NULL THEN
        sub := sub || ('tag ' || s.tag);
    END IF;

    o := ARRAY[bench._svg_open(width, height, format('suite %s: tps and p99 latency by client count', s.id)),
               bench._svg_heading(width,
                   format('suite %s: %s, %s client%s, %s repeat%s each, PostgreSQL %s', s.id, s.workload,
                          array_to_string(cl, ', '), CASE WHEN cl = '{1}' THEN '' ELSE 's' END,
                          s.repeat, CASE WHEN s.repeat = 1 THEN '' ELSE 's' END, split_part(s.server_version, ' ', 1)),
                   array_to_string(sub, ', ')),
               lg.svg,
               bench._svg_panel(pl, top1, pw, ph, 0.5, n + 0.5, xt, NULL,
                                yt1, bench._svg_tick_labels(yt1), 'tps'),
               bench._svg_panel(pl, top2, pw, ph, 0.5, n + 0.5, xt, xl,
                                yt2, bench._svg_tick_labels(yt2), 'p99 latency (ms)'),
               bench._svg_text(pl + pw / 2, height - 14, 'clients',
                               'class="axis-title" font-size="12" fill="#222222" text-anchor="middle"')];

    IF done = 0 THEN
        o := o || bench._svg_no_data(pl + pw / 2, top1 + ph / 2,
                                     CASE WHEN s.status = 'running' THEN 'no run of the suite has finished yet'
                                          ELSE 'the suite has no finished run' END)
               || bench._svg_no_data(pl + pw / 2, top2 + ph / 2);
        RETURN array_to_string(o, E'\n') || E'\n</svg>';
    END IF;

    -- each panel: bars, then the median line (broken at a count without
    -- runs), then its points
    o := o || ARRAY(
        SELECT format('<path class="%s-range" d="M%s %sV%sM%s %sH%sM%s %sH%s" stroke="%s" stroke-width="1.2" fill="none"/>',
                      k.name, bench._svg_num(x), bench._svg_num(ylo), bench._svg_num(yhi),
                      bench._svg_num(x - 5), bench._svg_num(ylo), bench._svg_num(x + 5),
                      bench._svg_num(x - 5), bench._svg_num(yhi), bench._svg_num(x + 5), k.colour)
          FROM (VALUES (1, 'tps', tps_colour, tmin, tmax, yt1, bot1),
                       (2, 'p99', p99_colour, lmin, lmax, yt2, bot2)) k (no, name, colour, lo, hi, yt, bot)
         CROSS JOIN generate_series(1, n) i
         CROSS JOIN LATERAL (SELECT ax + bx * i AS x,
                                    k.bot - (k.lo[i] - k.yt[1]) / (k.yt[cardinality(k.yt)] - k.yt[1]) * ph AS ylo,
                                    k.bot - (k.hi[i] - k.yt[1]) / (k.yt[cardinality(k.yt)] - k.yt[1]) * ph AS yhi) c
         WHERE k.lo[i] IS NOT NULL
         ORDER BY k.no, i);
    o := o || ARRAY(
        SELECT format('<polyline class="%s" fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round" points="%s"/>',
                      q.name, q.colour, string_agg(q.xy, ' ' ORDER BY q.i))
          FROM (SELECT k.no, k.name, k.colour, i,
                       bench._svg_num(ax + bx * i) || ',' ||
                       bench._svg_num(k.bot - (k.med[i] - k.yt[1]) / (k.yt[cardinality(k.yt)] - k.yt[1]) * ph) AS xy,
                       k.med[i] IS NULL AS gap,
                       count(*) FILTER (WHERE k.med[i] IS NULL) OVER (PARTITION BY k.no ORDER BY i) AS segment
                  FROM (VALUES (1, 'tps', tps_colour, tmed, yt1, bot1),
                               (2, 'p99', p99_colour, lmed, yt2, bot2)) k (no, name, colour, med, yt, bot)
                 CROSS JOIN generate_series(1, n) i) q
         WHERE NOT q.gap
         GROUP BY q.no, q.name, q.colour, q.segment
         ORDER BY q.no, q.segment);
    o := o || ARRAY(
        SELECT format('<circle class="%s-median" cx="%s" cy="%s" r="4" fill="%s"/>', k.name,
                      bench._svg_num(ax + bx * i),
                      bench._svg_num(k.bot - (k.med[i] - k.yt[1]) / (k.yt[cardinality(k.yt)] - k.yt[1]) * ph), k.colour)
          FROM (VALUES (1, 'tps', tps_colour, tmed, yt1, bot1),
                       (2, 'p99', p99_colour, lmed, yt2, bot2)) k (no, name, colour, med, yt, bot)
         CROSS JOIN generate_series(1, n) i
         WHERE k.med[i] IS NOT NULL
         ORDER BY k.no, i);
    RETURN array_to_string(o, E'\n') || E'\n</svg>';
END
$fn$;

COMMENT ON FUNCTION bench.chart_suite(bigint, integer, integer) IS
    'A suite as an SVG chart: median tps and p99 latency by client count, with the range of the repeats';

--
-- bench.chart_schedule: the suites of a schedule over time, each client
-- count's tps relative to its baseline (1.0: the median of the schedule's
-- previous suites, as bench.schedule_results has it), one line per client
-- count.  The band is the schedule's threshold around 1.0; points flagged
-- as regressions are red.  A suite with no baseline yet (the schedule's
-- first) has no ratio: it is drawn as an open circle at 1.0, apart from
-- the lines, so that the chart shows when the schedule started and that
-- such suites exist without pretending they were compared.
--
CREATE FUNCTION bench.chart_schedule(schedule text, width integer DEFAULT 900, height integer DEFAULT 560)
RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    palette     constant text[] := ARRAY['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b',
                                         '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
    red         constant text := '#d62728';
    band_colour constant text := '#2ca02c';
    sc          bench.schedules;
    known       boolean;
    wl          text;
    n           integer;            -- results (suite x client count)
    nsuites     integer;
    nbase       integer;            -- results without a baseline
    nreg        integer;            -- regressions
    thr         double precision;
    series      integer[];          -- client counts, ascending
    tlo         timestamptz;
    thi         timestamptz;
    rlo         double precision;
    rhi         double precision;
    span        double precision;
    tt          record;
    xt          double precision[];
    yt          double precision[];
    kinds       text[] := '{}';
    colours     text[] := '{}';
    names       text[] := '{}';
    sub         text[] := '{}';
    lg          record;
    pl          constant double precision := 72;
    pw          double precision := width - 72 - 24;
    top1        double precision;
    bot1        double precision;
    ph          double precision;
    -- x = ax + bx * epoch, y = ay + ky * ratio
    ax          double precision;
    bx          double precision;
    ay          double precision;
    ky          double precision;
    o           text[];
BEGIN
    IF chart_schedule.schedule IS NULL THEN
        RAISE EXCEPTION 'argument "schedule" of bench.chart_schedule must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the name of a schedule, as bench.schedules lists them.';
    END IF;
    PERFORM bench._svg_check_size('bench.chart_schedule', width, height);
    -- a schedule is known by its row, or by suites that ran under its name
    -- (its row may have been dropped since)
    SELECT * INTO sc FROM bench.schedules s WHERE s.name = chart_schedule.schedule;
    known := FOUND;
    IF NOT known AND NOT EXISTS (SELECT FROM bench.suites s WHERE s.schedule = chart_schedule.schedule) THEN
        RAISE EXCEPTION 'schedule "%" does not exist', chart_schedule.schedule
            USING ERRCODE = 'no_data_found',
                  HINT = 'bench.schedules lists the schedules.';
    END IF;
    wl := COALESCE(sc.workload,
                         (SELECT s.workload FROM bench.suites s WHERE s.schedule = chart_schedule.schedule
                           ORDER BY s.started_at DESC LIMIT 1));

    SELECT count(*), count(DISTINCT sr.suite_id), count(*) FILTER (WHERE sr.tps_ratio IS NULL),
           count(*) FILTER (WHERE sr.regression),
           max(sr.threshold), array_agg(DISTINCT sr.clients ORDER BY sr.clients),
           min(sr.started_at), max(sr.started_at), min(sr.tps_ratio), max(sr.tps_ratio)
      INTO n, nsuites, nbase, nreg, thr, series, tlo, thi, rlo, rhi
      FROM bench.schedule_results sr
     WHERE sr.schedule = chart_schedule.schedule;
    thr := COALESCE(thr, sc.threshold, 0.05);
    series := COALESCE(series, '{}');

    -- x: the suites' start times with 5% room at both ends; one suite (or
    -- none: around the schedule's creation) gets an hour either side
    IF n = 0 THEN
        tlo := COALESCE(sc.created_at, now());
        thi := tlo;
    END IF;
    span := extract(epoch FROM thi - tlo);
    IF span = 0 THEN
        tlo := tlo - interval '1 hour';
        thi := thi + interval '1 hour';
    ELSE
        tlo := tlo - make_interval(secs => GREATEST(span * 0.05, 30));
        thi := thi + make_interval(secs => GREATEST(span * 0.05, 30));
    END IF;
    -- y: the ratios and the band, with 10% of that room (ticks below,
    -- once the height of the plot is known)
    rlo := LEAST(COALESCE(rlo, 1), 1 - thr);
    rhi := GREATEST(COALESCE(rhi, 1), 1 + thr);

    FOR i IN 1 .. cardinality(series) LOOP
        kinds := kinds || 'linepoint'::text;
        colours := colours || palette[(i - 1) % cardinality(palette) + 1];
        names := names || (series[i] || CASE WHEN series[i] = 1 THEN ' client' ELSE ' clients' END);
    END LOOP;
    kinds := kinds || ARRAY['line', 'band'];
    colours := colours || ARRAY['#444444', band_colour];
    names := names || ARRAY['baseline (1.0)', format('within %s%%', bench._svg_num(thr * 100))];
    IF nreg > 0 THEN
        kinds := kinds || 'point'::text; colours := colours || red; names := names || 'regression'::text;
    END IF;
    IF nbase > 0 THEN
        kinds := kinds || 'hollow'::text; colours := colours || '#444444'::text;
        names := names || 'no baseline yet'::text;
    END IF;

    lg := bench._svg_legend(pl, 52, pw, GREATEST(18, (height - 120) * 0.2), kinds, colours, names);
    top1 := 52 + lg.height + 14;
    ph := GREATEST(height - 60 - top1, 10);
    yt := bench._svg_ticks(rlo - (rhi - rlo) * 0.1, rhi + (rhi - rlo) * 0.1,
                           GREATEST(2, LEAST(8, floor(ph / 25)::integer)));
    bot1 := top1 + ph;
    tt := bench._svg_time_ticks(tlo, thi, GREATEST(2, LEAST(10, floor(pw / 100)::integer)));
    xt := ARRAY(SELECT extract(epoch FROM t)::double precision FROM unnest(tt.ticks) t);
    bx := pw / extract(epoch FROM thi - tlo)::double precision;
    ax := pl - bx * extract(epoch FROM tlo)::double precision;
    ky := -ph / (yt[cardinality(yt)] - yt[1]);
    ay := bot1 - ky * yt[1];

    sub := sub || (nsuites || CASE WHEN nsuites = 1 THEN ' suite' ELSE ' suites' END
                   || CASE WHEN nreg > 0 THEN ', ' || nreg || ' regression' || CASE WHEN nreg = 1 THEN '' ELSE 's' END
                           ELSE '' END);
    IF known THEN
        sub := sub || ('cron ' || sc.cron)
                   || format('baseline: median of the previous %s suites', sc.baseline_runs);
    END IF;

    o := ARRAY[bench._svg_open(width, height, format('schedule %s: tps relative to the baseline', chart_schedule.schedule)),
               bench._svg_heading(width,
                   format('schedule "%s": %s, tps relative to the baseline', chart_schedule.schedule,
                          COALESCE(wl, 'no suites')),
                   array_to_string(sub, '; ')),
               lg.svg,
               bench._svg_panel(pl, top1, pw, ph, extract(epoch FROM tlo)::double precision,
                                extract(epoch FROM thi)::double precision, xt, tt.labels,
                                yt, bench._svg_tick_labels(yt), 'tps / baseline tps'),
               bench._svg_text(pl + pw / 2, height - 14,
                               bench._svg_escape('suite started (' || current_setting('TimeZone') || ')'),
                               'class="axis-title" font-size="12" fill="#222222" text-anchor="middle"')];

    IF n = 0 THEN
        o := o || bench._svg_no_data(pl + pw / 2, top1 + ph / 2, 'no suite of the schedule has finished');
        RETURN array_to_string(o, E'\n') || E'\n</svg>';
    END IF;

    -- the threshold band and the baseline
    o := o || format('<rect class="threshold" x="%s" y="%s" width="%s" height="%s" fill="%s" fill-opacity="0.2"/>',
                     bench._svg_num(pl), bench._svg_num(ay + ky * (1 + thr)), bench._svg_num(pw),
                     bench._svg_num(ky * -2 * thr), band_colour)
           || format('<line class="baseline" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#444444" stroke-width="1.2"/>',
                     bench._svg_num(pl), bench._svg_num(ay + ky), bench._svg_num(pl + pw), bench._svg_num(ay + ky));

    -- a line per client count through the suites that have a ratio
    o := o || ARRAY(
        SELECT format('<polyline class="series" fill="none" stroke="%s" stroke-width="1.8" stroke-linejoin="round" points="%s"/>',
                      palette[(array_position(series, sr.clients) - 1) % cardinality(palette) + 1],
                      string_agg(bench._svg_num(ax + bx * extract(epoch FROM sr.started_at)::double precision)
                                 || ',' || bench._svg_num(ay + ky * sr.tps_ratio), ' ' ORDER BY sr.started_at))
          FROM bench.schedule_results sr
         WHERE sr.schedule = chart_schedule.schedule AND sr.tps_ratio IS NOT NULL
         GROUP BY sr.clients
         ORDER BY sr.clients);
    -- the points: open at 1.0 without a baseline, red for a regression
    o := o || ARRAY(
        SELECT CASE WHEN sr.tps_ratio IS NULL
                    THEN format('<circle class="no-baseline" cx="%s" cy="%s" r="4" fill="#ffffff" stroke="%s" stroke-width="1.5"/>',
                                bench._svg_num(x), bench._svg_num(ay + ky), c)
                    WHEN sr.regression
                    THEN format('<circle class="regression" cx="%s" cy="%s" r="5" fill="%s"/>',
                                bench._svg_num(x), bench._svg_num(ay + ky * sr.tps_ratio), red)
                    ELSE format('<circle class="point" cx="%s" cy="%s" r="3.5" fill="%s"/>',
                                bench._svg_num(x), bench._svg_num(ay + ky * sr.tps_ratio), c)
               END
          FROM bench.schedule_results sr
         CROSS JOIN LATERAL (SELECT ax + bx * extract(epoch FROM sr.started_at)::double precision AS x,
                                    palette[(array_position(series, sr.clients) - 1) % cardinality(palette) + 1] AS c) p
         WHERE sr.schedule = chart_schedule.schedule
         ORDER BY sr.regression, sr.clients, sr.started_at);
    RETURN array_to_string(o, E'\n') || E'\n</svg>';
END
$fn$;

COMMENT ON FUNCTION bench.chart_schedule(text, integer, integer) IS
    'A schedule as an SVG chart: each suite''s tps relative to its rolling baseline over time, per client count, regressions in red';

--
-- Comparisons and export
--
--
-- Comparing runs and suites, and moving them between servers.
--

--
-- bench.compare: two runs, or two suites, side by side with a verdict.
--
-- First what differs between them (so that nobody compares apples with
-- pears unknowingly), then every metric with its change, an estimate of
-- the noise and a verdict at the threshold.  The noise rules:
--
--   suites, per client count, with two or more finished runs on at least
--   one side: the metric is the median over the runs; noise is the larger
--   relative half-range, (max - min) / 2 / median, of the two sides; the
--   verdict is an improvement or a regression only when the change is over
--   the threshold and the two sides' [min, max] ranges do not overlap.
--
--   single runs (or a client count with one finished run on each side):
--   noise = sqrt((cv_a^2 + cv_b^2) / 2), cv being the coefficient of
--   variation (stddev / mean) of the run's per-interval series: the
--   progress rows out of the warm-up for tps, latency average (also for
--   p50 and p95) and p99; the samples during the run for WAL (from the
--   insert position), FPI and blocks read per transaction.  The verdict is
--   an improvement or a regression only when the change is over
--   max(threshold, 3 * noise).  A series of fewer than 3 points gives no
--   noise (NULL): the threshold alone decides.  A series that is 0
--   throughout has a cv of 0.
--
--   checkpoints are counts: within noise when they differ by at most 1.
--   A change from 0 counts as 100%.  A metric unknown on either side has
--   no verdict (NULL).
--
CREATE FUNCTION bench.compare(a bigint, b bigint, threshold double precision DEFAULT 0.05)
RETURNS TABLE (section text, metric text, clients integer, a_value text, b_value text,
               ratio double precision, change_pct double precision,
               noise_pct double precision, verdict text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_column
DECLARE
    id_a        bigint := compare.a;
    id_b        bigint := compare.b;
    kind_a      text;
    kind_b      text;
    status_a    text;
    status_b    text;
    is_suite    boolean;
    run_clients integer;
    differing   bigint;
    -- the notable settings every run records, those that matter most for
    -- performance first; the other settings come after them, by name
    notable     text[] := ARRAY['wal_level', 'shared_buffers', 'max_wal_size', 'min_wal_size',
                                'checkpoint_timeout', 'checkpoint_completion_target',
                                'synchronous_commit', 'wal_compression', 'wal_buffers',
                                'data_checksums', 'huge_pages', 'huge_pages_status', 'fsync',
                                'full_page_writes', 'io_method', 'effective_io_concurrency',
                                'work_mem', 'max_connections', 'autovacuum', 'block_size',
                                'wal_segment_size'];
    -- the host facts that describe the machine (not the free disk space,
    -- which changes with every run)
    host_keys   text[] := ARRAY['cpus', 'cpu_model', 'memory_bytes', 'kernel', 'machine',
                                'data_directory_fs_bytes'];
BEGIN
    IF id_a IS NULL OR id_b IS NULL THEN
        RAISE EXCEPTION 'a and b must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the ids of two runs (bench.runs) or of two suites (bench.suites).';
    END IF;
    IF threshold IS NULL THEN
        RAISE EXCEPTION 'threshold must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'The threshold is a fraction: 0.05, the default, means a change of 5%.';
    END IF;
    IF NOT (threshold > 0 AND threshold < 1) THEN
        RAISE EXCEPTION 'threshold must be between 0 and 1, not %', threshold
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The threshold is a fraction: 0.05, the default, means a change of 5%.';
    END IF;

    -- run ids and suite ids come from one sequence: an id is one or the other
    SELECT 'run', r.status INTO kind_a, status_a FROM bench.runs r WHERE r.id = id_a;
    IF NOT FOUND THEN
        SELECT 'suite', s.status INTO kind_a, status_a FROM bench.suites s WHERE s.id = id_a;
    END IF;
    IF kind_a IS NULL THEN
        RAISE EXCEPTION 'run or suite % does not exist', id_a
            USING ERRCODE = 'no_data_found',
                  HINT = 'bench.runs and bench.suites list the runs and suites there are.';
    END IF;
    IF id_a = id_b THEN
        RAISE EXCEPTION 'cannot compare % % with itself', kind_a, id_a
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give two different runs, or two different suites.';
    END IF;
    SELECT 'run', r.status INTO kind_b, status_b FROM bench.runs r WHERE r.id = id_b;
    IF NOT FOUND THEN
        SELECT 'suite', s.status INTO kind_b, status_b FROM bench.suites s WHERE s.id = id_b;
    END IF;
    IF kind_b IS NULL THEN
        RAISE EXCEPTION 'run or suite % does not exist', id_b
            USING ERRCODE = 'no_data_found',
                  HINT = 'bench.runs and bench.suites list the runs and suites there are.';
    END IF;
    IF kind_a <> kind_b THEN
        RAISE EXCEPTION 'cannot compare % % with % %', kind_a, id_a, kind_b, id_b
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Compare two runs, or two suites; the runs of a suite are the rows of bench.runs with its suite_id.';
    END IF;
    IF status_a = 'running' OR status_b = 'running' THEN
        RAISE EXCEPTION '% % is still running', kind_a, CASE WHEN status_a = 'running' THEN id_a ELSE id_b END
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = CASE WHEN kind_a = 'run'
                              THEN 'Wait for it to end (bench.wait) or cancel it (bench.cancel), then compare.'
                              ELSE 'Wait for the suite to end, then compare.' END;
    END IF;
    is_suite := kind_a = 'suite';
    IF NOT is_suite THEN
        -- two runs: their client count, if it is the same
        SELECT CASE WHEN min(r.clients) = max(r.clients) THEN min(r.clients) END INTO run_clients
          FROM bench.runs r WHERE r.id IN (id_a, id_b);
    END IF;

    --
    -- What differs: a run that did not end 'done' (it may be compared, but
    -- measured less than it should have), the parameters, the server's
    -- version and settings, the host.  For a suite, each value is that of
    -- its runs; runs of one suite that disagree show as 'mixed: ...'.
    --
    IF status_a <> 'done' OR status_b <> 'done' THEN
        RETURN QUERY SELECT 'parameter'::text, 'status'::text, NULL::integer, status_a, status_b,
                            NULL::float8, NULL::float8, NULL::float8,
                            CASE WHEN status_a <> status_b THEN 'differs' ELSE 'not done' END;
    END IF;

    RETURN QUERY
    WITH side (side, id) AS (
        VALUES ('a', id_a), ('b', id_b)
    ), rs AS (
        -- the runs of each side: the run itself, or every run of the suite
        SELECT side.side, r.*
          FROM side
          JOIN bench.runs r ON CASE WHEN is_suite THEN r.suite_id = side.id ELSE r.id = side.id END
    ), setting_names AS (
        SELECT DISTINCT k.key AS name
          FROM rs, jsonb_object_keys(rs.settings) AS k (key)
         WHERE k.key NOT IN ('server_version', 'server_version_num')
    ), vals (side, ord, sub, name, value) AS (
        -- the run's parameters, in the order of bench.run's arguments
        SELECT rs.side, 1, p.ord, p.name, p.value
          FROM rs CROSS JOIN LATERAL (VALUES
               (1, 'workload', rs.workload),
               (2, 'scale', rs.scale::text),
               (3, 'clients', rs.clients::text),
               (4, 'duration', rs.duration::text),
               (5, 'transactions_per_client', rs.transactions_per_client::text),
               (6, 'protocol', rs.protocol),
               (7, 'warmup', rs.warmup::text),
               (8, 'max_tries', rs.max_tries::text),
               (9, 'prewarm', rs.prewarm::text),
               (10, 'rate', rs.rate::text),
               (11, 'latency_limit', rs.latency_limit::text),
               (12, 'variables', rs.variables::text),
               -- the scripts themselves (a workload may have been redefined)
               (13, 'scripts', (SELECT format('%s script%s, md5 %s', count(*),
                                             CASE WHEN count(*) = 1 THEN '' ELSE 's' END,
                                             left(md5(string_agg(x.weight || ':' || x.script, E'\x01'
                                                                 ORDER BY x.script_no)), 12))
                                  FROM bench.run_scripts x WHERE x.run_id = rs.id))) AS p (ord, name, value)
         WHERE NOT (is_suite AND p.name IN ('workload', 'clients'))
        UNION ALL
        SELECT rs.side, 2, 0, 'server_version', rs.server_version FROM rs
        UNION ALL
        -- every setting recorded on either side (absent: NULL)
        SELECT rs.side, 3, COALESCE(array_position(notable, n.name), 1000), n.name, rs.settings->>n.name
          FROM rs CROSS JOIN setting_names n
        UNION ALL
        SELECT rs.side, 4, h.ord::integer, 'host ' || h.key, rs.host->>h.key
          FROM rs CROSS JOIN unnest(host_keys) WITH ORDINALITY AS h (key, ord)
    ), suite_vals (side, ord, sub, name, value) AS (
        -- a suite's own parameters
        SELECT side.side, 0, p.ord, p.name, p.value
          FROM side
          JOIN bench.suites s ON s.id = side.id
         CROSS JOIN LATERAL (VALUES
               (1, 'workload', s.workload),
               (2, 'clients', s.clients::text),
               (3, 'repeat', s.repeat::text),
               (4, 'run_order', s.run_order),
               (5, 'runs_done', format('%s of %s',
                    (SELECT count(*) FROM bench.runs r WHERE r.suite_id = s.id AND r.status = 'done'),
                    s.runs_planned))) AS p (ord, name, value)
         WHERE is_suite
    ), agg AS (
        SELECT v.side, v.ord, v.sub, v.name,
               CASE WHEN count(DISTINCT COALESCE(v.value, E'\x01')) > 1
                    THEN 'mixed: ' || array_to_string(array_agg(DISTINCT v.value), ', ', '(none)')
                    ELSE max(v.value) END AS value,
               count(DISTINCT COALESCE(v.value, E'\x01')) > 1 AS mixed
          FROM vals v
         GROUP BY v.side, v.ord, v.sub, v.name
        UNION ALL
        SELECT v.side, v.ord, v.sub, v.name, v.value, false FROM suite_vals v
    ), pairs AS (
        SELECT COALESCE(x.ord, y.ord) AS ord, COALESCE(x.sub, y.sub) AS sub,
               COALESCE(x.name, y.name) AS name, x.value AS va, y.value AS vb,
               COALESCE(x.mixed, false) OR COALESCE(y.mixed, false) AS mixed
          FROM (SELECT * FROM agg WHERE agg.side = 'a') x
          FULL JOIN (SELECT * FROM agg WHERE agg.side = 'b') y USING (ord, sub, name)
    )
    SELECT 'parameter'::text, p.name, NULL::integer, p.va, p.vb,
           NULL::float8, NULL::float8, NULL::float8,
           CASE WHEN p.va IS DISTINCT FROM p.vb THEN 'differs' ELSE 'mixed' END
      FROM pairs p
     WHERE p.va IS DISTINCT FROM p.vb OR p.mixed
     ORDER BY p.ord, p.sub, p.name;
    GET DIAGNOSTICS differing = ROW_COUNT;
    IF differing = 0 THEN
        RETURN QUERY SELECT 'parameter'::text, 'none differ'::text, NULL::integer, NULL::text, NULL::text,
                            NULL::float8, NULL::float8, NULL::float8, NULL::text;
    END IF;

    --
    -- The metrics, per client count for suites.
    --
    RETURN QUERY
    WITH side (side, id) AS (
        VALUES ('a', id_a), ('b', id_b)
    ), ms (ord, metric, higher) AS (
        -- each metric and whether more is better
        VALUES (1, 'tps', true),
               (2, 'latency_avg_ms', false),
               (3, 'latency_p50_ms', false),
               (4, 'latency_p95_ms', false),
               (5, 'latency_p99_ms', false),
               (6, 'wal_bytes_per_tx', false),
               (7, 'wal_fpi_per_tx', false),
               (8, 'checkpoints', false),
               (9, 'blks_read_per_tx', false)
    ), rs AS (
        -- the runs that count: the run itself, or the finished runs of the suite
        SELECT side.side, r.id, r.clients, r.tps, r.latency_avg_ms, r.latency_p50_ms,
               r.latency_p95_ms, r.latency_p99_ms
          FROM side
          JOIN bench.runs r ON CASE WHEN is_suite THEN r.suite_id = side.id AND r.status = 'done'
                                    ELSE r.id = side.id END
    ), mv AS (
        SELECT rs.side, rs.id AS run_id, COALESCE(CASE WHEN is_suite THEN rs.clients ELSE run_clients END, 0) AS k,
               m.metric, m.value
          FROM rs
          LEFT JOIN bench.run_counters c ON c.run_id = rs.id
         CROSS JOIN LATERAL (VALUES
               ('tps', rs.tps),
               ('latency_avg_ms', rs.latency_avg_ms),
               ('latency_p50_ms', rs.latency_p50_ms),
               ('latency_p95_ms', rs.latency_p95_ms),
               ('latency_p99_ms', rs.latency_p99_ms),
               ('wal_bytes_per_tx', (c.wal_bytes / NULLIF(c.transactions, 0))::float8),
               ('wal_fpi_per_tx', (c.wal_fpi::numeric / NULLIF(c.transactions, 0))::float8),
               ('checkpoints', (c.checkpoints_timed + c.checkpoints_requested)::float8),
               ('blks_read_per_tx', (c.blks_read::numeric / NULLIF(c.transactions, 0))::float8))
               AS m (metric, value)
    ), agg AS (
        SELECT mv.side, mv.k, mv.metric,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY mv.value) AS value,
               min(mv.value) AS lo, max(mv.value) AS hi,
               count(mv.value) AS n,
               min(mv.run_id) FILTER (WHERE mv.value IS NOT NULL) AS run_id
          FROM mv
         GROUP BY mv.side, mv.k, mv.metric
    ), keys (k) AS (
        SELECT mv.k FROM mv
        UNION
        SELECT c.c FROM bench.suites s, unnest(s.clients) AS c (c)
         WHERE is_suite AND s.id IN (id_a, id_b)
        UNION
        SELECT COALESCE(run_clients, 0) WHERE NOT is_suite
    ), single AS (
        -- the runs whose series give the noise: where each side has one
        SELECT x.run_id FROM agg x JOIN agg y ON y.k = x.k AND y.metric = x.metric AND y.side <> x.side
         WHERE x.n = 1 AND y.n = 1
    ), series (run_id, metric, v) AS (
        -- per progress interval, out of the warm-up, leaving out a last
        -- interval shorter than half the others
        SELECT p.run_id, s.metric, s.v
          FROM bench.progress p
          JOIN bench.runs r ON r.id = p.run_id
         CROSS JOIN LATERAL (VALUES
               ('tps', p.tps),
               ('latency_avg_ms', p.latency_avg_ms),
               ('latency_p50_ms', p.latency_avg_ms),
               ('latency_p95_ms', p.latency_avg_ms),
               ('latency_p99_ms', p.latency_p99_ms)) AS s (metric, v)
         WHERE p.run_id IN (SELECT single.run_id FROM single)
           AND NOT p.in_warmup
           AND extract(epoch FROM p.interval_end - p.interval_start)
               >= 0.5 * extract(epoch FROM r.progress)
        UNION ALL
        -- per sample interval while the clients ran.  WAL per transaction
        -- comes from the insert position here: pg_stat_wal's counters
        -- reach a sample up to a second late, its per-interval series
        -- would be noise of the sampling, not of the run
        SELECT i.run_id, s.metric, s.v
          FROM bench.interval_counters i
          JOIN bench.runs r ON r.id = i.run_id
         CROSS JOIN LATERAL (VALUES
               ('wal_bytes_per_tx', (i.wal_generated_bytes / i.transactions)::float8),
               ('wal_fpi_per_tx', (i.wal_fpi::numeric / i.transactions)::float8),
               ('blks_read_per_tx', (i.blks_read::numeric / i.transactions)::float8)) AS s (metric, v)
         WHERE i.run_id IN (SELECT single.run_id FROM single)
           AND i.phase = 'during' AND i.transactions > 0
           AND i.elapsed_s > extract(epoch FROM r.warmup)
    ), cv AS (
        SELECT series.run_id, series.metric,
               -- a series that is 0 throughout (no FPI, no block read) does
               -- not vary: its cv is 0
               CASE WHEN count(series.v) < 3 THEN NULL
                    WHEN avg(series.v) = 0 THEN 0
                    ELSE stddev_samp(series.v) / abs(avg(series.v)) END AS cv
          FROM series
         GROUP BY series.run_id, series.metric
    ), cmp AS (
        SELECT m.ord, m.metric, m.higher, keys.k,
               x.value AS va, y.value AS vb, x.lo AS lo_a, x.hi AS hi_a, y.lo AS lo_b, y.hi AS hi_b,
               x.n AS n_a, y.n AS n_b,
               x.n >= 1 AND y.n >= 1 AND (x.n >= 2 OR y.n >= 2) AS by_range,
               CASE WHEN m.metric = 'checkpoints' THEN NULL
                    WHEN x.n >= 2 OR y.n >= 2
                    THEN GREATEST((x.hi - x.lo) / 2 / NULLIF(abs(x.value), 0),
                                  (y.hi - y.lo) / 2 / NULLIF(abs(y.value), 0))
                    ELSE sqrt((cx.cv ^ 2 + cy.cv ^ 2) / 2) END AS noise,
               -- from 0 to anything, the change counts as 100%
               CASE WHEN x.value = 0 THEN 1
                    ELSE abs(y.value / x.value - 1) END AS change
          FROM keys CROSS JOIN ms m
          LEFT JOIN agg x ON x.side = 'a' AND x.k = keys.k AND x.metric = m.metric
          LEFT JOIN agg y ON y.side = 'b' AND y.k = keys.k AND y.metric = m.metric
          LEFT JOIN cv cx ON cx.run_id = x.run_id AND cx.metric = m.metric AND x.n = 1
          LEFT JOIN cv cy ON cy.run_id = y.run_id AND cy.metric = m.metric AND y.n = 1
    )
    SELECT 'metric'::text, c.metric,
           CASE WHEN is_suite THEN c.k ELSE run_clients END,
           fa.t, fb.t,
           c.vb / NULLIF(c.va, 0),
           (c.vb / NULLIF(c.va, 0) - 1) * 100,
           c.noise * 100,
           CASE WHEN c.va IS NULL OR c.vb IS NULL THEN NULL
                WHEN c.metric = 'checkpoints'
                THEN CASE WHEN abs(c.vb - c.va) <= 1 THEN 'within noise'
                          WHEN c.vb < c.va THEN 'improvement' ELSE 'regression' END
                WHEN c.va = c.vb THEN 'within noise'
                WHEN c.by_range AND NOT (c.change > threshold AND (c.hi_a < c.lo_b OR c.hi_b < c.lo_a))
                THEN 'within noise'
                WHEN NOT c.by_range AND NOT c.change > GREATEST(threshold, 3 * COALESCE(c.noise, 0))
                THEN 'within noise'
                WHEN (c.vb > c.va) = c.higher THEN 'improvement'
                ELSE 'regression' END
      FROM cmp c
     -- figures as text: four significant digits, at least one decimal
     -- (none for counts of checkpoints); with repeats, the range after the
     -- median
     CROSS JOIN LATERAL (
           SELECT string_agg(CASE WHEN f.v = 0 THEN '0'
                                  WHEN c.metric = 'checkpoints' AND f.v = trunc(f.v) THEN f.v::bigint::text
                                  ELSE round(f.v::numeric, GREATEST(1, 3 - floor(log(abs(f.v::numeric)))::integer))::text
                             END, ', ' ORDER BY f.i) AS t
             FROM unnest(ARRAY[c.va, c.lo_a, c.hi_a]) WITH ORDINALITY AS f (v, i)
            WHERE f.i = 1 OR c.n_a >= 2) fa0
     CROSS JOIN LATERAL (
           SELECT string_agg(CASE WHEN f.v = 0 THEN '0'
                                  WHEN c.metric = 'checkpoints' AND f.v = trunc(f.v) THEN f.v::bigint::text
                                  ELSE round(f.v::numeric, GREATEST(1, 3 - floor(log(abs(f.v::numeric)))::integer))::text
                             END, ', ' ORDER BY f.i) AS t
             FROM unnest(ARRAY[c.vb, c.lo_b, c.hi_b]) WITH ORDINALITY AS f (v, i)
            WHERE f.i = 1 OR c.n_b >= 2) fb0
     CROSS JOIN LATERAL (SELECT regexp_replace(fa0.t, '^([^,]*), (.*)$', '\1 [\2]') AS t) fa
     CROSS JOIN LATERAL (SELECT regexp_replace(fb0.t, '^([^,]*), (.*)$', '\1 [\2]') AS t) fb
     ORDER BY c.ord, c.k;
END
$fn$;

COMMENT ON FUNCTION bench.compare(bigint, bigint, double precision) IS
    'Two runs or two suites side by side: what differs between them, then tps, latencies, WAL, FPI, checkpoints and blocks read per transaction with change, noise and verdict (improvement, regression, within noise). Noise: suites with repeats, the larger relative half-range of the two sides, a verdict only when the ranges do not overlap; single runs, sqrt((cv_a^2 + cv_b^2) / 2) of their per-interval series, a verdict only when the change is over max(threshold, 3 * noise)';

GRANT EXECUTE ON FUNCTION bench.compare(bigint, bigint, double precision) TO PUBLIC;

--
-- Export: flat views for CSV (\copy (SELECT * FROM bench.export_runs) TO
-- 'runs.csv' CSV HEADER), and whole runs or suites as jsonb for
-- bench.import on another server.
--

--
-- bench.export_runs: one row per run, scalar columns only.
--
CREATE VIEW bench.export_runs AS
SELECT r.id, r.suite_id, r.tag, r.workload, r.scale, r.clients, r.protocol,
       extract(epoch FROM r.duration)::double precision AS duration_s,
       r.transactions_per_client, r.status, r.server_version, r.started_at, r.ended_at,
       r.measured_s, r.transactions, r.tps,
       r.latency_avg_ms, r.latency_stddev_ms, r.latency_min_ms, r.latency_p50_ms,
       r.latency_p90_ms, r.latency_p95_ms, r.latency_p99_ms, r.latency_p999_ms, r.latency_max_ms,
       r.failures, r.retries,
       c.wal_bytes_per_tx, c.wal_fpi_per_tx,
       c.checkpoints_timed + c.checkpoints_requested AS checkpoints,
       c.blks_read_per_tx, c.cache_hit_ratio, c.server_cpu_ms_per_tx
  FROM bench.runs r
  LEFT JOIN bench.run_counters c ON c.run_id = r.id
 ORDER BY r.id;

COMMENT ON VIEW bench.export_runs IS
    'One flat row per run for CSV export: parameters, status, summary, and WAL, FPI, checkpoints, blocks read and CPU per transaction';

--
-- bench.export_progress: the progress rows of every run.
--
CREATE VIEW bench.export_progress AS
SELECT p.run_id, p.elapsed_s, p.tps, p.latency_avg_ms, p.latency_stddev_ms,
       p.latency_p99_ms, p.latency_max_ms, p.failures, p.in_warmup
  FROM bench.progress p
 ORDER BY p.run_id, p.interval_start;

COMMENT ON VIEW bench.export_progress IS
    'The progress rows of every run for CSV export: seconds since the start, tps, latency, failures, warm-up';

--
-- bench.export_suites: per suite and client count, as bench.suite_summary.
--
CREATE VIEW bench.export_suites AS
SELECT m.suite_id, s.schedule, s.tag, s.workload, m.clients, m.runs_done, m.runs_planned,
       m.tps_median, m.tps_min, m.tps_max,
       m.latency_p95_ms_median, m.latency_p99_ms_median
  FROM bench.suite_summary m
  JOIN bench.suites s ON s.id = m.suite_id
 ORDER BY m.suite_id, m.position;

COMMENT ON VIEW bench.export_suites IS
    'Per suite and client count for CSV export: runs done of planned, median, min and max tps, median p95 and p99 latency';

GRANT SELECT ON bench.export_runs, bench.export_progress, bench.export_suites TO PUBLIC;

--
-- bench.export: a run or a suite with everything needed to compare it on
-- another server, as one jsonb document: the rows of bench.runs (every
-- column) and of the tables that belong to them, as to_jsonb writes them.
-- Floats are written with every digit and intervals in one style, so that
-- bench.import reads back exactly what was here.
--
CREATE FUNCTION bench.export(id bigint)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
SET extra_float_digits = 3
SET intervalstyle = 'postgres'
AS $fn$
#variable_conflict use_column
DECLARE
    the_id  bigint := export.id;
    kind    text;
    status  text;
    suite   jsonb;
    run_ids bigint[];
BEGIN
    IF the_id IS NULL THEN
        RAISE EXCEPTION 'id must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the id of a run (bench.runs) or of a suite (bench.suites).';
    END IF;
    SELECT 'run', r.status INTO kind, status FROM bench.runs r WHERE r.id = the_id;
    IF NOT FOUND THEN
        SELECT 'suite', s.status, to_jsonb(s) INTO kind, status, suite FROM bench.suites s WHERE s.id = the_id;
    END IF;
    IF kind IS NULL THEN
        RAISE EXCEPTION 'run or suite % does not exist', the_id
            USING ERRCODE = 'no_data_found',
                  HINT = 'bench.runs and bench.suites list the runs and suites there are.';
    END IF;
    -- a run still running would arrive as one that never ends
    IF status = 'running' THEN
        RAISE EXCEPTION '% % is still running', kind, the_id
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = CASE WHEN kind = 'run'
                              THEN 'Wait for it to end (bench.wait) or cancel it (bench.cancel), then export it.'
                              ELSE 'Wait for the suite to end, then export it.' END;
    END IF;
    SELECT array_agg(r.id ORDER BY r.id) INTO run_ids
      FROM bench.runs r
     WHERE CASE WHEN kind = 'run' THEN r.id = the_id ELSE r.suite_id = the_id END;

    RETURN jsonb_build_object(
        'format', 'pgbenchkit export',
        'format_version', 1,
        'kind', kind,
        'id', the_id,
        'system_identifier', (SELECT c.system_identifier::text FROM pg_control_system() c),
        'server_version', current_setting('server_version'),
        'server_version_num', current_setting('server_version_num')::integer,
        'pgbenchkit_version', (SELECT e.extversion FROM pg_extension e WHERE e.extname = 'pgbenchkit'),
        'exported_at', now(),
        'suite', suite,
        'runs', COALESCE((SELECT jsonb_agg(to_jsonb(r) ORDER BY r.id)
                            FROM bench.runs r WHERE r.id = ANY (run_ids)), '[]'),
        'progress', COALESCE((SELECT jsonb_agg(to_jsonb(p) ORDER BY p.run_id, p.interval_start)
                                FROM bench.progress p WHERE p.run_id = ANY (run_ids)), '[]'),
        'histograms', COALESCE((SELECT jsonb_agg(to_jsonb(h) ORDER BY h.run_id, h.lower_ms)
                                  FROM bench.histograms h WHERE h.run_id = ANY (run_ids)), '[]'),
        'samples', COALESCE((SELECT jsonb_agg(to_jsonb(s) ORDER BY s.run_id, s.sample_no)
                               FROM bench.samples s WHERE s.run_id = ANY (run_ids)), '[]'),
        'relation_sizes', COALESCE((SELECT jsonb_agg(to_jsonb(z) ORDER BY z.run_id, z.phase, z.relid)
                                      FROM bench.relation_sizes z WHERE z.run_id = ANY (run_ids)), '[]'),
        'prewarms', COALESCE((SELECT jsonb_agg(to_jsonb(w) ORDER BY w.run_id, w.relid)
                                FROM bench.prewarms w WHERE w.run_id = ANY (run_ids)), '[]'),
        'run_scripts', COALESCE((SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.script_no)
                                   FROM bench.run_scripts x WHERE x.run_id = ANY (run_ids)), '[]'),
        'command_latencies', COALESCE((SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.script_no, x.command_no)
                                         FROM bench.command_latencies x WHERE x.run_id = ANY (run_ids)), '[]'));
END
$fn$;

COMMENT ON FUNCTION bench.export(bigint) IS
    'A run or a suite as jsonb, with its progress, histograms, samples, sizes, prewarms, scripts and command latencies, for bench.import on another server';

GRANT EXECUTE ON FUNCTION bench.export(bigint) TO PUBLIC;

--
-- bench.import: a document of bench.export, under new ids.  Runs and
-- suites get ids of bench.runs_id_seq, the runs of a suite point to the
-- new suite, and each imported row says where it came from (origin).  The
-- dataset it ran on and its processes are not here: dataset_id,
-- coordinator_pid and worker_pid are NULL.  A run or suite is imported
-- once per server it came from.
--
CREATE FUNCTION bench.import(document jsonb)
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET intervalstyle = 'postgres'
AS $fn$
DECLARE
    doc         jsonb := import.document;
    kind        text;
    doc_id      bigint;
    sysid       text;
    missing     text;
    ids         jsonb := '{}';
    new_suite   bigint;
    old         bigint;
    dup         record;
    origin      jsonb;
    err_message text;
BEGIN
    IF doc IS NULL THEN
        RAISE EXCEPTION 'document must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give a document bench.export made.';
    END IF;

    -- the document: ours, of a version we read, complete
    IF jsonb_typeof(doc) IS DISTINCT FROM 'object' OR doc->>'format' IS DISTINCT FROM 'pgbenchkit export' THEN
        RAISE EXCEPTION 'document is not a pgbenchkit export'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'bench.export(id) makes the documents bench.import reads: a jsonb object whose "format" is "pgbenchkit export".';
    END IF;
    IF doc->'format_version' IS DISTINCT FROM '1'::jsonb THEN
        RAISE EXCEPTION 'pgbenchkit export format version % is not supported', COALESCE(doc->>'format_version', 'null')
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'This version of pgbenchkit reads format version 1.';
    END IF;
    SELECT string_agg(k, ', ' ORDER BY n) INTO missing
      FROM unnest(ARRAY['kind', 'id', 'system_identifier', 'server_version', 'exported_at', 'runs',
                        'progress', 'histograms', 'samples', 'relation_sizes', 'prewarms'])
           WITH ORDINALITY AS r (k, n)
     WHERE NOT doc ? k OR jsonb_typeof(doc->k) = 'null';
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION 'the export document lacks %', missing
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Import the document as bench.export made it.';
    END IF;
    kind := doc->>'kind';
    sysid := doc->>'system_identifier';
    IF kind NOT IN ('run', 'suite') OR jsonb_typeof(doc->'id') <> 'number'
       OR jsonb_typeof(doc->'system_identifier') <> 'string' OR jsonb_typeof(doc->'runs') <> 'array'
       OR jsonb_typeof(doc->'progress') <> 'array' OR jsonb_typeof(doc->'histograms') <> 'array'
       OR jsonb_typeof(doc->'samples') <> 'array' OR jsonb_typeof(doc->'relation_sizes') <> 'array'
       OR jsonb_typeof(doc->'prewarms') <> 'array'
       OR (kind = 'suite' AND jsonb_typeof(doc->'suite') IS DISTINCT FROM 'object') THEN
        RAISE EXCEPTION 'the export document is malformed'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'kind must be "run" or "suite", id a number, system_identifier a string, runs, progress, histograms, samples, relation_sizes and prewarms arrays, and a suite''s document needs the suite.',
                  HINT = 'Import the document as bench.export made it.';
    END IF;
    doc_id := (doc->>'id')::bigint;
    IF EXISTS (SELECT FROM jsonb_array_elements(doc->'runs') r
                WHERE jsonb_typeof(r) <> 'object' OR jsonb_typeof(r->'id') IS DISTINCT FROM 'number'
                   OR r->>'status' = 'running'
                   OR (kind = 'run' AND (r->>'id')::bigint <> doc_id)
                   OR (kind = 'suite' AND (r->>'suite_id')::bigint IS DISTINCT FROM doc_id))
       OR (kind = 'run' AND jsonb_array_length(doc->'runs') <> 1)
       OR (kind = 'suite' AND ((doc->'suite'->>'id')::bigint IS DISTINCT FROM doc_id
                               OR doc->'suite'->>'status' = 'running')) THEN
        RAISE EXCEPTION 'the runs of the export document do not match its %', kind
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A run''s document has that one run; a suite''s has the suite and the runs whose suite_id it is; none of them running.',
                  HINT = 'Import the document as bench.export made it.';
    END IF;

    -- once per origin: the same document imported twice is refused (the
    -- lock makes two sessions importing it at once take turns)
    PERFORM pg_advisory_xact_lock(hashtextextended('pgbenchkit import ' || sysid || ' ' || doc_id, 0));
    SELECT x.kind, x.id, (x.origin->>'id')::bigint AS orig INTO dup
      FROM (SELECT 'suite' AS kind, s.id, s.origin FROM bench.suites s
            UNION ALL
            SELECT 'run', r.id, r.origin FROM bench.runs r) x
     WHERE x.origin->>'system_identifier' = sysid
       AND (x.origin->>'id')::bigint IN (SELECT (r->>'id')::bigint FROM jsonb_array_elements(doc->'runs') r
                                         UNION ALL SELECT doc_id)
     ORDER BY x.kind DESC, x.id
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% % of system % was imported before, as % %', dup.kind, dup.orig, sysid, dup.kind, dup.id
            USING ERRCODE = 'unique_violation',
                  HINT = format('Compare with %s %s as it is, or delete it (and its runs) before importing it again.',
                                dup.kind, dup.id);
    END IF;

    origin := jsonb_build_object('system_identifier', sysid,
                                 'server_version', doc->'server_version',
                                 'exported_at', doc->'exported_at',
                                 'imported_at', now());
    BEGIN
        IF kind = 'suite' THEN
            new_suite := nextval('bench.runs_id_seq');
            INSERT INTO bench.suites
            SELECT * FROM jsonb_populate_record(NULL::bench.suites,
                doc->'suite' || jsonb_build_object('id', new_suite, 'worker_pid', NULL,
                                                   'origin', origin || jsonb_build_object('id', doc_id)));
        END IF;
        -- new ids in the order of the old ones
        FOR old IN SELECT (r->>'id')::bigint FROM jsonb_array_elements(doc->'runs') r ORDER BY 1 LOOP
            ids := ids || jsonb_build_object(old::text, nextval('bench.runs_id_seq'));
        END LOOP;
        INSERT INTO bench.runs
        SELECT * FROM jsonb_populate_recordset(NULL::bench.runs, (
            SELECT jsonb_agg(r || jsonb_build_object(
                       'id', ids->(r->>'id'), 'suite_id', new_suite, 'dataset_id', NULL,
                       'coordinator_pid', NULL,
                       'origin', origin || jsonb_build_object('id', (r->>'id')::bigint))
                       ORDER BY (r->>'id')::bigint)
              FROM jsonb_array_elements(doc->'runs') r));
        -- the rows of the runs: run_id is the new id (NULL, and refused,
        -- for a row of a run not in the document)
        INSERT INTO bench.progress
        SELECT * FROM jsonb_populate_recordset(NULL::bench.progress, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(doc->'progress') x));
        INSERT INTO bench.histograms
        SELECT * FROM jsonb_populate_recordset(NULL::bench.histograms, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(doc->'histograms') x));
        INSERT INTO bench.samples
        SELECT * FROM jsonb_populate_recordset(NULL::bench.samples, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(doc->'samples') x));
        INSERT INTO bench.relation_sizes
        SELECT * FROM jsonb_populate_recordset(NULL::bench.relation_sizes, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(doc->'relation_sizes') x));
        INSERT INTO bench.prewarms
        SELECT * FROM jsonb_populate_recordset(NULL::bench.prewarms, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(doc->'prewarms') x));
        -- the scripts and command latencies (documents of older versions have none)
        INSERT INTO bench.run_scripts
        SELECT * FROM jsonb_populate_recordset(NULL::bench.run_scripts, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(COALESCE(doc->'run_scripts', '[]')) x));
        INSERT INTO bench.command_latencies
        SELECT * FROM jsonb_populate_recordset(NULL::bench.command_latencies, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(COALESCE(doc->'command_latencies', '[]')) x));
    EXCEPTION
        -- a value that does not fit its column, a missing one, a row twice:
        -- the document was not made by bench.export, or was edited
        WHEN data_exception OR integrity_constraint_violation THEN
            GET STACKED DIAGNOSTICS err_message = MESSAGE_TEXT;
            RAISE EXCEPTION 'the export document is malformed: %', err_message
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'Import the document as bench.export made it; nothing was imported.';
    END;
    RETURN CASE WHEN kind = 'suite' THEN new_suite ELSE (ids->>(doc_id::text))::bigint END;
END
$fn$;

COMMENT ON FUNCTION bench.import(jsonb) IS
    'Insert a document of bench.export under new ids, with its origin (system identifier, server version, original id); returns the new id of the run or suite';

-- writing the tables is for roles the administrator chose
REVOKE ALL ON FUNCTION bench.import(jsonb) FROM PUBLIC;
