-- a row of bench.runs as it is now (read again if its coordinator is gone
-- since it was read)
CREATE OR REPLACE FUNCTION bench._run_state(r bench.runs)
RETURNS bench.runs
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT CASE WHEN r.status = 'running' AND NOT bench._run_alive(r.id)
            THEN (SELECT v FROM bench.runs v WHERE v.id = r.id) ELSE r END
$fn$;

COMMENT ON FUNCTION bench._run_state(bench.runs) IS
    'Internal: a run''s row as its readers show it: aborted as soon as its coordinator is gone';
