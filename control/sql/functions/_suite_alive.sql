--
-- The state of a suite as its readers show it.  A suite is alive while its
-- worker holds the suite's lock (bench._suite_alive, in the library); a
-- suite whose stored row says 'running' and whose worker is gone is shown
-- by the view bench.suites as the aborted suite it is, its finished runs
-- kept, until the next bench function writes it so.
--
CREATE OR REPLACE FUNCTION bench._suite_alive(suite_id bigint)
RETURNS boolean
LANGUAGE c STRICT VOLATILE PARALLEL RESTRICTED
AS 'MODULE_PATHNAME', 'bench_suite_alive';

COMMENT ON FUNCTION bench._suite_alive(bigint) IS
    'Internal: false only for a suite left running by a worker that is gone: no one holds the suite''s lock and its newest row (read with a snapshot taken then) still says running';
