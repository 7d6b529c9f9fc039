--
-- bench.export_runs: one row per run, scalar columns only.
--
CREATE OR REPLACE VIEW bench.export_runs AS
SELECT r.id, r.suite_id, r.tag, r.workload, r.scale, r.clients, r.protocol,
       extract(epoch FROM r.duration)::double precision AS duration_s,
       r.transactions_per_client, r.status, r.server_version, r.started_at, r.ended_at,
       r.measured_s, r.transactions, r.tps,
       r.latency_avg_ms, r.latency_stddev_ms, r.latency_min_ms, r.latency_p50_ms,
       r.latency_p90_ms, r.latency_p95_ms, r.latency_p99_ms, r.latency_p999_ms, r.latency_max_ms,
       r.failures, r.retries,
       c.wal_bytes_per_tx, c.wal_fpi_per_tx,
       c.checkpoints_timed + c.checkpoints_requested AS checkpoints,
       c.blks_read_per_tx, c.cache_hit_ratio, c.server_cpu_ms_per_tx,
       r.price_per_hour, r.currency,
       bench._cost_per_million(r.price_per_hour, r.tps) AS cost_per_million
  FROM bench.runs r0
 CROSS JOIN LATERAL bench._run_state(r0) r
  LEFT JOIN bench.run_counters c ON c.run_id = r.id
 ORDER BY r.id;

COMMENT ON VIEW bench.export_runs IS
    'One flat row per run for CSV export: parameters, status, summary, WAL, FPI, checkpoints, blocks read and CPU per transaction, and price and cost per million transactions';
GRANT SELECT ON bench.export_runs TO PUBLIC;
