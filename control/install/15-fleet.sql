--
-- A fleet of drivers (docs/fleet.md): this database's node, whose name
-- and number keep its results apart from every other node's.  Set once,
-- by bench.set_node; a number cannot be derived (a hash of a host name or
-- of a system identifier promises no uniqueness), so it is given.
--
CREATE TABLE bench.node (
    singleton       boolean     PRIMARY KEY DEFAULT true CHECK (singleton),
    name            text        NOT NULL CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$'),
    number          integer     NOT NULL CHECK (number BETWEEN 1 AND 8388606),
    system_identifier text      NOT NULL,
    set_at          timestamptz NOT NULL DEFAULT pg_catalog.now(),
    set_by          name        NOT NULL DEFAULT CURRENT_USER
);

COMMENT ON TABLE bench.node IS
    'This database''s node in a fleet of drivers (bench.set_node): one row, or none before it is set';
COMMENT ON COLUMN bench.node.number IS
    'The node''s number, which no other node of the fleet has: its run, suite and dataset ids are drawn from number * 2^40 to (number + 1) * 2^40 - 1';
COMMENT ON COLUMN bench.node.system_identifier IS
    'The system identifier of the cluster when the node was set';
SELECT pg_catalog.pg_extension_config_dump('bench.node', '');
GRANT SELECT ON bench.node TO PUBLIC;

--
-- The central database's subscriptions to its drivers made by
-- bench.subscribe: the node each receives, checked when it was made (no
-- two subscriptions of one node number).  No connection string: that stays
-- in pg_subscription, which only superusers read.
--
CREATE TABLE bench.subscriptions (
    subscription    name        PRIMARY KEY,
    node_name       text        NOT NULL,
    node_number     integer     NOT NULL UNIQUE CHECK (node_number BETWEEN 1 AND 8388606),
    node_system_identifier text NOT NULL,
    publication     name        NOT NULL,
    slot_name       name        NOT NULL,
    subscribed_at   timestamptz NOT NULL DEFAULT pg_catalog.now(),
    subscribed_by   name        NOT NULL DEFAULT CURRENT_USER
);

COMMENT ON TABLE bench.subscriptions IS
    'A fleet''s central database: its subscriptions to drivers made by bench.subscribe, and the node each receives (never the connection string, which pg_subscription keeps)';
COMMENT ON COLUMN bench.subscriptions.subscription IS
    'The subscription (pg_subscription.subname)';
COMMENT ON COLUMN bench.subscriptions.node_name IS
    'The driver''s node name (its bench.node), when it was subscribed';
COMMENT ON COLUMN bench.subscriptions.node_number IS
    'The driver''s node number: no other subscription, and not this database''s own node, has it';
COMMENT ON COLUMN bench.subscriptions.node_system_identifier IS
    'The system identifier the driver''s bench.node records';
COMMENT ON COLUMN bench.subscriptions.publication IS
    'The driver''s publication subscribed to (bench.publish)';
COMMENT ON COLUMN bench.subscriptions.slot_name IS
    'The subscription''s replication slot on the driver, which bench.unsubscribe drops';
SELECT pg_catalog.pg_extension_config_dump('bench.subscriptions', '');
GRANT SELECT ON bench.subscriptions TO PUBLIC;

#include "functions/_node.sql"
#include "functions/set_node.sql"
#include "functions/publish.sql"
#include "functions/distributed_runs.sql"
#include "functions/report_distributed.sql"
#include "functions/subscribe.sql"
#include "functions/unsubscribe.sql"

-- the node of each run and suite, as they are recorded
ALTER TABLE bench._runs
    ALTER COLUMN node_name SET DEFAULT bench._node_name(),
    ALTER COLUMN node_number SET DEFAULT bench._node_number();
ALTER TABLE bench._suites
    ALTER COLUMN node_name SET DEFAULT bench._node_name(),
    ALTER COLUMN node_number SET DEFAULT bench._node_number();
-- ... and of the views over them (as views/runs.sql and views/suites.sql
-- copy the tables' defaults, for an INSERT into the view)
ALTER VIEW bench.runs ALTER COLUMN node_name SET DEFAULT bench._node_name();
ALTER VIEW bench.runs ALTER COLUMN node_number SET DEFAULT bench._node_number();
ALTER VIEW bench.suites ALTER COLUMN node_name SET DEFAULT bench._node_name();
ALTER VIEW bench.suites ALTER COLUMN node_number SET DEFAULT bench._node_number();
