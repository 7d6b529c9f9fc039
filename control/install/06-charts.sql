--
-- Charts: SVG drawn in SQL
--
--
-- Charts: a run, a suite or a schedule drawn as a standalone SVG document,
-- made in SQL from the tables above, to be saved with psql:
--
--   \pset format unaligned
--   \pset tuples_only on
--   \o run42.svg
--   SELECT bench.chart_run(42);
--   \o
--
-- The bench._svg_* functions are the drawing kit they share: internal, not
-- part of the interface.  The small ones are LANGUAGE sql without a SET
-- clause so that the planner inlines them (they are called once per point),
-- and name only pg_catalog functions; only functions that pin search_path
-- call them, so their operators too are pg_catalog's once inlined (the
-- body is parsed when the caller's query is planned, under the caller's
-- pinned search_path).  The others pin search_path as every function of
-- the extension does.  The install script is kept ASCII: what
-- needs another character in the picture is written as an XML character
-- reference.
--

--
-- bench._svg_escape: text made safe for an XML text node or attribute
-- value; control characters (not allowed in XML 1.0) become spaces.
--
CREATE FUNCTION bench._svg_escape(t text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(
           pg_catalog.regexp_replace(t, E'[\\x01-\\x1f]', ' ', 'g'),
           '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;')
$fn$;

COMMENT ON FUNCTION bench._svg_escape(text) IS
    'Internal (charts): text escaped for XML';

--
-- bench._svg_num: a coordinate or length, to 0.1 px, without trailing
-- zeros ("12", "12.5").
--
CREATE FUNCTION bench._svg_num(v double precision)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT pg_catalog.trim_scale(pg_catalog.round(v::numeric, 1))::text
$fn$;

COMMENT ON FUNCTION bench._svg_num(double precision) IS
    'Internal (charts): a number rounded to 0.1 as compact text';

--
-- bench._svg_text: a <text> element at (x, y); body is markup (escape text
-- with bench._svg_escape first), attrs more attributes.
--
CREATE FUNCTION bench._svg_text(x double precision, y double precision, body text,
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

--
-- bench._svg_fit: text cut to what fits in px pixels at a font size (an
-- estimate: the average glyph of a sans-serif font is about 0.6 em wide),
-- with "..." where it was cut.
--
CREATE FUNCTION bench._svg_fit(t text, px double precision, size double precision)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT CASE WHEN pg_catalog.length(t) * size * 0.6 <= px THEN t
            ELSE pg_catalog.rtrim(pg_catalog.left(t, GREATEST(pg_catalog.floor(px / (size * 0.6))::integer - 3, 1)))
                 || '...' END
$fn$;

COMMENT ON FUNCTION bench._svg_fit(text, double precision, double precision) IS
    'Internal (charts): text shortened to fit a width in pixels';

--
-- bench._svg_check_size: the checks of width and height every chart makes.
--
CREATE FUNCTION bench._svg_check_size(fn text, width integer, height integer)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF width IS NULL OR height IS NULL THEN
        RAISE EXCEPTION 'argument "%" of % must not be null',
                        CASE WHEN width IS NULL THEN 'width' ELSE 'height' END, fn
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Leave the argument out to use its default.';
    END IF;
    IF width NOT BETWEEN 200 AND 4000 OR height NOT BETWEEN 200 AND 4000 THEN
        RAISE EXCEPTION '% must be between 200 and 4000 pixels, not %',
                        CASE WHEN width NOT BETWEEN 200 AND 4000 THEN 'width' ELSE 'height' END,
                        CASE WHEN width NOT BETWEEN 200 AND 4000 THEN width ELSE height END
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'width and height are the size of the picture in pixels; the defaults are 900 and 560.';
    END IF;
END
$fn$;

COMMENT ON FUNCTION bench._svg_check_size(text, integer, integer) IS
    'Internal (charts): refuses a NULL or out-of-range picture size';

--
-- bench._svg_ticks: "nice" axis ticks covering lo..hi in at most n steps,
-- as many as fit, each step 1, 2 or 5 times a power of ten.  The first and
-- last elements are the ends of the axis (lo rounded down, hi up, to the
-- step).  An empty or unknown range still gives an axis: 0..1 for
-- nothing, +-10% around a single value.
--
CREATE FUNCTION bench._svg_ticks(lo double precision, hi double precision, n integer)
RETURNS double precision[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    mag     double precision;
    m       double precision;
    step    double precision;
    first   double precision;
    last    double precision;
    tmp     double precision;
BEGIN
    -- NaN and the infinities are no range to draw
    IF lo IS NULL OR lo <> lo OR abs(lo) = 'Infinity' THEN
        lo := NULL;
    END IF;
    IF hi IS NULL OR hi <> hi OR abs(hi) = 'Infinity' THEN
        hi := NULL;
    END IF;
    lo := COALESCE(lo, LEAST(hi, 0), 0);
    hi := COALESCE(hi, lo + 1);
    IF hi < lo THEN
        tmp := lo; lo := hi; hi := tmp;
    END IF;
    IF hi = lo THEN
        IF lo = 0 THEN
            hi := 1;
        ELSE
            lo := lo - abs(lo) * 0.1;
            hi := hi + abs(hi) * 0.1;
        END IF;
    END IF;
    n := GREATEST(n, 1);
    -- the smallest step that needs no more than n: from the power of ten
    -- under (hi - lo) / n up.  A value a hair past a round number (a last
    -- interval that ended at 20.005 s) counts as on it: up to 1% of a step.
    mag := power(10::double precision, floor(log((hi - lo) / n)));
    FOREACH m IN ARRAY ARRAY[1, 2, 5, 10, 20, 50]::double precision[] LOOP
        step := mag * m;
        first := floor(lo / step + 0.01) * step;
        last := ceil(hi / step - 0.01) * step;
        IF last <= first THEN
            last := first + step;
        END IF;
        EXIT WHEN round((last - first) / step) <= n;
    END LOOP;
    RETURN ARRAY(SELECT first + i * step
                   FROM generate_series(0, round((last - first) / step)::integer) i);
END
$fn$;

COMMENT ON FUNCTION bench._svg_ticks(double precision, double precision, integer) IS
    'Internal (charts): nice axis ticks (1-2-5 steps) covering a range';

--
-- bench._svg_tick_label: an axis value written with as many decimals as
-- the step between ticks needs; from a step of 1000 on in thousands ("5k"),
-- from 1000000 on in millions ("2M"); zero as "0".
--
CREATE FUNCTION bench._svg_tick_label(v double precision, step double precision)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT CASE WHEN pg_catalog.abs(v) < step * 1e-6 THEN '0'
            WHEN step >= 1e6
            THEN pg_catalog.round((v / 1e6)::numeric,
                     GREATEST(0, pg_catalog.ceil(-pg_catalog.log(step / 1e6) - 1e-6))::integer)::text || 'M'
            WHEN step >= 1e3
            THEN pg_catalog.round((v / 1e3)::numeric,
                     GREATEST(0, pg_catalog.ceil(-pg_catalog.log(step / 1e3) - 1e-6))::integer)::text || 'k'
            ELSE pg_catalog.round(v::numeric,
                     GREATEST(0, pg_catalog.ceil(-pg_catalog.log(step) - 1e-6))::integer)::text
       END
$fn$;

COMMENT ON FUNCTION bench._svg_tick_label(double precision, double precision) IS
    'Internal (charts): an axis tick value as a label';

--
-- bench._svg_tick_labels: the labels of ticks made by bench._svg_ticks.
--
CREATE FUNCTION bench._svg_tick_labels(ticks double precision[])
RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT pg_catalog.array_agg(bench._svg_tick_label(t.v, ticks[2] - ticks[1]) ORDER BY t.i)
  FROM pg_catalog.unnest(ticks) WITH ORDINALITY AS t (v, i)
$fn$;

COMMENT ON FUNCTION bench._svg_tick_labels(double precision[]) IS
    'Internal (charts): labels of axis ticks';

--
-- bench._svg_time_ticks: ticks of a time axis from lo to hi, about n of
-- them, at round times of the session's time zone (every 5 minutes, 6
-- hours, 1 day, 1 month...).  A label has two lines: the time in the
-- step's unit, and under it the date (or year), on the first tick and
-- where it changes.
--
CREATE FUNCTION bench._svg_time_ticks(lo timestamptz, hi timestamptz, n integer,
                                                 OUT ticks timestamptz[], OUT labels text[])
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    steps   constant interval[] := ARRAY[
                '1 s', '2 s', '5 s', '10 s', '15 s', '30 s',
                '1 min', '2 min', '5 min', '10 min', '15 min', '30 min',
                '1 hour', '2 hours', '3 hours', '6 hours', '12 hours',
                '1 day', '2 days', '7 days', '14 days',
                '1 mon', '2 mons', '3 mons', '6 mons',
                '1 year', '2 years', '5 years', '10 years']::interval[];
    span    double precision := extract(epoch FROM hi - lo);
    step    interval;
    start   timestamptz;
    t       timestamptz;
    k       integer := 0;
    fmt1    text;
    fmt2    text;
    line2   text;
    prev2   text;
BEGIN
    ticks := '{}';
    labels := '{}';
    -- the smallest step that gives no more than n ticks
    FOREACH step IN ARRAY steps LOOP
        EXIT WHEN span / extract(epoch FROM step) <= GREATEST(n, 1);
    END LOOP;
    IF step < '1 min' THEN
        start := date_trunc('minute', lo); fmt1 := 'HH24:MI:SS'; fmt2 := 'YYYY-MM-DD';
    ELSIF step < '1 hour' THEN
        start := date_trunc('hour', lo); fmt1 := 'HH24:MI'; fmt2 := 'YYYY-MM-DD';
    ELSIF step < '1 day' THEN
        start := date_trunc('day', lo); fmt1 := 'HH24:MI'; fmt2 := 'YYYY-MM-DD';
    ELSIF step < '7 days' THEN
        start := date_trunc('day', lo); fmt1 := 'Mon FMDD'; fmt2 := 'YYYY';
    ELSIF step < '1 mon' THEN
        start := date_trunc('week', lo); fmt1 := 'Mon FMDD'; fmt2 := 'YYYY';
    ELSIF step < '1 year' THEN
        start := date_trunc('year', lo); fmt1 := 'Mon'; fmt2 := 'YYYY';
    ELSE
        start := date_trunc('decade', lo); fmt1 := 'YYYY'; fmt2 := NULL;
    END IF;
    LOOP
        t := start + step * k;
        EXIT WHEN t > hi OR k > 1000;
        k := k + 1;
        CONTINUE WHEN t < lo;
        line2 := to_char(t, fmt2);
        ticks := ticks || t;
        labels := labels || (to_char(t, fmt1)
                             || CASE WHEN line2 IS DISTINCT FROM prev2 THEN E'\n' || line2 ELSE '' END);
        prev2 := line2;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION bench._svg_time_ticks(timestamptz, timestamptz, integer) IS
    'Internal (charts): ticks and labels of a time axis';

--
-- bench._svg_open: the start of a chart: the svg element, a title for
-- screen readers and tooltips, and the white background.
--
CREATE FUNCTION bench._svg_open(width integer, height integer, title text)
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

--
-- bench._svg_heading: the title (bold) and the subtitle (grey) of a chart,
-- each cut to the width.
--
CREATE FUNCTION bench._svg_heading(width integer, title text, subtitle text)
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

--
-- bench._svg_panel: the frame of a plot: its grid lines at the ticks, the
-- tick labels, the border and the y axis title (written upwards, left of
-- the tick labels).  The plot is the rectangle l, t, w, h in pixels; x
-- runs from xlo to xhi, y over its ticks.  x labels may be NULL (a panel
-- sharing the x axis of the one below); a label with a newline gets a
-- second, smaller line.  An x tick with a NULL label gets its grid line
-- only.
--
CREATE FUNCTION bench._svg_panel(
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

--
-- bench._svg_legend: a legend laid out in rows from (x, y), wrapping at
-- maxw pixels; returns the markup and the height it took, or nothing when
-- it would take more than maxh (a small picture keeps its room for the
-- data; the series have their names on the axes).  Each entry is a
-- kind of glyph, a colour and a label; the kinds: line, linepoint, point,
-- hollow (an open circle), band (a translucent box, as the charts shade
-- spans of time or value), dash (a dashed line), errorbar.
--
CREATE FUNCTION bench._svg_legend(x double precision, y double precision,
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

--
-- bench._svg_no_data: the note centered at (cx, cy) that a plot has
-- nothing to show, and why.
--
CREATE FUNCTION bench._svg_no_data(cx double precision, cy double precision, reason text DEFAULT NULL)
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

--
-- bench.chart_run: throughput and p99 latency of one run over time, as two
-- panels over one elapsed-time axis: a point per progress interval, at the
-- interval's end.  Warm-up intervals are shaded grey; stalls (intervals
-- under 10% of the median tps of the measured intervals) red; checkpoints
-- are dashed lines where the checkpoint counters of the run's samples went
-- up (at the sample that saw it: within one sample_interval after it
-- started).
--
CREATE FUNCTION bench.chart_run(run_id bigint, width integer DEFAULT 900, height integer DEFAULT 560)
RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    tps_colour  constant text := '#1f77b4';
    p99_colour  constant text := '#ff7f0e';
    stall_colour constant text := '#d62728';
    warm_colour constant text := '#888888';
    ck_colour   constant text := '#555555';
    r           bench.runs;
    n           integer;            -- progress intervals
    xmax        double precision;   -- elapsed at the end of the last one
    tps_max     double precision;
    p99_max     double precision;
    warm_end    double precision;   -- elapsed at the end of the warm-up
    med         double precision;   -- median tps of the measured intervals
    stall_below double precision;   -- tps under which an interval is a stall
    nstalls     integer;
    ck_at       double precision[]; -- elapsed of the samples that saw checkpoints
    ck_n        bigint[];           -- and how many
    kinds       text[] := ARRAY['line', 'line'];
    colours     text[] := ARRAY[tps_colour, p99_colour];
    names       text[] := ARRAY['tps', 'p99 latency'];
    lg          record;
    sub         text[] := '{}';
    -- layout, in pixels: two panels of height ph, the tps one above
    pl          constant double precision := 72;
    pw          double precision := width - 72 - 24;
    top1        double precision;
    bot1        double precision;
    top2        double precision;
    bot2        double precision;
    ph          double precision;
    xt          double precision[];
    yt1         double precision[];
    yt2         double precision[];
    -- data to pixels: x = ax + bx * elapsed, y = ayN + byN * value
    ax          constant double precision := 72;
    bx          double precision;
    ay1         double precision;
    by1         double precision;
    ay2         double precision;
    by2         double precision;
    x           double precision;
    last_label  double precision := '-Infinity';
    o           text[];
BEGIN
    IF chart_run.run_id IS NULL THEN
        RAISE EXCEPTION 'argument "run_id" of bench.chart_run must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the id of a run, as bench.runs lists them.';
    END IF;
    PERFORM bench._svg_check_size('bench.chart_run', width, height);
    SELECT * INTO r FROM bench.runs WHERE id = chart_run.run_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'run % does not exist', chart_run.run_id
            USING ERRCODE = 'no_data_found',
                  HINT = 'bench.runs lists the runs.';
    END IF;
    -- aborted as soon as its coordinator is gone
    r := bench._run_state(r);

    -- the intervals; the median is of the measured ones (of all when the
    -- run never left its warm-up)
    SELECT count(*), max(p.elapsed_s), max(p.tps), max(p.latency_p99_ms),
           max(p.elapsed_s) FILTER (WHERE p.in_warmup),
           COALESCE(percentile_cont(0.5) WITHIN GROUP (ORDER BY p.tps) FILTER (WHERE NOT p.in_warmup),
                    percentile_cont(0.5) WITHIN GROUP (ORDER BY p.tps))
      INTO n, xmax, tps_max, p99_max, warm_end, med
      FROM bench.progress p
     WHERE p.run_id = r.id;
    stall_below := CASE WHEN med > 0 THEN med * 0.1 END;
    SELECT count(*) INTO nstalls
      FROM bench.progress p
     WHERE p.run_id = r.id AND p.tps < stall_below;

    -- checkpoints: the samples whose timed + requested count went up
    SELECT COALESCE(array_agg(c.elapsed_s ORDER BY c.sample_no), '{}'),
           COALESCE(array_agg(c.n ORDER BY c.sample_no), '{}')
      INTO ck_at, ck_n
      FROM (SELECT s.sample_no, s.elapsed_s,
                   s.checkpoints_timed + s.checkpoints_requested
                   - lag(s.checkpoints_timed + s.checkpoints_requested) OVER (ORDER BY s.sample_no) AS n
              FROM bench.sample_counters s
             WHERE s.run_id = r.id) c
     WHERE c.n > 0;

    -- without intervals, the time axis spans the samples (or the run)
    IF n = 0 THEN
        SELECT max(s.elapsed_s) INTO xmax FROM bench.samples s WHERE s.run_id = r.id;
        xmax := COALESCE(xmax, r.measured_s);
    END IF;
    IF xmax IS NULL OR NOT xmax > 0 THEN
        xmax := 1;
    END IF;

    IF warm_end IS NOT NULL THEN
        kinds := kinds || 'band'::text; colours := colours || warm_colour; names := names || 'warm-up'::text;
    END IF;
    IF nstalls > 0 THEN
        kinds := kinds || 'band'::text; colours := colours || stall_colour;
        names := names || 'stall (under 10% of the median tps)'::text;
    END IF;
    IF cardinality(ck_at) > 0 THEN
        kinds := kinds || 'dash'::text; colours := colours || ck_colour; names := names || 'checkpoint'::text;
    END IF;

    -- layout: heading, legend, room for the checkpoint labels, the two
    -- panels 18 px apart, the x tick labels and the x title under them
    lg := bench._svg_legend(pl, 52, pw, GREATEST(18, (height - 120) * 0.2), kinds, colours, names);
    top1 := 52 + lg.height + 20;
    ph := GREATEST((height - 46 - top1 - 18) / 2, 10);
    bot1 := top1 + ph;
    top2 := bot1 + 18;
    bot2 := top2 + ph;
    xt := bench._svg_ticks(0, xmax, GREATEST(2, LEAST(10, floor(pw / 80)::integer)));
    yt1 := bench._svg_ticks(0, tps_max * 1.02, GREATEST(2, LEAST(6, floor(ph / 20)::integer)));
    yt2 := bench._svg_ticks(0, p99_max * 1.02, GREATEST(2, LEAST(6, floor(ph / 20)::integer)));
    bx := pw / xt[cardinality(xt)];
    by1 := -ph / (yt1[cardinality(yt1)] - yt1[1]);
    ay1 := bot1 - by1 * yt1[1];
    by2 := -ph / (yt2[cardinality(yt2)] - yt2[1]);
    ay2 := bot2 - by2 * yt2[1];

    sub := sub || (r.status || ', started ' || to_char(r.started_at, 'YYYY-MM-DD HH24:MI:SS'));
    sub := sub || CASE WHEN r.transactions_per_client IS NOT NULL
                       THEN r.transactions_per_client || ' transactions per client'
                       ELSE bench._svg_num(extract(epoch FROM r.duration)::double precision) || ' s' END;
    IF r.warmup > '0' THEN
        sub := sub || ('warm-up ' || bench._svg_num(extract(epoch FROM r.warmup)::double precision) || ' s');
    END IF;
    IF r.progress > '0' THEN
        sub := sub || ('progress every ' || bench._svg_num(extract(epoch FROM r.progress)::double precision) || ' s');
    END IF;
    IF r.tps IS NOT NULL THEN
        sub := sub || (round(r.tps::numeric) || ' tps'
                       || COALESCE(', p99 ' || round(r.latency_p99_ms::numeric, 3) || ' ms', '')
                       || ' overall');
    END IF;
    IF r.tag IS NOT NULL THEN
        sub := sub || ('tag ' || r.tag);
    END IF;

    o := ARRAY[bench._svg_open(width, height, format('run %s: tps and p99 latency over time', r.id)),
               bench._svg_heading(width,
                   format('run %s: %s, %s client%s, PostgreSQL %s', r.id, r.workload, r.clients,
                          CASE WHEN r.clients = 1 THEN '' ELSE 's' END, split_part(r.server_version, ' ', 1)),
                   array_to_string(sub, ', ')),
               lg.svg,
               bench._svg_panel(pl, top1, pw, ph, 0, xt[cardinality(xt)], xt, NULL,
                                yt1, bench._svg_tick_labels(yt1), 'tps'),
               bench._svg_panel(pl, top2, pw, ph, 0, xt[cardinality(xt)], xt, bench._svg_tick_labels(xt),
                                yt2, bench._svg_tick_labels(yt2), 'p99 latency (ms)'),
               bench._svg_text(pl + pw / 2, bot2 + 38, 'elapsed (s)',
                               'class="axis-title" font-size="12" fill="#222222" text-anchor="middle"')];

    -- shaded spans of time, across both panels
    IF warm_end IS NOT NULL THEN
        o := o || format('<rect class="warmup" x="%s" y="%s" width="%s" height="%s" fill="%s" fill-opacity="0.2"/>',
                         bench._svg_num(ax), bench._svg_num(top1), bench._svg_num(bx * warm_end),
                         bench._svg_num(bot2 - top1), warm_colour);
        IF bx * warm_end >= 56 THEN
            o := o || bench._svg_text(ax + 5, bot1 - 6, 'warm-up', 'font-size="11" fill="#555555"');
        END IF;
    END IF;
    IF nstalls > 0 THEN
        o := o || ARRAY(
            SELECT format('<rect class="stall" x="%s" y="%s" width="%s" height="%s" fill="%s" fill-opacity="0.2"/>',
                          bench._svg_num(ax + bx * q.s), bench._svg_num(top1),
                          bench._svg_num(GREATEST(bx * (p.elapsed_s - q.s), 2)),
                          bench._svg_num(bot2 - top1), stall_colour)
              FROM bench.progress p
             CROSS JOIN LATERAL (SELECT GREATEST(p.elapsed_s - extract(epoch FROM p.interval_end - p.interval_start)::double precision, 0) AS s) q
             WHERE p.run_id = r.id AND p.tps < stall_below
             ORDER BY p.elapsed_s);
    END IF;

    -- checkpoints: a dashed line across both panels, labelled above unless
    -- too close to the previous label
    FOR i IN 1 .. cardinality(ck_at) LOOP
        x := ax + bx * LEAST(GREATEST(ck_at[i], 0), xt[cardinality(xt)]);
        o := o || format('<line class="checkpoint" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.2" stroke-dasharray="5,4"/>',
                         bench._svg_num(x), bench._svg_num(top1), bench._svg_num(x), bench._svg_num(bot2), ck_colour);
        IF x - last_label >= 80 THEN
            o := o || bench._svg_text(x, top1 - 5,
                          'checkpoint' || CASE WHEN ck_n[i] > 1 THEN ' &#215;' || ck_n[i] ELSE '' END,
                          format('font-size="10" fill="%s" text-anchor="%s"', ck_colour,
                                 CASE WHEN x - 30 < pl THEN 'start' WHEN x + 30 > pl + pw THEN 'end' ELSE 'middle' END));
            last_label := x;
        END IF;
    END LOOP;

    -- the series: tps, and p99 latency broken where an interval had none
    o := o || (SELECT format('<polyline class="tps" fill="none" stroke="%s" stroke-width="1.5" stroke-linejoin="round" points="%s"/>',
                             tps_colour,
                             string_agg(bench._svg_num(ax + bx * p.elapsed_s) || ',' || bench._svg_num(ay1 + by1 * p.tps),
                                        ' ' ORDER BY p.elapsed_s))
                 FROM bench.progress p
                WHERE p.run_id = r.id
               HAVING count(*) > 0);
    o := o || ARRAY(
        SELECT format('<polyline class="p99" fill="none" stroke="%s" stroke-width="1.5" stroke-linejoin="round" points="%s"/>',
                      p99_colour,
                      string_agg(bench._svg_num(ax + bx * q.elapsed_s) || ',' || bench._svg_num(ay2 + by2 * q.latency_p99_ms),
                                 ' ' ORDER BY q.elapsed_s))
          FROM (SELECT p.elapsed_s, p.latency_p99_ms,
                       count(*) FILTER (WHERE p.latency_p99_ms IS NULL) OVER (ORDER BY p.elapsed_s) AS segment
                  FROM bench.progress p
                 WHERE p.run_id = r.id) q
         WHERE q.latency_p99_ms IS NOT NULL
         GROUP BY q.segment
         ORDER BY q.segment);
    -- points too, while there are few enough to tell apart
    IF n BETWEEN 1 AND 120 THEN
        o := o || (SELECT format('<g class="tps-points" fill="%s">', tps_colour)
                          || string_agg(format('<circle cx="%s" cy="%s" r="2.2"/>',
                                               bench._svg_num(ax + bx * p.elapsed_s), bench._svg_num(ay1 + by1 * p.tps)),
                                        '' ORDER BY p.elapsed_s) || '</g>'
                     FROM bench.progress p
                    WHERE p.run_id = r.id);
        o := o || (SELECT format('<g class="p99-points" fill="%s">', p99_colour)
                          || string_agg(format('<circle cx="%s" cy="%s" r="2.2"/>',
                                               bench._svg_num(ax + bx * p.elapsed_s), bench._svg_num(ay2 + by2 * p.latency_p99_ms)),
                                        '' ORDER BY p.elapsed_s) || '</g>'
                     FROM bench.progress p
                    WHERE p.run_id = r.id AND p.latency_p99_ms IS NOT NULL);
    END IF;
    IF nstalls > 0 THEN
        o := o || ARRAY(
            SELECT format('<circle class="stall-point" cx="%s" cy="%s" r="3.5" fill="%s"/>',
                          bench._svg_num(ax + bx * p.elapsed_s), bench._svg_num(ay1 + by1 * p.tps), stall_colour)
              FROM bench.progress p
             WHERE p.run_id = r.id AND p.tps < stall_below
             ORDER BY p.elapsed_s);
    END IF;

    IF n = 0 THEN
        o := o || bench._svg_no_data(pl + pw / 2, top1 + ph / 2,
                                     CASE WHEN r.progress = '0' THEN 'the run was made with progress => ''0'''
                                          WHEN r.status = 'running' THEN 'no progress interval has ended yet'
                                          ELSE 'the run recorded no progress intervals' END)
               || bench._svg_no_data(pl + pw / 2, top2 + ph / 2);
    END IF;
    RETURN array_to_string(o, E'\n') || E'\n</svg>';
END
$fn$;

COMMENT ON FUNCTION bench.chart_run(bigint, integer, integer) IS
    'A run as an SVG chart: tps and p99 latency per progress interval over elapsed time, with warm-up, stalls and checkpoints marked';

--
-- bench.chart_suite: tps against client count for a suite: the median of
-- the finished repeats as a line through points, with bars from the
-- slowest to the fastest repeat; under it the same for p99 latency.
-- Client counts are evenly spaced categories, in ascending order; one
-- without a finished run keeps its place and label, without a point.
--
CREATE FUNCTION bench.chart_suite(suite_id bigint, width integer DEFAULT 900, height integer DEFAULT 560)
RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    tps_colour  constant text := '#1f77b4';
    p99_colour  constant text := '#ff7f0e';
    s           bench.suites;
    n           integer;            -- client counts
    done        integer;            -- finished runs
    cl          integer[];
    rdone       integer[];
    rplan       integer[];
    tmed        double precision[];
    tmin        double precision[];
    tmax        double precision[];
    lmed        double precision[];
    lmin        double precision[];
    lmax        double precision[];
    xt          double precision[];
    xl          text[];
    every       integer;            -- a label every so many categories
    sub         text[] := '{}';
    lg          record;
    pl          constant double precision := 72;
    pw          double precision := width - 72 - 24;
    top1        double precision;
    bot1        double precision;
    top2        double precision;
    bot2        double precision;
    ph          double precision;
    yt1         double precision[];
    yt2         double precision[];
    bx          double precision;
    ax          double precision;
    o           text[];
BEGIN
    IF chart_suite.suite_id IS NULL THEN
        RAISE EXCEPTION 'argument "suite_id" of bench.chart_suite must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the id of a suite, as bench.suites lists them.';
    END IF;
    PERFORM bench._svg_check_size('bench.chart_suite', width, height);
    SELECT * INTO s FROM bench.suites WHERE id = chart_suite.suite_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'suite % does not exist', chart_suite.suite_id
            USING ERRCODE = 'no_data_found',
                  HINT = 'bench.suites lists the suites.';
    END IF;

    -- one category per client count (a count listed twice is drawn once)
    SELECT count(*), COALESCE(sum(m.runs_done), 0),
           array_agg(m.clients ORDER BY m.clients), array_agg(m.runs_done ORDER BY m.clients),
           array_agg(m.runs_planned ORDER BY m.clients),
           array_agg(m.tps_median ORDER BY m.clients), array_agg(m.tps_min ORDER BY m.clients),
           array_agg(m.tps_max ORDER BY m.clients),
           array_agg(m.latency_p99_ms_median ORDER BY m.clients), array_agg(m.latency_p99_ms_min ORDER BY m.clients),
           array_agg(m.latency_p99_ms_max ORDER BY m.clients)
      INTO n, done, cl, rdone, rplan, tmed, tmin, tmax, lmed, lmin, lmax
      FROM (SELECT DISTINCT ON (ss.clients) ss.*
              FROM bench.suite_summary ss
             WHERE ss.suite_id = s.id
             ORDER BY ss.clients, ss.position) m;

    -- x: category i at i, half a step of room at both ends; labels thinned
    -- out when they would touch, and "(k of m)" under a count whose
    -- repeats are not all done
    bx := pw / GREATEST(n, 1);
    ax := pl - bx / 2;
    every := GREATEST(1, ceil(44 / bx)::integer);
    xt := ARRAY(SELECT generate_series(1, n)::double precision);
    xl := ARRAY(SELECT CASE WHEN (i - 1) % every = 0
                            THEN cl[i] || CASE WHEN rdone[i] < rplan[i]
                                               THEN E'\n(' || rdone[i] || ' of ' || rplan[i] || ')' ELSE '' END
                       END
                  FROM generate_series(1, n) i);

    lg := bench._svg_legend(pl, 52, pw, GREATEST(18, (height - 120) * 0.2), ARRAY['linepoint', 'errorbar', 'linepoint'],
                            ARRAY[tps_colour, '#555555', p99_colour],
                            ARRAY['tps (median of the repeats)', 'slowest to fastest repeat', 'p99 latency (median)']);
    top1 := 52 + lg.height + 14;
    ph := GREATEST((height - 58 - top1 - 18) / 2, 10);
    bot1 := top1 + ph;
    top2 := bot1 + 18;
    bot2 := top2 + ph;
    yt1 := bench._svg_ticks(0, (SELECT max(v) FROM unnest(tmax) v) * 1.02,
                            GREATEST(2, LEAST(6, floor(ph / 20)::integer)));
    yt2 := bench._svg_ticks(0, (SELECT max(v) FROM unnest(lmax) v) * 1.02,
                            GREATEST(2, LEAST(6, floor(ph / 20)::integer)));

    sub := sub || (s.status || ', started ' || to_char(s.started_at, 'YYYY-MM-DD HH24:MI:SS'))
               || (done || ' of ' || s.runs_planned || ' runs done')
               || (s.run_order || ' order');
    IF s.schedule IS NOT NULL THEN
        sub := sub || ('schedule ' || s.schedule);
    END IF;
    IF s.tag IS NOT NULL THEN
        sub := sub || ('tag ' || s.tag);
    END IF;

    o := ARRAY[bench._svg_open(width, height, format('suite %s: tps and p99 latency by client count', s.id)),
               bench._svg_heading(width,
                   format('suite %s: %s, %s client%s, %s repeat%s each, PostgreSQL %s', s.id, s.workload,
                          array_to_string(cl, ', '), CASE WHEN cl = '{1}' THEN '' ELSE 's' END,
                          s.repeat, CASE WHEN s.repeat = 1 THEN '' ELSE 's' END, split_part(s.server_version, ' ', 1)),
                   array_to_string(sub, ', ')),
               lg.svg,
               bench._svg_panel(pl, top1, pw, ph, 0.5, n + 0.5, xt, NULL,
                                yt1, bench._svg_tick_labels(yt1), 'tps'),
               bench._svg_panel(pl, top2, pw, ph, 0.5, n + 0.5, xt, xl,
                                yt2, bench._svg_tick_labels(yt2), 'p99 latency (ms)'),
               bench._svg_text(pl + pw / 2, height - 14, 'clients',
                               'class="axis-title" font-size="12" fill="#222222" text-anchor="middle"')];

    IF done = 0 THEN
        o := o || bench._svg_no_data(pl + pw / 2, top1 + ph / 2,
                                     CASE WHEN s.status = 'running' THEN 'no run of the suite has finished yet'
                                          ELSE 'the suite has no finished run' END)
               || bench._svg_no_data(pl + pw / 2, top2 + ph / 2);
        RETURN array_to_string(o, E'\n') || E'\n</svg>';
    END IF;

    -- each panel: bars, then the median line (broken at a count without
    -- runs), then its points
    o := o || ARRAY(
        SELECT format('<path class="%s-range" d="M%s %sV%sM%s %sH%sM%s %sH%s" stroke="%s" stroke-width="1.2" fill="none"/>',
                      k.name, bench._svg_num(x), bench._svg_num(ylo), bench._svg_num(yhi),
                      bench._svg_num(x - 5), bench._svg_num(ylo), bench._svg_num(x + 5),
                      bench._svg_num(x - 5), bench._svg_num(yhi), bench._svg_num(x + 5), k.colour)
          FROM (VALUES (1, 'tps', tps_colour, tmin, tmax, yt1, bot1),
                       (2, 'p99', p99_colour, lmin, lmax, yt2, bot2)) k (no, name, colour, lo, hi, yt, bot)
         CROSS JOIN generate_series(1, n) i
         CROSS JOIN LATERAL (SELECT ax + bx * i AS x,
                                    k.bot - (k.lo[i] - k.yt[1]) / (k.yt[cardinality(k.yt)] - k.yt[1]) * ph AS ylo,
                                    k.bot - (k.hi[i] - k.yt[1]) / (k.yt[cardinality(k.yt)] - k.yt[1]) * ph AS yhi) c
         WHERE k.lo[i] IS NOT NULL
         ORDER BY k.no, i);
    o := o || ARRAY(
        SELECT format('<polyline class="%s" fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round" points="%s"/>',
                      q.name, q.colour, string_agg(q.xy, ' ' ORDER BY q.i))
          FROM (SELECT k.no, k.name, k.colour, i,
                       bench._svg_num(ax + bx * i) || ',' ||
                       bench._svg_num(k.bot - (k.med[i] - k.yt[1]) / (k.yt[cardinality(k.yt)] - k.yt[1]) * ph) AS xy,
                       k.med[i] IS NULL AS gap,
                       count(*) FILTER (WHERE k.med[i] IS NULL) OVER (PARTITION BY k.no ORDER BY i) AS segment
                  FROM (VALUES (1, 'tps', tps_colour, tmed, yt1, bot1),
                               (2, 'p99', p99_colour, lmed, yt2, bot2)) k (no, name, colour, med, yt, bot)
                 CROSS JOIN generate_series(1, n) i) q
         WHERE NOT q.gap
         GROUP BY q.no, q.name, q.colour, q.segment
         ORDER BY q.no, q.segment);
    o := o || ARRAY(
        SELECT format('<circle class="%s-median" cx="%s" cy="%s" r="4" fill="%s"/>', k.name,
                      bench._svg_num(ax + bx * i),
                      bench._svg_num(k.bot - (k.med[i] - k.yt[1]) / (k.yt[cardinality(k.yt)] - k.yt[1]) * ph), k.colour)
          FROM (VALUES (1, 'tps', tps_colour, tmed, yt1, bot1),
                       (2, 'p99', p99_colour, lmed, yt2, bot2)) k (no, name, colour, med, yt, bot)
         CROSS JOIN generate_series(1, n) i
         WHERE k.med[i] IS NOT NULL
         ORDER BY k.no, i);
    RETURN array_to_string(o, E'\n') || E'\n</svg>';
END
$fn$;

COMMENT ON FUNCTION bench.chart_suite(bigint, integer, integer) IS
    'A suite as an SVG chart: median tps and p99 latency by client count, with the range of the repeats';

--
-- bench.chart_schedule: the suites of a schedule over time, each client
-- count's tps relative to its baseline (1.0: the median of the schedule's
-- previous suites, as bench.schedule_results has it), one line per client
-- count.  The band is the schedule's threshold around 1.0; points flagged
-- as regressions are red.  A suite with no baseline yet (the schedule's
-- first) has no ratio: it is drawn as an open circle at 1.0, apart from
-- the lines, so that the chart shows when the schedule started and that
-- such suites exist without pretending they were compared.
--
CREATE FUNCTION bench.chart_schedule(schedule text, width integer DEFAULT 900, height integer DEFAULT 560)
RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    palette     constant text[] := ARRAY['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b',
                                         '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
    red         constant text := '#d62728';
    band_colour constant text := '#2ca02c';
    sc          bench.schedules;
    known       boolean;
    wl          text;
    n           integer;            -- results (suite x client count)
    nsuites     integer;
    nbase       integer;            -- results without a baseline
    nreg        integer;            -- regressions
    thr         double precision;
    series      integer[];          -- client counts, ascending
    tlo         timestamptz;
    thi         timestamptz;
    rlo         double precision;
    rhi         double precision;
    span        double precision;
    tt          record;
    xt          double precision[];
    yt          double precision[];
    kinds       text[] := '{}';
    colours     text[] := '{}';
    names       text[] := '{}';
    sub         text[] := '{}';
    lg          record;
    pl          constant double precision := 72;
    pw          double precision := width - 72 - 24;
    top1        double precision;
    bot1        double precision;
    ph          double precision;
    -- x = ax + bx * epoch, y = ay + ky * ratio
    ax          double precision;
    bx          double precision;
    ay          double precision;
    ky          double precision;
    o           text[];
BEGIN
    IF chart_schedule.schedule IS NULL THEN
        RAISE EXCEPTION 'argument "schedule" of bench.chart_schedule must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the name of a schedule, as bench.schedules lists them.';
    END IF;
    PERFORM bench._svg_check_size('bench.chart_schedule', width, height);
    -- a schedule is known by its row, or by suites that ran under its name
    -- (its row may have been dropped since)
    SELECT * INTO sc FROM bench.schedules s WHERE s.name = chart_schedule.schedule;
    known := FOUND;
    IF NOT known AND NOT EXISTS (SELECT FROM bench.suites s WHERE s.schedule = chart_schedule.schedule) THEN
        RAISE EXCEPTION 'schedule "%" does not exist', chart_schedule.schedule
            USING ERRCODE = 'no_data_found',
                  HINT = 'bench.schedules lists the schedules.';
    END IF;
    wl := COALESCE(sc.workload,
                         (SELECT s.workload FROM bench.suites s WHERE s.schedule = chart_schedule.schedule
                           ORDER BY s.started_at DESC LIMIT 1));

    SELECT count(*), count(DISTINCT sr.suite_id), count(*) FILTER (WHERE sr.tps_ratio IS NULL),
           count(*) FILTER (WHERE sr.regression),
           max(sr.threshold), array_agg(DISTINCT sr.clients ORDER BY sr.clients),
           min(sr.started_at), max(sr.started_at), min(sr.tps_ratio), max(sr.tps_ratio)
      INTO n, nsuites, nbase, nreg, thr, series, tlo, thi, rlo, rhi
      FROM bench.schedule_results sr
     WHERE sr.schedule = chart_schedule.schedule;
    thr := COALESCE(thr, sc.threshold, 0.05);
    series := COALESCE(series, '{}');

    -- x: the suites' start times with 5% room at both ends; one suite (or
    -- none: around the schedule's creation) gets an hour either side
    IF n = 0 THEN
        tlo := COALESCE(sc.created_at, now());
        thi := tlo;
    END IF;
    span := extract(epoch FROM thi - tlo);
    IF span = 0 THEN
        tlo := tlo - interval '1 hour';
        thi := thi + interval '1 hour';
    ELSE
        tlo := tlo - make_interval(secs => GREATEST(span * 0.05, 30));
        thi := thi + make_interval(secs => GREATEST(span * 0.05, 30));
    END IF;
    -- y: the ratios and the band, with 10% of that room (ticks below,
    -- once the height of the plot is known)
    rlo := LEAST(COALESCE(rlo, 1), 1 - thr);
    rhi := GREATEST(COALESCE(rhi, 1), 1 + thr);

    FOR i IN 1 .. cardinality(series) LOOP
        kinds := kinds || 'linepoint'::text;
        colours := colours || palette[(i - 1) % cardinality(palette) + 1];
        names := names || (series[i] || CASE WHEN series[i] = 1 THEN ' client' ELSE ' clients' END);
    END LOOP;
    kinds := kinds || ARRAY['line', 'band'];
    colours := colours || ARRAY['#444444', band_colour];
    names := names || ARRAY['baseline (1.0)', format('within %s%%', bench._svg_num(thr * 100))];
    IF nreg > 0 THEN
        kinds := kinds || 'point'::text; colours := colours || red; names := names || 'regression'::text;
    END IF;
    IF nbase > 0 THEN
        kinds := kinds || 'hollow'::text; colours := colours || '#444444'::text;
        names := names || 'no baseline yet'::text;
    END IF;

    lg := bench._svg_legend(pl, 52, pw, GREATEST(18, (height - 120) * 0.2), kinds, colours, names);
    top1 := 52 + lg.height + 14;
    ph := GREATEST(height - 60 - top1, 10);
    yt := bench._svg_ticks(rlo - (rhi - rlo) * 0.1, rhi + (rhi - rlo) * 0.1,
                           GREATEST(2, LEAST(8, floor(ph / 25)::integer)));
    bot1 := top1 + ph;
    tt := bench._svg_time_ticks(tlo, thi, GREATEST(2, LEAST(10, floor(pw / 100)::integer)));
    xt := ARRAY(SELECT extract(epoch FROM t)::double precision FROM unnest(tt.ticks) t);
    bx := pw / extract(epoch FROM thi - tlo)::double precision;
    ax := pl - bx * extract(epoch FROM tlo)::double precision;
    ky := -ph / (yt[cardinality(yt)] - yt[1]);
    ay := bot1 - ky * yt[1];

    sub := sub || (nsuites || CASE WHEN nsuites = 1 THEN ' suite' ELSE ' suites' END
                   || CASE WHEN nreg > 0 THEN ', ' || nreg || ' regression' || CASE WHEN nreg = 1 THEN '' ELSE 's' END
                           ELSE '' END);
    IF known THEN
        sub := sub || ('cron ' || sc.cron)
                   || format('baseline: median of the previous %s suites', sc.baseline_runs);
    END IF;

    o := ARRAY[bench._svg_open(width, height, format('schedule %s: tps relative to the baseline', chart_schedule.schedule)),
               bench._svg_heading(width,
                   format('schedule "%s": %s, tps relative to the baseline', chart_schedule.schedule,
                          COALESCE(wl, 'no suites')),
                   array_to_string(sub, '; ')),
               lg.svg,
               bench._svg_panel(pl, top1, pw, ph, extract(epoch FROM tlo)::double precision,
                                extract(epoch FROM thi)::double precision, xt, tt.labels,
                                yt, bench._svg_tick_labels(yt), 'tps / baseline tps'),
               bench._svg_text(pl + pw / 2, height - 14,
                               bench._svg_escape('suite started (' || current_setting('TimeZone') || ')'),
                               'class="axis-title" font-size="12" fill="#222222" text-anchor="middle"')];

    IF n = 0 THEN
        o := o || bench._svg_no_data(pl + pw / 2, top1 + ph / 2, 'no suite of the schedule has finished');
        RETURN array_to_string(o, E'\n') || E'\n</svg>';
    END IF;

    -- the threshold band and the baseline
    o := o || format('<rect class="threshold" x="%s" y="%s" width="%s" height="%s" fill="%s" fill-opacity="0.2"/>',
                     bench._svg_num(pl), bench._svg_num(ay + ky * (1 + thr)), bench._svg_num(pw),
                     bench._svg_num(ky * -2 * thr), band_colour)
           || format('<line class="baseline" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#444444" stroke-width="1.2"/>',
                     bench._svg_num(pl), bench._svg_num(ay + ky), bench._svg_num(pl + pw), bench._svg_num(ay + ky));

    -- a line per client count through the suites that have a ratio
    o := o || ARRAY(
        SELECT format('<polyline class="series" fill="none" stroke="%s" stroke-width="1.8" stroke-linejoin="round" points="%s"/>',
                      palette[(array_position(series, sr.clients) - 1) % cardinality(palette) + 1],
                      string_agg(bench._svg_num(ax + bx * extract(epoch FROM sr.started_at)::double precision)
                                 || ',' || bench._svg_num(ay + ky * sr.tps_ratio), ' ' ORDER BY sr.started_at))
          FROM bench.schedule_results sr
         WHERE sr.schedule = chart_schedule.schedule AND sr.tps_ratio IS NOT NULL
         GROUP BY sr.clients
         ORDER BY sr.clients);
    -- the points: open at 1.0 without a baseline, red for a regression
    o := o || ARRAY(
        SELECT CASE WHEN sr.tps_ratio IS NULL
                    THEN format('<circle class="no-baseline" cx="%s" cy="%s" r="4" fill="#ffffff" stroke="%s" stroke-width="1.5"/>',
                                bench._svg_num(x), bench._svg_num(ay + ky), c)
                    WHEN sr.regression
                    THEN format('<circle class="regression" cx="%s" cy="%s" r="5" fill="%s"/>',
                                bench._svg_num(x), bench._svg_num(ay + ky * sr.tps_ratio), red)
                    ELSE format('<circle class="point" cx="%s" cy="%s" r="3.5" fill="%s"/>',
                                bench._svg_num(x), bench._svg_num(ay + ky * sr.tps_ratio), c)
               END
          FROM bench.schedule_results sr
         CROSS JOIN LATERAL (SELECT ax + bx * extract(epoch FROM sr.started_at)::double precision AS x,
                                    palette[(array_position(series, sr.clients) - 1) % cardinality(palette) + 1] AS c) p
         WHERE sr.schedule = chart_schedule.schedule
         ORDER BY sr.regression, sr.clients, sr.started_at);
    RETURN array_to_string(o, E'\n') || E'\n</svg>';
END
$fn$;

COMMENT ON FUNCTION bench.chart_schedule(text, integer, integer) IS
    'A schedule as an SVG chart: each suite''s tps relative to its rolling baseline over time, per client count, regressions in red';

