--
-- bench._many_tps: a throughput as the Markdown tables write it: three
-- significant digits, no decimals from 100 up ("6338", "948", "99.2").
--
CREATE OR REPLACE FUNCTION bench._many_tps(v double precision)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT CASE WHEN v IS NULL THEN NULL
            WHEN v = 0 THEN '0'
            ELSE pg_catalog.round(v::numeric,
                     GREATEST(0, 2 - pg_catalog.floor(pg_catalog.log(pg_catalog.abs(v::numeric)))::integer))::text END
$fn$;

COMMENT ON FUNCTION bench._many_tps(double precision) IS
    'Internal (comparisons): a throughput to three significant digits, none after the point from 100 up';
