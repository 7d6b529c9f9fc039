CREATE OR REPLACE FUNCTION bench.cancel(run_id bigint)
RETURNS boolean
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_cancel';

COMMENT ON FUNCTION bench.cancel(bigint) IS
    'Cancel a running run: its clients stop, what it measured is kept, its status becomes canceled';
REVOKE ALL ON FUNCTION bench.cancel(bigint) FROM PUBLIC;
