--
-- bench._svg_tick_label: an axis value written with as many decimals as
-- the step between ticks needs; from a step of 1000 on in thousands ("5k"),
-- from 1000000 on in millions ("2M"); zero as "0".
--
CREATE OR REPLACE FUNCTION bench._svg_tick_label(v double precision, step double precision)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT CASE WHEN pg_catalog.abs(v) < step * 1e-6 THEN '0'
            WHEN step >= 1e6
            THEN pg_catalog.round((v / 1e6)::numeric,
                     GREATEST(0, pg_catalog.ceil(-pg_catalog.log(step / 1e6) - 1e-6))::integer)::text || 'M'
            WHEN step >= 1e3
            THEN pg_catalog.round((v / 1e3)::numeric,
                     GREATEST(0, pg_catalog.ceil(-pg_catalog.log(step / 1e3) - 1e-6))::integer)::text || 'k'
            ELSE pg_catalog.round(v::numeric,
                     GREATEST(0, pg_catalog.ceil(-pg_catalog.log(step) - 1e-6))::integer)::text
       END
$fn$;

COMMENT ON FUNCTION bench._svg_tick_label(double precision, double precision) IS
    'Internal (charts): an axis tick value as a label';
