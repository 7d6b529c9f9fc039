--
-- bench._svg_fit: text cut to what fits in px pixels at a font size (an
-- estimate: the average glyph of a sans-serif font is about 0.6 em wide),
-- with "..." where it was cut.
--
CREATE OR REPLACE FUNCTION bench._svg_fit(t text, px double precision, size double precision)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT CASE WHEN pg_catalog.length(t) * size * 0.6 <= px THEN t
            ELSE pg_catalog.rtrim(pg_catalog.left(t, GREATEST(pg_catalog.floor(px / (size * 0.6))::integer - 3, 1)))
                 || '...' END
$fn$;

COMMENT ON FUNCTION bench._svg_fit(text, double precision, double precision) IS
    'Internal (charts): text shortened to fit a width in pixels';
