--
-- bench._run_cv: how much each run varied while it ran, per metric: the
-- coefficient of variation (stddev / mean) of its per-interval series,
-- the noise estimate of a single run that bench.compare and
-- bench.compare_many share.  The series: the progress rows out of the
-- warm-up (a last interval shorter than half the others left out) for
-- tps, latency average (also standing for p50 and p95, which progress rows
-- do not have) and p99; the sample intervals while the clients ran for
-- WAL (from the insert position: pg_stat_wal's counters reach a sample up
-- to a second late, its per-interval series would be noise of the
-- sampling, not of the run), FPI and blocks read per transaction.  A
-- series of fewer than 3 points has no cv (NULL); one that is 0
-- throughout has a cv of 0.
--
CREATE OR REPLACE FUNCTION bench._run_cv(run_ids bigint[])
RETURNS TABLE (run_id bigint, metric text, cv double precision)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
WITH series (run_id, metric, v) AS (
    SELECT p.run_id, s.metric, s.v
      FROM bench.progress p
      JOIN bench.runs r ON r.id = p.run_id
     CROSS JOIN LATERAL (VALUES
           ('tps', p.tps),
           ('latency_avg_ms', p.latency_avg_ms),
           ('latency_p50_ms', p.latency_avg_ms),
           ('latency_p95_ms', p.latency_avg_ms),
           ('latency_p99_ms', p.latency_p99_ms),
           -- the price over tps: tps's relative noise
           ('cost_per_million', p.tps)) AS s (metric, v)
     WHERE p.run_id = ANY (run_ids)
       AND NOT p.in_warmup
       AND extract(epoch FROM p.interval_end - p.interval_start)
           >= 0.5 * extract(epoch FROM r.progress)
    UNION ALL
    SELECT i.run_id, s.metric, s.v
      FROM bench.interval_counters i
      JOIN bench.runs r ON r.id = i.run_id
     CROSS JOIN LATERAL (VALUES
           ('wal_bytes_per_tx', (i.wal_generated_bytes / i.transactions)::float8),
           ('wal_fpi_per_tx', (i.wal_fpi::numeric / i.transactions)::float8),
           ('blks_read_per_tx', (i.blks_read::numeric / i.transactions)::float8)) AS s (metric, v)
     WHERE i.run_id = ANY (run_ids)
       AND i.phase = 'during' AND i.transactions > 0
       AND i.elapsed_s > extract(epoch FROM r.warmup)
)
-- the values summed in one order, their own, whatever order the plan reads
-- them in: the same series gives the same cv to the last digit (a run and
-- its imported copy compare alike)
SELECT series.run_id, series.metric,
       CASE WHEN count(series.v) < 3 THEN NULL
            WHEN avg(series.v ORDER BY series.v) = 0 THEN 0
            ELSE stddev_samp(series.v ORDER BY series.v) / abs(avg(series.v ORDER BY series.v)) END
  FROM series
 GROUP BY series.run_id, series.metric
$fn$;

COMMENT ON FUNCTION bench._run_cv(bigint[]) IS
    'Internal (comparisons): each run''s coefficient of variation per metric, from its per-interval series';
