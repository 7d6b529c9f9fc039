--
-- bench._svg_num: a coordinate or length, to 0.1 px, without trailing
-- zeros ("12", "12.5").
--
CREATE OR REPLACE FUNCTION bench._svg_num(v double precision)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT pg_catalog.trim_scale(pg_catalog.round(v::numeric, 1))::text
$fn$;

COMMENT ON FUNCTION bench._svg_num(double precision) IS
    'Internal (charts): a number rounded to 0.1 as compact text';
