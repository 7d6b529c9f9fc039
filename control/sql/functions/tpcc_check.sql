--
-- bench.tpcc_check(target, schema): the consistency conditions 1 to 12 of
-- the TPC-C specification (clause 3.3.2) on the TPC-C tables of schema (by
-- default the one where the search_path finds warehouse), in this server
-- or on a target, whoever loaded them.  As the calling role: the tables
-- are the user's.
--
CREATE OR REPLACE FUNCTION bench.tpcc_check(target text DEFAULT NULL, schema text DEFAULT NULL)
RETURNS TABLE (condition integer, description text, passed boolean,
               checked bigint, violations bigint, note text)
LANGUAGE c
AS 'MODULE_PATHNAME', 'bench_tpcc_check';

COMMENT ON FUNCTION bench.tpcc_check(text, text) IS
    'The consistency conditions 1 to 12 of TPC-C (clause 3.3.2) on a TPC-C dataset in this server or on a target: one row per condition, its verdict and the counts behind it';
REVOKE ALL ON FUNCTION bench.tpcc_check(text, text) FROM PUBLIC;
