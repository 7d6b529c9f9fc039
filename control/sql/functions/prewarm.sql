--
-- bench.prewarm: load a workload's relations into shared buffers.
--
CREATE OR REPLACE FUNCTION bench.prewarm(workload text,
    OUT relation text, OUT kind text, OUT blocks bigint, OUT seconds double precision)
RETURNS SETOF record
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_prewarm';

COMMENT ON FUNCTION bench.prewarm(text) IS
    'Load the tables and indexes of a workload''s dataset into shared buffers with pg_prewarm; one row per relation';
