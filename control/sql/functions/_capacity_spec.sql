--
-- bench._capacity_spec: a capacity search's own arguments checked before
-- anything starts, and added to the suite SPEC (a sweep of its one client
-- count, as the library checked it) as "capacity"; without SPEC, only the
-- checks that need nothing of the suite, and NULL.  The objective is read from
-- its text (a percentile, <= and a limit with its unit), the failure rate a
-- passing rate may have, the precision and the budget.  FN names the
-- function called in messages.
--
CREATE OR REPLACE FUNCTION bench._capacity_spec(spec jsonb, slo text, max_failure_rate double precision,
                                                "precision" double precision, max_runs integer,
                                                max_time interval, start_rate double precision,
                                                max_repeats integer, fn text)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    m          text[];
    pct        numeric;
    lim        numeric;
    unit       text;
    limit_ms   double precision;
    clients    integer := (spec->'clients'->>0)::integer;
    run_s      double precision;
BEGIN
    m := regexp_match(slo, '^\s*p([0-9]+(?:\.[0-9]+)?)\s*<=\s*([0-9]+(?:\.[0-9]+)?(?:e[-+]?[0-9]+)?)\s*(us|µs|ms|s)\s*$', 'i');
    IF m IS NULL THEN
        RAISE EXCEPTION 'cannot read the slo "%"', slo
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Write a percentile from p50 to p99.99, <= and a limit with its unit (us, ms or s), for example ''p99 <= 10 ms'' or ''p99.9 <= 250 us''.';
    END IF;
    pct := m[1]::numeric;
    lim := m[2]::numeric;
    unit := lower(m[3]);
    IF pct <= 0 OR pct >= 100 THEN
        RAISE EXCEPTION 'the percentile of the slo must be above 0 and below 100, not %', pct
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'p99 is the latency 99% of the transactions stay within; p100 would be the maximum, which no histogram bounds.';
    END IF;
    IF lim <= 0 THEN
        RAISE EXCEPTION 'the latency limit of the slo must be above 0, not % %', lim, unit
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    limit_ms := (lim * CASE unit WHEN 's' THEN 1000 WHEN 'ms' THEN 1 ELSE 0.001 END)::double precision;
    IF limit_ms > 86400000 THEN
        RAISE EXCEPTION 'the latency limit of the slo must be at most a day, not % %', lim, unit
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF max_failure_rate IS NOT NULL AND (max_failure_rate < 0 OR max_failure_rate >= 1
                                         OR max_failure_rate = 'NaN') THEN
        RAISE EXCEPTION 'max_failure_rate must be at least 0 and below 1, not %', max_failure_rate
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'It is the share of transactions that may fail at a passing rate: 0.001 for one in a thousand.';
    END IF;
    IF "precision" IS NULL THEN
        RAISE EXCEPTION 'argument "precision" of % must not be null', fn USING ERRCODE = 'null_value_not_allowed';
    END IF;
    IF "precision" <= 0 OR "precision" >= 1 OR "precision" = 'NaN' THEN
        RAISE EXCEPTION 'precision must be above 0 and below 1, not %', "precision"
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The search ends when the first failing rate is within this fraction of the last passing one: 0.05 for 5%.';
    END IF;
    IF max_runs IS NULL OR max_repeats IS NULL THEN
        RAISE EXCEPTION 'argument "%" of % must not be null', CASE WHEN max_runs IS NULL THEN 'max_runs' ELSE 'max_repeats' END, fn
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    IF max_runs < 1 OR max_runs > 1000 THEN
        RAISE EXCEPTION 'max_runs must be between 1 and 1000, not %', max_runs
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF max_repeats < 0 OR max_repeats > 10 THEN
        RAISE EXCEPTION 'max_repeats must be between 0 and 10, not %', max_repeats
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'It is how many runs are added at a rate whose percentile is too close to the limit to tell.';
    END IF;
    IF start_rate <= 0 OR start_rate = 'NaN' THEN
        RAISE EXCEPTION 'start_rate must be a positive number of transactions per second, not %', start_rate
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'It is the lowest rate the search offers, all clients together; leave it out to start from a probe run.';
    END IF;
    -- without the suite: the checks that need nothing of it (the library
    -- makes them before it checks the run arguments)
    IF spec IS NULL THEN
        RETURN NULL;
    END IF;
    IF start_rate > 1000000.0 * clients THEN
        RAISE EXCEPTION 'start_rate must be at most % (1000000 per client), not %', 1000000::bigint * clients, start_rate
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    run_s := extract(epoch FROM coalesce((spec->'args'->>'duration')::interval, '60 s'))
             + coalesce(extract(epoch FROM (spec->'args'->>'warmup')::interval), 0);
    IF max_time IS NOT NULL AND extract(epoch FROM max_time) < run_s THEN
        RAISE EXCEPTION 'max_time % leaves no room for one run of %', max_time,
                        coalesce((spec->'args'->>'duration')::interval, '60 s')
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give a max_time of several runs'' duration and warm-up, or shorter runs.';
    END IF;
    RETURN spec || jsonb_build_object('capacity', jsonb_build_object(
        'slo', format('p%s <= %s %s', pct, lim, unit),
        'percentile', pct, 'limit_ms', limit_ms,
        'max_failure_rate', max_failure_rate, 'precision', "precision",
        'max_runs', max_runs, 'max_time_s', extract(epoch FROM max_time),
        'start_rate', start_rate, 'max_repeats', max_repeats));
END
$fn$;

COMMENT ON FUNCTION bench._capacity_spec(jsonb, text, double precision, double precision, integer, interval,
                                         double precision, integer, text) IS
    'Internal: a capacity search''s objective, precision and budget, checked and added to its suite';
