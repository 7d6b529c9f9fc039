--
-- bench._svg_open: the start of a chart: the svg element, a title for
-- screen readers and tooltips, and the white background.
--
CREATE OR REPLACE FUNCTION bench._svg_open(width integer, height integer, title text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT pg_catalog.format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s"'
                         ' font-family="Helvetica, Arial, sans-serif">', width, height, width, height)
       || E'\n<title>' || bench._svg_escape(title) || '</title>'
       || pg_catalog.format(E'\n<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>', width, height)
$fn$;

COMMENT ON FUNCTION bench._svg_open(integer, integer, text) IS
    'Internal (charts): the opening of an SVG document with a white background';
