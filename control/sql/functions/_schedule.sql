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
CREATE OR REPLACE FUNCTION bench._schedule(name text, schedule text, spec jsonb,
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
                                 search_path, baseline_runs, threshold, cron_database, created_by,
                                 targets, capacity)
    VALUES (name, schedule, spec->>'workload',
            ARRAY(SELECT e::integer FROM jsonb_array_elements_text(spec->'clients') WITH ORDINALITY AS x(e, pos) ORDER BY pos),
            (spec->>'repeat')::integer, spec->>'run_order', spec->'args',
            spec->>'search_path', baseline_runs, threshold, cron_db, owner,
            CASE WHEN spec ? 'targets'
                 THEN ARRAY(SELECT e FROM jsonb_array_elements_text(spec->'targets') WITH ORDINALITY AS x(e, pos) ORDER BY pos)
            END,
            spec->'capacity');

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
REVOKE ALL ON FUNCTION bench._schedule(text, text, jsonb, integer, double precision, name) FROM PUBLIC;
