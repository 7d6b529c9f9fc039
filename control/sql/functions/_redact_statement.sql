--
-- bench._redact_statement: the text of a statement as samples keep it,
-- with what could be a secret redacted (src/observe/redact.c).  Every role may read
-- bench.samples, and pg_stat_statements keeps the text of CREATE USER
-- MAPPING ... OPTIONS (password '...') and the like as it was written.
--
CREATE OR REPLACE FUNCTION bench._redact_statement(query text)
RETURNS text
LANGUAGE c STRICT IMMUTABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'bench_redact_statement';

COMMENT ON FUNCTION bench._redact_statement(text) IS
    'Internal: a statement''s text with its string constants and comments redacted when it may hold a password or another secret, as samples keep it';
