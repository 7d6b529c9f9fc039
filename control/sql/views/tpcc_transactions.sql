--
-- bench.tpcc_transactions: each TPC-C transaction type of a run (the
-- scripts of bench.tpcc_script, one per type), as go-tpc's summary
-- reports them: how many, how many rolled back, per minute, and their
-- latency percentiles.  The mode (procedures or statements) is the run's:
-- its recorded variable :statements (bench.run's mode argument).
--
CREATE OR REPLACE VIEW bench.tpcc_transactions AS
SELECT rs.run_id,
       t.m[1] AS transaction,
       CASE WHEN r.variables->>'statements' = '1' THEN 'statements' ELSE 'procedures' END AS mode,
       rs.script_no,
       rs.weight,
       rs.transactions,
       rs.rollbacks,
       rs.transactions - rs.rollbacks AS committed,
       rs.failures,
       60 * rs.transactions / NULLIF(r.measured_s, 0) AS per_minute,
       rs.latency_avg_ms,
       rs.latency_p50_ms,
       rs.latency_p90_ms,
       rs.latency_p95_ms,
       rs.latency_p99_ms,
       rs.latency_max_ms
  FROM bench.run_scripts rs
  JOIN bench.runs r ON r.id = rs.run_id
 CROSS JOIN LATERAL (SELECT pg_catalog.regexp_match(rs.script,
                            '^-- <builtin: TPC-C (new-order|payment|order-status|delivery|stock-level)>') AS m) t
 WHERE t.m IS NOT NULL;

COMMENT ON VIEW bench.tpcc_transactions IS
    'Each TPC-C transaction type of a run (bench.tpcc_script''s scripts): count, rollbacks, per minute, latency percentiles (go-tpc''s summary)';
GRANT SELECT ON bench.tpcc_transactions TO PUBLIC;
