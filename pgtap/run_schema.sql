-- pgTAP: the objects of bench.run and friends, their columns and privileges.
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
SELECT plan(74);

-- ---------------------------------------------------------------- tables
SELECT columns_are('bench', '_runs', ARRAY[
    'id', 'workload', 'dataset_id', 'scale', 'clients', 'duration', 'transactions_per_client',
    'protocol', 'warmup', 'progress', 'max_tries', 'tag', 'status', 'sqlstate', 'error',
    'created_by', 'server_version', 'started_at', 'ended_at', 'measured_s', 'transactions',
    'tps', 'latency_avg_ms', 'latency_stddev_ms', 'latency_min_ms', 'latency_p50_ms',
    'latency_p90_ms', 'latency_p95_ms', 'latency_p99_ms', 'latency_p999_ms', 'latency_max_ms',
    'failures', 'serialization_failures', 'deadlock_failures', 'other_failures', 'retried',
    'retries', 'warmup_transactions', 'coordinator_pid', 'prewarm', 'sample_interval',
    'settings', 'host', 'unavailable', 'suite_id', 'origin', 'rate', 'latency_limit', 'random_seed',
    'variables', 'skipped', 'late', 'lag_avg_ms', 'lag_max_ms', 'target', 'driver', 'jobs',
    'connect', 'target_host', 'target_rtt_ms', 'connection_time_ms', 'on_disconnect', 'clients_lost',
    'ignored_errors', 'step', 'price_per_hour', 'currency', 'reconnects', 'outages', 'outages_open',
    'downtime_median_ms', 'downtime_max_ms', 'detection_max_ms', 'unknown_outcome', 'outage_started',
    'outage_ended', 'recovery_ms', 'check_query', 'check_before', 'check_after', 'committed_missing',
    'unknown_committed', 'response_timeout', 'node_name', 'node_number', 'node_host', 'node_system_identifier', 'start_at', 'part_of'],
    'bench._runs has the documented columns');
SELECT is(
    (SELECT array_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) ORDER BY a.attnum)
       FROM pg_attribute a WHERE a.attrelid = 'bench.runs'::regclass AND a.attnum > 0),
    (SELECT array_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) ORDER BY a.attnum)
       FROM pg_attribute a WHERE a.attrelid = 'bench._runs'::regclass AND a.attnum > 0 AND NOT a.attisdropped),
    'the view bench.runs has the columns of the table bench._runs, in their order');
SELECT is(
    (SELECT array_agg(a.attname || ' ' || pg_get_expr(d.adbin, d.adrelid) ORDER BY a.attnum)
       FROM pg_attribute a JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE a.attrelid = 'bench.runs'::regclass),
    (SELECT array_agg(a.attname || ' ' || pg_get_expr(d.adbin, d.adrelid) ORDER BY a.attnum)
       FROM pg_attribute a JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE a.attrelid = 'bench._runs'::regclass),
    'and its defaults, for an INSERT into it');
SELECT col_is_pk('bench', '_runs', 'id', 'bench._runs.id is the primary key');
-- a condition on id or suite_id reaches the table's indexes through the view
-- (with sequential scans off, only a condition pushed into it can use one)
CREATE FUNCTION pg_temp.plan_of(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    line text;
    plan text := '';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
        plan := plan || line || E'\n';
    END LOOP;
    RETURN plan;
END
$$;
SET LOCAL enable_seqscan = off;
SELECT matches(pg_temp.plan_of('SELECT status FROM bench.runs WHERE id = 42')
               || pg_temp.plan_of('SELECT status FROM bench.runs WHERE suite_id = 42')
               || pg_temp.plan_of('SELECT status FROM bench.suites WHERE id = 42'),
    'Index Cond: \(id = 42\).*Index Cond: \(suite_id = 42\).*Index Cond: \(id = 42\)',
    'WHERE id = or suite_id = on bench.runs, and id = on bench.suites, use the tables'' indexes');
RESET enable_seqscan;
SELECT col_type_is('bench', 'runs', 'duration', 'interval', 'bench.runs.duration is an interval');
SELECT col_type_is('bench', 'runs', 'transactions', 'bigint', 'bench.runs.transactions is bigint');
SELECT col_type_is('bench', 'runs', 'latency_p999_ms', 'double precision', 'bench.runs.latency_p999_ms is double precision');
SELECT fk_ok('bench', '_runs', 'dataset_id', 'bench', 'datasets', 'id', 'bench._runs.dataset_id references bench.datasets');
SELECT columns_are('bench', 'progress', ARRAY[
    'run_id', 'interval_start', 'interval_end', 'elapsed_s', 'transactions', 'tps',
    'latency_avg_ms', 'latency_stddev_ms', 'latency_p99_ms', 'latency_max_ms', 'failures',
    'retries', 'in_warmup', 'histogram_lower_ms', 'histogram_upper_ms', 'histogram_count',
    'ignored_errors', 'connection_failures', 'reconnects'],
    'bench.progress has the documented columns');
SELECT col_is_pk('bench', 'progress', ARRAY['run_id', 'interval_start'], 'bench.progress is keyed by run and interval');
SELECT fk_ok('bench', 'progress', 'run_id', 'bench', '_runs', 'id', 'bench.progress.run_id references bench._runs');
SELECT columns_are('bench', 'histograms', ARRAY['run_id', 'lower_ms', 'upper_ms', 'count'],
    'bench.histograms has the documented columns');
SELECT fk_ok('bench', 'histograms', 'run_id', 'bench', '_runs', 'id', 'bench.histograms.run_id references bench._runs');
SELECT columns_are('bench', 'workloads', ARRAY['name', 'dataset', 'scripts', 'weights', 'description', 'builtin',
    'defined_by', 'defined_at'], 'bench.workloads has the documented columns');
SELECT columns_are('bench', 'run_scripts', ARRAY['run_id', 'script_no', 'weight', 'script', 'transactions',
    'latency_avg_ms', 'failures', 'skipped', 'group_no', 'rollbacks', 'latency_p50_ms',
    'latency_p90_ms', 'latency_p95_ms', 'latency_p99_ms', 'latency_max_ms'], 'bench.run_scripts has the documented columns');
SELECT columns_are('bench', 'run_groups', ARRAY['run_id', 'group_no', 'name', 'workload', 'clients', 'rate',
    'transactions', 'tps', 'latency_avg_ms', 'latency_stddev_ms', 'latency_p50_ms', 'latency_p95_ms',
    'latency_p99_ms', 'latency_max_ms', 'failures', 'ignored_errors', 'skipped', 'lag_avg_ms',
    'histogram_lower_ms', 'histogram_upper_ms', 'histogram_count'], 'bench.run_groups has the documented columns');
SELECT col_is_pk('bench', 'run_groups', ARRAY['run_id', 'group_no'], 'bench.run_groups is keyed by run and group');
SELECT fk_ok('bench', 'run_groups', 'run_id', 'bench', '_runs', 'id', 'bench.run_groups.run_id references bench._runs');
SELECT columns_are('bench', 'group_progress', ARRAY['run_id', 'group_no', 'interval_start', 'interval_end',
    'elapsed_s', 'transactions', 'tps', 'latency_avg_ms', 'latency_p99_ms', 'latency_max_ms', 'failures',
    'retries', 'ignored_errors', 'in_warmup'], 'bench.group_progress has the documented columns');
SELECT fk_ok('bench', 'group_progress', ARRAY['run_id', 'group_no'], 'bench', 'run_groups', ARRAY['run_id', 'group_no'],
    'bench.group_progress references bench.run_groups');
SELECT columns_are('bench', 'outages', ARRAY['run_id', 'client', 'outages', 'open', 'downtime_ms',
    'detection_max_ms', 'reconnects', 'unknown_outcome', 'committed', 'first_failure', 'outage_started',
    'outage_ended', 'reconnect_attempts', 'last_sqlstate'], 'bench.outages has the documented columns');
SELECT col_is_pk('bench', 'outages', ARRAY['run_id', 'client'], 'bench.outages is keyed by run and client');
SELECT fk_ok('bench', 'outages', 'run_id', 'bench', '_runs', 'id', 'bench.outages.run_id references bench._runs');
SELECT ok((SELECT 'bench.outages'::regclass = ANY (extconfig) FROM pg_extension WHERE extname = 'pgbenchkit'),
    'bench.outages is a configuration table');
SELECT col_is_pk('bench', 'run_scripts', ARRAY['run_id', 'script_no'], 'bench.run_scripts is keyed by run and script');
SELECT fk_ok('bench', 'run_scripts', 'run_id', 'bench', '_runs', 'id', 'bench.run_scripts.run_id references bench._runs');
SELECT columns_are('bench', 'command_latencies', ARRAY['run_id', 'script_no', 'command_no', 'line', 'command',
    'executions', 'latency_avg_ms', 'failures', 'retries', 'parse_ms', 'rewrite_ms', 'plan_ms', 'execute_ms'], 'bench.command_latencies has the documented columns');
SELECT col_is_pk('bench', 'command_latencies', ARRAY['run_id', 'script_no', 'command_no'],
    'bench.command_latencies is keyed by run, script and command');
SELECT fk_ok('bench', 'command_latencies', ARRAY['run_id', 'script_no'], 'bench', 'run_scripts', ARRAY['run_id', 'script_no'],
    'bench.command_latencies references bench.run_scripts');
SELECT has_view('bench', 'workload_scripts', 'view bench.workload_scripts exists');
SELECT col_is_pk('bench', 'workloads', 'name', 'bench.workloads.name is the primary key');
SELECT has_view('bench', 'runs_in_progress', 'view bench.runs_in_progress exists');

-- the status CHECK accepts exactly the documented states
SELECT lives_ok(
    $$INSERT INTO bench.runs (workload, clients, protocol, warmup, progress, max_tries, status, created_by)
      SELECT 'tpcb', 1, 'prepared', '0', '5 s', 1, s, current_user
        FROM unnest(ARRAY['running', 'done', 'canceled', 'failed', 'aborted']) AS s$$,
    'bench.runs.status accepts running, done, canceled, failed, aborted');
SELECT throws_ok(
    $$INSERT INTO bench.runs (workload, clients, protocol, warmup, progress, max_tries, status, created_by)
      VALUES ('tpcb', 1, 'prepared', '0', '5 s', 1, 'ready', current_user)$$,
    '23514', NULL, 'bench.runs.status rejects any other state');

-- the built-in workloads are pgbench's scripts and sysbench's OLTP ones
SELECT is((SELECT array_agg(name ORDER BY name) FROM bench.workloads WHERE builtin),
    ARRAY['ibench.l.i0', 'ibench.l.i1', 'ibench.l.i2', 'ibench.l.x', 'ibench.qp', 'ibench.qr',
          'oltp_delete', 'oltp_insert', 'oltp_point_select', 'oltp_read_only', 'oltp_read_write',
          'oltp_update_index', 'oltp_update_non_index', 'oltp_write_only', 'select-only', 'simple-update', 'tpcb',
          'tpcc', 'tpcc-delivery', 'tpcc-new-order', 'tpcc-order-status', 'tpcc-payment', 'tpcc-stock-level'],
    'the built-in workloads are tpcb, simple-update, select-only, sysbench''s eight OLTP workloads, the Insert Benchmark''s four load steps and two kinds of query clients, and TPC-C''s mix and five transactions');
SELECT matches((SELECT script FROM bench.workload_scripts WHERE workload = 'tpcb'),
    'UPDATE pgbench_branches SET bbalance = bbalance \+ :delta WHERE bid = :bid;',
    'tpcb is pgbench''s tpcb-like script');
SELECT matches((SELECT script FROM bench.workload_scripts WHERE workload = 'select-only' AND script_no = 1),
    '^-- <builtin: select only>\n\\set aid random\(1, 100000 \* :scale\)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n$',
    'select-only is pgbench''s select-only script');

-- dumped with the user's data
SELECT ok((SELECT 'bench._runs'::regclass = ANY (extconfig) FROM pg_extension WHERE extname = 'pgbenchkit'),
    'bench._runs is a configuration table (pg_dump keeps its rows)');
SELECT ok((SELECT 'bench.progress'::regclass = ANY (extconfig) FROM pg_extension WHERE extname = 'pgbenchkit'),
    'bench.progress is a configuration table');
SELECT ok((SELECT 'bench.histograms'::regclass = ANY (extconfig) FROM pg_extension WHERE extname = 'pgbenchkit'),
    'bench.histograms is a configuration table');
SELECT ok((SELECT 'bench.workloads'::regclass = ANY (extconfig) FROM pg_extension WHERE extname = 'pgbenchkit'),
    'bench.workloads is a configuration table (its user rows)');
SELECT ok((SELECT 'bench.run_scripts'::regclass = ANY (extconfig) AND 'bench.command_latencies'::regclass = ANY (extconfig)
             FROM pg_extension WHERE extname = 'pgbenchkit'),
    'bench.run_scripts and bench.command_latencies are configuration tables');
SELECT ok((SELECT 'bench.run_groups'::regclass = ANY (extconfig) AND 'bench.group_progress'::regclass = ANY (extconfig)
             FROM pg_extension WHERE extname = 'pgbenchkit'),
    'bench.run_groups and bench.group_progress are configuration tables');

-- ---------------------------------------------------------------- functions
SELECT function_returns('bench', 'run',
    ARRAY['text', 'integer', 'interval', 'bigint', 'text', 'interval', 'interval', 'integer', 'text', 'boolean', 'interval', 'text', 'double precision', 'interval', 'bigint', 'jsonb', 'text', 'integer', 'text', 'text', 'jsonb', 'text', 'boolean', 'text', 'interval', 'interval', 'text', 'interval', 'timestamp with time zone', 'text'],
    'bench.runs', 'bench.run returns a row of bench.runs');
SELECT function_returns('bench', 'start',
    ARRAY['text', 'integer', 'interval', 'bigint', 'text', 'interval', 'interval', 'integer', 'text', 'boolean', 'interval', 'text', 'double precision', 'interval', 'bigint', 'jsonb', 'text', 'integer', 'text', 'text', 'jsonb', 'text', 'boolean', 'text', 'interval', 'interval', 'text', 'interval', 'timestamp with time zone', 'text'],
    'bigint', 'bench.start returns the run id');
SELECT function_returns('bench', 'wait', ARRAY['bigint'], 'bench.runs', 'bench.wait returns a row of bench.runs');
SELECT function_returns('bench', 'cancel', ARRAY['bigint'], 'boolean', 'bench.cancel returns boolean');
SELECT is(
    (SELECT proargnames FROM pg_proc WHERE oid = 'bench.run(text, integer, interval, bigint, text, interval, interval, integer, text, boolean, interval, text, double precision, interval, bigint, jsonb, text, integer, text, text, jsonb, text, boolean, text, interval, interval, text, interval, timestamp with time zone, text)'::regprocedure),
    ARRAY['workload', 'clients', 'duration', 'transactions', 'protocol', 'warmup', 'progress', 'max_tries', 'tag', 'prewarm', 'sample_interval',
          'script', 'rate', 'latency_limit', 'random_seed', 'variables', 'target', 'jobs', 'connect', 'on_disconnect', 'groups', 'warehouse_choice', 'keying_and_thinking', 'mode', 'reconnect_delay', 'reconnect_max_delay', 'check_query', 'response_timeout', 'at', 'part_of']::text[],
    'bench.run has the documented argument names');
SELECT is(
    (SELECT pg_get_expr(proargdefaults, 0) FROM pg_proc
      WHERE oid = 'bench.run(text, integer, interval, bigint, text, interval, interval, integer, text, boolean, interval, text, double precision, interval, bigint, jsonb, text, integer, text, text, jsonb, text, boolean, text, interval, interval, text, interval, timestamp with time zone, text)'::regprocedure),
    'NULL::text, 1, NULL::interval, NULL::bigint, ''prepared''::text, ''00:00:00''::interval, ''00:00:05''::interval, 1, NULL::text, true, ''00:00:01''::interval, NULL::text, NULL::double precision, NULL::interval, NULL::bigint, NULL::jsonb, NULL::text, NULL::integer, ''per_run''::text, ''fail''::text, NULL::jsonb, ''home''::text, false, ''procedures''::text, ''00:00:00.01''::interval, ''00:00:01''::interval, NULL::text, NULL::interval, NULL::timestamp with time zone, NULL::text',
    'bench.run defaults: no workload (a script instead), 1 client, 60 s (duration NULL), prepared, no warm-up, progress every 5 s, 1 try, no tag, prewarm, a sample every second, no rate or latency limit, a random seed, no variables, no target (in-server clients), no jobs, a connection per run, a lost connection fails the run, no groups, home warehouses, no keying and think times, TPC-C sent as procedures, reconnects after 10 ms at first and 1 s at most, no check query, no response timeout, no instant, no distributed run');
SELECT isnt_strict('bench', 'run',
    ARRAY['text', 'integer', 'interval', 'bigint', 'text', 'interval', 'interval', 'integer', 'text', 'boolean', 'interval', 'text', 'double precision', 'interval', 'bigint', 'jsonb', 'text', 'integer', 'text', 'text', 'jsonb', 'text', 'boolean', 'text', 'interval', 'interval', 'text', 'interval', 'timestamp with time zone', 'text'],
    'bench.run is not strict (it reports NULL arguments itself)');
SELECT isnt_definer('bench', 'run',
    ARRAY['text', 'integer', 'interval', 'bigint', 'text', 'interval', 'interval', 'integer', 'text', 'boolean', 'interval', 'text', 'double precision', 'interval', 'bigint', 'jsonb', 'text', 'integer', 'text', 'text', 'jsonb', 'text', 'boolean', 'text', 'interval', 'interval', 'text', 'interval', 'timestamp with time zone', 'text'],
    'bench.run is not SECURITY DEFINER (its workers run as the caller)');
SELECT volatility_is('bench', 'run',
    ARRAY['text', 'integer', 'interval', 'bigint', 'text', 'interval', 'interval', 'integer', 'text', 'boolean', 'interval', 'text', 'double precision', 'interval', 'bigint', 'jsonb', 'text', 'integer', 'text', 'text', 'jsonb', 'text', 'boolean', 'text', 'interval', 'interval', 'text', 'interval', 'timestamp with time zone', 'text'],
    'volatile', 'bench.run is volatile');

-- ---------------------------------------------------------------- privileges
CREATE ROLE pgbk_tap_runner NOLOGIN;
SELECT ok(NOT has_function_privilege('public',
    'bench.run(text, integer, interval, bigint, text, interval, interval, integer, text, boolean, interval, text, double precision, interval, bigint, jsonb, text, integer, text, text, jsonb, text, boolean, text, interval, interval, text, interval, timestamp with time zone, text)', 'EXECUTE'),
    'PUBLIC may not EXECUTE bench.run');
SELECT ok(NOT has_function_privilege('public',
    'bench.start(text, integer, interval, bigint, text, interval, interval, integer, text, boolean, interval, text, double precision, interval, bigint, jsonb, text, integer, text, text, jsonb, text, boolean, text, interval, interval, text, interval, timestamp with time zone, text)', 'EXECUTE'),
    'PUBLIC may not EXECUTE bench.start');
SELECT ok(NOT has_function_privilege('public', 'bench.wait(bigint)', 'EXECUTE'),
    'PUBLIC may not EXECUTE bench.wait');
SELECT ok(NOT has_function_privilege('public', 'bench.cancel(bigint)', 'EXECUTE'),
    'PUBLIC may not EXECUTE bench.cancel');
SELECT table_privs_are('bench', 'runs', 'public', ARRAY['SELECT'], 'PUBLIC may SELECT bench.runs, and nothing else');
SELECT table_privs_are('bench', 'progress', 'public', ARRAY['SELECT'], 'PUBLIC may SELECT bench.progress, and nothing else');
SELECT table_privs_are('bench', 'histograms', 'public', ARRAY['SELECT'], 'PUBLIC may SELECT bench.histograms, and nothing else');
SELECT table_privs_are('bench', 'workloads', 'public', ARRAY['SELECT'], 'PUBLIC may SELECT bench.workloads, and nothing else');
SELECT table_privs_are('bench', 'run_scripts', 'public', ARRAY['SELECT'], 'PUBLIC may SELECT bench.run_scripts, and nothing else');
SELECT table_privs_are('bench', 'run_groups', 'public', ARRAY['SELECT'], 'PUBLIC may SELECT bench.run_groups, and nothing else');
SELECT table_privs_are('bench', 'command_latencies', 'public', ARRAY['SELECT'], 'PUBLIC may SELECT bench.command_latencies, and nothing else');
SELECT ok(NOT has_function_privilege('public', 'bench.define_workload(text, text[], integer[], text, text, boolean)', 'EXECUTE'),
    'PUBLIC may not EXECUTE bench.define_workload (scripts)');
SELECT ok(NOT has_function_privilege('public', 'bench.define_workload(text, text, text, text, boolean)', 'EXECUTE'),
    'PUBLIC may not EXECUTE bench.define_workload (one script)');
SELECT ok(NOT has_function_privilege('public', 'bench.drop_workload(text, boolean)', 'EXECUTE'),
    'PUBLIC may not EXECUTE bench.drop_workload');

SET LOCAL ROLE pgbk_tap_runner;
SELECT lives_ok('SELECT count(*) FROM bench.runs_in_progress', 'an ordinary role can read bench.runs_in_progress');
SELECT throws_ok($$SELECT bench.run('select-only')$$, '42501', 'permission denied for function run',
    'an ordinary role cannot call bench.run');
SELECT throws_ok($$SELECT bench.cancel(1)$$, '42501', 'permission denied for function cancel',
    'an ordinary role cannot call bench.cancel');
SELECT throws_ok($$DELETE FROM bench.runs$$, '42501', 'permission denied for view runs',
    'an ordinary role cannot delete runs');
SELECT throws_ok($$INSERT INTO bench.workloads VALUES ('x', NULL, '{"SELECT 1;"}', '{1}', 'x')$$, '42501',
    'permission denied for table workloads', 'an ordinary role cannot add workloads');
SELECT throws_ok($$SELECT bench.define_workload('x', 'SELECT 1;')$$, '42501',
    'permission denied for function define_workload', 'an ordinary role cannot call bench.define_workload');
SELECT throws_ok($$SELECT bench.drop_workload('x')$$, '42501',
    'permission denied for function drop_workload', 'an ordinary role cannot call bench.drop_workload');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
