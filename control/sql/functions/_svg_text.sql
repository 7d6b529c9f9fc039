--
-- bench._svg_text: a <text> element at (x, y); body is markup (escape text
-- with bench._svg_escape first), attrs more attributes.
--
CREATE OR REPLACE FUNCTION bench._svg_text(x double precision, y double precision, body text,
                                           attrs text DEFAULT '')
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT '<text x="' || bench._svg_num(x) || '" y="' || bench._svg_num(y) || '"'
       || CASE WHEN attrs = '' THEN '' ELSE ' ' || attrs END
       || '>' || body || '</text>'
$fn$;

COMMENT ON FUNCTION bench._svg_text(double precision, double precision, text, text) IS
    'Internal (charts): an SVG text element';
