--
-- bench.interval_counters: what happened between one sample and the next.
--
CREATE OR REPLACE VIEW bench.interval_counters AS
SELECT c.run_id, c.sample_no, c.phase,
       p.taken_at AS interval_start, c.taken_at AS interval_end,
       c.elapsed_s,
       c.elapsed_s - p.elapsed_s AS seconds,
       c.transactions - p.transactions AS transactions,
       c.wal_insert_lsn - p.wal_insert_lsn AS wal_generated_bytes,
       c.wal_bytes - p.wal_bytes AS wal_bytes,
       c.wal_records - p.wal_records AS wal_records,
       c.wal_fpi - p.wal_fpi AS wal_fpi,
       round((c.wal_insert_lsn - p.wal_insert_lsn) / 1e6
             / NULLIF(c.elapsed_s - p.elapsed_s, 0)::numeric, 3) AS wal_mb_per_s,
       c.checkpoints_timed - p.checkpoints_timed AS checkpoints_timed,
       c.checkpoints_requested - p.checkpoints_requested AS checkpoints_requested,
       c.buffers_checkpoint - p.buffers_checkpoint AS buffers_checkpoint,
       c.buffers_clean - p.buffers_clean AS buffers_clean,
       c.buffers_backend - p.buffers_backend AS buffers_backend,
       c.blks_read - p.blks_read AS blks_read,
       c.blks_hit - p.blks_hit AS blks_hit,
       c.temp_bytes - p.temp_bytes AS temp_bytes,
       c.server_cpu_s - p.server_cpu_s AS server_cpu_s,
       -- the CPU seconds are decimal counts of clock ticks: subtracted in
       -- numeric, so that an interval in which no CPU was idle has busy equal
       -- to total (as doubles, one could come out a rounding above the other)
       (c.host_cpu_busy_s::numeric - p.host_cpu_busy_s::numeric)::double precision AS host_cpu_busy_s,
       (c.host_cpu_total_s::numeric - p.host_cpu_total_s::numeric)::double precision AS host_cpu_total_s
  FROM bench.sample_counters c
  JOIN bench.sample_counters p ON p.run_id = c.run_id AND p.sample_no = c.sample_no - 1
 -- a sample after a restart or a failover (on_disconnect => 'reconnect')
 -- is another server's: nothing is subtracted across the change (samples
 -- of 0.2.0 and before name no server's start)
 WHERE c.server_started IS NOT DISTINCT FROM p.server_started;

COMMENT ON VIEW bench.interval_counters IS
    'Server counters between consecutive samples of a run: WAL, checkpoints, buffers, blocks, CPU';
GRANT SELECT ON bench.interval_counters TO PUBLIC;
