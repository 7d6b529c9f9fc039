--
-- Suites: many runs as one experiment (bench.sweep), and schedules of
-- them (bench.schedule, with pg_cron).
--

--
-- bench._suites: one row per sweep, scheduled or not, read through the view
-- bench.suites (below).  Suite ids and run ids are drawn from one sequence,
-- so an id names either a run or a suite.
--
CREATE TABLE bench._suites (
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
    origin          jsonb,
    steps           jsonb
);

CREATE INDEX suites_schedule ON bench._suites (schedule, started_at) WHERE schedule IS NOT NULL;

COMMENT ON TABLE bench._suites IS
    'Sweeps as recorded (read them through the view bench.suites)';
COMMENT ON COLUMN bench._suites.steps IS
    'A suite of steps (bench.ibench): each step''s name and run arguments, in order; NULL for a sweep';

ALTER TABLE bench._runs ADD FOREIGN KEY (suite_id) REFERENCES bench._suites (id);
CREATE INDEX runs_suite ON bench._runs (suite_id) WHERE suite_id IS NOT NULL;

SELECT pg_catalog.pg_extension_config_dump('bench._suites', '');
GRANT SELECT ON bench._suites TO PUBLIC;

--
-- The state of a suite as its readers show it.  A suite is alive while its
-- worker holds the suite's lock (bench._suite_alive, in the library); a
-- suite whose stored row says 'running' and whose worker is gone is shown
-- by the view bench.suites as the aborted suite it is, its finished runs
-- kept, until the next bench function writes it so.
--
CREATE FUNCTION bench._suite_alive(suite_id bigint)
RETURNS boolean
LANGUAGE c STRICT VOLATILE PARALLEL RESTRICTED
AS 'MODULE_PATHNAME', 'bench_suite_alive';

COMMENT ON FUNCTION bench._suite_alive(bigint) IS
    'Internal: false only for a suite left running by a worker that is gone: no one holds the suite''s lock and its newest row (read with a snapshot taken then) still says running';

--
-- bench.suites: the suites as they are.  A row of bench._suites that says
-- 'running' and whose worker is gone is shown as the aborted suite it is,
-- ended when its last run ended (as bench.runs shows its runs), from the
-- moment the server accepts connections again; the lock is asked only for
-- the rows that say 'running'.  Row level security as for bench.runs.
--
DO $do$
BEGIN
    EXECUTE pg_catalog.format($v$
CREATE VIEW bench.suites WITH (%s) AS
SELECT s.id, s.workload, s.clients, s.repeat, s.run_order, s.args, s.search_path, s.tag,
       s.schedule, s.runs_planned,
       CASE WHEN s.dead THEN 'aborted' ELSE s.status END AS status,
       CASE WHEN s.dead THEN '57P01' ELSE s.sqlstate END AS sqlstate,
       CASE WHEN s.dead
            THEN 'the suite''s worker ended before the suite finished (server restart, crash or termination)'
            ELSE s.error END AS error,
       s.created_by, s.server_version, s.started_at,
       CASE WHEN s.dead
            THEN COALESCE((SELECT max(r.ended_at) FROM bench.runs r WHERE r.suite_id = s.id),
                          s.started_at)
            ELSE s.ended_at END AS ended_at,
       CASE WHEN s.dead THEN NULL ELSE s.worker_pid END AS worker_pid,
       s.origin, s.steps
  FROM (SELECT t.*,
               CASE WHEN t.status <> 'running' THEN false
                    ELSE NOT bench._suite_alive(t.id) END AS dead
          FROM bench._suites t%s) s
$v$,
        CASE WHEN pg_catalog.current_setting('server_version_num')::integer >= 150000
             THEN 'security_invoker = true' ELSE 'security_barrier = true' END,
        CASE WHEN pg_catalog.current_setting('server_version_num')::integer >= 150000
             THEN '' ELSE ' WHERE bench._visible(t.created_by)' END);
END
$do$;

COMMENT ON VIEW bench.suites IS
    'Sweeps: a workload run at several client counts, each repeated; one row per sweep with its status';
COMMENT ON COLUMN bench.suites.steps IS
    'A suite of steps (bench.ibench): each step''s name and run arguments, in order; NULL for a sweep';
GRANT SELECT ON bench.suites TO PUBLIC;
CREATE TRIGGER write_through INSTEAD OF INSERT OR UPDATE OR DELETE ON bench.suites
    FOR EACH ROW EXECUTE FUNCTION bench._write_through('bench._suites');

-- the defaults of the view's columns are the table's, for an INSERT into it
DO $do$
DECLARE
    d record;
BEGIN
    FOR d IN SELECT a.attname, pg_catalog.pg_get_expr(ad.adbin, ad.adrelid) AS expr
               FROM pg_catalog.pg_attrdef ad
               JOIN pg_catalog.pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
              WHERE ad.adrelid = 'bench._suites'::regclass ORDER BY a.attnum
    LOOP
        EXECUTE pg_catalog.format('ALTER VIEW bench.suites ALTER COLUMN %I SET DEFAULT %s', d.attname, d.expr);
    END LOOP;
END
$do$;

-- a row of bench.suites as it is now (read again if its worker is gone
-- since it was read)
CREATE FUNCTION bench._suite_state(s bench.suites)
RETURNS bench.suites
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT CASE WHEN s.status = 'running' AND NOT bench._suite_alive(s.id)
            THEN (SELECT v FROM bench.suites v WHERE v.id = s.id) ELSE s END
$fn$;

COMMENT ON FUNCTION bench._suite_state(bench.suites) IS
    'Internal: a suite''s row as its readers show it: aborted as soon as its worker is gone';

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
       -- a suite of steps: the run of the step at that position
       AND (s.steps IS NULL OR r.step = s.steps -> (c.pos::integer - 1) ->> 'step')
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
SELECT bench._create_run_function('bench.sweep', 'SETOF bench.suite_summary', 'bench_sweep',
    'Run a workload at each client count, repeat times each, as one suite; wait for it and return its summary per client count');
SELECT bench._create_run_function('bench.start_sweep', 'bigint', 'bench_start_sweep',
    'Start a sweep in the background and return its suite id at once');
SELECT bench._create_run_function('bench._sweep_spec', 'jsonb', 'bench_sweep_spec',
    'Internal: check the arguments of a sweep and return them as jsonb');

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
SET search_path = pg_catalog, pg_temp
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
-- as the calling role.  bench.schedule itself takes the run arguments: the
-- library calls bench._schedule without a sweep (its own checks only),
-- checks the sweep, SPEC, and calls bench._schedule again with it.
--
-- The library calls bench._schedule as the owner of schema bench (no other
-- role may execute it), with OWNER the calling role: the row is written as
-- the owner, for OWNER, and pg_cron's job is made for OWNER with
-- cron.schedule_in_database, which only a superuser may do for another
-- role.  The job runs one fixed statement, bench.run_schedule(name), as
-- OWNER: the calling role needs no privilege on pg_cron.
--
CREATE FUNCTION bench._schedule(name text, schedule text, spec jsonb,
                                baseline_runs integer, threshold double precision,
                                owner name)
RETURNS bench.schedules
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    why      text;
    cron_db  name;
    cron_ver text;
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
    IF owner IS NULL THEN
        RAISE EXCEPTION 'argument "owner" of bench._schedule must not be null'
              USING ERRCODE = 'null_value_not_allowed',
                    HINT = 'bench.schedule passes the calling role.';
    END IF;
    IF name !~ '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,62}$' THEN
        RAISE EXCEPTION 'invalid schedule name "%"',
                        CASE WHEN length(name) > 64 THEN left(name, 64) || '...' ELSE name END
              USING ERRCODE = 'invalid_parameter_value',
                    HINT = 'A name is 1 to 63 letters, digits, "_", ".", ":" or "-", starting with a letter or digit; it tags the scheduled runs.';
    END IF;
    IF length(schedule) > 256 THEN
        RAISE EXCEPTION 'schedule is too long: % characters, at most 256', length(schedule)
              USING ERRCODE = 'string_data_right_truncation',
                    HINT = 'A cron expression is five short fields, for example ''0 3 * * *''.';
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
    -- names are the database's, whichever role made the schedule
    IF EXISTS (SELECT 1 FROM bench.schedules s WHERE s.name = _schedule.name) THEN
        RAISE EXCEPTION 'schedule "%" already exists', name
              USING ERRCODE = 'unique_violation',
                    HINT = format('Remove it first with bench.unschedule(%L), or choose another name.', name);
    END IF;
    -- without a sweep: the checks above only (bench.schedule makes them
    -- before it checks the sweep)
    IF spec IS NULL THEN
        RETURN NULL;
    END IF;

    -- pg_cron: loaded, and its extension created where cron.database_name says
    cron_db := current_setting('cron.database_name', true);
    IF cron_db IS NULL THEN
        RAISE EXCEPTION 'pg_cron is not installed'
              USING ERRCODE = 'object_not_in_prerequisite_state',
                    HINT = 'Add pg_cron to shared_preload_libraries, restart the server, and run CREATE EXTENSION pg_cron in the database cron.database_name names (postgres by default).';
    END IF;
    IF cron_db = current_database() THEN
        SELECT e.extversion INTO cron_ver FROM pg_extension e WHERE e.extname = 'pg_cron';
    ELSE
        cron_ver := bench._cron_call(cron_db, 'version');
    END IF;
    IF cron_ver IS NULL THEN
        RAISE EXCEPTION 'pg_cron is loaded but its extension does not exist in database "%"', cron_db
              USING ERRCODE = 'object_not_in_prerequisite_state',
                    HINT = format('Run CREATE EXTENSION pg_cron in database %I (cron.database_name).', cron_db);
    END IF;

    INSERT INTO bench.schedules (name, cron, workload, clients, repeat, run_order, args,
                                 search_path, baseline_runs, threshold, cron_database, created_by)
    VALUES (name, schedule, spec->>'workload',
            ARRAY(SELECT e::integer FROM jsonb_array_elements_text(spec->'clients') WITH ORDINALITY AS x(e, pos) ORDER BY pos),
            (spec->>'repeat')::integer, spec->>'run_order', spec->'args',
            spec->>'search_path', baseline_runs, threshold, cron_db, owner);

    -- last: the job, for OWNER, which in another database commits on its own
    jobname := format('pgbenchkit %s %s', current_database(), name);
    command := format('SELECT * FROM bench.run_schedule(%L)', name);
    IF cron_db = current_database() THEN
        BEGIN
            EXECUTE 'SELECT cron.schedule_in_database($1, $2, $3, $4, $5)' INTO job_id
              USING jobname, schedule, command, current_database()::text, owner::text;
        EXCEPTION WHEN invalid_parameter_value OR internal_error OR data_exception THEN
            RAISE EXCEPTION 'pg_cron refused the schedule "%": %', schedule, SQLERRM
                  USING ERRCODE = 'invalid_parameter_value',
                        HINT = 'Five fields: minute hour day-of-month month day-of-week, as pg_cron takes them.';
        END;
    ELSE
        -- not in an exception block: that would be a subtransaction, and
        -- the call must see whether the caller is in a transaction block
        job_id := bench._cron_call(cron_db, 'schedule',
                                   ARRAY[jobname, schedule, command, current_database(), owner])::bigint;
    END IF;
    UPDATE bench.schedules s SET jobid = job_id WHERE s.name = _schedule.name
    RETURNING * INTO result;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION bench._schedule(text, text, jsonb, integer, double precision, name) IS
    'Internal: check a schedule''s name, cron expression and judgement, record it for its owner with its checked sweep and create its pg_cron job (the library calls it as the owner of schema bench)';

SELECT bench._create_run_function('bench.schedule', 'bench.schedules', 'bench_schedule',
    'Have pg_cron run a sweep (or a single run) on a cron schedule; its runs are tagged with the schedule''s name and judged against a rolling baseline');

--
-- bench.unschedule: remove a schedule and its pg_cron job.  The suites it
-- ran stay, with their schedule's name.  The library checks that the
-- calling role may (the schedule's owner, a member of pgbenchkit_admin or
-- a superuser), then calls bench._unschedule as the owner of schema bench,
-- which removes the row if it still belongs to OWNER, and the job.
--
CREATE FUNCTION bench.unschedule(name text)
RETURNS boolean
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_unschedule';

COMMENT ON FUNCTION bench.unschedule(text) IS
    'Remove a schedule and its pg_cron job; the suites it ran are kept';

CREATE FUNCTION bench._unschedule(name text, owner name)
RETURNS boolean
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    s bench.schedules;
BEGIN
    DELETE FROM bench.schedules sc WHERE sc.name = _unschedule.name AND sc.created_by = _unschedule.owner
    RETURNING * INTO s;
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

COMMENT ON FUNCTION bench._unschedule(text, name) IS
    'Internal: remove the schedule NAME of OWNER and its pg_cron job (the library calls it as the owner of schema bench)';

REVOKE ALL ON FUNCTION bench._schedule(text, text, jsonb, integer, double precision, name) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.unschedule(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench._unschedule(text, name) FROM PUBLIC;

--
-- bench.schedule_status: every schedule with its last suite and result.
--
CREATE VIEW bench.schedule_status AS
SELECT sc.name, sc.cron, sc.workload, sc.clients, sc.repeat, sc.jobid, sc.cron_database,
       sc.created_by,
       (SELECT count(*) FROM bench.suites s WHERE s.schedule = sc.name) AS suites,
       (SELECT count(*) FROM bench.suites s WHERE s.schedule = sc.name AND s.status = 'done') AS done,
       (SELECT count(*) FROM bench.suites s WHERE s.schedule = sc.name AND s.status = 'refused') AS refused,
       (SELECT count(*) FROM bench.suites s0 CROSS JOIN LATERAL bench._suite_state(s0) s
         WHERE s0.schedule = sc.name AND s.status IN ('failed', 'canceled', 'aborted')) AS failed,
       l.id AS last_suite_id,
       l.status AS last_status,
       l.started_at AS last_started_at,
       l.ended_at AS last_ended_at,
       l.error AS last_error,
       (SELECT jsonb_object_agg(m.clients, round(m.tps_median::numeric, 1) ORDER BY m.position)
          FROM bench.suite_summary m WHERE m.suite_id = l.id AND m.runs_done > 0) AS last_tps,
       (SELECT bool_or(r.regression) FROM bench.schedule_results r WHERE r.suite_id = l.id) AS last_regression
  FROM bench.schedules sc
  LEFT JOIN LATERAL (SELECT s.* FROM bench.suites s0 CROSS JOIN LATERAL bench._suite_state(s0) s
                      WHERE s0.schedule = sc.name
                      ORDER BY s0.started_at DESC, s0.id DESC LIMIT 1) l ON true;

COMMENT ON VIEW bench.schedule_status IS
    'Every schedule with how often it ran, was refused or failed, and its last suite: status, tps per client count, regression';
GRANT SELECT ON bench.schedule_status TO PUBLIC;

