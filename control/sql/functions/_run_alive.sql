--
-- The state of a run as its readers show it.  A run is alive while its
-- coordinator holds the run's lock (bench._run_alive, in the library); a
-- run whose stored row says 'running' and whose coordinator is gone (a
-- crash, an immediate shutdown) is shown by the view bench.runs as the
-- aborted run it is, with what its progress rows kept
-- (bench._run_aborted), until the next bench function writes it so.
--
CREATE OR REPLACE FUNCTION bench._run_alive(run_id bigint)
RETURNS boolean
LANGUAGE c STRICT VOLATILE PARALLEL RESTRICTED
AS 'MODULE_PATHNAME', 'bench_run_alive';

COMMENT ON FUNCTION bench._run_alive(bigint) IS
    'Internal: false only for a run left running by a coordinator that is gone: no one holds the run''s lock and its newest row (read with a snapshot taken then) still says running';
