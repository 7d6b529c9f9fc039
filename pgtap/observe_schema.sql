-- pgTAP: the objects that record what the server did during a run, and
-- the errors of their functions.
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
SELECT plan(39);
SET LOCAL IntervalStyle = postgres_verbose;

-- ---------------------------------------------------------------- tables
SELECT columns_are('bench', 'prewarms',
    ARRAY['run_id', 'relid', 'relation', 'kind', 'blocks', 'seconds'],
    'bench.prewarms has the documented columns');
SELECT col_is_pk('bench', 'prewarms', ARRAY['run_id', 'relid'], 'bench.prewarms: one row per run and relation');
SELECT fk_ok('bench', 'prewarms', 'run_id', 'bench', '_runs', 'id', 'bench.prewarms.run_id references bench._runs');
SELECT columns_are('bench', 'samples',
    ARRAY['run_id', 'sample_no', 'phase', 'taken_at', 'elapsed_s', 'data'],
    'bench.samples has the documented columns');
SELECT col_type_is('bench', 'samples', 'data', 'jsonb', 'bench.samples.data is jsonb (one key per source)');
SELECT col_is_pk('bench', 'samples', ARRAY['run_id', 'sample_no'], 'bench.samples: one row per run and sample');
SELECT fk_ok('bench', 'samples', 'run_id', 'bench', '_runs', 'id', 'bench.samples.run_id references bench._runs');
SELECT columns_are('bench', 'relation_sizes',
    ARRAY['run_id', 'phase', 'relid', 'relation', 'kind', 'table_name', 'main_bytes', 'toast_bytes',
          'indexes_bytes', 'total_bytes'],
    'bench.relation_sizes has the documented columns');
SELECT col_is_pk('bench', 'relation_sizes', ARRAY['run_id', 'phase', 'relid'],
    'bench.relation_sizes: one row per run, phase and relation');
SELECT col_type_is('bench', 'runs', 'settings', 'jsonb', 'bench.runs.settings is jsonb');
SELECT col_type_is('bench', 'runs', 'unavailable', 'jsonb', 'bench.runs.unavailable is jsonb');
SELECT table_privs_are('bench', 'samples', 'public', ARRAY['SELECT'], 'PUBLIC may SELECT bench.samples, and nothing else');
SELECT table_privs_are('bench', 'prewarms', 'public', ARRAY['SELECT'], 'PUBLIC may SELECT bench.prewarms, and nothing else');
SELECT table_privs_are('bench', 'relation_sizes', 'public', ARRAY['SELECT'], 'PUBLIC may SELECT bench.relation_sizes, and nothing else');

-- ---------------------------------------------------------------- views
SELECT views_are('bench', ARRAY['runs', 'suites', 'runs_in_progress', 'sample_counters', 'interval_counters',
    'run_counters', 'run_statements', 'suite_summary', 'schedule_results', 'regressions',
    'schedule_status', 'export_runs', 'export_progress', 'export_suites', 'workload_scripts',
    'run_arguments', 'targets', 'ibench_steps', 'capacity_results', 'tpcc_transactions', 'tpcc_results'],
    'schema bench has exactly the documented views');
SELECT table_privs_are('bench', 'targets', 'public', ARRAY['SELECT'], 'PUBLIC may SELECT bench.targets, and nothing else');
SELECT columns_are('bench', 'targets', ARRAY['name', 'host', 'port', 'dbname', 'sslmode', 'sslrootcert',
    'options', 'owner', 'has_user_mapping', 'remote_user', 'usage', 'price_per_hour', 'currency'],
    'bench.targets: a target''s options but secrets, owner, the current role''s user mapping and USAGE, its price and currency');
SELECT fdw_privs_are('bench_target', 'public', '{}',
    'PUBLIC has no USAGE on the foreign-data wrapper bench_target: a superuser grants who may add targets');
SELECT has_column('bench', 'run_counters', 'wal_bytes_per_tx', 'bench.run_counters has wal_bytes_per_tx');
SELECT has_column('bench', 'run_counters', 'checkpoints_requested', 'bench.run_counters has checkpoints_requested');
SELECT has_column('bench', 'run_counters', 'server_cpu_ms_per_tx', 'bench.run_counters has server_cpu_ms_per_tx');
SELECT has_column('bench', 'interval_counters', 'wal_mb_per_s', 'bench.interval_counters has wal_mb_per_s');
SELECT has_column('bench', 'run_statements', 'mean_exec_ms', 'bench.run_statements has mean_exec_ms');
SELECT has_column('bench', 'sample_counters', 'buffers_backend', 'bench.sample_counters has buffers_backend');

-- ---------------------------------------------------------------- functions
SELECT function_returns('bench', 'prewarm', ARRAY['text'], 'setof record', 'bench.prewarm returns a set of rows');
SELECT function_returns('bench', 'report', ARRAY['bigint'], 'text', 'bench.report returns text');
SELECT function_returns('bench', 'report_json', ARRAY['bigint'], 'jsonb', 'bench.report_json returns jsonb');
SELECT ok(has_function_privilege('public', 'bench.report(bigint)', 'EXECUTE'), 'anyone may read a report');
SELECT ok(has_function_privilege('public', 'bench.report_json(bigint)', 'EXECUTE'), 'anyone may read a report as jsonb');

-- ---------------------------------------------------------------- errors
SELECT throws_ok($$SELECT bench.run('select-only', prewarm => NULL)$$, '22004',
    'argument "prewarm" of bench.run must not be null', 'bench.run: prewarm NULL');
SELECT throws_ok($$SELECT bench.run('select-only', sample_interval => NULL)$$, '22004',
    'argument "sample_interval" of bench.run must not be null', 'bench.run: sample_interval NULL');
SELECT throws_ok($$SELECT bench.run('select-only', sample_interval => '50 ms')$$, '22023',
    'sample_interval must be 0 or between 100 ms and a year, not @ 0.05 secs', 'bench.run: sample_interval too short');
SELECT throws_ok($$SELECT bench.start('select-only', sample_interval => '-1 s')$$, '22023',
    'sample_interval must be 0 or between 100 ms and a year, not @ 1 sec ago', 'bench.start: sample_interval negative');
SELECT throws_ok($$SELECT * FROM bench.prewarm(NULL)$$, '22004', 'workload must not be null', 'bench.prewarm: NULL');
SELECT throws_ok($$SELECT * FROM bench.prewarm('nope')$$, '22023', 'unknown workload "nope"', 'bench.prewarm: unknown workload');
SELECT throws_ok($$SELECT * FROM bench.prewarm('tpcb')$$, '42P01', NULL, 'bench.prewarm: no dataset in search_path');
SELECT throws_ok($$SELECT bench.report(NULL)$$, '22004', 'run_id must not be null', 'bench.report: NULL');
SELECT throws_ok($$SELECT bench.report(-1)$$, 'P0002', 'run -1 does not exist', 'bench.report: no such run');
SELECT throws_ok($$SELECT bench.report_json(-1)$$, 'P0002', 'run -1 does not exist', 'bench.report_json: no such run');

SELECT * FROM finish();
ROLLBACK;
