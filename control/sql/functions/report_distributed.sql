--
-- bench.report_distributed: a distributed run (part_of =>) as text: its
-- parts, one line each (node, host, target, clients, what each measured),
-- then the whole as pgbench prints a run's summary, from
-- bench.distributed_runs.
--
CREATE OR REPLACE FUNCTION bench.report_distributed(part_of text)
RETURNS text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    d       record;
    r       record;
    o       text[] := '{}';
    n       integer := 0;
BEGIN
    IF report_distributed.part_of IS NULL THEN
        RAISE EXCEPTION 'part_of must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Name a distributed run: bench.distributed_runs() lists them.';
    END IF;
    SELECT * INTO d FROM bench.distributed_runs(report_distributed.part_of);
    IF NOT FOUND THEN
        RAISE EXCEPTION 'distributed run "%" does not exist', report_distributed.part_of
            USING ERRCODE = 'no_data_found',
                  HINT = 'Its parts are the runs started with part_of => that name (bench.distributed_runs() lists them); on a central database, once their rows have arrived.';
    END IF;
    o := o || format('distributed run: %s (%s parts, %s)', d.part_of, d.parts, d.status)
           || format('measured part started at: %s', d.start_at);
    FOR r IN SELECT x.* FROM bench.runs x
              WHERE x.part_of = report_distributed.part_of ORDER BY x.id
    LOOP
        n := n + 1;
        o := o || format('part %s: run %s%s%s, %s, %s clients: %s transactions, %s tps, %s failed, %s',
                         n, r.id,
                         CASE WHEN r.node_name IS NOT NULL THEN format(' on node %s', r.node_name) ELSE '' END,
                         CASE WHEN r.node_host IS NOT NULL THEN format(' (host %s)', r.node_host) ELSE '' END,
                         CASE WHEN r.target IS NOT NULL THEN format('target %s', r.target) ELSE 'in the server' END,
                         r.clients, COALESCE(r.transactions::text, '-'),
                         COALESCE(to_char(r.tps, 'FM999999990.000'), '-'), COALESCE(r.failures::text, '-'),
                         r.status);
    END LOOP;
    o := o || format('number of clients: %s', d.clients)
           || format('number of transactions actually processed: %s', COALESCE(d.transactions, 0))
           || format('number of failed transactions: %s (%s%%)', COALESCE(d.failures, 0),
                     to_char(COALESCE(100.0 * d.failures / NULLIF(d.transactions + d.failures, 0), 0), 'FM990.000'))
           || format('measured: %s s, from the agreed start to the last counted commit of any part',
                     COALESCE(to_char(d.measured_s, 'FM999999990.000'), '-'))
           || format('measured starts of the parts: within %s ms of each other',
                     COALESCE(to_char(d.start_spread_ms, 'FM999999990.000'), '-'))
           || format('latency average = %s ms', COALESCE(to_char(d.latency_avg_ms, 'FM999999990.000'), '-'))
           || format('latency percentiles (from the summed histograms): min %s ms, p50 %s ms, p90 %s ms, p95 %s ms, p99 %s ms, p99.9 %s ms, max %s ms',
                     COALESCE(to_char(d.latency_min_ms, 'FM999999990.000'), '-'),
                     COALESCE(to_char(d.latency_p50_ms, 'FM999999990.000'), '-'),
                     COALESCE(to_char(d.latency_p90_ms, 'FM999999990.000'), '-'),
                     COALESCE(to_char(d.latency_p95_ms, 'FM999999990.000'), '-'),
                     COALESCE(to_char(d.latency_p99_ms, 'FM999999990.000'), '-'),
                     COALESCE(to_char(d.latency_p999_ms, 'FM999999990.000'), '-'),
                     COALESCE(to_char(d.latency_max_ms, 'FM999999990.000'), '-'))
           || format('tps = %s (without initial connection time)',
                     COALESCE(to_char(d.tps, 'FM999999990.000000'), '-'));
    RETURN array_to_string(o, E'\n');
END
$fn$;

COMMENT ON FUNCTION bench.report_distributed(text) IS
    'A distributed run (part_of =>) as text: each part, then the whole merged as pgbench prints a run';
