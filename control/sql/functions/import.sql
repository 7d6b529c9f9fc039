--
-- bench.import: a document of bench.export, under new ids.  Runs and
-- suites get ids of bench.runs_id_seq, the runs of a suite point to the
-- new suite, and each imported row says where it came from (origin).  The
-- dataset it ran on and its processes are not here: dataset_id,
-- coordinator_pid and worker_pid are NULL.  A run or suite is imported
-- once per server it came from.  What is imported belongs to the role
-- that imports it (created_by), whoever made it over there: the library
-- calls bench._import as the owner of schema bench, with OWNER the
-- calling role.
--
CREATE OR REPLACE FUNCTION bench.import(document jsonb)
RETURNS bigint
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_import';

COMMENT ON FUNCTION bench.import(jsonb) IS
    'Insert a document of bench.export under new ids, with its origin (system identifier, server version, original id), as the calling role''s; returns the new id of the run or suite';

-- writing the tables is for roles the administrator chose
REVOKE ALL ON FUNCTION bench.import(jsonb) FROM PUBLIC;
