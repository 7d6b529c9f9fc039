--
-- bench.add_target(name, conninfo, password, user, price_per_hour,
-- currency): create the server of a target and the calling role's user
-- mapping, in one go.  The connection string holds the server's options
-- (host, port, dbname, sslmode, sslrootcert...) and maybe user; never a
-- password, which is an argument of its own and goes in the user mapping
-- only.  The price per hour and its currency, options of the server (which
-- its validator checks: both or neither), are the price its runs record.
--
CREATE OR REPLACE FUNCTION bench.add_target(name text, conninfo text, password text DEFAULT NULL,
                                            "user" text DEFAULT NULL,
                                            price_per_hour numeric DEFAULT NULL,
                                            currency text DEFAULT NULL)
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
    -- the price, as the server's options take it: its validator refuses a
    -- bad one (negative, NaN, infinite) and a price without its currency
    IF add_target.price_per_hour IS NOT NULL THEN
        server_options := server_options || CASE WHEN server_options = '' THEN '' ELSE ', ' END
                          || format('price_per_hour %L', add_target.price_per_hour::text);
    END IF;
    IF add_target.currency IS NOT NULL THEN
        server_options := server_options || CASE WHEN server_options = '' THEN '' ELSE ', ' END
                          || format('currency %L', add_target.currency);
    END IF;
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

COMMENT ON FUNCTION bench.add_target(text, text, text, text, numeric, text) IS
    'Add a target: the server of the wrapper bench_target with the options of a connection string and its price per hour and currency, and the calling role''s user mapping with the user and password';
REVOKE ALL ON FUNCTION bench.add_target(text, text, text, text, numeric, text) FROM PUBLIC;
