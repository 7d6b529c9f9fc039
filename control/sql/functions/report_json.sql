--
-- bench.report_json: everything known about one run, as jsonb.
--
CREATE OR REPLACE FUNCTION bench.report_json(run_id bigint)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    r       bench.runs;
    d       bench.datasets;
    script  text;
    c       bench.run_counters;
    failed  bigint;
    cpu     jsonb;
    sb      jsonb;
    result  jsonb;
BEGIN
    IF run_id IS NULL THEN
        RAISE EXCEPTION 'run_id must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the id of a run, as bench.runs lists them.';
    END IF;
    SELECT * INTO r FROM bench.runs WHERE id = run_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'run % does not exist', run_id
            USING ERRCODE = 'no_data_found',
                  HINT = 'bench.runs lists the runs there are.';
    END IF;
    -- aborted as soon as its coordinator is gone
    r := bench._run_state(r);
    SELECT * INTO d FROM bench.datasets WHERE id = r.dataset_id;
    SELECT CASE WHEN count(*) = 1 THEN min(rs.script) END INTO script
      FROM bench.run_scripts rs WHERE rs.run_id = r.id;
    SELECT * INTO c FROM bench.run_counters rc WHERE rc.run_id = r.id;
    failed := COALESCE(r.failures, 0);

    IF r.unavailable ? 'cpu' THEN
        cpu := jsonb_build_object('available', false, 'reason', r.unavailable->>'cpu');
    ELSE
        cpu := jsonb_build_object('available', c.server_cpu_s IS NOT NULL,
                                  'server_s', round(c.server_cpu_s::numeric, 3),
                                  'server_ms_per_tx', c.server_cpu_ms_per_tx,
                                  'host_busy_s', round(c.host_cpu_busy_s::numeric, 3),
                                  'host_total_s', round(c.host_cpu_total_s::numeric, 3),
                                  'host_ms_per_tx', round((c.host_cpu_busy_s * 1000
                                        / NULLIF(c.transactions, 0))::numeric, 6));
    END IF;

    -- sysbench's statistics, for a run on a sysbench dataset or of scripts
    -- that ignore errors as sysbench does: its queries by kind, from the
    -- statements' first words (BEGIN and COMMIT are "other")
    IF d.workload = 'sysbench' OR EXISTS (
           SELECT 1 FROM bench.run_scripts rs
            WHERE rs.run_id = r.id AND rs.script ~ '(^|\n)[ \t]*\\ignore_errors') THEN
        SELECT jsonb_build_object(
                   'read', COALESCE(sum(cl.executions) FILTER (WHERE k.kind = 'read'), 0),
                   'write', COALESCE(sum(cl.executions) FILTER (WHERE k.kind = 'write'), 0),
                   'other', COALESCE(sum(cl.executions) FILTER (WHERE k.kind = 'other'), 0),
                   'total', COALESCE(sum(cl.executions), 0))
          INTO sb
          FROM bench.command_latencies cl,
               LATERAL (SELECT CASE WHEN w IN ('select', 'values', 'table', 'show', 'fetch') THEN 'read'
                                    WHEN w IN ('insert', 'update', 'delete', 'merge', 'copy') THEN 'write'
                                    WHEN w = 'with' AND cl.command ~* '\m(insert|update|delete|merge)\M' THEN 'write'
                                    WHEN w = 'with' THEN 'read'
                                    ELSE 'other' END AS kind
                          FROM (SELECT lower(substring(cl.command FROM '^\s*([A-Za-z]+)')) AS w) f) k
         WHERE cl.run_id = r.id AND cl.command !~ '^\s*\\';
        sb := jsonb_build_object(
            'queries', sb,
            'transactions', r.transactions,
            'transactions_per_s', round((r.transactions / NULLIF(r.measured_s, 0))::numeric, 2),
            'queries_per_s', round(((sb->>'total')::bigint / NULLIF(r.measured_s, 0))::numeric, 2),
            'ignored_errors', COALESCE(r.ignored_errors, 0),
            'ignored_errors_per_s', round((COALESCE(r.ignored_errors, 0) / NULLIF(r.measured_s, 0))::numeric, 2),
            'reconnects', 0,
            'total_time_s', round(r.measured_s::numeric, 4),
            'events', r.transactions,
            'latency_ms', jsonb_build_object(
                'min', round(r.latency_min_ms::numeric, 2), 'avg', round(r.latency_avg_ms::numeric, 2),
                'max', round(r.latency_max_ms::numeric, 2), 'p95', round(r.latency_p95_ms::numeric, 2),
                'sum', round((r.latency_avg_ms * r.transactions)::numeric, 2)));
    END IF;

    result := jsonb_build_object(
        'run', jsonb_build_object(
            'id', r.id, 'workload', r.workload, 'status', r.status,
            'sqlstate', r.sqlstate, 'error', r.error, 'tag', r.tag,
            'created_by', r.created_by, 'server_version', r.server_version,
            'started_at', r.started_at, 'ended_at', r.ended_at,
            'dataset_id', r.dataset_id, 'prewarm', r.prewarm,
            'sample_interval_s', extract(epoch FROM r.sample_interval),
            'warmup_s', extract(epoch FROM r.warmup),
            'warmup_transactions', r.warmup_transactions,
            'driver', r.driver, 'target', r.target,
            'node', CASE WHEN r.node_name IS NOT NULL OR r.node_host IS NOT NULL THEN jsonb_build_object(
                'name', r.node_name, 'number', r.node_number, 'host', r.node_host,
                'system_identifier', r.node_system_identifier) END)
            -- at => and part_of =>, only for a run given them
            || CASE WHEN r.start_at IS NOT NULL THEN jsonb_build_object(
                'start_at', r.start_at, 'part_of', r.part_of) ELSE '{}' END,
        'pgbench', jsonb_build_object(
            'transaction_type', CASE WHEN script IS NULL AND EXISTS (SELECT FROM bench.run_scripts rs WHERE rs.run_id = r.id)
                                     THEN 'multiple scripts'
                                     ELSE COALESCE(substring(script FROM '^-- (<builtin: [^>]*>)'), r.workload) END,
            'rate_tps', r.rate,
            'latency_limit_ms', extract(epoch FROM r.latency_limit) * 1000,
            'random_seed', r.random_seed,
            'variables', r.variables,
            'skipped_transactions', r.skipped,
            'skipped_pct', round(100.0 * r.skipped / NULLIF(COALESCE(r.transactions, 0) + r.skipped
                                   + (SELECT COALESCE(sum(rs.failures), 0) FROM bench.run_scripts rs WHERE rs.run_id = r.id), 0), 3),
            'late_transactions', r.late,
            'late_pct', round(100.0 * r.late / NULLIF(r.transactions, 0), 3),
            'schedule_lag_avg_ms', round(r.lag_avg_ms::numeric, 3),
            'schedule_lag_max_ms', round(r.lag_max_ms::numeric, 3),
            'scaling_factor', r.scale,
            'partition_method', CASE WHEN (d.options->>'partitions')::int > 0
                                     THEN d.options->>'partition_method' END,
            'partitions', CASE WHEN (d.options->>'partitions')::int > 0
                               THEN (d.options->>'partitions')::int END,
            'query_mode', r.protocol,
            'number_of_clients', r.clients,
            'number_of_threads', CASE WHEN r.driver = 'libpq' THEN r.jobs ELSE r.clients END,
            'maximum_number_of_tries', r.max_tries,
            'duration_s', extract(epoch FROM r.duration)::double precision,
            'transactions_per_client', r.transactions_per_client,
            'transactions', r.transactions,
            'failed_transactions', failed,
            'failed_pct', round(100.0 * failed / NULLIF(COALESCE(r.transactions, 0) + failed, 0), 3),
            'serialization_failures', r.serialization_failures,
            'deadlock_failures', r.deadlock_failures,
            'transactions_retried', r.retried,
            'total_retries', r.retries,
            'ignored_errors', r.ignored_errors,
            'latency_average_ms', round(r.latency_avg_ms::numeric, 3),
            'latency_stddev_ms', round(r.latency_stddev_ms::numeric, 3),
            'tps', round(r.tps::numeric, 6),
            'measured_s', round(r.measured_s::numeric, 3)),
        'scripts', COALESCE((
            SELECT jsonb_agg(jsonb_build_object(
                       'script_no', rs.script_no, 'weight', rs.weight,
                       'weight_pct', round(100.0 * rs.weight / NULLIF(rs.total_weight, 0), 1),
                       'name', COALESCE(substring(rs.script FROM '^-- (<builtin: [^>]*>)'),
                                        CASE WHEN rs.group_no IS NOT NULL THEN rs.group_workload
                                             WHEN rs.nscripts = 1 THEN r.workload
                                             ELSE format('%s script %s', r.workload, rs.script_no) END)
                               || CASE WHEN rs.group_name IS NOT NULL THEN format(' (group %s)', rs.group_name) ELSE '' END,
                       'group_no', rs.group_no,
                       'transactions', rs.transactions,
                       'transactions_pct', round(100.0 * rs.transactions / NULLIF(r.transactions, 0), 1),
                       'tps', round((rs.transactions / NULLIF(r.measured_s, 0))::numeric, 6),
                       'failures', rs.failures, 'skipped', rs.skipped,
                       'latency_average_ms', round(rs.latency_avg_ms::numeric, 3),
                       'rollbacks', rs.rollbacks,
                       'latency_ms', CASE WHEN rs.latency_max_ms IS NOT NULL THEN jsonb_build_object(
                           'p50', round(rs.latency_p50_ms::numeric, 3), 'p90', round(rs.latency_p90_ms::numeric, 3),
                           'p95', round(rs.latency_p95_ms::numeric, 3), 'p99', round(rs.latency_p99_ms::numeric, 3),
                           'max', round(rs.latency_max_ms::numeric, 3)) END,
                       'commands', COALESCE((
                           SELECT jsonb_agg(jsonb_build_object(
                                      'command_no', cl.command_no, 'line', cl.line,
                                      'command', cl.command, 'executions', cl.executions,
                                      'latency_ms', round(cl.latency_avg_ms::numeric, 3),
                                      'failures', cl.failures, 'retries', cl.retries,
                                      'parse_ms', round(cl.parse_ms::numeric, 4),
                                      'rewrite_ms', round(cl.rewrite_ms::numeric, 4),
                                      'plan_ms', round(cl.plan_ms::numeric, 4),
                                      'execute_ms', round(cl.execute_ms::numeric, 4)) ORDER BY cl.command_no)
                             FROM bench.command_latencies cl
                            WHERE cl.run_id = rs.run_id AND cl.script_no = rs.script_no), '[]'::jsonb))
                       ORDER BY rs.script_no)
              FROM (SELECT q.*, sum(q.weight) OVER (PARTITION BY q.group_no) AS total_weight,
                           count(*) OVER () AS nscripts, g.name AS group_name, g.workload AS group_workload
                      FROM bench.run_scripts q
                      LEFT JOIN bench.run_groups g ON g.run_id = q.run_id AND g.group_no = q.group_no
                     WHERE q.run_id = r.id) rs), '[]'::jsonb),
        'latency_ms', jsonb_build_object(
            'min', round(r.latency_min_ms::numeric, 3), 'p50', round(r.latency_p50_ms::numeric, 3),
            'p90', round(r.latency_p90_ms::numeric, 3), 'p95', round(r.latency_p95_ms::numeric, 3),
            'p99', round(r.latency_p99_ms::numeric, 3), 'p99_9', round(r.latency_p999_ms::numeric, 3),
            'max', round(r.latency_max_ms::numeric, 3)),
        'server', jsonb_build_object(
            'seconds', round(c.seconds::numeric, 3),
            'transactions', c.transactions,
            'wal', jsonb_build_object(
                'bytes', c.wal_bytes, 'generated_bytes', c.wal_generated_bytes,
                'records', c.wal_records, 'fpi', c.wal_fpi,
                'bytes_per_tx', c.wal_bytes_per_tx, 'fpi_per_tx', c.wal_fpi_per_tx,
                'mb_per_s', c.wal_mb_per_s, 'buffers_full', c.wal_buffers_full),
            'checkpoints', jsonb_build_object(
                'timed', c.checkpoints_timed, 'requested', c.checkpoints_requested,
                'buffers_written', c.buffers_checkpoint),
            'buffers', jsonb_build_object(
                'checkpointer', c.buffers_checkpoint, 'bgwriter', c.buffers_clean,
                'bgwriter_stopped_full', c.maxwritten_clean,
                'backends', c.buffers_backend, 'allocated', c.buffers_alloc),
            'io', CASE WHEN c.io_reads IS NOT NULL THEN jsonb_build_object(
                'reads', c.io_reads, 'writes', c.io_writes,
                'extends', c.io_extends, 'fsyncs', c.io_fsyncs) END,
            'cache', jsonb_build_object(
                'blks_read', c.blks_read, 'blks_hit', c.blks_hit,
                'blks_read_per_tx', c.blks_read_per_tx, 'blks_hit_per_tx', c.blks_hit_per_tx,
                'hit_ratio', c.cache_hit_ratio,
                'temp_files', c.temp_files, 'temp_bytes', c.temp_bytes),
            'database', jsonb_build_object(
                'xact_commit', c.xact_commit, 'xact_rollback', c.xact_rollback,
                'deadlocks', c.deadlocks),
            'cpu', cpu,
            'statements', (
                SELECT jsonb_agg(jsonb_build_object(
                           'query', s.query, 'calls', s.calls, 'total_ms', s.total_exec_ms,
                           'mean_ms', s.mean_exec_ms, 'plans', s.plans, 'mean_plan_ms', s.mean_plan_ms,
                           'total_plan_ms', s.total_plan_ms,
                           'rows', s.rows,
                           'wal_bytes', s.wal_bytes, 'run_role', s.run_role)
                           ORDER BY s.total_exec_ms DESC, s.queryid)
                  -- the run's role's first: on a target the coordinator's
                  -- own statements and other roles' can take more time
                  -- than a cheap workload's, and would push them out
                  FROM (SELECT * FROM bench.run_statements rs WHERE rs.run_id = r.id
                         ORDER BY rs.run_role IS TRUE DESC, rs.total_exec_ms DESC, rs.queryid LIMIT 10) s),
            'sizes', (
                SELECT jsonb_agg(jsonb_build_object(
                           'relation', COALESCE(a.relation, b.relation),
                           'kind', COALESCE(a.kind, b.kind),
                           'before_bytes', b.total_bytes, 'after_bytes', a.total_bytes)
                           ORDER BY COALESCE(a.kind, b.kind) DESC, COALESCE(a.relation, b.relation))
                  FROM (SELECT * FROM bench.relation_sizes WHERE relation_sizes.run_id = r.id
                           AND phase = 'before') b
                  FULL JOIN (SELECT * FROM bench.relation_sizes WHERE relation_sizes.run_id = r.id
                                AND phase = 'after') a ON a.relid = b.relid),
            'prewarm', (
                SELECT jsonb_agg(jsonb_build_object(
                           'relation', p.relation, 'kind', p.kind,
                           'blocks', p.blocks, 'seconds', round(p.seconds::numeric, 6))
                           ORDER BY p.relation)
                  FROM bench.prewarms p WHERE p.run_id = r.id),
            'settings', r.settings,
            'host', r.host,
            'unavailable', COALESCE(r.unavailable, '{}')));
    -- the price the run ran at, and what its transactions cost (NULL each
    -- when the price is unknown, the cost also when nothing was measured)
    result := result || jsonb_build_object('price', jsonb_build_object(
        'price_per_hour', r.price_per_hour,
        'currency', r.currency,
        'cost_per_million_transactions', round(bench._cost_per_million(r.price_per_hour, r.tps)::numeric, 6),
        'transactions_per_currency_unit', round(bench._transactions_per_unit(r.price_per_hour, r.tps)::numeric)));
    IF sb IS NOT NULL THEN
        result := result || jsonb_build_object('sysbench', sb);
    END IF;
    -- a TPC-C run: its results as HammerDB and go-tpc report them
    IF EXISTS (SELECT FROM bench.tpcc_transactions t WHERE t.run_id = r.id) THEN
        result := result || jsonb_build_object('tpcc', (
            SELECT jsonb_build_object(
                       'mode', x.mode, 'warehouses', x.warehouses,
                       'new_orders', x.new_orders, 'new_orders_rolled_back', x.new_orders_rolled_back,
                       'nopm', round(x.nopm::numeric, 1),
                       'new_orders_server', x.new_orders_server,
                       'nopm_server', round(x.nopm_server::numeric, 1),
                       'tpm', round(x.tpm::numeric, 1),
                       'tpmc', round(x.tpmc::numeric, 1),
                       'tpm_total', round(x.tpm_total::numeric, 1),
                       'cost_per_million_new_orders', round(x.cost_per_million_new_orders::numeric, 6),
                       'transactions', (
                           SELECT jsonb_agg(jsonb_build_object(
                                      'transaction', t.transaction, 'count', t.transactions,
                                      'rollbacks', t.rollbacks, 'failures', t.failures,
                                      'per_minute', round(t.per_minute::numeric, 1),
                                      'latency_ms', jsonb_build_object(
                                          'avg', round(t.latency_avg_ms::numeric, 3),
                                          'p50', round(t.latency_p50_ms::numeric, 3),
                                          'p90', round(t.latency_p90_ms::numeric, 3),
                                          'p95', round(t.latency_p95_ms::numeric, 3),
                                          'p99', round(t.latency_p99_ms::numeric, 3),
                                          'max', round(t.latency_max_ms::numeric, 3))) ORDER BY t.script_no)
                             FROM bench.tpcc_transactions t WHERE t.run_id = r.id))
              FROM bench.tpcc_results x WHERE x.run_id = r.id));
    END IF;
    -- on_disconnect => 'reconnect': the outage, and what committed
    IF r.on_disconnect = 'reconnect' THEN
        result := result || jsonb_build_object('outage', jsonb_build_object(
            'reconnects', r.reconnects,
            'outages', r.outages,
            'outages_open', r.outages_open,
            'clients_with_outage', (SELECT count(*) FROM bench.outages x WHERE x.run_id = r.id),
            'started', r.outage_started,
            'ended', r.outage_ended,
            'downtime_median_ms', round(r.downtime_median_ms::numeric, 1),
            'downtime_max_ms', round(r.downtime_max_ms::numeric, 1),
            'detection_max_ms', round(r.detection_max_ms::numeric, 1),
            'recovery_ms', round(r.recovery_ms::numeric, 1),
            'response_timeout_ms', round((extract(epoch FROM r.response_timeout) * 1000)::numeric, 1),
            'connection_failures', (SELECT sum(p.connection_failures) FROM bench.progress p WHERE p.run_id = r.id),
            'unknown_outcome', r.unknown_outcome,
            'check', CASE WHEN r.check_query IS NOT NULL THEN jsonb_build_object(
                'query', r.check_query,
                'before', r.check_before,
                'after', r.check_after,
                'committed', COALESCE(r.transactions, 0) + COALESCE(r.warmup_transactions, 0),
                'committed_missing', r.committed_missing,
                'unknown_committed', r.unknown_committed) END));
    END IF;
    -- a run with groups: what each group measured
    IF EXISTS (SELECT FROM bench.run_groups g WHERE g.run_id = r.id) THEN
        result := result || jsonb_build_object('groups', (
            SELECT jsonb_agg(jsonb_build_object(
                       'group_no', g.group_no, 'name', g.name, 'workload', g.workload,
                       'clients', g.clients, 'rate_tps', g.rate,
                       'scripts', (SELECT jsonb_agg(rs.script_no ORDER BY rs.script_no)
                                     FROM bench.run_scripts rs
                                    WHERE rs.run_id = r.id AND rs.group_no = g.group_no),
                       'transactions', g.transactions,
                       'transactions_pct', round(100.0 * g.transactions / NULLIF(r.transactions, 0), 1),
                       'tps', round(g.tps::numeric, 6),
                       'failures', g.failures, 'ignored_errors', g.ignored_errors,
                       'skipped', g.skipped,
                       'schedule_lag_avg_ms', round(g.lag_avg_ms::numeric, 3),
                       'latency_ms', jsonb_build_object(
                           'avg', round(g.latency_avg_ms::numeric, 3),
                           'stddev', round(g.latency_stddev_ms::numeric, 3),
                           'p50', round(g.latency_p50_ms::numeric, 3),
                           'p95', round(g.latency_p95_ms::numeric, 3),
                           'p99', round(g.latency_p99_ms::numeric, 3),
                           'max', round(g.latency_max_ms::numeric, 3)))
                       ORDER BY g.group_no)
              FROM bench.run_groups g WHERE g.run_id = r.id));
    END IF;
    RETURN result;
END
$fn$;

COMMENT ON FUNCTION bench.report_json(bigint) IS
    'Everything known about a run as jsonb: pgbench''s summary, latency percentiles, what the server did, and its price and cost per transaction';
