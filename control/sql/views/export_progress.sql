--
-- bench.export_progress: the progress rows of every run.
--
CREATE OR REPLACE VIEW bench.export_progress AS
SELECT p.run_id, p.elapsed_s, p.tps, p.latency_avg_ms, p.latency_stddev_ms,
       p.latency_p99_ms, p.latency_max_ms, p.failures, p.in_warmup
  FROM bench.progress p
 ORDER BY p.run_id, p.interval_start;

COMMENT ON VIEW bench.export_progress IS
    'The progress rows of every run for CSV export: seconds since the start, tps, latency, failures, warm-up';
GRANT SELECT ON bench.export_progress TO PUBLIC;
