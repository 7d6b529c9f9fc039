--
-- bench.schedule_status: every schedule with its last suite and result.
--
CREATE OR REPLACE VIEW bench.schedule_status AS
SELECT sc.name, sc.cron, sc.workload, sc.clients, sc.repeat, sc.jobid, sc.cron_database,
       sc.created_by,
       (SELECT count(*) FROM bench.suites s WHERE s.schedule = sc.name) AS suites,
       (SELECT count(*) FROM bench.suites s WHERE s.schedule = sc.name AND s.status = 'done') AS done,
       (SELECT count(*) FROM bench.suites s WHERE s.schedule = sc.name AND s.status = 'refused') AS refused,
       (SELECT count(*) FROM bench.suites s0 CROSS JOIN LATERAL bench._suite_state(s0) s
         WHERE s0.schedule = sc.name AND s.status IN ('failed', 'canceled', 'aborted')) AS failed,
       l.id AS last_suite_id,
       l.status AS last_status,
       l.started_at AS last_started_at,
       l.ended_at AS last_ended_at,
       l.error AS last_error,
       -- per client count; a suite over several targets per target, then
       -- client count; a capacity search its capacity
       CASE WHEN l.capacity IS NOT NULL
            THEN (SELECT jsonb_build_object(c.clients, round(c.capacity_tps::numeric, 1))
                    FROM bench.capacity_results c WHERE c.suite_id = l.id)
            WHEN l.targets IS NULL
            THEN (SELECT jsonb_object_agg(m.clients, round(m.tps_median::numeric, 1) ORDER BY m.position)
                    FROM bench.suite_summary m WHERE m.suite_id = l.id AND m.runs_done > 0)
            ELSE (SELECT jsonb_object_agg(x.target, x.tps ORDER BY array_position(l.targets, x.target))
                    FROM (SELECT m.target,
                                 jsonb_object_agg(m.clients, round(m.tps_median::numeric, 1) ORDER BY m.position) AS tps
                            FROM bench.suite_summary m WHERE m.suite_id = l.id AND m.runs_done > 0
                           GROUP BY m.target) x)
       END AS last_tps,
       (SELECT bool_or(r.regression) FROM bench.schedule_results r WHERE r.suite_id = l.id) AS last_regression
  FROM bench.schedules sc
  LEFT JOIN LATERAL (SELECT s.* FROM bench.suites s0 CROSS JOIN LATERAL bench._suite_state(s0) s
                      WHERE s0.schedule = sc.name
                      ORDER BY s0.started_at DESC, s0.id DESC LIMIT 1) l ON true;

COMMENT ON VIEW bench.schedule_status IS
    'Every schedule with how often it ran, was refused or failed, and its last suite: status, tps per client count (per target, then client count, for a schedule over several), regression';
GRANT SELECT ON bench.schedule_status TO PUBLIC;
