--
-- bench._metric_check: the checks of the argument metric of
-- bench.relative_table, bench.chart_relative and bench.chart_suite (FN):
-- 'tps', or 'nopm' where ID (the base, or the suite charted) has new
-- orders: a run of it, or of the suite, with NOPM (bench._tpcc_rates), or
-- a suite whose workload has TPC-C's new-order (its runs may not have
-- finished yet).  An ID that is no run or suite is left to the caller's
-- own error.
--
CREATE OR REPLACE FUNCTION bench._metric_check(fn text, id bigint, metric text)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
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
       AND (EXISTS (SELECT FROM bench.runs r WHERE r.id = id) OR EXISTS (SELECT FROM bench.suites s WHERE s.id = id))
       AND NOT EXISTS (SELECT FROM bench.runs r
                        WHERE (r.id = id OR r.suite_id = id) AND (bench._tpcc_rates(r.id)).nopm IS NOT NULL)
       AND NOT EXISTS (SELECT FROM bench.suites s JOIN bench.workloads w ON w.name = s.workload,
                                   unnest(w.scripts) AS sc
                        WHERE s.id = id AND sc LIKE '-- <builtin: TPC-C new-order>%') THEN
        RAISE EXCEPTION '%', CASE fn WHEN 'bench.chart_suite' THEN 'the suite has no new orders to chart NOPM of'
                                 ELSE 'the base run or suite has no new orders to read NOPM against' END
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'NOPM is counted by TPC-C''s new-order transaction: the workloads tpcc and tpcc-new-order, and mixes with it.',
                  HINT = CASE fn WHEN 'bench.chart_suite' THEN 'Chart tps with metric => ''tps''.'
                                 ELSE 'Give a TPC-C run or suite as the base, or read tps with metric => ''tps''.' END;
    END IF;
END
$fn$;

COMMENT ON FUNCTION bench._metric_check(text, bigint, text) IS
    'Internal (relative throughput, charts): refuses an unknown metric, or NOPM of a run or suite without new orders';
