-- pgbenchkit 0.1.0 to 0.2.0: ALTER EXTENSION pgbenchkit UPDATE
\echo Use "ALTER EXTENSION pgbenchkit UPDATE" to load this file. \quit
-- Released with 0.2.0 and frozen: later changes go into the upgrade from
-- 0.2.0, built from control/sql/ and control/upgrade/ (docs/design.md).

-- Every row of the tables of schema bench stays as it is, but for the
-- statement texts of samples that may hold a password (at the end).

-- bench.datasets.tables: regclass[] instead of oid[], so that pg_dump writes
-- the tables' names and a restored database still knows its datasets (the
-- OIDs of a restore are new ones)
ALTER TABLE bench.datasets ALTER COLUMN tables TYPE pg_catalog.regclass[]
    USING tables::pg_catalog.regclass[];

-- The run arguments come from one table, in the library: the functions
-- that take them are made from it, and sweeps and schedules take all of
-- them (script, rate, latency_limit, random_seed and variables too).
-- bench.schedule is a C function now, which checks the sweep itself and
-- calls bench._schedule. (bench._create_run_function drops the signatures
-- of 0.1.0 before it makes the new ones.)

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

SELECT bench._create_run_function('bench.sweep', 'SETOF bench.suite_summary', 'bench_sweep',
    'Run a workload at each client count, repeat times each, as one suite; wait for it and return its summary per client count');
SELECT bench._create_run_function('bench.start_sweep', 'bigint', 'bench_start_sweep',
    'Start a sweep in the background and return its suite id at once');
SELECT bench._create_run_function('bench._sweep_spec', 'jsonb', 'bench_sweep_spec',
    'Internal: check the arguments of a sweep and return them as jsonb');

--
-- bench.schedule: a sweep (or a single run: one client count, repeat 1)
-- that pg_cron starts on a cron schedule.  Everything is checked first; the
-- pg_cron job is created last, in pg_cron's database (cron.database_name),
-- named 'pgbenchkit <database> <name>', running bench.run_schedule(name)
-- as the calling role.  bench.schedule itself takes the run arguments: the
-- library calls bench._schedule without a sweep (its own checks only),
-- checks the sweep, SPEC, and calls bench._schedule again with it.
--
CREATE FUNCTION bench._schedule(name text, schedule text, spec jsonb,
                                baseline_runs integer, threshold double precision)
RETURNS bench.schedules
LANGUAGE plpgsql VOLATILE
AS $fn$
DECLARE
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
    UPDATE bench.schedules s SET jobid = job_id WHERE s.name = _schedule.name
    RETURNING * INTO result;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION bench._schedule(text, text, jsonb, integer, double precision) IS
    'Internal: check a schedule''s name, cron expression and judgement, record it with its checked sweep and create its pg_cron job';

SELECT bench._create_run_function('bench.schedule', 'bench.schedules', 'bench_schedule',
    'Have pg_cron run a sweep (or a single run) on a cron schedule; its runs are tagged with the schedule''s name and judged against a rolling baseline');

REVOKE ALL ON FUNCTION bench._schedule(text, text, jsonb, integer, double precision) FROM PUBLIC;

--
-- Targets: remote PostgreSQL servers, stored the PostgreSQL way (src/target/target.c).
-- A target is a foreign server of the wrapper bench_target; each role's
-- credentials are in its user mapping, which ordinary roles cannot read.
-- Creating targets needs USAGE on the wrapper, which a superuser grants
-- (GRANT USAGE ON FOREIGN DATA WRAPPER bench_target TO role); using one
-- needs USAGE on its server.
--
CREATE FUNCTION bench._target_validator(text[], oid)
RETURNS void
LANGUAGE c STRICT
AS 'MODULE_PATHNAME', 'bench_target_validator';

COMMENT ON FUNCTION bench._target_validator(text[], oid) IS
    'Internal: the validator of the foreign-data wrapper bench_target (libpq''s connection options, as postgres_fdw takes them)';

CREATE FOREIGN DATA WRAPPER bench_target VALIDATOR bench._target_validator;

COMMENT ON FOREIGN DATA WRAPPER bench_target IS
    'pgbenchkit''s targets: remote PostgreSQL servers, their connection options in the server and each role''s credentials in its user mapping';

CREATE FUNCTION bench._target_conninfo(conninfo text)
RETURNS text[]
LANGUAGE c STRICT IMMUTABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'bench_target_conninfo';

COMMENT ON FUNCTION bench._target_conninfo(text) IS
    'Internal: the options of a connection string as keyword, value pairs; a password, another secret, sslcert and sslkey are refused';

--
-- bench.targets: the targets, and what the current role may do with them.
-- No secret is ever shown: the server's options hold none (the validator
-- refuses them there) and of the user mapping only its user is read.
--
CREATE VIEW bench.targets AS
SELECT s.srvname::text AS name,
       o.options->>'host' AS host,
       o.options->>'port' AS port,
       o.options->>'dbname' AS dbname,
       o.options->>'sslmode' AS sslmode,
       o.options->>'sslrootcert' AS sslrootcert,
       o.options,
       pg_catalog.pg_get_userbyid(s.srvowner) AS owner,
       m.umid IS NOT NULL AS has_user_mapping,
       m.remote_user,
       pg_catalog.has_server_privilege(s.oid, 'USAGE') AS usage
  FROM pg_catalog.pg_foreign_server s
       JOIN pg_catalog.pg_foreign_data_wrapper w ON w.oid = s.srvfdw AND w.fdwname = 'bench_target'
       CROSS JOIN LATERAL (
           SELECT coalesce(pg_catalog.jsonb_object_agg(t.option_name, t.option_value), '{}'::jsonb) AS options
             FROM pg_catalog.pg_options_to_table(s.srvoptions) t
            WHERE t.option_name !~ '(password|secret)') o
       LEFT JOIN LATERAL (
           SELECT um.umid,
                  (SELECT t.option_value FROM pg_catalog.pg_options_to_table(um.umoptions) t
                    WHERE t.option_name = 'user') AS remote_user
             FROM pg_catalog.pg_user_mappings um
            WHERE um.srvid = s.oid
              AND um.umuser IN (0, (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname = current_user))
            ORDER BY um.umuser DESC
            LIMIT 1) m ON true;

COMMENT ON VIEW bench.targets IS
    'The targets (servers of the wrapper bench_target): their options but secrets, owner, and whether the current role has a user mapping and USAGE';

GRANT SELECT ON bench.targets TO PUBLIC;

--
-- bench.add_target(name, conninfo, password, user): create the server of a
-- target and the calling role's user mapping, in one go.  The connection
-- string holds the server's options (host, port, dbname, sslmode,
-- sslrootcert...) and maybe user; never a password, which is an argument of
-- its own and goes in the user mapping only.
--
CREATE FUNCTION bench.add_target(name text, conninfo text, password text DEFAULT NULL,
                                 "user" text DEFAULT NULL)
RETURNS bench.targets
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    opts text[];
    server_options text := '';
    mapping_options text := '';
    remote_user text := add_target."user";
    i integer;
    st text; msg text; det text; hnt text;
    result bench.targets;
BEGIN
    IF add_target.name IS NULL OR add_target.conninfo IS NULL THEN
        RAISE EXCEPTION 'arguments "name" and "conninfo" of bench.add_target must not be null'
              USING ERRCODE = 'null_value_not_allowed',
                    HINT = 'Name the target and give its connection string: bench.add_target(''aurora'', ''host=... dbname=postgres sslmode=verify-full sslrootcert=...'', password => ''...'').';
    END IF;
    IF add_target.name = '' OR octet_length(add_target.name) >= 64 THEN
        RAISE EXCEPTION 'invalid target name "%"',
                        CASE WHEN length(add_target.name) > 64 THEN left(add_target.name, 64) || '...'
                             ELSE add_target.name END
              USING ERRCODE = 'invalid_parameter_value',
                    HINT = 'A target''s name is the name of its server: 1 to 63 bytes.';
    END IF;
    IF EXISTS (SELECT FROM pg_foreign_server s WHERE s.srvname = add_target.name) THEN
        RAISE EXCEPTION 'target "%" already exists', add_target.name
              USING ERRCODE = 'duplicate_object',
                    HINT = 'A server of that name exists: bench.targets lists the targets; bench.drop_target drops one.';
    END IF;
    IF octet_length(add_target.conninfo) > 8192 THEN
        RAISE EXCEPTION 'conninfo is too long: % bytes, at most 8192', octet_length(add_target.conninfo)
              USING ERRCODE = 'string_data_right_truncation',
                    HINT = 'A target''s connection string is at most 8192 bytes.';
    END IF;
    IF octet_length(add_target.password) > 1024 THEN
        RAISE EXCEPTION 'the password is too long: at most 1024 bytes'
              USING ERRCODE = 'string_data_right_truncation',
                    HINT = 'A target''s password is at most 1024 bytes.';
    END IF;
    IF octet_length(remote_user) >= 64 THEN
        RAISE EXCEPTION 'user is too long: % bytes, at most 63', octet_length(remote_user)
              USING ERRCODE = 'name_too_long',
                    HINT = 'A role name is at most 63 bytes.';
    END IF;
    IF add_target.password = '' THEN
        RAISE EXCEPTION 'the password of a target must not be empty'
              USING ERRCODE = 'invalid_parameter_value',
                    HINT = 'Leave it out (NULL) when the target needs none.';
    END IF;
    IF NOT has_foreign_data_wrapper_privilege('bench_target', 'USAGE') THEN
        RAISE EXCEPTION 'permission denied to add targets'
              USING ERRCODE = 'insufficient_privilege',
                    HINT = 'A superuser grants it: GRANT USAGE ON FOREIGN DATA WRAPPER bench_target TO role.';
    END IF;

    -- refuses a password, secrets, sslcert and sslkey, without quoting them
    opts := bench._target_conninfo(add_target.conninfo);
    FOR i IN 1 .. coalesce(array_length(opts, 1), 0) BY 2 LOOP
        IF opts[i] = 'user' THEN
            IF remote_user IS NOT NULL AND remote_user <> opts[i + 1] THEN
                RAISE EXCEPTION 'two users for target "%": "%" in the connection string, "%" as the argument',
                                add_target.name, opts[i + 1], remote_user
                      USING ERRCODE = 'invalid_parameter_value',
                            HINT = 'Give the user once.';
            END IF;
            remote_user := opts[i + 1];
        ELSE
            server_options := server_options || CASE WHEN server_options = '' THEN '' ELSE ', ' END
                              || format('%I %L', opts[i], opts[i + 1]);
        END IF;
    END LOOP;
    IF remote_user IS NOT NULL THEN
        mapping_options := format('user %L', remote_user);
    END IF;
    IF add_target.password IS NOT NULL THEN
        mapping_options := mapping_options || CASE WHEN mapping_options = '' THEN '' ELSE ', ' END
                           || format('password %L', add_target.password);
    END IF;

    -- the statements hold the password: an error is raised again without
    -- them in its context
    BEGIN
        EXECUTE format('CREATE SERVER %I FOREIGN DATA WRAPPER bench_target%s', add_target.name,
                       CASE WHEN server_options = '' THEN '' ELSE ' OPTIONS (' || server_options || ')' END);
        EXECUTE format('CREATE USER MAPPING FOR CURRENT_USER SERVER %I%s', add_target.name,
                       CASE WHEN mapping_options = '' THEN '' ELSE ' OPTIONS (' || mapping_options || ')' END);
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
                                det = PG_EXCEPTION_DETAIL, hnt = PG_EXCEPTION_HINT;
        IF det = '' AND hnt = '' THEN
            RAISE EXCEPTION USING ERRCODE = st, MESSAGE = msg;
        ELSIF det = '' THEN
            RAISE EXCEPTION USING ERRCODE = st, MESSAGE = msg, HINT = hnt;
        ELSIF hnt = '' THEN
            RAISE EXCEPTION USING ERRCODE = st, MESSAGE = msg, DETAIL = det;
        ELSE
            RAISE EXCEPTION USING ERRCODE = st, MESSAGE = msg, DETAIL = det, HINT = hnt;
        END IF;
    END;

    SELECT * INTO result FROM bench.targets t WHERE t.name = add_target.name;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION bench.add_target(text, text, text, text) IS
    'Add a target: the server of the wrapper bench_target with the options of a connection string, and the calling role''s user mapping with the user and password';

--
-- bench.drop_target(name): drop a target's server and its user mappings.
-- Only a server of the wrapper bench_target, by its owner; refused while
-- anything else (a foreign table) depends on it.
--
CREATE FUNCTION bench.drop_target(name text)
RETURNS void
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    srv record;
BEGIN
    IF drop_target.name IS NULL THEN
        RAISE EXCEPTION 'argument "name" of bench.drop_target must not be null'
              USING ERRCODE = 'null_value_not_allowed',
                    HINT = 'Name a target of bench.targets.';
    END IF;
    SELECT s.oid, s.srvowner, w.fdwname INTO srv
      FROM pg_foreign_server s JOIN pg_foreign_data_wrapper w ON w.oid = s.srvfdw
     WHERE s.srvname = drop_target.name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'target "%" does not exist', drop_target.name
              USING ERRCODE = 'undefined_object',
                    HINT = 'bench.targets lists the targets.';
    END IF;
    IF srv.fdwname <> 'bench_target' THEN
        RAISE EXCEPTION 'server "%" is not a target', drop_target.name
              USING ERRCODE = 'wrong_object_type',
                    DETAIL = format('Its foreign-data wrapper is %s, not bench_target.', srv.fdwname),
                    HINT = 'bench.drop_target drops only targets; DROP SERVER drops other servers.';
    END IF;
    IF NOT pg_has_role(srv.srvowner, 'USAGE') THEN
        RAISE EXCEPTION 'must be owner of target "%"', drop_target.name
              USING ERRCODE = 'insufficient_privilege',
                    HINT = format('Its owner, %s, or a superuser drops it.', pg_get_userbyid(srv.srvowner));
    END IF;
    IF EXISTS (SELECT FROM pg_depend d
                WHERE d.refclassid = 'pg_foreign_server'::regclass AND d.refobjid = srv.oid
                  AND d.classid <> 'pg_user_mapping'::regclass) THEN
        RAISE EXCEPTION 'other objects depend on target "%"', drop_target.name
              USING ERRCODE = 'dependent_objects_still_exist',
                    HINT = 'bench.drop_target drops the server and its user mappings only: drop the others first, or use DROP SERVER ... CASCADE.';
    END IF;
    EXECUTE format('DROP SERVER %I CASCADE', drop_target.name);
END
$fn$;

COMMENT ON FUNCTION bench.drop_target(text) IS
    'Drop a target: its server and every user mapping of it; refused for another wrapper''s server and while other objects depend on it';

--
-- bench.check_target(name): connect to the target as the calling role, with
-- the password rules of postgres_fdw, and return its version().
--
CREATE FUNCTION bench.check_target(name text)
RETURNS text
LANGUAGE c
AS 'MODULE_PATHNAME', 'bench_check_target';

COMMENT ON FUNCTION bench.check_target(text) IS
    'Connect to a target as the calling role (a non-superuser with the password of its user mapping) and return the server''s version()';

REVOKE ALL ON FUNCTION bench.add_target(text, text, text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.drop_target(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.check_target(text) FROM PUBLIC;

-- The CPU seconds of bench.interval_counters and bench.run_counters are
-- subtracted in numeric: as doubles, an interval in which no CPU was idle
-- could show more busy time than total time.
CREATE OR REPLACE VIEW bench.interval_counters AS
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

CREATE OR REPLACE VIEW bench.run_counters AS
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


--
-- Runs against targets: the target, the driver that played the clients
-- (in-server sessions or libpq), its workers and connections, what the
-- target said of itself and the connection time pgbench reports.
--
ALTER TABLE bench.runs
    ADD COLUMN target                  text,
    ADD COLUMN driver                  text        NOT NULL DEFAULT 'server'
                                       CHECK (driver IN ('server', 'libpq')),
    ADD COLUMN jobs                    integer,
    ADD COLUMN connect                 text
                                       CHECK (connect IN ('per_run', 'per_transaction')),
    ADD COLUMN target_host             text,
    ADD COLUMN target_rtt_ms           double precision,
    ADD COLUMN connection_time_ms      double precision,
    ADD COLUMN on_disconnect           text
                                       CHECK (on_disconnect IN ('fail', 'continue')),
    ADD COLUMN clients_lost            integer;

-- (bench.compare, which shows the driver and target of each side and warns
-- when they differ, is recreated below with the run state's readers)


--
-- Statement texts without secrets: the samples before and after a run keep
-- the run's role's statements from pg_stat_statements, which keeps CREATE
-- USER MAPPING ... OPTIONS (password '...') and the like as they were
-- written, and every role may read bench.samples.  The texts are redacted
-- before they are stored now (bench._redact_statement, src/observe/redact.c), and
-- those stored before are redacted here: the one change this update makes
-- to stored rows.
--
CREATE FUNCTION bench._redact_statement(query text)
RETURNS text
LANGUAGE c STRICT IMMUTABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'bench_redact_statement';

COMMENT ON FUNCTION bench._redact_statement(text) IS
    'Internal: a statement''s text with its string constants and comments redacted when it may hold a password or another secret, as samples keep it';

UPDATE bench.samples s
   SET data = pg_catalog.jsonb_set(s.data, '{statements}', (
           SELECT pg_catalog.jsonb_agg(CASE WHEN pg_catalog.jsonb_typeof(e.st->'query') = 'string'
                                            THEN pg_catalog.jsonb_set(e.st, '{query}',
                                                     pg_catalog.to_jsonb(bench._redact_statement(e.st->>'query')))
                                            ELSE e.st END ORDER BY e.n)
             FROM pg_catalog.jsonb_array_elements(s.data->'statements') WITH ORDINALITY AS e (st, n)))
 WHERE pg_catalog.jsonb_typeof(s.data->'statements') = 'array'
   AND EXISTS (SELECT FROM pg_catalog.jsonb_array_elements(s.data->'statements') AS e (st)
                WHERE pg_catalog.jsonb_typeof(e.st->'query') = 'string'
                  AND bench._redact_statement(e.st->>'query') IS DISTINCT FROM e.st->>'query');
-- bench.init loads into targets: bench.datasets.target names the target of
-- a dataset (NULL: this database), and bench.init takes target and
-- generate after its arguments of 0.1.0, then tables and table_size (the
-- sysbench dataset)
ALTER TABLE bench.datasets ADD COLUMN target text;

DROP FUNCTION bench.init(text, integer, integer, integer, text, boolean, boolean, integer, boolean);

CREATE FUNCTION bench.init(
    workload         text,
    scale            integer DEFAULT 1,
    fillfactor       integer DEFAULT 100,
    partitions       integer DEFAULT 0,
    partition_method text    DEFAULT NULL,
    unlogged         boolean DEFAULT false,
    foreign_keys     boolean DEFAULT false,
    jobs             integer DEFAULT 1,
    force            boolean DEFAULT false,
    target           text    DEFAULT NULL,
    generate         text    DEFAULT NULL,
    tables           integer DEFAULT NULL,
    table_size       integer DEFAULT NULL)
RETURNS bench.init_result
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_init';

COMMENT ON FUNCTION bench.init(text, integer, integer, integer, text, boolean, boolean, integer, boolean, text, text, integer, integer) IS
    'Create and load a workload''s dataset (tpcb: the tables pgbench -i makes; sysbench: those sysbench prepare makes), in background workers';

REVOKE ALL ON FUNCTION bench.init(text, integer, integer, integer, text, boolean, boolean, integer, boolean, text, text, integer, integer) FROM PUBLIC;

--
-- Run state: a run is alive while its coordinator holds the
-- run's lock; its readers show a run whose coordinator is gone as aborted
-- at once (bench._run_alive, bench._run_state), with what its progress rows
-- kept: each progress row now keeps its interval's latency histogram, and
-- an aborted run's histogram is theirs merged.  The host's CPU counters of
-- a sample are held at the run's sample before (bench._host_cpu_sample).
--
ALTER TABLE bench.progress ADD COLUMN histogram_lower_ms double precision[];
ALTER TABLE bench.progress ADD COLUMN histogram_upper_ms double precision[];
ALTER TABLE bench.progress ADD COLUMN histogram_count bigint[];

-- errors a script's \ignore_errors names (sysbench's ignored errors): per
-- interval and per run
ALTER TABLE bench.progress ADD COLUMN ignored_errors bigint NOT NULL DEFAULT 0;
ALTER TABLE bench.runs ADD COLUMN ignored_errors bigint;
-- a run's step in a suite of steps (bench.ibench, below)
ALTER TABLE bench.runs ADD COLUMN step text;
COMMENT ON COLUMN bench.runs.step IS
    'The step of a suite of steps the run is (bench.ibench: l.i0, l.x, ..., qp1000)';
ALTER TABLE bench.suites ADD COLUMN steps jsonb;
COMMENT ON COLUMN bench.suites.steps IS
    'A suite of steps (bench.ibench): each step''s name and run arguments, in order; NULL for a sweep';

-- where each SQL command's time went in the server's clients: its
-- statements' parse and analysis, rewrite, planning, execution (ms per
-- execution; NULL where not timed)
ALTER TABLE bench.command_latencies ADD COLUMN parse_ms double precision;
ALTER TABLE bench.command_latencies ADD COLUMN rewrite_ms double precision;
ALTER TABLE bench.command_latencies ADD COLUMN plan_ms double precision;
ALTER TABLE bench.command_latencies ADD COLUMN execute_ms double precision;

CREATE FUNCTION bench._run_alive(run_id bigint)
RETURNS boolean
LANGUAGE c STRICT VOLATILE PARALLEL RESTRICTED
AS 'MODULE_PATHNAME', 'bench_run_alive';

COMMENT ON FUNCTION bench._run_alive(bigint) IS
    'Internal: false only for a run left running by a coordinator that is gone: no one holds the run''s lock and its newest row (read with a snapshot taken then) still says running';

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
-- figures of its progress rows
CREATE FUNCTION bench._run_aborted(r bench.runs)
RETURNS bench.runs
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

COMMENT ON FUNCTION bench._run_aborted(bench.runs) IS
    'Internal: a run whose coordinator is gone, as it is recorded: aborted, with the counts, latencies and histogram of its progress rows';

CREATE FUNCTION bench._run_state(r bench.runs)
RETURNS bench.runs
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT CASE WHEN r.status = 'running' AND NOT bench._run_alive(r.id)
            THEN bench._run_aborted(r) ELSE r END
$fn$;

COMMENT ON FUNCTION bench._run_state(bench.runs) IS
    'Internal: a run''s row as its readers show it: aborted as soon as its coordinator is gone';

CREATE OR REPLACE VIEW bench.runs_in_progress AS
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

CREATE FUNCTION bench._host_cpu_sample(stat text, previous jsonb DEFAULT NULL)
RETURNS jsonb
LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'bench_host_cpu_sample';

COMMENT ON FUNCTION bench._host_cpu_sample(text, jsonb) IS
    'Internal: the host CPU figures of a sample (host_busy_s, host_total_s) from the first line of /proc/stat, each counter held at the sample before';

CREATE OR REPLACE FUNCTION bench.report_json(run_id bigint)
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

CREATE OR REPLACE FUNCTION bench.chart_run(run_id bigint, width integer DEFAULT 900, height integer DEFAULT 560)
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
    -- aborted as soon as its coordinator is gone
    r := bench._run_state(r);

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

CREATE OR REPLACE FUNCTION bench.compare(a bigint, b bigint, threshold double precision DEFAULT 0.05)
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
    comparable  boolean;
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
    SELECT 'run', (bench._run_state(r)).status INTO kind_a, status_a FROM bench.runs r WHERE r.id = id_a;
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
    SELECT 'run', (bench._run_state(r)).status INTO kind_b, status_b FROM bench.runs r WHERE r.id = id_b;
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
    -- runs by different drivers or against different targets measure
    -- different things (the network, the client): say so before the rows
    IF (SELECT count(DISTINCT (r.driver, r.target)) > 1
          FROM bench.runs r
         WHERE CASE WHEN is_suite THEN r.suite_id IN (id_a, id_b) ELSE r.id IN (id_a, id_b) END) THEN
        RAISE WARNING 'comparing runs of different drivers or targets'
            USING DETAIL = 'The rows "driver" and "target" show which; throughput and latency then include different networks and clients.',
                  HINT = 'Compare runs against the same target, or read the change as that of the whole path.';
    END IF;
    -- runs of different scripts (different workloads, or one workload
    -- redefined between them) do different work: their figures are shown,
    -- but judged 'not comparable'.  The scripts a run recorded decide
    -- (runs of two names with the same scripts do the same work); a run
    -- that recorded none is known by its workload's name only
    comparable := (SELECT count(DISTINCT k.scripts) <= 1
                          AND (bool_and(k.scripts IS NOT NULL) OR count(DISTINCT k.workload) <= 1)
                     FROM (SELECT r.workload,
                                  (SELECT md5(string_agg(x.weight || ':' || x.script, E'\x01'
                                                         ORDER BY x.script_no))
                                     FROM bench.run_scripts x WHERE x.run_id = r.id) AS scripts
                             FROM bench.runs r
                            WHERE CASE WHEN is_suite THEN r.suite_id IN (id_a, id_b)
                                       ELSE r.id IN (id_a, id_b) END) k);
    IF NOT comparable THEN
        RAISE WARNING 'comparing runs of different workloads or scripts'
            USING DETAIL = 'The rows "workload" and "scripts" show which; the runs did different work, so no metric is judged (verdict "not comparable").',
                  HINT = 'Compare runs of the same workload and scripts.';
    END IF;
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
          JOIN bench.runs r0 ON CASE WHEN is_suite THEN r0.suite_id = side.id ELSE r0.id = side.id END
         CROSS JOIN LATERAL bench._run_state(r0) r
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
               (14, 'driver', rs.driver),
               (15, 'target', rs.target),
               (16, 'target_host', rs.target_host),
               (17, 'jobs', rs.jobs::text),
               (18, 'connect', rs.connect),
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
          JOIN bench.runs r0 ON CASE WHEN is_suite THEN r0.suite_id = side.id AND r0.status = 'done'
                                     ELSE r0.id = side.id END
         CROSS JOIN LATERAL bench._run_state(r0) r
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
                WHEN NOT comparable THEN 'not comparable'
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

    --
    -- Two runs with groups: each group's tps and latencies, the groups
    -- matched by name, its clients in the clients column; the noise from
    -- each group's own progress series, the verdict as for single runs.
    --
    IF is_suite THEN
        RETURN;
    END IF;
    RETURN QUERY
    WITH ms (ord, metric, higher) AS (
        VALUES (1, 'tps', true),
               (2, 'latency_avg_ms', false),
               (3, 'latency_p95_ms', false),
               (4, 'latency_p99_ms', false)
    ), gv AS (
        SELECT CASE g.run_id WHEN id_a THEN 'a' ELSE 'b' END AS side, g.run_id, g.group_no,
               g.name, g.clients, m.metric, m.value
          FROM bench.run_groups g
         CROSS JOIN LATERAL (VALUES
               ('tps', g.tps), ('latency_avg_ms', g.latency_avg_ms),
               ('latency_p95_ms', g.latency_p95_ms), ('latency_p99_ms', g.latency_p99_ms))
               AS m (metric, value)
         WHERE g.run_id IN (id_a, id_b)
    ), cv AS (
        SELECT p.run_id, p.group_no, s.metric,
               CASE WHEN count(s.v) < 3 THEN NULL
                    WHEN avg(s.v) = 0 THEN 0
                    ELSE stddev_samp(s.v) / abs(avg(s.v)) END AS cv
          FROM bench.group_progress p
          JOIN bench.runs r ON r.id = p.run_id
         CROSS JOIN LATERAL (VALUES
               ('tps', p.tps), ('latency_avg_ms', p.latency_avg_ms),
               ('latency_p95_ms', p.latency_avg_ms), ('latency_p99_ms', p.latency_p99_ms)) AS s (metric, v)
         WHERE p.run_id IN (id_a, id_b) AND NOT p.in_warmup
           AND extract(epoch FROM p.interval_end - p.interval_start)
               >= 0.5 * extract(epoch FROM r.progress)
         GROUP BY p.run_id, p.group_no, s.metric
    ), names AS (
        SELECT DISTINCT gv.name FROM gv
    ), cmp AS (
        SELECT m.ord, m.metric, m.higher, names.name,
               COALESCE(y.clients, x.clients) AS clients,
               x.value AS va, y.value AS vb,
               sqrt((cx.cv ^ 2 + cy.cv ^ 2) / 2) AS noise,
               CASE WHEN x.value = 0 THEN 1 ELSE abs(y.value / x.value - 1) END AS change
          FROM names CROSS JOIN ms m
          LEFT JOIN gv x ON x.side = 'a' AND x.name = names.name AND x.metric = m.metric
          LEFT JOIN gv y ON y.side = 'b' AND y.name = names.name AND y.metric = m.metric
          LEFT JOIN cv cx ON cx.run_id = x.run_id AND cx.group_no = x.group_no AND cx.metric = m.metric
          LEFT JOIN cv cy ON cy.run_id = y.run_id AND cy.group_no = y.group_no AND cy.metric = m.metric
    )
    SELECT 'group'::text, format('%s: %s', c.name, c.metric), c.clients,
           fa.t, fb.t,
           c.vb / NULLIF(c.va, 0),
           (c.vb / NULLIF(c.va, 0) - 1) * 100,
           c.noise * 100,
           CASE WHEN c.va IS NULL OR c.vb IS NULL THEN NULL
                WHEN NOT comparable THEN 'not comparable'
                WHEN c.va = c.vb THEN 'within noise'
                WHEN NOT c.change > GREATEST(threshold, 3 * COALESCE(c.noise, 0)) THEN 'within noise'
                WHEN (c.vb > c.va) = c.higher THEN 'improvement'
                ELSE 'regression' END
      FROM cmp c
     CROSS JOIN LATERAL (
           SELECT CASE WHEN c.va = 0 THEN '0'
                       ELSE round(c.va::numeric, GREATEST(1, 3 - floor(log(abs(c.va::numeric)))::integer))::text
                  END AS t) fa
     CROSS JOIN LATERAL (
           SELECT CASE WHEN c.vb = 0 THEN '0'
                       ELSE round(c.vb::numeric, GREATEST(1, 3 - floor(log(abs(c.vb::numeric)))::integer))::text
                  END AS t) fb
     ORDER BY c.name, c.ord;
END
$fn$;

CREATE OR REPLACE FUNCTION bench.export(id bigint)
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
    SELECT 'run', (bench._run_state(r)).status INTO kind, status FROM bench.runs r WHERE r.id = the_id;
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
                            FROM bench.runs r0 CROSS JOIN LATERAL bench._run_state(r0) r
                           WHERE r0.id = ANY (run_ids)), '[]'),
        'progress', COALESCE((SELECT jsonb_agg(to_jsonb(p) ORDER BY p.run_id, p.interval_start)
                                FROM bench.progress p WHERE p.run_id = ANY (run_ids)), '[]'),
        -- an aborted run not yet recorded so: its progress rows' histogram (its stored row
        -- still says running)
        'histograms', COALESCE((SELECT jsonb_agg(to_jsonb(h) ORDER BY h.run_id, h.lower_ms)
                                  FROM (SELECT * FROM bench.histograms h WHERE h.run_id = ANY (run_ids)
                                        UNION ALL
                                        SELECT r.id, p.lower_ms, p.upper_ms, p.count
                                          FROM bench._runs r CROSS JOIN LATERAL bench._progress_histogram(r.id) p
                                         WHERE r.id = ANY (run_ids) AND r.status = 'running') h), '[]'),
        'samples', COALESCE((SELECT jsonb_agg(to_jsonb(s) ORDER BY s.run_id, s.sample_no)
                               FROM bench.samples s WHERE s.run_id = ANY (run_ids)), '[]'),
        'relation_sizes', COALESCE((SELECT jsonb_agg(to_jsonb(z) ORDER BY z.run_id, z.phase, z.relid)
                                      FROM bench.relation_sizes z WHERE z.run_id = ANY (run_ids)), '[]'),
        'prewarms', COALESCE((SELECT jsonb_agg(to_jsonb(w) ORDER BY w.run_id, w.relid)
                                FROM bench.prewarms w WHERE w.run_id = ANY (run_ids)), '[]'),
        'run_scripts', COALESCE((SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.script_no)
                                   FROM bench.run_scripts x WHERE x.run_id = ANY (run_ids)), '[]'),
        'command_latencies', COALESCE((SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.script_no, x.command_no)
                                         FROM bench.command_latencies x WHERE x.run_id = ANY (run_ids)), '[]'),
        'run_groups', COALESCE((SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.group_no)
                                  FROM bench.run_groups x WHERE x.run_id = ANY (run_ids)), '[]'),
        'group_progress', COALESCE((SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.group_no, x.interval_start)
                                      FROM bench.group_progress x WHERE x.run_id = ANY (run_ids)), '[]'));
END
$fn$;

CREATE OR REPLACE VIEW bench.export_runs AS
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
  FROM bench.runs r0
 CROSS JOIN LATERAL bench._run_state(r0) r
  LEFT JOIN bench.run_counters c ON c.run_id = r.id
 ORDER BY r.id;

-- ------------------------------------------------------------------------
-- Privacy between roles and schedules for ordinary roles (docs/security.md)
-- ------------------------------------------------------------------------

-- bench._cron_check pins search_path, as every function does (its body
-- is 0.1.0's)
ALTER FUNCTION bench._cron_check(text) SET search_path = pg_catalog, pg_temp;

-- bench._schedule is called by the library as the owner of schema bench,
-- for the calling role (OWNER): it writes the schedule and makes pg_cron's
-- job for that role
DROP FUNCTION bench._schedule(text, text, jsonb, integer, double precision);

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

REVOKE ALL ON FUNCTION bench._schedule(text, text, jsonb, integer, double precision, name) FROM PUBLIC;

-- bench.unschedule checks who may remove a schedule, in the library; the
-- EXECUTE privileges granted on it stay
CREATE OR REPLACE FUNCTION bench.unschedule(name text)
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

REVOKE ALL ON FUNCTION bench._unschedule(text, name) FROM PUBLIC;

-- bench.import makes the imported work the calling role's, in the
-- library; the EXECUTE privileges granted on it stay
CREATE OR REPLACE FUNCTION bench.import(document jsonb)
RETURNS bigint
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_import';

COMMENT ON FUNCTION bench.import(jsonb) IS
    'Insert a document of bench.export under new ids, with its origin (system identifier, server version, original id), as the calling role''s; returns the new id of the run or suite';

-- writing the tables is for roles the administrator chose
REVOKE ALL ON FUNCTION bench.import(jsonb) FROM PUBLIC;

CREATE FUNCTION bench._import(document jsonb, owner name)
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
SET intervalstyle = 'postgres'
AS $fn$
DECLARE
    doc         jsonb := _import.document;
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
                                                   'created_by', _import.owner,
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
                       'coordinator_pid', NULL, 'created_by', _import.owner,
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
        -- the groups of clients and their progress (none in older documents)
        INSERT INTO bench.run_groups
        SELECT * FROM jsonb_populate_recordset(NULL::bench.run_groups, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(COALESCE(doc->'run_groups', '[]')) x));
        INSERT INTO bench.group_progress
        SELECT * FROM jsonb_populate_recordset(NULL::bench.group_progress, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(COALESCE(doc->'group_progress', '[]')) x));
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

COMMENT ON FUNCTION bench._import(jsonb, name) IS
    'Internal: insert a document of bench.export as the work of role OWNER (the library calls it as the owner of schema bench)';

REVOKE ALL ON FUNCTION bench._import(jsonb, name) FROM PUBLIC;

--
-- Privacy between roles (docs/security.md).  Every run, suite, schedule
-- and custom workload belongs to the role that made it (created_by,
-- defined_by).  A role sees its own, and those of the roles whose
-- privileges it has; members of pgbenchkit_admin and superusers see all.
-- The rows are written by pgbenchkit's own code as the owner of schema
-- bench, which row level security does not restrict (no FORCE).
--

--
-- pgbenchkit_admin: the role whose members see, cancel, run and remove
-- every role's work.  Roles belong to the cluster, not to a database: a
-- second database's CREATE EXTENSION finds it there, and DROP EXTENSION
-- leaves it (DROP ROLE pgbenchkit_admin, once no database has the
-- extension, removes it).
--
DO $do$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'pgbenchkit_admin') THEN
        CREATE ROLE pgbenchkit_admin NOLOGIN;
    END IF;
END
$do$;

--
-- bench._visible: whether the current role may see the rows of work made
-- by role OWNER (the library's rule, bk_may_steer, that bench.cancel,
-- bench.cancel_suite, bench.run_schedule and bench.unschedule apply too).
-- Every role's queries call it, through the policies below.
--
CREATE FUNCTION bench._visible(owner name)
RETURNS boolean
LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'bench_visible';

COMMENT ON FUNCTION bench._visible(name) IS
    'Internal: whether the current role may see the work of role OWNER: its own, of a role whose privileges it has, or any as a member of pgbenchkit_admin or a superuser';

--
-- Row level security: each role reads the rows it may see; nobody but the
-- owner of schema bench writes (no policy allows it).
--
ALTER TABLE bench.runs ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.runs FOR SELECT USING (bench._visible(created_by));
ALTER TABLE bench.suites ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.suites FOR SELECT USING (bench._visible(created_by));
ALTER TABLE bench.schedules ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.schedules FOR SELECT USING (bench._visible(created_by));
ALTER TABLE bench.workloads ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.workloads FOR SELECT USING (builtin OR bench._visible(defined_by));

-- the rows of a run: visible with the run
ALTER TABLE bench.progress ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.progress FOR SELECT
    USING (EXISTS (SELECT FROM bench.runs r WHERE r.id = run_id));
ALTER TABLE bench.histograms ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.histograms FOR SELECT
    USING (EXISTS (SELECT FROM bench.runs r WHERE r.id = run_id));
ALTER TABLE bench.run_scripts ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.run_scripts FOR SELECT
    USING (EXISTS (SELECT FROM bench.runs r WHERE r.id = run_id));
ALTER TABLE bench.command_latencies ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.command_latencies FOR SELECT
    USING (EXISTS (SELECT FROM bench.runs r WHERE r.id = run_id));
ALTER TABLE bench.prewarms ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.prewarms FOR SELECT
    USING (EXISTS (SELECT FROM bench.runs r WHERE r.id = run_id));
ALTER TABLE bench.samples ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.samples FOR SELECT
    USING (EXISTS (SELECT FROM bench.runs r WHERE r.id = run_id));
ALTER TABLE bench.relation_sizes ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.relation_sizes FOR SELECT
    USING (EXISTS (SELECT FROM bench.runs r WHERE r.id = run_id));

--
-- The views over those tables read them as the role that queries them
-- (security_invoker, PostgreSQL 15 and later), so that the policies apply
-- to it and not to the views' owner.  PostgreSQL 14 has no such views:
-- there only pgbenchkit_admin's members (and superusers) may read them,
-- and other roles read the tables.
--
DO $do$
DECLARE
    v text;
BEGIN
    FOREACH v IN ARRAY ARRAY['bench.workload_scripts', 'bench.runs_in_progress',
                             'bench.sample_counters', 'bench.interval_counters',
                             'bench.run_counters', 'bench.run_statements',
                             'bench.suite_summary', 'bench.schedule_results',
                             'bench.regressions', 'bench.schedule_status',
                             'bench.export_runs', 'bench.export_progress',
                             'bench.export_suites']
    LOOP
        IF pg_catalog.current_setting('server_version_num')::integer >= 150000 THEN
            EXECUTE pg_catalog.format('ALTER VIEW %s SET (security_invoker = true)', v);
        ELSE
            EXECUTE pg_catalog.format('REVOKE SELECT ON %s FROM PUBLIC', v);
            EXECUTE pg_catalog.format('GRANT SELECT ON %s TO pgbenchkit_admin', v);
        END IF;
    END LOOP;
END
$do$;

-- ------------------------------------------------------------------------
-- The schedule of a rate limit, for tests
-- ------------------------------------------------------------------------
-- bench._rate_schedule: the starts a rate limit schedules, for tests
CREATE FUNCTION bench._rate_schedule(random_seed bigint, rate double precision, clients integer,
                                     workers integer, seconds double precision)
RETURNS double precision[]
LANGUAGE c STRICT IMMUTABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'bench_rate_schedule';

COMMENT ON FUNCTION bench._rate_schedule(bigint, double precision, integer, integer, double precision) IS
    'Internal: the starts (seconds from the run''s start) that a run''s rate limit schedules before SECONDS, given its random_seed, rate, clients and client workers';

--
-- A suite is alive while its worker holds the suite's lock, as a run is
-- while its coordinator holds the run's: bench._suite_alive asks the lock
-- manager, and bench.schedule_status reads suites through
-- bench._suite_state, which shows a suite whose worker is gone as aborted.
--
CREATE FUNCTION bench._suite_alive(suite_id bigint)
RETURNS boolean
LANGUAGE c STRICT VOLATILE PARALLEL RESTRICTED
AS 'MODULE_PATHNAME', 'bench_suite_alive';

COMMENT ON FUNCTION bench._suite_alive(bigint) IS
    'Internal: false only for a suite left running by a worker that is gone: no one holds the suite''s lock and its newest row (read with a snapshot taken then) still says running';

CREATE FUNCTION bench._suite_state(s bench.suites)
RETURNS bench.suites
LANGUAGE plpgsql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF s.status = 'running' AND NOT bench._suite_alive(s.id) THEN
        s.status := 'aborted';
        s.sqlstate := '57P01';
        s.error := 'the suite''s worker ended before the suite finished (server restart, crash or termination)';
        s.ended_at := COALESCE((SELECT max(r.ended_at) FROM bench.runs r WHERE r.suite_id = s.id),
                               s.started_at);
        s.worker_pid := NULL;
    END IF;
    RETURN s;
END
$fn$;

COMMENT ON FUNCTION bench._suite_state(bench.suites) IS
    'Internal: a suite''s row as its readers show it: aborted as soon as its worker is gone';

CREATE OR REPLACE VIEW bench.schedule_status AS
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


-- CREATE OR REPLACE VIEW above reset bench.schedule_status's options: it
-- reads the tables as the role that queries it again (see "Privacy between
-- roles")
DO $do$
BEGIN
    IF pg_catalog.current_setting('server_version_num')::integer >= 150000 THEN
        ALTER VIEW bench.schedule_status SET (security_invoker = true);
    ELSE
        REVOKE SELECT ON bench.schedule_status FROM PUBLIC;
        GRANT SELECT ON bench.schedule_status TO pgbenchkit_admin;
    END IF;
END
$do$;

--
-- Relative throughput: runs or suites against a base, step by step, as the
-- Insert Benchmark reports versions and configurations.
--

--
-- bench.relative_throughput: for the base and each of the others (all
-- runs, or all suites), per step of the base, the throughput and its ratio
-- to the base's.  A suite's steps are its client counts (with its
-- workload), in the order the suite lists them; its throughput at a step is
-- the median over its finished runs there.  A suite of bench.ibench has
-- its named steps (l.i0 ... qp1000), their throughput as bench.ibench_steps
-- has it.  A run is one step: its
-- workload at its client count.  A step the base has and another lacks is
-- NULL there; a step only another has is not shown (the base decides the
-- columns).
--
CREATE FUNCTION bench.relative_throughput(base bigint, others bigint[])
RETURNS TABLE (id bigint, kind text, label text, server_version text,
               step_no integer, step text, tps double precision,
               base_tps double precision, relative double precision)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_column
DECLARE
    base_id     bigint := relative_throughput.base;
    ids         bigint[];
    base_kind   text;
    k           text;
    st          text;
    one_wl      boolean;
BEGIN
    IF base_id IS NULL THEN
        RAISE EXCEPTION 'base must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the id of the run or suite the others are read against.';
    END IF;
    IF others IS NULL THEN
        RAISE EXCEPTION 'others must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the ids to read against the base, as in ARRAY[12, 15].';
    END IF;
    IF cardinality(others) = 0 THEN
        RAISE EXCEPTION 'others must list at least one run or suite'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give the ids to read against the base, as in ARRAY[12, 15].';
    END IF;
    IF array_ndims(others) > 1 THEN
        RAISE EXCEPTION 'others must be a one-dimensional array'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give the ids as ARRAY[12, 15].';
    END IF;
    IF cardinality(others) > 100 THEN
        RAISE EXCEPTION 'others may list at most 100 runs or suites, not %', cardinality(others)
            USING ERRCODE = 'program_limit_exceeded',
                  HINT = 'Read them against the base in groups of 100 or fewer.';
    END IF;
    IF array_position(others, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'others must not hold a null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the ids of runs or suites.';
    END IF;
    IF base_id = ANY (others) THEN
        RAISE EXCEPTION 'the base, %, is also among the others', base_id
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The base is read against itself anyway: its row is the first.';
    END IF;
    IF (SELECT count(DISTINCT o) FROM unnest(others) o) < cardinality(others) THEN
        RAISE EXCEPTION 'others lists an id twice'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give each run or suite once.';
    END IF;
    ids := base_id || others;

    -- run ids and suite ids come from one sequence: an id is one or the other
    FOR i IN 1 .. cardinality(ids) LOOP
        k := NULL;
        SELECT 'run', (bench._run_state(r)).status INTO k, st FROM bench.runs r WHERE r.id = ids[i];
        IF NOT FOUND THEN
            SELECT 'suite', (bench._suite_state(s)).status INTO k, st FROM bench.suites s WHERE s.id = ids[i];
        END IF;
        IF k IS NULL THEN
            RAISE EXCEPTION 'run or suite % does not exist', ids[i]
                USING ERRCODE = 'no_data_found',
                      HINT = 'bench.runs and bench.suites list the runs and suites there are.';
        END IF;
        IF i = 1 THEN
            base_kind := k;
        ELSIF k <> base_kind THEN
            RAISE EXCEPTION 'cannot read % % against % %', k, ids[i], base_kind, base_id
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'Read runs against a run, or suites against a suite.';
        END IF;
        IF st = 'running' THEN
            RAISE EXCEPTION '% % is still running', k, ids[i]
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      HINT = CASE WHEN k = 'run'
                                  THEN 'Wait for it to end (bench.wait) or cancel it (bench.cancel), then compare.'
                                  ELSE 'Wait for the suite to end (bench.wait_suite), then compare.' END;
        END IF;
    END LOOP;

    IF base_kind = 'run' THEN
        SELECT count(DISTINCT r.workload) = 1 INTO one_wl FROM bench.runs r WHERE r.id = ANY (ids);
        -- runs are read against the base whatever they ran: say so when
        -- that was something else
        IF (SELECT count(DISTINCT (r.workload, r.clients, r.driver, r.target)) > 1
              FROM bench.runs r WHERE r.id = ANY (ids)) THEN
            RAISE WARNING 'the runs differ in workload, clients, driver or target'
                USING DETAIL = 'Each run''s throughput is divided by the base''s all the same.',
                      HINT = 'bench.compare shows what differs between two runs.';
        END IF;
        RETURN QUERY
        WITH b AS (SELECT r.workload, r.clients, r.tps FROM bench.runs r WHERE r.id = base_id)
        SELECT r.id, 'run'::text, COALESCE(r.tag || ' (run ' || r.id || ')', 'run ' || r.id), r.server_version,
               1, CASE WHEN one_wl THEN '' ELSE b.workload || ', ' END
                  || b.clients || CASE WHEN b.clients = 1 THEN ' client' ELSE ' clients' END,
               r.tps, b.tps, r.tps / NULLIF(b.tps, 0)
          FROM unnest(ids) WITH ORDINALITY AS i(id, pos)
          JOIN bench.runs r ON r.id = i.id
         CROSS JOIN b
         ORDER BY i.pos;
        RETURN;
    END IF;

    -- suites of steps (bench.ibench): the steps of the base by name, each
    -- step's throughput as bench.ibench_steps has it (inserts, queries or
    -- rows indexed per second)
    IF (SELECT count(*) FILTER (WHERE s.steps IS NOT NULL) FROM bench.suites s WHERE s.id = ANY (ids))
       NOT IN (0, cardinality(ids)) THEN
        RAISE EXCEPTION 'cannot read sweeps and suites of steps against each other'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Read sweeps against a sweep, and suites of bench.ibench against one of them.';
    END IF;
    IF (SELECT s.steps IS NOT NULL FROM bench.suites s WHERE s.id = base_id) THEN
        RETURN QUERY
        WITH bs AS (SELECT v.step_no, v.step, v.throughput FROM bench.ibench_steps v
                     WHERE v.suite_id = base_id AND v.status = 'done')
        SELECT s.id, 'suite'::text, COALESCE(s.tag || ' (suite ' || s.id || ')', 'suite ' || s.id),
               s.server_version, (row_number() OVER (PARTITION BY s.id ORDER BY bs.step_no))::integer,
               bs.step, v.throughput, bs.throughput, v.throughput / NULLIF(bs.throughput, 0)
          FROM unnest(ids) WITH ORDINALITY AS i(id, pos)
          JOIN bench.suites s ON s.id = i.id
         CROSS JOIN bs
          LEFT JOIN bench.ibench_steps v ON v.suite_id = s.id AND v.step = bs.step AND v.status = 'done'
         ORDER BY i.pos, bs.step_no;
        RETURN;
    END IF;

    -- suites: the steps of the base, each suite's median there
    SELECT count(DISTINCT s.workload) = 1 INTO one_wl FROM bench.suites s WHERE s.id = ANY (ids);
    RETURN QUERY
    WITH steps AS (
        SELECT DISTINCT ON (c.clients) c.clients, bs.workload, c.pos
          FROM bench.suites bs
         CROSS JOIN LATERAL unnest(bs.clients) WITH ORDINALITY AS c(clients, pos)
         WHERE bs.id = base_id
         ORDER BY c.clients, c.pos),
    numbered AS (
        SELECT st.*, (row_number() OVER (ORDER BY st.pos))::integer AS step_no FROM steps st),
    medians AS (
        SELECT s.id AS suite_id, n.step_no,
               (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY r.tps)
                  FROM bench.runs r
                 WHERE r.suite_id = s.id AND r.clients = n.clients AND r.workload = n.workload
                   AND (bench._run_state(r)).status = 'done') AS tps
          FROM bench.suites s CROSS JOIN numbered n
         WHERE s.id = ANY (ids))
    SELECT s.id, 'suite'::text, COALESCE(s.tag || ' (suite ' || s.id || ')', 'suite ' || s.id), s.server_version,
           n.step_no, CASE WHEN one_wl THEN '' ELSE n.workload || ', ' END
                      || n.clients || CASE WHEN n.clients = 1 THEN ' client' ELSE ' clients' END,
           m.tps, mb.tps, m.tps / NULLIF(mb.tps, 0)
      FROM unnest(ids) WITH ORDINALITY AS i(id, pos)
      JOIN bench.suites s ON s.id = i.id
     CROSS JOIN numbered n
      JOIN medians m ON m.suite_id = s.id AND m.step_no = n.step_no
      JOIN medians mb ON mb.suite_id = base_id AND mb.step_no = n.step_no
     ORDER BY i.pos, n.step_no;
END
$fn$;

COMMENT ON FUNCTION bench.relative_throughput(bigint, bigint[]) IS
    'Runs or suites against a base: per step (client count, or a bench.ibench suite''s named steps), throughput and its ratio to the base''s';
GRANT EXECUTE ON FUNCTION bench.relative_throughput(bigint, bigint[]) TO PUBLIC;

--
-- bench.relative_table: the same in the Insert Benchmark's table form, one
-- line per run or suite (the base first, at 1.00), one column per step,
-- as a Markdown table.
--
CREATE FUNCTION bench.relative_table(base bigint, others bigint[])
RETURNS SETOF text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    steps   text[] := '{}';
    lines   text[] := '{}';
    cells   text[];
    cur     bigint;
    r       record;
BEGIN
    FOR r IN SELECT * FROM bench.relative_throughput(base, others) LOOP
        IF cur IS DISTINCT FROM r.id THEN
            IF cur IS NOT NULL THEN
                lines := lines || ('| ' || array_to_string(cells, ' | ') || ' |');
            END IF;
            cur := r.id;
            cells := ARRAY[replace(r.label, '|', '\|'), split_part(r.server_version, ' ', 1)];
        END IF;
        IF r.id = base THEN
            steps := steps || replace(r.step, '|', '\|');
        END IF;
        cells := cells || COALESCE(to_char(r.relative, 'FM990.00'), '-');
    END LOOP;
    lines := lines || ('| ' || array_to_string(cells, ' | ') || ' |');
    RETURN NEXT '| ' || array_to_string(ARRAY['run or suite', 'version'] || steps, ' | ') || ' |';
    RETURN NEXT '|' || repeat('---|', 2 + cardinality(steps));
    RETURN QUERY SELECT unnest(lines);
END
$fn$;

COMMENT ON FUNCTION bench.relative_table(bigint, bigint[]) IS
    'Relative throughput as the Insert Benchmark shows it: one line per run or suite, one column per step (Markdown)';
GRANT EXECUTE ON FUNCTION bench.relative_table(bigint, bigint[]) TO PUBLIC;

--
-- bench.chart_relative: relative throughput as grouped bars, one group per
-- step, one bar per run or suite (the base's at 1.0), a dashed line at 1.0.
--
CREATE FUNCTION bench.chart_relative(base bigint, others bigint[],
                                     width integer DEFAULT 900, height integer DEFAULT 560)
RETURNS text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    palette     constant text[] := ARRAY['#7f7f7f', '#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd',
                                         '#8c564b', '#e377c2', '#bcbd22', '#17becf'];
    r           record;
    nsteps      integer;
    nseries     integer := 0;
    steps       text[];
    labels      text[] := '{}';
    colours     text[] := '{}';
    rel         double precision[] := '{}';     -- series by series, step by step
    base_kind   text;
    base_label  text;
    top_v       double precision;
    yt          double precision[];
    lg          record;
    pl          constant double precision := 72;
    pw          double precision := width - 72 - 24;
    pt          double precision;
    ph          double precision;
    gw          double precision;
    bw          double precision;
    x           double precision;
    y0          double precision;
    y           double precision;
    v           double precision;
    o           text[];
BEGIN
    PERFORM bench._svg_check_size('bench.chart_relative', width, height);
    steps := '{}';
    FOR r IN SELECT * FROM bench.relative_throughput(base, others) LOOP
        IF r.step_no = 1 THEN
            nseries := nseries + 1;
            labels := labels || r.label;
            colours := colours || palette[1 + (nseries - 1) % cardinality(palette)];
        END IF;
        IF r.id = base THEN
            steps := steps || r.step;
            base_kind := r.kind;
            base_label := r.label;
        END IF;
        rel := rel || r.relative;
    END LOOP;
    nsteps := cardinality(steps);
    top_v := GREATEST(1.0, (SELECT max(q) FROM unnest(rel) q)) * 1.1;

    lg := bench._svg_legend(pl, 52, pw, GREATEST(18, (height - 120) * 0.25),
                            array_fill('point'::text, ARRAY[nseries]), colours, labels);
    pt := 52 + lg.height + 14;
    ph := GREATEST(height - pt - 58, 10);
    yt := bench._svg_ticks(0, top_v, GREATEST(2, LEAST(8, floor(ph / 30)::integer)));
    o := ARRAY[bench._svg_open(width, height, format('throughput relative to %s %s', base_kind, base)),
               bench._svg_heading(width,
                   format('throughput relative to %s, by step', base_label),
                   format('%s %ss, each step''s tps divided by the base''s', nseries, base_kind)),
               lg.svg,
               bench._svg_panel(pl, pt, pw, ph, 0.5, nsteps + 0.5,
                                ARRAY(SELECT generate_series(1, nsteps)::double precision), steps,
                                yt, bench._svg_tick_labels(yt), 'relative throughput'),
               bench._svg_text(pl + pw / 2, height - 14, 'step',
                               'class="axis-title" font-size="12" fill="#222222" text-anchor="middle"')];
    IF (SELECT count(q) FROM unnest(rel) q) = 0 THEN
        o := o || bench._svg_no_data(pl + pw / 2, pt + ph / 2, 'no step has a finished run on both sides');
        RETURN array_to_string(o, E'\n') || E'\n</svg>';
    END IF;

    -- the bars: a group per step, 80% of its width
    gw := pw / nsteps;
    bw := gw * 0.8 / nseries;
    y0 := pt + ph - (0 - yt[1]) / (yt[cardinality(yt)] - yt[1]) * ph;
    o := o || '<g class="bars">'::text;
    FOR st IN 1 .. nsteps LOOP
        FOR se IN 1 .. nseries LOOP
            v := rel[(se - 1) * nsteps + st];
            CONTINUE WHEN v IS NULL;
            x := pl + (st - 1) * gw + gw * 0.1 + (se - 1) * bw;
            y := pt + ph - (v - yt[1]) / (yt[cardinality(yt)] - yt[1]) * ph;
            o := o || format('<rect class="bar" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s, %s: %s</title></rect>',
                             bench._svg_num(x), bench._svg_num(y), bench._svg_num(GREATEST(bw - 1, 1)),
                             bench._svg_num(y0 - y), colours[se], bench._svg_escape(labels[se]),
                             bench._svg_escape(steps[st]), to_char(v, 'FM990.00'));
            IF bw >= 24 THEN
                o := o || bench._svg_text(x + bw / 2, y - 3, to_char(v, 'FM990.00'),
                                          'font-size="10" fill="#333333" text-anchor="middle"');
            END IF;
        END LOOP;
    END LOOP;
    o := o || '</g>'::text;
    -- the base's level
    y := pt + ph - (1.0 - yt[1]) / (yt[cardinality(yt)] - yt[1]) * ph;
    o := o || format('<line class="base" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#222222" stroke-width="1.2" stroke-dasharray="4,3"/>',
                     bench._svg_num(pl), bench._svg_num(y), bench._svg_num(pl + pw), bench._svg_num(y));
    RETURN array_to_string(o, E'\n') || E'\n</svg>';
END
$fn$;

COMMENT ON FUNCTION bench.chart_relative(bigint, bigint[], integer, integer) IS
    'Relative throughput as an SVG chart: per step, a bar per run or suite, the base at 1.0';
GRANT EXECUTE ON FUNCTION bench.chart_relative(bigint, bigint[], integer, integer) TO PUBLIC;

-- sysbench's OLTP workloads
--
-- bench.sysbench_script: the script of one of sysbench 1.0's OLTP
-- workloads (oltp_common.lua and the workload's own file), for its
-- options, in the kit's script language: one execution is one sysbench
-- event.  Each query group draws its table as oltp_common.lua draws it
-- (uniformly, once per group) and its ids with the distribution of
-- rand_type; c and pad are random_string()s of sysbench's patterns.  The
-- tables are sbtest:{t}, t from 1 to :tables; ids from 1 to :table_size
-- (both set by bench.run from the sysbench dataset).
--
CREATE FUNCTION bench.sysbench_script(workload text, options jsonb DEFAULT '{}')
RETURNS text
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    known   constant text[] := ARRAY['point_selects', 'simple_ranges', 'sum_ranges', 'order_ranges',
                                     'distinct_ranges', 'index_updates', 'non_index_updates',
                                     'delete_inserts', 'range_size', 'range_selects', 'skip_trx',
                                     'rand_type', 'rand_spec_iter', 'rand_spec_pct', 'rand_spec_res',
                                     'rand_pareto_h', 'rand_zipfian_exp'];
    counts  constant text[] := ARRAY['point_selects', 'simple_ranges', 'sum_ranges', 'order_ranges',
                                     'distinct_ranges', 'index_updates', 'non_index_updates',
                                     'delete_inserts'];
    c_pat   constant text := '###########-###########-###########-###########-###########-'
                             '###########-###########-###########-###########-###########';
    pad_pat constant text := '###########-###########-###########-###########-###########';
    o       jsonb;
    k       text;
    n       integer;
    id_fn   text;
    s       text[] := '{}';
    trx     boolean;
    ranges  boolean;
BEGIN
    IF workload IS NULL THEN
        RAISE EXCEPTION 'workload must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Name one of sysbench''s OLTP workloads, as oltp_read_write.';
    END IF;
    IF workload NOT IN ('oltp_read_write', 'oltp_read_only', 'oltp_write_only', 'oltp_point_select',
                        'oltp_update_index', 'oltp_update_non_index', 'oltp_insert', 'oltp_delete') THEN
        RAISE EXCEPTION 'unknown sysbench workload "%"', left(workload, 64)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The workloads are oltp_read_write, oltp_read_only, oltp_write_only, oltp_point_select, oltp_update_index, oltp_update_non_index, oltp_insert and oltp_delete.';
    END IF;
    IF options IS NULL OR jsonb_typeof(options) <> 'object' THEN
        RAISE EXCEPTION 'options must be a JSON object'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give sysbench''s options by name, as {"point_selects": 0, "rand_type": "uniform"}.';
    END IF;
    FOR k IN SELECT jsonb_object_keys(options) LOOP
        IF NOT k = ANY (known) THEN
            RAISE EXCEPTION 'unknown sysbench option "%"', left(k, 64)
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'The options are ' || array_to_string(known, ', ') || ' (sysbench''s, with _ for -).';
        END IF;
    END LOOP;
    -- sysbench 1.0.20's defaults; oltp_point_select runs one point select
    o := jsonb_build_object('point_selects', CASE WHEN workload = 'oltp_point_select' THEN 1 ELSE 10 END,
                            'simple_ranges', 1, 'sum_ranges', 1, 'order_ranges', 1, 'distinct_ranges', 1,
                            'index_updates', 1, 'non_index_updates', 1, 'delete_inserts', 1,
                            'range_size', 100, 'range_selects', true, 'skip_trx', false,
                            'rand_type', 'special', 'rand_spec_iter', 12, 'rand_spec_pct', 1,
                            'rand_spec_res', 75, 'rand_pareto_h', 0.2, 'rand_zipfian_exp', 0.8) || options;
    FOREACH k IN ARRAY counts || ARRAY['range_size', 'rand_spec_iter', 'rand_spec_pct', 'rand_spec_res'] LOOP
        IF jsonb_typeof(o->k) <> 'number' OR (o->>k)::numeric <> trunc((o->>k)::numeric)
           OR (o->>k)::numeric < (CASE WHEN k IN ('range_size', 'rand_spec_iter') THEN 1 ELSE 0 END)
           OR (o->>k)::numeric > (CASE WHEN k IN ('rand_spec_pct', 'rand_spec_res') THEN 100
                                       WHEN k = 'rand_spec_iter' THEN 1000
                                       WHEN k = 'range_size' THEN 2147483647 ELSE 1000 END) THEN
            RAISE EXCEPTION 'sysbench option % must be a whole number from % to %, not %', k,
                  CASE WHEN k IN ('range_size', 'rand_spec_iter') THEN 1 ELSE 0 END,
                  CASE WHEN k IN ('rand_spec_pct', 'rand_spec_res') THEN 100
                       WHEN k = 'rand_spec_iter' THEN 1000
                       WHEN k = 'range_size' THEN 2147483647 ELSE 1000 END, left(o->>k, 64)
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'Counts of queries run from 0 to 1000 per transaction; range_size from 1.';
        END IF;
    END LOOP;
    FOREACH k IN ARRAY ARRAY['range_selects', 'skip_trx'] LOOP
        IF jsonb_typeof(o->k) <> 'boolean' THEN
            RAISE EXCEPTION 'sysbench option % must be true or false, not %', k, left(o->>k, 64)
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'As sysbench''s --range-selects=on|off and --skip-trx=on|off.';
        END IF;
    END LOOP;
    IF NOT (o->>'rand_type') = ANY (ARRAY['uniform', 'gaussian', 'special', 'pareto', 'zipfian']) THEN
        RAISE EXCEPTION 'unknown rand_type "%"', left(o->>'rand_type', 64)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'sysbench''s --rand-type: uniform, gaussian, special, pareto or zipfian.';
    END IF;
    IF jsonb_typeof(o->'rand_pareto_h') <> 'number' OR NOT ((o->>'rand_pareto_h')::float8 > 0 AND (o->>'rand_pareto_h')::float8 < 1) THEN
        RAISE EXCEPTION 'sysbench option rand_pareto_h must be between 0 and 1 (both excluded), not %', left(o->>'rand_pareto_h', 64)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'sysbench''s --rand-pareto-h; its default is 0.2.';
    END IF;
    IF jsonb_typeof(o->'rand_zipfian_exp') <> 'number' OR NOT ((o->>'rand_zipfian_exp')::float8 BETWEEN 0 AND 1000) THEN
        RAISE EXCEPTION 'sysbench option rand_zipfian_exp must be from 0 to 1000, not %', left(o->>'rand_zipfian_exp', 64)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'sysbench''s --rand-zipfian-exp; its default is 0.8.';
    END IF;

    -- sysbench.rand.default(1, table_size) under rand_type
    id_fn := CASE o->>'rand_type'
        WHEN 'uniform' THEN 'random(1, :table_size)'
        WHEN 'gaussian' THEN format('sysbench_gaussian(1, :table_size, %s)', o->>'rand_spec_iter')
        WHEN 'special' THEN format('sysbench_special(1, :table_size, %s, %s, %s)',
                                   o->>'rand_spec_pct', o->>'rand_spec_res', o->>'rand_spec_iter')
        WHEN 'pareto' THEN format('sysbench_pareto(1, :table_size, %s)', o->>'rand_pareto_h')
        ELSE format('sysbench_zipfian(1, :table_size, %s)', o->>'rand_zipfian_exp') END;
    trx := NOT (o->>'skip_trx')::boolean
           AND workload IN ('oltp_read_write', 'oltp_read_only', 'oltp_write_only');
    ranges := (o->>'range_selects')::boolean AND workload IN ('oltp_read_write', 'oltp_read_only');

    s := s || format('-- <builtin: sysbench %s%s>', workload,
                     CASE WHEN options = '{}' THEN '' ELSE ', ' || options::text END)
           -- the tables it runs on, sbtest1 .. sbtestN
           || '\dataset sysbench'::text
           -- what sysbench's pgsql driver ignores: the transaction restarts
           || '\ignore_errors 40P01 23505 40001'::text;
    IF trx THEN
        s := s || 'BEGIN;'::text;
    END IF;

    IF workload IN ('oltp_insert', 'oltp_delete') THEN
        s := s || '\set t random(1, :tables)'::text;
        IF workload = 'oltp_insert' THEN
            -- with auto_inc (sysbench's default) PostgreSQL makes the id
            s := s || ('\set k ' || id_fn)
                   || format('\set c random_string(%L)', c_pat)
                   || format('\set pad random_string(%L)', pad_pat)
                   || 'INSERT INTO sbtest:{t} (k, c, pad) VALUES (:k, :''c'', :''pad'');'::text;
        ELSE
            s := s || ('\set id ' || id_fn)
                   || 'DELETE FROM sbtest:{t} WHERE id = :id;'::text;
        END IF;
        RETURN array_to_string(s, E'\n') || E'\n';
    END IF;

    -- point selects
    IF workload IN ('oltp_read_write', 'oltp_read_only', 'oltp_point_select') THEN
        n := (o->>'point_selects')::integer;
        IF n > 0 THEN
            s := s || '\set t random(1, :tables)'::text;
            FOR i IN 1 .. n LOOP
                s := s || ('\set id ' || id_fn) || 'SELECT c FROM sbtest:{t} WHERE id = :id;'::text;
            END LOOP;
        END IF;
    END IF;
    -- ranges: simple, sum, order, distinct
    IF ranges THEN
        FOR r IN 1 .. 4 LOOP
            n := (o->>(counts[r + 1]))::integer;
            CONTINUE WHEN n = 0;
            s := s || '\set t random(1, :tables)'::text;
            FOR i IN 1 .. n LOOP
                s := s || ('\set id ' || id_fn)
                       || format('\set id2 :id + %s', (o->>'range_size')::bigint - 1)
                       || (CASE r WHEN 1 THEN 'SELECT c FROM sbtest:{t} WHERE id BETWEEN :id AND :id2;'
                                  WHEN 2 THEN 'SELECT SUM(k) FROM sbtest:{t} WHERE id BETWEEN :id AND :id2;'
                                  WHEN 3 THEN 'SELECT c FROM sbtest:{t} WHERE id BETWEEN :id AND :id2 ORDER BY c;'
                                  ELSE 'SELECT DISTINCT c FROM sbtest:{t} WHERE id BETWEEN :id AND :id2 ORDER BY c;' END);
            END LOOP;
        END LOOP;
    END IF;
    -- index updates
    IF workload IN ('oltp_read_write', 'oltp_write_only', 'oltp_update_index') THEN
        n := (o->>'index_updates')::integer;
        IF n > 0 THEN
            s := s || '\set t random(1, :tables)'::text;
            FOR i IN 1 .. n LOOP
                s := s || ('\set id ' || id_fn) || 'UPDATE sbtest:{t} SET k = k + 1 WHERE id = :id;'::text;
            END LOOP;
        END IF;
    END IF;
    -- non-index updates: c first, then the id, as sysbench sets them
    IF workload IN ('oltp_read_write', 'oltp_write_only', 'oltp_update_non_index') THEN
        n := (o->>'non_index_updates')::integer;
        IF n > 0 THEN
            s := s || '\set t random(1, :tables)'::text;
            FOR i IN 1 .. n LOOP
                s := s || format('\set c random_string(%L)', c_pat) || ('\set id ' || id_fn)
                       || 'UPDATE sbtest:{t} SET c = :''c'' WHERE id = :id;'::text;
            END LOOP;
        END IF;
    END IF;
    -- a delete and an insert of the same id
    IF workload IN ('oltp_read_write', 'oltp_write_only') THEN
        n := (o->>'delete_inserts')::integer;
        IF n > 0 THEN
            s := s || '\set t random(1, :tables)'::text;
            FOR i IN 1 .. n LOOP
                s := s || ('\set id ' || id_fn) || ('\set k ' || id_fn)
                       || format('\set c random_string(%L)', c_pat)
                       || format('\set pad random_string(%L)', pad_pat)
                       || 'DELETE FROM sbtest:{t} WHERE id = :id;'::text
                       || 'INSERT INTO sbtest:{t} (id, k, c, pad) VALUES (:id, :k, :''c'', :''pad'');'::text;
            END LOOP;
        END IF;
    END IF;
    IF trx THEN
        s := s || 'COMMIT;'::text;
    END IF;
    -- the header, \dataset and \ignore_errors, BEGIN and COMMIT: no query
    IF cardinality(s) = 3 + (CASE WHEN trx THEN 2 ELSE 0 END) THEN
        RAISE EXCEPTION 'sysbench workload % with these options runs no query', workload
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Keep at least one of its query counts above 0.';
    END IF;
    RETURN array_to_string(s, E'\n') || E'\n';
END
$fn$;

COMMENT ON FUNCTION bench.sysbench_script(text, jsonb) IS
    'The script of a sysbench 1.0 OLTP workload for its options (point_selects, ..., rand_type), for bench.run(script => ...) or bench.define_workload';
GRANT EXECUTE ON FUNCTION bench.sysbench_script(text, jsonb) TO PUBLIC;

-- sysbench's OLTP workloads at their defaults, built in
INSERT INTO bench.workloads (name, dataset, scripts, weights, description, builtin, defined_by)
SELECT w.name, 'sysbench', ARRAY[bench.sysbench_script(w.name)], '{1}',
       format('sysbench 1.0''s %s with its defaults (bench.sysbench_script(%L, options) for others)', w.name, w.name),
       true, current_user
  FROM unnest(ARRAY['oltp_read_write', 'oltp_read_only', 'oltp_write_only', 'oltp_point_select',
                    'oltp_update_index', 'oltp_update_non_index', 'oltp_insert', 'oltp_delete']) AS w(name);

--
-- bench.report prints where each SQL command's time went (the phases the
-- server's clients time) and sysbench's statistics block for a run that
-- has one in bench.report_json (a sysbench dataset, or scripts with
-- \ignore_errors)
--
CREATE OR REPLACE FUNCTION bench.report(run_id bigint)
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

--
-- The Insert Benchmark: its dataset kind (bench.init('ibench')), its steps'
-- scripts and built-in workloads
--
--
-- bench.ibench_script: the script of one step of the Insert Benchmark
-- (iibench.py for PostgreSQL) in the kit's script language, for its
-- options: one execution is one of the benchmark's batches.  The tables
-- are pi:{t}, t = :client_id % :tables + 1 (one per client, or one they
-- share: :tables is set by bench.run from the ibench dataset).
--
--   l.i0  inserts rows_per_commit rows (100) in one INSERT, in primary key
--         order (the serial), before the secondary indexes exist
--   l.x   inserts one batch of rows_per_commit rows (100), then creates
--         secondary_indexes (3) secondary indexes, one after the other:
--         marketsegment, registersegment, pdc (--secondary_at_end)
--   l.i1  inserts rows_per_commit rows (50), then deletes as many of the
--   l.i2  oldest (rows_per_commit 5), keeping the table's size: the
--         benchmark's queue, from :min_trxid (the run sets it from the
--         table's smallest id when it is -1, the first time)
--   qr    one range query of rows_per_query rows (10) on a secondary index
--         drawn from those there are (marketsegment, registersegment,
--         pdc: secondary_indexes of them), from a random value on: the
--         query thread of the query steps qr100, qr500, qr1000
--   qp    one point query of rows_per_query random primary keys (10) from
--         the oldest row to the newest, which it reads again every 100
--         queries (the benchmark's --query_pk_only): of qp100, qp500, qp1000
--
-- The query steps run qr or qp as fast as they go beside the inserts of
-- l.i1 held to 100, 500 or 1000 rows a second per table (groups =>, and
-- bench.ibench).
--
-- Each statement commits alone, as the benchmark's autocommit.  The rows
-- are the benchmark's: cashregisterid below cashregisters (1000),
-- customerid below customers (100000), productid below products (10000),
-- price below max_price (500), the same dateandtime for a batch, data of
-- data_length_min to data_length_max characters (10, 20) of which
-- data_random_pct percent (50) of three quarters are random base64 and
-- the rest 'a'.  They are made by the server (random()), where the
-- benchmark's client makes them and sends them as a VALUES list.
--
CREATE FUNCTION bench.ibench_script(step text, options jsonb DEFAULT '{}')
RETURNS text
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    steps   constant text[] := ARRAY['l.i0', 'l.x', 'l.i1', 'l.i2', 'qr', 'qp'];
    known   constant text[] := ARRAY['rows_per_commit', 'secondary_indexes', 'delete_per_insert',
                                     'cashregisters', 'customers', 'products', 'max_price',
                                     'data_length_min', 'data_length_max', 'data_random_pct',
                                     'rows_per_query'];
    nq      integer;
    o       jsonb;
    k       text;
    s       text[] := '{}';
    ins     text;
    pool    integer;
BEGIN
    IF step IS NULL THEN
        RAISE EXCEPTION 'step must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Name one of the Insert Benchmark''s steps: l.i0, l.x, l.i1, l.i2, qr or qp.';
    END IF;
    IF NOT step = ANY (steps) THEN
        RAISE EXCEPTION 'unknown Insert Benchmark step "%"', left(step, 64)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The steps with a script of their own are l.i0, l.x, l.i1, l.i2, and qr and qp (the query clients of qr100 ... qp1000).';
    END IF;
    IF options IS NULL OR jsonb_typeof(options) <> 'object' THEN
        RAISE EXCEPTION 'options must be a JSON object'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give the benchmark''s options by name, as {"rows_per_commit": 1000}.';
    END IF;
    FOR k IN SELECT jsonb_object_keys(options) LOOP
        IF NOT k = ANY (known) THEN
            RAISE EXCEPTION 'unknown Insert Benchmark option "%"', left(k, 64)
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'The options are ' || array_to_string(known, ', ') || ' (iibench.py''s, with _ for -).';
        END IF;
    END LOOP;
    -- the benchmark's defaults, and the rows per commit its scripts give each step
    o := jsonb_build_object('rows_per_commit', CASE step WHEN 'l.i0' THEN 100 WHEN 'l.x' THEN 100
                                                        WHEN 'l.i1' THEN 50 ELSE 5 END,
                            'secondary_indexes', 3, 'delete_per_insert', step IN ('l.i1', 'l.i2'),
                            'cashregisters', 1000, 'customers', 100000, 'products', 10000,
                            'max_price', 500, 'data_length_min', 10, 'data_length_max', 20,
                            'data_random_pct', 50, 'rows_per_query', 10) || options;
    FOREACH k IN ARRAY ARRAY['rows_per_commit', 'secondary_indexes', 'cashregisters', 'customers',
                             'products', 'max_price', 'data_length_min', 'data_length_max',
                             'data_random_pct', 'rows_per_query'] LOOP
        IF jsonb_typeof(o->k) <> 'number' OR (o->>k)::numeric <> trunc((o->>k)::numeric)
           OR (o->>k)::numeric < (CASE WHEN k IN ('secondary_indexes', 'data_random_pct') THEN 0 ELSE 1 END)
           OR (o->>k)::numeric > (CASE k WHEN 'secondary_indexes' THEN 3 WHEN 'data_random_pct' THEN 100
                                         WHEN 'data_length_min' THEN 4000 WHEN 'data_length_max' THEN 4000
                                         WHEN 'rows_per_commit' THEN 100000 WHEN 'rows_per_query' THEN 1000
                                         ELSE 2147483647 END) THEN
            RAISE EXCEPTION 'option % of the Insert Benchmark must be a whole number from % to %, not %', k,
                  CASE WHEN k IN ('secondary_indexes', 'data_random_pct') THEN 0 ELSE 1 END,
                  CASE k WHEN 'secondary_indexes' THEN 3 WHEN 'data_random_pct' THEN 100
                         WHEN 'data_length_min' THEN 4000 WHEN 'data_length_max' THEN 4000
                         WHEN 'rows_per_commit' THEN 100000 WHEN 'rows_per_query' THEN 1000
                         ELSE 2147483647 END, left(o->>k, 64)
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'The options are iibench.py''s, with its bounds.';
        END IF;
    END LOOP;
    IF jsonb_typeof(o->'delete_per_insert') <> 'boolean' THEN
        RAISE EXCEPTION 'option delete_per_insert of the Insert Benchmark must be true or false, not %',
              left(o->>'delete_per_insert', 64)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'With true (l.i1 and l.i2) each insert is followed by a delete of as many of the oldest rows.';
    END IF;
    IF (o->>'data_length_min')::int > (o->>'data_length_max')::int THEN
        RAISE EXCEPTION 'data_length_min (%) must not be above data_length_max (%)',
              o->>'data_length_min', o->>'data_length_max'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The data column''s length is drawn from data_length_min to data_length_max.';
    END IF;
    IF step = 'l.x' AND (o->>'secondary_indexes')::int = 0 THEN
        RAISE EXCEPTION 'step l.x of the Insert Benchmark with secondary_indexes 0 creates no index'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give secondary_indexes from 1 to 3, or leave l.x out.';
    END IF;

    s := s || format('-- <builtin: ibench %s%s>', step,
                     CASE WHEN options = '{}' THEN '' ELSE ', ' || options::text END)
           || '\dataset ibench'::text
           || '\set t :client_id % :tables + 1'::text;
    -- the data: 'a' then the random part, rand_len = len * 0.75 * pct / 100,
    -- a window of a pool of random base64 made once for the batch, as the
    -- benchmark's client takes it from a pool it makes once: pool
    -- characters, 64 for each 3 md5s (48 bytes), 64 more than the longest
    -- random part so that its windows differ
    pool := 64 * (((o->>'data_length_max')::int * 3 * (o->>'data_random_pct')::int / 400) / 64 + 2);
    ins := format('insert into pi:{t} (dateandtime, cashregisterid, customerid, productid, price, data)'
                  || E'\nselect localtimestamp(0), floor(random() * %s)::int, floor(random() * %s)::int,'
                  || ' floor(random() * %s)::int, floor(random() * %s)::int,'
                  || E'\n       repeat(''a'', len - rlen) || substr(p.pool, 1 + floor(random() * (%s - rlen + 1))::int, rlen)'
                  || E'\n  from (select translate(encode(decode(string_agg(md5(random()::text), ''''), ''hex''), ''base64''), E''\\n'', '''') AS pool'
                  || E'\n          from generate_series(1, %s)) AS p,'
                  || E'\n       generate_series(1, %s) AS g,'
                  || E'\n       lateral (select %s + floor(random() * %s)::int + 0 * g AS len) AS l,'
                  || E'\n       lateral (select len * 3 * %s / 400 AS rlen) AS r;',
                  o->>'cashregisters', o->>'customers', o->>'products', o->>'max_price',
                  pool, pool / 64 * 3,
                  o->>'rows_per_commit', o->>'data_length_min',
                  (o->>'data_length_max')::int - (o->>'data_length_min')::int + 1,
                  o->>'data_random_pct');
    IF step = 'qr' THEN
        -- one of the range queries of the indexes there are, drawn evenly
        nq := greatest((o->>'secondary_indexes')::int, 1);
        IF nq > 1 THEN
            s := s || format('\set q random(1, %s)', nq) || '\if :q = 1'::text;
        END IF;
        s := s || format('\set v random(0, %s)', (o->>'products')::bigint - 1)
               || format('select productid, customerid, price from pi:{t} where productid >= :v'
                         || ' order by productid, customerid, price limit %s;', o->>'rows_per_query');
        IF nq >= 2 THEN
            s := s || '\elif :q = 2'::text
                   || format('\set v random(0, %s)', (o->>'cashregisters')::bigint - 1)
                   || format('select cashregisterid, customerid, price from pi:{t} where cashregisterid > :v'
                             || ' order by cashregisterid, customerid, price limit %s;', o->>'rows_per_query');
        END IF;
        IF nq >= 3 THEN
            s := s || '\else'::text
                   || format('\set v random(0, %s)', (o->>'max_price')::bigint - 1)
                   || format('select price, dateandtime, customerid from pi:{t} where price >= :v'
                             || ' order by price, dateandtime, customerid limit %s;', o->>'rows_per_query');
        END IF;
        IF nq > 1 THEN
            s := s || '\endif'::text;
        END IF;
        RETURN array_to_string(s, E'\n') || E'\n';
    ELSIF step = 'qp' THEN
        -- the range of ids, read again every 100 queries (:query_no, 0 at
        -- first, set by the run)
        s := s || '\if :query_no % 100 = 0'::text
               || ('select coalesce(min(transactionid), 1) AS min_trxid,'
                   || ' greatest(coalesce(max(transactionid), 1), coalesce(min(transactionid), 1) + 1) AS max_trxid'
                   || ' from pi:{t} \gset')::text
               || '\endif'::text
               || '\set query_no :query_no + 1'::text;
        FOR nq IN 1 .. (o->>'rows_per_query')::int LOOP
            s := s || format('\set id%s random(:min_trxid, :max_trxid - 1)', nq);
        END LOOP;
        s := s || format('select transactionid, productid, data from pi:{t} where transactionid in (%s);',
                         (SELECT string_agg(':id' || i, ', ' ORDER BY i)
                            FROM generate_series(1, (o->>'rows_per_query')::int) i));
        RETURN array_to_string(s, E'\n') || E'\n';
    END IF;
    IF step = 'l.x' THEN
        s := s || ins || 'create index pi:{t}_marketsegment on pi:{t} (productid, customerid, price);'::text;
        IF (o->>'secondary_indexes')::int >= 2 THEN
            s := s || 'create index pi:{t}_registersegment on pi:{t} (cashregisterid, customerid, price);'::text;
        END IF;
        IF (o->>'secondary_indexes')::int >= 3 THEN
            s := s || 'create index pi:{t}_pdc on pi:{t} (price, dateandtime, customerid);'::text;
        END IF;
    ELSIF (o->>'delete_per_insert')::boolean THEN
        -- the oldest row, the first time: the run sets :min_trxid to -1
        s := s || '\if :min_trxid < 0'::text
               || 'select coalesce(min(transactionid), 1) AS min_trxid from pi:{t} \gset'::text
               || '\endif'::text
               || ins
               || format('delete from pi:{t} where transactionid in (select transactionid from pi:{t}'
                         || ' where transactionid >= :min_trxid order by transactionid asc limit %s);',
                         o->>'rows_per_commit')
               || format('\set min_trxid :min_trxid + %s', o->>'rows_per_commit');
    ELSE
        s := s || ins;
    END IF;
    RETURN array_to_string(s, E'\n') || E'\n';
END
$fn$;

COMMENT ON FUNCTION bench.ibench_script(text, jsonb) IS
    'The script of an Insert Benchmark step (l.i0, l.x, l.i1, l.i2) or of the query clients of its query steps (qr, qp) for its options (rows_per_commit, secondary_indexes, rows_per_query, ...), for bench.run on an ibench dataset';
GRANT EXECUTE ON FUNCTION bench.ibench_script(text, jsonb) TO PUBLIC;

-- the Insert Benchmark's steps at its defaults, built in
INSERT INTO bench.workloads (name, dataset, scripts, weights, description, builtin, defined_by)
SELECT 'ibench.' || s.step, 'ibench', ARRAY[bench.ibench_script(s.step)], '{1}',
       format(CASE WHEN s.step LIKE 'q%' THEN 'the query clients of the Insert Benchmark''s steps %s100, %s500, %s1000 with their defaults (bench.ibench_script(%L, options) for others)'
                   ELSE 'the Insert Benchmark''s step %s with its defaults (bench.ibench_script(%L, options) for others)' END,
              s.step, s.step, s.step, s.step),
       true, current_user
  FROM unnest(ARRAY['l.i0', 'l.x', 'l.i1', 'l.i2', 'qr', 'qp']) AS s(step);

--
-- bench.run_statements adds each statement's planning over the run (plans,
-- total_plan_ms, mean_plan_ms: pg_stat_statements with track_planning);
-- replacing the view resets its options, so security_invoker is set again
--
CREATE OR REPLACE VIEW bench.run_statements AS
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

DO $do$
BEGIN
    IF pg_catalog.current_setting('server_version_num')::integer >= 150000 THEN
        ALTER VIEW bench.run_statements SET (security_invoker = true);
    END IF;
END
$do$;

--
-- Client groups (groups => of bench.run and bench.start): each group's
-- clients run their own workload or script at their own rate, and each
-- group's results are kept beside the run's.
--
ALTER TABLE bench.run_scripts ADD COLUMN group_no integer;
COMMENT ON COLUMN bench.run_scripts.group_no IS
    'The group whose clients run the script (bench.run_groups), in a run with groups';

--
-- bench.run_groups: the groups of clients of a run with groups => , each
-- with its own workload or script and rate, and what each measured; and
-- bench.group_progress, their rows of each progress interval.
--
CREATE TABLE bench.run_groups (
    run_id          bigint      NOT NULL REFERENCES bench.runs (id) ON DELETE CASCADE,
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

ALTER TABLE bench.run_groups ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.run_groups FOR SELECT
    USING (EXISTS (SELECT FROM bench.runs r WHERE r.id = run_id));
ALTER TABLE bench.group_progress ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.group_progress FOR SELECT
    USING (EXISTS (SELECT FROM bench.runs r WHERE r.id = run_id));

COMMENT ON FUNCTION bench.compare(bigint, bigint, double precision) IS
    'Two runs or two suites side by side: what differs between them, then tps, latencies, WAL, FPI, checkpoints and blocks read per transaction with change, noise and verdict (improvement, regression, within noise; not comparable for runs of different workloads or scripts), then for runs with groups each group''s tps and latencies. Noise: suites with repeats, the larger relative half-range of the two sides, a verdict only when the ranges do not overlap; single runs and groups, sqrt((cv_a^2 + cv_b^2) / 2) of their per-interval series, a verdict only when the change is over max(threshold, 3 * noise)';

COMMENT ON FUNCTION bench.export(bigint) IS
    'A run or a suite as jsonb, with its progress, histograms, samples, sizes, prewarms, scripts, command latencies and groups of clients, for bench.import on another server';

--
-- The Insert Benchmark as one call (bench.ibench): a suite of steps, each
-- step a run of its own arguments; a run says which step it is.
--
-- (the columns are added with the others above, before the views over
-- bench.runs and bench.suites are made again)

CREATE OR REPLACE VIEW bench.suite_summary AS
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

DO $do$
BEGIN
    IF pg_catalog.current_setting('server_version_num')::integer >= 150000 THEN
        ALTER VIEW bench.suite_summary SET (security_invoker = true);
    END IF;
END
$do$;

--
-- The Insert Benchmark as one call: bench.ibench runs its steps as a
-- suite of steps, one run per step (bench.runs.step), and
-- bench.ibench_steps shows each step as the benchmark reports it.
--

-- internal: a suite of steps, each a run of its own arguments (suite.c)
CREATE FUNCTION bench._steps(spec jsonb, wait boolean)
RETURNS bigint
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_steps';

COMMENT ON FUNCTION bench._steps(jsonb, boolean) IS
    'Internal: start a suite of steps (bench.ibench''s), each step checked as bench.run checks its arguments first; its id, when done (wait) or started';
REVOKE ALL ON FUNCTION bench._steps(jsonb, boolean) FROM PUBLIC;

--
-- bench._ibench_spec: the suite of steps of a call of bench.ibench, every
-- argument checked.  The steps, in the order given (l.i0, if there, first):
--
--   l.i0    tables made anew (bench.init('ibench', tables), as iibench.py
--           --setup), then rows rows per table, rows_per_commit 100, by
--           insert_clients clients
--   l.x     a batch, then the secondary indexes: one client per table
--   l.i1    inserts of 50 rows with as many deletes, for duration
--   l.i2    the same, 5 rows at a time
--   qrN     range queries (ibench.qr) by query_clients clients as fast as
--   qpN     they go, point queries (ibench.qp) for qp, beside insert_clients
--           clients of l.i1 held to N rows a second each (the benchmark's
--           --inserts_per_second, one table per insert process), for
--           duration; N is 100, 500 or 1000
--
CREATE FUNCTION bench._ibench_spec(rows bigint, steps text[], insert_clients integer,
                                   query_clients integer, tables integer,
                                   secondary_indexes integer, duration interval, options jsonb,
                                   tag text, target text, progress interval, search_path text)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    known     constant text[] := ARRAY['l.i0', 'l.x', 'l.i1', 'l.i2', 'qr100', 'qp100',
                                       'qr500', 'qp500', 'qr1000', 'qp1000'];
    data_opts constant text[] := ARRAY['cashregisters', 'customers', 'products', 'max_price',
                                       'data_length_min', 'data_length_max', 'data_random_pct',
                                       'rows_per_query'];
    ntables   integer;
    nquery    integer;
    st        text;
    k         text;
    o         jsonb;
    common    jsonb;
    args      jsonb;
    out_steps jsonb := '[]';
    clients   integer[] := '{}';
    rpc       integer;
    ips       integer;
    extra     jsonb;
    builtin   boolean;
BEGIN
    IF rows IS NULL OR steps IS NULL OR insert_clients IS NULL OR secondary_indexes IS NULL
       OR duration IS NULL OR options IS NULL OR progress IS NULL THEN
        RAISE EXCEPTION 'bench.ibench''s arguments must not be null, but for query_clients, tables, tag and target'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Leave an argument out for its default.';
    END IF;
    IF cardinality(steps) = 0 OR array_ndims(steps) > 1 OR array_position(steps, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'steps must list at least one step, without nulls'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The steps are ' || array_to_string(known, ', ') || '.';
    END IF;
    FOREACH st IN ARRAY steps LOOP
        IF NOT st = ANY (known) THEN
            RAISE EXCEPTION 'unknown Insert Benchmark step "%"', left(st, 64)
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'The steps are ' || array_to_string(known, ', ') || '.';
        END IF;
        IF (SELECT count(*) FROM unnest(steps) AS u(x) WHERE u.x = st) > 1 THEN
            RAISE EXCEPTION 'steps lists % twice', st
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'Each step is one run of the suite; list it once.';
        END IF;
    END LOOP;
    IF 'l.i0' = ANY (steps) AND steps[1] <> 'l.i0' THEN
        RAISE EXCEPTION 'step l.i0 must come first'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'l.i0 makes the tables anew and loads them; the other steps work on what it loaded.';
    END IF;
    IF rows < 1 THEN
        RAISE EXCEPTION 'rows must be at least 1, not %', rows
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'rows is how many rows l.i0 loads into each table (iibench.py --max_rows).';
    END IF;
    IF insert_clients < 1 OR insert_clients > 10000 THEN
        RAISE EXCEPTION 'insert_clients must be between 1 and 10000, not %', insert_clients
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'insert_clients are the benchmark''s insert processes, one per table unless tables says otherwise.';
    END IF;
    ntables := COALESCE(tables, insert_clients);
    IF ntables < 1 OR ntables > insert_clients THEN
        RAISE EXCEPTION 'tables must be between 1 and insert_clients (%), not %', insert_clients, ntables
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'One table per insert client (the default), or fewer that they share (1: one table for all).';
    END IF;
    nquery := COALESCE(query_clients, insert_clients);
    IF nquery < 1 OR nquery > 10000 THEN
        RAISE EXCEPTION 'query_clients must be between 1 and 10000, not %', nquery
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'query_clients run the queries of the query steps, beside the insert clients (one per insert client by default, as the benchmark has one query process beside each insert process).';
    END IF;
    IF secondary_indexes < 0 OR secondary_indexes > 3 THEN
        RAISE EXCEPTION 'secondary_indexes must be between 0 and 3, not %', secondary_indexes
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'l.x creates marketsegment, registersegment and pdc, the first secondary_indexes of them.';
    END IF;
    IF 'l.x' = ANY (steps) AND secondary_indexes = 0 THEN
        RAISE EXCEPTION 'step l.x with secondary_indexes 0 creates no index'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give secondary_indexes from 1 to 3, or leave l.x out.';
    END IF;
    IF duration <= interval '0' OR duration > interval '1 year' THEN
        RAISE EXCEPTION 'duration must be positive and at most a year, not %', duration
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'duration is how long each of l.i1, l.i2 and the query steps runs.';
    END IF;
    IF jsonb_typeof(options) <> 'object' THEN
        RAISE EXCEPTION 'options must be a JSON object'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give the benchmark''s data options by name, as {"max_price": 1000}.';
    END IF;
    FOR k IN SELECT jsonb_object_keys(options) LOOP
        IF NOT k = ANY (data_opts) THEN
            RAISE EXCEPTION 'option "%" is not one bench.ibench takes', left(k, 64)
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'Its options are ' || array_to_string(data_opts, ', ')
                             || '; each step has its own rows per commit, and secondary_indexes is an argument.';
        END IF;
    END LOOP;

    -- what every run of the suite shares
    common := jsonb_build_object('progress', progress);
    IF target IS NOT NULL THEN
        common := common || jsonb_build_object('target', target);
    END IF;
    o := options || jsonb_build_object('secondary_indexes', secondary_indexes);
    -- the built-in workloads where they are the steps' scripts (the
    -- benchmark's defaults): their names label the runs
    builtin := options = '{}' AND secondary_indexes = 3;
    FOREACH st IN ARRAY steps LOOP
        extra := '{}';
        IF st IN ('l.i0', 'l.x', 'l.i1', 'l.i2') THEN
            rpc := CASE st WHEN 'l.i0' THEN 100 WHEN 'l.x' THEN 100 WHEN 'l.i1' THEN 50 ELSE 5 END;
            args := common || CASE WHEN builtin THEN jsonb_build_object('workload', 'ibench.' || st)
                                   ELSE jsonb_build_object('script', bench.ibench_script(st,
                                            o || jsonb_build_object('rows_per_commit', rpc))) END
                           || jsonb_build_object('clients', CASE WHEN st = 'l.x' THEN ntables ELSE insert_clients END);
            IF st = 'l.i0' THEN
                args := args || jsonb_build_object('transactions',
                    ceil(rows::numeric * ntables / insert_clients / rpc)::bigint);
                extra := jsonb_build_object('rows', ceil(rows::numeric * ntables / insert_clients / rpc)::bigint
                                                    * rpc * insert_clients);
            ELSIF st = 'l.x' THEN
                args := args || jsonb_build_object('transactions', 1);
            ELSE
                args := args || jsonb_build_object('duration', duration);
            END IF;
            clients := clients || (args->>'clients')::integer;
        ELSE
            -- the query steps: l.i1's inserts at a rate beside the queries
            rpc := 50;
            ips := substring(st FROM '[0-9]+')::integer;
            args := common || jsonb_build_object(
                'duration', duration,
                'groups', jsonb_build_array(
                    jsonb_build_object('name', 'insert',
                        'clients', insert_clients,
                        'rate', ips::numeric * insert_clients / rpc)
                    || CASE WHEN builtin THEN jsonb_build_object('workload', 'ibench.l.i1')
                            ELSE jsonb_build_object('script', bench.ibench_script('l.i1',
                                     o || jsonb_build_object('rows_per_commit', rpc))) END,
                    jsonb_build_object('name', 'query', 'clients', nquery)
                    || CASE WHEN builtin THEN jsonb_build_object('workload', 'ibench.' || left(st, 2))
                            ELSE jsonb_build_object('script', bench.ibench_script(left(st, 2), o)) END));
            extra := jsonb_build_object('target_inserts_per_s', ips * insert_clients);
            clients := clients || (insert_clients + nquery);
        END IF;
        out_steps := out_steps || jsonb_build_array(
            jsonb_build_object('step', st, 'rows_per_commit', rpc, 'args', args) || extra);
    END LOOP;

    RETURN jsonb_build_object(
        'workload', 'ibench', 'clients', to_jsonb(clients), 'repeat', 1, 'run_order', 'blocks',
        'tag', tag, 'search_path', search_path,
        'args', jsonb_build_object('ibench', jsonb_build_object(
            'rows', rows, 'steps', to_jsonb(steps), 'insert_clients', insert_clients,
            'query_clients', nquery, 'tables', ntables, 'secondary_indexes', secondary_indexes,
            'duration', duration, 'options', options, 'target', target, 'progress', progress)),
        'steps', out_steps)
        || CASE WHEN 'l.i0' = ANY (steps)
                THEN jsonb_build_object('init', jsonb_build_object('workload', 'ibench',
                                                                   'tables', ntables, 'target', target))
                ELSE '{}' END;
END
$fn$;

COMMENT ON FUNCTION bench._ibench_spec(bigint, text[], integer, integer, integer, integer, interval, jsonb, text, text, interval, text) IS
    'Internal: the suite of steps of a call of bench.ibench, every argument checked';

--
-- bench.ibench_steps: each step of each suite of bench.ibench, as the
-- Insert Benchmark reports it: its throughput (inserts per second for the
-- load steps, queries per second for the query steps, rows indexed per
-- second for l.x), the inserts' achieved rate against the target in the
-- query steps, the tables' sizes after it, WAL and checkpoints over it,
-- and the server's reads, writes and CPU per insert or per query.
--
CREATE VIEW bench.ibench_steps AS
SELECT s.id AS suite_id, e.i::integer AS step_no, e.s ->> 'step' AS step, r.id AS run_id,
       COALESCE(r.status, 'planned') AS status, r.clients, r.measured_s,
       x.inserts,
       x.inserts / NULLIF(r.measured_s, 0) AS inserts_per_s,
       (e.s ->> 'target_inserts_per_s')::double precision AS target_inserts_per_s,
       x.queries,
       x.queries / NULLIF(r.measured_s, 0) AS queries_per_s,
       CASE WHEN e.s ->> 'step' LIKE 'q%' THEN x.queries / NULLIF(r.measured_s, 0)
            WHEN e.s ->> 'step' = 'l.x' THEN x.indexed / NULLIF(r.measured_s, 0)
            ELSE x.inserts / NULLIF(r.measured_s, 0) END AS throughput,
       sz.table_bytes, sz.index_bytes, sz.total_bytes,
       c.wal_bytes, c.wal_bytes::double precision / NULLIF(x.inserts, 0) AS wal_bytes_per_insert,
       c.checkpoints_timed, c.checkpoints_requested,
       c.buffers_checkpoint, c.buffers_clean, c.buffers_backend,
       io.kb_read, io.kb_written,
       -- per insert in the load steps, per query in the query steps (where
       -- the server's work is both: the benchmark reports it per query)
       io.kb_read / NULLIF(x.inserts, 0) * x.load AS kb_read_per_insert,
       io.kb_written / NULLIF(x.inserts, 0) * x.load AS kb_written_per_insert,
       io.kb_read / NULLIF(x.queries, 0) AS kb_read_per_query,
       io.kb_written / NULLIF(x.queries, 0) AS kb_written_per_query,
       c.server_cpu_s * 1e6 / NULLIF(x.inserts, 0) * x.load AS cpu_us_per_insert,
       c.server_cpu_s * 1e6 / NULLIF(x.queries, 0) AS cpu_us_per_query
  FROM bench.suites s
 CROSS JOIN LATERAL jsonb_array_elements(s.steps) WITH ORDINALITY AS e(s, i)
  LEFT JOIN bench.runs r ON r.suite_id = s.id AND r.step = e.s ->> 'step'
  LEFT JOIN bench.run_counters c ON c.run_id = r.id
 CROSS JOIN LATERAL (
       -- inserts: the insert scripts' transactions times their rows per
       -- commit; queries: the query group's transactions
       SELECT CASE WHEN e.s ->> 'step' LIKE 'q%'
                   THEN (SELECT g.transactions FROM bench.run_groups g
                          WHERE g.run_id = r.id AND g.name = 'insert')
                   WHEN e.s ->> 'step' = 'l.x' THEN NULL
                   ELSE r.transactions END * (e.s ->> 'rows_per_commit')::bigint AS inserts,
              CASE WHEN e.s ->> 'step' LIKE 'q%'
                   THEN (SELECT g.transactions FROM bench.run_groups g
                          WHERE g.run_id = r.id AND g.name = 'query') END AS queries,
              CASE WHEN e.s ->> 'step' LIKE 'q%' THEN NULL ELSE 1 END AS load,
              -- l.x indexes the rows l.i0 loaded
              CASE WHEN e.s ->> 'step' = 'l.x'
                   THEN (SELECT sum((p.st ->> 'rows')::bigint) FROM jsonb_array_elements(s.steps) AS p(st)
                          WHERE p.st ->> 'step' = 'l.i0') END AS indexed) x
 CROSS JOIN LATERAL (
       -- the tables after the step: heap (with toast), indexes, total
       SELECT sum(rs.main_bytes + COALESCE(rs.toast_bytes, 0)) AS table_bytes,
              sum(rs.indexes_bytes) AS index_bytes, sum(rs.total_bytes) AS total_bytes
         FROM bench.relation_sizes rs
        WHERE rs.run_id = r.id AND rs.phase = 'after' AND rs.kind = 'table') sz
 CROSS JOIN LATERAL (
       -- the server's reads and writes of blocks: pg_stat_io's where it has
       -- them (PostgreSQL 16 and later), else blocks read (pg_stat_database)
       -- and buffers written by the checkpointer, the background writer
       -- and backends (pg_stat_bgwriter)
       SELECT COALESCE(c.io_reads, c.blks_read) * current_setting('block_size')::numeric / 1024 AS kb_read,
              COALESCE(c.io_writes, c.buffers_checkpoint + c.buffers_clean + c.buffers_backend)
                * current_setting('block_size')::numeric / 1024 AS kb_written) io
 WHERE s.steps IS NOT NULL;

COMMENT ON VIEW bench.ibench_steps IS
    'Each step of each bench.ibench suite as the Insert Benchmark reports it: throughput, inserts and queries per second, the insert rate against its target, sizes after the step, WAL, checkpoints, KB read and written and CPU per insert or query';
GRANT SELECT ON bench.ibench_steps TO PUBLIC;

-- read as the role that queries it, as the other views of runs (09-privileges)
DO $do$
BEGIN
    IF pg_catalog.current_setting('server_version_num')::integer >= 150000 THEN
        ALTER VIEW bench.ibench_steps SET (security_invoker = true);
    ELSE
        REVOKE SELECT ON bench.ibench_steps FROM PUBLIC;
        GRANT SELECT ON bench.ibench_steps TO pgbenchkit_admin;
    END IF;
END
$do$;

--
-- bench.ibench and bench.start_ibench: the benchmark as one suite.
--
CREATE FUNCTION bench.ibench(rows bigint DEFAULT 1000000,
                             steps text[] DEFAULT '{l.i0,l.x,l.i1,l.i2,qr100,qp100,qr500,qp500,qr1000,qp1000}',
                             insert_clients integer DEFAULT 1,
                             query_clients integer DEFAULT NULL,
                             tables integer DEFAULT NULL,
                             secondary_indexes integer DEFAULT 3,
                             duration interval DEFAULT '5 min',
                             options jsonb DEFAULT '{}',
                             tag text DEFAULT NULL,
                             target text DEFAULT NULL,
                             progress interval DEFAULT '1 s',
                             search_path text DEFAULT pg_catalog.current_setting('search_path'))
RETURNS SETOF bench.ibench_steps
LANGUAGE plpgsql VOLATILE
-- search_path pinned as every function's; the caller's (search_path, the
-- default evaluated in the caller's query) finds the dataset and is the
-- one the steps run with, as bench.run's
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    id bigint;
BEGIN
    id := bench._steps(bench._ibench_spec(rows, steps, insert_clients, query_clients, tables,
                                          secondary_indexes, duration, options, tag, target, progress,
                                          search_path),
                       true);
    RETURN QUERY SELECT * FROM bench.ibench_steps v WHERE v.suite_id OPERATOR(pg_catalog.=) id
                  ORDER BY v.step_no;
END
$fn$;

COMMENT ON FUNCTION bench.ibench(bigint, text[], integer, integer, integer, integer, interval, jsonb, text, text, interval, text) IS
    'The Insert Benchmark as one suite: its steps (l.i0, l.x, l.i1, l.i2, qr100 ... qp1000) one run each, on this server or a target; waits, and returns each step as bench.ibench_steps shows it';

CREATE FUNCTION bench.start_ibench(rows bigint DEFAULT 1000000,
                                   steps text[] DEFAULT '{l.i0,l.x,l.i1,l.i2,qr100,qp100,qr500,qp500,qr1000,qp1000}',
                                   insert_clients integer DEFAULT 1,
                                   query_clients integer DEFAULT NULL,
                                   tables integer DEFAULT NULL,
                                   secondary_indexes integer DEFAULT 3,
                                   duration interval DEFAULT '5 min',
                                   options jsonb DEFAULT '{}',
                                   tag text DEFAULT NULL,
                                   target text DEFAULT NULL,
                                   progress interval DEFAULT '1 s',
                                   search_path text DEFAULT pg_catalog.current_setting('search_path'))
RETURNS bigint
LANGUAGE plpgsql VOLATILE
-- search_path pinned: as bench.ibench
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN bench._steps(bench._ibench_spec(rows, steps, insert_clients, query_clients, tables,
                                           secondary_indexes, duration, options, tag, target, progress,
                                           search_path),
                        false);
END
$fn$;

COMMENT ON FUNCTION bench.start_ibench(bigint, text[], integer, integer, integer, integer, interval, jsonb, text, text, interval, text) IS
    'bench.ibench without waiting: the suite''s id once it has started (bench.wait_suite waits for it)';

REVOKE ALL ON FUNCTION bench.ibench(bigint, text[], integer, integer, integer, integer, interval, jsonb, text, text, interval, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.start_ibench(bigint, text[], integer, integer, integer, integer, interval, jsonb, text, text, interval, text) FROM PUBLIC;

--
-- bench.runs and bench.suites become views over the tables bench._runs and
-- bench._suites, which keep their rows, keys, indexes, constraints, row
-- level security, foreign keys and pg_dump's registration: the views show
-- a run or a suite whose process is gone as aborted from the moment the
-- server accepts connections again (docs/design.md).
--
ALTER TABLE bench.runs RENAME TO _runs;
ALTER TABLE bench.suites RENAME TO _suites;

-- their constraints' names as a fresh install makes them (the index of a
-- key follows its constraint)
DO $do$
DECLARE
    c record;
BEGIN
    FOR c IN SELECT k.conrelid::regclass AS rel, k.conname
               FROM pg_catalog.pg_constraint k
              WHERE (k.conrelid = 'bench._runs'::regclass AND k.conname LIKE 'runs\_%')
                 OR (k.conrelid = 'bench._suites'::regclass AND k.conname LIKE 'suites\_%')
              ORDER BY 1, 2
    LOOP
        EXECUTE pg_catalog.format('ALTER TABLE %s RENAME CONSTRAINT %I TO %I',
                                  c.rel, c.conname, '_' || c.conname);
    END LOOP;
END
$do$;

COMMENT ON TABLE bench._runs IS
    'Benchmark runs as recorded (read them through the view bench.runs)';
COMMENT ON TABLE bench._suites IS
    'Sweeps as recorded (read them through the view bench.suites)';

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

-- every other view that read the tables reads the views, as in a fresh
-- install: its definition again, with the views' names
DO $do$
DECLARE
    v    record;
    path text := pg_catalog.current_setting('search_path');
BEGIN
    -- names qualified in the definitions
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
    FOR v IN SELECT DISTINCT w.ev_class::regclass AS view, c.reloptions
               FROM pg_catalog.pg_depend d
               JOIN pg_catalog.pg_rewrite w ON w.oid = d.objid
               JOIN pg_catalog.pg_class c ON c.oid = w.ev_class
              WHERE d.classid = 'pg_catalog.pg_rewrite'::pg_catalog.regclass
                AND d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass
                AND d.refobjid IN ('bench._runs'::pg_catalog.regclass, 'bench._suites'::pg_catalog.regclass)
                AND w.ev_class NOT IN ('bench.runs'::pg_catalog.regclass, 'bench.suites'::pg_catalog.regclass)
              ORDER BY 1
    LOOP
        EXECUTE pg_catalog.format('CREATE OR REPLACE VIEW %s %s AS %s', v.view,
            CASE WHEN v.reloptions IS NOT NULL
                 THEN 'WITH (' || pg_catalog.array_to_string(v.reloptions, ', ') || ')' ELSE '' END,
            pg_catalog.regexp_replace(pg_catalog.regexp_replace(
                pg_catalog.rtrim(pg_catalog.pg_get_viewdef(v.view), ';'),
                '\mbench\._runs\M', 'bench.runs', 'g'), '\mbench\._suites\M', 'bench.suites', 'g'));
    END LOOP;
    PERFORM pg_catalog.set_config('search_path', path, true);
END
$do$;

-- the functions on the tables' rows that the views replace
DROP FUNCTION bench._run_state(bench._runs);
DROP FUNCTION bench._suite_state(bench._suites);

-- the functions that return a row of bench.runs return the view's
SELECT bench._create_run_function('bench.run', 'bench.runs', 'bench_run',
    'Run a workload with background-worker clients; wait for it, print progress, return its row of bench.runs');

DROP FUNCTION bench.wait(bigint);
CREATE FUNCTION bench.wait(run_id bigint)
RETURNS bench.runs
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_wait';

COMMENT ON FUNCTION bench.wait(bigint) IS
    'Wait for a run to end, printing its progress, and return its row of bench.runs';
REVOKE ALL ON FUNCTION bench.wait(bigint) FROM PUBLIC;
