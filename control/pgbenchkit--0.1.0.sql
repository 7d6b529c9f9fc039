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
    coordinator_pid         integer
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
    tag          text     DEFAULT NULL)
RETURNS bench.runs
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_run';

COMMENT ON FUNCTION bench.run(text, integer, interval, bigint, text, interval, interval, integer, text) IS
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
    tag          text     DEFAULT NULL)
RETURNS bigint
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_start';

COMMENT ON FUNCTION bench.start(text, integer, interval, bigint, text, interval, interval, integer, text) IS
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

REVOKE ALL ON FUNCTION bench.run(text, integer, interval, bigint, text, interval, interval, integer, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.start(text, integer, interval, bigint, text, interval, interval, integer, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.wait(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.cancel(bigint) FROM PUBLIC;
