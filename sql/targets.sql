--
-- Targets: servers of the foreign-data wrapper bench_target, each role's
-- credentials in its user mapping; bench.add_target, bench.targets,
-- bench.drop_target and bench.check_target (against this instance itself,
-- which trusts local connections).
--
CREATE EXTENSION IF NOT EXISTS pgbenchkit CASCADE;
SET client_min_messages = warning;
\set VERBOSITY default
\set SHOW_CONTEXT never

-- errors as rows: SQLSTATE, message, detail, hint (the name of the
-- bootstrap superuser, who runs this test, as SUPERUSER)
CREATE FUNCTION pg_temp.error_of(query text,
    OUT state text, OUT message text, OUT detail text, OUT hint text)
LANGUAGE plpgsql AS $$
DECLARE
    su text := (SELECT rolname FROM pg_roles WHERE oid = 10);
BEGIN
    EXECUTE query;
    state := 'none';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT,
                            detail = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
    message := replace(message, format('"%s"', su), '"SUPERUSER"');
    hint := replace(hint, format(' %s,', su), ' SUPERUSER,');
END
$$;

-- the secrets of this test, which no column of bench.targets may show
-- (hunter2db, the password of target nodb, is its dbname too, on purpose)
CREATE TEMP TABLE secrets (secret text);
INSERT INTO secrets VALUES ('s3cret-aurora'), ('n30n'), ('d1rect'), ('k3y-pass'), ('unused');
GRANT SELECT ON secrets TO PUBLIC;
CREATE FUNCTION pg_temp.secrets_shown() RETURNS bigint LANGUAGE sql AS $$
    SELECT count(*) FROM bench.targets t, jsonb_each_text(to_jsonb(t)) e, secrets s
     WHERE strpos(e.value, s.secret) > 0
$$;

-- ------------------------------------------------------------ the wrapper
SELECT fdwname, fdwvalidator::regproc, fdwhandler = 0 AS no_handler, fdwoptions, fdwacl
  FROM pg_foreign_data_wrapper WHERE fdwname = 'bench_target';

-- ------------------------------------------------------------ bench.add_target
-- the server's options from the connection string, the user and password in
-- the calling role's user mapping
SELECT name, host, port, dbname, sslmode, sslrootcert, options, owner = current_user AS mine,
       has_user_mapping, remote_user, usage
  FROM bench.add_target('aurora',
       'host=aurora.cluster-abc.eu-west-1.rds.amazonaws.com port=5432 dbname=postgres sslmode=verify-full sslrootcert=/etc/ssl/certs/rds-global-bundle.pem',
       password => 's3cret-aurora', "user" => 'bench');
SELECT srvname, srvoptions FROM pg_foreign_server WHERE srvname = 'aurora';
SELECT usename = current_user AS mine, umoptions FROM pg_user_mappings WHERE srvname = 'aurora';
-- a URI: its user goes in the user mapping too
SELECT name, host, port, dbname, sslmode, options, remote_user
  FROM bench.add_target('neon', 'postgresql://bench@ep-cool-1.neon.tech:5433/app?sslmode=require&connect_timeout=5',
                        password => 'n30n');
SELECT umoptions FROM pg_user_mappings WHERE srvname = 'neon';

-- ------------------------------------------------------------ CREATE SERVER directly
CREATE SERVER direct FOREIGN DATA WRAPPER bench_target
    OPTIONS (host 'db.example.com', port '5432', dbname 'postgres', sslmode 'require');
CREATE USER MAPPING FOR CURRENT_USER SERVER direct OPTIONS (user 'bench', password 'd1rect');
ALTER USER MAPPING FOR CURRENT_USER SERVER direct OPTIONS (ADD sslpassword 'k3y-pass');
-- a superuser may set password_required 'false', sslcert and sslkey
CREATE USER MAPPING FOR PUBLIC SERVER direct
    OPTIONS (user 'anyone', password_required 'false',
             sslcert '/etc/pgbenchkit/client.crt', sslkey '/etc/pgbenchkit/client.key');
SELECT name, host, port, dbname, sslmode, options, has_user_mapping, remote_user, usage
  FROM bench.targets ORDER BY name;
SELECT pg_temp.secrets_shown() AS secrets_shown;

-- ------------------------------------------------------------ the wrapper's options
-- an unknown option (the hint lists the valid ones, which depend on libpq)
SELECT state, message, hint LIKE 'Valid options in this context are: %host%' AS lists_valid
  FROM pg_temp.error_of($$CREATE SERVER bad FOREIGN DATA WRAPPER bench_target OPTIONS (hots 'x')$$);
SELECT state, message, hint LIKE 'Valid options in this context are: %password%' AS lists_valid
  FROM pg_temp.error_of($$CREATE USER MAPPING FOR PUBLIC SERVER neon OPTIONS (pasword 'x')$$);
-- a password, or another secret, in the server (every role reads its options)
SELECT * FROM pg_temp.error_of($$CREATE SERVER bad FOREIGN DATA WRAPPER bench_target OPTIONS (host 'x', password 'p')$$);
SELECT * FROM pg_temp.error_of($$ALTER SERVER direct OPTIONS (ADD sslpassword 'p')$$);
-- user mapping options in the server
SELECT * FROM pg_temp.error_of($$CREATE SERVER bad FOREIGN DATA WRAPPER bench_target OPTIONS (user 'bench')$$);
SELECT * FROM pg_temp.error_of($$CREATE SERVER bad FOREIGN DATA WRAPPER bench_target OPTIONS (sslcert '/tmp/c.crt')$$);
SELECT * FROM pg_temp.error_of($$CREATE SERVER bad FOREIGN DATA WRAPPER bench_target OPTIONS (sslkey '/tmp/c.key')$$);
SELECT * FROM pg_temp.error_of($$CREATE SERVER bad FOREIGN DATA WRAPPER bench_target OPTIONS (password_required 'false')$$);
-- server options in the user mapping
SELECT * FROM pg_temp.error_of($$ALTER USER MAPPING FOR CURRENT_USER SERVER neon OPTIONS (ADD host 'other.example.com')$$);
SELECT * FROM pg_temp.error_of($$ALTER USER MAPPING FOR CURRENT_USER SERVER neon OPTIONS (ADD sslrootcert '/tmp/ca.pem')$$);
-- what pgbenchkit sets itself, and no options on the wrapper or on foreign tables
SELECT state, message FROM pg_temp.error_of($$CREATE SERVER bad FOREIGN DATA WRAPPER bench_target OPTIONS (fallback_application_name 'x')$$);
SELECT state, message FROM pg_temp.error_of($$CREATE SERVER bad FOREIGN DATA WRAPPER bench_target OPTIONS (client_encoding 'LATIN1')$$);
SELECT * FROM pg_temp.error_of($$ALTER FOREIGN DATA WRAPPER bench_target OPTIONS (ADD host 'x')$$);
SELECT * FROM pg_temp.error_of($$CREATE FOREIGN TABLE bad_table (a integer) SERVER direct OPTIONS (table_name 't')$$);
-- values
SELECT * FROM pg_temp.error_of($$CREATE SERVER bad FOREIGN DATA WRAPPER bench_target OPTIONS (sslmode 'verify_full')$$);
SELECT state, message FROM pg_temp.error_of($$ALTER USER MAPPING FOR CURRENT_USER SERVER neon OPTIONS (ADD password_required 'maybe')$$);
SELECT count(*) AS bad_servers FROM pg_foreign_server WHERE srvname = 'bad';

-- ------------------------------------------------------------ bench.add_target refuses
-- a password, a secret, sslcert or sslkey in the connection string: never quoted back
SELECT * FROM pg_temp.error_of($$SELECT bench.add_target('t1', 'host=x password=s3cret-aurora')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.add_target('t1', 'postgresql://bench:s3cret-aurora@x/postgres')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.add_target('t1', 'host=x sslpassword=k3y-pass')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.add_target('t1', 'host=x sslcert=/tmp/c.crt sslkey=/tmp/c.key')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.add_target('t1', 'host=x fallback_application_name=y')$$);
-- a string libpq cannot read: its message, unless the string mentions a password
SELECT * FROM pg_temp.error_of($$SELECT bench.add_target('t1', 'host=x hots=y')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.add_target('t1', 'host=x password=my s3cret-aurora')$$);
-- the arguments
SELECT * FROM pg_temp.error_of($$SELECT bench.add_target(NULL, 'host=x')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.add_target('t1', NULL)$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.add_target('', 'host=x')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.add_target(repeat('t', 64), 'host=x')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.add_target('aurora', 'host=x')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.add_target('t1', 'host=x', password => '')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.add_target('t1', 'host=x user=a', "user" => 'b')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.add_target('t1', 'host=x sslmode=sometimes', password => 's3cret-aurora')$$);
SELECT count(*) AS t1_servers FROM pg_foreign_server WHERE srvname = 't1';

-- ------------------------------------------------------------ bench.check_target
-- this instance itself, as a superuser: it answers with its version
SELECT format('host=%s port=%s dbname=%s', split_part(current_setting('unix_socket_directories'), ',', 1),
              current_setting('port'), current_database()) AS self_conninfo \gset
SELECT name, has_user_mapping, usage FROM bench.add_target('self', :'self_conninfo');
SELECT bench.check_target('self') = version() AS answers_its_version;
-- a connection that fails: libpq's message, the password redacted
SELECT name FROM bench.add_target('nodb', format('host=%s port=%s dbname=hunter2db',
       split_part(current_setting('unix_socket_directories'), ',', 1), current_setting('port')),
       password => 'hunter2db');
SELECT state, message, detail LIKE '%database "********" does not exist%' AS redacted,
       strpos(detail, 'hunter2db') = 0 AS no_password
  FROM pg_temp.error_of($$SELECT bench.check_target('nodb')$$);
-- no such target, not a target, no user mapping, null
SELECT * FROM pg_temp.error_of($$SELECT bench.check_target('nosuch')$$);
CREATE FOREIGN DATA WRAPPER other_wrapper;
CREATE SERVER not_a_target FOREIGN DATA WRAPPER other_wrapper;
SELECT * FROM pg_temp.error_of($$SELECT bench.check_target('not_a_target')$$);
CREATE SERVER unmapped FOREIGN DATA WRAPPER bench_target OPTIONS (host 'db.example.com');
SELECT state, message, hint FROM pg_temp.error_of($$SELECT bench.check_target('unmapped')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.check_target(NULL)$$);

-- ------------------------------------------------------------ an ordinary role
CREATE ROLE bench_target_user;
GRANT EXECUTE ON FUNCTION bench.add_target(text, text, text, text, numeric, text), bench.drop_target(text),
      bench.check_target(text) TO bench_target_user;
SET ROLE bench_target_user;
-- adding targets needs USAGE on the wrapper
SELECT * FROM pg_temp.error_of(format('SELECT bench.add_target(%L, %L)', 'mine', :'self_conninfo'));
RESET ROLE;
GRANT USAGE ON FOREIGN DATA WRAPPER bench_target TO bench_target_user;
SET ROLE bench_target_user;
SELECT name, owner = current_user AS mine, has_user_mapping, remote_user, usage
  FROM bench.add_target('mine', :'self_conninfo');
-- password_required 'false', sslcert and sslkey are superuser-only
SELECT * FROM pg_temp.error_of($$ALTER USER MAPPING FOR CURRENT_USER SERVER mine OPTIONS (ADD password_required 'false')$$);
SELECT * FROM pg_temp.error_of($$ALTER USER MAPPING FOR CURRENT_USER SERVER mine OPTIONS (ADD sslcert '/var/lib/postgresql/.postgresql/postgresql.crt')$$);
SELECT * FROM pg_temp.error_of($$ALTER USER MAPPING FOR CURRENT_USER SERVER mine OPTIONS (ADD sslkey '/var/lib/postgresql/.postgresql/postgresql.key')$$);
-- password_required 'true' is anyone's
ALTER USER MAPPING FOR CURRENT_USER SERVER mine OPTIONS (ADD password_required 'true');
-- no password in the user mapping: refused before connecting
SELECT * FROM pg_temp.error_of($$SELECT bench.check_target('mine')$$);
-- a password the server (trust) does not ask for: refused after connecting,
-- so that the role does not reach it with the server's own identity
ALTER USER MAPPING FOR CURRENT_USER SERVER mine OPTIONS (ADD password 'unused');
SELECT * FROM pg_temp.error_of($$SELECT bench.check_target('mine')$$);
-- another role's targets: listed, without USAGE, and no user mapping to read
SELECT name, host IS NOT NULL AS has_host, has_user_mapping, remote_user, usage FROM bench.targets ORDER BY name;
SELECT pg_temp.secrets_shown() AS secrets_shown;
SELECT state, message FROM pg_temp.error_of($$SELECT umoptions FROM pg_user_mapping$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.check_target('aurora')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.drop_target('aurora')$$);
RESET ROLE;
-- USAGE granted: the role reaches it with its own user mapping
GRANT USAGE ON FOREIGN SERVER self TO bench_target_user;
CREATE USER MAPPING FOR bench_target_user SERVER self OPTIONS (password 'unused');
SET ROLE bench_target_user;
SELECT name, has_user_mapping, usage FROM bench.targets WHERE name = 'self';
SELECT state, message FROM pg_temp.error_of($$SELECT bench.check_target('self')$$);
SELECT bench.drop_target('mine');
RESET ROLE;
-- a superuser's password_required 'false' lets the role connect without one
ALTER USER MAPPING FOR bench_target_user SERVER self OPTIONS (DROP password, ADD password_required 'false');
SET ROLE bench_target_user;
SELECT bench.check_target('self') = version() AS answers_its_version;
RESET ROLE;

-- ------------------------------------------------------------ bench.drop_target
-- refused: no such target, another wrapper's server, something depends on it
SELECT * FROM pg_temp.error_of($$SELECT bench.drop_target('nosuch')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.drop_target('not_a_target')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.drop_target(NULL)$$);
CREATE FOREIGN TABLE on_direct (a integer) SERVER direct;
SELECT * FROM pg_temp.error_of($$SELECT bench.drop_target('direct')$$);
DROP FOREIGN TABLE on_direct;
-- the server and all its user mappings
SELECT bench.drop_target('direct');
SELECT bench.drop_target('aurora');
SELECT bench.drop_target('self');
SELECT count(*) AS mappings_left FROM pg_user_mappings WHERE srvname IN ('direct', 'aurora', 'self');
SELECT name FROM bench.targets ORDER BY name;

-- clean up
SELECT bench.drop_target(name) FROM bench.targets;
DROP SERVER not_a_target;
DROP FOREIGN DATA WRAPPER other_wrapper;
REVOKE ALL ON FOREIGN DATA WRAPPER bench_target FROM bench_target_user;
REVOKE ALL ON FUNCTION bench.add_target(text, text, text, text, numeric, text), bench.drop_target(text),
       bench.check_target(text) FROM bench_target_user;
DROP ROLE bench_target_user;
