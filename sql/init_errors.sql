--
-- bench.init refuses bad input before anything starts
--
CREATE SCHEMA errs;
SET search_path = errs, public;

-- unknown workload
SELECT * FROM bench.init('tpch');
-- NULL arguments
SELECT * FROM bench.init(NULL);
SELECT * FROM bench.init('tpcb', scale => NULL);
SELECT * FROM bench.init('tpcb', fillfactor => NULL);
SELECT * FROM bench.init('tpcb', partitions => NULL);
SELECT * FROM bench.init('tpcb', unlogged => NULL);
SELECT * FROM bench.init('tpcb', foreign_keys => NULL);
SELECT * FROM bench.init('tpcb', jobs => NULL);
SELECT * FROM bench.init('tpcb', force => NULL);
-- scale
SELECT * FROM bench.init('tpcb', scale => 0);
SELECT * FROM bench.init('tpcb', scale => -5);
DO $$
BEGIN
  PERFORM bench.init('tpcb', scale => 2000000000);
EXCEPTION WHEN disk_full THEN
  RAISE NOTICE 'refused with %: %', SQLSTATE, regexp_replace(SQLERRM, '[0-9]+ MB', 'N MB', 'g');
END $$;
-- fillfactor
SELECT * FROM bench.init('tpcb', fillfactor => 9);
SELECT * FROM bench.init('tpcb', fillfactor => 101);
-- partitions
SELECT * FROM bench.init('tpcb', partitions => -1);
SELECT * FROM bench.init('tpcb', partitions => 100001);
SELECT * FROM bench.init('tpcb', scale => 1000, partitions => 2000000000);
SELECT * FROM bench.init('tpcb', partitions => 2, partition_method => 'list');
SELECT * FROM bench.init('tpcb', partition_method => 'hash');
SELECT * FROM bench.init('tpcb', partitions => 0, partition_method => 'range');
-- jobs
SELECT * FROM bench.init('tpcb', jobs => 0);
SELECT * FROM bench.init('tpcb', jobs => 1000);
-- inside a transaction block
BEGIN;
SELECT * FROM bench.init('tpcb');
ROLLBACK;
-- none of that created anything
SELECT count(*) FROM pg_class WHERE relnamespace = 'errs'::regnamespace;
SELECT count(*) FROM bench.datasets WHERE schema_name = 'errs';

-- a partition name that clashes with a table of the user's
CREATE TABLE errs.pgbench_accounts_2 (x int);
SELECT * FROM bench.init('tpcb', partitions => 3);
DROP TABLE errs.pgbench_accounts_2;

-- privileges: EXECUTE is not granted to PUBLIC
CREATE ROLE bench_tester LOGIN;
SET ROLE bench_tester;
SELECT * FROM bench.init('tpcb');
RESET ROLE;
GRANT EXECUTE ON FUNCTION bench.init TO bench_tester;
-- EXECUTE alone is not enough: creating tables needs CREATE on the schema
SET ROLE bench_tester;
SELECT * FROM bench.init('tpcb');
-- but the role may read the results
SELECT count(*) >= 0 AS readable FROM bench.datasets;
RESET ROLE;
-- with CREATE on its own schema, the role loads a dataset it owns
CREATE SCHEMA tester AUTHORIZATION bench_tester;
SET ROLE bench_tester;
SET search_path = tester;
SELECT rows_loaded FROM bench.init('tpcb');
SELECT relname, pg_get_userbyid(relowner) FROM pg_class
 WHERE relnamespace = 'tester'::regnamespace AND relkind = 'r' ORDER BY 1;
SELECT created_by, status FROM bench.datasets WHERE schema_name = 'tester';
RESET ROLE;
-- a role that cannot log in cannot start workers (before PostgreSQL 17)
-- is covered by the pgTAP suite, which knows the server version.
DROP SCHEMA tester CASCADE;
REVOKE EXECUTE ON FUNCTION bench.init FROM bench_tester;
DROP ROLE bench_tester;
RESET search_path;
