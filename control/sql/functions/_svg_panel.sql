--
-- bench._svg_panel: the frame of a plot: its grid lines at the ticks, the
-- tick labels, the border and the y axis title (written upwards, left of
-- the tick labels).  The plot is the rectangle l, t, w, h in pixels; x
-- runs from xlo to xhi, y over its ticks.  x labels may be NULL (a panel
-- sharing the x axis of the one below); a label with a newline gets a
-- second, smaller line.  An x tick with a NULL label gets its grid line
-- only.
--
CREATE OR REPLACE FUNCTION bench._svg_panel(
    l double precision, t double precision, w double precision, h double precision,
    xlo double precision, xhi double precision, xticks double precision[], xlabels text[],
    yticks double precision[], ylabels text[], ytitle text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    ylo     double precision := yticks[1];
    yhi     double precision := yticks[cardinality(yticks)];
    o       text[] := '{}';
    x       double precision;
    y       double precision;
    lab     text;
BEGIN
    o := o || '<g class="panel">'::text;
    -- grid
    o := o || '<g stroke="#e4e4e4" stroke-width="1" shape-rendering="crispEdges">'::text;
    FOR i IN 1 .. COALESCE(cardinality(yticks), 0) LOOP
        y := t + h - (yticks[i] - ylo) / NULLIF(yhi - ylo, 0) * h;
        CONTINUE WHEN y IS NULL;
        o := o || format('<line x1="%s" y1="%s" x2="%s" y2="%s"/>',
                         bench._svg_num(l), bench._svg_num(y), bench._svg_num(l + w), bench._svg_num(y));
    END LOOP;
    FOR i IN 1 .. COALESCE(cardinality(xticks), 0) LOOP
        CONTINUE WHEN xticks[i] < xlo OR xticks[i] > xhi;
        x := l + (xticks[i] - xlo) / NULLIF(xhi - xlo, 0) * w;
        CONTINUE WHEN x IS NULL;
        o := o || format('<line x1="%s" y1="%s" x2="%s" y2="%s"/>',
                         bench._svg_num(x), bench._svg_num(t), bench._svg_num(x), bench._svg_num(t + h));
    END LOOP;
    o := o || '</g>'::text;
    -- border
    o := o || format('<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="#999999" shape-rendering="crispEdges"/>',
                     bench._svg_num(l), bench._svg_num(t), bench._svg_num(w), bench._svg_num(h));
    -- y tick labels, right-aligned left of the plot
    o := o || '<g font-size="11" fill="#333333" text-anchor="end">'::text;
    FOR i IN 1 .. COALESCE(cardinality(yticks), 0) LOOP
        y := t + h - (yticks[i] - ylo) / NULLIF(yhi - ylo, 0) * h;
        CONTINUE WHEN y IS NULL OR ylabels[i] IS NULL;
        o := o || bench._svg_text(l - 6, y + 4, bench._svg_escape(ylabels[i]));
    END LOOP;
    o := o || '</g>'::text;
    -- x tick labels, centered under their tick
    IF xlabels IS NOT NULL THEN
        o := o || '<g font-size="11" fill="#333333" text-anchor="middle">'::text;
        FOR i IN 1 .. COALESCE(cardinality(xticks), 0) LOOP
            CONTINUE WHEN xticks[i] < xlo OR xticks[i] > xhi OR xlabels[i] IS NULL;
            x := l + (xticks[i] - xlo) / NULLIF(xhi - xlo, 0) * w;
            CONTINUE WHEN x IS NULL;
            lab := bench._svg_escape(split_part(xlabels[i], E'\n', 1));
            IF strpos(xlabels[i], E'\n') > 0 THEN
                lab := lab || format('<tspan x="%s" dy="13" font-size="10" fill="#666666">%s</tspan>',
                                     bench._svg_num(x), bench._svg_escape(split_part(xlabels[i], E'\n', 2)));
            END IF;
            o := o || bench._svg_text(x, t + h + 15, lab);
        END LOOP;
        o := o || '</g>'::text;
    END IF;
    -- y axis title
    IF ytitle IS NOT NULL THEN
        o := o || bench._svg_text(16, t + h / 2, bench._svg_escape(bench._svg_fit(ytitle, h + 16, 12)),
                                  format('class="axis-title" font-size="12" fill="#222222" text-anchor="middle" transform="rotate(-90 16 %s)"',
                                         bench._svg_num(t + h / 2)));
    END IF;
    o := o || '</g>'::text;
    RETURN array_to_string(o, E'\n');
END
$fn$;

COMMENT ON FUNCTION bench._svg_panel(double precision, double precision, double precision, double precision,
                                     double precision, double precision, double precision[], text[],
                                     double precision[], text[], text) IS
    'Internal (charts): grid, border, tick labels and y title of a plot';
