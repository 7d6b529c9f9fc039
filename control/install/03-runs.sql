--
-- bench._runs: one row per benchmark run, from the moment its clients are
-- ready to start; the summary is filled when it ends, however it ends.
-- It is read through the view bench.runs (below), which shows a run whose
-- coordinator is gone as the aborted run it is.  Its ids (and the
-- suites') come from the sequence bench.runs_id_seq.
--
CREATE SEQUENCE bench.runs_id_seq;

CREATE TABLE bench._runs (
    id                      bigint      PRIMARY KEY DEFAULT nextval('bench.runs_id_seq'),
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
    lag_max_ms              double precision,
    target                  text,
    driver                  text        NOT NULL DEFAULT 'server'
                            CHECK (driver IN ('server', 'libpq')),
    jobs                    integer,
    connect                 text
                            CHECK (connect IN ('per_run', 'per_transaction')),
    target_host             text,
    target_rtt_ms           double precision,
    connection_time_ms      double precision,
    on_disconnect           text
                            CHECK (on_disconnect IN ('fail', 'continue', 'reconnect')),
    clients_lost            integer,
    ignored_errors          bigint,
    step                    text,
    price_per_hour          numeric     CHECK (price_per_hour >= 0),
    currency                text        CHECK (currency ~ '^[A-Z]{3}$'),
    reconnects              bigint,
    outages                 integer,
    outages_open            integer,
    downtime_median_ms      double precision,
    downtime_max_ms         double precision,
    detection_max_ms        double precision,
    unknown_outcome         bigint,
    outage_started          timestamptz,
    outage_ended            timestamptz,
    recovery_ms             double precision,
    check_query             text,
    check_before            bigint,
    check_after             bigint,
    committed_missing       bigint,
    unknown_committed       bigint,
    response_timeout        interval,
    node_name               text,
    node_number             integer,
    node_host               text,
    node_system_identifier  text,
    start_at                timestamptz,
    part_of                 text,
    CONSTRAINT _runs_price_check CHECK ((price_per_hour IS NULL) = (currency IS NULL))
);

ALTER SEQUENCE bench.runs_id_seq OWNED BY bench._runs.id;

CREATE INDEX runs_running ON bench._runs (dataset_id) WHERE status = 'running';

COMMENT ON TABLE bench._runs IS
    'Benchmark runs as recorded (read them through the view bench.runs)';
COMMENT ON COLUMN bench._runs.step IS
    'The step of a suite of steps the run is (bench.ibench: l.i0, l.x, ..., qp1000)';
COMMENT ON COLUMN bench._runs.price_per_hour IS
    'The price per hour of the server the run ran on, when it started: its target''s option price_per_hour, or pgbenchkit.price_per_hour; NULL when unknown';
COMMENT ON COLUMN bench._runs.currency IS
    'The currency of price_per_hour (ISO 4217 code); NULL when the price is unknown';
COMMENT ON COLUMN bench._runs.reconnects IS
    'on_disconnect => ''reconnect'': the connections the clients made again after losing theirs; NULL for other runs';
COMMENT ON COLUMN bench._runs.outages IS
    'on_disconnect => ''reconnect'': the clients'' outages, each from a client''s last success before a lost connection to its first success after it';
COMMENT ON COLUMN bench._runs.outages_open IS
    'on_disconnect => ''reconnect'': the clients whose outage had not ended when the run did (the run then failed, 08006)';
COMMENT ON COLUMN bench._runs.downtime_median_ms IS
    'on_disconnect => ''reconnect'': the median over the clients that had an outage of each one''s downtime in all (an open outage counted to the run''s end)';
COMMENT ON COLUMN bench._runs.downtime_max_ms IS
    'on_disconnect => ''reconnect'': the longest downtime of a client';
COMMENT ON COLUMN bench._runs.detection_max_ms IS
    'on_disconnect => ''reconnect'': the longest time from a client''s last success to the failure that showed it the loss';
COMMENT ON COLUMN bench._runs.unknown_outcome IS
    'on_disconnect => ''reconnect'': the transactions whose COMMIT (or statement outside a transaction block) was sent and whose answer the lost connection took; committed or not, the client could not tell (check_query tells how many did)';
COMMENT ON COLUMN bench._runs.outage_started IS
    'on_disconnect => ''reconnect'': the start of the first outage of any client (its last success before the loss)';
COMMENT ON COLUMN bench._runs.outage_ended IS
    'on_disconnect => ''reconnect'': the end of the last outage of any client (its first success after it); NULL while one was still open at the end';
COMMENT ON COLUMN bench._runs.recovery_ms IS
    'on_disconnect => ''reconnect'': from the first lost connection of any client to the first transaction committed after it';
COMMENT ON COLUMN bench._runs.check_query IS
    'The query of one integer on the target that each committed transaction adds one to, read before the run and after it (check_query; tpcb and simple-update count pgbench_history with on_disconnect => ''reconnect'')';
COMMENT ON COLUMN bench._runs.check_before IS
    'check_query''s value before the run';
COMMENT ON COLUMN bench._runs.check_after IS
    'check_query''s value after the run; NULL when it could not be read (the notes say why)';
COMMENT ON COLUMN bench._runs.committed_missing IS
    'The transactions the run counted committed that the target does not have: the committed count (warm-up included) less the growth of check_query''s value, at least 0';
COMMENT ON COLUMN bench._runs.unknown_committed IS
    'Of unknown_outcome, the transactions that did commit: the growth of check_query''s value beyond the committed count, at most unknown_outcome';
COMMENT ON COLUMN bench._runs.response_timeout IS
    'response_timeout: a statement not answered within it counted as a lost connection; NULL: none';
COMMENT ON COLUMN bench._runs.node_name IS
    'The node of the fleet that ran it (bench.set_node); NULL before its node was set';
COMMENT ON COLUMN bench._runs.node_number IS
    'The number of that node: the run''s id lies in its range (number * 2^40 on)';
COMMENT ON COLUMN bench._runs.node_host IS
    'The host name of the server that ran it (the driver); NULL for runs of 0.2.0 and before';
COMMENT ON COLUMN bench._runs.node_system_identifier IS
    'The system identifier of the cluster that ran it (pg_control_system()); NULL for runs of 0.2.0 and before';
COMMENT ON COLUMN bench._runs.start_at IS
    'at =>: the instant its measured part was to start, its clients starting the warm-up before it; NULL: when ready';
COMMENT ON COLUMN bench._runs.part_of IS
    'part_of =>: the distributed run it is a part of, the parts of one name merged by bench.distributed_runs';

--
-- bench.progress: one row per run per progress interval.
--
CREATE TABLE bench.progress (
    run_id          bigint      NOT NULL REFERENCES bench._runs (id) ON DELETE CASCADE,
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
    histogram_lower_ms double precision[],
    histogram_upper_ms double precision[],
    histogram_count bigint[],
    ignored_errors  bigint      NOT NULL DEFAULT 0,
    connection_failures bigint,
    reconnects      bigint,
    PRIMARY KEY (run_id, interval_start)
);

COMMENT ON TABLE bench.progress IS
    'Per-interval progress of every run: transactions, tps, latency, failures; warm-up intervals marked';
COMMENT ON COLUMN bench.progress.connection_failures IS
    'on_disconnect => ''reconnect'': the transactions of the interval that failed because their connection was lost (counted in failures too); NULL for other runs';
COMMENT ON COLUMN bench.progress.reconnects IS
    'on_disconnect => ''reconnect'': the connections the clients made again in the interval; NULL for other runs';

--
-- bench.outages: on_disconnect => 'reconnect', each client's outages
--
CREATE TABLE bench.outages (
    run_id          bigint      NOT NULL REFERENCES bench._runs (id) ON DELETE CASCADE,
    client          integer     NOT NULL,
    outages         integer     NOT NULL,
    open            boolean     NOT NULL,
    downtime_ms     double precision NOT NULL,
    detection_max_ms double precision NOT NULL,
    reconnects      bigint      NOT NULL,
    unknown_outcome bigint      NOT NULL,
    committed       bigint      NOT NULL,
    first_failure   timestamptz NOT NULL,
    outage_started  timestamptz NOT NULL,
    outage_ended    timestamptz,
    reconnect_attempts bigint   NOT NULL,
    last_sqlstate   text,
    PRIMARY KEY (run_id, client)
);

COMMENT ON TABLE bench.outages IS
    'on_disconnect => ''reconnect'': each client that lost its connection: its outages (each from its last success before the loss to its first success after it), downtime in all, longest detection, reconnects, transactions of unknown outcome and committed';
COMMENT ON COLUMN bench.outages.open IS
    'Whether the client''s last outage had not ended when the run did (counted in downtime_ms until the run''s end)';
COMMENT ON COLUMN bench.outages.first_failure IS
    'The failure that showed the client its first loss';
COMMENT ON COLUMN bench.outages.outage_started IS
    'The start of the client''s first outage: its last success before it';
COMMENT ON COLUMN bench.outages.outage_ended IS
    'The end of the client''s last outage that ended: its first success after it; NULL when none did';
COMMENT ON COLUMN bench.outages.reconnect_attempts IS
    'The new connections the client tried, made or not: bounded by the waits between them (reconnect_delay doubling up to reconnect_max_delay)';
COMMENT ON COLUMN bench.outages.last_sqlstate IS
    'The SQLSTATE of the client''s last lost connection or failed attempt (08006 lost, 57P01 shut down, 25006 read-only, 08001 no connection made (refused, pg_hba.conf, a timeout: libpq gives a failed connection no SQLSTATE of the server''s), ...)';

--
-- bench.histograms: the merged latency histogram of each run's measured
-- transactions (warm-up excluded), one row per non-empty bucket.
--
CREATE TABLE bench.histograms (
    run_id          bigint      NOT NULL REFERENCES bench._runs (id) ON DELETE CASCADE,
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
    run_id          bigint      NOT NULL REFERENCES bench._runs (id) ON DELETE CASCADE,
    script_no       integer     NOT NULL,
    weight          integer     NOT NULL,
    script          text        NOT NULL,
    transactions    bigint,
    latency_avg_ms  double precision,
    failures        bigint,
    skipped         bigint,
    group_no        integer,
    rollbacks       bigint,
    latency_p50_ms  double precision,
    latency_p90_ms  double precision,
    latency_p95_ms  double precision,
    latency_p99_ms  double precision,
    latency_max_ms  double precision,
    PRIMARY KEY (run_id, script_no)
);

COMMENT ON TABLE bench.run_scripts IS
    'The scripts of each run (numbered from 1) with their weights, transactions, average latency and failures in the measured phase';
COMMENT ON COLUMN bench.run_scripts.group_no IS
    'The group whose clients run the script (bench.run_groups), in a run with groups';
COMMENT ON COLUMN bench.run_scripts.rollbacks IS
    'Of the script''s transactions, those that ended rolled back as the script means them to: by its ROLLBACK, or by an error its \rollback_errors names';
COMMENT ON COLUMN bench.run_scripts.latency_p50_ms IS
    'The median latency of the script''s transactions in the measured phase, in milliseconds (from a histogram: within 1%)';
COMMENT ON COLUMN bench.run_scripts.latency_p90_ms IS
    'The 90th percentile of the script''s transaction latencies, in milliseconds';
COMMENT ON COLUMN bench.run_scripts.latency_p95_ms IS
    'The 95th percentile of the script''s transaction latencies, in milliseconds';
COMMENT ON COLUMN bench.run_scripts.latency_p99_ms IS
    'The 99th percentile of the script''s transaction latencies, in milliseconds';
COMMENT ON COLUMN bench.run_scripts.latency_max_ms IS
    'The longest of the script''s transactions in the measured phase, in milliseconds (exact)';

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
    parse_ms        double precision,
    rewrite_ms      double precision,
    plan_ms         double precision,
    execute_ms      double precision,
    PRIMARY KEY (run_id, script_no, command_no),
    FOREIGN KEY (run_id, script_no) REFERENCES bench.run_scripts (run_id, script_no) ON DELETE CASCADE
);

COMMENT ON TABLE bench.command_latencies IS
    'Per-command latencies of each run in its measured phase (pgbench -r): executions, average latency, failures, retries';

--
-- bench.run_groups: the groups of clients of a run with groups => , each
-- with its own workload or script and rate, and what each measured; and
-- bench.group_progress, their rows of each progress interval.
--
CREATE TABLE bench.run_groups (
    run_id          bigint      NOT NULL REFERENCES bench._runs (id) ON DELETE CASCADE,
    group_no        integer     NOT NULL,
    name            text        NOT NULL,
    workload        text        NOT NULL,
    clients         integer     NOT NULL,
    rate            double precision,
    transactions    bigint,
    tps             double precision,
    latency_avg_ms  double precision,
    latency_stddev_ms double precision,
    latency_p50_ms  double precision,
    latency_p95_ms  double precision,
    latency_p99_ms  double precision,
    latency_max_ms  double precision,
    failures        bigint,
    ignored_errors  bigint,
    skipped         bigint,
    lag_avg_ms      double precision,
    histogram_lower_ms double precision[],
    histogram_upper_ms double precision[],
    histogram_count bigint[],
    PRIMARY KEY (run_id, group_no),
    UNIQUE (run_id, name)
);

COMMENT ON TABLE bench.run_groups IS
    'The groups of clients of each run with groups (numbered from 1): workload, clients, rate, and what each measured, with its latency histogram';

CREATE TABLE bench.group_progress (
    run_id          bigint      NOT NULL,
    group_no        integer     NOT NULL,
    interval_start  timestamptz NOT NULL,
    interval_end    timestamptz NOT NULL,
    elapsed_s       double precision NOT NULL,
    transactions    bigint      NOT NULL,
    tps             double precision NOT NULL,
    latency_avg_ms  double precision,
    latency_p99_ms  double precision,
    latency_max_ms  double precision,
    failures        bigint      NOT NULL,
    retries         bigint      NOT NULL,
    ignored_errors  bigint      NOT NULL,
    in_warmup       boolean     NOT NULL,
    PRIMARY KEY (run_id, group_no, interval_start),
    FOREIGN KEY (run_id, group_no) REFERENCES bench.run_groups (run_id, group_no) ON DELETE CASCADE
);

COMMENT ON TABLE bench.group_progress IS
    'Per-interval progress of each group of a run with groups: transactions, tps, latency, failures (the intervals of bench.progress)';

SELECT pg_catalog.pg_extension_config_dump('bench.run_groups', '');
SELECT pg_catalog.pg_extension_config_dump('bench.group_progress', '');
GRANT SELECT ON bench.run_groups, bench.group_progress TO PUBLIC;

SELECT pg_catalog.pg_extension_config_dump('bench.run_scripts', '');
SELECT pg_catalog.pg_extension_config_dump('bench.command_latencies', '');
GRANT SELECT ON bench.run_scripts, bench.command_latencies TO PUBLIC;

SELECT pg_catalog.pg_extension_config_dump('bench._runs', '');
SELECT pg_catalog.pg_extension_config_dump('bench.runs_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('bench.progress', '');
SELECT pg_catalog.pg_extension_config_dump('bench.histograms', '');
SELECT pg_catalog.pg_extension_config_dump('bench.outages', '');
GRANT SELECT ON bench._runs, bench.progress, bench.histograms, bench.outages TO PUBLIC;

#include "functions/_run_alive.sql"

#include "functions/_rate_schedule.sql"

#include "functions/_progress_histogram.sql"

#include "functions/_run_aborted.sql"

#include "functions/_write_through.sql"

#include "functions/_visible.sql"

#include "views/runs.sql"

#include "functions/_run_state.sql"

#include "functions/_cost_per_million.sql"

#include "functions/_transactions_per_unit.sql"

#include "views/runs_in_progress.sql"

#include "functions/_arguments_of.sql"

#include "views/run_arguments.sql"

#include "functions/_create_run_function.sql"

#include "functions/run.sql"
#include "functions/start.sql"

#include "functions/wait.sql"

#include "functions/cancel.sql"
