--
-- bench._svg_no_data: the note centered at (cx, cy) that a plot has
-- nothing to show, and why.
--
CREATE OR REPLACE FUNCTION bench._svg_no_data(cx double precision, cy double precision, reason text DEFAULT NULL)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT bench._svg_text(cx, cy + 5, 'no data',
                       'class="no-data" font-size="16" fill="#777777" text-anchor="middle"')
       || CASE WHEN reason IS NULL THEN '' ELSE E'\n'
          || bench._svg_text(cx, cy + 23, bench._svg_escape(reason),
                             'font-size="12" fill="#777777" text-anchor="middle"') END
$fn$;

COMMENT ON FUNCTION bench._svg_no_data(double precision, double precision, text) IS
    'Internal (charts): a centered "no data" note';
