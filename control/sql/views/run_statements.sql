--
-- bench.run_statements: pg_stat_statements over each run (after minus
-- before), the run's own statements and the busiest others.
--
CREATE OR REPLACE VIEW bench.run_statements AS
SELECT a.run_id, a.queryid, a.userid, a.toplevel, a.query,
       a.calls - COALESCE(b.calls, 0) AS calls,
       round((a.total_exec_time - COALESCE(b.total_exec_time, 0))::numeric, 3) AS total_exec_ms,
       round(((a.total_exec_time - COALESCE(b.total_exec_time, 0))
              / NULLIF(a.calls - COALESCE(b.calls, 0), 0))::numeric, 4) AS mean_exec_ms,
       a.rows - COALESCE(b.rows, 0) AS rows,
       a.shared_blks_hit - COALESCE(b.shared_blks_hit, 0) AS shared_blks_hit,
       a.shared_blks_read - COALESCE(b.shared_blks_read, 0) AS shared_blks_read,
       a.shared_blks_dirtied - COALESCE(b.shared_blks_dirtied, 0) AS shared_blks_dirtied,
       a.shared_blks_written - COALESCE(b.shared_blks_written, 0) AS shared_blks_written,
       a.temp_blks_written - COALESCE(b.temp_blks_written, 0) AS temp_blks_written,
       a.wal_records - COALESCE(b.wal_records, 0) AS wal_records,
       a.wal_fpi - COALESCE(b.wal_fpi, 0) AS wal_fpi,
       a.wal_bytes - COALESCE(b.wal_bytes, 0) AS wal_bytes,
       a.own AS run_role,
       a.plans - COALESCE(b.plans, 0) AS plans,
       round((a.total_plan_time - COALESCE(b.total_plan_time, 0))::numeric, 3) AS total_plan_ms,
       round(((a.total_plan_time - COALESCE(b.total_plan_time, 0))
              / NULLIF(a.plans - COALESCE(b.plans, 0), 0))::numeric, 4) AS mean_plan_ms
  FROM (SELECT s.run_id, st.*
          FROM bench.samples s,
               pg_catalog.jsonb_to_recordset(s.data->'statements') AS st(
                   queryid bigint, userid oid, toplevel boolean, query text, own boolean,
                   calls bigint, total_exec_time double precision, plans bigint,
                   total_plan_time double precision, rows bigint,
                   shared_blks_hit bigint, shared_blks_read bigint, shared_blks_dirtied bigint,
                   shared_blks_written bigint, temp_blks_written bigint,
                   wal_records bigint, wal_fpi bigint, wal_bytes numeric)
         WHERE s.phase = 'after') a
  LEFT JOIN (SELECT s.run_id, st.*
               FROM bench.samples s,
                    pg_catalog.jsonb_to_recordset(s.data->'statements') AS st(
                        queryid bigint, userid oid, toplevel boolean,
                        calls bigint, total_exec_time double precision, plans bigint,
                        total_plan_time double precision, rows bigint,
                        shared_blks_hit bigint, shared_blks_read bigint, shared_blks_dirtied bigint,
                        shared_blks_written bigint, temp_blks_written bigint,
                        wal_records bigint, wal_fpi bigint, wal_bytes numeric)
              WHERE s.phase = 'before') b
    ON b.run_id = a.run_id AND b.queryid = a.queryid AND b.userid = a.userid
   AND b.toplevel IS NOT DISTINCT FROM a.toplevel
 WHERE a.calls - COALESCE(b.calls, 0) > 0;

COMMENT ON VIEW bench.run_statements IS
    'pg_stat_statements over each run: calls, execution and planning time, rows, blocks and WAL per statement';
GRANT SELECT ON bench.run_statements TO PUBLIC;
