--
-- bench._svg_escape: text made safe for an XML text node or attribute
-- value; control characters (not allowed in XML 1.0) become spaces.
--
CREATE OR REPLACE FUNCTION bench._svg_escape(t text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(
           pg_catalog.regexp_replace(t, E'[\\x01-\\x1f]', ' ', 'g'),
           '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;')
$fn$;

COMMENT ON FUNCTION bench._svg_escape(text) IS
    'Internal (charts): text escaped for XML';
