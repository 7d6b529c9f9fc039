-- pgTAP: the objects CREATE EXTENSION pgbenchkit makes, and their privileges.
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
SELECT plan(73);

-- ---------------------------------------------------------------- extension
SELECT has_extension('pgbenchkit', 'extension pgbenchkit is installed');
SELECT has_extension('pg_prewarm', 'extension pg_prewarm (required) is installed');
SELECT is(
    (SELECT extversion FROM pg_extension WHERE extname = 'pgbenchkit'),
    '0.3.0', 'pgbenchkit is at version 0.3.0');
SELECT is(
    (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
      WHERE e.extname = 'pgbenchkit'),
    'bench'::name, 'pgbenchkit lives in schema bench');
SELECT is(
    (SELECT extrelocatable FROM pg_extension WHERE extname = 'pgbenchkit'),
    false, 'pgbenchkit is not relocatable');

-- ---------------------------------------------------------------- schema
SELECT has_schema('bench', 'schema bench exists');
SELECT tables_are('bench', ARRAY['datasets', 'workloads', '_runs', 'progress', 'histograms',
    'prewarms', 'samples', 'relation_sizes', '_suites', 'schedules', 'run_scripts', 'command_latencies',
    'run_groups', 'group_progress', 'outages', 'node', 'subscriptions'],
    'schema bench has exactly the tables datasets, workloads, _runs, progress, histograms, prewarms, samples, relation_sizes, _suites, schedules, run_scripts, command_latencies, run_groups, group_progress, outages, node, subscriptions');
SELECT functions_are('bench', ARRAY['init', 'run', 'start', 'wait', 'cancel', 'prewarm', 'report', 'report_json',
    'define_workload', 'drop_workload',
    'sweep', 'start_sweep', 'wait_suite', 'cancel_suite', 'schedule', 'unschedule', 'run_schedule',
    'chart_run', 'chart_suite', 'chart_schedule', 'compare', 'export', 'import',
    'relative_throughput', '_metric_check', 'relative_table', 'chart_relative', 'sysbench_script', 'ibench_script',
    'tpcc_script', 'tpcc_workload', 'tpcc_functions',
    'compare_many', 'compare_many_table', 'chart_runs', '_run_cv', '_judge', '_differing_settings', '_many_tps',
    'ibench', 'start_ibench', '_ibench_spec', '_steps',
    'capacity', 'start_capacity', 'schedule_capacity', 'capacity_steps', 'chart_capacity', '_capacity_spec', '_capacity_search',
    '_capacity_next',
    '_sweep_spec', '_cron_call', '_cron_check', '_arguments_of', '_create_run_function', '_schedule',
    '_unschedule', '_import', '_visible',
    '_svg_escape', '_svg_num', '_svg_text', '_svg_fit', '_svg_check_size', '_svg_ticks', '_svg_tick_label',
    '_svg_tick_labels', '_svg_time_ticks', '_svg_open', '_svg_heading', '_svg_panel', '_svg_legend',
    '_svg_no_data', 'add_target', 'drop_target', 'check_target', '_target_validator', '_target_conninfo',
    'tpcc_check',
    '_redact_statement', '_host_cpu_sample', '_run_alive', '_rate_schedule', '_progress_histogram', '_run_aborted',
    '_run_state', '_suite_alive', '_suite_state', '_write_through', '_cost_per_million', '_transactions_per_unit',
    '_tpcc_rates', 'set_node', '_node_name', '_node_number', 'publish', 'distributed_runs', 'distributed_progress', 'report_distributed',
    'subscribe', 'unsubscribe'],
    'schema bench has exactly the documented functions and the internal ones (named with a leading _)');
SELECT has_type('bench', 'init_result', 'type bench.init_result exists');

-- ---------------------------------------------------------------- privacy between roles
SELECT is(
    (SELECT string_agg(c.relname, ', ' ORDER BY c.relname) FROM pg_class c
      WHERE c.relnamespace = 'bench'::regnamespace AND c.relkind = 'r' AND c.relrowsecurity
        AND NOT c.relforcerowsecurity
        AND EXISTS (SELECT FROM pg_policy p WHERE p.polrelid = c.oid AND p.polcmd = 'r')),
    '_runs, _suites, command_latencies, group_progress, histograms, outages, prewarms, progress, relation_sizes, run_groups, run_scripts, samples, schedules, workloads',
    'row level security, with a SELECT policy, on every table of work (not forced: the owner writes them)');
SELECT is(
    (SELECT string_agg(c.relname || ' ' || c.relkind::text || ' ' || coalesce(array_to_string(c.reloptions, ','), '-'),
                       '; ' ORDER BY c.relname)
       FROM pg_class c WHERE c.oid IN ('bench.runs'::regclass, 'bench.suites'::regclass)),
    'runs v security_invoker=true; suites v security_invoker=true',
    'bench.runs and bench.suites are views that read their tables as the role that queries them (their row level security applies)');
SELECT ok(EXISTS (SELECT FROM pg_roles WHERE rolname = 'pgbenchkit_admin' AND NOT rolcanlogin),
    'the admin role pgbenchkit_admin exists and cannot log in');
SELECT ok(NOT has_function_privilege('public', 'bench._schedule(text, text, jsonb, integer, double precision, name)', 'EXECUTE')
          AND NOT has_function_privilege('public', 'bench._unschedule(text, name)', 'EXECUTE')
          AND NOT has_function_privilege('public', 'bench._import(jsonb, name)', 'EXECUTE')
          AND NOT has_function_privilege('public', 'bench.import(jsonb)', 'EXECUTE')
          AND has_function_privilege('public', 'bench._visible(name)', 'EXECUTE')
          AND NOT EXISTS (SELECT FROM pg_proc WHERE pronamespace = 'bench'::regnamespace AND prosecdef),
    'the functions that take a role act only for the owner; none is SECURITY DEFINER; the policies'' function is everyone''s');

-- ---------------------------------------------------------------- a fleet's subscriptions
SELECT columns_are('bench', 'subscriptions', ARRAY[
    'subscription', 'node_name', 'node_number', 'node_system_identifier', 'publication', 'slot_name',
    'subscribed_at', 'subscribed_by'],
    'bench.subscriptions has the documented columns, and no connection string');
SELECT ok(
    (SELECT 'bench.subscriptions'::regclass = ANY (extconfig) FROM pg_extension WHERE extname = 'pgbenchkit'),
    'bench.subscriptions is a configuration table of the extension (pg_dump keeps its rows)');
SELECT table_privs_are('bench', 'subscriptions', 'public', ARRAY['SELECT'],
    'PUBLIC may SELECT bench.subscriptions, and nothing else');
SELECT ok(NOT has_function_privilege('public', 'bench.subscribe(name, text, name, boolean)', 'EXECUTE')
          AND NOT has_function_privilege('public', 'bench.unsubscribe(name)', 'EXECUTE'),
    'PUBLIC may not EXECUTE bench.subscribe or bench.unsubscribe');
SELECT throws_ok($$SELECT bench.subscribe('aws_1', NULL)$$, '22004',
    'argument "connection" of bench.subscribe must not be null',
    'bench.subscribe refuses a NULL connection string');
SELECT CASE WHEN current_setting('server_version_num')::integer >= 150000
    THEN throws_ok($$SELECT bench.subscribe('aws_1', 'host=/nonexistent dbname=bk')$$, '25001',
                   'bench.subscribe cannot run inside a transaction block',
                   'bench.subscribe refuses a transaction block (the slot on the driver is made at once)')
    ELSE throws_ok($$SELECT bench.subscribe('aws_1', 'host=/nonexistent dbname=bk')$$, '0A000',
                   'bench.subscribe needs PostgreSQL 15 or later',
                   'bench.subscribe needs PostgreSQL 15 or later')
    END;

-- ---------------------------------------------------------------- bench.datasets
SELECT has_table('bench', 'datasets', 'table bench.datasets exists');
SELECT columns_are('bench', 'datasets', ARRAY[
    'id', 'workload', 'scale', 'options', 'schema_name', 'tables', 'status',
    'sqlstate', 'error', 'created_by', 'started_at', 'finished_at',
    'server_version', 'rows_loaded', 'create_s', 'load_s', 'vacuum_s',
    'primary_keys_s', 'foreign_keys_s', 'worker_pid', 'target'],
    'bench.datasets has the documented columns');
SELECT col_is_pk('bench', 'datasets', 'id', 'bench.datasets.id is the primary key');
SELECT col_type_is('bench', 'datasets', 'id', 'bigint', 'bench.datasets.id is bigint');
SELECT col_type_is('bench', 'datasets', 'workload', 'text', 'bench.datasets.workload is text');
SELECT col_type_is('bench', 'datasets', 'scale', 'integer', 'bench.datasets.scale is integer');
SELECT col_type_is('bench', 'datasets', 'options', 'jsonb', 'bench.datasets.options is jsonb');
SELECT col_type_is('bench', 'datasets', 'schema_name', 'name', 'bench.datasets.schema_name is name');
SELECT col_type_is('bench', 'datasets', 'tables', 'regclass[]', 'bench.datasets.tables is regclass[]');
SELECT col_type_is('bench', 'datasets', 'status', 'text', 'bench.datasets.status is text');
SELECT col_type_is('bench', 'datasets', 'sqlstate', 'text', 'bench.datasets.sqlstate is text');
SELECT col_type_is('bench', 'datasets', 'created_by', 'name', 'bench.datasets.created_by is name');
SELECT col_type_is('bench', 'datasets', 'started_at', 'timestamp with time zone',
                   'bench.datasets.started_at is timestamptz');
SELECT col_type_is('bench', 'datasets', 'finished_at', 'timestamp with time zone',
                   'bench.datasets.finished_at is timestamptz');
SELECT col_type_is('bench', 'datasets', 'rows_loaded', 'bigint', 'bench.datasets.rows_loaded is bigint');
SELECT col_type_is('bench', 'datasets', 'load_s', 'double precision',
                   'bench.datasets.load_s is double precision');
SELECT col_type_is('bench', 'datasets', 'worker_pid', 'integer', 'bench.datasets.worker_pid is integer');
SELECT col_type_is('bench', 'datasets', 'target', 'text', 'bench.datasets.target is text');
SELECT col_not_null('bench', 'datasets', 'workload', 'bench.datasets.workload is NOT NULL');
SELECT col_not_null('bench', 'datasets', 'scale', 'bench.datasets.scale is NOT NULL');
SELECT col_not_null('bench', 'datasets', 'options', 'bench.datasets.options is NOT NULL');
SELECT col_not_null('bench', 'datasets', 'status', 'bench.datasets.status is NOT NULL');
SELECT col_is_null('bench', 'datasets', 'finished_at', 'bench.datasets.finished_at may be NULL');
SELECT col_has_default('bench', 'datasets', 'started_at', 'bench.datasets.started_at has a default');
SELECT col_has_default('bench', 'datasets', 'created_by', 'bench.datasets.created_by has a default');

-- the status CHECK accepts exactly the documented states
SELECT lives_ok(
    $$INSERT INTO bench.datasets (workload, scale, options, schema_name, status)
      SELECT 'tpcb', 1, '{}', 'public', s
        FROM unnest(ARRAY['loading', 'ready', 'failed', 'aborted', 'replaced']) AS s$$,
    'bench.datasets.status accepts loading, ready, failed, aborted, replaced');
SELECT throws_ok(
    $$INSERT INTO bench.datasets (workload, scale, options, schema_name, status)
      VALUES ('tpcb', 1, '{}', 'public', 'done')$$,
    '23514', NULL, 'bench.datasets.status rejects any other state');
SELECT is(
    (SELECT count(*)::int FROM bench.datasets
      WHERE created_by = current_user AND server_version = current_setting('server_version')
        AND started_at IS NOT NULL AND options = '{}'),
    5, 'created_by, started_at and server_version are filled by default');

-- dumped with the user's data (pg_extension_config_dump)
SELECT ok(
    (SELECT 'bench.datasets'::regclass = ANY (extconfig) FROM pg_extension WHERE extname = 'pgbenchkit'),
    'bench.datasets is a configuration table of the extension (pg_dump keeps its rows)');

-- ---------------------------------------------------------------- bench.init_result
SELECT is(
    (SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum)
       FROM pg_attribute
      WHERE attrelid = 'bench.init_result'::regclass AND attnum > 0 AND NOT attisdropped),
    'dataset_id bigint, workload text, scale integer, rows_loaded bigint, '
    'create_s double precision, load_s double precision, vacuum_s double precision, '
    'primary_keys_s double precision, foreign_keys_s double precision, total_s double precision',
    'bench.init_result has the documented fields, in order');

-- ---------------------------------------------------------------- bench.init
SELECT has_function('bench', 'init',
    ARRAY['text', 'integer', 'integer', 'integer', 'text', 'boolean', 'boolean', 'integer', 'boolean', 'text', 'text', 'integer', 'integer', 'integer'],
    'bench.init(text, integer, integer, integer, text, boolean, boolean, integer, boolean, text, text, integer, integer, integer) exists');
SELECT function_returns('bench', 'init',
    ARRAY['text', 'integer', 'integer', 'integer', 'text', 'boolean', 'boolean', 'integer', 'boolean', 'text', 'text', 'integer', 'integer', 'integer'],
    'bench.init_result', 'bench.init returns bench.init_result');
SELECT function_lang_is('bench', 'init',
    ARRAY['text', 'integer', 'integer', 'integer', 'text', 'boolean', 'boolean', 'integer', 'boolean', 'text', 'text', 'integer', 'integer', 'integer'],
    'c', 'bench.init is written in C');
SELECT volatility_is('bench', 'init',
    ARRAY['text', 'integer', 'integer', 'integer', 'text', 'boolean', 'boolean', 'integer', 'boolean', 'text', 'text', 'integer', 'integer', 'integer'],
    'volatile', 'bench.init is volatile');
SELECT isnt_strict('bench', 'init',
    ARRAY['text', 'integer', 'integer', 'integer', 'text', 'boolean', 'boolean', 'integer', 'boolean', 'text', 'text', 'integer', 'integer', 'integer'],
    'bench.init is not strict (it reports NULL arguments itself)');
SELECT isnt_definer('bench', 'init',
    ARRAY['text', 'integer', 'integer', 'integer', 'text', 'boolean', 'boolean', 'integer', 'boolean', 'text', 'text', 'integer', 'integer', 'integer'],
    'bench.init is not SECURITY DEFINER (it runs as the caller)');
SELECT is(
    (SELECT proparallel FROM pg_proc WHERE oid = 'bench.init(text, integer, integer, integer, text, boolean, boolean, integer, boolean, text, text, integer, integer, integer)'::regprocedure),
    'u', 'bench.init is PARALLEL UNSAFE');
SELECT is(
    (SELECT proargnames FROM pg_proc WHERE oid = 'bench.init(text, integer, integer, integer, text, boolean, boolean, integer, boolean, text, text, integer, integer, integer)'::regprocedure),
    ARRAY['workload', 'scale', 'fillfactor', 'partitions', 'partition_method',
          'unlogged', 'foreign_keys', 'jobs', 'force', 'target', 'generate', 'tables', 'table_size',
          'warehouses']::text[],
    'bench.init has the documented argument names');
SELECT is(
    (SELECT pg_get_expr(proargdefaults, 0) FROM pg_proc
      WHERE oid = 'bench.init(text, integer, integer, integer, text, boolean, boolean, integer, boolean, text, text, integer, integer, integer)'::regprocedure),
    '1, 100, 0, NULL::text, false, false, 1, false, NULL::text, NULL::text, NULL::integer, NULL::integer, NULL::integer',
    'bench.init defaults: scale 1, fillfactor 100, partitions 0, no method, logged, no FKs, 1 job, no force, this database, the generation of a target''s default, sysbench''s sizes, no warehouses');
SELECT is(
    (SELECT pronargdefaults::int FROM pg_proc
      WHERE oid = 'bench.init(text, integer, integer, integer, text, boolean, boolean, integer, boolean, text, text, integer, integer, integer)'::regprocedure),
    13, 'every argument of bench.init but workload has a default');

-- ---------------------------------------------------------------- privileges
CREATE ROLE pgbk_tap_nobody NOLOGIN;
CREATE ROLE pgbk_tap_granted NOLOGIN;
GRANT EXECUTE ON FUNCTION bench.init(text, integer, integer, integer, text, boolean, boolean, integer, boolean, text, text, integer, integer, integer)
    TO pgbk_tap_granted;

SELECT function_privs_are('bench', 'init',
    ARRAY['text', 'integer', 'integer', 'integer', 'text', 'boolean', 'boolean', 'integer', 'boolean', 'text', 'text', 'integer', 'integer', 'integer'],
    'public', ARRAY[]::name[], 'PUBLIC may not EXECUTE bench.init');
SELECT function_privs_are('bench', 'init',
    ARRAY['text', 'integer', 'integer', 'integer', 'text', 'boolean', 'boolean', 'integer', 'boolean', 'text', 'text', 'integer', 'integer', 'integer'],
    'pgbk_tap_nobody', ARRAY[]::name[], 'an ordinary role may not EXECUTE bench.init');
SELECT function_privs_are('bench', 'init',
    ARRAY['text', 'integer', 'integer', 'integer', 'text', 'boolean', 'boolean', 'integer', 'boolean', 'text', 'text', 'integer', 'integer', 'integer'],
    'pgbk_tap_granted', ARRAY['EXECUTE'], 'a role granted EXECUTE may EXECUTE bench.init');
SELECT ok(
    NOT has_function_privilege('public',
        'bench.init(text, integer, integer, integer, text, boolean, boolean, integer, boolean, text, text, integer, integer, integer)', 'EXECUTE'),
    'has_function_privilege(public, bench.init, EXECUTE) is false');
SELECT ok(
    NOT EXISTS (SELECT 1 FROM pg_proc p, aclexplode(p.proacl) a
                 WHERE p.oid = 'bench.init(text, integer, integer, integer, text, boolean, boolean, integer, boolean, text, text, integer, integer, integer)'::regprocedure
                   AND a.grantee = 0),
    'the ACL of bench.init has no entry for PUBLIC');
SELECT isnt(
    (SELECT proacl FROM pg_proc
      WHERE oid = 'bench.init(text, integer, integer, integer, text, boolean, boolean, integer, boolean, text, text, integer, integer, integer)'::regprocedure),
    NULL, 'bench.init has an explicit ACL (the default would let PUBLIC execute it)');

SELECT table_privs_are('bench', 'datasets', 'public', ARRAY['SELECT'],
    'PUBLIC may SELECT bench.datasets, and nothing else');
SELECT table_privs_are('bench', 'datasets', 'pgbk_tap_nobody', ARRAY['SELECT'],
    'an ordinary role may SELECT bench.datasets, and nothing else');
SELECT schema_privs_are('bench', 'public', ARRAY['USAGE'],
    'PUBLIC has USAGE on schema bench, and no CREATE');
SELECT ok(
    NOT has_sequence_privilege('public', 'bench.datasets_id_seq', 'USAGE')
    AND NOT has_sequence_privilege('public', 'bench.datasets_id_seq', 'UPDATE'),
    'PUBLIC may not use the sequence of bench.datasets');

-- what an ordinary role sees and may do
SET LOCAL ROLE pgbk_tap_nobody;
SELECT lives_ok('SELECT count(*) FROM bench.datasets', 'an ordinary role can read bench.datasets');
SELECT throws_ok(
    $$INSERT INTO bench.datasets (workload, scale, options, schema_name, status)
      VALUES ('tpcb', 1, '{}', 'public', 'ready')$$,
    '42501', 'permission denied for table datasets',
    'an ordinary role cannot write bench.datasets');
SELECT throws_ok('DELETE FROM bench.datasets', '42501', 'permission denied for table datasets',
    'an ordinary role cannot delete from bench.datasets');
SELECT throws_ok($$SELECT bench.init('tpcb')$$, '42501', 'permission denied for function init',
    'an ordinary role cannot call bench.init');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
