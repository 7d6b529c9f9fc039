--
-- bench._svg_tick_labels: the labels of ticks made by bench._svg_ticks.
--
CREATE OR REPLACE FUNCTION bench._svg_tick_labels(ticks double precision[])
RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT pg_catalog.array_agg(bench._svg_tick_label(t.v, ticks[2] - ticks[1]) ORDER BY t.i)
  FROM pg_catalog.unnest(ticks) WITH ORDINALITY AS t (v, i)
$fn$;

COMMENT ON FUNCTION bench._svg_tick_labels(double precision[]) IS
    'Internal (charts): labels of axis ticks';
