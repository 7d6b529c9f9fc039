CREATE OR REPLACE FUNCTION bench.drop_workload(name text, if_exists boolean DEFAULT false)
RETURNS boolean
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_drop_workload';

COMMENT ON FUNCTION bench.drop_workload(text, boolean) IS
    'Drop a custom workload; runs keep the scripts they ran';
REVOKE ALL ON FUNCTION bench.drop_workload(text, boolean) FROM PUBLIC;
