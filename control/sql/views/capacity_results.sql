--
-- bench.capacity_results: the answer of every capacity search
-- (bench.capacity), from its runs (bench._capacity_search).
--
CREATE OR REPLACE VIEW bench.capacity_results AS
SELECT s.id AS suite_id, s.status, s.workload, s.clients[1] AS clients, s.tag,
       s.capacity->>'slo' AS slo,
       (s.capacity->>'percentile')::double precision AS percentile,
       (s.capacity->>'limit_ms')::double precision AS limit_ms,
       (s.capacity->>'max_failure_rate')::double precision AS max_failure_rate,
       (s.capacity->>'precision')::double precision AS "precision",
       c.capacity_tps, c.last_pass_rate, c.first_fail_rate, c.achieved_tps,
       c.percentile_ms, c.ci_low_ms, c.ci_high_ms, c.fail_percentile_ms,
       c.pass_run_ids, c.fail_run_ids, c.probe_tps, c.runs, c.repeats,
       c.precision_reached, c.limited_by, c.note,
       s.server_version, s.started_at, s.ended_at,
       p.currency, bench._cost_per_million(p.price_per_hour, c.capacity_tps) AS cost_per_million
  FROM bench.suites s
  CROSS JOIN LATERAL bench._capacity_search(s.id) c
  -- the price of the server at the capacity found: its passing runs'
  LEFT JOIN LATERAL (SELECT r.price_per_hour, r.currency FROM bench.runs r
                      WHERE r.id = c.pass_run_ids[1]) p ON true
 WHERE s.capacity IS NOT NULL;

COMMENT ON VIEW bench.capacity_results IS
    'Capacity searches (bench.capacity): the highest rate found within the objective, the rates and runs around it, and what limited it';
GRANT SELECT ON bench.capacity_results TO PUBLIC;
