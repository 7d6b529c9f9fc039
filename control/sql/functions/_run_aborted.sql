-- a run whose coordinator is gone, as it is recorded: 'aborted', with the
-- figures of its progress rows (the view bench.runs shows each column it
-- sets from it)
CREATE OR REPLACE FUNCTION bench._run_aborted(r bench._runs)
RETURNS bench._runs
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    p   record;
    pct double precision[];
BEGIN
    SELECT max(q.interval_end) AS last_end,
           sum(q.transactions) FILTER (WHERE NOT q.in_warmup)::bigint AS xacts,
           sum(q.transactions) FILTER (WHERE q.in_warmup)::bigint AS warmup_xacts,
           sum(q.failures)::bigint AS failures,
           sum(q.retries) FILTER (WHERE NOT q.in_warmup)::bigint AS retries,
           sum(q.ignored_errors) FILTER (WHERE NOT q.in_warmup)::bigint AS ignored_errors,
           sum(EXTRACT(epoch FROM q.interval_end - q.interval_start))
               FILTER (WHERE NOT q.in_warmup)::float8 AS measured_s,
           sum(q.transactions * q.latency_avg_ms) FILTER (WHERE NOT q.in_warmup) AS lat_sum,
           sum(q.transactions * (q.latency_stddev_ms ^ 2 + q.latency_avg_ms ^ 2))
               FILTER (WHERE NOT q.in_warmup) AS lat_sumsq,
           max(q.latency_max_ms) FILTER (WHERE NOT q.in_warmup) AS lat_max
      INTO p
      FROM bench.progress q
     WHERE q.run_id = r.id;
    -- percentiles as the library reads them from a histogram: the midpoint
    -- of the bucket that holds the value of rank ceil(fraction * n)
    WITH h AS (
        SELECT h.lower_ms, h.upper_ms,
               sum(h.count) OVER (ORDER BY h.lower_ms) AS seen,
               sum(h.count) OVER () AS n
          FROM bench._progress_histogram(r.id) h
    )
    SELECT array_agg((SELECT CASE WHEN h.upper_ms - h.lower_ms < 1.5e-6 THEN h.lower_ms
                                  ELSE (h.lower_ms + h.upper_ms) / 2 END
                        FROM h
                       WHERE h.seen >= greatest(1, ceil(f.fraction * h.n::float8))
                       ORDER BY h.lower_ms LIMIT 1) ORDER BY f.fraction)
      INTO pct
      FROM (VALUES (0.5::float8), (0.9), (0.95), (0.99), (0.999)) AS f (fraction);

    r.status := 'aborted';
    r.sqlstate := '57P01';
    r.error := 'the run''s coordinator ended before the run finished (server restart, crash or termination)';
    r.ended_at := COALESCE(p.last_end, r.started_at);
    r.coordinator_pid := NULL;
    r.measured_s := p.measured_s;
    r.transactions := p.xacts;
    r.tps := CASE WHEN p.measured_s > 0 THEN p.xacts / p.measured_s END;
    r.warmup_transactions := p.warmup_xacts;
    r.failures := p.failures;
    r.retries := p.retries;
    r.ignored_errors := p.ignored_errors;
    r.latency_avg_ms := p.lat_sum / NULLIF(p.xacts, 0);
    r.latency_stddev_ms := sqrt(greatest(p.lat_sumsq / NULLIF(p.xacts, 0)
                                         - (p.lat_sum / NULLIF(p.xacts, 0)) ^ 2, 0));
    r.latency_max_ms := p.lat_max;
    r.latency_min_ms := (SELECT min(h.lower_ms) FROM bench._progress_histogram(r.id) h);
    r.latency_p50_ms := pct[1];
    r.latency_p90_ms := pct[2];
    r.latency_p95_ms := pct[3];
    r.latency_p99_ms := pct[4];
    r.latency_p999_ms := pct[5];
    RETURN r;
END
$fn$;

COMMENT ON FUNCTION bench._run_aborted(bench._runs) IS
    'Internal: a run whose coordinator is gone, as it is recorded: aborted, with the counts, latencies and histogram of its progress rows';
