-- the latency histogram of a run's measured intervals, from its progress rows
CREATE OR REPLACE FUNCTION bench._progress_histogram(run_id bigint)
RETURNS TABLE (lower_ms double precision, upper_ms double precision, count bigint)
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT h.lower_ms, h.upper_ms, sum(h.count)::bigint
  FROM bench.progress q,
       unnest(q.histogram_lower_ms, q.histogram_upper_ms, q.histogram_count) AS h (lower_ms, upper_ms, count)
 WHERE q.run_id = _progress_histogram.run_id AND NOT q.in_warmup
 GROUP BY h.lower_ms, h.upper_ms
 ORDER BY h.lower_ms
$fn$;

COMMENT ON FUNCTION bench._progress_histogram(bigint) IS
    'Internal: the latency histogram of a run''s measured progress intervals, merged';
