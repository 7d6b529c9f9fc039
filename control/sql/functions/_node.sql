--
-- bench._node_name, bench._node_number: this database's node (bench.node),
-- NULL before bench.set_node; the defaults of the node columns of runs and
-- suites.
--
CREATE OR REPLACE FUNCTION bench._node_name()
RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$ SELECT n.name FROM bench.node n $fn$;

CREATE OR REPLACE FUNCTION bench._node_number()
RETURNS integer
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$ SELECT n.number FROM bench.node n $fn$;

COMMENT ON FUNCTION bench._node_name() IS
    'Internal: the name of this database''s node, NULL before bench.set_node';
COMMENT ON FUNCTION bench._node_number() IS
    'Internal: the number of this database''s node, NULL before bench.set_node';
