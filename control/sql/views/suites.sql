--
-- bench.suites: the suites as they are.  A row of bench._suites that says
-- 'running' and whose worker is gone is shown as the aborted suite it is,
-- ended when its last run ended (as bench.runs shows its runs), from the
-- moment the server accepts connections again; the lock is asked only for
-- the rows that say 'running'.  Row level security as for bench.runs.
--
DO $do$
BEGIN
    EXECUTE pg_catalog.format($v$
CREATE OR REPLACE VIEW bench.suites WITH (%s) AS
SELECT s.id, s.workload, s.clients, s.repeat, s.run_order, s.args, s.search_path, s.tag,
       s.schedule, s.runs_planned,
       CASE WHEN s.dead THEN 'aborted' ELSE s.status END AS status,
       CASE WHEN s.dead THEN '57P01' ELSE s.sqlstate END AS sqlstate,
       CASE WHEN s.dead
            THEN 'the suite''s worker ended before the suite finished (server restart, crash or termination)'
            ELSE s.error END AS error,
       s.created_by, s.server_version, s.started_at,
       CASE WHEN s.dead
            THEN COALESCE((SELECT max(r.ended_at) FROM bench.runs r WHERE r.suite_id = s.id),
                          s.started_at)
            ELSE s.ended_at END AS ended_at,
       CASE WHEN s.dead THEN NULL ELSE s.worker_pid END AS worker_pid,
       s.origin, s.steps, s.targets, s.capacity, s.node_name, s.node_number
  FROM (SELECT t.*,
               CASE WHEN t.status <> 'running' THEN false
                    ELSE NOT bench._suite_alive(t.id) END AS dead
          FROM bench._suites t%s) s
$v$,
        CASE WHEN pg_catalog.current_setting('server_version_num')::integer >= 150000
             THEN 'security_invoker = true' ELSE 'security_barrier = true' END,
        CASE WHEN pg_catalog.current_setting('server_version_num')::integer >= 150000
             THEN '' ELSE ' WHERE bench._visible(t.created_by)' END);
END
$do$;

COMMENT ON VIEW bench.suites IS
    'Sweeps: a workload run at several client counts, each repeated; one row per sweep with its status';
COMMENT ON COLUMN bench.suites.steps IS
    'A suite of steps (bench.ibench): each step''s name and run arguments, in order; NULL for a sweep';
COMMENT ON COLUMN bench.suites.targets IS
    'A suite over several targets: their names in the order given (local: this server); NULL for a suite on one';
COMMENT ON COLUMN bench.suites.capacity IS
    'A capacity search (bench.capacity): its objective, precision and budget; NULL otherwise';
COMMENT ON COLUMN bench.suites.node_name IS
    'The node of the fleet that ran it (bench.set_node); NULL before its node was set';
COMMENT ON COLUMN bench.suites.node_number IS
    'The number of that node: the suite''s id lies in its range';
GRANT SELECT ON bench.suites TO PUBLIC;
CREATE OR REPLACE TRIGGER write_through INSTEAD OF INSERT OR UPDATE OR DELETE ON bench.suites
    FOR EACH ROW EXECUTE FUNCTION bench._write_through('bench._suites');

-- the defaults of the view's columns are the table's, for an INSERT into it
DO $do$
DECLARE
    d record;
BEGIN
    FOR d IN SELECT a.attname, pg_catalog.pg_get_expr(ad.adbin, ad.adrelid) AS expr
               FROM pg_catalog.pg_attrdef ad
               JOIN pg_catalog.pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
              WHERE ad.adrelid = 'bench._suites'::regclass ORDER BY a.attnum
    LOOP
        EXECUTE pg_catalog.format('ALTER VIEW bench.suites ALTER COLUMN %I SET DEFAULT %s', d.attname, d.expr);
    END LOOP;
END
$do$;
