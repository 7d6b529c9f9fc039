--
-- bench._transactions_per_unit: the transactions one unit of the currency
-- buys on a server of PRICE_PER_HOUR at TPS transactions per second:
-- tps * 3600 / price_per_hour.  NULL when the price is unknown or 0 (a free
-- server buys no bounded number) or tps is unknown.
--
CREATE OR REPLACE FUNCTION bench._transactions_per_unit(price_per_hour numeric, tps double precision)
RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT CASE WHEN price_per_hour > 0 THEN tps * 3600 / price_per_hour::double precision END
$fn$;

COMMENT ON FUNCTION bench._transactions_per_unit(numeric, double precision) IS
    'Internal: the transactions a unit of the currency buys at a price per hour and a throughput in transactions per second; NULL when the price is unknown or 0';
