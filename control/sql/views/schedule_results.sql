--
-- bench.schedule_results: every finished suite of a schedule, per client
-- count (and target, for a schedule over several), against its rolling
-- baseline: the median tps of the same client count on the same target
-- over the schedule's previous baseline_runs finished suites.  A schedule
-- of capacity searches is judged by the capacity each found.
--
CREATE OR REPLACE VIEW bench.schedule_results AS
WITH per AS (
    SELECT s.schedule, s.id AS suite_id, s.started_at, m.clients,
           m.tps_median AS tps, m.latency_p99_ms_median AS latency_p99_ms, m.target
      FROM bench.suites s
      JOIN bench.suite_summary m ON m.suite_id = s.id
     WHERE s.schedule IS NOT NULL AND s.status = 'done' AND s.capacity IS NULL
    UNION ALL
    -- a capacity search: the capacity it found (none: 0), and the
    -- objective's percentile there
    SELECT s.schedule, s.id, s.started_at, c.clients,
           COALESCE(c.capacity_tps, 0), c.percentile_ms, s.args ->> 'target'
      FROM bench.suites s
      JOIN bench.capacity_results c ON c.suite_id = s.id
     WHERE s.schedule IS NOT NULL AND s.status = 'done' AND s.capacity IS NOT NULL)
SELECT p.schedule, p.suite_id, p.started_at, p.clients, p.tps, p.latency_p99_ms,
       b.runs AS baseline_runs,
       b.tps AS baseline_tps,
       b.latency_p99_ms AS baseline_latency_p99_ms,
       p.tps / NULLIF(b.tps, 0) AS tps_ratio,
       p.latency_p99_ms / NULLIF(b.latency_p99_ms, 0) AS latency_p99_ratio,
       COALESCE(sc.threshold, 0.05) AS threshold,
       COALESCE(b.runs > 0 AND p.tps < b.tps * (1 - COALESCE(sc.threshold, 0.05)), false) AS regression,
       p.target
  FROM per p
  LEFT JOIN bench.schedules sc ON sc.name = p.schedule
  LEFT JOIN LATERAL (
       SELECT count(*)::integer AS runs,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY q.tps) AS tps,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY q.latency_p99_ms) AS latency_p99_ms
         FROM (SELECT q.tps, q.latency_p99_ms
                 FROM per q
                WHERE q.schedule = p.schedule AND q.clients = p.clients
                  -- each target against its own past
                  AND q.target IS NOT DISTINCT FROM p.target
                  AND q.started_at < p.started_at
                ORDER BY q.started_at DESC
                LIMIT COALESCE(sc.baseline_runs, 5)) q) b ON true;

COMMENT ON VIEW bench.schedule_results IS
    'Each finished scheduled suite per client count and target against the median of the schedule''s previous runs on that target; regression when tps fell by more than the threshold';
GRANT SELECT ON bench.schedule_results TO PUBLIC;
