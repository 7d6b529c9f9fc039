--
-- bench.suite_summary: per suite and client count (and target, for a suite
-- over several), the median, min and max over the finished repeats.
--
CREATE OR REPLACE VIEW bench.suite_summary AS
SELECT s.id AS suite_id, c.clients, c.pos::integer AS position,
       CASE WHEN s.capacity IS NULL THEN s.repeat ELSE s.runs_planned END AS runs_planned,
       count(r.id)::integer AS runs_done,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY r.tps) AS tps_median,
       min(r.tps) AS tps_min,
       max(r.tps) AS tps_max,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY r.latency_avg_ms) AS latency_avg_ms_median,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY r.latency_p95_ms) AS latency_p95_ms_median,
       min(r.latency_p95_ms) AS latency_p95_ms_min,
       max(r.latency_p95_ms) AS latency_p95_ms_max,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY r.latency_p99_ms) AS latency_p99_ms_median,
       min(r.latency_p99_ms) AS latency_p99_ms_min,
       max(r.latency_p99_ms) AS latency_p99_ms_max,
       array_agg(r.id ORDER BY r.id) FILTER (WHERE r.id IS NOT NULL) AS run_ids,
       t.target,
       -- the price: only when every finished run has one, all in one
       -- currency (a median of some runs' costs would speak for all)
       CASE WHEN count(r.id) > 0 AND count(r.currency) = count(r.id) AND min(r.currency) = max(r.currency)
            THEN min(r.currency) END AS currency,
       CASE WHEN count(r.id) > 0 AND count(r.currency) = count(r.id) AND min(r.currency) = max(r.currency)
            THEN percentile_cont(0.5) WITHIN GROUP (ORDER BY bench._cost_per_million(r.price_per_hour, r.tps))
            END AS cost_per_million_median,
       -- TPC-C: new orders committed per minute (bench.tpcc_results), NULL
       -- for runs without new orders
       percentile_cont(0.5) WITHIN GROUP (ORDER BY o.nopm) AS nopm_median,
       min(o.nopm) AS nopm_min,
       max(o.nopm) AS nopm_max
  FROM bench.suites s
 CROSS JOIN LATERAL pg_catalog.unnest(s.clients) WITH ORDINALITY AS c(clients, pos)
 -- a suite over several targets: each of them (local: this server); else its target
 CROSS JOIN LATERAL pg_catalog.unnest(COALESCE(s.targets, ARRAY[s.args ->> 'target'])) AS t(target)
  LEFT JOIN bench.runs r ON r.suite_id = s.id AND r.clients = c.clients AND r.status = 'done'
       -- a suite of steps: the run of the step at that position
       AND (s.steps IS NULL OR r.step = s.steps -> (c.pos::integer - 1) ->> 'step')
       AND (s.targets IS NULL OR r.target IS NOT DISTINCT FROM NULLIF(t.target, 'local'))
  LEFT JOIN LATERAL bench._tpcc_rates(r.id) o ON true
 GROUP BY s.id, c.clients, c.pos, s.repeat, s.capacity, s.runs_planned, t.target;

COMMENT ON VIEW bench.suite_summary IS
    'Per suite and client count (and target): runs done of planned, median, min and max of tps and latency percentiles, the median cost per million transactions when every run has a price in one currency, and TPC-C''s NOPM';
GRANT SELECT ON bench.suite_summary TO PUBLIC;
