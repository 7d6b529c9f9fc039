--
-- bench._capacity_search: where a capacity search stands, from its runs
-- alone (bench.capacity_steps): the answer so far and, while it runs, what
-- to do next.  The search:
--
--   1. without start_rate, an unthrottled probe run first: the rates start
--      at an eighth of its tps;
--   2. a bracket: the rate doubles while it passes, until one fails (its
--      percentile above the limit, or the achieved rate below the offered);
--   3. bisection between the highest passing rate below the lowest failing
--      one and that failing one, until the failing one is within
--      `precision` of the passing one;
--   4. a rate whose percentile is too close to the limit to tell (the limit
--      inside its confidence interval) is run again before anything else,
--      up to max_repeats times, its runs pooled.
--
-- It stops early when the lowest rate already fails (no capacity), or
-- when the budget is spent: max_runs runs, or a next run that would end
-- after max_time from the suite's start.  Rates are rounded to four
-- significant digits.  Who limited the answer: the server; the clients,
-- when at the first failing rate the schedule lag made most of the
-- latency while the clients spent less than half their time in
-- transactions (the driver could not keep the schedule, not the server);
-- the budget; or the lowest rate.
--
CREATE OR REPLACE FUNCTION bench._capacity_search(suite_id bigint,
    OUT capacity_tps double precision, OUT last_pass_rate double precision,
    OUT first_fail_rate double precision, OUT achieved_tps double precision,
    OUT percentile_ms double precision, OUT ci_low_ms double precision, OUT ci_high_ms double precision,
    OUT fail_percentile_ms double precision, OUT pass_run_ids bigint[], OUT fail_run_ids bigint[],
    OUT probe_tps double precision, OUT runs integer, OUT repeats integer,
    OUT precision_reached boolean, OUT limited_by text, OUT note text,
    OUT next_action text, OUT next_rate double precision)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    s          record;
    c          jsonb;
    st         record;
    pass       record;
    fail       record;
    last       record;
    start      double precision;
    run_s      double precision;
    all_runs   integer;
    prec       double precision;
    slo        text;
BEGIN
    SELECT t.* INTO s FROM bench.suites t WHERE t.id = _capacity_search.suite_id;
    IF NOT FOUND OR s.capacity IS NULL THEN
        RETURN;
    END IF;
    c := s.capacity;
    prec := (c->>'precision')::double precision;
    slo := c->>'slo';
    SELECT count(*) FILTER (WHERE x.verdict <> 'probe'), sum(x.runs) FILTER (WHERE x.verdict <> 'probe'),
           max(x.achieved_tps) FILTER (WHERE x.verdict = 'probe')
      INTO repeats, runs, probe_tps
      FROM bench.capacity_steps(s.id) x;
    runs := coalesce(runs, 0);
    repeats := runs - coalesce(repeats, 0);
    SELECT count(*) INTO all_runs FROM bench.runs r WHERE r.suite_id = s.id;

    -- the lowest failing rate, the highest passing one below it, the last step
    SELECT * INTO fail FROM bench.capacity_steps(s.id) x
     WHERE x.verdict = 'fail' ORDER BY x.rate LIMIT 1;
    SELECT * INTO pass FROM bench.capacity_steps(s.id) x
     WHERE x.verdict = 'pass' AND (fail.rate IS NULL OR x.rate < fail.rate) ORDER BY x.rate DESC LIMIT 1;
    SELECT * INTO last FROM bench.capacity_steps(s.id) x ORDER BY x.step_no DESC LIMIT 1;

    capacity_tps := pass.rate;
    last_pass_rate := pass.rate;
    first_fail_rate := fail.rate;
    achieved_tps := pass.achieved_tps;
    percentile_ms := pass.percentile_ms;
    ci_low_ms := pass.ci_low_ms;
    ci_high_ms := pass.ci_high_ms;
    pass_run_ids := pass.run_ids;
    fail_run_ids := fail.run_ids;
    fail_percentile_ms := fail.percentile_ms;
    precision_reached := pass.rate IS NOT NULL AND fail.rate IS NOT NULL
                         AND (fail.rate - pass.rate) / pass.rate <= prec;

    -- what next
    start := coalesce((c->>'start_rate')::double precision, probe_tps / 8);
    IF (c->>'start_rate') IS NULL AND probe_tps IS NULL THEN
        next_action := 'run';               -- the probe
    ELSIF start IS NULL OR start <= 0 THEN
        next_action := 'stop';              -- the probe committed nothing
    ELSIF last.verdict = 'uncertain' THEN
        next_action := 'run';
        next_rate := last.rate;
    ELSIF fail.rate IS NOT NULL AND pass.rate IS NULL THEN
        next_action := 'stop';
    ELSIF fail.rate IS NULL THEN
        next_action := 'run';
        next_rate := CASE WHEN pass.rate IS NULL THEN start ELSE pass.rate * 2 END;
    ELSIF precision_reached THEN
        next_action := 'stop';
    ELSE
        next_action := 'run';
        next_rate := (pass.rate + fail.rate) / 2;
    END IF;
    IF next_rate IS NOT NULL THEN
        next_rate := round(next_rate::numeric, 3 - floor(log(next_rate))::integer)::double precision;
        IF next_rate = pass.rate OR next_rate = fail.rate THEN
            next_action := 'stop';          -- as close as four digits go
            next_rate := NULL;
            precision_reached := true;
        END IF;
    END IF;
    -- the budget
    IF next_action = 'run' THEN
        run_s := greatest(extract(epoch FROM coalesce((s.args->>'duration')::interval, '60 s'))
                          + coalesce(extract(epoch FROM (s.args->>'warmup')::interval), 0),
                          (SELECT max(extract(epoch FROM r.ended_at - r.started_at))
                             FROM bench.runs r WHERE r.suite_id = s.id));
        IF all_runs >= (c->>'max_runs')::integer
           OR (c->>'max_time_s') IS NOT NULL
              AND extract(epoch FROM clock_timestamp() - s.started_at) + run_s > (c->>'max_time_s')::double precision
        THEN
            next_action := 'stop';
            next_rate := NULL;
        END IF;
    END IF;

    -- the answer, and what limited it
    IF fail.rate IS NOT NULL AND pass.rate IS NULL THEN
        limited_by := 'lowest rate';
        note := format('the slo (%s) is broken at the lowest rate tried, %s tps (%s); no rate passed',
                       slo, fail.rate, fail.reason);
    ELSIF precision_reached THEN
        IF fail.lag_avg_ms > 0.5 * fail.latency_avg_ms AND fail.client_busy < 0.5 THEN
            limited_by := 'clients';
            note := format('%s tps passes and %s tps fails (%s), but there the clients were in transactions %s%% of the time while the schedule lag made %s%% of the latency: the clients could not keep the schedule, not the server',
                           pass.rate, fail.rate, fail.reason, round((100 * fail.client_busy)::numeric),
                           round((100 * fail.lag_avg_ms / fail.latency_avg_ms)::numeric));
        ELSE
            limited_by := 'server';
            note := format('%s tps passes (%s %s ms) and %s tps fails (%s), within %s%%',
                           pass.rate, split_part(slo, ' ', 1), round(pass.percentile_ms::numeric, 3),
                           fail.rate, fail.reason, round((100 * prec)::numeric, 2));
        END IF;
    ELSIF s.status IN ('running') THEN
        limited_by := NULL;
        note := 'the search is running';
    ELSIF s.status <> 'done' THEN
        limited_by := 'unfinished';
        note := format('the search ended %s before it reached its precision', s.status);
    ELSE
        limited_by := 'budget';
        note := format('the budget (max_runs %s%s) ran out before the precision was reached: %s',
                       c->>'max_runs',
                       CASE WHEN c->>'max_time_s' IS NOT NULL
                            THEN format(', max_time %s s', c->>'max_time_s') ELSE '' END,
                       CASE WHEN pass.rate IS NULL THEN 'no rate passed yet'
                            WHEN fail.rate IS NULL THEN format('%s tps passed and no rate failed yet', pass.rate)
                            ELSE format('%s tps passed and %s tps failed', pass.rate, fail.rate) END);
    END IF;
    RETURN;
END
$fn$;

COMMENT ON FUNCTION bench._capacity_search(bigint) IS
    'Internal: a capacity search''s answer so far and its next step, from its runs';
