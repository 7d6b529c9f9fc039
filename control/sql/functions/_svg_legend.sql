--
-- bench._svg_legend: a legend laid out in rows from (x, y), wrapping at
-- maxw pixels; returns the markup and the height it took, or nothing when
-- it would take more than maxh (a small picture keeps its room for the
-- data; the series have their names on the axes).  Each entry is a
-- kind of glyph, a colour and a label; the kinds: line, linepoint, point,
-- hollow (an open circle), band (a translucent box, as the charts shade
-- spans of time or value), dash (a dashed line), errorbar.
--
CREATE OR REPLACE FUNCTION bench._svg_legend(x double precision, y double precision,
                                             maxw double precision, maxh double precision,
                                             kinds text[], colours text[], labels text[],
                                             OUT svg text, OUT height double precision)
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    cx      double precision := x;
    cy      double precision := y;
    iw      double precision;
    mid     double precision;
    c       text;
    o       text[] := ARRAY['<g class="legend" font-size="12" fill="#222222">'];
BEGIN
    IF COALESCE(cardinality(kinds), 0) = 0 THEN
        svg := '';
        height := 0;
        RETURN;
    END IF;
    FOR i IN 1 .. cardinality(kinds) LOOP
        iw := 24 + length(labels[i]) * 6.2;
        IF cx > x AND cx + iw > x + maxw THEN
            cx := x;
            cy := cy + 18;
        END IF;
        mid := cy + 9;
        c := colours[i];
        o := o || CASE kinds[i]
            WHEN 'line' THEN
                format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"/>',
                       bench._svg_num(cx), bench._svg_num(mid), bench._svg_num(cx + 18), bench._svg_num(mid), c)
            WHEN 'linepoint' THEN
                format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"/><circle cx="%s" cy="%s" r="3.5" fill="%s"/>',
                       bench._svg_num(cx), bench._svg_num(mid), bench._svg_num(cx + 18), bench._svg_num(mid), c,
                       bench._svg_num(cx + 9), bench._svg_num(mid), c)
            WHEN 'point' THEN
                format('<circle cx="%s" cy="%s" r="4.5" fill="%s"/>', bench._svg_num(cx + 9), bench._svg_num(mid), c)
            WHEN 'hollow' THEN
                format('<circle cx="%s" cy="%s" r="4" fill="#ffffff" stroke="%s" stroke-width="1.5"/>',
                       bench._svg_num(cx + 9), bench._svg_num(mid), c)
            WHEN 'band' THEN
                format('<rect x="%s" y="%s" width="18" height="12" fill="%s" fill-opacity="0.2" stroke="%s" stroke-opacity="0.5"/>',
                       bench._svg_num(cx), bench._svg_num(mid - 6), c, c)
            WHEN 'dash' THEN
                format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.2" stroke-dasharray="4,3"/>',
                       bench._svg_num(cx), bench._svg_num(mid), bench._svg_num(cx + 18), bench._svg_num(mid), c)
            WHEN 'errorbar' THEN
                format('<path d="M%s %sV%sM%s %sH%sM%s %sH%s" stroke="%s" stroke-width="1.2" fill="none"/>',
                       bench._svg_num(cx + 9), bench._svg_num(mid - 7), bench._svg_num(mid + 7),
                       bench._svg_num(cx + 5), bench._svg_num(mid - 7), bench._svg_num(cx + 13),
                       bench._svg_num(cx + 5), bench._svg_num(mid + 7), bench._svg_num(cx + 13), c)
            END;
        o := o || bench._svg_text(cx + 24, mid + 4, bench._svg_escape(labels[i]));
        cx := cx + iw + 16;
    END LOOP;
    o := o || '</g>'::text;
    svg := array_to_string(o, E'\n');
    height := cy - y + 18;
    IF height > maxh THEN
        svg := '';
        height := 0;
    END IF;
END
$fn$;

COMMENT ON FUNCTION bench._svg_legend(double precision, double precision, double precision, double precision,
                                      text[], text[], text[]) IS
    'Internal (charts): a legend in rows';
