--
-- The views over those tables read them as the role that queries them
-- (security_invoker, PostgreSQL 15 and later), so that the policies apply
-- to it and not to the views' owner.  PostgreSQL 14 has no such views:
-- there only pgbenchkit_admin's members (and superusers) may read them,
-- and other roles read the tables.
--
DO $do$
DECLARE
    v text;
BEGIN
    FOREACH v IN ARRAY ARRAY['bench.workload_scripts', 'bench.runs_in_progress',
                             'bench.sample_counters', 'bench.interval_counters',
                             'bench.run_counters', 'bench.run_statements',
                             'bench.suite_summary', 'bench.schedule_results',
                             'bench.regressions', 'bench.schedule_status',
                             'bench.export_runs', 'bench.export_progress',
                             'bench.export_suites', 'bench.capacity_results',
                             'bench.tpcc_transactions', 'bench.tpcc_results']
    LOOP
        IF pg_catalog.current_setting('server_version_num')::integer >= 150000 THEN
            EXECUTE pg_catalog.format('ALTER VIEW %s SET (security_invoker = true)', v);
        ELSE
            EXECUTE pg_catalog.format('REVOKE SELECT ON %s FROM PUBLIC', v);
            EXECUTE pg_catalog.format('GRANT SELECT ON %s TO pgbenchkit_admin', v);
        END IF;
    END LOOP;
END
$do$;
