-- pgTAP: bench.init and the tables that already exist where it would load
-- (SQLSTATE 42P07 without force, or with force on tables it did not make;
-- 42501 to replace another role's dataset).
--
-- Run with pg_prove against a database where
--   CREATE EXTENSION pgtap; CREATE EXTENSION pgbenchkit CASCADE;
-- has been done.
--
-- Unlike the other files this one does NOT run in a transaction block:
-- bench.init refuses to run inside one (25001) before it looks at existing
-- tables, so these checks can only be reached in autocommit mode.  For the
-- same reason the refused calls are not wrapped in throws_ok (which runs
-- its statement in a subtransaction, and bench.init refuses that too): each
-- one runs as a plain statement with ON_ERROR_STOP off, and the next
-- assertion checks psql's ERROR, LAST_ERROR_SQLSTATE and LAST_ERROR_MESSAGE.
-- Those statements print their errors on stderr; that is expected.
--
-- Each statement commits; the file works in its own schema and roles, drops
-- them at the start (left over from an interrupted run) and at the end, and
-- deletes the bench.datasets rows it made.  It loads scale 1 datasets
-- (100000 accounts), which takes a fraction of a second each.
\set ON_ERROR_STOP 1
\set QUIET 1
\pset format unaligned
\pset tuples_only true
\pset pager off
\set VERBOSITY terse

SET client_min_messages = warning;
DROP SCHEMA IF EXISTS pgbk_tap_existing CASCADE;
DELETE FROM bench.datasets WHERE schema_name = 'pgbk_tap_existing';
DO $$
BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'pgbk_tap_other') THEN
        DROP OWNED BY pgbk_tap_other;
        DROP ROLE pgbk_tap_other;
    END IF;
END
$$;
RESET client_min_messages;

CREATE SCHEMA pgbk_tap_existing;
SET search_path = pgbk_tap_existing, public;
-- another role that may call bench.init and create tables here
CREATE ROLE pgbk_tap_other LOGIN;
GRANT USAGE, CREATE ON SCHEMA pgbk_tap_existing TO pgbk_tap_other;
GRANT EXECUTE ON FUNCTION bench.init(text, integer, integer, integer, text, boolean, boolean, integer, boolean, text, text, integer, integer, integer)
    TO pgbk_tap_other;

SELECT plan(26);

-- ---------------------------------------------------------------- a user's own table
CREATE TABLE pgbk_tap_existing.pgbench_tellers (x int);
\set ON_ERROR_STOP 0
SELECT bench.init('tpcb');
\set ON_ERROR_STOP 1
SELECT is(:'ERROR' || ' ' || :'LAST_ERROR_SQLSTATE' || ': ' || :'LAST_ERROR_MESSAGE',
    'true 42P07: table "pgbk_tap_existing.pgbench_tellers" already exists',
    'a pgbench table exists and force is not set: 42P07');
\set ON_ERROR_STOP 0
SELECT bench.init('tpcb', force => true);
\set ON_ERROR_STOP 1
SELECT is(:'ERROR' || ' ' || :'LAST_ERROR_SQLSTATE' || ': ' || :'LAST_ERROR_MESSAGE',
    'true 42P07: table "pgbk_tap_existing.pgbench_tellers" was not created by bench.init',
    'force does not drop a table bench.init did not make: 42P07');
SELECT has_column('pgbk_tap_existing', 'pgbench_tellers', 'x', 'the user''s table is untouched');
DROP TABLE pgbk_tap_existing.pgbench_tellers;

-- a table with the name of a partition to be
CREATE TABLE pgbk_tap_existing.pgbench_accounts_2 (x int);
\set ON_ERROR_STOP 0
SELECT bench.init('tpcb', partitions => 3);
\set ON_ERROR_STOP 1
SELECT is(:'ERROR' || ' ' || :'LAST_ERROR_SQLSTATE' || ': ' || :'LAST_ERROR_MESSAGE',
    'true 42P07: table "pgbk_tap_existing.pgbench_accounts_2" already exists',
    'a table with the name of a new partition: 42P07');
\set ON_ERROR_STOP 0
SELECT bench.init('tpcb', partitions => 3, partition_method => 'hash', force => true);
\set ON_ERROR_STOP 1
SELECT is(:'ERROR' || ' ' || :'LAST_ERROR_SQLSTATE' || ': ' || :'LAST_ERROR_MESSAGE',
    'true 42P07: table "pgbk_tap_existing.pgbench_accounts_2" already exists',
    'force does not drop it either: 42P07');

SELECT is(
    (SELECT count(*)::int FROM bench.datasets WHERE schema_name = 'pgbk_tap_existing'),
    0, 'the refused calls recorded no dataset');

-- ---------------------------------------------------------------- a dataset bench.init made
SELECT is(
    (SELECT rows_loaded FROM bench.init('tpcb', partitions => 1)),
    100011::bigint, 'bench.init loads scale 1 outside a transaction block (100000 + 10 + 1 rows)');
SELECT is(
    (SELECT status FROM bench.datasets WHERE schema_name = 'pgbk_tap_existing'),
    'ready', 'the dataset is ready');
SELECT tables_are('pgbk_tap_existing',
    ARRAY['pgbench_accounts', 'pgbench_accounts_1', 'pgbench_accounts_2',
          'pgbench_branches', 'pgbench_history', 'pgbench_tellers'],
    'the pgbench tables are there, next to the user''s pgbench_accounts_2');

\set ON_ERROR_STOP 0
SELECT bench.init('tpcb');
\set ON_ERROR_STOP 1
SELECT is(:'ERROR' || ' ' || :'LAST_ERROR_SQLSTATE' || ': ' || :'LAST_ERROR_MESSAGE',
    'true 42P07: table "pgbk_tap_existing.pgbench_history" already exists',
    'loading again without force: 42P07');
\set ON_ERROR_STOP 0
SELECT bench.init('tpcb', partitions => 2, force => true);
\set ON_ERROR_STOP 1
SELECT is(:'ERROR' || ' ' || :'LAST_ERROR_SQLSTATE' || ': ' || :'LAST_ERROR_MESSAGE',
    'true 42P07: table "pgbk_tap_existing.pgbench_accounts_2" already exists',
    'force still refuses a new partition that clashes with a user''s table: 42P07');
DROP TABLE pgbk_tap_existing.pgbench_accounts_2;

-- another role may not replace it
SET ROLE pgbk_tap_other;
\set ON_ERROR_STOP 0
SELECT bench.init('tpcb');
\set ON_ERROR_STOP 1
SELECT is(:'ERROR' || ' ' || :'LAST_ERROR_SQLSTATE' || ': ' || :'LAST_ERROR_MESSAGE',
    'true 42P07: table "pgbk_tap_existing.pgbench_history" already exists',
    'another role, without force: 42P07');
\set ON_ERROR_STOP 0
SELECT bench.init('tpcb', force => true);
\set ON_ERROR_STOP 1
SELECT is(:'ERROR' || ' ' || :'LAST_ERROR_SQLSTATE' || ': ' || :'LAST_ERROR_MESSAGE',
    'true 42501: must be owner of table "pgbk_tap_existing.pgbench_history" to replace it',
    'another role, with force: 42501');
RESET ROLE;

-- a user's table among bench.init's: force drops bench.init's tables only
CREATE TABLE pgbk_tap_existing.pgbench_accounts_3 (x int);
\set ON_ERROR_STOP 0
SELECT bench.init('tpcb', partitions => 3, force => true);
\set ON_ERROR_STOP 1
SELECT is(:'ERROR' || ' ' || :'LAST_ERROR_SQLSTATE' || ': ' || :'LAST_ERROR_MESSAGE',
    'true 42P07: table "pgbk_tap_existing.pgbench_accounts_3" already exists',
    'force with a partition name taken by a user''s table: 42P07');
DROP TABLE pgbk_tap_existing.pgbench_accounts_3;

SELECT is(
    (SELECT count(*)::int FROM bench.datasets WHERE schema_name = 'pgbk_tap_existing'),
    1, 'the refused calls recorded no dataset');
SELECT is(
    (SELECT count(*)::int FROM pgbk_tap_existing.pgbench_accounts),
    100000, 'the refused calls left the dataset as it was');

-- ---------------------------------------------------------------- force replaces it
SELECT is(
    (SELECT rows_loaded FROM bench.init('tpcb', partitions => 2, partition_method => 'hash', force => true)),
    100011::bigint, 'force => true replaces the dataset bench.init made');
SELECT results_eq(
    $$SELECT status FROM bench.datasets WHERE schema_name = 'pgbk_tap_existing' ORDER BY id$$,
    ARRAY['replaced', 'ready'],
    'the old dataset is marked replaced, the new one ready');
SELECT tables_are('pgbk_tap_existing',
    ARRAY['pgbench_accounts', 'pgbench_accounts_1', 'pgbench_accounts_2',
          'pgbench_branches', 'pgbench_history', 'pgbench_tellers'],
    'the new dataset has the pgbench tables and nothing else');
SELECT is(
    (SELECT pg_get_partkeydef('pgbk_tap_existing.pgbench_accounts'::regclass)),
    'HASH (aid)', 'pgbench_accounts is the new, hash partitioned one');
SELECT is(
    (SELECT tables FROM bench.datasets WHERE schema_name = 'pgbk_tap_existing' AND status = 'ready'),
    ARRAY['pgbk_tap_existing.pgbench_history'::regclass,
          'pgbk_tap_existing.pgbench_tellers'::regclass,
          'pgbk_tap_existing.pgbench_accounts'::regclass,
          'pgbk_tap_existing.pgbench_branches'::regclass],
    'bench.datasets.tables lists the four tables');

-- ---------------------------------------------------------------- another role's own dataset
SET ROLE pgbk_tap_other;
\set ON_ERROR_STOP 0
SELECT bench.init('tpcb', force => true);
\set ON_ERROR_STOP 1
SELECT is(:'ERROR' || ' ' || :'LAST_ERROR_SQLSTATE' || ': ' || :'LAST_ERROR_MESSAGE',
    'true 42501: must be owner of table "pgbk_tap_existing.pgbench_history" to replace it',
    'another role still may not replace it');
RESET ROLE;
DROP TABLE pgbk_tap_existing.pgbench_history, pgbk_tap_existing.pgbench_tellers,
           pgbk_tap_existing.pgbench_accounts, pgbk_tap_existing.pgbench_branches;
SET ROLE pgbk_tap_other;
SELECT is(
    (SELECT rows_loaded FROM bench.init('tpcb')),
    100011::bigint, 'a non-superuser role with EXECUTE and CREATE loads a dataset');
SELECT is(
    (SELECT created_by FROM bench.datasets WHERE schema_name = 'pgbk_tap_existing'
      ORDER BY id DESC LIMIT 1),
    'pgbk_tap_other'::name, 'bench.datasets records who loaded it');
SELECT is(
    (SELECT count(*)::int FROM pg_class
      WHERE relnamespace = 'pgbk_tap_existing'::regnamespace AND relname LIKE 'pgbench\_%'
        AND relowner <> 'pgbk_tap_other'::regrole),
    0, 'its tables and indexes belong to that role');
SELECT is(
    (SELECT rows_loaded FROM bench.init('tpcb', force => true)),
    100011::bigint, 'that role may replace its own dataset');
RESET ROLE;

SELECT * FROM finish();

-- ---------------------------------------------------------------- clean up
SET client_min_messages = warning;
DROP SCHEMA pgbk_tap_existing CASCADE;
DELETE FROM bench.datasets WHERE schema_name = 'pgbk_tap_existing';
DROP OWNED BY pgbk_tap_other;
DROP ROLE pgbk_tap_other;
