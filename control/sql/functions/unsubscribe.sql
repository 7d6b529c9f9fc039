--
-- bench.unsubscribe: drops a subscription bench.subscribe made and its
-- replication slot on the driver (DROP SUBSCRIPTION cannot drop the slot
-- inside a transaction block, where a function runs: the subscription is
-- detached from it, dropped, and the slot dropped over libpq with the
-- subscription's connection string).  The node's rows stay here.
--
CREATE OR REPLACE FUNCTION bench.unsubscribe(subscription name)
RETURNS bench.subscriptions
LANGUAGE c VOLATILE
AS 'MODULE_PATHNAME', 'bench_unsubscribe';

COMMENT ON FUNCTION bench.unsubscribe(name) IS
    'On a fleet''s central database: drop a subscription bench.subscribe made and its replication slot on the driver; the node''s results stay';
REVOKE ALL ON FUNCTION bench.unsubscribe(name) FROM PUBLIC;
