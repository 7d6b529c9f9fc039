--
-- bench.distributed_runs: the runs started with part_of => (on one driver
-- or on several, their rows brought together on a fleet's central
-- database, docs/fleet.md), each distributed run merged from its parts:
-- transactions and failures summed, the latency percentiles read from the
-- sum of the parts' histograms (as exact as the histograms, never an
-- average of percentiles; the midpoint of the bucket that holds the rank,
-- kept within the parts' exact minimum and maximum, as bench.runs reads a
-- run's), and the measured time from the agreed instant (at =>) to the
-- last counted commit of any part.  Only the parts the caller may see are
-- merged (row level security, as bench.runs).
--
CREATE OR REPLACE FUNCTION bench.distributed_runs(part_of text DEFAULT NULL)
RETURNS TABLE (part_of text, start_at timestamptz, parts integer, nodes text[], run_ids bigint[],
               status text, clients integer, transactions bigint, warmup_transactions bigint,
               failures bigint, measured_s double precision, tps double precision,
               latency_avg_ms double precision, latency_min_ms double precision,
               latency_p50_ms double precision, latency_p90_ms double precision,
               latency_p95_ms double precision, latency_p99_ms double precision,
               latency_p999_ms double precision, latency_max_ms double precision,
               start_spread_ms double precision, ended_at timestamptz)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
WITH r AS (
    SELECT r.*, r.started_at + r.warmup AS measure_start,
           r.started_at + r.warmup + r.measured_s * interval '1 second' AS measure_end
      FROM bench.runs r
     WHERE r.part_of IS NOT NULL
       AND (distributed_runs.part_of IS NULL OR r.part_of = distributed_runs.part_of)
), g AS (
    SELECT r.part_of, min(r.start_at) AS start_at, count(*)::integer AS parts,
           array_agg(DISTINCT r.node_name) FILTER (WHERE r.node_name IS NOT NULL) AS nodes,
           array_agg(r.id ORDER BY r.id) AS run_ids,
           CASE WHEN bool_and(r.status = 'done') THEN 'done'
                WHEN bool_or(r.status = 'running') THEN 'running'
                WHEN bool_or(r.status = 'failed') THEN 'failed'
                WHEN bool_or(r.status = 'aborted') THEN 'aborted'
                ELSE 'canceled' END AS status,
           sum(r.clients)::integer AS clients,
           sum(r.transactions)::bigint AS transactions,
           sum(r.warmup_transactions)::bigint AS warmup_transactions,
           sum(r.failures)::bigint AS failures,
           sum(r.transactions * r.latency_avg_ms) FILTER (WHERE r.transactions > 0)
               / NULLIF(sum(r.transactions) FILTER (WHERE r.transactions > 0), 0) AS latency_avg_ms,
           min(r.latency_min_ms) FILTER (WHERE r.transactions > 0) AS latency_min_ms,
           max(r.latency_max_ms) FILTER (WHERE r.transactions > 0) AS latency_max_ms,
           max(r.measure_end) AS ended_at,
           1000 * extract(epoch FROM max(r.measure_start) - min(r.measure_start))::double precision AS start_spread_ms
      FROM r
     GROUP BY r.part_of
), h AS (
    -- the sum of the parts' histograms, its cumulative counts
    SELECT r.part_of, b.lower_ms, b.upper_ms,
           sum(sum(b.count)) OVER (PARTITION BY r.part_of ORDER BY b.lower_ms) AS cum,
           sum(sum(b.count)) OVER (PARTITION BY r.part_of) AS n
      FROM r JOIN bench.histograms b ON b.run_id = r.id
     GROUP BY r.part_of, b.lower_ms, b.upper_ms
), p AS (
    SELECT h.part_of,
           min((h.lower_ms + h.upper_ms) / 2) FILTER (WHERE h.cum >= greatest(1, ceil(h.n * 0.50))) AS p50,
           min((h.lower_ms + h.upper_ms) / 2) FILTER (WHERE h.cum >= greatest(1, ceil(h.n * 0.90))) AS p90,
           min((h.lower_ms + h.upper_ms) / 2) FILTER (WHERE h.cum >= greatest(1, ceil(h.n * 0.95))) AS p95,
           min((h.lower_ms + h.upper_ms) / 2) FILTER (WHERE h.cum >= greatest(1, ceil(h.n * 0.99))) AS p99,
           min((h.lower_ms + h.upper_ms) / 2) FILTER (WHERE h.cum >= greatest(1, ceil(h.n * 0.999))) AS p999
      FROM h
     GROUP BY h.part_of
)
SELECT g.part_of, g.start_at, g.parts, g.nodes, g.run_ids, g.status, g.clients, g.transactions,
       g.warmup_transactions, g.failures, m.measured_s,
       g.transactions / NULLIF(m.measured_s, 0),
       g.latency_avg_ms, g.latency_min_ms,
       greatest(least(p.p50, g.latency_max_ms), g.latency_min_ms),
       greatest(least(p.p90, g.latency_max_ms), g.latency_min_ms),
       greatest(least(p.p95, g.latency_max_ms), g.latency_min_ms),
       greatest(least(p.p99, g.latency_max_ms), g.latency_min_ms),
       greatest(least(p.p999, g.latency_max_ms), g.latency_min_ms),
       g.latency_max_ms, g.start_spread_ms, g.ended_at
  FROM g LEFT JOIN p ON p.part_of = g.part_of,
       LATERAL (SELECT extract(epoch FROM g.ended_at - g.start_at)::double precision AS measured_s) m
 ORDER BY g.start_at, g.part_of
$fn$;

COMMENT ON FUNCTION bench.distributed_runs(text) IS
    'Each distributed run (part_of =>) merged from its parts: transactions and failures summed, percentiles from the summed histograms, measured from the agreed instant to the last counted commit of any part';

--
-- bench.distributed_progress: a distributed run's progress rows summed by
-- wall-clock instant: each part's intervals start at the agreed instant's
-- offsets (at =>, the clocks synchronised), so the rows of one offset,
-- rounded to the second, are one interval of the whole.  Its p99 comes
-- from the sum of the parts' interval histograms.
--
CREATE OR REPLACE FUNCTION bench.distributed_progress(part_of text)
RETURNS TABLE (offset_s integer, interval_start timestamptz, parts integer, transactions bigint,
               tps double precision, failures bigint, latency_avg_ms double precision,
               latency_p99_ms double precision, in_warmup boolean)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_column
BEGIN
    IF distributed_progress.part_of IS NULL THEN
        RAISE EXCEPTION 'part_of must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Name a distributed run: bench.distributed_runs() lists them.';
    END IF;
    RETURN QUERY
    WITH q AS (
        SELECT round(extract(epoch FROM q.interval_start - r.start_at))::integer AS offset_s,
               q.*
          FROM bench.runs r JOIN bench.progress q ON q.run_id = r.id
         WHERE r.part_of = distributed_progress.part_of
    ), s AS (
        SELECT q.offset_s, min(q.interval_start) AS interval_start, count(*)::integer AS parts,
               sum(q.transactions)::bigint AS transactions,
               max(extract(epoch FROM q.interval_end - q.interval_start))::double precision AS secs,
               sum(q.failures)::bigint AS failures,
               sum(q.transactions * q.latency_avg_ms) FILTER (WHERE q.transactions > 0)
                   / NULLIF(sum(q.transactions) FILTER (WHERE q.transactions > 0), 0) AS latency_avg_ms,
               bool_or(q.in_warmup) AS in_warmup
          FROM q
         GROUP BY q.offset_s
    ), h AS (
        SELECT q.offset_s, b.lower_ms, b.upper_ms,
               sum(sum(b.count)) OVER (PARTITION BY q.offset_s ORDER BY b.lower_ms) AS cum,
               sum(sum(b.count)) OVER (PARTITION BY q.offset_s) AS n
          FROM q, unnest(q.histogram_lower_ms, q.histogram_upper_ms, q.histogram_count) AS b (lower_ms, upper_ms, count)
         GROUP BY q.offset_s, b.lower_ms, b.upper_ms
    ), p AS (
        SELECT h.offset_s,
               min((h.lower_ms + h.upper_ms) / 2) FILTER (WHERE h.cum >= greatest(1, ceil(h.n * 0.99))) AS p99
          FROM h
         GROUP BY h.offset_s
    )
    SELECT s.offset_s, s.interval_start, s.parts, s.transactions,
           s.transactions / NULLIF(s.secs, 0), s.failures, s.latency_avg_ms, p.p99, s.in_warmup
      FROM s LEFT JOIN p ON p.offset_s = s.offset_s
     ORDER BY s.offset_s;
END
$fn$;

COMMENT ON FUNCTION bench.distributed_progress(text) IS
    'A distributed run''s progress: its parts'' intervals summed by their offset from the agreed instant, p99 from the summed interval histograms';
