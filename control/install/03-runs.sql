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

