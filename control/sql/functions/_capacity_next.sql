--
-- bench._capacity_next: what a capacity search's worker does next: 'run'
-- at a rate (NULL: the unthrottled probe), or 'stop'.
--
CREATE OR REPLACE FUNCTION bench._capacity_next(suite_id bigint)
RETURNS TABLE (action text, rate double precision)
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT coalesce(x.next_action, 'stop'), x.next_rate
  FROM (SELECT 1) one LEFT JOIN bench._capacity_search(_capacity_next.suite_id) x ON true
$fn$;

COMMENT ON FUNCTION bench._capacity_next(bigint) IS
    'Internal: the next run of a capacity search (its rate; NULL for the probe), or stop';
