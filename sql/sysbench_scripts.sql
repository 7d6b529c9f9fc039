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

-- ------------------------------------------------------------ refused when defined
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
DROP TABLE sb_draws;
