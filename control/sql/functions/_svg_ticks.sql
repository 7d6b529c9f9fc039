--
-- bench._svg_ticks: "nice" axis ticks covering lo..hi in at most n steps,
-- as many as fit, each step 1, 2 or 5 times a power of ten.  The first and
-- last elements are the ends of the axis (lo rounded down, hi up, to the
-- step).  An empty or unknown range still gives an axis: 0..1 for
-- nothing, +-10% around a single value.
--
CREATE OR REPLACE FUNCTION bench._svg_ticks(lo double precision, hi double precision, n integer)
RETURNS double precision[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    mag     double precision;
    m       double precision;
    step    double precision;
    first   double precision;
    last    double precision;
    tmp     double precision;
BEGIN
    -- NaN and the infinities are no range to draw
    IF lo IS NULL OR lo <> lo OR abs(lo) = 'Infinity' THEN
        lo := NULL;
    END IF;
    IF hi IS NULL OR hi <> hi OR abs(hi) = 'Infinity' THEN
        hi := NULL;
    END IF;
    lo := COALESCE(lo, LEAST(hi, 0), 0);
    hi := COALESCE(hi, lo + 1);
    IF hi < lo THEN
        tmp := lo; lo := hi; hi := tmp;
    END IF;
    IF hi = lo THEN
        IF lo = 0 THEN
            hi := 1;
        ELSE
            lo := lo - abs(lo) * 0.1;
            hi := hi + abs(hi) * 0.1;
        END IF;
    END IF;
    n := GREATEST(n, 1);
    -- the smallest step that needs no more than n: from the power of ten
    -- under (hi - lo) / n up.  A value a hair past a round number (a last
    -- interval that ended at 20.005 s) counts as on it: up to 1% of a step.
    mag := power(10::double precision, floor(log((hi - lo) / n)));
    FOREACH m IN ARRAY ARRAY[1, 2, 5, 10, 20, 50]::double precision[] LOOP
        step := mag * m;
        first := floor(lo / step + 0.01) * step;
        last := ceil(hi / step - 0.01) * step;
        IF last <= first THEN
            last := first + step;
        END IF;
        EXIT WHEN round((last - first) / step) <= n;
    END LOOP;
    RETURN ARRAY(SELECT first + i * step
                   FROM generate_series(0, round((last - first) / step)::integer) i);
END
$fn$;

COMMENT ON FUNCTION bench._svg_ticks(double precision, double precision, integer) IS
    'Internal (charts): nice axis ticks (1-2-5 steps) covering a range';
