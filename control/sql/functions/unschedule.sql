--
-- bench.unschedule: remove a schedule and its pg_cron job.  The suites it
-- ran stay, with their schedule's name.  The library checks that the
-- calling role may (the schedule's owner, a member of pgbenchkit_admin or
-- a superuser), then calls bench._unschedule as the owner of schema bench,
-- which removes the row if it still belongs to OWNER, and the job.
--
CREATE OR REPLACE FUNCTION bench.unschedule(name text)
RETURNS boolean
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_unschedule';

COMMENT ON FUNCTION bench.unschedule(text) IS
    'Remove a schedule and its pg_cron job; the suites it ran are kept';
REVOKE ALL ON FUNCTION bench.unschedule(text) FROM PUBLIC;
