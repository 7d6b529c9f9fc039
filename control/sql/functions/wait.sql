CREATE OR REPLACE FUNCTION bench.wait(run_id bigint)
RETURNS bench.runs
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_wait';

COMMENT ON FUNCTION bench.wait(bigint) IS
    'Wait for a run to end, printing its progress, and return its row of bench.runs';
REVOKE ALL ON FUNCTION bench.wait(bigint) FROM PUBLIC;
