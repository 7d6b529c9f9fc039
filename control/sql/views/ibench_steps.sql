--
-- bench.ibench_steps: each step of each suite of bench.ibench, as the
-- Insert Benchmark reports it: its throughput (inserts per second for the
-- load steps, queries per second for the query steps, rows indexed per
-- second for l.x), the inserts' achieved rate against the target in the
-- query steps, the tables' sizes after it, WAL and checkpoints over it,
-- and the server's reads, writes and CPU per insert or per query.
--
CREATE OR REPLACE VIEW bench.ibench_steps AS
SELECT s.id AS suite_id, e.i::integer AS step_no, e.s ->> 'step' AS step, r.id AS run_id,
       COALESCE(r.status, 'planned') AS status, r.clients, r.measured_s,
       x.inserts,
       x.inserts / NULLIF(r.measured_s, 0) AS inserts_per_s,
       (e.s ->> 'target_inserts_per_s')::double precision AS target_inserts_per_s,
       x.queries,
       x.queries / NULLIF(r.measured_s, 0) AS queries_per_s,
       CASE WHEN e.s ->> 'step' LIKE 'q%' THEN x.queries / NULLIF(r.measured_s, 0)
            WHEN e.s ->> 'step' = 'l.x' THEN x.indexed / NULLIF(r.measured_s, 0)
            ELSE x.inserts / NULLIF(r.measured_s, 0) END AS throughput,
       sz.table_bytes, sz.index_bytes, sz.total_bytes,
       c.wal_bytes, c.wal_bytes::double precision / NULLIF(x.inserts, 0) AS wal_bytes_per_insert,
       c.checkpoints_timed, c.checkpoints_requested,
       c.buffers_checkpoint, c.buffers_clean, c.buffers_backend,
       io.kb_read, io.kb_written,
       -- per insert in the load steps, per query in the query steps (where
       -- the server's work is both: the benchmark reports it per query)
       io.kb_read / NULLIF(x.inserts, 0) * x.load AS kb_read_per_insert,
       io.kb_written / NULLIF(x.inserts, 0) * x.load AS kb_written_per_insert,
       io.kb_read / NULLIF(x.queries, 0) AS kb_read_per_query,
       io.kb_written / NULLIF(x.queries, 0) AS kb_written_per_query,
       c.server_cpu_s * 1e6 / NULLIF(x.inserts, 0) * x.load AS cpu_us_per_insert,
       c.server_cpu_s * 1e6 / NULLIF(x.queries, 0) AS cpu_us_per_query
  FROM bench.suites s
 CROSS JOIN LATERAL jsonb_array_elements(s.steps) WITH ORDINALITY AS e(s, i)
  LEFT JOIN bench.runs r ON r.suite_id = s.id AND r.step = e.s ->> 'step'
  LEFT JOIN bench.run_counters c ON c.run_id = r.id
 CROSS JOIN LATERAL (
       -- inserts: the insert scripts' transactions times their rows per
       -- commit; queries: the query group's transactions
       SELECT CASE WHEN e.s ->> 'step' LIKE 'q%'
                   THEN (SELECT g.transactions FROM bench.run_groups g
                          WHERE g.run_id = r.id AND g.name = 'insert')
                   WHEN e.s ->> 'step' = 'l.x' THEN NULL
                   ELSE r.transactions END * (e.s ->> 'rows_per_commit')::bigint AS inserts,
              CASE WHEN e.s ->> 'step' LIKE 'q%'
                   THEN (SELECT g.transactions FROM bench.run_groups g
                          WHERE g.run_id = r.id AND g.name = 'query') END AS queries,
              CASE WHEN e.s ->> 'step' LIKE 'q%' THEN NULL ELSE 1 END AS load,
              -- l.x indexes the rows l.i0 loaded
              CASE WHEN e.s ->> 'step' = 'l.x'
                   THEN (SELECT sum((p.st ->> 'rows')::bigint) FROM jsonb_array_elements(s.steps) AS p(st)
                          WHERE p.st ->> 'step' = 'l.i0') END AS indexed) x
 CROSS JOIN LATERAL (
       -- the tables after the step: heap (with toast), indexes, total
       SELECT sum(rs.main_bytes + COALESCE(rs.toast_bytes, 0)) AS table_bytes,
              sum(rs.indexes_bytes) AS index_bytes, sum(rs.total_bytes) AS total_bytes
         FROM bench.relation_sizes rs
        WHERE rs.run_id = r.id AND rs.phase = 'after' AND rs.kind = 'table') sz
 CROSS JOIN LATERAL (
       -- the server's reads and writes of blocks: pg_stat_io's where it has
       -- them (PostgreSQL 16 and later), else blocks read (pg_stat_database)
       -- and buffers written by the checkpointer, the background writer
       -- and backends (pg_stat_bgwriter)
       SELECT COALESCE(c.io_reads, c.blks_read) * current_setting('block_size')::numeric / 1024 AS kb_read,
              COALESCE(c.io_writes, c.buffers_checkpoint + c.buffers_clean + c.buffers_backend)
                * current_setting('block_size')::numeric / 1024 AS kb_written) io
 WHERE s.steps IS NOT NULL;

COMMENT ON VIEW bench.ibench_steps IS
    'Each step of each bench.ibench suite as the Insert Benchmark reports it: throughput, inserts and queries per second, the insert rate against its target, sizes after the step, WAL, checkpoints, KB read and written and CPU per insert or query';
GRANT SELECT ON bench.ibench_steps TO PUBLIC;

-- read as the role that queries it, as the other views of runs (_security_invoker.sql)
DO $do$
BEGIN
    IF pg_catalog.current_setting('server_version_num')::integer >= 150000 THEN
        ALTER VIEW bench.ibench_steps SET (security_invoker = true);
    ELSE
        REVOKE SELECT ON bench.ibench_steps FROM PUBLIC;
        GRANT SELECT ON bench.ibench_steps TO pgbenchkit_admin;
    END IF;
END
$do$;
