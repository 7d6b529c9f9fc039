--
-- Privacy between roles (docs/security.md).  Every run, suite, schedule
-- and custom workload belongs to the role that made it (created_by,
-- defined_by).  A role sees its own, and those of the roles whose
-- privileges it has; members of pgbenchkit_admin and superusers see all.
-- The rows are written by pgbenchkit's own code as the owner of schema
-- bench, which row level security does not restrict (no FORCE).
--

--
-- pgbenchkit_admin: the role whose members see, cancel, run and remove
-- every role's work.  Roles belong to the cluster, not to a database: a
-- second database's CREATE EXTENSION finds it there, and DROP EXTENSION
-- leaves it (DROP ROLE pgbenchkit_admin, once no database has the
-- extension, removes it).
--
DO $do$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'pgbenchkit_admin') THEN
        CREATE ROLE pgbenchkit_admin NOLOGIN;
    END IF;
END
$do$;

--
-- Row level security: each role reads the rows it may see; nobody but the
-- owner of schema bench writes (no policy allows it).  The rule is
-- bench._visible (made with bench.runs, whose view applies it on
-- PostgreSQL 14).
--
ALTER TABLE bench._runs ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench._runs FOR SELECT USING (bench._visible(created_by));
ALTER TABLE bench._suites ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench._suites FOR SELECT USING (bench._visible(created_by));
ALTER TABLE bench.schedules ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.schedules FOR SELECT USING (bench._visible(created_by));
ALTER TABLE bench.workloads ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.workloads FOR SELECT USING (builtin OR bench._visible(defined_by));

-- the rows of a run: visible with the run
ALTER TABLE bench.progress ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.progress FOR SELECT
    USING (EXISTS (SELECT FROM bench._runs r WHERE r.id = run_id));
ALTER TABLE bench.histograms ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.histograms FOR SELECT
    USING (EXISTS (SELECT FROM bench._runs r WHERE r.id = run_id));
ALTER TABLE bench.outages ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.outages FOR SELECT
    USING (EXISTS (SELECT FROM bench._runs r WHERE r.id = run_id));
ALTER TABLE bench.run_scripts ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.run_scripts FOR SELECT
    USING (EXISTS (SELECT FROM bench._runs r WHERE r.id = run_id));
ALTER TABLE bench.run_groups ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.run_groups FOR SELECT
    USING (EXISTS (SELECT FROM bench._runs r WHERE r.id = run_id));
ALTER TABLE bench.group_progress ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.group_progress FOR SELECT
    USING (EXISTS (SELECT FROM bench._runs r WHERE r.id = run_id));
ALTER TABLE bench.command_latencies ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.command_latencies FOR SELECT
    USING (EXISTS (SELECT FROM bench._runs r WHERE r.id = run_id));
ALTER TABLE bench.prewarms ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.prewarms FOR SELECT
    USING (EXISTS (SELECT FROM bench._runs r WHERE r.id = run_id));
ALTER TABLE bench.samples ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.samples FOR SELECT
    USING (EXISTS (SELECT FROM bench._runs r WHERE r.id = run_id));
ALTER TABLE bench.relation_sizes ENABLE ROW LEVEL SECURITY;
CREATE POLICY visible ON bench.relation_sizes FOR SELECT
    USING (EXISTS (SELECT FROM bench._runs r WHERE r.id = run_id));

#include "views/_security_invoker.sql"
