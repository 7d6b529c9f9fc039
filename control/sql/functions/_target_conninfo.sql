CREATE OR REPLACE FUNCTION bench._target_conninfo(conninfo text)
RETURNS text[]
LANGUAGE c STRICT IMMUTABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'bench_target_conninfo';

COMMENT ON FUNCTION bench._target_conninfo(text) IS
    'Internal: the options of a connection string as keyword, value pairs; a password, another secret, sslcert and sslkey are refused';
