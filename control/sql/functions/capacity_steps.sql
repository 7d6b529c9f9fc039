--
-- bench.capacity_steps: each rate a capacity search offered, in the order it
-- first offered it, over its runs that ended done there (repeats pooled):
-- what the server achieved, the objective's percentile from the pooled
-- latency histogram with its 95% confidence interval, and the verdict.
--
-- The interval is the distribution-free one of a quantile: of n latencies,
-- the q-quantile lies between the values of ranks n q -/+ 1.96 sqrt(n q
-- (1 - q)) with 95% probability (the binomial's normal approximation), read
-- from the histogram as its percentiles are (the midpoint of the bucket
-- holding the rank).  A rate passes when the interval lies within the limit,
-- fails when it lies above it, and is repeated when the limit is inside it,
-- up to max_repeats more runs; then the pooled percentile decides.  A rate
-- fails too when the achieved rate falls short of the offered one by more
-- than the Poisson schedule's own noise (4 standard deviations, and at
-- least 2%), or more transactions failed than max_failure_rate allows.
--
CREATE OR REPLACE FUNCTION bench.capacity_steps(suite_id bigint)
RETURNS TABLE (step_no integer, rate double precision, runs integer, run_ids bigint[],
               transactions bigint, measured_s double precision, achieved_tps double precision,
               percentile_ms double precision, ci_low_ms double precision, ci_high_ms double precision,
               limit_ms double precision, failure_rate double precision,
               latency_avg_ms double precision, lag_avg_ms double precision, client_busy double precision,
               verdict text, reason text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
WITH s AS (
    SELECT t.id, t.clients[1] AS clients, (t.capacity->>'percentile')::double precision / 100 AS q,
           (t.capacity->>'limit_ms')::double precision AS limit_ms,
           (t.capacity->>'max_failure_rate')::double precision AS max_failure_rate,
           (t.capacity->>'max_repeats')::integer AS max_repeats
      FROM bench.suites t
     WHERE t.id = capacity_steps.suite_id AND t.capacity IS NOT NULL
), g AS (
    SELECT r.rate, min(r.id) AS first_id, array_agg(r.id ORDER BY r.id) AS run_ids,
           count(*)::integer AS runs, sum(r.transactions)::bigint AS transactions,
           sum(r.measured_s) AS measured_s, sum(r.failures)::bigint AS failures,
           sum(r.transactions * r.latency_avg_ms) / NULLIF(sum(r.transactions), 0) AS latency_avg_ms,
           sum(r.transactions * r.lag_avg_ms) / NULLIF(sum(r.transactions), 0) AS lag_avg_ms
      FROM bench.runs r, s
     WHERE r.suite_id = s.id AND r.status = 'done'
     GROUP BY r.rate
), h AS (
    -- the pooled histogram of each rate, its cumulative counts and ranks
    SELECT g.first_id, b.lower_ms, b.upper_ms,
           sum(sum(b.count)) OVER (PARTITION BY g.first_id ORDER BY b.lower_ms) AS cum,
           sum(sum(b.count)) OVER (PARTITION BY g.first_id) AS n
      FROM g, bench.histograms b
     WHERE b.run_id = ANY (g.run_ids)
     GROUP BY g.first_id, b.lower_ms, b.upper_ms
), p AS (
    SELECT k.first_id,
           min((k.lower_ms + k.upper_ms) / 2) FILTER (WHERE k.cum >= k.r_mid) AS percentile_ms,
           min((k.lower_ms + k.upper_ms) / 2) FILTER (WHERE k.cum >= k.r_low) AS ci_low_ms,
           min((k.lower_ms + k.upper_ms) / 2) FILTER (WHERE k.cum >= k.r_high) AS ci_high_ms
      FROM (SELECT h.*,
                   greatest(1, ceil(h.n * s.q)) AS r_mid,
                   greatest(1, floor(h.n * s.q - 1.96 * sqrt(h.n * s.q * (1 - s.q)))) AS r_low,
                   least(h.n, ceil(h.n * s.q + 1.96 * sqrt(h.n * s.q * (1 - s.q))) + 1) AS r_high
              FROM h, s) k
     GROUP BY k.first_id
), j AS (
    SELECT g.*, p.percentile_ms, p.ci_low_ms, p.ci_high_ms, s.limit_ms, s.clients, s.max_repeats,
           g.transactions / NULLIF(g.measured_s, 0) AS achieved_tps,
           g.failures::double precision / NULLIF(g.transactions + g.failures, 0) AS failure_rate,
           s.max_failure_rate
      FROM g LEFT JOIN p ON p.first_id = g.first_id, s
)
SELECT (row_number() OVER (ORDER BY j.first_id))::integer, j.rate, j.runs, j.run_ids,
       j.transactions, j.measured_s, j.achieved_tps,
       j.percentile_ms, j.ci_low_ms, j.ci_high_ms, j.limit_ms, j.failure_rate,
       j.latency_avg_ms, j.lag_avg_ms,
       -- the share of the clients' time spent in transactions (not waiting for their schedule)
       j.transactions * (j.latency_avg_ms - coalesce(j.lag_avg_ms, 0)) / 1000
           / NULLIF(j.clients * j.measured_s, 0),
       v.verdict, v.reason
  FROM j,
       LATERAL (SELECT CASE
           WHEN j.rate IS NULL THEN 'probe'
           WHEN j.max_failure_rate IS NOT NULL AND coalesce(j.failure_rate, 1) > j.max_failure_rate THEN 'fail'
           WHEN coalesce(j.transactions, 0) = 0 THEN 'fail'
           WHEN j.achieved_tps < j.rate * (1 - greatest(0.02, 4 / sqrt(j.rate * j.measured_s))) THEN 'fail'
           WHEN j.ci_low_ms > j.limit_ms THEN 'fail'
           WHEN j.ci_high_ms <= j.limit_ms THEN 'pass'
           WHEN j.runs <= j.max_repeats THEN 'uncertain'
           WHEN j.percentile_ms <= j.limit_ms THEN 'pass'
           ELSE 'fail' END AS verdict,
           CASE
           WHEN j.rate IS NULL THEN 'unthrottled: the rates start at an eighth of its tps'
           WHEN j.max_failure_rate IS NOT NULL AND coalesce(j.failure_rate, 1) > j.max_failure_rate
               THEN 'failure rate above max_failure_rate'
           WHEN coalesce(j.transactions, 0) = 0 THEN 'no transaction'
           WHEN j.achieved_tps < j.rate * (1 - greatest(0.02, 4 / sqrt(j.rate * j.measured_s)))
               THEN 'achieved rate below the offered rate'
           WHEN j.ci_low_ms > j.limit_ms THEN 'percentile above the limit'
           WHEN j.ci_high_ms <= j.limit_ms THEN 'percentile within the limit'
           WHEN j.runs <= j.max_repeats THEN 'limit within the percentile''s confidence interval: repeated'
           WHEN j.percentile_ms <= j.limit_ms
               THEN 'limit within the confidence interval after every repeat; the pooled percentile is within it'
           ELSE 'limit within the confidence interval after every repeat; the pooled percentile is above it' END
           AS reason) v
 ORDER BY j.first_id
$fn$;

COMMENT ON FUNCTION bench.capacity_steps(bigint) IS
    'Each rate a capacity search offered: achieved rate, the objective''s percentile with its confidence interval, verdict';
