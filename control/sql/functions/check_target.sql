--
-- bench.check_target(name): connect to the target as the calling role, with
-- the password rules of postgres_fdw, and return its version().
--
CREATE OR REPLACE FUNCTION bench.check_target(name text)
RETURNS text
LANGUAGE c
AS 'MODULE_PATHNAME', 'bench_check_target';

COMMENT ON FUNCTION bench.check_target(text) IS
    'Connect to a target as the calling role (a non-superuser with the password of its user mapping) and return the server''s version()';
REVOKE ALL ON FUNCTION bench.check_target(text) FROM PUBLIC;
