--
-- bench.init with a target refuses bad input before anything starts, and
-- records nothing.  None of this needs a server to load into
-- (t/015_init_target.pl loads into one).
--
CREATE SCHEMA terrs;
SET search_path = terrs, public;

-- generate: how a target gets its rows; nothing without a target
SELECT * FROM bench.init('tpcb', generate => 'server');
SELECT * FROM bench.init('tpcb', generate => 'client');
SELECT * FROM bench.init('tpcb', target => 'nowhere', generate => 'both');
-- a target that does not exist, a server that is not a target
SELECT * FROM bench.init('tpcb', target => 'nowhere');
CREATE FOREIGN DATA WRAPPER terrs_fdw;
CREATE SERVER not_a_target FOREIGN DATA WRAPPER terrs_fdw;
SELECT * FROM bench.init('tpcb', target => 'not_a_target');
-- a target nobody listens at
CREATE SERVER unreachable FOREIGN DATA WRAPPER bench_target
    OPTIONS (host '127.0.0.1', port '1', dbname 'postgres');
-- a target is loaded over one connection
SELECT * FROM bench.init('tpcb', target => 'unreachable', jobs => 4);
-- the options are checked as without a target
SELECT * FROM bench.init('tpcb', target => 'unreachable', scale => 0);
SELECT * FROM bench.init('tpcb', target => 'unreachable', partition_method => 'hash');
SELECT * FROM bench.init('tpcb', target => 'unreachable', jobs => 0);
SELECT * FROM bench.init('tpcb', target => 'unreachable', force => NULL);
-- inside a transaction block
BEGIN;
SELECT * FROM bench.init('tpcb', target => 'unreachable');
ROLLBACK;

-- an ordinary role needs USAGE on the target, a user mapping, a password
CREATE ROLE bench_target_tester LOGIN;
GRANT EXECUTE ON FUNCTION bench.init TO bench_target_tester;
SET ROLE bench_target_tester;
SELECT * FROM bench.init('tpcb', target => 'unreachable');
RESET ROLE;
GRANT USAGE ON FOREIGN SERVER unreachable TO bench_target_tester;
SET ROLE bench_target_tester;
SELECT * FROM bench.init('tpcb', target => 'unreachable');
RESET ROLE;
CREATE USER MAPPING FOR bench_target_tester SERVER unreachable OPTIONS (user 'someone');
SET ROLE bench_target_tester;
SELECT * FROM bench.init('tpcb', target => 'unreachable');
RESET ROLE;
ALTER USER MAPPING FOR bench_target_tester SERVER unreachable OPTIONS (ADD password 'n0t-t0-be-seen');
-- unreachable: refused before anything starts (libpq's detail, which
-- depends on the machine, is left out)
SET ROLE bench_target_tester;
\set VERBOSITY terse
SELECT * FROM bench.init('tpcb', target => 'unreachable');
\set VERBOSITY default
RESET ROLE;

-- none of that recorded or created anything
SELECT count(*) FROM bench.datasets WHERE target IS NOT NULL;
SELECT count(*) FROM pg_class WHERE relnamespace = 'terrs'::regnamespace;

DROP USER MAPPING FOR bench_target_tester SERVER unreachable;
DROP SERVER unreachable;
DROP SERVER not_a_target;
DROP FOREIGN DATA WRAPPER terrs_fdw;
REVOKE EXECUTE ON FUNCTION bench.init FROM bench_target_tester;
DROP ROLE bench_target_tester;
DROP SCHEMA terrs;
RESET search_path;
