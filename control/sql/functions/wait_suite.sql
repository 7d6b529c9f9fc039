CREATE OR REPLACE FUNCTION bench.wait_suite(suite_id bigint)
RETURNS SETOF bench.suite_summary
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_wait_suite';

COMMENT ON FUNCTION bench.wait_suite(bigint) IS
    'Wait for a suite to end, printing its runs as they go, and return its summary';
REVOKE ALL ON FUNCTION bench.wait_suite(bigint) FROM PUBLIC;
