--
-- Privacy between roles (docs/security.md): two ordinary roles with the
-- grants docs/install.md names, each reading, cancelling, running and
-- removing the other's work; a member of pgbenchkit_admin; the cap of
-- background workers per role.
--
\set SHOW_CONTEXT never
SET client_min_messages = warning;

-- an error's SQLSTATE and message, its ids as N (they depend on the tests before)
CREATE FUNCTION pg_temp.try(statement text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE statement;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || regexp_replace(SQLERRM, '[0-9]+', 'N', 'g');
END
$$;

SELECT rolcanlogin, rolinherit FROM pg_roles WHERE rolname = 'pgbenchkit_admin';
CREATE ROLE regress_alice LOGIN;
CREATE ROLE regress_bob LOGIN;
CREATE ROLE regress_carol LOGIN IN ROLE pgbenchkit_admin;
CREATE SCHEMA regress_alice AUTHORIZATION regress_alice;
CREATE SCHEMA regress_bob AUTHORIZATION regress_bob;
-- the grants of docs/install.md
GRANT EXECUTE ON FUNCTION bench.init, bench.run, bench.start, bench.wait, bench.cancel
    TO regress_alice, regress_bob, regress_carol;
GRANT EXECUTE ON FUNCTION bench.sweep, bench.start_sweep, bench.wait_suite, bench.cancel_suite
    TO regress_alice, regress_bob, regress_carol;
GRANT EXECUTE ON FUNCTION bench.define_workload(text, text, text, text, boolean),
                          bench.define_workload(text, text[], integer[], text, text, boolean),
                          bench.drop_workload TO regress_alice, regress_bob, regress_carol;
GRANT EXECUTE ON FUNCTION bench.import TO regress_alice, regress_bob, regress_carol;
GRANT EXECUTE ON FUNCTION bench.schedule, bench.unschedule, bench.run_schedule
    TO regress_alice, regress_bob, regress_carol;

-- alice's work: a run with a secret among its variables, a workload, a
-- sweep of it, and a schedule (recorded as bench.schedule records it)
SET ROLE regress_alice;
SET search_path = regress_alice, public;
SELECT id AS alice_run, status, created_by
  FROM bench.run(script => E'\\set n random(1, 10)\nSELECT :n::integer + :k::integer;',
                 transactions => 20, progress => '0', variables => '{"k": 1, "password": "hunter2"}') \gset
SELECT :'status' AS status, :'created_by' AS created_by;
SELECT name, defined_by FROM bench.define_workload('regress_alice_w', E'SELECT 1;\n');
SELECT DISTINCT suite_id AS alice_suite FROM bench.sweep('regress_alice_w', clients => '{1}',
                                                         transactions => 5, progress => '0') \gset
RESET ROLE;
INSERT INTO bench.schedules (name, cron, workload, clients, repeat, run_order, args,
                             search_path, baseline_runs, threshold, cron_database, created_by)
SELECT 'regress_alice_nightly', '0 3 * * *', s->>'workload', '{1}', 1, s->>'run_order', s->'args',
       s->>'search_path', 5, 0.05, current_database(), 'regress_alice'
  FROM bench._sweep_spec(workload => 'regress_alice_w', clients => '{1}', transactions => 5,
                         progress => '0') AS s;

-- bob sees none of it: not in the tables, not in the views
SET ROLE regress_bob;
SET search_path = regress_bob, public;
SELECT (SELECT count(*) FROM bench.runs WHERE id = :alice_run) AS runs,
       (SELECT count(*) FROM bench.runs WHERE variables::text LIKE '%hunter2%') AS secrets,
       (SELECT count(*) FROM bench.progress WHERE run_id = :alice_run) AS progress,
       (SELECT count(*) FROM bench.histograms WHERE run_id = :alice_run) AS histograms,
       (SELECT count(*) FROM bench.run_scripts WHERE run_id = :alice_run) AS scripts,
       (SELECT count(*) FROM bench.command_latencies WHERE run_id = :alice_run) AS commands,
       (SELECT count(*) FROM bench.samples WHERE run_id = :alice_run) AS samples,
       (SELECT count(*) FROM bench.relation_sizes WHERE run_id = :alice_run) AS sizes,
       (SELECT count(*) FROM bench.prewarms WHERE run_id = :alice_run) AS prewarms,
       (SELECT count(*) FROM bench.suites WHERE id = :alice_suite) AS suites,
       (SELECT count(*) FROM bench.schedules WHERE name = 'regress_alice_nightly') AS schedules,
       (SELECT count(*) FROM bench.workloads WHERE name = 'regress_alice_w') AS workloads;
SELECT (SELECT count(*) FROM bench.sample_counters WHERE run_id = :alice_run) AS sample_counters,
       (SELECT count(*) FROM bench.interval_counters WHERE run_id = :alice_run) AS interval_counters,
       (SELECT count(*) FROM bench.run_counters WHERE run_id = :alice_run) AS run_counters,
       (SELECT count(*) FROM bench.run_statements WHERE run_id = :alice_run) AS run_statements,
       (SELECT count(*) FROM bench.export_runs WHERE id = :alice_run) AS export_runs,
       (SELECT count(*) FROM bench.export_progress WHERE run_id = :alice_run) AS export_progress,
       (SELECT count(*) FROM bench.suite_summary WHERE suite_id = :alice_suite) AS suite_summary,
       (SELECT count(*) FROM bench.export_suites WHERE suite_id = :alice_suite) AS export_suites,
       (SELECT count(*) FROM bench.schedule_status WHERE name = 'regress_alice_nightly') AS schedule_status,
       (SELECT count(*) FROM bench.workload_scripts WHERE workload = 'regress_alice_w') AS workload_scripts,
       (SELECT count(*) FROM bench.workload_scripts WHERE builtin) > 0 AS builtins_seen;
-- nor through the functions, and steers none of it
SELECT regexp_replace(f, '[0-9]+', 'N', 'g') AS call, pg_temp.try(f) AS result FROM (VALUES
    ('SELECT bench.report(' || :alice_run || ')'),
    ('SELECT bench.report_json(' || :alice_run || ')'),
    ('SELECT bench.compare(' || :alice_run || ', ' || :alice_run || ')'),
    ('SELECT bench.export(' || :alice_run || ')'),
    ('SELECT bench.export(' || :alice_suite || ')'),
    ('SELECT bench.chart_run(' || :alice_run || ')'),
    ('SELECT bench.chart_suite(' || :alice_suite || ')'),
    ('SELECT bench.chart_schedule(''regress_alice_nightly'')'),
    ('SELECT bench.cancel(' || :alice_run || ')'),
    ('SELECT bench.cancel_suite(' || :alice_suite || ')'),
    ('SELECT bench.unschedule(''regress_alice_nightly'')'),
    ('SELECT bench.run(''regress_alice_w'', transactions => 1, progress => ''0'')'),
    ('SELECT bench.define_workload(''regress_alice_w'', ''SELECT 2;'', replace => true)'),
    ('SELECT bench.drop_workload(''regress_alice_w'')'),
    ('SELECT bench.schedule(''regress_alice_nightly'', ''0 4 * * *'', ''tpcb'')'),
    ('UPDATE bench.schedules SET created_by = ''regress_bob''')
) AS t(f);
-- (these refuse to run in the subtransaction of pg_temp.try; the ids
-- in their messages vary, their SQLSTATEs do not)
\set VERBOSITY sqlstate
SELECT * FROM bench.wait(:alice_run);
SELECT * FROM bench.wait_suite(:alice_suite);
\set VERBOSITY default
SELECT * FROM bench.run_schedule('regress_alice_nightly');
-- a workload's name is the database's: bob learns that it is taken, not
-- whose it is (the details of both errors, in full)
SELECT bench.drop_workload('regress_alice_w', if_exists => true);
SELECT bench.define_workload('regress_alice_w', 'SELECT 2;');
RESET ROLE;
-- nothing of alice's changed
SELECT (SELECT status FROM bench.runs WHERE id = :alice_run) AS run,
       (SELECT count(*) FROM bench.suites WHERE schedule = 'regress_alice_nightly') AS executions,
       (SELECT created_by FROM bench.schedules WHERE name = 'regress_alice_nightly') AS schedule_of,
       (SELECT scripts FROM bench.workloads WHERE name = 'regress_alice_w') AS scripts;

-- an import is the importer's, whoever ran it where it came from
SELECT bench.export(:alice_run) AS alice_doc \gset
SET ROLE regress_bob;
SELECT bench.import(:'alice_doc') AS bob_import \gset
SELECT created_by, variables->>'k' AS k FROM bench.runs WHERE id = :bob_import;
SET ROLE regress_alice;
SELECT count(*) AS alice_sees_it FROM bench.runs WHERE id = :bob_import;
-- alice runs her own schedule
SELECT clients, runs_done FROM bench.run_schedule('regress_alice_nightly');
RESET ROLE;

-- a member of pgbenchkit_admin sees and steers everyone's work
SET ROLE regress_carol;
SELECT (SELECT count(*) FROM bench.runs WHERE id IN (:alice_run, :bob_import)) AS runs,
       (SELECT count(*) FROM bench.progress WHERE run_id = :alice_run) > 0 AS progress,
       (SELECT count(*) FROM bench.run_counters WHERE run_id = :alice_run) AS run_counters,
       (SELECT count(*) FROM bench.schedule_status WHERE name = 'regress_alice_nightly') AS schedules,
       (SELECT count(*) FROM bench.workloads WHERE name = 'regress_alice_w') AS workloads;
SELECT bench.report(:alice_run) LIKE '%number of transactions actually processed: 20%' AS report;
SELECT clients, runs_done FROM bench.run_schedule('regress_alice_nightly');
SELECT bench.unschedule('regress_alice_nightly');
RESET ROLE;
SELECT count(*) AS schedules_left FROM bench.schedules WHERE name = 'regress_alice_nightly';

-- pgbenchkit.max_workers_per_role: a superuser's setting, checked before
-- anything starts; superusers are not capped
SET ROLE regress_bob;
SELECT pg_temp.try('SET pgbenchkit.max_workers_per_role = 100') AS bob_raises_it;
RESET ROLE;
SET pgbenchkit.max_workers_per_role = 2;
SET ROLE regress_bob;
SELECT pg_temp.try(f) AS result FROM (VALUES
    ('SELECT bench.run(script => ''SELECT 1;'', clients => 2, transactions => 1, progress => ''0'')'),
    ('SELECT bench.start(script => ''SELECT 1;'', clients => 2, transactions => 1, progress => ''0'')'),
    ('SELECT bench.sweep(script => ''SELECT 1;'', clients => ''{1}'', transactions => 1, progress => ''0'')'),
    ('SELECT bench.init(''tpcb'', jobs => 2)')
) AS t(f);
SELECT status, clients FROM bench.run(script => 'SELECT 1;', clients => 1, transactions => 1, progress => '0');
RESET ROLE;
SELECT status, clients FROM bench.run(script => 'SELECT 1;', clients => 2, transactions => 1, progress => '0');
RESET pgbenchkit.max_workers_per_role;

-- bench.runs is written only by pgbenchkit: no role but its owner writes it
SET ROLE regress_alice;
SELECT pg_temp.try('DELETE FROM bench.runs') AS alice_deletes;
SELECT pg_temp.try('UPDATE bench.suites SET tag = ''x''') AS alice_updates;
SELECT pg_temp.try('DELETE FROM bench._runs') AS alice_deletes_the_table;
RESET ROLE;

-- a run of alice's whose coordinator is gone (its row left 'running', as
-- after a crash): bench.runs shows it to her as aborted, and still hides it
-- from bob, as the table's row level security hides its row
INSERT INTO bench.runs (workload, clients, duration, protocol, warmup, progress, max_tries,
                        status, created_by)
VALUES ('select-only', 1, '1 min', 'simple', '0', '1 s', 1, 'running', 'regress_alice')
RETURNING id AS alice_ghost \gset
SET ROLE regress_alice;
SELECT status, sqlstate, transactions, coordinator_pid FROM bench.runs WHERE id = :alice_ghost;
SET ROLE regress_bob;
SELECT (SELECT count(*) FROM bench.runs WHERE id = :alice_ghost) AS runs,
       (SELECT count(*) FROM bench._runs WHERE id = :alice_ghost) AS stored_runs,
       (SELECT count(*) FROM bench.runs WHERE created_by = 'regress_alice') AS alices;
SET ROLE regress_carol;
SELECT status FROM bench.runs WHERE id = :alice_ghost;
RESET ROLE;
SELECT status FROM bench._runs WHERE id = :alice_ghost;
DELETE FROM bench.runs WHERE id = :alice_ghost;

DROP SCHEMA regress_alice, regress_bob CASCADE;
DROP OWNED BY regress_alice, regress_bob, regress_carol;
DROP ROLE regress_alice, regress_bob, regress_carol;
