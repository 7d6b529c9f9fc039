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
