-- a row of bench.suites as it is now (read again if its worker is gone
-- since it was read)
CREATE OR REPLACE FUNCTION bench._suite_state(s bench.suites)
RETURNS bench.suites
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT CASE WHEN s.status = 'running' AND NOT bench._suite_alive(s.id)
            THEN (SELECT v FROM bench.suites v WHERE v.id = s.id) ELSE s END
$fn$;

COMMENT ON FUNCTION bench._suite_state(bench.suites) IS
    'Internal: a suite''s row as its readers show it: aborted as soon as its worker is gone';
