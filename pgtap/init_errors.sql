-- pgTAP: bench.init refuses bad input, missing privileges and transaction
-- blocks, each with its own SQLSTATE and message, and changes nothing when
-- it does.
--
-- Run with pg_prove against a database where
--   CREATE EXTENSION pgtap; CREATE EXTENSION pgbenchkit CASCADE;
-- has been done.  The file runs in one transaction that is rolled back.
--
-- bench.init checks its arguments, the server's limits, the disk and the
-- caller's privileges before it checks for a transaction block, so each
-- bad input below raises its own error even inside pgTAP's transaction, and
-- a valid call raises 25001 (it must run outside BEGIN ... COMMIT).  The
-- checks made after that one (tables that already exist) are in
-- pgtap/init_existing_tables.sql, which runs outside a transaction block.
\set ON_ERROR_STOP 1
\set QUIET 1
\pset format unaligned
\pset tuples_only true
\pset pager off

BEGIN;
SELECT plan(55);

-- a schema of our own, first in search_path: that is where bench.init
-- would create the tables
CREATE SCHEMA pgbk_tap_errors;
SET LOCAL search_path = pgbk_tap_errors, public;

-- ---------------------------------------------------------------- NULL arguments (22004)
SELECT throws_ok($$SELECT bench.init(NULL)$$,
    '22004', 'argument "workload" of bench.init must not be null', 'NULL workload: 22004');
SELECT throws_ok($$SELECT bench.init('tpcb', scale => NULL)$$,
    '22004', 'argument "scale" of bench.init must not be null', 'NULL scale: 22004');
SELECT throws_ok($$SELECT bench.init('tpcb', fillfactor => NULL)$$,
    '22004', 'argument "fillfactor" of bench.init must not be null', 'NULL fillfactor: 22004');
SELECT throws_ok($$SELECT bench.init('tpcb', partitions => NULL)$$,
    '22004', 'argument "partitions" of bench.init must not be null', 'NULL partitions: 22004');
SELECT throws_ok($$SELECT bench.init('tpcb', unlogged => NULL)$$,
    '22004', 'argument "unlogged" of bench.init must not be null', 'NULL unlogged: 22004');
SELECT throws_ok($$SELECT bench.init('tpcb', foreign_keys => NULL)$$,
    '22004', 'argument "foreign_keys" of bench.init must not be null', 'NULL foreign_keys: 22004');
SELECT throws_ok($$SELECT bench.init('tpcb', jobs => NULL)$$,
    '22004', 'argument "jobs" of bench.init must not be null', 'NULL jobs: 22004');
SELECT throws_ok($$SELECT bench.init('tpcb', force => NULL)$$,
    '22004', 'argument "force" of bench.init must not be null', 'NULL force: 22004');
-- partition_method is the one argument whose NULL means "the default"
SELECT throws_ok($$SELECT bench.init('tpcb', partition_method => NULL)$$,
    '25001', 'bench.init cannot run inside a transaction block',
    'NULL partition_method is accepted (pgbench''s default); the call then meets the transaction block');

-- ---------------------------------------------------------------- workload (22023)
SELECT throws_ok($$SELECT bench.init('x')$$,
    '22023', 'unknown workload "x"', 'unknown workload: 22023');
SELECT throws_ok($$SELECT bench.init('TPCB')$$,
    '22023', 'unknown workload "TPCB"', 'workload names are case sensitive: 22023');
SELECT throws_ok($$SELECT bench.init('')$$,
    '22023', 'unknown workload ""', 'empty workload: 22023');

-- ---------------------------------------------------------------- scale (22023, 53100)
SELECT throws_ok($$SELECT bench.init('tpcb', scale => 0)$$,
    '22023', 'scale must be at least 1, not 0', 'scale 0: 22023');
SELECT throws_ok($$SELECT bench.init('tpcb', scale => -5)$$,
    '22023', 'scale must be at least 1, not -5', 'negative scale: 22023');
SELECT throws_ok($$SELECT bench.init('tpcb', scale => 2147483647)$$,
    '53100', NULL, 'a scale too big for the free disk space: 53100');
SELECT throws_matching($$SELECT bench.init('tpcb', scale => 2147483647)$$,
    '^scale 2147483647 needs about [0-9]+ MB of disk, but only [0-9]+ MB are free$',
    'the disk space error says how much is needed and how much is free');
SELECT throws_ok($$SELECT bench.init('tpcb', scale => 1000000000, fillfactor => 10)$$,
    '53100', NULL, 'a big scale with a low fillfactor: 53100');

-- ---------------------------------------------------------------- fillfactor (22023)
SELECT throws_ok($$SELECT bench.init('tpcb', fillfactor => 9)$$,
    '22023', 'fillfactor must be between 10 and 100, not 9', 'fillfactor 9: 22023');
SELECT throws_ok($$SELECT bench.init('tpcb', fillfactor => 101)$$,
    '22023', 'fillfactor must be between 10 and 100, not 101', 'fillfactor 101: 22023');
SELECT throws_ok($$SELECT bench.init('tpcb', fillfactor => 0)$$,
    '22023', 'fillfactor must be between 10 and 100, not 0', 'fillfactor 0: 22023');
SELECT throws_ok($$SELECT bench.init('tpcb', fillfactor => 10)$$,
    '25001', 'bench.init cannot run inside a transaction block', 'fillfactor 10 is valid');
SELECT throws_ok($$SELECT bench.init('tpcb', fillfactor => 100)$$,
    '25001', 'bench.init cannot run inside a transaction block', 'fillfactor 100 is valid');

-- ---------------------------------------------------------------- partitions (22023)
SELECT throws_ok($$SELECT bench.init('tpcb', partitions => -1)$$,
    '22023', 'partitions must not be negative, not -1', 'negative partitions: 22023');
SELECT throws_ok($$SELECT bench.init('tpcb', partitions => 10001)$$,
    '22023', 'partitions must be at most 10000 here, not 10001', 'partitions above 10000: 22023');
SELECT throws_ok($$SELECT bench.init('tpcb', scale => 1000, partitions => 2147483647, partition_method => 'hash')$$,
    '22023', 'partitions must be at most 10000 here, not 2147483647', 'partitions => 2147483647: 22023');
SELECT throws_ok($$SELECT bench.init('tpcb', partitions => 10000)$$,
    '25001', 'bench.init cannot run inside a transaction block', 'partitions => 10000 is valid');
SELECT throws_ok($$SELECT bench.init('tpcb', partitions => 2, partition_method => 'list')$$,
    '22023', 'unknown partition method "list"', 'unknown partition_method: 22023');
SELECT throws_ok($$SELECT bench.init('tpcb', partitions => 2, partition_method => 'RANGE')$$,
    '22023', 'unknown partition method "RANGE"', 'partition methods are case sensitive: 22023');
SELECT throws_ok($$SELECT bench.init('tpcb', partition_method => 'hash')$$,
    '22023', 'partition_method "hash" needs partitions greater than zero',
    'partition_method hash without partitions: 22023');
SELECT throws_ok($$SELECT bench.init('tpcb', partitions => 0, partition_method => 'range')$$,
    '22023', 'partition_method "range" needs partitions greater than zero',
    'partition_method range with partitions 0: 22023');
SELECT throws_ok($$SELECT bench.init('tpcb', partitions => 3, partition_method => 'hash')$$,
    '25001', 'bench.init cannot run inside a transaction block', 'hash partitions are valid');
SELECT throws_ok($$SELECT bench.init('tpcb', partitions => 3)$$,
    '25001', 'bench.init cannot run inside a transaction block',
    'partitions without a method are valid (range, as in pgbench)');

-- ---------------------------------------------------------------- jobs (22023, 53000)
SELECT throws_ok($$SELECT bench.init('tpcb', jobs => 0)$$,
    '22023', 'jobs must be at least 1, not 0', 'jobs 0: 22023');
SELECT throws_ok($$SELECT bench.init('tpcb', jobs => -3)$$,
    '22023', 'jobs must be at least 1, not -3', 'negative jobs: 22023');
-- jobs => J needs J + 1 workers: the coordinator and J loaders
SELECT throws_ok(
    format($$SELECT bench.init('tpcb', jobs => %s)$$, current_setting('max_worker_processes')),
    '53000',
    format('jobs => %s needs %s background workers, but max_worker_processes is %s',
           current_setting('max_worker_processes'),
           current_setting('max_worker_processes')::int + 1,
           current_setting('max_worker_processes')),
    'jobs => max_worker_processes (no room for the coordinator): 53000');
SELECT throws_ok($$SELECT bench.init('tpcb', jobs => 65)$$,
    '53000',
    format('jobs => 65 needs 66 background workers, but max_worker_processes is %s',
           current_setting('max_worker_processes')),
    'jobs above 64: 53000, whatever max_worker_processes is');
SELECT throws_ok($$SELECT bench.init('tpcb', jobs => 2147483647)$$,
    '53000',
    format('jobs => 2147483647 needs 2147483648 background workers, but max_worker_processes is %s',
           current_setting('max_worker_processes')),
    'jobs => 2147483647: 53000, and the number of workers it needs is not overflowed');
SELECT throws_ok(
    format($$SELECT bench.init('tpcb', jobs => %s)$$,
           least(64, current_setting('max_worker_processes')::int - 1)),
    '25001', 'bench.init cannot run inside a transaction block',
    'the largest jobs the server allows is valid');

-- ---------------------------------------------------------------- the order of the checks
SELECT throws_ok($$SELECT bench.init('x', scale => 0)$$,
    '22023', 'unknown workload "x"', 'the workload is checked first');
SELECT throws_ok($$SELECT bench.init('tpcb', scale => 0, fillfactor => 0)$$,
    '22023', 'scale must be at least 1, not 0', 'then the scale');
SELECT throws_ok($$SELECT bench.init(NULL, scale => 0)$$,
    '22004', 'argument "workload" of bench.init must not be null', 'NULL arguments before values');

-- ---------------------------------------------------------------- transaction block (25001)
SELECT throws_ok($$SELECT bench.init('tpcb')$$,
    '25001', 'bench.init cannot run inside a transaction block', 'a valid call inside BEGIN: 25001');
SELECT throws_ok($$SELECT * FROM bench.init('tpcb', scale => 2, fillfactor => 80, partitions => 4,
                                           partition_method => 'hash', unlogged => true,
                                           foreign_keys => true, jobs => 2, force => true)$$,
    '25001', 'bench.init cannot run inside a transaction block',
    'a valid call with every option inside BEGIN: 25001');
SAVEPOINT sp;
SELECT throws_ok($$SELECT bench.init('tpcb')$$,
    '25001', 'bench.init cannot run inside a transaction block', 'inside a savepoint too: 25001');
RELEASE SAVEPOINT sp;

-- ---------------------------------------------------------------- privileges (42501)
-- a role that may log in (before PostgreSQL 17 the workers need that)
CREATE ROLE pgbk_tap_caller LOGIN;
GRANT USAGE ON SCHEMA pgbk_tap_errors TO pgbk_tap_caller;

SET LOCAL ROLE pgbk_tap_caller;
SELECT throws_ok($$SELECT bench.init('tpcb')$$,
    '42501', 'permission denied for function init', 'no EXECUTE on bench.init: 42501');
SELECT throws_ok($$SELECT bench.init('x')$$,
    '42501', 'permission denied for function init', 'no EXECUTE comes before any argument check');
RESET ROLE;

GRANT EXECUTE ON FUNCTION bench.init(text, integer, integer, integer, text, boolean, boolean, integer, boolean, text, text, integer, integer, integer)
    TO pgbk_tap_caller;
SET LOCAL ROLE pgbk_tap_caller;
SELECT throws_ok($$SELECT bench.init('tpcb')$$,
    '42501', 'permission denied to create tables in schema "pgbk_tap_errors"',
    'EXECUTE but no CREATE on the first schema of search_path: 42501');
SELECT throws_ok($$SELECT bench.init('x')$$,
    '22023', 'unknown workload "x"', 'arguments are checked before the schema privilege');
-- schema public: since PostgreSQL 15 PUBLIC may not create in it
SET LOCAL search_path = public;
SELECT throws_ok($$SELECT bench.init('tpcb')$$,
    '42501', 'permission denied to create tables in schema "public"',
    'no CREATE on schema public (the default since PostgreSQL 15): 42501');
SET LOCAL search_path = pgbk_tap_errors, public;
RESET ROLE;

GRANT CREATE ON SCHEMA pgbk_tap_errors TO pgbk_tap_caller;
SET LOCAL ROLE pgbk_tap_caller;
SELECT throws_ok($$SELECT bench.init('tpcb')$$,
    '25001', 'bench.init cannot run inside a transaction block',
    'with EXECUTE and CREATE the call gets as far as the transaction block check');
RESET ROLE;

-- a role that cannot log in: before 17 the workers cannot connect as it
CREATE ROLE pgbk_tap_nologin NOLOGIN;
GRANT USAGE, CREATE ON SCHEMA pgbk_tap_errors TO pgbk_tap_nologin;
GRANT EXECUTE ON FUNCTION bench.init(text, integer, integer, integer, text, boolean, boolean, integer, boolean, text, text, integer, integer, integer)
    TO pgbk_tap_nologin;
SET LOCAL ROLE pgbk_tap_nologin;
SELECT CASE WHEN current_setting('server_version_num')::int < 170000
    THEN throws_ok($$SELECT bench.init('tpcb')$$,
        '42501', 'role "pgbk_tap_nologin" cannot start background workers because it cannot log in',
        'a NOLOGIN role: 42501 before PostgreSQL 17')
    ELSE throws_ok($$SELECT bench.init('tpcb')$$,
        '25001', 'bench.init cannot run inside a transaction block',
        'a NOLOGIN role may call bench.init from PostgreSQL 17 on')
    END;
RESET ROLE;

-- ---------------------------------------------------------------- nothing happened
SELECT is(
    (SELECT count(*)::int FROM bench.datasets WHERE started_at >= now()),
    0, 'none of the refused calls recorded a dataset');
SELECT is(
    (SELECT count(*)::int FROM pg_class
      WHERE relname LIKE 'pgbench\_%' AND relnamespace = 'pgbk_tap_errors'::regnamespace),
    0, 'none of the refused calls created a pgbench table');
SELECT is(
    (SELECT count(*)::int FROM pg_class WHERE relname LIKE 'bench\_load\_%'),
    0, 'none of the refused calls left a staging table');
SELECT is(
    (SELECT count(*)::int FROM pg_stat_activity
      WHERE backend_type IN ('pgbenchkit init', 'pgbenchkit loader')),
    0, 'none of the refused calls started a background worker');

SELECT * FROM finish();
ROLLBACK;
