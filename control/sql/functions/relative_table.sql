--
-- bench.relative_table: the same in the Insert Benchmark's table form, one
-- line per run or suite (the base first, at 1.00), one column per step,
-- as a Markdown table.  metric => 'nopm' reads TPC-C's new orders per
-- minute instead of tps.
--
CREATE OR REPLACE FUNCTION bench.relative_table(base bigint, others bigint[], metric text DEFAULT 'tps')
RETURNS SETOF text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    steps   text[] := '{}';
    lines   text[] := '{}';
    cells   text[];
    cur     bigint;
    r       record;
BEGIN
    PERFORM bench._metric_check('bench.relative_table', base, metric);
    FOR r IN SELECT * FROM bench.relative_throughput(base, others) LOOP
        IF cur IS DISTINCT FROM r.id THEN
            IF cur IS NOT NULL THEN
                lines := lines || ('| ' || array_to_string(cells, ' | ') || ' |');
            END IF;
            cur := r.id;
            cells := ARRAY[replace(r.label, '|', '\|'), split_part(r.server_version, ' ', 1)];
        END IF;
        IF r.id = base THEN
            steps := steps || replace(r.step, '|', '\|');
        END IF;
        cells := cells || COALESCE(to_char(CASE metric WHEN 'nopm' THEN r.relative_nopm ELSE r.relative END,
                                           'FM990.00'), '-');
    END LOOP;
    lines := lines || ('| ' || array_to_string(cells, ' | ') || ' |');
    RETURN NEXT '| ' || array_to_string(ARRAY['run or suite', 'version'] || steps, ' | ') || ' |';
    RETURN NEXT '|' || repeat('---|', 2 + cardinality(steps));
    RETURN QUERY SELECT unnest(lines);
END
$fn$;

COMMENT ON FUNCTION bench.relative_table(bigint, bigint[], text) IS
    'Relative throughput (tps, or TPC-C''s NOPM) as the Insert Benchmark shows it: one line per run or suite, one column per step (Markdown)';
GRANT EXECUTE ON FUNCTION bench.relative_table(bigint, bigint[], text) TO PUBLIC;
