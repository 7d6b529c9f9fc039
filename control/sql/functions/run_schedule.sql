CREATE OR REPLACE FUNCTION bench.run_schedule(name text)
RETURNS SETOF bench.suite_summary
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_run_schedule';

COMMENT ON FUNCTION bench.run_schedule(text) IS
    'One execution of a schedule (what its pg_cron job runs): a suite tagged with the schedule''s name, refused while another run or suite is running';
REVOKE ALL ON FUNCTION bench.run_schedule(text) FROM PUBLIC;
