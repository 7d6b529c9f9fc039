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
                            CHECK (on_disconnect IN ('fail', 'continue')),
    clients_lost            integer,
    ignored_errors          bigint,
    step                    text
);

ALTER SEQUENCE bench.runs_id_seq OWNED BY bench._runs.id;

CREATE INDEX runs_running ON bench._runs (dataset_id) WHERE status = 'running';

COMMENT ON TABLE bench._runs IS
    'Benchmark runs as recorded (read them through the view bench.runs)';
COMMENT ON COLUMN bench._runs.step IS
    'The step of a suite of steps the run is (bench.ibench: l.i0, l.x, ..., qp1000)';

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
    PRIMARY KEY (run_id, interval_start)
);

COMMENT ON TABLE bench.progress IS
    'Per-interval progress of every run: transactions, tps, latency, failures; warm-up intervals marked';

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
    PRIMARY KEY (run_id, script_no)
);

COMMENT ON TABLE bench.run_scripts IS
    'The scripts of each run (numbered from 1) with their weights, transactions, average latency and failures in the measured phase';
COMMENT ON COLUMN bench.run_scripts.group_no IS
    'The group whose clients run the script (bench.run_groups), in a run with groups';

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
GRANT SELECT ON bench._runs, bench.progress, bench.histograms TO PUBLIC;

--
-- The state of a run as its readers show it.  A run is alive while its
-- coordinator holds the run's lock (bench._run_alive, in the library); a
-- run whose stored row says 'running' and whose coordinator is gone (a
-- crash, an immediate shutdown) is shown by the view bench.runs as the
-- aborted run it is, with what its progress rows kept
-- (bench._run_aborted), until the next bench function writes it so.
--
CREATE FUNCTION bench._run_alive(run_id bigint)
RETURNS boolean
LANGUAGE c STRICT VOLATILE PARALLEL RESTRICTED
AS 'MODULE_PATHNAME', 'bench_run_alive';

COMMENT ON FUNCTION bench._run_alive(bigint) IS
    'Internal: false only for a run left running by a coordinator that is gone: no one holds the run''s lock and its newest row (read with a snapshot taken then) still says running';

-- bench._rate_schedule: the starts a rate limit schedules, for tests
CREATE FUNCTION bench._rate_schedule(random_seed bigint, rate double precision, clients integer,
                                     workers integer, seconds double precision)
RETURNS double precision[]
LANGUAGE c STRICT IMMUTABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'bench_rate_schedule';

COMMENT ON FUNCTION bench._rate_schedule(bigint, double precision, integer, integer, double precision) IS
    'Internal: the starts (seconds from the run''s start) that a run''s rate limit schedules before SECONDS, given its random_seed, rate, clients and client workers';

-- the latency histogram of a run's measured intervals, from its progress rows
CREATE FUNCTION bench._progress_histogram(run_id bigint)
RETURNS TABLE (lower_ms double precision, upper_ms double precision, count bigint)
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT h.lower_ms, h.upper_ms, sum(h.count)::bigint
  FROM bench.progress q,
       unnest(q.histogram_lower_ms, q.histogram_upper_ms, q.histogram_count) AS h (lower_ms, upper_ms, count)
 WHERE q.run_id = _progress_histogram.run_id AND NOT q.in_warmup
 GROUP BY h.lower_ms, h.upper_ms
 ORDER BY h.lower_ms
$fn$;

COMMENT ON FUNCTION bench._progress_histogram(bigint) IS
    'Internal: the latency histogram of a run''s measured progress intervals, merged';

-- a run whose coordinator is gone, as it is recorded: 'aborted', with the
-- figures of its progress rows (the view bench.runs shows each column it
-- sets from it)
CREATE FUNCTION bench._run_aborted(r bench._runs)
RETURNS bench._runs
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    p   record;
    pct double precision[];
BEGIN
    SELECT max(q.interval_end) AS last_end,
           sum(q.transactions) FILTER (WHERE NOT q.in_warmup)::bigint AS xacts,
           sum(q.transactions) FILTER (WHERE q.in_warmup)::bigint AS warmup_xacts,
           sum(q.failures)::bigint AS failures,
           sum(q.retries) FILTER (WHERE NOT q.in_warmup)::bigint AS retries,
           sum(q.ignored_errors) FILTER (WHERE NOT q.in_warmup)::bigint AS ignored_errors,
           sum(EXTRACT(epoch FROM q.interval_end - q.interval_start))
               FILTER (WHERE NOT q.in_warmup)::float8 AS measured_s,
           sum(q.transactions * q.latency_avg_ms) FILTER (WHERE NOT q.in_warmup) AS lat_sum,
           sum(q.transactions * (q.latency_stddev_ms ^ 2 + q.latency_avg_ms ^ 2))
               FILTER (WHERE NOT q.in_warmup) AS lat_sumsq,
           max(q.latency_max_ms) FILTER (WHERE NOT q.in_warmup) AS lat_max
      INTO p
      FROM bench.progress q
     WHERE q.run_id = r.id;
    -- percentiles as the library reads them from a histogram: the midpoint
    -- of the bucket that holds the value of rank ceil(fraction * n)
    WITH h AS (
        SELECT h.lower_ms, h.upper_ms,
               sum(h.count) OVER (ORDER BY h.lower_ms) AS seen,
               sum(h.count) OVER () AS n
          FROM bench._progress_histogram(r.id) h
    )
    SELECT array_agg((SELECT CASE WHEN h.upper_ms - h.lower_ms < 1.5e-6 THEN h.lower_ms
                                  ELSE (h.lower_ms + h.upper_ms) / 2 END
                        FROM h
                       WHERE h.seen >= greatest(1, ceil(f.fraction * h.n::float8))
                       ORDER BY h.lower_ms LIMIT 1) ORDER BY f.fraction)
      INTO pct
      FROM (VALUES (0.5::float8), (0.9), (0.95), (0.99), (0.999)) AS f (fraction);

    r.status := 'aborted';
    r.sqlstate := '57P01';
    r.error := 'the run''s coordinator ended before the run finished (server restart, crash or termination)';
    r.ended_at := COALESCE(p.last_end, r.started_at);
    r.coordinator_pid := NULL;
    r.measured_s := p.measured_s;
    r.transactions := p.xacts;
    r.tps := CASE WHEN p.measured_s > 0 THEN p.xacts / p.measured_s END;
    r.warmup_transactions := p.warmup_xacts;
    r.failures := p.failures;
    r.retries := p.retries;
    r.ignored_errors := p.ignored_errors;
    r.latency_avg_ms := p.lat_sum / NULLIF(p.xacts, 0);
    r.latency_stddev_ms := sqrt(greatest(p.lat_sumsq / NULLIF(p.xacts, 0)
                                         - (p.lat_sum / NULLIF(p.xacts, 0)) ^ 2, 0));
    r.latency_max_ms := p.lat_max;
    r.latency_min_ms := (SELECT min(h.lower_ms) FROM bench._progress_histogram(r.id) h);
    r.latency_p50_ms := pct[1];
    r.latency_p90_ms := pct[2];
    r.latency_p95_ms := pct[3];
    r.latency_p99_ms := pct[4];
    r.latency_p999_ms := pct[5];
    RETURN r;
END
$fn$;

COMMENT ON FUNCTION bench._run_aborted(bench._runs) IS
    'Internal: a run whose coordinator is gone, as it is recorded: aborted, with the counts, latencies and histogram of its progress rows';

--
-- bench._write_through: the trigger that makes the views bench.runs and
-- bench.suites writable (by whoever may write the table TG_ARGV[0]: the
-- owner of schema bench, a superuser).  An INSERT or DELETE of a row of the
-- view is done on the table; an UPDATE writes the columns it changed into
-- the table's row with the same id (not the ones the view computed, for a
-- run or a suite whose process is gone, and the UPDATE left as they were).
--
CREATE FUNCTION bench._write_through()
RETURNS trigger
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    tbl     regclass := TG_ARGV[0]::regclass;
    changed text;
    n       bigint;
BEGIN
    IF TG_OP = 'INSERT' THEN
        EXECUTE format('INSERT INTO %s SELECT ($1).* RETURNING *', tbl) INTO NEW USING NEW;
        RETURN NEW;
    ELSIF TG_OP = 'UPDATE' THEN
        SELECT string_agg(format('%I = n.%I', a.key, a.key), ', ') INTO changed
          FROM jsonb_each(to_jsonb(NEW)) a JOIN jsonb_each(to_jsonb(OLD)) b ON b.key = a.key
         WHERE a.value IS DISTINCT FROM b.value;
        IF changed IS NULL THEN
            RETURN NEW;
        END IF;
        EXECUTE format('UPDATE %s t SET %s FROM (SELECT ($1).*) n WHERE t.id = $2', tbl, changed)
          USING NEW, OLD.id;
    ELSE
        EXECUTE format('DELETE FROM %s WHERE id = $1', tbl) USING OLD.id;
    END IF;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN CASE WHEN n = 0 THEN NULL WHEN TG_OP = 'UPDATE' THEN NEW ELSE OLD END;
END
$fn$;

COMMENT ON FUNCTION bench._write_through() IS
    'Internal: the trigger of the views bench.runs and bench.suites: an INSERT, UPDATE or DELETE of a row of the view is done on the table it reads';

--
-- bench._visible: whether the current role may see the rows of work made
-- by role OWNER (the library's rule, bk_may_steer, that bench.cancel,
-- bench.cancel_suite, bench.run_schedule and bench.unschedule apply too).
-- Every role's queries call it, through the policies of
-- 09-privileges.sql (and, on PostgreSQL 14, the views bench.runs and
-- bench.suites).
--
CREATE FUNCTION bench._visible(owner name)
RETURNS boolean
LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'bench_visible';

COMMENT ON FUNCTION bench._visible(name) IS
    'Internal: whether the current role may see the work of role OWNER: its own, of a role whose privileges it has, or any as a member of pgbenchkit_admin or a superuser';

--
-- bench.runs: the runs as they are.  A run is alive while its coordinator
-- holds the run's lock (bench._run_alive, in the library); a row of
-- bench._runs that says 'running' and whose coordinator is gone (a crash,
-- an immediate shutdown, a kill) is shown as the aborted run it is, with
-- what its progress rows kept (bench._run_aborted), from the moment the
-- server accepts connections again, before any bench function has written
-- it so (bk_recover_runs).  The lock is asked only for the rows that say
-- 'running'.  The view reads the table as the role that queries it
-- (security_invoker), so that the table's row level security applies;
-- PostgreSQL 14, which has no such views, applies the same rule
-- (bench._visible) in the view.
--
DO $do$
BEGIN
    EXECUTE pg_catalog.format($v$
CREATE VIEW bench.runs WITH (%s) AS
SELECT r.id, r.workload, r.dataset_id, r.scale, r.clients, r.duration,
       r.transactions_per_client, r.protocol, r.warmup, r.progress, r.max_tries, r.tag,
       CASE WHEN r.dead IS NULL THEN r.status ELSE (r.dead).status END AS status,
       CASE WHEN r.dead IS NULL THEN r.sqlstate ELSE (r.dead).sqlstate END AS sqlstate,
       CASE WHEN r.dead IS NULL THEN r.error ELSE (r.dead).error END AS error,
       r.created_by, r.server_version, r.started_at,
       CASE WHEN r.dead IS NULL THEN r.ended_at ELSE (r.dead).ended_at END AS ended_at,
       CASE WHEN r.dead IS NULL THEN r.measured_s ELSE (r.dead).measured_s END AS measured_s,
       CASE WHEN r.dead IS NULL THEN r.transactions ELSE (r.dead).transactions END AS transactions,
       CASE WHEN r.dead IS NULL THEN r.tps ELSE (r.dead).tps END AS tps,
       CASE WHEN r.dead IS NULL THEN r.latency_avg_ms ELSE (r.dead).latency_avg_ms END AS latency_avg_ms,
       CASE WHEN r.dead IS NULL THEN r.latency_stddev_ms ELSE (r.dead).latency_stddev_ms END AS latency_stddev_ms,
       CASE WHEN r.dead IS NULL THEN r.latency_min_ms ELSE (r.dead).latency_min_ms END AS latency_min_ms,
       CASE WHEN r.dead IS NULL THEN r.latency_p50_ms ELSE (r.dead).latency_p50_ms END AS latency_p50_ms,
       CASE WHEN r.dead IS NULL THEN r.latency_p90_ms ELSE (r.dead).latency_p90_ms END AS latency_p90_ms,
       CASE WHEN r.dead IS NULL THEN r.latency_p95_ms ELSE (r.dead).latency_p95_ms END AS latency_p95_ms,
       CASE WHEN r.dead IS NULL THEN r.latency_p99_ms ELSE (r.dead).latency_p99_ms END AS latency_p99_ms,
       CASE WHEN r.dead IS NULL THEN r.latency_p999_ms ELSE (r.dead).latency_p999_ms END AS latency_p999_ms,
       CASE WHEN r.dead IS NULL THEN r.latency_max_ms ELSE (r.dead).latency_max_ms END AS latency_max_ms,
       CASE WHEN r.dead IS NULL THEN r.failures ELSE (r.dead).failures END AS failures,
       r.serialization_failures, r.deadlock_failures, r.other_failures, r.retried,
       CASE WHEN r.dead IS NULL THEN r.retries ELSE (r.dead).retries END AS retries,
       CASE WHEN r.dead IS NULL THEN r.warmup_transactions ELSE (r.dead).warmup_transactions END AS warmup_transactions,
       CASE WHEN r.dead IS NULL THEN r.coordinator_pid ELSE (r.dead).coordinator_pid END AS coordinator_pid,
       r.prewarm, r.sample_interval, r.settings, r.host, r.unavailable, r.suite_id,
       r.origin, r.rate, r.latency_limit, r.random_seed, r.variables, r.skipped, r.late,
       r.lag_avg_ms, r.lag_max_ms, r.target, r.driver, r.jobs, r.connect, r.target_host,
       r.target_rtt_ms, r.connection_time_ms, r.on_disconnect, r.clients_lost,
       CASE WHEN r.dead IS NULL THEN r.ignored_errors ELSE (r.dead).ignored_errors END AS ignored_errors,
       r.step
  FROM (SELECT t.*,
               CASE WHEN t.status <> 'running' THEN NULL
                    WHEN NOT bench._run_alive(t.id) THEN bench._run_aborted(t) END AS dead
          FROM bench._runs t%s) r
$v$,
        CASE WHEN pg_catalog.current_setting('server_version_num')::integer >= 150000
             THEN 'security_invoker = true' ELSE 'security_barrier = true' END,
        CASE WHEN pg_catalog.current_setting('server_version_num')::integer >= 150000
             THEN '' ELSE ' WHERE bench._visible(t.created_by)' END);
END
$do$;

COMMENT ON VIEW bench.runs IS
    'Benchmark runs: workload, parameters as given, status, and the summary of what was measured';
COMMENT ON COLUMN bench.runs.step IS
    'The step of a suite of steps the run is (bench.ibench: l.i0, l.x, ..., qp1000)';
GRANT SELECT ON bench.runs TO PUBLIC;
CREATE TRIGGER write_through INSTEAD OF INSERT OR UPDATE OR DELETE ON bench.runs
    FOR EACH ROW EXECUTE FUNCTION bench._write_through('bench._runs');

-- the defaults of the view's columns are the table's, for an INSERT into it
DO $do$
DECLARE
    d record;
BEGIN
    FOR d IN SELECT a.attname, pg_catalog.pg_get_expr(ad.adbin, ad.adrelid) AS expr
               FROM pg_catalog.pg_attrdef ad
               JOIN pg_catalog.pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
              WHERE ad.adrelid = 'bench._runs'::regclass ORDER BY a.attnum
    LOOP
        EXECUTE pg_catalog.format('ALTER VIEW bench.runs ALTER COLUMN %I SET DEFAULT %s', d.attname, d.expr);
    END LOOP;
END
$do$;

-- a row of bench.runs as it is now (read again if its coordinator is gone
-- since it was read)
CREATE FUNCTION bench._run_state(r bench.runs)
RETURNS bench.runs
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT CASE WHEN r.status = 'running' AND NOT bench._run_alive(r.id)
            THEN (SELECT v FROM bench.runs v WHERE v.id = r.id) ELSE r END
$fn$;

COMMENT ON FUNCTION bench._run_state(bench.runs) IS
    'Internal: a run''s row as its readers show it: aborted as soon as its coordinator is gone';

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
 WHERE r.status = 'running' AND bench._run_alive(r.id);

COMMENT ON VIEW bench.runs_in_progress IS
    'Runs in progress: elapsed time, transactions so far, and the tps and latency of their latest progress interval';
GRANT SELECT ON bench.runs_in_progress TO PUBLIC;

--
-- The run arguments: one table of them, in the library (src/api/runargs.c),
-- which every function that starts runs takes them from.
--
CREATE FUNCTION bench._arguments_of(function text)
RETURNS TABLE (argno integer, name text, type regtype, default_value text,
               required boolean, description text)
LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'bench_arguments_of';

COMMENT ON FUNCTION bench._arguments_of(text) IS
    'Internal: the arguments of bench.run, bench.start, bench.sweep, bench.start_sweep or bench.schedule, in the order of its signature, from the library''s table of run arguments';

CREATE VIEW bench.run_arguments AS
SELECT a.argno, a.name, a.type, a.default_value, a.description
  FROM bench._arguments_of('bench.run') a;

COMMENT ON VIEW bench.run_arguments IS
    'The arguments every run takes (bench.run, bench.start, and the runs of sweeps and schedules): name, type, default and what it does';
GRANT SELECT ON bench.run_arguments TO PUBLIC;

--
-- bench._create_run_function: (re)create one of the functions that take
-- the run arguments, with the signature bench._arguments_of gives it, as
-- a C function of the library (which reads its arguments by name).  The
-- install script and every upgrade script that changes the run arguments
-- call it; a signature of another version is dropped first.
--
CREATE FUNCTION bench._create_run_function(function text, returns text, symbol text,
                                           comment text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    args text;
    old  regprocedure;
BEGIN
    SELECT string_agg(format('%I %s', a.name, a.type)
                      || CASE WHEN a.required THEN ''
                              ELSE ' DEFAULT ' || coalesce(quote_literal(a.default_value) || '::' || a.type, 'NULL')
                         END, ', ' ORDER BY a.argno)
      INTO args
      FROM bench._arguments_of(function) a;
    FOR old IN SELECT p.oid::regprocedure FROM pg_proc p
                WHERE p.pronamespace = 'bench'::regnamespace
                  AND p.proname = split_part(function, '.', 2)
    LOOP
        EXECUTE format('DROP FUNCTION %s', old);
    END LOOP;
    EXECUTE format('CREATE FUNCTION %s(%s) RETURNS %s LANGUAGE c VOLATILE PARALLEL UNSAFE AS %L, %L',
                   function, args, returns, 'MODULE_PATHNAME', symbol);
    SELECT p.oid::regprocedure INTO old FROM pg_proc p
     WHERE p.pronamespace = 'bench'::regnamespace AND p.proname = split_part(function, '.', 2);
    EXECUTE format('COMMENT ON FUNCTION %s IS %L', old, comment);
    EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', old);
END
$fn$;

COMMENT ON FUNCTION bench._create_run_function(text, text, text, text) IS
    'Internal: create a function that takes the run arguments, from the library''s table of them';
REVOKE ALL ON FUNCTION bench._create_run_function(text, text, text, text) FROM PUBLIC;

--
-- bench.run and friends.
--
SELECT bench._create_run_function('bench.run', 'bench.runs', 'bench_run',
    'Run a workload with background-worker clients; wait for it, print progress, return its row of bench.runs');
SELECT bench._create_run_function('bench.start', 'bigint', 'bench_start',
    'Start a run in the background and return its id at once');

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

REVOKE ALL ON FUNCTION bench.wait(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.cancel(bigint) FROM PUBLIC;

