--
-- bench.subscribe: on a fleet's central database (docs/fleet.md), a
-- subscription to a driver's publication, made only when the driver is a
-- node of this version of pgbenchkit whose number no other node here has:
-- not this database's own, not another subscription's, not carried by the
-- results here under another node name.  Its slot is made on the driver
-- first (a function runs in a transaction block, where CREATE SUBSCRIPTION
-- cannot make one), then the subscription with it (src/api/subscribe.c).
-- A node whose rows are here already (subscribed before) is refused unless
-- replace_rows: they are then deleted, and the initial copy brings them
-- again as the driver has them.
--
CREATE OR REPLACE FUNCTION bench.subscribe(subscription name, connection text,
                                           publication name DEFAULT 'pgbenchkit',
                                           replace_rows boolean DEFAULT false)
RETURNS bench.subscriptions
LANGUAGE c VOLATILE
AS 'MODULE_PATHNAME', 'bench_subscribe';

COMMENT ON FUNCTION bench.subscribe(name, text, name, boolean) IS
    'On a fleet''s central database: subscribe to a driver''s publication, refusing a driver whose node number another node here has, or of another version of pgbenchkit';
REVOKE ALL ON FUNCTION bench.subscribe(name, text, name, boolean) FROM PUBLIC;
