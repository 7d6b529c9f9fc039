--
-- bench.run_counters: what the server did from the sample before a run's
-- clients started to the sample after they stopped, and per transaction.
-- Transactions here are every transaction the clients ended in that time:
-- measured, warm-up and failed.
--
CREATE OR REPLACE VIEW bench.run_counters AS
SELECT r.id AS run_id,
       a.elapsed_s - b.elapsed_s AS seconds,
       a.transactions - b.transactions AS transactions,
       a.wal_insert_lsn - b.wal_insert_lsn AS wal_generated_bytes,
       a.wal_bytes - b.wal_bytes AS wal_bytes,
       a.wal_records - b.wal_records AS wal_records,
       a.wal_fpi - b.wal_fpi AS wal_fpi,
       a.wal_buffers_full - b.wal_buffers_full AS wal_buffers_full,
       round((a.wal_bytes - b.wal_bytes) / NULLIF(a.transactions - b.transactions, 0), 1) AS wal_bytes_per_tx,
       round((a.wal_fpi - b.wal_fpi)::numeric / NULLIF(a.transactions - b.transactions, 0), 4) AS wal_fpi_per_tx,
       round((a.wal_insert_lsn - b.wal_insert_lsn) / 1e6
             / NULLIF(a.elapsed_s - b.elapsed_s, 0)::numeric, 3) AS wal_mb_per_s,
       a.checkpoints_timed - b.checkpoints_timed AS checkpoints_timed,
       a.checkpoints_requested - b.checkpoints_requested AS checkpoints_requested,
       a.buffers_checkpoint - b.buffers_checkpoint AS buffers_checkpoint,
       a.buffers_clean - b.buffers_clean AS buffers_clean,
       a.maxwritten_clean - b.maxwritten_clean AS maxwritten_clean,
       a.buffers_backend - b.buffers_backend AS buffers_backend,
       a.buffers_alloc - b.buffers_alloc AS buffers_alloc,
       a.io_reads - b.io_reads AS io_reads,
       a.io_writes - b.io_writes AS io_writes,
       a.io_extends - b.io_extends AS io_extends,
       a.io_fsyncs - b.io_fsyncs AS io_fsyncs,
       a.xact_commit - b.xact_commit AS xact_commit,
       a.xact_rollback - b.xact_rollback AS xact_rollback,
       a.blks_read - b.blks_read AS blks_read,
       a.blks_hit - b.blks_hit AS blks_hit,
       round((a.blks_read - b.blks_read)::numeric / NULLIF(a.transactions - b.transactions, 0), 4) AS blks_read_per_tx,
       round((a.blks_hit - b.blks_hit)::numeric / NULLIF(a.transactions - b.transactions, 0), 4) AS blks_hit_per_tx,
       round((a.blks_hit - b.blks_hit)::numeric
             / NULLIF(a.blks_hit - b.blks_hit + a.blks_read - b.blks_read, 0), 6) AS cache_hit_ratio,
       a.temp_files - b.temp_files AS temp_files,
       a.temp_bytes - b.temp_bytes AS temp_bytes,
       a.deadlocks - b.deadlocks AS deadlocks,
       a.server_cpu_s - b.server_cpu_s AS server_cpu_s,
       round(((a.server_cpu_s - b.server_cpu_s) * 1000
              / NULLIF(a.transactions - b.transactions, 0))::numeric, 6) AS server_cpu_ms_per_tx,
       -- in numeric, as in bench.interval_counters
       (a.host_cpu_busy_s::numeric - b.host_cpu_busy_s::numeric)::double precision AS host_cpu_busy_s,
       (a.host_cpu_total_s::numeric - b.host_cpu_total_s::numeric)::double precision AS host_cpu_total_s
  FROM bench.runs r
  JOIN bench.sample_counters b ON b.run_id = r.id AND b.phase = 'before'
  JOIN bench.sample_counters a ON a.run_id = r.id AND a.phase = 'after'
 -- a run whose target restarted or failed over under it
 -- (on_disconnect => 'reconnect'): the sample after is another server's,
 -- and nothing is subtracted
 WHERE a.server_started IS NOT DISTINCT FROM b.server_started;

COMMENT ON VIEW bench.run_counters IS
    'Server counters over each run (sample after minus sample before), with WAL, blocks and CPU per transaction';
GRANT SELECT ON bench.run_counters TO PUBLIC;
