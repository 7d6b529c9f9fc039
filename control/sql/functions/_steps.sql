-- internal: a suite of steps, each a run of its own arguments (suite.c)
CREATE OR REPLACE FUNCTION bench._steps(spec jsonb, wait boolean)
RETURNS bigint
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_steps';

COMMENT ON FUNCTION bench._steps(jsonb, boolean) IS
    'Internal: start a suite of steps (bench.ibench''s), each step checked as bench.run checks its arguments first; its id, when done (wait) or started';
REVOKE ALL ON FUNCTION bench._steps(jsonb, boolean) FROM PUBLIC;
