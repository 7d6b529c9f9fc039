--
-- Targets: remote PostgreSQL servers, stored the PostgreSQL way (src/target/target.c).
-- A target is a foreign server of the wrapper bench_target; each role's
-- credentials are in its user mapping, which ordinary roles cannot read.
-- Creating targets needs USAGE on the wrapper, which a superuser grants
-- (GRANT USAGE ON FOREIGN DATA WRAPPER bench_target TO role); using one
-- needs USAGE on its server.
--
CREATE OR REPLACE FUNCTION bench._target_validator(text[], oid)
RETURNS void
LANGUAGE c STRICT
AS 'MODULE_PATHNAME', 'bench_target_validator';

COMMENT ON FUNCTION bench._target_validator(text[], oid) IS
    'Internal: the validator of the foreign-data wrapper bench_target (libpq''s connection options, as postgres_fdw takes them)';
