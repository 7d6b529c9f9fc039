CREATE OR REPLACE FUNCTION bench.cancel_suite(suite_id bigint)
RETURNS boolean
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_cancel_suite';

COMMENT ON FUNCTION bench.cancel_suite(bigint) IS
    'Cancel a running suite: its current run is canceled, its finished runs are kept, its status becomes canceled';
REVOKE ALL ON FUNCTION bench.cancel_suite(bigint) FROM PUBLIC;
