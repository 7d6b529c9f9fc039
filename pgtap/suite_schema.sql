-- pgTAP: suites and schedules: their tables, views, functions, privileges,
-- and the SQLSTATE of every refusal that needs no dataset.
--
-- Run with pg_prove against a database where
--   CREATE EXTENSION pgtap; CREATE EXTENSION pgbenchkit CASCADE;
-- has been done.  Everything here runs in one transaction that is rolled
-- back at the end.
\set ON_ERROR_STOP 1
\set QUIET 1
\pset format unaligned
\pset tuples_only true
\pset pager off

BEGIN;
SELECT plan(47);

-- ---------------------------------------------------------------- tables and views
SELECT columns_are('bench', '_suites', ARRAY[
    'id', 'workload', 'clients', 'repeat', 'run_order', 'args', 'search_path', 'tag', 'schedule',
    'runs_planned', 'status', 'sqlstate', 'error', 'created_by', 'server_version', 'started_at',
    'ended_at', 'worker_pid', 'origin', 'steps', 'targets', 'capacity', 'node_name', 'node_number'],
    'bench._suites has the documented columns');
SELECT is(
    (SELECT array_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) ORDER BY a.attnum)
       FROM pg_attribute a WHERE a.attrelid = 'bench.suites'::regclass AND a.attnum > 0),
    (SELECT array_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) ORDER BY a.attnum)
       FROM pg_attribute a WHERE a.attrelid = 'bench._suites'::regclass AND a.attnum > 0 AND NOT a.attisdropped),
    'the view bench.suites has the columns of the table bench._suites, in their order');
SELECT col_type_is('bench', 'suites', 'clients', 'integer[]', 'bench.suites.clients is integer[]');
SELECT col_is_pk('bench', '_suites', 'id', 'bench._suites.id is the primary key');
SELECT fk_ok('bench', '_runs', 'suite_id', 'bench', '_suites', 'id', 'bench._runs.suite_id references bench._suites');
SELECT is((SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef
            WHERE adrelid = 'bench.suites'::regclass AND adnum = 1),
          'nextval(''bench.runs_id_seq''::regclass)',
          'suite ids come from the sequence of run ids');
SELECT columns_are('bench', 'schedules', ARRAY[
    'name', 'cron', 'workload', 'clients', 'repeat', 'run_order', 'args', 'search_path',
    'baseline_runs', 'threshold', 'cron_database', 'jobid', 'created_by', 'created_at', 'targets',
    'capacity'],
    'bench.schedules has the documented columns');
SELECT col_is_pk('bench', 'schedules', 'name', 'a schedule is known by its name');
SELECT has_view('bench', 'suite_summary', 'bench.suite_summary exists');
SELECT has_view('bench', 'schedule_results', 'bench.schedule_results exists');
SELECT has_view('bench', 'regressions', 'bench.regressions exists');
SELECT has_view('bench', 'schedule_status', 'bench.schedule_status exists');
SELECT ok(has_table_privilege('public', 'bench.suites', 'SELECT')
          AND has_table_privilege('public', 'bench.suite_summary', 'SELECT')
          AND has_table_privilege('public', 'bench.schedule_results', 'SELECT')
          AND has_table_privilege('public', 'bench.schedule_status', 'SELECT'),
          'everyone may read suites, summaries and schedule results');
SELECT ok(NOT has_table_privilege('public', 'bench.suites', 'INSERT')
          AND NOT has_table_privilege('public', 'bench.schedules', 'UPDATE'),
          'no one but the owner writes them');

-- ---------------------------------------------------------------- functions
SELECT function_returns('bench', 'sweep',
    ARRAY['text', 'integer[]', 'integer', 'interval', 'bigint', 'text', 'interval', 'interval',
          'integer', 'text', 'boolean', 'interval', 'text', 'text', 'double precision', 'interval',
          'bigint', 'jsonb', 'text', 'integer', 'text', 'text', 'jsonb', 'text', 'boolean', 'text', 'interval', 'interval', 'text', 'interval', 'timestamp with time zone', 'text', 'text[]', 'interval'],
    'setof bench.suite_summary', 'bench.sweep returns the suite''s summary');
SELECT function_returns('bench', 'start_sweep',
    ARRAY['text', 'integer[]', 'integer', 'interval', 'bigint', 'text', 'interval', 'interval',
          'integer', 'text', 'boolean', 'interval', 'text', 'text', 'double precision', 'interval',
          'bigint', 'jsonb', 'text', 'integer', 'text', 'text', 'jsonb', 'text', 'boolean', 'text', 'interval', 'interval', 'text', 'interval', 'timestamp with time zone', 'text', 'text[]', 'interval'],
    'bigint', 'bench.start_sweep returns the suite id');
SELECT function_returns('bench', 'wait_suite', ARRAY['bigint'], 'setof bench.suite_summary',
    'bench.wait_suite returns the summary');
SELECT function_returns('bench', 'cancel_suite', ARRAY['bigint'], 'boolean',
    'bench.cancel_suite says whether it canceled');
SELECT function_returns('bench', 'run_schedule', ARRAY['text'], 'setof bench.suite_summary',
    'bench.run_schedule returns the summary');
SELECT function_returns('bench', 'unschedule', ARRAY['text'], 'boolean', 'bench.unschedule');
SELECT ok(NOT has_function_privilege('public', 'bench.sweep(text, integer[], integer, interval, bigint, text, interval, interval, integer, text, boolean, interval, text, text, double precision, interval, bigint, jsonb, text, integer, text, text, jsonb, text, boolean, text, interval, interval, text, interval, timestamp with time zone, text, text[], interval)', 'EXECUTE')
          AND NOT has_function_privilege('public', 'bench.start_sweep(text, integer[], integer, interval, bigint, text, interval, interval, integer, text, boolean, interval, text, text, double precision, interval, bigint, jsonb, text, integer, text, text, jsonb, text, boolean, text, interval, interval, text, interval, timestamp with time zone, text, text[], interval)', 'EXECUTE')
          AND NOT has_function_privilege('public', 'bench.cancel_suite(bigint)', 'EXECUTE')
          AND NOT has_function_privilege('public', 'bench.run_schedule(text)', 'EXECUTE')
          AND NOT has_function_privilege('public', 'bench.unschedule(text)', 'EXECUTE')
          AND NOT has_function_privilege('public', 'bench._cron_call(name, text, text[])', 'EXECUTE'),
          'starting, canceling and scheduling are for roles the administrator chose');
SELECT ok(NOT has_function_privilege('public', 'bench.schedule(text, text, text, integer[], integer, interval, bigint, text, interval, interval, integer, boolean, interval, text, integer, double precision, text, double precision, interval, bigint, jsonb, text, integer, text, text, jsonb, text, boolean, text, interval, interval, text, interval, text[])', 'EXECUTE'),
          'so is bench.schedule');

SELECT has_view('bench', 'capacity_results', 'bench.capacity_results exists');
SELECT ok(has_table_privilege('public', 'bench.capacity_results', 'SELECT'),
          'everyone may read the capacity searches (row level security shows each role its own)');
SELECT is((SELECT pg_catalog.format_type(p.prorettype, NULL) || CASE WHEN p.proretset THEN ' set' ELSE '' END
             FROM pg_proc p WHERE p.oid = 'bench.capacity'::regproc),
          'bench.capacity_results set', 'bench.capacity returns its answer as rows of bench.capacity_results');
SELECT is((SELECT pg_catalog.format_type(p.prorettype, NULL)
             FROM pg_proc p WHERE p.oid = 'bench.start_capacity'::regproc),
          'bigint', 'bench.start_capacity returns the suite id');
SELECT ok(NOT has_function_privilege('public', 'bench.capacity'::regproc, 'EXECUTE')
          AND NOT has_function_privilege('public', 'bench.start_capacity'::regproc, 'EXECUTE'),
          'a capacity search is for roles the administrator chose, as a sweep is');
SELECT is((SELECT pg_catalog.format_type(p.prorettype, NULL)
             FROM pg_proc p WHERE p.oid = 'bench.schedule_capacity'::regproc),
          'bench.schedules', 'bench.schedule_capacity returns the schedule''s row');
SELECT ok(NOT has_function_privilege('public', 'bench.schedule_capacity'::regproc, 'EXECUTE'),
          'so is scheduling one');
SELECT is((SELECT array_agg(a.name::text ORDER BY a.argno) FROM bench._arguments_of('bench.capacity') a
            WHERE a.argno <= 9),
          ARRAY['workload', 'slo', 'clients', 'max_failure_rate', 'precision', 'max_runs', 'max_time',
                'start_rate', 'max_repeats'],
          'bench.capacity takes the workload, the objective, the clients and the search''s own arguments first');
SELECT ok(NOT EXISTS (SELECT FROM bench._arguments_of('bench.capacity') a
                       WHERE a.name IN ('rate', 'transactions', 'groups')),
          'bench.capacity takes no rate, transactions or groups (the search sets the rate)');

-- ---------------------------------------------------------------- refusals
SELECT throws_ok($$SELECT * FROM bench.capacity(script => 'SELECT 1;', slo => 'p99 <= 10')$$, '22023',
    'cannot read the slo "p99 <= 10"', 'an objective without its unit: 22023');
SELECT throws_ok($$SELECT * FROM bench.capacity(script => 'SELECT 1;', slo => 'p100 <= 10 ms')$$, '22023',
    'the percentile of the slo must be above 0 and below 100, not 100', 'p100: 22023');
SELECT throws_ok($$SELECT * FROM bench.capacity(script => 'SELECT 1;', slo => 'p99 <= 10 ms', "precision" => 0)$$, '22023',
    'precision must be above 0 and below 1, not 0', 'precision 0: 22023');
SELECT throws_ok($$SELECT * FROM bench.sweep('tpcb', clients => '{}')$$, '22023',
    'clients must not be empty', 'empty clients: 22023');
SELECT throws_ok($$SELECT * FROM bench.sweep('tpcb', clients => '{1,0}')$$, '22023',
    'clients must be between 1 and 10000, not 0', 'clients below 1: 22023');
SELECT throws_ok($$SELECT * FROM bench.sweep('tpcb', clients => '{1,NULL}')$$, '22004',
    'clients must not contain null', 'a NULL client count: 22004');
SELECT throws_ok($$SELECT * FROM bench.sweep('tpcb', clients => '{3,3}')$$, '22023',
    'clients lists 3 twice', 'a client count twice: 22023');
SELECT throws_ok($$SELECT * FROM bench.sweep('tpcb', repeat => 0)$$, '22023',
    'repeat must be between 1 and 1000, not 0', 'repeat below 1: 22023');
SELECT throws_ok($$SELECT * FROM bench.sweep('tpcb', run_order => 'shuffled')$$, '22023',
    'unknown run_order "shuffled"', 'an unknown run_order: 22023');
SELECT throws_ok($$SELECT * FROM bench.sweep('tpcb', clients => NULL)$$, '22004',
    'argument "clients" of bench.sweep must not be null', 'NULL clients: 22004');
SELECT throws_ok($$SELECT * FROM bench.wait_suite(-5)$$, '25001',
    NULL, 'bench.wait_suite refuses a transaction block before anything else');
SELECT throws_ok($$SELECT bench.cancel_suite(-5)$$, '42704',
    'suite -5 does not exist', 'an unknown suite: 42704');
SELECT throws_ok($$SELECT * FROM bench.schedule('x', '0 25 * * *', 'tpcb')$$, '22023',
    'invalid cron expression "0 25 * * *": the hour field "25" must be within 0-23',
    'an hour out of range: 22023');
SELECT throws_ok($$SELECT * FROM bench.schedule('x y', '0 3 * * *', 'tpcb')$$, '22023',
    'invalid schedule name "x y"', 'a name with a blank: 22023');
SELECT throws_ok($$SELECT * FROM bench.schedule('x', '0 3 * * *', 'tpcb', threshold => 0)$$, '22023',
    'threshold must be between 0 and 1 (exclusive), not 0', 'threshold 0: 22023');
SELECT throws_ok($$SELECT bench.unschedule('no such')$$, '42704',
    'schedule "no such" does not exist', 'an unknown schedule: 42704');

SELECT * FROM finish();
ROLLBACK;
