--
-- bench._judge: the noise and the verdict of b against a, the rules of
-- bench.compare that bench.compare_many shares.  Each side is its value
-- (a median), its range over its runs (lo, hi), how many runs it has (n)
-- and, for a side of one run, the cv of that run's series
-- (bench._run_cv).  With repeats on either side the noise is the larger
-- relative half-range, (hi - lo) / 2 / value, and a change counts only
-- over the threshold with ranges that do not overlap; between single runs
-- the noise is sqrt((cv_a^2 + cv_b^2) / 2), and a change counts only over
-- max(threshold, 3 * noise).  A change from 0 counts as 100%.  The
-- verdict: improvement or regression (by higher, whether more is better),
-- within noise, or NULL when either value is unknown.
--
CREATE OR REPLACE FUNCTION bench._judge(va double precision, lo_a double precision, hi_a double precision,
                                        n_a bigint, cv_a double precision,
                                        vb double precision, lo_b double precision, hi_b double precision,
                                        n_b bigint, cv_b double precision,
                                        higher boolean, threshold double precision,
                                        OUT noise double precision, OUT verdict text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT q.noise,
       CASE WHEN va IS NULL OR vb IS NULL THEN NULL
            WHEN va = vb THEN 'within noise'
            WHEN q.by_range AND NOT (q.change > threshold AND (hi_a < lo_b OR hi_b < lo_a))
            THEN 'within noise'
            WHEN NOT q.by_range AND NOT q.change > GREATEST(threshold, 3 * COALESCE(q.noise, 0))
            THEN 'within noise'
            WHEN (vb > va) = higher THEN 'improvement'
            ELSE 'regression' END
  FROM (SELECT n_a >= 1 AND n_b >= 1 AND (n_a >= 2 OR n_b >= 2) AS by_range,
               CASE WHEN n_a >= 2 OR n_b >= 2
                    THEN GREATEST((hi_a - lo_a) / 2 / NULLIF(abs(va), 0),
                                  (hi_b - lo_b) / 2 / NULLIF(abs(vb), 0))
                    ELSE sqrt((cv_a ^ 2 + cv_b ^ 2) / 2) END AS noise,
               CASE WHEN va = 0 THEN 1 ELSE abs(vb / va - 1) END AS change) q
$fn$;

COMMENT ON FUNCTION bench._judge(double precision, double precision, double precision, bigint, double precision,
                                 double precision, double precision, double precision, bigint, double precision,
                                 boolean, double precision) IS
    'Internal (comparisons): noise and verdict of one value against another, with repeats by their ranges, single runs by their series'' cv';
