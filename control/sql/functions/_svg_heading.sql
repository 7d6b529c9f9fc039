--
-- bench._svg_heading: the title (bold) and the subtitle (grey) of a chart,
-- each cut to the width.
--
CREATE OR REPLACE FUNCTION bench._svg_heading(width integer, title text, subtitle text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT bench._svg_text(16, 24, bench._svg_escape(bench._svg_fit(title, width - 32, 16)),
                       'class="title" font-size="16" font-weight="bold" fill="#222222"')
       || CASE WHEN subtitle IS NULL THEN '' ELSE E'\n'
          || bench._svg_text(16, 42, bench._svg_escape(bench._svg_fit(subtitle, width - 32, 12)),
                             'class="subtitle" font-size="12" fill="#555555"') END
$fn$;

COMMENT ON FUNCTION bench._svg_heading(integer, text, text) IS
    'Internal (charts): title and subtitle of a chart';
