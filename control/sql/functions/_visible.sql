--
-- bench._visible: whether the current role may see the rows of work made
-- by role OWNER (the library's rule, bk_may_steer, that bench.cancel,
-- bench.cancel_suite, bench.run_schedule and bench.unschedule apply too).
-- Every role's queries call it, through the policies of
-- 09-privileges.sql (and, on PostgreSQL 14, the views bench.runs and
-- bench.suites).
--
CREATE OR REPLACE FUNCTION bench._visible(owner name)
RETURNS boolean
LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'bench_visible';

COMMENT ON FUNCTION bench._visible(name) IS
    'Internal: whether the current role may see the work of role OWNER: its own, of a role whose privileges it has, or any as a member of pgbenchkit_admin or a superuser';
