--
-- Scripts: how bench.define_workload and bench.run read pgbench's script
-- language (commands numbered and shown as pgbench -r shows them), what
-- each meta-command does, and every mistake refused before a run starts.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbenchkit CASCADE;
\set VERBOSITY default
\set SHOW_CONTEXT never
-- the runs below are removed at the end
SELECT coalesce(max(id), 0) AS runs_before FROM bench.runs \gset

CREATE TABLE script_log (step text, val text);
-- replaced by a script below (its statements are analysed before it runs)
CREATE FUNCTION script_fn() RETURNS int LANGUAGE sql RETURN 0;

-- ------------------------------------------------------------ SQL commands
-- A semicolon ends a command, and so does a backslash anywhere outside
-- quotes and comments; a lone ";" is a command (an empty query); "--"
-- comments before a command are dropped, within it kept; "\;" joins
-- statements into one command, "\:" is a colon; semicolons in quotes,
-- comments and a BEGIN ATOMIC body end nothing.
SELECT name FROM bench.define_workload('sql_split', $s$
-- only a comment: no command
INSERT INTO script_log VALUES ('trailing comment', 'kept') -- to the end of the line
;
;
/* a block comment */ ;
INSERT INTO script_log VALUES ('joined', '1') \; INSERT INTO script_log VALUES ('joined', '2');
INSERT INTO script_log SELECT 'colon', 'x'\:\:text;
INSERT INTO script_log SELECT 'quotes', E'a\'b\\' || $q$;\set$q$ || "x\y" FROM (SELECT 'c' AS "x\y") s;
CREATE OR REPLACE FUNCTION script_fn() RETURNS int LANGUAGE sql
BEGIN ATOMIC
  SELECT 1;
  SELECT 2;
END;
INSERT INTO script_log VALUES ('begin atomic', script_fn()::text);
SELECT 5 AS five
\gset
INSERT INTO script_log VALUES ('gset on the next line', :five);
SELECT 6 AS six; \gset g_
INSERT INTO script_log VALUES ('gset after the semicolon', :g_six) \sleep 0
-- a comment at the end: no command
$s$);
SELECT status, transactions FROM bench.run('sql_split', protocol => 'simple', transactions => 1, prewarm => false, progress => '0');
SELECT command_no, line, command, executions FROM bench.command_latencies
 WHERE run_id = (SELECT max(id) FROM bench.runs) ORDER BY command_no;
SELECT step, val FROM script_log ORDER BY step, val;
TRUNCATE script_log;

-- ------------------------------------------------------------ \set
SELECT name FROM bench.define_workload('set', $s$
\SET a 2
\set b :a * \
       10
INSERT INTO script_log VALUES ('set', :b);
$s$);
SELECT status FROM bench.run('set', transactions => 1, prewarm => false, progress => '0');
SELECT command_no, line, command FROM bench.command_latencies
 WHERE run_id = (SELECT max(id) FROM bench.runs) ORDER BY command_no;
SELECT step, val FROM script_log;
TRUNCATE script_log;
-- mistakes
SELECT bench.define_workload('bad', $s$\set$s$);
SELECT bench.define_workload('bad', $s$\set 1x 1$s$);
SELECT bench.define_workload('bad', $s$\set x.y 1$s$);
SELECT bench.define_workload('bad', E'SELECT 1;\n  \\set x 1 +\n');

-- ------------------------------------------------------------ \sleep
-- an integer or a :variable, a unit us, ms or s (the default) apart or glued
SELECT name FROM bench.define_workload('sleep', $s$
\sleep 0
\sleep 10 us
\sleep 1ms
\sleep +
\sleep -1 S
\set t 2
\sleep :t us
SELECT '  30 and more' AS s \gset
\sleep :s MS
$s$);
SELECT status FROM bench.run('sleep', transactions => 1, prewarm => false, progress => '0');
SELECT command_no, line, command, executions FROM bench.command_latencies
 WHERE run_id = (SELECT max(id) FROM bench.runs) ORDER BY command_no;
-- the variable holding "  30 and more" sleeps 30 ms, as pgbench reads it
SELECT command, latency_avg_ms >= 30 AS slept_30_ms FROM bench.command_latencies
 WHERE run_id = (SELECT max(id) FROM bench.runs) AND command_no = 9;
-- mistakes found when the script is read
SELECT bench.define_workload('bad', $s$\sleep$s$);
SELECT bench.define_workload('bad', $s$\sleep 1 ms now$s$);
SELECT bench.define_workload('bad', $s$\sleep x$s$);
SELECT bench.define_workload('bad', $s$\sleep 1.5 s$s$);
SELECT bench.define_workload('bad', $s$\sleep 1.5$s$);
SELECT bench.define_workload('bad', $s$\sleep 1 week$s$);
SELECT bench.define_workload('bad', $s$\sleep 10msx$s$);
SELECT bench.define_workload('bad', $s$\sleep :1a$s$);
SELECT bench.define_workload('bad', $s$\sleep 99999999999999999999 us$s$);
SELECT bench.define_workload('bad', $s$\sleep 9223372036854775807 s$s$);
-- and when a client runs it
\set VERBOSITY sqlstate
SELECT * FROM bench.run(script => $s$\sleep :nosuch$s$, transactions => 1, prewarm => false, progress => '0');
\set VERBOSITY default
SELECT status, sqlstate, error FROM bench.runs WHERE id = (SELECT max(id) FROM bench.runs);
\set VERBOSITY sqlstate
SELECT * FROM bench.run(script => E'SELECT \'abc\' AS t \\gset\n\\sleep :t ms\n',
                        transactions => 1, prewarm => false, progress => '0');
\set VERBOSITY default
SELECT status, sqlstate, error FROM bench.runs WHERE id = (SELECT max(id) FROM bench.runs);

-- ------------------------------------------------------------ \if \elif \else \endif
SELECT name FROM bench.define_workload('if', $s$
\set a 2
\if :a = 1
INSERT INTO script_log VALUES ('if', 'wrong 1');
\elif :a = 2
  \if false
  INSERT INTO script_log VALUES ('if', 'wrong 2');
  \else
  INSERT INTO script_log VALUES ('if', 'right');
  \endif
\elif :a = 2
INSERT INTO script_log VALUES ('if', 'wrong 3');
\else
INSERT INTO script_log VALUES ('if', 'wrong 4');
\endif
$s$);
SELECT status FROM bench.run('if', transactions => 1, prewarm => false, progress => '0');
SELECT command_no, line, command, executions FROM bench.command_latencies
 WHERE run_id = (SELECT max(id) FROM bench.runs) ORDER BY command_no;
SELECT step, val FROM script_log;
TRUNCATE script_log;
-- mistakes
SELECT bench.define_workload('bad', $s$\if 1$s$);
SELECT bench.define_workload('bad', E'\\if 1\n\\if 2\n\\endif\n');
SELECT bench.define_workload('bad', $s$\elif 1$s$);
SELECT bench.define_workload('bad', $s$\else$s$);
SELECT bench.define_workload('bad', $s$\endif$s$);
SELECT bench.define_workload('bad', E'\\if 1\n\\else\n\\elif 0\n\\endif\n');
SELECT bench.define_workload('bad', E'\\if 1\n\\else\n\\else\n\\endif\n');
SELECT bench.define_workload('bad', E'\\if\n\\endif\n');
SELECT bench.define_workload('bad', E'\\if 0\n\\else BAD\n\\endif\n');
SELECT bench.define_workload('bad', E'\\if 0\n\\endif BAD\n');

-- ------------------------------------------------------------ \gset \aset
-- \gset ends a query in place of its semicolon and stores its one row;
-- \aset stores the last row of every statement of the command, none if
-- there is none; each takes an optional prefix
SELECT name FROM bench.define_workload('gset', $s$
SELECT 1 AS a, 2 AS b \gset
SELECT 3 AS a \gset p_
\; SELECT 5 AS i5 \; SELECT 6 AS i6 \aset
SELECT 7 AS j WHERE false \aset
SELECT 8 AS k UNION ALL SELECT 9 ORDER BY 1 \aset
BEGIN \aset
COMMIT;
INSERT INTO script_log VALUES ('gset', concat_ws(',', :a::text, :b::text, :p_a::text, :i5::text, :i6::text, :k::text));
$s$);
SELECT status FROM bench.run('gset', protocol => 'simple', transactions => 1, prewarm => false, progress => '0');
SELECT command_no, line, command FROM bench.command_latencies
 WHERE run_id = (SELECT max(id) FROM bench.runs) ORDER BY command_no;
SELECT step, val FROM script_log;
TRUNCATE script_log;
-- mistakes
SELECT bench.define_workload('bad', $s$\gset$s$);
SELECT bench.define_workload('bad', $s$\aset p_$s$);
SELECT bench.define_workload('bad', E'\\set i 1\n\\gset\n');
SELECT bench.define_workload('bad', E'SELECT 1 AS i \\gset\n\\gset\n');
SELECT bench.define_workload('bad', $s$SELECT 1 \gset a b$s$);
SELECT bench.define_workload('bad', $s$SELECT 1 AS x \gset 1x_$s$);
SELECT bench.define_workload('bad', $s$BEGIN \gset$s$);
-- \gset finds one row or fails the run
\set VERBOSITY sqlstate
SELECT * FROM bench.run(script => $s$SELECT 1 AS x UNION SELECT 2 \gset$s$,
                        transactions => 1, prewarm => false, progress => '0');
\set VERBOSITY default
SELECT status, sqlstate, error FROM bench.runs WHERE id = (SELECT max(id) FROM bench.runs);

-- ------------------------------------------------------------ pipelines
SELECT name FROM bench.define_workload('pipeline', $s$
\startpipeline
INSERT INTO script_log VALUES ('pipeline', '1');
\syncpipeline
\if true
INSERT INTO script_log VALUES ('pipeline', '2');
\endif
\endpipeline
$s$);
SELECT status FROM bench.run('pipeline', transactions => 1, prewarm => false, progress => '0');
SELECT command_no, line, command FROM bench.command_latencies
 WHERE run_id = (SELECT max(id) FROM bench.runs) ORDER BY command_no;
SELECT step, val FROM script_log ORDER BY val;
TRUNCATE script_log;
-- mistakes pgbench finds when a client runs into them, found here before
SELECT bench.define_workload('bad', E'\\startpipeline\n\\startpipeline\n');
SELECT bench.define_workload('bad', $s$\endpipeline$s$);
SELECT bench.define_workload('bad', $s$\syncpipeline$s$);
SELECT bench.define_workload('bad', E'\\startpipeline\nSELECT 1;\n');
SELECT bench.define_workload('bad', E'\\startpipeline\nselect 1 \\gset f\n\\endpipeline\n');
SELECT bench.define_workload('bad', E'\\startpipeline\nselect 1 \\aset\n\\endpipeline\n');
SELECT bench.define_workload('bad', $s$\startpipeline now$s$);
SELECT bench.define_workload('bad', E'\\startpipeline\n\\endpipeline 1\n');
-- a pipeline ends in the branch of the \if it starts in
SELECT bench.define_workload('bad', E'\\if true\n\\startpipeline\n\\else\n\\endif\n');
SELECT bench.define_workload('bad', E'\\startpipeline\n\\if true\n\\endpipeline\n\\endif\n');

-- ------------------------------------------------------------ transactions
-- BEGIN and START TRANSACTION with transaction modes, COMMIT, END,
-- ROLLBACK and ABORT: the client runs them
SELECT name FROM bench.define_workload('xact', $s$
BEGIN;
COMMIT;
begin work;
end transaction;
START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY;
ROLLBACK AND NO CHAIN;
begin transaction read write not deferrable isolation level read committed;
abort;
BEGIN ISOLATION LEVEL SERIALIZABLE DEFERRABLE;
COMMIT WORK;
$s$);
-- not joined to other statements, and no other transaction control
SELECT bench.define_workload('bad', $s$BEGIN \; SELECT 1;$s$);
SELECT bench.define_workload('bad', $s$SELECT 1 \; COMMIT;$s$);
SELECT bench.define_workload('bad', $s$SAVEPOINT s;$s$);
SELECT bench.define_workload('bad', $s$RELEASE SAVEPOINT s;$s$);
SELECT bench.define_workload('bad', $s$ROLLBACK TO s;$s$);
SELECT bench.define_workload('bad', $s$PREPARE TRANSACTION 'x';$s$);
SELECT bench.define_workload('bad', $s$COMMIT PREPARED 'x';$s$);
SELECT bench.define_workload('bad', $s$COMMIT AND CHAIN;$s$);
SELECT bench.define_workload('bad', $s$BEGIN ISOLATION LEVEL;$s$);
SELECT bench.define_workload('bad', $s$BEGIN READ ONLY,;$s$);
SELECT bench.define_workload('bad', $s$END IF;$s$);

-- ------------------------------------------------------------ other commands
-- a lone backslash is nothing
SELECT name FROM bench.define_workload('backslash', E'\\\nSELECT 1;\n');
-- \shell and \setshell cannot run in the server
SELECT bench.define_workload('bad', $s$\shell echo hello$s$);
SELECT bench.define_workload('bad', $s$\setshell n echo 1$s$);
SELECT bench.define_workload('bad', E'SELECT 1;\n  \\nosuchcommand x\n');

-- ------------------------------------------------------------ whole scripts
SELECT bench.define_workload('bad', '');
SELECT bench.define_workload('bad', E'-- nothing but a comment\n\n');
SELECT bench.define_workload('bad', E'SELECT 1;\nSELECT \'abc;\n');
SELECT bench.define_workload('bad', E'SELECT 1;\nSELECT "abc;\n');
SELECT bench.define_workload('bad', E'SELECT 1 /* comment\n');
SELECT bench.define_workload('bad', E'SELECT $x$ body\n');
SELECT bench.define_workload('bad', E'SELECT (1;\n');

-- ------------------------------------------------------------ pgbench's own
-- scripts of pgbench's regression tests, unchanged
SELECT name FROM bench.define_workload('pgbench_custom', $s$-- special variables
BEGIN;
\set foo 1
-- cast are needed for typing under -M prepared
SELECT :foo::INT + :scale::INT * :client_id::INT AS bla;
COMMIT;
$s$);
SELECT name FROM bench.define_workload('pgbench_gset', $s$-- test gset
-- no columns
SELECT \gset
-- one value
SELECT 0 AS i0 \gset
\set i debug(:i0)
-- two values
SELECT 1 AS i1, 2 AS i2 \gset
\set i debug(:i1)
\set i debug(:i2)
-- with prefix
SELECT 3 AS i3 \gset x_
\set i debug(:x_i3)
-- overwrite existing variable
SELECT 0 AS i4, 4 AS i4 \gset
\set i debug(:i4)
-- work on the last SQL command under \;
\; \; SELECT 0 AS i5 \; SELECT 5 AS i5 \; \; \gset
\set i debug(:i5)
$s$);
SELECT name FROM bench.define_workload('pgbench_aset', $s$
-- test aset, which applies to a combined query
\; SELECT 6 AS i6 \; SELECT 7 AS i7 \; \aset
-- unless it returns more than one row, last is kept
SELECT 8 AS i6 UNION SELECT 9 ORDER BY 1 DESC \aset
\set i debug(:i6)
\set i debug(:i7)
$s$);
SELECT name FROM bench.define_workload('pgbench_pipeline', $s$
-- test startpipeline
\startpipeline
select 1;
select 1;
select 1;
\endpipeline
$s$);
SELECT name FROM bench.define_workload('pgbench_pipeline_serializable', $s$
-- test startpipeline with serializable
\startpipeline
BEGIN ISOLATION LEVEL SERIALIZABLE;
select 1;
select 1;
END;
\endpipeline
$s$);
SELECT name FROM bench.define_workload('pgbench_sleep', $s$-- run set
\set zero 0
\set one 1.0
-- sleep
\sleep :one ms
\sleep 100 us
\sleep 0 s
\sleep :zero
$s$);
SELECT name FROM bench.define_workload('pgbench_expressions', $s$-- integer functions
\set i1 debug(random(10, 19))
\set i2 debug(random_exponential(100, 199, 10.0))
\set i3 debug(random_gaussian(1000, 1999, 10.0))
\set i4 debug(abs(-4))
\set i5 debug(greatest(5, 4, 3, 2))
\set i6 debug(11 + least(-5, -4, -3, -2))
\set i7 debug(int(7.3))
-- integer arithmetic and bit-wise operators
\set i8 debug(17 / (4|1) + ( 4 + (7 >> 2)))
\set i9 debug(- (3 * 4 - (-(~ 1) + -(~ 0))) / -1 + 3 % -1)
\set ia debug(10 + (0 + 0 * 0 - 0 / 1))
\set ib debug(:ia + :scale)
\set ic debug(64 % (((2 + 1 * 2 + (1 # 2) | 4 * (2 & 11)) - (1 << 2)) + 2))
-- double functions and operators
\set d1 debug(sqrt(+1.5 * 2.0) * abs(-0.8E1))
\set d2 debug(double(1 + 1) * (-75.0 / :foo))
\set pi debug(pi() * 4.9)
\set d4 debug(greatest(4, 2, -1.17) * 4.0 * Ln(Exp(1.0)))
\set d5 debug(least(-5.18, .0E0, 1.0/0) * -3.3)
-- reset variables
\set i1 0
\set d1 false
-- yet another integer function
\set id debug(random_zipfian(1, 9, 1.3))
--- pow and power
\set poweri debug(pow(-3,3))
\set powerd debug(pow(2.0,10))
\set poweriz debug(pow(0,0))
\set powerdz debug(pow(0.0,0.0))
\set powernegi debug(pow(-2,-3))
\set powernegd debug(pow(-2.0,-3.0))
\set powernegd2 debug(power(-5.0,-5.0))
\set powerov debug(pow(9223372036854775807, 2))
\set powerov2 debug(pow(10,30))
-- comparisons and logical operations
\set c0 debug(1.0 = 0.0 and 1.0 != 0.0)
\set c1 debug(0 = 1 Or 1.0 = 1)
\set c4 debug(case when 0 < 1 then 32 else 0 end)
\set c5 debug(case when true then 33 else 0 end)
\set c6 debug(case when false THEN -1 when 1 = 1 then 13 + 19 + 2.0 end )
\set c7 debug(case when (1 > 0) and (1 >= 0) and (0 < 1) and (0 <= 1) and (0 != 1) and (0 = 0) and (0 <> 1) then 35 else 0 end)
\set c8 debug(CASE \
                WHEN (1.0 > 0.0) AND (1.0 >= 0.0) AND (0.0 < 1.0) AND (0.0 <= 1.0) AND \
                     (0.0 != 1.0) AND (0.0 = 0.0) AND (0.0 <> 1.0) AND (0.0 = 0.0) \
                  THEN 36 \
                  ELSE 0 \
              END)
\set c9 debug(CASE WHEN NOT FALSE THEN 3 * 12.3333334 END)
\set ca debug(case when false then 0 when 1-1 <> 0 then 1 else 38 end)
\set cb debug(10 + mod(13 * 7 + 12, 13) - mod(-19 * 11 - 17, 19))
\set cc debug(NOT (0 > 1) AND (1 <= 1) AND NOT (0 >= 1) AND (0 < 1) AND \
    NOT (false and true) AND (false OR TRUE) AND (NOT :f) AND (NOT FALSE) AND \
    NOT (NOT TRUE))
-- NULL value and associated operators
\set n0 debug(NULL + NULL * exp(NULL))
\set n1 debug(:n0)
\set n2 debug(NOT (:n0 IS NOT NULL OR :d1 IS NULL))
\set n3 debug(:n0 IS NULL AND :d1 IS NOT NULL AND :d1 NOTNULL)
\set n4 debug(:n0 ISNULL AND NOT :n0 IS TRUE AND :n0 IS NOT FALSE)
\set n5 debug(CASE WHEN :n IS NULL THEN 46 ELSE NULL END)
-- use a variables of all types
\set n6 debug(:n IS NULL AND NOT :f AND :t)
-- conditional truth
\set cs debug(CASE WHEN 1 THEN TRUE END AND CASE WHEN 1.0 THEN TRUE END AND CASE WHEN :n THEN NULL ELSE TRUE END)
-- hash functions
\set h0 debug(hash(10, 5432))
\set h1 debug(:h0 = hash_murmur2(10, 5432))
\set h3 debug(hash_fnv1a(10, 5432))
\set h4 debug(hash(10))
\set h5 debug(hash(10) = hash(10, :default_seed))
-- lazy evaluation
\set zy 0
\set yz debug(case when :zy = 0 then -1 else (1 / :zy) end)
\set yz debug(case when :zy = 0 or (1 / :zy) < 0 then -1 else (1 / :zy) end)
\set yz debug(case when :zy > 0 and (1 / :zy) < 0 then (1 / :zy) else 1 end)
-- substitute variables of all possible types
\set v0 NULL
\set v1 TRUE
\set v2 5432
\set v3 -54.21E-2
SELECT :v0, :v1, :v2, :v3;
-- if tests
\set nope 0
\if 1 > 0
\set id debug(65)
\elif 0
\set nope 1
\else
\set nope 1
\endif
\if 1 < 0
\set nope 1
\elif 1 > 0
\set ie debug(74)
\else
\set nope 1
\endif
\if 1 < 0
\set nope 1
\elif 1 < 0
\set nope 1
\else
\set if debug(83)
\endif
\if 1 = 1
\set ig debug(86)
\elif 0
\set nope 1
\endif
\if 1 = 0
\set nope 1
\elif 1 <> 0
\set ih debug(93)
\endif
-- must be zero if false branches where skipped
\set nope debug(:nope)
-- check automatic variables
\set sc debug(:scale)
\set ci debug(:client_id)
\set rs debug(:random_seed)
-- minint constant parsing
\set min debug(-9223372036854775808)
\set max debug(-(:min + 1))
-- parametric pseudorandom permutation function
\set t debug(permute(0, 2) + permute(1, 2) = 1)
\set t debug(permute(0, 3) + permute(1, 3) + permute(2, 3) = 3)
\set t debug(permute(0, 4) + permute(1, 4) + permute(2, 4) + permute(3, 4) = 6)
\set t debug(permute(0, 5) + permute(1, 5) + permute(2, 5) + permute(3, 5) + permute(4, 5) = 10)
\set t debug(permute(0, 16) + permute(1, 16) + permute(2, 16) + permute(3, 16) + \
             permute(4, 16) + permute(5, 16) + permute(6, 16) + permute(7, 16) + \
             permute(8, 16) + permute(9, 16) + permute(10, 16) + permute(11, 16) + \
             permute(12, 16) + permute(13, 16) + permute(14, 16) + permute(15, 16) = 120)
-- random sanity checks
\set size random(2, 1000)
\set v random(0, :size - 1)
\set p permute(:v, :size)
\set t debug(0 <= :p and :p < :size and :p = permute(:v + :size, :size) and :p <> permute(:v + 1, :size))
-- actual values
\set t debug(permute(:v, 1) = 0)
\set t debug(permute(0, 2, 5431) = 0 and permute(1, 2, 5431) = 1 and \
             permute(0, 2, 5433) = 1 and permute(1, 2, 5433) = 0)
-- check permute's portability across architectures
\set size debug(:max - 10)
\set t debug(permute(:size-1, :size, 5432) = 520382784483822430 and \
             permute(:size-2, :size, 5432) = 1143715004660802862 and \
             permute(:size-3, :size, 5432) = 447293596416496998 and \
             permute(:size-4, :size, 5432) = 916527772266572956 and \
             permute(:size-5, :size, 5432) = 2763809008686028849 and \
             permute(:size-6, :size, 5432) = 8648551549198294572 and \
             permute(:size-7, :size, 5432) = 4542876852200565125)
$s$);
-- the example of \gset in pgbench's documentation
SELECT name FROM bench.define_workload('pgbench_docs_gset', $s$
UPDATE pgbench_accounts
  SET abalance = abalance + :delta
  WHERE aid = :aid
  RETURNING abalance \gset
-- compound of two queries
SELECT 1 \;
SELECT 2 AS two, 3 AS three \gset p_
$s$);
-- and one that pgbench runs, but not a client inside the server
SELECT bench.define_workload('pgbench_backslash_commands', $s$-- run set
\set zero 0
\set one 1.0
-- sleep
\sleep :one ms
\sleep 100 us
\sleep 0 s
\sleep :zero
-- setshell and continuation
\setshell another_one\
  echo \
    :one
\set n debug(:another_one)
-- shell
\shell echo shell-echo-output
$s$);
-- the scripts above run (debug() writes pgbench's command numbers to the
-- server log); the expressions with pgbench's -D variables of that test
SELECT status, transactions FROM bench.run('pgbench_expressions', transactions => 1, random_seed => 5432,
       variables => '{"foo": "-10.1", "bla": "false", "i": "+3", "n": "null", "t": "t", "f": "of", "d": "1.0"}',
       prewarm => false, progress => '0');
SELECT status, transactions FROM bench.run('pgbench_gset', protocol => 'simple', transactions => 1, prewarm => false, progress => '0');
SELECT status, transactions FROM bench.run('pgbench_aset', protocol => 'simple', transactions => 1, prewarm => false, progress => '0');
SELECT status, transactions FROM bench.run('pgbench_pipeline_serializable', transactions => 2, prewarm => false, progress => '0');
SELECT status, transactions FROM bench.run('pgbench_sleep', transactions => 2, prewarm => false, progress => '0');
SELECT command_no, command FROM bench.command_latencies
 WHERE run_id = (SELECT max(id) FROM bench.runs) ORDER BY command_no;

-- nothing was defined by a refused script
SELECT count(*) AS refused_defined FROM bench.workloads WHERE name = 'bad';
SELECT count(*) AS dropped FROM bench.workloads, LATERAL bench.drop_workload(name)
 WHERE name = ANY ('{sql_split,set,sleep,if,gset,pipeline,xact,backslash,pgbench_custom,pgbench_gset,pgbench_aset,pgbench_pipeline,pgbench_pipeline_serializable,pgbench_sleep,pgbench_expressions,pgbench_docs_gset}');
DELETE FROM bench.runs WHERE id > :runs_before;
DROP FUNCTION script_fn();
DROP TABLE script_log;
