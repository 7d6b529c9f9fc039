--
-- bench.export_suites: per suite and client count, as bench.suite_summary.
--
CREATE OR REPLACE VIEW bench.export_suites AS
SELECT m.suite_id, s.schedule, s.tag, s.workload, m.clients, m.runs_done, m.runs_planned,
       m.tps_median, m.tps_min, m.tps_max,
       m.latency_p95_ms_median, m.latency_p99_ms_median, m.target
  FROM bench.suite_summary m
  JOIN bench.suites s ON s.id = m.suite_id
 ORDER BY m.suite_id, m.position, array_position(s.targets, m.target);

COMMENT ON VIEW bench.export_suites IS
    'Per suite and client count (and target) for CSV export: runs done of planned, median, min and max tps, median p95 and p99 latency';
GRANT SELECT ON bench.export_suites TO PUBLIC;
