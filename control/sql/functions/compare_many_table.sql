--
-- bench.compare_many_table: bench.compare_many as a Markdown table, a line
-- per configuration, a column per workload and client count (or step);
-- each cell the median tps relative to the base's, the range of the
-- repeats relative to the base's median, and a mark for the verdict; where
-- a run has a price, a last column with each configuration's cost of a
-- million transactions per column ('?' where its runs have no price; 'no
-- price' for a configuration without any).
--
CREATE OR REPLACE FUNCTION bench.compare_many_table(runs bigint[] DEFAULT NULL, suites bigint[] DEFAULT NULL,
                                                    tag text DEFAULT NULL, targets text[] DEFAULT NULL,
                                                    base text DEFAULT NULL,
                                                    threshold double precision DEFAULT 0.05,
                                                    since timestamptz DEFAULT NULL,
                                                    cost boolean DEFAULT true)
RETURNS SETOF text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    -- the marks: up and down triangles where the database's encoding has
    -- them (the install script is kept ASCII: made by chr)
    utf8    constant boolean := current_setting('server_encoding') = 'UTF8';
    up      constant text := CASE WHEN utf8 THEN chr(9650) ELSE '+' END;
    down    constant text := CASE WHEN utf8 THEN chr(9660) ELSE '-' END;
    cols    text[] := '{}';
    lines   text[] := '{}';
    cells   text[];
    cur     integer;
    cell    text;
    r       record;
    priced  boolean := false;       -- a cell has a cost
    costs   text[] := '{}';         -- each configuration's costs, in the columns' order
    cost_cells text;
BEGIN
    FOR r IN SELECT * FROM bench.compare_many(compare_many_table.runs, compare_many_table.suites,
                                              compare_many_table.tag, compare_many_table.targets,
                                              compare_many_table.base, compare_many_table.threshold,
                                              compare_many_table.since, compare_many_table.cost) LOOP
        IF cur IS DISTINCT FROM r.config_no THEN
            IF cur IS NOT NULL THEN
                lines := lines || array_to_string(cells, ' | ');
                costs := costs || cost_cells;
            END IF;
            cur := r.config_no;
            cells := ARRAY[replace(r.configuration, '|', '\|')];
            cost_cells := NULL;
        END IF;
        IF r.config_no = 1 THEN
            cols := cols || replace(r.column_label, '|', '\|');
        END IF;
        IF r.run_count = 0 THEN
            cell := '-';
        ELSIF r.relative IS NULL THEN
            -- no base to read it against (or a base of 0 tps): its own figure
            cell := 'n/a' || COALESCE(' (' || bench._many_tps(r.tps_median) || ' tps)', '');
        ELSE
            cell := round(r.relative::numeric, 2)::text;
            IF r.run_count >= 2 THEN
                cell := cell || ' [' || round((r.tps_min / r.base_tps_median)::numeric, 2)
                             || ', ' || round((r.tps_max / r.base_tps_median)::numeric, 2) || ']';
            END IF;
            cell := cell || CASE r.verdict
                                WHEN 'base' THEN ' (' || bench._many_tps(r.tps_median) || ' tps)'
                                WHEN 'improvement' THEN ' ' || up
                                WHEN 'regression' THEN ' ' || down
                                ELSE ' ~' END;
        END IF;
        cells := cells || cell;
        -- the cost of a million transactions, column by column
        cost_cells := concat_ws(' / ', cost_cells,
                                COALESCE(to_char(r.cost_per_million_median, 'FM999999990.0000') || ' ' || r.currency,
                                         '?'));
        priced := priced OR r.cost_per_million_median IS NOT NULL;
    END LOOP;
    lines := lines || array_to_string(cells, ' | ');
    costs := costs || cost_cells;
    -- where a price is known, a last column: each configuration's costs in
    -- the columns' order, '?' where a configuration has no price
    IF priced THEN
        cols := cols || 'cost per million transactions'::text;
        lines := ARRAY(SELECT l.line || ' | ' || CASE WHEN l.cost ~ '[0-9]' THEN l.cost ELSE 'no price' END
                         FROM unnest(lines, costs) WITH ORDINALITY AS l (line, cost, i)
                        ORDER BY l.i);
    END IF;
    RETURN NEXT '| ' || array_to_string(ARRAY['configuration'] || cols, ' | ') || ' |';
    RETURN NEXT '|' || repeat('---|', 1 + cardinality(cols));
    RETURN QUERY SELECT '| ' || l || ' |' FROM unnest(lines) AS l;
END
$fn$;

COMMENT ON FUNCTION bench.compare_many_table(bigint[], bigint[], text, text[], text, double precision, timestamptz, boolean) IS
    'bench.compare_many as a Markdown table: a line per configuration, a column per workload and clients or step, each cell the relative median tps, the range of the repeats and the verdict''s mark; where prices are known, the costs per million transactions';
GRANT EXECUTE ON FUNCTION bench.compare_many_table(bigint[], bigint[], text, text[], text, double precision, timestamptz, boolean) TO PUBLIC;
