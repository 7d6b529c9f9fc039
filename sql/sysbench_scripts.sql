--
-- sysbench's distributions and random strings in scripts: the functions
-- sysbench_gaussian, sysbench_special, sysbench_pareto, sysbench_zipfian
-- and random_string, their defaults, and every mistake refused (when the
-- script is defined, or by the run that meets it).  t/022 holds their
-- numbers against sysbench's own.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbenchkit CASCADE;
\set VERBOSITY default
\set SHOW_CONTEXT never
SELECT coalesce(max(id), 0) AS runs_before FROM bench.runs \gset
CREATE TABLE sb_draws (run text, n serial, f text, v text);

-- ------------------------------------------------------------ success
-- the defaults are sysbench's (--rand-spec-iter=12, --rand-spec-pct=1,
-- --rand-spec-res=75, --rand-pareto-h=0.2, --rand-zipfian-exp=0.8): the
-- defaults and the same values written out draw the same numbers from the
-- same seed
SELECT name FROM bench.define_workload('sb_defaults', $s$
\set a sysbench_gaussian(1, 1000)
\set c sysbench_special(1, 1000)
\set e sysbench_pareto(1, 1000)
\set g sysbench_zipfian(1, 1000)
\set s random_string('##-@@ ''x''')
INSERT INTO sb_draws (run, f, v) VALUES ('defaults', 'a', :a), ('defaults', 'c', :c),
  ('defaults', 'e', :e), ('defaults', 'g', :g), ('defaults', 's', :s);
$s$);
SELECT name FROM bench.define_workload('sb_explicit', $s$
\set a SYSBENCH_GAUSSIAN(1, 1000, 12)
\set c sysbench_special(1, 1000, 1, 75, 12.0)
\set e sysbench_pareto(1, 1000, 0.2)
\set g sysbench_zipfian(1, 1000, 0.8)
\set s Random_String('##-@@ ''x''')
INSERT INTO sb_draws (run, f, v) VALUES ('explicit', 'a', :a), ('explicit', 'c', :c),
  ('explicit', 'e', :e), ('explicit', 'g', :g), ('explicit', 's', :s);
$s$);
SELECT status, transactions FROM bench.run('sb_defaults', transactions => 300, random_seed => 3,
       protocol => 'prepared', prewarm => false, progress => '0');
SELECT status, transactions FROM bench.run('sb_explicit', transactions => 300, random_seed => 3,
       protocol => 'prepared', prewarm => false, progress => '0');
-- the same draws, value for value
SELECT count(*) AS pairs, count(*) FILTER (WHERE d.v = e.v) AS equal
  FROM sb_draws d JOIN sb_draws e ON e.run = 'explicit' AND e.n - 1500 = d.n
 WHERE d.run = 'defaults';
-- in range, and shaped as the distributions are: gaussian's mean in the
-- middle; special's 75% in the middle 1% (495..506 of 1..1000); pareto's
-- share of 1s (1000 * u^7.21 < 1: 38%); zipfian's share of 1s (1 /
-- sum(k^-0.8), 6.5%)
SELECT f, min(v::int) >= 1 AND max(v::int) <= 1000 AS in_range,
       CASE f WHEN 'a' THEN avg(v::int) BETWEEN 480 AND 520
              WHEN 'c' THEN avg((v::int BETWEEN 495 AND 506)::int) BETWEEN 0.70 AND 0.82
              WHEN 'e' THEN avg((v::int = 1)::int) BETWEEN 0.32 AND 0.44
              WHEN 'g' THEN avg((v::int = 1)::int) BETWEEN 0.04 AND 0.09 END AS shaped
  FROM sb_draws WHERE run = 'defaults' AND f <> 's' GROUP BY f ORDER BY f;
-- random_string: '#' a digit, '@' a lower-case letter, '' a quote, the
-- rest as it is; all ten digits and more than twenty letters show up
SELECT count(*) AS strings, count(*) FILTER (WHERE v ~ '^[0-9]{2}-[a-z]{2} ''x''$') AS fit,
       count(DISTINCT substr(v, 1, 1)) AS digits, count(DISTINCT substr(v, 4, 1)) > 20 AS letters
  FROM sb_draws WHERE run = 'defaults' AND f = 's';
-- a string variable goes into SQL as it is, in the simple protocol too
SELECT status FROM bench.run(script => $s$
\set s random_string('@#@')
INSERT INTO sb_draws (run, f, v) VALUES ('simple', 's', ':s');
$s$, protocol => 'simple', transactions => 5, prewarm => false, progress => '0');
SELECT count(*) FILTER (WHERE v ~ '^[a-z][0-9][a-z]$') AS simple_fit FROM sb_draws WHERE run = 'simple';
-- :'name' is the variable as one literal: with 'simple' written quoted
-- (its quotes and backslashes escaped), with the others a parameter, as
-- :name; the same value arrives in every protocol
SELECT p AS protocol, r.status
  FROM unnest(ARRAY['simple', 'extended', 'prepared']) AS p,
       LATERAL bench.run(script => format($s$
\set s random_string('@''\#')
\set n 40 + 2
INSERT INTO sb_draws (run, f, v) VALUES ('quoted-%s', 's', :'s'), ('quoted-%s', 'n', :'n');
$s$, p, p), protocol => p, transactions => 5, prewarm => false, progress => '0') r;
SELECT run, count(*) FILTER (WHERE f = 's' AND v ~ '^[a-z]''\\[0-9]$') AS strings_kept,
       count(*) FILTER (WHERE f = 'n' AND v = '42') AS numbers_kept
  FROM sb_draws WHERE run LIKE 'quoted-%' GROUP BY run ORDER BY run;
-- the bounds sysbench allows: 0 to 4294967295
SELECT status FROM bench.run(script => $s$
\set a sysbench_special(0, 4294967295)
\set b sysbench_gaussian(4294967295, 4294967295)
\set c sysbench_zipfian(7, 7)
\set d sysbench_pareto(0, 0)
INSERT INTO sb_draws (run, f, v) VALUES ('bounds', 'a', :a), ('bounds', 'b', :b), ('bounds', 'c', :c), ('bounds', 'd', :d);
$s$, transactions => 20, random_seed => 1, prewarm => false, progress => '0');
SELECT f, min(v::bigint) >= 0 AND max(v::bigint) <= 4294967295 AS in_range,
       CASE WHEN f <> 'a' THEN min(v) END AS min, CASE WHEN f <> 'a' THEN max(v) END AS max
  FROM sb_draws WHERE run = 'bounds' GROUP BY f ORDER BY f;

-- ------------------------------------------------------------ \ignore_errors
-- a statement that fails with a SQLSTATE its script ignores rolls its
-- transaction back, counts an ignored error and starts the transaction
-- again with new random values, as sysbench restarts an event.  Ids 1 and
-- 2 are taken: a try that draws them fails, one that draws 3 or 4 commits.
-- Without BEGIN each statement commits alone, so sb_tries keeps every
-- try; had a restart kept its values, no transaction could have ended.
CREATE TABLE sb_unique (id int PRIMARY KEY);
INSERT INTO sb_unique VALUES (1), (2);
CREATE TABLE sb_tries (id int);
SELECT id AS ign_run, status, transactions, failures, ignored_errors
  FROM bench.run(script => $s$
\ignore_errors 23505
\set id random(1, 4)
INSERT INTO sb_tries VALUES (:id);
INSERT INTO sb_unique VALUES (:id);
DELETE FROM sb_unique WHERE id = :id;
$s$, transactions => 200, random_seed => 11, prewarm => false, progress => '0') \gset
SELECT :'status' AS status, :transactions AS transactions, :failures AS failures,
       :ignored_errors > 0 AS some_ignored,
       (SELECT count(*) FROM sb_tries WHERE id IN (3, 4)) = :transactions AS committed_tries,
       (SELECT count(*) FROM sb_tries WHERE id IN (1, 2)) = :ignored_errors AS failed_tries,
       (SELECT sum(ignored_errors) FROM bench.progress WHERE run_id = :ign_run) = :ignored_errors AS in_progress,
       (SELECT executions FROM bench.command_latencies
         WHERE run_id = :ign_run AND command LIKE 'INSERT INTO sb_unique%') AS unique_inserts,
       (SELECT (j->'sysbench'->>'ignored_errors')::bigint = :ignored_errors
               AND (j->'pgbench'->>'ignored_errors')::bigint = :ignored_errors
          FROM bench.report_json(:ign_run) j) AS reported;
SELECT array_agg(id ORDER BY id) AS left_as_it_was FROM sb_unique;
-- in a transaction block, a failed try leaves nothing behind
TRUNCATE sb_tries;
SELECT status, transactions, failures, ignored_errors > 0 AS some_ignored FROM bench.run(script => $s$
\ignore_errors 40P01 23505 40001
\set id random(1, 4)
BEGIN;
INSERT INTO sb_tries VALUES (:id);
INSERT INTO sb_unique VALUES (:id);
DELETE FROM sb_unique WHERE id = :id;
END;
$s$, transactions => 50, random_seed => 12, prewarm => false, progress => '0');
SELECT count(*) AS rows_kept, bool_and(id IN (3, 4)) AS only_committed FROM sb_tries;
-- lower case and repeats are fine; without \ignore_errors the error fails
-- the run, as before
SELECT name FROM bench.define_workload('sb_ignores', $s$
\ignore_errors 40p01 40P01 23505
SELECT 1;
$s$);
SELECT bench.drop_workload('sb_ignores') IS NOT NULL AS dropped;
\set VERBOSITY sqlstate
SELECT status FROM bench.run(script => $s$
\set id random(1, 4)
INSERT INTO sb_unique VALUES (:id);
DELETE FROM sb_unique WHERE id = :id;
$s$, transactions => 50, random_seed => 11, prewarm => false, progress => '0');
\set VERBOSITY default

-- ------------------------------------------------------------ \dataset
-- a script declares its dataset: a workload defined without one takes it,
-- one of the same kind is fine, and a run of the script alone needs it
SELECT name, dataset FROM bench.define_workload('sb_declared', $s$\dataset sysbench
\dataset sysbench
SELECT count(*) FROM sbtest1;$s$);
SELECT name, dataset FROM bench.define_workload('sb_declared', $s$\dataset sysbench
SELECT count(*) FROM sbtest1;$s$, dataset => 'sysbench', replace => true);
SELECT bench.drop_workload('sb_declared');
-- there is no sysbench dataset here (init_sysbench runs one)
SELECT status FROM bench.run(script => $s$\dataset sysbench
SELECT 1;$s$, transactions => 1, progress => '0');

-- ------------------------------------------------------------ refused when defined
SELECT bench.define_workload('bad', $s$\ignore_errors$s$);
SELECT bench.define_workload('bad', $s$\ignore_errors 2350$s$);
SELECT bench.define_workload('bad', $s$\ignore_errors 23505 23-05$s$);
SELECT bench.define_workload('bad', $s$\ignore_errors 00000$s$);
SELECT bench.define_workload('bad', $s$\ignore_errors 01000$s$);
SELECT bench.define_workload('bad', $s$\ignore_errors 08006$s$);
SELECT bench.define_workload('bad', $s$\ignore_errors 57014$s$);
SELECT bench.define_workload('bad', $s$\ignore_errors 23505 23502 23503 23514 22001 22003 22012 40001 40P01 42P01 42703 55P03 53100 53200 25P02 22P02 22023$s$);
SELECT bench.define_workload('bad', $s$\dataset$s$);
SELECT bench.define_workload('bad', $s$\dataset tpce$s$);
SELECT bench.define_workload('bad', $s$\dataset ibench sysbench$s$);
SELECT bench.define_workload('bad', $s$\dataset ibench
\dataset sysbench$s$);
SELECT bench.define_workload('bad', $s$\dataset ibench
SELECT 1;$s$, dataset => 'tpcb');
SELECT bench.define_workload('bad', ARRAY[$s$\dataset ibench
SELECT 1;$s$, $s$\dataset sysbench
SELECT 2;$s$]);
SELECT bench.define_workload('bad', $s$\set x sysbench_special(1)$s$);
SELECT bench.define_workload('bad', $s$\set x sysbench_special(1, 2, 3, 4, 5, 6)$s$);
SELECT bench.define_workload('bad', $s$\set x sysbench_pareto()$s$);
SELECT bench.define_workload('bad', $s$\set x sysbench_uniform(1, 2)$s$);
SELECT bench.define_workload('bad', $s$\if random_string('#')$s$);
SELECT bench.define_workload('bad', $s$\set x random_string('#') || 'a'$s$);
SELECT bench.define_workload('bad', $s$\set x 1 + random_string('#')$s$);
SELECT bench.define_workload('bad', $s$\set x random_string(:y)$s$);
SELECT bench.define_workload('bad', $s$\set x random_string()$s$);
SELECT bench.define_workload('bad', $s$\set x random_string('#', '@')$s$);
SELECT bench.define_workload('bad', $s$\set x random_string('#$s$);
SELECT bench.define_workload('bad', $s$\set x 'abc'$s$);
\set VERBOSITY terse
SELECT bench.define_workload('bad', format($f$\set x random_string('%s')$f$, repeat('#', 8193)));
\set VERBOSITY default

-- ------------------------------------------------------------ refused by the run
-- the run fails with the error, its SQLSTATE and the script's line
\set VERBOSITY sqlstate
SELECT bench.run(script => $s$\set x sysbench_special(5, 4)$s$, transactions => 1, prewarm => false, progress => '0');
SELECT bench.run(script => $s$\set x sysbench_gaussian(-1, 4)$s$, transactions => 1, prewarm => false, progress => '0');
SELECT bench.run(script => $s$\set x sysbench_pareto(1, 4294967296)$s$, transactions => 1, prewarm => false, progress => '0');
SELECT bench.run(script => $s$\set x sysbench_special(1, 10, 101)$s$, transactions => 1, prewarm => false, progress => '0');
SELECT bench.run(script => $s$\set x sysbench_special(1, 10, 1, -1)$s$, transactions => 1, prewarm => false, progress => '0');
SELECT bench.run(script => $s$\set x sysbench_special(1, 10, 1, 75, 0)$s$, transactions => 1, prewarm => false, progress => '0');
SELECT bench.run(script => $s$\set x sysbench_gaussian(1, 10, 2.5)$s$, transactions => 1, prewarm => false, progress => '0');
SELECT bench.run(script => $s$\set x sysbench_gaussian(1, 10, 1001)$s$, transactions => 1, prewarm => false, progress => '0');
SELECT bench.run(script => $s$\set x sysbench_pareto(1, 10, 0)$s$, transactions => 1, prewarm => false, progress => '0');
SELECT bench.run(script => $s$\set x sysbench_pareto(1, 10, 1)$s$, transactions => 1, prewarm => false, progress => '0');
SELECT bench.run(script => $s$\set x sysbench_zipfian(1, 10, -0.1)$s$, transactions => 1, prewarm => false, progress => '0');
SELECT bench.run(script => $s$\set x sysbench_zipfian(1, 10, true)$s$, transactions => 1, prewarm => false, progress => '0');
\set VERBOSITY default
SELECT status, sqlstate, error FROM bench.runs
 WHERE id > :runs_before AND status <> 'done' ORDER BY id;
-- a NULL argument makes NULL, as in every function of the language
SELECT status FROM bench.run(script => $s$
\set x sysbench_special(1, 10, NULL)
\if :x IS NULL
INSERT INTO sb_draws (run, f, v) VALUES ('null', 'x', 'null');
\endif
$s$, transactions => 1, prewarm => false, progress => '0');
SELECT count(*) AS null_made_null FROM sb_draws WHERE run = 'null';

SELECT count(*) AS refused_defined FROM bench.workloads WHERE name = 'bad';
SELECT count(*) AS dropped FROM bench.workloads, LATERAL bench.drop_workload(name)
 WHERE name IN ('sb_defaults', 'sb_explicit');
DELETE FROM bench.runs WHERE id > :runs_before;
DROP TABLE sb_draws, sb_unique, sb_tries;
