--
-- Custom workloads: bench.define_workload and bench.drop_workload, unnamed
-- scripts, weighted mixes, random_seed, variables, rate and latency_limit,
-- per-script and per-command latencies.
--
CREATE EXTENSION IF NOT EXISTS pgbenchkit CASCADE;
SET client_min_messages = warning;
\set VERBOSITY default

-- ------------------------------------------------------------ defining
-- one script: stored, listed with the built-ins, readable
SELECT name, dataset, scripts, weights, description, builtin, defined_by = current_user AS mine
  FROM bench.define_workload('counter', E'\\set n random(1, 10)\nSELECT :n AS n;\n', 'one random number');
SELECT workload, script_no, weight, builtin, length(script) > 0 AS has_text
  FROM bench.workload_scripts ORDER BY workload, script_no;

-- a mix of scripts with weights, as pgbench -f a@3 -f b@1; no description
SELECT name, weights, description FROM bench.define_workload('mix', ARRAY['SELECT 1;', 'SELECT 2;'], '{3,1}');
-- equal weights when none are given
SELECT weights FROM bench.define_workload('pair', ARRAY['SELECT 1;', 'SELECT 2;']);
-- redefined with replace => true
SELECT scripts, description FROM bench.define_workload('pair', 'SELECT 3;', 'now one', replace => true);

-- ------------------------------------------------------------ running
-- an unnamed script; the run keeps its script and what each command took
SELECT workload, status, transactions, clients
  FROM bench.run(script => E'\\set n random(1, 10)\n\\set m :n * 2\nSELECT :m;\n',
                 transactions => 25, prewarm => false, progress => '0');
SELECT script_no, weight, transactions, failures, latency_avg_ms > 0 AS timed
  FROM bench.run_scripts WHERE run_id = (SELECT max(id) FROM bench.runs);
SELECT command_no, line, command, executions, failures, latency_avg_ms >= 0 AS timed
  FROM bench.command_latencies WHERE run_id = (SELECT max(id) FROM bench.runs)
 ORDER BY command_no;

-- the same random_seed gives every client the same values, run after run
CREATE TABLE picks (client int, n bigint);
SELECT name FROM bench.define_workload('picker',
    E'\\set n random(1, 1000000000)\nINSERT INTO picks VALUES (:client_id, :n);\n');
SELECT status, transactions, random_seed
  FROM bench.run('picker', clients => 2, transactions => 20, random_seed => 7, prewarm => false, progress => '0');
CREATE TABLE picks_first AS SELECT * FROM picks;
TRUNCATE picks;
SELECT status FROM bench.run('picker', clients => 2, transactions => 20, random_seed => 7, prewarm => false, progress => '0');
SELECT (SELECT array_agg(n ORDER BY client, n) FROM picks) = (SELECT array_agg(n ORDER BY client, n) FROM picks_first) AS same_values,
       (SELECT count(DISTINCT n) FROM picks) AS distinct_values,
       (SELECT count(*) FROM picks WHERE client = 0) AS client0,
       (SELECT count(*) FROM picks WHERE client = 1) AS client1;
-- and another seed other values
TRUNCATE picks;
SELECT status FROM bench.run('picker', clients => 2, transactions => 20, random_seed => 8, prewarm => false, progress => '0');
SELECT (SELECT array_agg(n ORDER BY client, n) FROM picks) = (SELECT array_agg(n ORDER BY client, n) FROM picks_first) AS same_values;
-- without random_seed the run records the seed it drew
SELECT random_seed IS NOT NULL AS seed_recorded
  FROM bench.run('picker', transactions => 1, prewarm => false, progress => '0');

-- a mix: each transaction draws its script by weight
SELECT status, transactions FROM bench.run('mix', transactions => 400, random_seed => 1, prewarm => false, progress => '0');
SELECT script_no, weight, abs(transactions / 400.0 - weight / 4.0) < 0.1 AS share_near_weight
  FROM bench.run_scripts WHERE run_id = (SELECT max(id) FROM bench.runs) ORDER BY script_no;
SELECT sum(transactions) AS all_transactions FROM bench.run_scripts WHERE run_id = (SELECT max(id) FROM bench.runs);

-- variables, as pgbench -D: strings read as numbers where an expression
-- needs one; JSON null is NULL, which goes into SQL as the word NULL (as
-- pgbench puts it: SQL's NULL in the simple protocol); they win over :scale
CREATE TABLE vals (label text, twice bigint, nothing int, scale bigint);
SELECT status, variables
  FROM bench.run(script => E'\\set twice :n * 2\n\\set s :scale\nINSERT INTO vals VALUES ('':label'', :twice, :nothing, :s);\n',
                 variables => '{"label": "abc", "n": 21, "nothing": null, "scale": 9}',
                 protocol => 'simple', transactions => 1, prewarm => false, progress => '0');
SELECT * FROM vals;
-- :scale is 1 for a workload without a dataset, as for pgbench -f
TRUNCATE vals;
SELECT status FROM bench.run(script => E'INSERT INTO vals (scale) VALUES (:scale);\n',
                             transactions => 1, prewarm => false, protocol => 'simple', progress => '0');
SELECT scale FROM vals;

-- rate and latency_limit: a client that needs 5 ms per transaction cannot
-- keep 500 a second; every transaction is late (over 1 ms) and many are
-- skipped for being due more than 1 ms ago (pgbench -R 500 -L 1)
SELECT status, transactions + skipped = 50 AS all_accounted, skipped > 0 AS some_skipped,
       late = transactions AS all_late, lag_avg_ms > 0 AS lagged, lag_max_ms >= lag_avg_ms AS max_over_avg
  FROM bench.run(script => E'SELECT pg_sleep(0.005);\n', transactions => 50, rate => 500,
                 latency_limit => '1 ms', prewarm => false, progress => '0');
-- a rate without latency_limit skips nothing; late is only counted with a limit
SELECT status, skipped, late, lag_avg_ms IS NOT NULL AS lag_reported, rate
  FROM bench.run(script => 'SELECT 1;', transactions => 20, rate => 1000, prewarm => false, progress => '0');
-- the report shows them as pgbench does
SELECT regexp_replace(line, '[0-9]+\.[0-9]+', 'N.NNN', 'g') AS line
  FROM regexp_split_to_table(bench.report((SELECT max(id) FROM bench.runs)), E'\n') AS line
 WHERE line ~ '^(transaction type|rate limit|number of transactions (skipped|above)|( - )?statement|   +[0-9.]+ +[0-9]+  )';

-- ------------------------------------------------------------ run-time errors
-- a run-time error ends the run 'failed' with the script's line
-- (bench.wait returns the row where bench.run would raise the error)
SELECT status, sqlstate, error
  FROM bench.wait(bench.start(script => E'\\set a 1\n\\set b :a / 0\nSELECT :b;\n',
                              transactions => 1, prewarm => false, progress => '0'));
SELECT status, sqlstate, error
  FROM bench.wait(bench.start(script => E'\\set a 9223372036854775807\n\\set b :a + 1\n',
                              transactions => 1, prewarm => false, progress => '0'));
-- \gset of no row
SELECT status, sqlstate, error
  FROM bench.wait(bench.start(script => E'SELECT 1 AS one WHERE false \\gset\n',
                              transactions => 1, prewarm => false, progress => '0'));

-- a transaction that fails for good counts in the command it failed in
SELECT status, sqlstate
  FROM bench.wait(bench.start(script => E'SELECT 1;\nSELECT 1 / 0;\nSELECT 2;\n',
                              transactions => 3, prewarm => false, progress => '0'));
SELECT command_no, line, executions, failures FROM bench.command_latencies
 WHERE run_id = (SELECT max(id) FROM bench.runs) ORDER BY command_no;

-- a try that fails with a serialization failure and is retried counts as
-- a retry of its command (every first try fails here, every second passes)
CREATE SEQUENCE tries;
SELECT status, transactions, retried, retries, failures
  FROM bench.run(script => E'SELECT 1;\nDO $$ BEGIN IF nextval(''tries'') % 2 = 1 THEN RAISE EXCEPTION ''try again'' USING ERRCODE = ''40001''; END IF; END $$;\n',
                 transactions => 3, max_tries => 2, prewarm => false, progress => '0');
SELECT command_no, executions, failures, retries FROM bench.command_latencies
 WHERE run_id = (SELECT max(id) FROM bench.runs) ORDER BY command_no;
SELECT line FROM regexp_split_to_table(bench.report((SELECT max(id) FROM bench.runs)), E'\n') AS line
 WHERE line ~ 'statement latencies';

-- BEGIN then SET TRANSACTION, as in a session (the snapshot comes with
-- the first query); and BEGIN's own modes
CREATE TABLE levels (level text, ro text);
SELECT status, transactions
  FROM bench.run(script => E'BEGIN;\nSET TRANSACTION ISOLATION LEVEL REPEATABLE READ;\n'
                           'INSERT INTO levels VALUES (current_setting(''transaction_isolation''), current_setting(''transaction_read_only''));\nCOMMIT;\n'
                           'BEGIN ISOLATION LEVEL SERIALIZABLE;\n'
                           'INSERT INTO levels VALUES (current_setting(''transaction_isolation''), current_setting(''transaction_read_only''));\nEND;\n',
                 transactions => 1, prewarm => false, progress => '0');
SELECT * FROM levels ORDER BY level;
-- and each transaction after starts at the default level again
TRUNCATE levels;
SELECT status FROM bench.run(script => E'INSERT INTO levels VALUES (current_setting(''transaction_isolation''), ''-'');\n',
                             transactions => 1, prewarm => false, progress => '0');
SELECT * FROM levels;

-- a statement in a branch that never runs is not checked before the run
SELECT status, transactions
  FROM bench.run(script => E'\\if 0\nSELECT * FROM no_such_table;\n\\else\nSELECT 1;\n\\endif\n',
                 transactions => 2, prewarm => false, progress => '0');

-- max_tries => 0 (no limit) with a latency_limit and no duration
SELECT status, transactions, max_tries
  FROM bench.run(script => 'SELECT 1;', transactions => 3, max_tries => 0, latency_limit => '1 s',
                 prewarm => false, progress => '0');

-- a run that has no scripts recorded (a run of an older version, say)
-- still has a report
DELETE FROM bench.run_scripts WHERE run_id = (SELECT max(id) FROM bench.runs);
SELECT count(*) > 10 AS report_lines
  FROM regexp_split_to_table(bench.report((SELECT max(id) FROM bench.runs)), E'\n');
SELECT jsonb_typeof(bench.report_json((SELECT max(id) FROM bench.runs))->'scripts') AS scripts;

-- a workload a schedule runs is neither replaced nor dropped
INSERT INTO bench.schedules (name, cron, workload, clients, repeat, run_order, args,
                             search_path, baseline_runs, threshold, cron_database)
SELECT 'uses-counter', '0 0 1 1 *', s->>'workload', '{1}', 1, s->>'run_order', s->'args',
       s->>'search_path', 2, 0.3, current_database()
  FROM bench._sweep_spec('counter', '{1}', 1, NULL, 1, 'prepared', '0', '0', 1,
                         NULL, true, '1 s', 'interleaved') AS s;
SELECT bench.define_workload('counter', 'SELECT 1;', replace => true);
SELECT bench.drop_workload('counter');
DELETE FROM bench.schedules WHERE name = 'uses-counter';

-- ------------------------------------------------------------ dropping
SELECT bench.drop_workload('picker');
-- the runs keep the scripts they ran
SELECT count(*) AS scripts_kept FROM bench.run_scripts s JOIN bench.runs r ON r.id = s.run_id
 WHERE r.workload = 'picker';
SELECT bench.drop_workload('picker', if_exists => true);

-- ------------------------------------------------------------ bad input
-- define_workload
SELECT bench.define_workload(NULL, 'SELECT 1;');
SELECT bench.define_workload('x', NULL::text);
SELECT bench.define_workload('bad name', 'SELECT 1;');
SELECT bench.define_workload('', 'SELECT 1;');
SELECT bench.define_workload('x', '{}'::text[]);
SELECT bench.define_workload('x', ARRAY['SELECT 1;', NULL]);
SELECT bench.define_workload('x', ARRAY['SELECT 1;', 'SELECT 2;'], '{1}');
SELECT bench.define_workload('x', ARRAY['SELECT 1;', 'SELECT 2;'], '{1,-1}');
SELECT bench.define_workload('x', ARRAY['SELECT 1;', 'SELECT 2;'], '{0,0}');
SELECT bench.define_workload('x', 'SELECT 1;', dataset => 'tpce');
SELECT bench.define_workload('x', '-- nothing but a comment');
SELECT bench.define_workload('x', E'\\set n 1 +\n');
SELECT bench.define_workload('counter', 'SELECT 1;');
SELECT bench.define_workload('tpcb', 'SELECT 1;');
SELECT bench.define_workload('tpcb', 'SELECT 1;', replace => true);
SELECT count(*) AS none_made FROM bench.workloads WHERE name = 'x';
-- drop_workload
SELECT bench.drop_workload(NULL);
SELECT bench.drop_workload('nosuch');
SELECT bench.drop_workload('select-only');
-- another role may not change or drop a workload it did not define
CREATE ROLE pgbk_other;
GRANT EXECUTE ON FUNCTION bench.define_workload(text, text[], integer[], text, text, boolean),
                          bench.define_workload(text, text, text, text, boolean),
                          bench.drop_workload(text, boolean) TO pgbk_other;
SET ROLE pgbk_other;
SELECT bench.define_workload('counter', 'SELECT 1;', replace => true);
SELECT bench.drop_workload('counter');
SELECT name, defined_by = 'pgbk_other' AS theirs FROM bench.define_workload('theirs', 'SELECT 1;');
RESET ROLE;
SELECT bench.drop_workload('theirs');
REVOKE ALL ON FUNCTION bench.define_workload(text, text[], integer[], text, text, boolean),
                       bench.define_workload(text, text, text, text, boolean),
                       bench.drop_workload(text, boolean) FROM pgbk_other;
DROP ROLE pgbk_other;

-- run: workload or script, and the new arguments
SELECT * FROM bench.run(transactions => 1);
SELECT * FROM bench.run('counter', script => 'SELECT 1;');
SELECT * FROM bench.run(script => 'SELECT 1;', rate => 0);
SELECT * FROM bench.run(script => 'SELECT 1;', rate => -5);
SELECT * FROM bench.run(script => 'SELECT 1;', rate => 'NaN');
SELECT * FROM bench.run(script => 'SELECT 1;', clients => 2, rate => 2000001);
SELECT * FROM bench.run(script => 'SELECT 1;', transactions => 1, max_tries => 0);
SELECT * FROM bench.run(script => 'SELECT 1;', latency_limit => '0');
SELECT * FROM bench.run(script => 'SELECT 1;', variables => '[1, 2]');
SELECT * FROM bench.run(script => 'SELECT 1;', variables => '{"1x": 1}');
SELECT * FROM bench.run(script => 'SELECT 1;', variables => '{"a": [1]}');
SELECT * FROM bench.run(script => E'\\set x 1 / \n');
SELECT * FROM bench.run('nosuch');
-- what pgbench cannot run in the protocol asked for, refused before the run
SELECT * FROM bench.run(script => E'\\startpipeline\nSELECT 1;\n\\endpipeline\n', protocol => 'simple');
SELECT * FROM bench.run(script => E'SELECT 1 \\; SELECT 2;\n', protocol => 'extended');
SELECT * FROM bench.run(script => E'\\set i 1\nSELECT least(' || rtrim(repeat(':i, ', 256), ', ') || E');\n');
-- (the same in the simple protocol run)
SELECT status, transactions FROM bench.run(script => E'SELECT 1 \\; SELECT 2;\n', protocol => 'simple',
                                           transactions => 2, prewarm => false, progress => '0');
SELECT status, transactions FROM bench.run(script => E'\\set i 1\nSELECT least(' || rtrim(repeat(':i, ', 256), ', ') || E');\n',
                                           protocol => 'simple', transactions => 2, prewarm => false, progress => '0');
SELECT count(*) AS runs_of_bad_input FROM bench.runs WHERE status = 'running';

SELECT bench.drop_workload(name) FROM bench.workloads WHERE NOT builtin ORDER BY name;
DROP TABLE picks, picks_first, vals, levels;
DROP SEQUENCE tries;
