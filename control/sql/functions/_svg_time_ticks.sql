--
-- bench._svg_time_ticks: ticks of a time axis from lo to hi, about n of
-- them, at round times of the session's time zone (every 5 minutes, 6
-- hours, 1 day, 1 month...).  A label has two lines: the time in the
-- step's unit, and under it the date (or year), on the first tick and
-- where it changes.
--
CREATE OR REPLACE FUNCTION bench._svg_time_ticks(lo timestamptz, hi timestamptz, n integer,
                                                 OUT ticks timestamptz[], OUT labels text[])
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    steps   constant interval[] := ARRAY[
                '1 s', '2 s', '5 s', '10 s', '15 s', '30 s',
                '1 min', '2 min', '5 min', '10 min', '15 min', '30 min',
                '1 hour', '2 hours', '3 hours', '6 hours', '12 hours',
                '1 day', '2 days', '7 days', '14 days',
                '1 mon', '2 mons', '3 mons', '6 mons',
                '1 year', '2 years', '5 years', '10 years']::interval[];
    span    double precision := extract(epoch FROM hi - lo);
    step    interval;
    start   timestamptz;
    t       timestamptz;
    k       integer := 0;
    fmt1    text;
    fmt2    text;
    line2   text;
    prev2   text;
BEGIN
    ticks := '{}';
    labels := '{}';
    -- the smallest step that gives no more than n ticks
    FOREACH step IN ARRAY steps LOOP
        EXIT WHEN span / extract(epoch FROM step) <= GREATEST(n, 1);
    END LOOP;
    IF step < '1 min' THEN
        start := date_trunc('minute', lo); fmt1 := 'HH24:MI:SS'; fmt2 := 'YYYY-MM-DD';
    ELSIF step < '1 hour' THEN
        start := date_trunc('hour', lo); fmt1 := 'HH24:MI'; fmt2 := 'YYYY-MM-DD';
    ELSIF step < '1 day' THEN
        start := date_trunc('day', lo); fmt1 := 'HH24:MI'; fmt2 := 'YYYY-MM-DD';
    ELSIF step < '7 days' THEN
        start := date_trunc('day', lo); fmt1 := 'Mon FMDD'; fmt2 := 'YYYY';
    ELSIF step < '1 mon' THEN
        start := date_trunc('week', lo); fmt1 := 'Mon FMDD'; fmt2 := 'YYYY';
    ELSIF step < '1 year' THEN
        start := date_trunc('year', lo); fmt1 := 'Mon'; fmt2 := 'YYYY';
    ELSE
        start := date_trunc('decade', lo); fmt1 := 'YYYY'; fmt2 := NULL;
    END IF;
    LOOP
        t := start + step * k;
        EXIT WHEN t > hi OR k > 1000;
        k := k + 1;
        CONTINUE WHEN t < lo;
        line2 := to_char(t, fmt2);
        ticks := ticks || t;
        labels := labels || (to_char(t, fmt1)
                             || CASE WHEN line2 IS DISTINCT FROM prev2 THEN E'\n' || line2 ELSE '' END);
        prev2 := line2;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION bench._svg_time_ticks(timestamptz, timestamptz, integer) IS
    'Internal (charts): ticks and labels of a time axis';
