--
-- bench.tpcc_results: a TPC-C run's results as the field reports them.
--
--   nopm       new orders committed per minute of the measured time, as
--              the clients counted them (HammerDB's NOPM, counted)
--   nopm_server  the same from the districts' d_next_o_id, from the
--              sample before the clients start to the one after they stop,
--              per minute of that span (HammerDB's own reading); with no
--              warm-up, new_orders_server = new_orders: every commit seen
--              by both
--   tpm        HammerDB's TPM: commits and rollbacks of the benchmarked
--              database (pg_stat_database) per minute, over the same span
--   tpmc       go-tpc's tpmC: new-order transactions completed (rolled
--              back ones included) per minute
--   tpm_total  go-tpc's tpmTotal: the five types' transactions per minute
--
CREATE OR REPLACE VIEW bench.tpcc_results AS
SELECT r.id AS run_id,
       r.workload,
       r.target,
       r.status,
       r.scale AS warehouses,
       r.clients,
       min(t.mode) AS mode,
       r.measured_s,
       sum(t.committed) FILTER (WHERE t.transaction = 'new-order') AS new_orders,
       sum(t.rollbacks) FILTER (WHERE t.transaction = 'new-order') AS new_orders_rolled_back,
       60 * sum(t.committed) FILTER (WHERE t.transaction = 'new-order') / NULLIF(r.measured_s, 0) AS nopm,
       s.new_orders AS new_orders_server,
       60 * s.new_orders / NULLIF(s.span_s, 0) AS nopm_server,
       60 * s.xacts / NULLIF(s.span_s, 0) AS tpm,
       60 * sum(t.transactions) FILTER (WHERE t.transaction = 'new-order') / NULLIF(r.measured_s, 0) AS tpmc,
       60 * sum(t.transactions) / NULLIF(r.measured_s, 0) AS tpm_total,
       r.price_per_hour,
       r.currency,
       -- the price of a million new orders at the run's pace
       bench._cost_per_million(r.price_per_hour,
                               sum(t.committed) FILTER (WHERE t.transaction = 'new-order') / NULLIF(r.measured_s, 0))
           AS cost_per_million_new_orders
  FROM bench.runs r
  JOIN bench.tpcc_transactions t ON t.run_id = r.id
  LEFT JOIN LATERAL (
        SELECT (a.data->'dataset'->>'d_next_o_id')::bigint - (b.data->'dataset'->>'d_next_o_id')::bigint AS new_orders,
               (a.data->'database'->>'xact_commit')::bigint + (a.data->'database'->>'xact_rollback')::bigint
               - (b.data->'database'->>'xact_commit')::bigint - (b.data->'database'->>'xact_rollback')::bigint AS xacts,
               a.elapsed_s - b.elapsed_s AS span_s
          FROM bench.samples b, bench.samples a
         WHERE b.run_id = r.id AND b.phase = 'before' AND a.run_id = r.id AND a.phase = 'after') s ON true
 GROUP BY r.id, r.workload, r.target, r.status, r.scale, r.clients, r.measured_s, r.price_per_hour, r.currency,
          s.new_orders, s.xacts, s.span_s;

COMMENT ON VIEW bench.tpcc_results IS
    'TPC-C runs as the field reports them: NOPM (counted by the clients, and from d_next_o_id as HammerDB reads it), HammerDB''s TPM, go-tpc''s tpmC and tpmTotal';
GRANT SELECT ON bench.tpcc_results TO PUBLIC;
