-- The upgrade from 0.2.0 to 0.3.0, before the replay of every function and
-- view of control/sql/ (docs/design.md, "Releases and upgrades").  What
-- CREATE OR REPLACE cannot do goes here, in the order it must happen:
--
--   - DROP FUNCTION of a function whose return type, OUT columns or
--     argument names change, or that loses an argument (its old signature);
--     a function whose argument types change in any way (even only by a
--     new argument with a default) is dropped too, or the replay would
--     make an overload beside it (bench._create_run_function drops the
--     old signatures of the functions that take the run arguments itself);
--   - DROP VIEW of a view whose columns change other than by new ones
--     appended at the end (CASCADE drops the views and functions that
--     depend on it; the replay makes them all again, with their comments,
--     grants and triggers);
--   - new tables, sequences and types, and new columns of tables (at the
--     end, as the install script has them), with what a fresh install
--     does to them once (comments, pg_extension_config_dump, grants);
--     row level security and policies of a new table go after the replay
--     if they call a function it makes.
--

-- sweeps and schedules over several targets (bench.sweep's targets)
ALTER TABLE bench._suites ADD COLUMN targets text[];
COMMENT ON COLUMN bench._suites.targets IS
    'A suite over several targets: their names in the order given (local: this server); NULL for a suite on one';
ALTER TABLE bench.schedules ADD COLUMN targets text[];
COMMENT ON COLUMN bench.schedules.targets IS
    'A schedule over several targets: their names in the order given (local: this server), each judged against its own baseline; NULL for a schedule on one';

-- a capacity search's objective, precision and budget (bench.capacity)
ALTER TABLE bench._suites ADD COLUMN capacity jsonb;
COMMENT ON COLUMN bench._suites.capacity IS
    'A capacity search (bench.capacity): its objective, precision and budget; NULL otherwise';

-- The price each run ran at (a price changes; the run keeps its own): two
-- columns at the end of bench._runs, as the install script has them; the
-- view bench.runs gets them appended by the replay.  Existing runs have no
-- price (NULL).
ALTER TABLE bench._runs
    ADD COLUMN price_per_hour numeric CHECK (price_per_hour >= 0),
    ADD COLUMN currency text CHECK (currency ~ '^[A-Z]{3}$'),
    ADD CONSTRAINT _runs_price_check CHECK ((price_per_hour IS NULL) = (currency IS NULL));
COMMENT ON COLUMN bench._runs.price_per_hour IS
    'The price per hour of the server the run ran on, when it started: its target''s option price_per_hour, or pgbenchkit.price_per_hour; NULL when unknown';
COMMENT ON COLUMN bench._runs.currency IS
    'The currency of price_per_hour (ISO 4217 code); NULL when the price is unknown';

-- bench.add_target takes the target's price: two arguments more
DROP FUNCTION bench.add_target(text, text, text, text);

-- bench.compare takes cost => (whether to compare costs): an argument more
DROP FUNCTION bench.compare(bigint, bigint, double precision);

-- schedules of capacity searches (bench.schedule_capacity)
ALTER TABLE bench.schedules ADD COLUMN capacity jsonb;
COMMENT ON COLUMN bench.schedules.capacity IS
    'A schedule of capacity searches (bench.schedule_capacity): their objective, precision and budget; NULL for a schedule of sweeps';

-- what each script of a run measured beyond its mean: its rollbacks and its
-- latency percentiles (TPC-C's per-transaction results; every workload's
-- scripts).  Existing runs have none (NULL).
ALTER TABLE bench.run_scripts
    ADD COLUMN rollbacks bigint,
    ADD COLUMN latency_p50_ms double precision,
    ADD COLUMN latency_p90_ms double precision,
    ADD COLUMN latency_p95_ms double precision,
    ADD COLUMN latency_p99_ms double precision,
    ADD COLUMN latency_max_ms double precision;
COMMENT ON COLUMN bench.run_scripts.rollbacks IS
    'Of the script''s transactions, those that ended rolled back as the script means them to: by its ROLLBACK, or by an error its \rollback_errors names';
COMMENT ON COLUMN bench.run_scripts.latency_p50_ms IS
    'The median latency of the script''s transactions in the measured phase, in milliseconds (from a histogram: within 1%)';
COMMENT ON COLUMN bench.run_scripts.latency_p90_ms IS
    'The 90th percentile of the script''s transaction latencies, in milliseconds';
COMMENT ON COLUMN bench.run_scripts.latency_p95_ms IS
    'The 95th percentile of the script''s transaction latencies, in milliseconds';
COMMENT ON COLUMN bench.run_scripts.latency_p99_ms IS
    'The 99th percentile of the script''s transaction latencies, in milliseconds';
COMMENT ON COLUMN bench.run_scripts.latency_max_ms IS
    'The longest of the script''s transactions in the measured phase, in milliseconds (exact)';

-- bench.init takes warehouses (the tpcc dataset): an argument more
DROP FUNCTION bench.init(text, integer, integer, integer, text, boolean, boolean, integer, boolean, text, text, integer, integer);

-- TPC-C's NOPM read against a base: bench.relative_throughput has three OUT
-- columns more, bench.relative_table and bench.chart_relative an argument
-- more (metric)
DROP FUNCTION bench.relative_throughput(bigint, bigint[]);
DROP FUNCTION bench.relative_table(bigint, bigint[]);
DROP FUNCTION bench.chart_relative(bigint, bigint[], integer, integer);

-- bench.chart_suite draws TPC-C's NOPM too: an argument more (metric)
DROP FUNCTION bench.chart_suite(bigint, integer, integer);

-- on_disconnect => 'reconnect', and what a run measured of its clients'
-- outages: six columns at the end of bench._runs, as the install script has
-- them (the view bench.runs gets them appended by the replay); the check of
-- on_disconnect takes the new value, under the install script's name
DO $do$
DECLARE
    c name;
BEGIN
    FOR c IN SELECT conname FROM pg_catalog.pg_constraint
              WHERE conrelid = 'bench._runs'::regclass AND contype = 'c'
                AND pg_catalog.pg_get_constraintdef(oid) LIKE '%on_disconnect%'
    LOOP
        EXECUTE pg_catalog.format('ALTER TABLE bench._runs DROP CONSTRAINT %I', c);
    END LOOP;
END
$do$;
ALTER TABLE bench._runs
    ADD CONSTRAINT _runs_on_disconnect_check CHECK (on_disconnect IN ('fail', 'continue', 'reconnect')),
    ADD COLUMN reconnects bigint,
    ADD COLUMN outages integer,
    ADD COLUMN outages_open integer,
    ADD COLUMN downtime_median_ms double precision,
    ADD COLUMN downtime_max_ms double precision,
    ADD COLUMN detection_max_ms double precision;
COMMENT ON COLUMN bench._runs.reconnects IS
    'on_disconnect => ''reconnect'': the connections the clients made again after losing theirs; NULL for other runs';
COMMENT ON COLUMN bench._runs.outages IS
    'on_disconnect => ''reconnect'': the clients'' outages, each from a client''s last success before a lost connection to its first success after it';
COMMENT ON COLUMN bench._runs.outages_open IS
    'on_disconnect => ''reconnect'': the clients whose outage had not ended when the run did (the run then failed, 08006)';
COMMENT ON COLUMN bench._runs.downtime_median_ms IS
    'on_disconnect => ''reconnect'': the median over the clients that had an outage of each one''s downtime in all (an open outage counted to the run''s end)';
COMMENT ON COLUMN bench._runs.downtime_max_ms IS
    'on_disconnect => ''reconnect'': the longest downtime of a client';
COMMENT ON COLUMN bench._runs.detection_max_ms IS
    'on_disconnect => ''reconnect'': the longest time from a client''s last success to the failure that showed it the loss';

-- what a run that reconnects found of its outage and of what committed,
-- and response_timeout
ALTER TABLE bench._runs
    ADD COLUMN unknown_outcome         bigint,
    ADD COLUMN outage_started          timestamptz,
    ADD COLUMN outage_ended            timestamptz,
    ADD COLUMN recovery_ms             double precision,
    ADD COLUMN check_query             text,
    ADD COLUMN check_before            bigint,
    ADD COLUMN check_after             bigint,
    ADD COLUMN committed_missing       bigint,
    ADD COLUMN unknown_committed       bigint,
    ADD COLUMN response_timeout        interval;
COMMENT ON COLUMN bench._runs.unknown_outcome IS
    'on_disconnect => ''reconnect'': the transactions whose COMMIT (or statement outside a transaction block) was sent and whose answer the lost connection took; committed or not, the client could not tell (check_query tells how many did)';
COMMENT ON COLUMN bench._runs.outage_started IS
    'on_disconnect => ''reconnect'': the start of the first outage of any client (its last success before the loss)';
COMMENT ON COLUMN bench._runs.outage_ended IS
    'on_disconnect => ''reconnect'': the end of the last outage of any client (its first success after it); NULL while one was still open at the end';
COMMENT ON COLUMN bench._runs.recovery_ms IS
    'on_disconnect => ''reconnect'': from the first lost connection of any client to the first transaction committed after it';
COMMENT ON COLUMN bench._runs.check_query IS
    'The query of one integer on the target that each committed transaction adds one to, read before the run and after it (check_query; tpcb and simple-update count pgbench_history with on_disconnect => ''reconnect'')';
COMMENT ON COLUMN bench._runs.check_before IS
    'check_query''s value before the run';
COMMENT ON COLUMN bench._runs.check_after IS
    'check_query''s value after the run; NULL when it could not be read (the notes say why)';
COMMENT ON COLUMN bench._runs.committed_missing IS
    'The transactions the run counted committed that the target does not have: the committed count (warm-up included) less the growth of check_query''s value, at least 0';
COMMENT ON COLUMN bench._runs.unknown_committed IS
    'Of unknown_outcome, the transactions that did commit: the growth of check_query''s value beyond the committed count, at most unknown_outcome';
COMMENT ON COLUMN bench._runs.response_timeout IS
    'response_timeout: a statement not answered within it counted as a lost connection; NULL: none';

--
-- bench.outages: on_disconnect => 'reconnect', each client's outages
--
CREATE TABLE bench.outages (
    run_id          bigint      NOT NULL REFERENCES bench._runs (id) ON DELETE CASCADE,
    client          integer     NOT NULL,
    outages         integer     NOT NULL,
    open            boolean     NOT NULL,
    downtime_ms     double precision NOT NULL,
    detection_max_ms double precision NOT NULL,
    reconnects      bigint      NOT NULL,
    unknown_outcome bigint      NOT NULL,
    committed       bigint      NOT NULL,
    first_failure   timestamptz NOT NULL,
    outage_started  timestamptz NOT NULL,
    outage_ended    timestamptz,
    reconnect_attempts bigint   NOT NULL,
    last_sqlstate   text,
    PRIMARY KEY (run_id, client)
);

COMMENT ON TABLE bench.outages IS
    'on_disconnect => ''reconnect'': each client that lost its connection: its outages (each from its last success before the loss to its first success after it), downtime in all, longest detection, reconnects, transactions of unknown outcome and committed';
COMMENT ON COLUMN bench.outages.open IS
    'Whether the client''s last outage had not ended when the run did (counted in downtime_ms until the run''s end)';
COMMENT ON COLUMN bench.outages.first_failure IS
    'The failure that showed the client its first loss';
COMMENT ON COLUMN bench.outages.outage_started IS
    'The start of the client''s first outage: its last success before it';
COMMENT ON COLUMN bench.outages.outage_ended IS
    'The end of the client''s last outage that ended: its first success after it; NULL when none did';
COMMENT ON COLUMN bench.outages.reconnect_attempts IS
    'The new connections the client tried, made or not: bounded by the waits between them (reconnect_delay doubling up to reconnect_max_delay)';
COMMENT ON COLUMN bench.outages.last_sqlstate IS
    'The SQLSTATE of the client''s last lost connection or failed attempt (08006 lost, 57P01 shut down, 25006 read-only, 08001 no connection made (refused, pg_hba.conf, a timeout: libpq gives a failed connection no SQLSTATE of the server''s), ...)';
SELECT pg_catalog.pg_extension_config_dump('bench.outages', '');
GRANT SELECT ON bench.outages TO PUBLIC;
ALTER TABLE bench.outages ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.outages FOR SELECT
    USING (EXISTS (SELECT FROM bench._runs r WHERE r.id = run_id));

-- on_disconnect => 'reconnect': each progress interval's lost connections
ALTER TABLE bench.progress
    ADD COLUMN connection_failures bigint,
    ADD COLUMN reconnects bigint;
COMMENT ON COLUMN bench.progress.connection_failures IS
    'on_disconnect => ''reconnect'': the transactions of the interval that failed because their connection was lost (counted in failures too); NULL for other runs';
COMMENT ON COLUMN bench.progress.reconnects IS
    'on_disconnect => ''reconnect'': the connections the clients made again in the interval; NULL for other runs';

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


-- the node of each run and suite (their defaults, which call functions of
-- the replay, are set after it)
ALTER TABLE bench._runs
    ADD COLUMN node_name text,
    ADD COLUMN node_number integer,
    ADD COLUMN node_host text,
    ADD COLUMN node_system_identifier text;
COMMENT ON COLUMN bench._runs.node_name IS
    'The node of the fleet that ran it (bench.set_node); NULL before its node was set';
COMMENT ON COLUMN bench._runs.node_number IS
    'The number of that node: the run''s id lies in its range (number * 2^40 on)';
COMMENT ON COLUMN bench._runs.node_host IS
    'The host name of the server that ran it (the driver); NULL for runs of 0.2.0 and before';
COMMENT ON COLUMN bench._runs.node_system_identifier IS
    'The system identifier of the cluster that ran it (pg_control_system()); NULL for runs of 0.2.0 and before';
-- the instant and the distributed run of at => and part_of =>
ALTER TABLE bench._runs
    ADD COLUMN start_at timestamptz,
    ADD COLUMN part_of text;
COMMENT ON COLUMN bench._runs.start_at IS
    'at =>: the instant its measured part was to start, its clients starting the warm-up before it; NULL: when ready';
COMMENT ON COLUMN bench._runs.part_of IS
    'part_of =>: the distributed run it is a part of, the parts of one name merged by bench.distributed_runs';
ALTER TABLE bench._suites
    ADD COLUMN node_name text,
    ADD COLUMN node_number integer;
COMMENT ON COLUMN bench._suites.node_name IS
    'The node of the fleet that ran it (bench.set_node); NULL before its node was set';
COMMENT ON COLUMN bench._suites.node_number IS
    'The number of that node: the suite''s id lies in its range';
-- a suite's run arguments may hold secrets (variables): a fleet's central
-- database receives a driver's suites without them
ALTER TABLE bench._suites ALTER COLUMN args DROP NOT NULL;
COMMENT ON COLUMN bench._suites.args IS
    'The run arguments each run got; NULL on a fleet''s central database for a suite of a driver (they may hold secrets: bench.publish leaves them out)';
