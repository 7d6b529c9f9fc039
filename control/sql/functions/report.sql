--
-- bench.report: the same as text; it starts with the lines pgbench prints
-- at the end of a run.
--
CREATE OR REPLACE FUNCTION bench.report(run_id bigint)
RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    j       jsonb := bench.report_json(run_id);
    p       jsonb := j->'pgbench';
    s       jsonb := j->'server';
    l       jsonb := j->'latency_ms';
    o       text[] := '{}';
    total   bigint;
    x       jsonb;
    k       text;
    v       text;
BEGIN
    -- as pgbench's printResults
    o := o || format('transaction type: %s', p->>'transaction_type');
    IF p->>'scaling_factor' IS NOT NULL THEN
        o := o || format('scaling factor: %s', p->>'scaling_factor');
    END IF;
    IF p->>'partitions' IS NOT NULL THEN
        o := o || format('partition method: %s', p->>'partition_method')
               || format('partitions: %s', p->>'partitions');
    END IF;
    o := o || format('query mode: %s', p->>'query_mode')
           || format('number of clients: %s', p->>'number_of_clients')
           || format('number of threads: %s', p->>'number_of_threads')
           || format('maximum number of tries: %s', p->>'maximum_number_of_tries');
    total := COALESCE((p->>'transactions')::bigint, 0);
    IF p->>'transactions_per_client' IS NOT NULL THEN
        o := o || format('number of transactions per client: %s', p->>'transactions_per_client')
               || format('number of transactions actually processed: %s/%s', total,
                         (p->>'transactions_per_client')::bigint * (p->>'number_of_clients')::int);
    ELSE
        o := o || format('duration: %s s', p->>'duration_s')
               || format('number of transactions actually processed: %s', total);
    END IF;
    o := o || format('number of failed transactions: %s (%s%%)', p->>'failed_transactions',
                     to_char(COALESCE((p->>'failed_pct')::numeric, 0), 'FM990.000'));
    IF (p->>'failed_transactions')::bigint > 0 THEN
        o := o || format('number of serialization failures: %s', p->>'serialization_failures')
               || format('number of deadlock failures: %s', p->>'deadlock_failures');
    END IF;
    IF (p->>'maximum_number_of_tries')::int <> 1 THEN
        o := o || format('number of transactions retried: %s', p->>'transactions_retried')
               || format('total number of retries: %s', p->>'total_retries');
    END IF;
    IF p->>'rate_tps' IS NOT NULL AND p->>'latency_limit_ms' IS NOT NULL THEN
        o := o || format('number of transactions skipped: %s (%s%%)', COALESCE(p->>'skipped_transactions', '0'),
                         to_char(COALESCE((p->>'skipped_pct')::numeric, 0), 'FM990.000'));
    END IF;
    IF p->>'latency_limit_ms' IS NOT NULL THEN
        o := o || format('number of transactions above the %s ms latency limit: %s/%s (%s%%)',
                         to_char((p->>'latency_limit_ms')::numeric, 'FM999999990.0'),
                         COALESCE(p->>'late_transactions', '0'), total,
                         to_char(COALESCE((p->>'late_pct')::numeric, 0), 'FM990.000'));
    END IF;
    IF total > 0 THEN
        o := o || format('latency average = %s ms', to_char((p->>'latency_average_ms')::numeric, 'FM999999990.000'))
               || format('latency stddev = %s ms', to_char((p->>'latency_stddev_ms')::numeric, 'FM999999990.000'));
    END IF;
    IF p->>'rate_tps' IS NOT NULL THEN
        o := o || format('rate limit schedule lag: avg %s (max %s) ms',
                         to_char(COALESCE((p->>'schedule_lag_avg_ms')::numeric, 0), 'FM999999990.000'),
                         to_char(COALESCE((p->>'schedule_lag_max_ms')::numeric, 0), 'FM999999990.000'));
    END IF;
    o := o || format('tps = %s (without initial connection time)',
                     to_char(COALESCE((p->>'tps')::numeric, 0), 'FM999999990.000000'));

    -- each script and its statement latencies, as pgbench -r
    FOR x IN SELECT * FROM jsonb_array_elements(COALESCE(j->'scripts', '[]')) LOOP
        IF jsonb_array_length(j->'scripts') > 1 THEN
            o := o || format('SQL script %s: %s', x->>'script_no', x->>'name')
                   || format(' - weight: %s (targets %s%% of total)', x->>'weight', x->>'weight_pct')
                   || format(' - %s transactions (%s%% of total, tps = %s)', COALESCE(x->>'transactions', '0'),
                             COALESCE(x->>'transactions_pct', '0'),
                             to_char(COALESCE((x->>'tps')::numeric, 0), 'FM999999990.000000'))
                   || format(' - number of failed transactions: %s', COALESCE(x->>'failures', '0'));
            IF x->>'latency_average_ms' IS NOT NULL THEN
                o := o || format(' - latency average = %s ms', x->>'latency_average_ms');
            END IF;
            IF x->'latency_ms' IS NOT NULL AND jsonb_typeof(x->'latency_ms') = 'object' THEN
                o := o || format(' - latency percentiles: p50 %s, p90 %s, p95 %s, p99 %s, max %s ms',
                                 x->'latency_ms'->>'p50', x->'latency_ms'->>'p90', x->'latency_ms'->>'p95',
                                 x->'latency_ms'->>'p99', x->'latency_ms'->>'max');
            END IF;
            IF (x->>'rollbacks')::bigint > 0 THEN
                o := o || format(' - rolled back: %s (%s%%)', x->>'rollbacks',
                                 to_char(100.0 * (x->>'rollbacks')::numeric / NULLIF((x->>'transactions')::numeric, 0), 'FM990.000'));
            END IF;
        END IF;
        -- with retries (max_tries other than 1) a column more, as pgbench
        o := o || format('%sstatement latencies in milliseconds%s:',
                         CASE WHEN jsonb_array_length(j->'scripts') > 1 THEN ' - ' ELSE '' END,
                         CASE WHEN (p->>'maximum_number_of_tries')::int = 1 THEN ' and failures'
                              ELSE ', failures and retries' END);
        o := o || ARRAY(SELECT format('   %s  %s  %s%s', lpad(COALESCE(to_char((c->>'latency_ms')::numeric, 'FM999999990.000'), '-'), 11),
                                      lpad(c->>'failures', 10),
                                      CASE WHEN (p->>'maximum_number_of_tries')::int = 1 THEN ''
                                           ELSE lpad(COALESCE(c->>'retries', '0'), 10) || '  ' END,
                                      c->>'command')
                          FROM jsonb_array_elements(COALESCE(x->'commands', '[]')) c);
    END LOOP;

    -- where the time of each SQL command went, when its phases were timed
    IF EXISTS (SELECT 1 FROM jsonb_array_elements(COALESCE(j->'scripts', '[]')) sc,
                             jsonb_array_elements(COALESCE(sc->'commands', '[]')) c
                WHERE c->>'execute_ms' IS NOT NULL) THEN
        o := o || ''::text
               || 'where the time goes, in milliseconds per execution (the server''s clients time each statement''s phases):'::text
               || format('   %s %s %s %s %s  %s', lpad('parse', 9), lpad('rewrite', 9), lpad('plan', 9),
                         lpad('execute', 9), lpad('other', 9), 'command');
        FOR x IN SELECT * FROM jsonb_array_elements(COALESCE(j->'scripts', '[]')) LOOP
            o := o || ARRAY(SELECT format('   %s %s %s %s %s  %s',
                                          lpad(to_char((c->>'parse_ms')::numeric, 'FM999990.0000'), 9),
                                          lpad(to_char((c->>'rewrite_ms')::numeric, 'FM999990.0000'), 9),
                                          lpad(to_char((c->>'plan_ms')::numeric, 'FM999990.0000'), 9),
                                          lpad(to_char((c->>'execute_ms')::numeric, 'FM999990.0000'), 9),
                                          lpad(to_char(greatest((c->>'latency_ms')::numeric - (c->>'parse_ms')::numeric
                                                                - (c->>'rewrite_ms')::numeric - (c->>'plan_ms')::numeric
                                                                - (c->>'execute_ms')::numeric, 0), 'FM999990.0000'), 9),
                                          c->>'command')
                              FROM jsonb_array_elements(COALESCE(x->'commands', '[]')) c
                             WHERE c->>'execute_ms' IS NOT NULL);
        END LOOP;
    ELSIF j->'run'->>'driver' = 'libpq' THEN
        -- a target's statements are parsed, planned and executed by its
        -- server: what its pg_stat_statements measured of the run's own
        o := o || ''::text;
        IF jsonb_typeof(s->'statements') = 'array'
           AND EXISTS (SELECT 1 FROM jsonb_array_elements(s->'statements') e
                        WHERE (e->>'run_role')::boolean) THEN
            IF EXISTS (SELECT 1 FROM jsonb_array_elements(s->'statements') e
                        WHERE (e->>'run_role')::boolean AND (e->>'plans')::bigint > 0) THEN
                o := o || 'where the time goes, in milliseconds per call, as pg_stat_statements measured it on the target (planning and execution; parse, analysis and rewrite are not measured there):'::text;
            ELSE
                o := o || 'where the time goes, in milliseconds per call, as pg_stat_statements measured it on the target: execution only (planning is measured with pg_stat_statements.track_planning on there; parse, analysis and rewrite are not measured there):'::text;
            END IF;
            o := o || format('   %s %s %s  %s', lpad('plan', 9), lpad('execute', 9), lpad('calls', 10), 'statement')
                   || ARRAY(SELECT format('   %s %s %s  %s',
                                          lpad(COALESCE(CASE WHEN (e->>'plans')::bigint > 0
                                                             THEN to_char((e->>'total_plan_ms')::numeric
                                                                          / (e->>'calls')::numeric, 'FM999990.0000') END, '-'), 9),
                                          lpad(to_char((e->>'mean_ms')::numeric, 'FM999990.0000'), 9),
                                          lpad(e->>'calls', 10),
                                          left(regexp_replace(e->>'query', '\s+', ' ', 'g'), 100))
                              FROM jsonb_array_elements(s->'statements') e
                             WHERE (e->>'run_role')::boolean
                               -- not the coordinator's samples, taken as the same role
                               AND e->>'query' NOT LIKE 'SELECT pg\_catalog.jsonb\_strip\_nulls(pg\_catalog.jsonb\_build\_object(%'
                             ORDER BY (e->>'total_ms')::numeric DESC);
        ELSE
            o := o || format('where the time goes: not measured (the target''s statements are timed by its server, and its pg_stat_statements %s)',
                             COALESCE('is not available: ' || (s->'unavailable'->>'statements'), 'showed none of the run''s'));
        END IF;
    END IF;

    -- sysbench's statistics block, as sysbench 1.0 prints it
    IF jsonb_typeof(j->'sysbench') = 'object' THEN
        x := j->'sysbench';
        o := o || ARRAY['', 'SQL statistics:', '    queries performed:']
               || format('        read:                            %s', x->'queries'->>'read')
               || format('        write:                           %s', x->'queries'->>'write')
               || format('        other:                           %s', x->'queries'->>'other')
               || format('        total:                           %s', x->'queries'->>'total')
               || format('    transactions:                        %s (%s per sec.)',
                         rpad(COALESCE(x->>'transactions', '0'), 6), to_char(COALESCE((x->>'transactions_per_s')::numeric, 0), 'FM999999990.00'))
               || format('    queries:                             %s (%s per sec.)',
                         rpad(x->'queries'->>'total', 6), to_char(COALESCE((x->>'queries_per_s')::numeric, 0), 'FM999999990.00'))
               || format('    ignored errors:                      %s (%s per sec.)',
                         rpad(x->>'ignored_errors', 6), to_char(COALESCE((x->>'ignored_errors_per_s')::numeric, 0), 'FM999999990.00'))
               || format('    reconnects:                          %s (%s per sec.)', rpad(x->>'reconnects', 6), '0.00')
               || ARRAY['', 'General statistics:']
               || format('    total time:                          %ss', to_char(COALESCE((x->>'total_time_s')::numeric, 0), 'FM999999990.0000'))
               || format('    total number of events:              %s', COALESCE(x->>'events', '0'))
               || ARRAY['', 'Latency (ms):']
               || format('         min:                            %s', lpad(COALESCE(to_char((x->'latency_ms'->>'min')::numeric, 'FM999999990.00'), '-'), 12))
               || format('         avg:                            %s', lpad(COALESCE(to_char((x->'latency_ms'->>'avg')::numeric, 'FM999999990.00'), '-'), 12))
               || format('         max:                            %s', lpad(COALESCE(to_char((x->'latency_ms'->>'max')::numeric, 'FM999999990.00'), '-'), 12))
               || format('         95th percentile:                %s', lpad(COALESCE(to_char((x->'latency_ms'->>'p95')::numeric, 'FM999999990.00'), '-'), 12))
               || format('         sum:                            %s', lpad(COALESCE(to_char((x->'latency_ms'->>'sum')::numeric, 'FM999999990.00'), '-'), 12));
    END IF;

    -- each group of clients: its workload, rate and what it measured
    IF jsonb_typeof(j->'groups') = 'array' THEN
        o := o || ''::text || 'groups:'::text;
        FOR x IN SELECT * FROM jsonb_array_elements(j->'groups') LOOP
            o := o || format('  group %s: %s - %s, %s client%s%s', x->>'group_no', x->>'name',
                             x->>'workload', x->>'clients',
                             CASE WHEN x->>'clients' = '1' THEN '' ELSE 's' END,
                             CASE WHEN x->>'rate_tps' IS NOT NULL THEN format(', rate %s tps', x->>'rate_tps') ELSE '' END)
                   || format('   %s transactions (%s%% of total), tps = %s, %s failed%s',
                             COALESCE(x->>'transactions', '0'), COALESCE(x->>'transactions_pct', '0'),
                             to_char(COALESCE((x->>'tps')::numeric, 0), 'FM999999990.000000'),
                             COALESCE(x->>'failures', '0'),
                             CASE WHEN COALESCE((x->>'ignored_errors')::bigint, 0) > 0
                                  THEN format(', %s ignored errors', x->>'ignored_errors') ELSE '' END);
            IF COALESCE((x->>'transactions')::bigint, 0) > 0 THEN
                o := o || format('   latency average %s ms, stddev %s ms, p50 %s ms, p95 %s ms, p99 %s ms, max %s ms',
                                 x->'latency_ms'->>'avg', x->'latency_ms'->>'stddev', x->'latency_ms'->>'p50',
                                 x->'latency_ms'->>'p95', x->'latency_ms'->>'p99', x->'latency_ms'->>'max');
            END IF;
            IF x->>'schedule_lag_avg_ms' IS NOT NULL THEN
                o := o || format('   rate limit schedule lag: avg %s ms', x->>'schedule_lag_avg_ms');
            END IF;
        END LOOP;
    END IF;

    -- the run
    o := o || ARRAY['', format('run %s: workload %s, status %s%s', j->'run'->>'id', j->'run'->>'workload',
                     j->'run'->>'status',
                     CASE WHEN j->'run'->>'tag' IS NOT NULL THEN format(', tag %s', j->'run'->>'tag') ELSE '' END)]
           || format('started %s, measured %s s, server %s', j->'run'->>'started_at',
                     p->>'measured_s', j->'run'->>'server_version');
    IF j->'run'->>'error' IS NOT NULL THEN
        o := o || format('error: %s (SQLSTATE %s)', j->'run'->>'error', j->'run'->>'sqlstate');
    END IF;
    -- the price it ran at, and what its transactions cost
    x := j->'price';
    IF x->>'price_per_hour' IS NULL THEN
        o := o || CASE WHEN j->'run'->>'driver' = 'libpq'
                       THEN format('price: unknown (set the options price_per_hour and currency of target %s)',
                                   j->'run'->>'target')
                       ELSE 'price: unknown (set pgbenchkit.price_per_hour and pgbenchkit.currency)' END;
    ELSE
        o := o || format('price: %s %s per hour; %s', x->>'price_per_hour', x->>'currency',
                         CASE WHEN x->>'cost_per_million_transactions' IS NULL
                              THEN 'no cost per transaction (none measured)'
                              ELSE format('%s %s per million transactions; %s',
                                          to_char((x->>'cost_per_million_transactions')::numeric, 'FM999999999990.0000'),
                                          x->>'currency',
                                          CASE WHEN x->>'transactions_per_currency_unit' IS NULL
                                               THEN format('no bound on the transactions per %s (a price of 0)', x->>'currency')
                                               ELSE format('%s transactions per %s', x->>'transactions_per_currency_unit',
                                                           x->>'currency') END) END);
    END IF;
    -- a TPC-C run: NOPM, TPM, tpmC, tpmTotal and each transaction type
    x := j->'tpcc';
    IF x IS NOT NULL THEN
        o := o || format('TPC-C (%s, %s warehouse%s): NOPM %s (d_next_o_id: %s), TPM %s (pg_stat_database), tpmC %s, tpmTotal %s',
                         x->>'mode', x->>'warehouses', CASE WHEN x->>'warehouses' = '1' THEN '' ELSE 's' END,
                         COALESCE(round((x->>'nopm')::numeric)::text, '-'),
                         COALESCE(round((x->>'nopm_server')::numeric)::text, '-'),
                         COALESCE(round((x->>'tpm')::numeric)::text, '-'),
                         COALESCE(round((x->>'tpmc')::numeric)::text, '-'),
                         COALESCE(round((x->>'tpm_total')::numeric)::text, '-'));
        o := o || format('   %-12s %10s %10s %10s  %s', 'transaction', 'count', 'rollbacks', 'failures',
                         'latency ms: avg, p50, p90, p95, p99, max');
        o := o || ARRAY(SELECT format('   %-12s %10s %10s %10s  %s, %s, %s, %s, %s, %s', t->>'transaction', t->>'count',
                                      COALESCE(t->>'rollbacks', '-'), t->>'failures',
                                      COALESCE(t->'latency_ms'->>'avg', '-'), COALESCE(t->'latency_ms'->>'p50', '-'),
                                      COALESCE(t->'latency_ms'->>'p90', '-'), COALESCE(t->'latency_ms'->>'p95', '-'),
                                      COALESCE(t->'latency_ms'->>'p99', '-'), COALESCE(t->'latency_ms'->>'max', '-'))
                          FROM jsonb_array_elements(COALESCE(x->'transactions', '[]')) t);
    END IF;
    IF j->'run'->'node'->>'name' IS NOT NULL THEN
        o := o || format('node: %s (number %s), on host %s', j->'run'->'node'->>'name',
                         j->'run'->'node'->>'number', COALESCE(j->'run'->'node'->>'host', 'unknown'));
    END IF;
    IF j->'run'->>'start_at' IS NOT NULL THEN
        o := o || format('measured part to start at: %s%s', j->'run'->>'start_at',
                         CASE WHEN j->'run'->>'part_of' IS NOT NULL
                              THEN format(', a part of distributed run %s (bench.report_distributed)', j->'run'->>'part_of')
                              ELSE '' END);
    END IF;
    IF (j->'run'->>'warmup_s')::numeric > 0 THEN
        o := o || format('warm-up: %s s, %s transactions left out of the figures above',
                         j->'run'->>'warmup_s', j->'run'->>'warmup_transactions');
    END IF;
    IF total > 0 THEN
        o := o || format('latency percentiles: min %s ms, p50 %s ms, p90 %s ms, p95 %s ms, p99 %s ms, p99.9 %s ms, max %s ms',
                         l->>'min', l->>'p50', l->>'p90', l->>'p95', l->>'p99', l->>'p99_9', l->>'max');
    END IF;

    -- the server
    o := o || ARRAY['', 'server:'];
    IF s->>'seconds' IS NULL AND EXISTS (
           SELECT FROM bench.sample_counters b JOIN bench.sample_counters a USING (run_id)
            WHERE b.run_id = (j->'run'->>'id')::bigint AND b.phase = 'before' AND a.phase = 'after'
              AND a.server_started IS DISTINCT FROM b.server_started) THEN
        o := o || '  counters not subtracted: the target restarted or failed over during the run (the samples before and after are of another server''s start; bench.interval_counters has the intervals on either side)'::text;
    ELSIF s->>'seconds' IS NULL THEN
        o := o || '  no samples: the run ended before its clients started or its samples were lost'::text;
    ELSE
        o := o || format('  samples: %s s and %s transactions from before the clients started to after they stopped',
                         s->>'seconds', s->>'transactions')
               || format('  WAL: %s bytes (%s generated), %s records, %s full-page images; %s bytes and %s FPI per transaction; %s MB/s',
                         s->'wal'->>'bytes', s->'wal'->>'generated_bytes', s->'wal'->>'records',
                         s->'wal'->>'fpi', s->'wal'->>'bytes_per_tx', s->'wal'->>'fpi_per_tx',
                         s->'wal'->>'mb_per_s')
               || format('  checkpoints during the run: %s timed, %s requested',
                         s->'checkpoints'->>'timed', s->'checkpoints'->>'requested')
               || format('  buffers written: %s by the checkpointer, %s by the background writer, %s by backends; %s allocated',
                         s->'buffers'->>'checkpointer', s->'buffers'->>'bgwriter',
                         COALESCE(s->'buffers'->>'backends', 'unknown'), s->'buffers'->>'allocated');
        IF jsonb_typeof(s->'io') = 'object' THEN
            o := o || format('  IO (pg_stat_io): %s reads, %s writes, %s extends, %s fsyncs',
                             s->'io'->>'reads', s->'io'->>'writes', s->'io'->>'extends', s->'io'->>'fsyncs');
        END IF;
        o := o || format('  cache: %s blocks read and %s hit per transaction, hit ratio %s; %s temp files, %s temp bytes',
                         s->'cache'->>'blks_read_per_tx', s->'cache'->>'blks_hit_per_tx',
                         s->'cache'->>'hit_ratio', s->'cache'->>'temp_files', s->'cache'->>'temp_bytes');
        IF (s->'cpu'->>'available')::boolean THEN
            o := o || format('  CPU: server processes %s s, %s ms per transaction; host busy %s s of %s s',
                             s->'cpu'->>'server_s', s->'cpu'->>'server_ms_per_tx',
                             s->'cpu'->>'host_busy_s', s->'cpu'->>'host_total_s');
        ELSE
            o := o || format('  CPU: not available (%s)', COALESCE(s->'cpu'->>'reason', 'not sampled'));
        END IF;
    END IF;
    IF jsonb_typeof(s->'statements') = 'array' THEN
        o := o || '  top statements (pg_stat_statements, over the run):'::text;
        FOR x IN SELECT * FROM jsonb_array_elements(s->'statements') LOOP
            o := o || format('    %s calls, %s ms total, %s ms mean: %s', x->>'calls', x->>'total_ms',
                             x->>'mean_ms', left(regexp_replace(x->>'query', '\s+', ' ', 'g'), 100));
        END LOOP;
    END IF;
    IF jsonb_typeof(s->'sizes') = 'array' THEN
        o := o || '  sizes before -> after:'::text;
        FOR x IN SELECT * FROM jsonb_array_elements(s->'sizes') LOOP
            o := o || format('    %s %s: %s -> %s', x->>'kind', x->>'relation',
                             COALESCE(pg_size_pretty((x->>'before_bytes')::bigint), '-'),
                             COALESCE(pg_size_pretty((x->>'after_bytes')::bigint), '-'));
        END LOOP;
    END IF;
    IF jsonb_typeof(s->'prewarm') = 'array' THEN
        o := o || format('  prewarm: %s relations, %s blocks in %s s',
                         (SELECT count(*) FROM jsonb_array_elements(s->'prewarm')),
                         (SELECT sum((e->>'blocks')::bigint) FROM jsonb_array_elements(s->'prewarm') e),
                         (SELECT round(sum((e->>'seconds')::numeric), 3) FROM jsonb_array_elements(s->'prewarm') e));
    ELSIF (j->'run'->>'prewarm')::boolean IS FALSE THEN
        o := o || '  prewarm: off (cold cache)'::text;
    END IF;
    IF jsonb_typeof(s->'settings') = 'object' THEN
        o := o || ('  settings: ' || (SELECT string_agg(key || '=' || value, ', ' ORDER BY key)
                                        FROM jsonb_each_text(s->'settings')
                                       WHERE key IN ('wal_level', 'shared_buffers', 'max_wal_size',
                                             'checkpoint_timeout', 'synchronous_commit',
                                             'wal_compression', 'data_checksums', 'huge_pages',
                                             'huge_pages_status', 'fsync', 'full_page_writes',
                                             'io_method'))
                   || format(' (%s settings in bench.runs.settings)',
                             (SELECT count(*) FROM jsonb_object_keys(s->'settings'))));
    END IF;
    IF jsonb_typeof(s->'host') = 'object' THEN
        o := o || format('  host: %s CPUs (%s), %s memory, %s %s; data directory filesystem %s free of %s',
                         s->'host'->>'cpus', COALESCE(s->'host'->>'cpu_model', 'model unknown'),
                         pg_size_pretty((s->'host'->>'memory_bytes')::bigint),
                         s->'host'->>'kernel', s->'host'->>'machine',
                         pg_size_pretty((s->'host'->>'data_directory_fs_free_bytes')::bigint),
                         pg_size_pretty((s->'host'->>'data_directory_fs_bytes')::bigint));
    END IF;
    FOR k, v IN SELECT key, value FROM jsonb_each_text(s->'unavailable') ORDER BY key LOOP
        o := o || format('  not available: %s (%s)', k, v);
    END LOOP;
    -- on_disconnect => 'reconnect': the outage, and what committed
    IF jsonb_typeof(j->'outage') = 'object' THEN
        x := j->'outage';
        o := o || ''::text || 'outage (on_disconnect => reconnect):'::text;
        IF (x->>'outages')::int > 0 THEN
            o := o || format('  %s clients lost their connections: %s outages, %s still open at the end; %s reconnects, %s transactions failed with the connection',
                             x->>'clients_with_outage', x->>'outages', x->>'outages_open', x->>'reconnects',
                             COALESCE(x->>'connection_failures', '0'))
                   || format('  from %s to %s', x->>'started', COALESCE(x->>'ended', '(open at the end)'))
                   || format('  downtime per client: median %s ms, max %s ms; detection max %s ms%s',
                             x->>'downtime_median_ms', x->>'downtime_max_ms', x->>'detection_max_ms',
                             CASE WHEN x->>'response_timeout_ms' IS NOT NULL
                                  THEN format(' (response_timeout %s ms)', x->>'response_timeout_ms') ELSE '' END);
            IF x->>'recovery_ms' IS NOT NULL THEN
                o := o || format('  first commit %s ms after the first lost connection', x->>'recovery_ms');
            END IF;
        ELSE
            o := o || '  no client lost its connection'::text;
        END IF;
        o := o || format('  transactions of unknown outcome (the answer to their commit lost): %s',
                         COALESCE(x->>'unknown_outcome', '0'));
        IF jsonb_typeof(x->'check') = 'object' THEN
            IF x->'check'->>'after' IS NULL THEN
                o := o || format('  check: %s could not be read after the run', x->'check'->>'query');
            ELSE
                o := o || format('  check: %s went from %s to %s for %s transactions counted committed: %s missing, %s of unknown outcome committed',
                                 x->'check'->>'query', x->'check'->>'before', x->'check'->>'after',
                                 x->'check'->>'committed', x->'check'->>'committed_missing',
                                 x->'check'->>'unknown_committed');
            END IF;
        END IF;
    END IF;
    RETURN array_to_string(o, E'\n') || E'\n';
END
$fn$;

COMMENT ON FUNCTION bench.report(bigint) IS
    'A run as text: pgbench''s summary lines, then latency percentiles and what the server did';
