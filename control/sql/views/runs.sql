--
-- bench.runs: the runs as they are.  A run is alive while its coordinator
-- holds the run's lock (bench._run_alive, in the library); a row of
-- bench._runs that says 'running' and whose coordinator is gone (a crash,
-- an immediate shutdown, a kill) is shown as the aborted run it is, with
-- what its progress rows kept (bench._run_aborted), from the moment the
-- server accepts connections again, before any bench function has written
-- it so (bk_recover_runs).  The lock is asked only for the rows that say
-- 'running'.  The view reads the table as the role that queries it
-- (security_invoker), so that the table's row level security applies;
-- PostgreSQL 14, which has no such views, applies the same rule
-- (bench._visible) in the view.
--
DO $do$
BEGIN
    EXECUTE pg_catalog.format($v$
CREATE OR REPLACE VIEW bench.runs WITH (%s) AS
SELECT r.id, r.workload, r.dataset_id, r.scale, r.clients, r.duration,
       r.transactions_per_client, r.protocol, r.warmup, r.progress, r.max_tries, r.tag,
       CASE WHEN r.dead IS NULL THEN r.status ELSE (r.dead).status END AS status,
       CASE WHEN r.dead IS NULL THEN r.sqlstate ELSE (r.dead).sqlstate END AS sqlstate,
       CASE WHEN r.dead IS NULL THEN r.error ELSE (r.dead).error END AS error,
       r.created_by, r.server_version, r.started_at,
       CASE WHEN r.dead IS NULL THEN r.ended_at ELSE (r.dead).ended_at END AS ended_at,
       CASE WHEN r.dead IS NULL THEN r.measured_s ELSE (r.dead).measured_s END AS measured_s,
       CASE WHEN r.dead IS NULL THEN r.transactions ELSE (r.dead).transactions END AS transactions,
       CASE WHEN r.dead IS NULL THEN r.tps ELSE (r.dead).tps END AS tps,
       CASE WHEN r.dead IS NULL THEN r.latency_avg_ms ELSE (r.dead).latency_avg_ms END AS latency_avg_ms,
       CASE WHEN r.dead IS NULL THEN r.latency_stddev_ms ELSE (r.dead).latency_stddev_ms END AS latency_stddev_ms,
       CASE WHEN r.dead IS NULL THEN r.latency_min_ms ELSE (r.dead).latency_min_ms END AS latency_min_ms,
       CASE WHEN r.dead IS NULL THEN r.latency_p50_ms ELSE (r.dead).latency_p50_ms END AS latency_p50_ms,
       CASE WHEN r.dead IS NULL THEN r.latency_p90_ms ELSE (r.dead).latency_p90_ms END AS latency_p90_ms,
       CASE WHEN r.dead IS NULL THEN r.latency_p95_ms ELSE (r.dead).latency_p95_ms END AS latency_p95_ms,
       CASE WHEN r.dead IS NULL THEN r.latency_p99_ms ELSE (r.dead).latency_p99_ms END AS latency_p99_ms,
       CASE WHEN r.dead IS NULL THEN r.latency_p999_ms ELSE (r.dead).latency_p999_ms END AS latency_p999_ms,
       CASE WHEN r.dead IS NULL THEN r.latency_max_ms ELSE (r.dead).latency_max_ms END AS latency_max_ms,
       CASE WHEN r.dead IS NULL THEN r.failures ELSE (r.dead).failures END AS failures,
       r.serialization_failures, r.deadlock_failures, r.other_failures, r.retried,
       CASE WHEN r.dead IS NULL THEN r.retries ELSE (r.dead).retries END AS retries,
       CASE WHEN r.dead IS NULL THEN r.warmup_transactions ELSE (r.dead).warmup_transactions END AS warmup_transactions,
       CASE WHEN r.dead IS NULL THEN r.coordinator_pid ELSE (r.dead).coordinator_pid END AS coordinator_pid,
       r.prewarm, r.sample_interval, r.settings, r.host, r.unavailable, r.suite_id,
       r.origin, r.rate, r.latency_limit, r.random_seed, r.variables, r.skipped, r.late,
       r.lag_avg_ms, r.lag_max_ms, r.target, r.driver, r.jobs, r.connect, r.target_host,
       r.target_rtt_ms, r.connection_time_ms, r.on_disconnect, r.clients_lost,
       CASE WHEN r.dead IS NULL THEN r.ignored_errors ELSE (r.dead).ignored_errors END AS ignored_errors,
       r.step, r.price_per_hour, r.currency, r.reconnects, r.outages, r.outages_open,
       r.downtime_median_ms, r.downtime_max_ms, r.detection_max_ms, r.unknown_outcome,
       r.outage_started, r.outage_ended, r.recovery_ms, r.check_query, r.check_before,
       r.check_after, r.committed_missing, r.unknown_committed, r.response_timeout,
       r.node_name, r.node_number, r.node_host, r.node_system_identifier, r.start_at, r.part_of
  FROM (SELECT t.*,
               CASE WHEN t.status <> 'running' THEN NULL
                    WHEN NOT bench._run_alive(t.id) THEN bench._run_aborted(t) END AS dead
          FROM bench._runs t%s) r
$v$,
        CASE WHEN pg_catalog.current_setting('server_version_num')::integer >= 150000
             THEN 'security_invoker = true' ELSE 'security_barrier = true' END,
        CASE WHEN pg_catalog.current_setting('server_version_num')::integer >= 150000
             THEN '' ELSE ' WHERE bench._visible(t.created_by)' END);
END
$do$;

COMMENT ON VIEW bench.runs IS
    'Benchmark runs: workload, parameters as given, status, and the summary of what was measured';
COMMENT ON COLUMN bench.runs.step IS
    'The step of a suite of steps the run is (bench.ibench: l.i0, l.x, ..., qp1000)';
COMMENT ON COLUMN bench.runs.price_per_hour IS
    'The price per hour of the server the run ran on, when it started: its target''s option price_per_hour, or pgbenchkit.price_per_hour; NULL when unknown';
COMMENT ON COLUMN bench.runs.currency IS
    'The currency of price_per_hour (ISO 4217 code); NULL when the price is unknown';
COMMENT ON COLUMN bench.runs.reconnects IS
    'on_disconnect => ''reconnect'': the connections the clients made again after losing theirs; NULL for other runs';
COMMENT ON COLUMN bench.runs.outages IS
    'on_disconnect => ''reconnect'': the clients'' outages, each from a client''s last success before a lost connection to its first success after it';
COMMENT ON COLUMN bench.runs.outages_open IS
    'on_disconnect => ''reconnect'': the clients whose outage had not ended when the run did (the run then failed, 08006)';
COMMENT ON COLUMN bench.runs.downtime_median_ms IS
    'on_disconnect => ''reconnect'': the median over the clients that had an outage of each one''s downtime in all (an open outage counted to the run''s end)';
COMMENT ON COLUMN bench.runs.downtime_max_ms IS
    'on_disconnect => ''reconnect'': the longest downtime of a client';
COMMENT ON COLUMN bench.runs.detection_max_ms IS
    'on_disconnect => ''reconnect'': the longest time from a client''s last success to the failure that showed it the loss';
COMMENT ON COLUMN bench.runs.unknown_outcome IS
    'on_disconnect => ''reconnect'': the transactions whose COMMIT (or statement outside a transaction block) was sent and whose answer the lost connection took; committed or not, the client could not tell (check_query tells how many did)';
COMMENT ON COLUMN bench.runs.outage_started IS
    'on_disconnect => ''reconnect'': the start of the first outage of any client (its last success before the loss)';
COMMENT ON COLUMN bench.runs.outage_ended IS
    'on_disconnect => ''reconnect'': the end of the last outage of any client (its first success after it); NULL while one was still open at the end';
COMMENT ON COLUMN bench.runs.recovery_ms IS
    'on_disconnect => ''reconnect'': from the first lost connection of any client to the first transaction committed after it';
COMMENT ON COLUMN bench.runs.check_query IS
    'The query of one integer on the target that each committed transaction adds one to, read before the run and after it (check_query; tpcb and simple-update count pgbench_history with on_disconnect => ''reconnect'')';
COMMENT ON COLUMN bench.runs.check_before IS
    'check_query''s value before the run';
COMMENT ON COLUMN bench.runs.check_after IS
    'check_query''s value after the run; NULL when it could not be read (the notes say why)';
COMMENT ON COLUMN bench.runs.committed_missing IS
    'The transactions the run counted committed that the target does not have: the committed count (warm-up included) less the growth of check_query''s value, at least 0';
COMMENT ON COLUMN bench.runs.unknown_committed IS
    'Of unknown_outcome, the transactions that did commit: the growth of check_query''s value beyond the committed count, at most unknown_outcome';
COMMENT ON COLUMN bench.runs.response_timeout IS
    'response_timeout: a statement not answered within it counted as a lost connection; NULL: none';
COMMENT ON COLUMN bench.runs.node_name IS
    'The node of the fleet that ran it (bench.set_node); NULL before its node was set';
COMMENT ON COLUMN bench.runs.node_number IS
    'The number of that node: the run''s id lies in its range (number * 2^40 on)';
COMMENT ON COLUMN bench.runs.node_host IS
    'The host name of the server that ran it (the driver); NULL for runs of 0.2.0 and before';
COMMENT ON COLUMN bench.runs.node_system_identifier IS
    'The system identifier of the cluster that ran it (pg_control_system()); NULL for runs of 0.2.0 and before';
COMMENT ON COLUMN bench.runs.start_at IS
    'at =>: the instant its measured part was to start, its clients starting the warm-up before it; NULL: when ready';
COMMENT ON COLUMN bench.runs.part_of IS
    'part_of =>: the distributed run it is a part of, the parts of one name merged by bench.distributed_runs';
GRANT SELECT ON bench.runs TO PUBLIC;
CREATE OR REPLACE TRIGGER write_through INSTEAD OF INSERT OR UPDATE OR DELETE ON bench.runs
    FOR EACH ROW EXECUTE FUNCTION bench._write_through('bench._runs');

-- the defaults of the view's columns are the table's, for an INSERT into it
DO $do$
DECLARE
    d record;
BEGIN
    FOR d IN SELECT a.attname, pg_catalog.pg_get_expr(ad.adbin, ad.adrelid) AS expr
               FROM pg_catalog.pg_attrdef ad
               JOIN pg_catalog.pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
              WHERE ad.adrelid = 'bench._runs'::regclass ORDER BY a.attnum
    LOOP
        EXECUTE pg_catalog.format('ALTER VIEW bench.runs ALTER COLUMN %I SET DEFAULT %s', d.attname, d.expr);
    END LOOP;
END
$do$;
