--
-- bench.tpcc_functions: the statements that make a TPC-C dataset's
-- functions, one per transaction, in a schema (bench.init('tpcc') makes
-- them itself): for TPC-C tables another tool loaded, or a target.
--
CREATE OR REPLACE FUNCTION bench.tpcc_functions(schema text DEFAULT 'public', version integer DEFAULT NULL)
RETURNS text[]
LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'bench_tpcc_functions';

COMMENT ON FUNCTION bench.tpcc_functions(text, integer) IS
    'The CREATE FUNCTION statements of the TPC-C transactions (mode procedures) in a schema, for a server of server_version_num version (null: this one)';
GRANT EXECUTE ON FUNCTION bench.tpcc_functions(text, integer) TO PUBLIC;
