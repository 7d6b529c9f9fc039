--
-- Identifier variables, :{name}, in SQL commands (an extension of pgbench's
-- script language): the value put into the text before it is parsed, in
-- the three protocols; a string of \gset or of the run's variables; :names
-- in the same statement still parameters; what is not an identifier
-- variable left as written; every value that is not an identifier, and a
-- variable not set, failing the run.  t/023 runs them against a target.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbenchkit CASCADE;
\set VERBOSITY default
\set SHOW_CONTEXT never
SELECT coalesce(max(id), 0) AS runs_before FROM bench.runs \gset
CREATE TABLE t1 (proto text, n int, k int);
CREATE TABLE t2 (LIKE t1);
CREATE TABLE t3 (LIKE t1);
CREATE TABLE t4 (LIKE t1);
CREATE VIEW t_all AS
  SELECT 1 AS tab, * FROM t1 UNION ALL SELECT 2, * FROM t2
  UNION ALL SELECT 3, * FROM t3 UNION ALL SELECT 4, * FROM t4;

-- ------------------------------------------------------------ one table per query
-- a table drawn for each transaction, in each protocol: :t as a parameter
-- and as part of the table's name; :k after the identifier is $2
SELECT proto, status, transactions FROM (VALUES ('simple'), ('extended'), ('prepared')) p(proto),
       LATERAL bench.run(script => format($s$
\set t random(1, 4)
\set k :t * 10
INSERT INTO t:{t} (proto, n, k) VALUES (%L, :t, :k);
$s$, proto), protocol => proto, transactions => 400, random_seed => 5,
       prewarm => false, progress => '0');
-- every table got rows, 400 in all per protocol, each row in the table it names
SELECT proto, sum(count) AS total, count(DISTINCT tab) AS tables, min(count) AS fewest,
       bool_and(right_table) AS right_tables
  FROM (SELECT proto, tab, count(*) AS count, bool_and(n = tab AND k = 10 * tab) AS right_table
          FROM t_all GROUP BY proto, tab) per_table
 GROUP BY proto ORDER BY proto;
-- the same seed draws the same tables in every protocol
SELECT count(DISTINCT (tabs)) AS same_draws
  FROM (SELECT proto, array_agg(count ORDER BY tab) AS tabs
          FROM (SELECT proto, tab, count(*) FROM t_all GROUP BY proto, tab) c GROUP BY proto) a;
TRUNCATE t1, t2, t3, t4;

-- a string of \gset, of the run's variables, and of random_string(); an
-- identifier twice in a statement and two in one; 63 bytes are allowed
SELECT proto, status FROM (VALUES ('simple'), ('extended'), ('prepared')) p(proto),
       LATERAL bench.run(script => format($s$
SELECT 't' || (2 + :client_id) AS tab \gset
INSERT INTO :{tab} (proto, n) VALUES (%L, 1);
\set one random_string('1')
INSERT INTO t:{one} (proto, n) SELECT %L, count(*) FROM :{tab} WHERE proto = %L AND :{tab}.n = 1;
INSERT INTO :{other} (proto, n) VALUES (%L, 1);
SELECT 1 AS :{long};
$s$, proto, proto, proto, proto), protocol => proto, clients => 2, transactions => 3,
       random_seed => 1, prewarm => false, progress => '0',
       variables => jsonb_build_object('other', 't4', 'long', repeat('x', 63)));
SELECT proto, tab, count(*), min(n), max(n) FROM t_all GROUP BY proto, tab ORDER BY proto, tab;
TRUNCATE t1, t2, t3, t4;

-- ------------------------------------------------------------ not identifier variables
-- :{ without a name and a brace is text, as pgbench leaves it: JSON, psql's
-- :{?name}, a cast before a brace
CREATE TABLE t_text (proto text, j jsonb, s text);
SELECT proto, status FROM (VALUES ('simple'), ('extended'), ('prepared')) p(proto),
       LATERAL bench.run(script => format($s$
INSERT INTO t_text VALUES (%L, '{"a":{"b":1}}', ':{?x}:{1x}:{x-y}:{ x}:{x a::{x}');
$s$, proto), protocol => proto, transactions => 2, prewarm => false, progress => '0');
SELECT proto, j, s, count(*) FROM t_text GROUP BY proto, j, s ORDER BY proto;

-- ------------------------------------------------------------ refused by the run
-- a value with a space, a quote, longer than 63 bytes, empty, a negative
-- number, a double, a boolean, NULL: 22023, with the variable, the value
-- (its first 64 characters) and the script's line; a variable never set
-- is undefined, as in an expression (42704).  Nothing ran.
CREATE TABLE bad_values (n int, source text);
INSERT INTO bad_values VALUES
  (1, $$SELECT 't 1' AS v \gset$$),
  (2, $$SELECT 't1; DROP TABLE t2; --' AS v \gset$$),
  (3, $$SELECT 't1''' AS v \gset$$),
  (4, $$SELECT repeat('y', 64) AS v \gset$$),
  (5, $$SELECT repeat('z', 100) AS v \gset$$),
  (6, $$SELECT '' AS v \gset$$),
  (7, $$SELECT 'tablé' AS v \gset$$),
  (8, $$\set v -1$$),
  (9, $$\set v 2.5$$),
  (10, $$\set v 3.0$$),
  (11, $$\set v true$$),
  (12, $$\set v NULL$$),
  (13, $$\set w 1$$);
\set VERBOSITY sqlstate
\set ECHO none
SELECT format($r$SELECT bench.run(script => %L, protocol => %L, transactions => 1, prewarm => false, progress => '0')$r$,
              b.source || E'\nINSERT INTO t:{v} (proto) VALUES (''bad'');', p.proto)
  FROM bad_values b, (VALUES ('simple'), ('extended'), ('prepared')) p(proto)
 ORDER BY b.n, p.proto \gexec
\set ECHO all
\set VERBOSITY default
-- each failed with its error, the same in every protocol
SELECT status, sqlstate, error, string_agg(protocol, ', ' ORDER BY protocol) AS protocols
  FROM bench.runs WHERE id > :runs_before AND status <> 'done'
 GROUP BY status, sqlstate, error ORDER BY min(id);
SELECT count(*) AS bad_rows FROM t_all;
SELECT to_regclass('t2') IS NOT NULL AS t2_still_there;


-- ------------------------------------------------------------ variants
-- 'prepared' keeps a plan of each text a statement takes in a session, and
-- uses it again: 20,000 transactions over 10,000 texts run; the
-- 10,001st text of a session fails the run (54000), 'extended' and
-- 'simple' keep no plans and run it
SELECT status, transactions FROM bench.run(script => $s$
\set i :i % 10000 + 1
SELECT 1 AS c:{i};
$s$, protocol => 'prepared', transactions => 20000, prewarm => false, progress => '0',
       variables => '{"i": 0}');
SELECT proto, status, transactions FROM (VALUES ('extended'), ('simple')) p(proto),
       LATERAL bench.run(script => $s$
\set i :i + 1
SELECT 1 AS c:{i};
$s$, protocol => proto, transactions => 10001, prewarm => false, progress => '0',
       variables => '{"i": 0}');
\set VERBOSITY sqlstate
SELECT bench.run(script => $s$
\set i :i + 1
SELECT 1 AS c:{i};
$s$, protocol => 'prepared', transactions => 10001, prewarm => false, progress => '0',
       variables => '{"i": 0}');
\set VERBOSITY default
SELECT status, sqlstate, error, transactions FROM bench.runs
 WHERE id > :runs_before AND sqlstate = '54000';

DELETE FROM bench.runs WHERE id > :runs_before;
DROP TABLE bad_values, t_text;
DROP VIEW t_all;
DROP TABLE t1, t2, t3, t4;
