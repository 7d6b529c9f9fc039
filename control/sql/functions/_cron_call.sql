-- internal: one of a few fixed pg_cron statements, in pg_cron's database
CREATE OR REPLACE FUNCTION bench._cron_call(database name, operation text, args text[] DEFAULT '{}')
RETURNS text
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_cron_call';

COMMENT ON FUNCTION bench._cron_call(name, text, text[]) IS
    'Internal: reach pg_cron in the database cron.database_name names, as the calling role';
REVOKE ALL ON FUNCTION bench._cron_call(name, text, text[]) FROM PUBLIC;
