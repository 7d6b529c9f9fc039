-- The upgrade from 0.2.0 to 0.3.0, after the replay of every function and
-- view of control/sql/ (docs/design.md, "Releases and upgrades"):
--
--   - data moves: rows copied or rewritten into new tables or columns;
--   - the built-in workloads a fresh install inserts that an upgraded
--     database does not have yet, or has with another script;
--   - row level security and policies of new tables, and policies made
--     again after a function they call was dropped before the replay;
--   - whatever else a piece of control/install/ does once that an
--     upgraded database has not had done.
--

-- TPC-C's built-in workloads (as control/install/02-workloads.sql inserts them)
INSERT INTO bench.workloads (name, dataset, scripts, weights, description, builtin, defined_by)
SELECT 'tpcc', 'tpcc',
       ARRAY[bench.tpcc_script('new_order'), bench.tpcc_script('payment'), bench.tpcc_script('order_status'),
             bench.tpcc_script('delivery'), bench.tpcc_script('stock_level')],
       '{45,43,4,4,4}'::integer[],
       'TPC-C''s five transactions in the specification''s mix, 45/43/4/4/4, one call each (bench.tpcc_workload for other mixes)',
       true, current_user
UNION ALL
SELECT 'tpcc-' || replace(t, '_', '-'), 'tpcc', ARRAY[bench.tpcc_script(t)], '{1}'::integer[],
       format('TPC-C''s %s transaction alone, one call each', replace(t, '_', '-')), true, current_user
  FROM unnest(ARRAY['new_order', 'payment', 'order_status', 'delivery', 'stock_level']) AS t;

-- the node of each run and suite, as they are recorded from now on (as
-- control/install/15-fleet.sql sets it)
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
