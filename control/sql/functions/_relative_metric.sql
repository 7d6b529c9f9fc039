--
-- bench._relative_metric: the checks of the argument metric of
-- bench.relative_table and bench.chart_relative: 'tps', or 'nopm' where
-- the base has new orders (a TPC-C run, or a suite of them).  The ids are
-- checked by bench.relative_throughput, with its errors.
--
CREATE OR REPLACE FUNCTION bench._relative_metric(fn text, base bigint, others bigint[], metric text)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF metric IS NULL THEN
        RAISE EXCEPTION 'argument "metric" of % must not be null', fn
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'metric is ''tps'' (the default) or ''nopm'' (TPC-C''s new orders per minute).';
    END IF;
    IF metric NOT IN ('tps', 'nopm') THEN
        RAISE EXCEPTION 'unknown metric "%"', metric
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'metric is ''tps'' (the default) or ''nopm'' (TPC-C''s new orders per minute).';
    END IF;
    IF metric = 'nopm'
       AND NOT EXISTS (SELECT FROM bench.relative_throughput(base, others) t
                        WHERE t.id = base AND t.nopm IS NOT NULL) THEN
        RAISE EXCEPTION 'the base run or suite has no new orders to read NOPM against'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'NOPM is counted by TPC-C''s new-order transaction: the workloads tpcc and tpcc-new-order, and mixes with it.',
                  HINT = 'Give a TPC-C run or suite as the base, or read tps with metric => ''tps''.';
    END IF;
END
$fn$;

COMMENT ON FUNCTION bench._relative_metric(text, bigint, bigint[], text) IS
    'Internal (relative throughput): refuses an unknown metric, or NOPM against a base without new orders';
