--
-- bench.workloads: the scripts bench.run executes, in pgbench's script
-- language.  The built-in ones are pgbench's built-in scripts, verbatim.
--
CREATE TABLE bench.workloads (
    name            text        PRIMARY KEY
                    CHECK (name ~ '^[A-Za-z0-9_][A-Za-z0-9_.-]*$' AND length(name) < 64),
    dataset         text,
    scripts         text[]      NOT NULL
                    CHECK (array_ndims(scripts) = 1 AND array_lower(scripts, 1) = 1
                           AND cardinality(scripts) BETWEEN 1 AND 128
                           AND array_position(scripts, NULL) IS NULL),
    weights         integer[]   NOT NULL
                    CHECK (array_ndims(weights) = 1 AND array_lower(weights, 1) = 1
                           AND array_position(weights, NULL) IS NULL
                           AND 0 <= ALL (weights)),
    description     text        NOT NULL,
    builtin         boolean     NOT NULL DEFAULT false,
    defined_by      name        NOT NULL DEFAULT current_user,
    defined_at      timestamptz NOT NULL DEFAULT now(),
    CHECK (cardinality(weights) = cardinality(scripts))
);

COMMENT ON TABLE bench.workloads IS
    'Workloads bench.run knows: the scripts its clients run (in pgbench''s script language) with their weights, and the dataset they need';

INSERT INTO bench.workloads (name, dataset, scripts, weights, description, builtin, defined_by) VALUES
('tpcb', 'tpcb',
ARRAY[$script$-- <builtin: TPC-B (sort of)>
\set aid random(1, 100000 * :scale)
\set bid random(1, 1 * :scale)
\set tid random(1, 10 * :scale)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
$script$], '{1}', 'pgbench''s tpcb-like script (pgbench -b tpcb-like, the default)', true, current_user),
('simple-update', 'tpcb',
ARRAY[$script$-- <builtin: simple update>
\set aid random(1, 100000 * :scale)
\set bid random(1, 1 * :scale)
\set tid random(1, 10 * :scale)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
$script$], '{1}', 'pgbench''s simple-update script (pgbench -N)', true, current_user),
('select-only', 'tpcb',
ARRAY[$script$-- <builtin: select only>
\set aid random(1, 100000 * :scale)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
$script$], '{1}', 'pgbench''s select-only script (pgbench -S)', true, current_user);

#include "functions/sysbench_script.sql"

-- sysbench's OLTP workloads at their defaults, built in
INSERT INTO bench.workloads (name, dataset, scripts, weights, description, builtin, defined_by)
SELECT w.name, 'sysbench', ARRAY[bench.sysbench_script(w.name)], '{1}',
       format('sysbench 1.0''s %s with its defaults (bench.sysbench_script(%L, options) for others)', w.name, w.name),
       true, current_user
  FROM unnest(ARRAY['oltp_read_write', 'oltp_read_only', 'oltp_write_only', 'oltp_point_select',
                    'oltp_update_index', 'oltp_update_non_index', 'oltp_insert', 'oltp_delete']) AS w(name);

#include "functions/tpcc_script.sql"

#include "functions/tpcc_functions.sql"

-- TPC-C: the specification's mix, and each transaction alone
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

SELECT pg_catalog.pg_extension_config_dump('bench.workloads', 'WHERE NOT builtin');
GRANT SELECT ON bench.workloads TO PUBLIC;

#include "views/workload_scripts.sql"

#include "functions/define_workload.sql"

#include "functions/drop_workload.sql"

#include "functions/tpcc_workload.sql"
