--
-- bench.sample_counters: every sample's cumulative counters under names
-- that do not change with the server version (pg_stat_checkpointer's
-- num_timed is checkpoints_timed here, as pg_stat_bgwriter called it up to
-- 16; buffers written by backends come from pg_stat_io from 17 on).
-- NULL: the source was not available.
--
CREATE OR REPLACE VIEW bench.sample_counters AS
SELECT s.run_id, s.sample_no, s.phase, s.taken_at, s.elapsed_s,
       (s.data->>'transactions')::bigint AS transactions,
       (s.data->>'wal_insert_lsn')::numeric AS wal_insert_lsn,
       (s.data->'wal'->>'wal_records')::bigint AS wal_records,
       (s.data->'wal'->>'wal_fpi')::bigint AS wal_fpi,
       (s.data->'wal'->>'wal_bytes')::numeric AS wal_bytes,
       (s.data->'wal'->>'wal_buffers_full')::bigint AS wal_buffers_full,
       COALESCE(s.data->'checkpointer'->>'num_timed',
                s.data->'bgwriter'->>'checkpoints_timed')::bigint AS checkpoints_timed,
       COALESCE(s.data->'checkpointer'->>'num_requested',
                s.data->'bgwriter'->>'checkpoints_req')::bigint AS checkpoints_requested,
       COALESCE(s.data->'checkpointer'->>'buffers_written',
                s.data->'bgwriter'->>'buffers_checkpoint')::bigint AS buffers_checkpoint,
       (s.data->'bgwriter'->>'buffers_clean')::bigint AS buffers_clean,
       (s.data->'bgwriter'->>'maxwritten_clean')::bigint AS maxwritten_clean,
       COALESCE((s.data->'bgwriter'->>'buffers_backend')::bigint, io.backend_writes) AS buffers_backend,
       (s.data->'bgwriter'->>'buffers_alloc')::bigint AS buffers_alloc,
       io.reads AS io_reads,
       io.writes AS io_writes,
       io.extends AS io_extends,
       io.fsyncs AS io_fsyncs,
       (s.data->'database'->>'xact_commit')::bigint AS xact_commit,
       (s.data->'database'->>'xact_rollback')::bigint AS xact_rollback,
       (s.data->'database'->>'blks_read')::bigint AS blks_read,
       (s.data->'database'->>'blks_hit')::bigint AS blks_hit,
       (s.data->'database'->>'tup_returned')::bigint AS tup_returned,
       (s.data->'database'->>'tup_fetched')::bigint AS tup_fetched,
       (s.data->'database'->>'tup_inserted')::bigint AS tup_inserted,
       (s.data->'database'->>'tup_updated')::bigint AS tup_updated,
       (s.data->'database'->>'tup_deleted')::bigint AS tup_deleted,
       (s.data->'database'->>'temp_files')::bigint AS temp_files,
       (s.data->'database'->>'temp_bytes')::bigint AS temp_bytes,
       (s.data->'database'->>'deadlocks')::bigint AS deadlocks,
       (s.data->'database'->>'blk_read_time')::double precision AS blk_read_time_ms,
       (s.data->'database'->>'blk_write_time')::double precision AS blk_write_time_ms,
       (s.data->'cpu'->>'server_s')::double precision AS server_cpu_s,
       (s.data->'cpu'->>'host_busy_s')::double precision AS host_cpu_busy_s,
       (s.data->'cpu'->>'host_total_s')::double precision AS host_cpu_total_s,
       (s.data->>'server_started')::timestamptz AS server_started
  FROM bench.samples s
  LEFT JOIN LATERAL (
       SELECT sum((e->>'reads')::bigint) AS reads,
              sum((e->>'writes')::bigint) AS writes,
              sum((e->>'extends')::bigint) AS extends,
              sum((e->>'fsyncs')::bigint) AS fsyncs,
              sum((e->>'writes')::bigint)
                  FILTER (WHERE e->>'object' = 'relation'
                          AND e->>'backend_type' NOT IN ('checkpointer', 'background writer'))
                  AS backend_writes
         FROM pg_catalog.jsonb_array_elements(s.data->'io') e
        WHERE s.data ? 'io') io ON true;

COMMENT ON VIEW bench.sample_counters IS
    'Every sample''s cumulative server counters under version-independent column names';
GRANT SELECT ON bench.sample_counters TO PUBLIC;
