--
-- bench._cost_per_million: what a million transactions cost on a server
-- of PRICE_PER_HOUR (in its currency) at TPS transactions per second:
-- price_per_hour * 1e6 / (tps * 3600).  NULL when the price is unknown or
-- nothing was measured (tps NULL or 0).  bench.report_json,
-- bench.suite_summary, bench.compare and bench.export_runs use it, so that
-- each figure of cost is computed alike.
--
CREATE OR REPLACE FUNCTION bench._cost_per_million(price_per_hour numeric, tps double precision)
RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT CASE WHEN tps > 0 THEN price_per_hour::double precision * 1000000 / (tps * 3600) END
$fn$;

COMMENT ON FUNCTION bench._cost_per_million(numeric, double precision) IS
    'Internal: the cost of a million transactions at a price per hour and a throughput in transactions per second; NULL when either is unknown or tps is 0';
