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

SELECT pg_catalog.pg_extension_config_dump('bench.workloads', 'WHERE NOT builtin');
GRANT SELECT ON bench.workloads TO PUBLIC;

--
-- bench.workload_scripts: each script of each workload on a row of its own,
-- readable as pgbench --show-script prints it.
--
CREATE VIEW bench.workload_scripts AS
SELECT w.name AS workload, s.n::integer AS script_no, w.weights[s.n] AS weight,
       s.script, w.builtin
  FROM bench.workloads w,
       LATERAL unnest(w.scripts) WITH ORDINALITY AS s(script, n);

COMMENT ON VIEW bench.workload_scripts IS
    'The scripts of every workload, one row each, numbered from 1 as pgbench numbers them, with their weights';
GRANT SELECT ON bench.workload_scripts TO PUBLIC;

--
-- bench.define_workload, bench.drop_workload: custom workloads.
--
CREATE FUNCTION bench.define_workload(
    name         text,
    scripts      text[],
    weights      integer[] DEFAULT NULL,
    description  text     DEFAULT NULL,
    dataset      text     DEFAULT NULL,
    replace      boolean  DEFAULT false)
RETURNS bench.workloads
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_define_workload';

COMMENT ON FUNCTION bench.define_workload(text, text[], integer[], text, text, boolean) IS
    'Define a workload of several scripts with weights (pgbench -f a@5 -f b@1); every script is checked now';

CREATE FUNCTION bench.define_workload(
    name         text,
    script       text,
    description  text     DEFAULT NULL,
    dataset      text     DEFAULT NULL,
    replace      boolean  DEFAULT false)
RETURNS bench.workloads
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT bench.define_workload(name, ARRAY[script], NULL::integer[], description, dataset, replace)
$fn$;

COMMENT ON FUNCTION bench.define_workload(text, text, text, text, boolean) IS
    'Define a workload of one script in pgbench''s script language; the script is checked now';

CREATE FUNCTION bench.drop_workload(name text, if_exists boolean DEFAULT false)
RETURNS boolean
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_drop_workload';

COMMENT ON FUNCTION bench.drop_workload(text, boolean) IS
    'Drop a custom workload; runs keep the scripts they ran';

REVOKE ALL ON FUNCTION bench.define_workload(text, text[], integer[], text, text, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.define_workload(text, text, text, text, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.drop_workload(text, boolean) FROM PUBLIC;

