--
-- Arrays and loops in the script language (an extension of pgbench's):
-- \set name[i], :name[i], array_length(), array_position(), \unset,
-- \while ... \endwhile, \garray, and the lists :name[*] and
-- :(a, b, ...)[*] in SQL.  Mistakes refused when the script is defined,
-- with their line and column; scripts run in the three protocols writing
-- what they computed into tables, checked here against the rows; the
-- errors only a run finds.  t/032 runs the same against a target.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbenchkit CASCADE;
\set VERBOSITY default
\set SHOW_CONTEXT never
SELECT coalesce(max(id), 0) AS runs_before FROM bench.runs \gset

-- ------------------------------------------------------------ refused when defined
-- loops nest with \if blocks, each ended by its own word
SELECT bench.define_workload('bad', E'\\while 1\nSELECT 1;\n');
SELECT bench.define_workload('bad', E'SELECT 1;\n\\endwhile\n');
SELECT bench.define_workload('bad', E'\\if true\n\\while 1\n\\endif\n\\endwhile\n');
SELECT bench.define_workload('bad', E'\\while true\n\\if 1\n\\endwhile\n\\endif\n');
SELECT bench.define_workload('bad', E'\\while true\n\\else\n\\endwhile\n');
SELECT bench.define_workload('bad', E'\\while 1 +\n\\endwhile\n');
SELECT bench.define_workload('bad', E'\\while\n\\endwhile\n');
SELECT bench.define_workload('bad', E'\\while true\n\\endwhile 1\n');
-- a pipeline ends in the loop it starts in
SELECT bench.define_workload('bad', E'\\startpipeline\n\\while true\n\\endpipeline\n\\endwhile\n');
SELECT bench.define_workload('bad', E'\\while true\n\\startpipeline\n\\endwhile\n\\endpipeline\n');
-- \set name[index]: a name, an index in brackets, an expression
SELECT bench.define_workload('bad', E'\\set a[1 2\n');
SELECT bench.define_workload('bad', E'\\set a[] 2\n');
SELECT bench.define_workload('bad', E'\\set a[1 +] 2\n');
SELECT bench.define_workload('bad', E'\\set 1a[1] 2\n');
SELECT bench.define_workload('bad', E'\\set a[1]\n');
-- :name[index] in expressions, array_length() and array_position()
SELECT bench.define_workload('bad', E'\\set x :a[1\n');
SELECT bench.define_workload('bad', E'\\set x :a[]\n');
SELECT bench.define_workload('bad', E'\\set x 1 + array_length(2)\n');
SELECT bench.define_workload('bad', E'\\set x array_length(:a, 1)\n');
SELECT bench.define_workload('bad', E'\\set x array_position(:a)\n');
SELECT bench.define_workload('bad', E'\\set x array_position(1, :a)\n');
SELECT bench.define_workload('bad', E'\\set x [1]\n');
-- \unset takes one variable name
SELECT bench.define_workload('bad', E'\\unset\n');
SELECT bench.define_workload('bad', E'\\unset a b\n');
SELECT bench.define_workload('bad', E'\\unset 1a\n');
-- \garray ends a query, once, outside pipelines, with a valid prefix
SELECT bench.define_workload('bad', E'\\garray\n');
SELECT bench.define_workload('bad', E'\\set x 1\n\\garray\n');
SELECT bench.define_workload('bad', E'SELECT 1 AS a \\gset\n\\garray\n');
SELECT bench.define_workload('bad', E'SELECT 1 AS a \\garray 1x\n');
SELECT bench.define_workload('bad', E'BEGIN \\garray\n');
SELECT bench.define_workload('bad', E'\\startpipeline\nSELECT 1 AS a \\garray\n\\endpipeline\n');
SELECT count(*) AS workloads_named_bad FROM bench.workloads WHERE name = 'bad';

-- a script pgbench runs keeps its meaning: ":a[1]" in SQL is :a and "[1]"
-- (an element of a SQL array), ":(" and "[*]" in other forms are text
CREATE TABLE arr_text (proto text, v int, s text);
SELECT proto, status FROM (VALUES ('simple'), ('extended'), ('prepared')) p(proto),
       LATERAL bench.run(script => format($s$
\set a 1
INSERT INTO arr_text SELECT %L, (ARRAY[7, 8])[:a], 'x:(1)[*] :a[* :(a]';
INSERT INTO arr_text SELECT %L, ((ARRAY[7, 8, 9])[2:(3)])[1], 'x';
$s$, proto, proto), protocol => proto, transactions => 1, prewarm => false, progress => '0');
SELECT proto, v, s FROM arr_text ORDER BY proto, v;

-- ------------------------------------------------------------ loops
-- \while sums 1 .. n, a nested loop counts the pairs i < j of 1 .. n, an
-- \if inside a loop counts the even numbers, a loop that never runs
CREATE TABLE arr_sums (proto text, n int, total int, pairs int, evens int, never int);
SELECT proto, status, transactions FROM (VALUES ('simple'), ('extended'), ('prepared')) p(proto),
       LATERAL bench.run(script => format($s$
\set n random(0, 40)
\set i 1
\set total 0
\set pairs 0
\set evens 0
\while :i <= :n
\set total :total + :i
\if :i %% 2 = 0
\set evens :evens + 1
\endif
\set j :i + 1
\while :j <= :n
\set pairs :pairs + 1
\set j :j + 1
\endwhile
\set i :i + 1
\endwhile
\set never 0
\while false
\set never 1
\endwhile
INSERT INTO arr_sums VALUES (%L, :n, :total, :pairs, :evens, :never);
$s$, proto), protocol => proto, transactions => 50, random_seed => 7,
       prewarm => false, progress => '0');
SELECT proto, count(*) AS rows, count(DISTINCT n) > 10 AS many_n,
       bool_and(total = n * (n + 1) / 2) AS sums_right,
       bool_and(pairs = n * (n - 1) / 2) AS pairs_right,
       bool_and(evens = n / 2) AS evens_right, max(never) AS never
  FROM arr_sums GROUP BY proto ORDER BY proto;
-- each command counted as often as it ran: the loop's body n times
SELECT c.command_no, c.command, c.executions = (SELECT sum(n) FROM arr_sums WHERE proto = 'prepared') AS n_times
  FROM bench.command_latencies c
 WHERE c.run_id = (SELECT max(id) FROM bench.runs) AND c.command LIKE '\\set total :%';

-- a loop of meta-commands alone ends with the run (its duration): the
-- transaction it was in is not counted
SELECT status, transactions, failures FROM bench.run(script => $s$
\set i 0
\while true
\set i :i + 1
\endwhile
$s$, duration => '1 s', prewarm => false, progress => '0');

-- ------------------------------------------------------------ TPC-C's new order
-- Each transaction draws 5 to 15 distinct items with a quantity each,
-- inserts them with one multi-row INSERT (a row list zipping arrays and
-- repeating scalars), reads them back with a row-wise IN-list into arrays
-- (\garray, in another order), finds each drawn item among the rows with
-- array_position(), and checks quantities and names; a line's name is
-- text copied from one array to another.  Its last row says what it found.
CREATE TABLE arr_item (i_id int PRIMARY KEY, i_name text);
INSERT INTO arr_item SELECT i, 'item-' || i FROM generate_series(1, 1000) i;
CREATE TABLE arr_lines (proto text, client int, tx int, line int, item int, qty int, name text);
CREATE TABLE arr_checks (proto text, client int, tx int, n int, found int, names_ok int, n_rows int, list_len int);
SELECT proto, status, transactions FROM (VALUES ('simple'), ('extended'), ('prepared')) p(proto),
       LATERAL bench.run(script => format($s$
SELECT %L AS proto \gset
\set tx :tx + 1
\unset item
\unset qty
\unset line
\set n random(5, 15)
\set k 1
\while :k <= :n
\set item[:k] (:k - 1) * 60 + random(1, 60)
\set qty[:k] random(1, 10)
\set line[:k] :k
\set k :k + 1
\endwhile
SELECT i_id, i_name FROM arr_item WHERE i_id IN (:item[*]) ORDER BY i_name DESC \garray
\unset name
\set k 1
\while :k <= :n
\set pos array_position(:i_id, :item[:k])
\set name[:k] :i_name[:pos]
\set k :k + 1
\endwhile
INSERT INTO arr_lines (proto, client, tx, line, item, qty, name)
  VALUES :(proto, client_id, tx, line, item, qty, name)[*];
SELECT item AS l_item, qty AS l_qty, name AS l_name FROM arr_lines
 WHERE (proto, client, tx, item) IN (:(proto, client_id, tx, item)[*])
 ORDER BY qty, item \garray
\set found 0
\set names_ok 0
\set k 1
\while :k <= array_length(:l_item)
\set pos array_position(:item, :l_item[:k])
\if :pos IS NOT NULL
\if :qty[:pos] = :l_qty[:k]
\set found :found + 1
\endif
\endif
\set k :k + 1
\endwhile
SELECT count(*) AS names_ok FROM arr_lines l JOIN arr_item i ON i.i_id = l.item AND i.i_name = l.name
 WHERE proto = :'proto' AND client = :client_id AND tx = :tx \gset
\set rows array_length(:l_item)
\set len array_length(:item)
INSERT INTO arr_checks VALUES (:'proto', :client_id, :tx, :n, :found, :names_ok, :rows, :len);
$s$, proto), protocol => proto, clients => 2, transactions => 40, random_seed => 11,
       prewarm => false, progress => '0', variables => '{"tx": 0}');
-- every transaction found each of its lines, once, with its quantity and name
SELECT proto, count(*) AS transactions, bool_and(found = n AND n_rows = n AND list_len = n) AS all_found,
       bool_and(names_ok = n) AS names_right, min(n) >= 5 AND max(n) <= 15 AS lengths,
       count(DISTINCT n) > 5 AS many_lengths
  FROM arr_checks GROUP BY proto ORDER BY proto;
-- the lines are the rows: as many as the checks say, lines 1 .. n
SELECT c.proto, sum(c.n) = (SELECT count(*) FROM arr_lines l WHERE l.proto = c.proto) AS lines_counted,
       bool_and((SELECT array_agg(line ORDER BY line) FROM arr_lines l
                  WHERE (l.proto, l.client, l.tx) = (c.proto, c.client, c.tx))
                = (SELECT array_agg(g) FROM generate_series(1, c.n) g)) AS lines_numbered
  FROM arr_checks c GROUP BY c.proto ORDER BY c.proto;
-- the same seed drew the same items in every protocol
SELECT count(DISTINCT items) AS same_draws
  FROM (SELECT proto, array_agg(item ORDER BY client, tx, line) AS items FROM arr_lines GROUP BY proto) a;

-- ------------------------------------------------------------ values in arrays
-- elements of every kind: integers, doubles, booleans, NULL, text of a
-- query with its quotes; a NULL element is SQL's null in a list; \garray
-- of no row makes empty arrays; \unset; a scalar in a list repeats
CREATE TABLE arr_vals (proto text, n int, v text);
SELECT proto, status FROM (VALUES ('simple'), ('extended'), ('prepared')) p(proto),
       LATERAL bench.run(script => format($s$
SELECT %L AS proto \gset
\set v[1] 42
\set v[2] 2.5
\set v[3] true
\set v[4] NULL
SELECT s FROM (VALUES ('it''s'), ('a\b'), (NULL)) x(s) \garray
\set v[5] :s[1]
\set v[6] :s[2]
\set v[7] :s[3]
\set v[2] 1.5
\set i 1
\while :i <= array_length(:v)
\set n[:i] :i
\set i :i + 1
\endwhile
INSERT INTO arr_vals VALUES :(proto, n, v)[*];
SELECT 1 AS e WHERE false \garray
\set len array_length(:e)
INSERT INTO arr_vals VALUES (:'proto', 0, :len);
\unset v
\set len array_length(:v)
INSERT INTO arr_vals VALUES (:'proto', -1, :len);
INSERT INTO arr_vals SELECT :'proto', 100 + count(*), string_agg(x, ',' ORDER BY x) FROM unnest(ARRAY[:s[*]]) x;
$s$, proto), protocol => proto, transactions => 1, prewarm => false, progress => '0');
SELECT proto, n, v, v IS NULL AS is_null FROM arr_vals ORDER BY proto, n;

-- ------------------------------------------------------------ refused by the run
-- an index out of range, or null; an element set past the end; a scalar
-- read as an array and an array as a scalar (in an expression and in SQL);
-- lists of different lengths, of an empty array, of a variable not set
CREATE TABLE bad_scripts (n int, source text);
INSERT INTO bad_scripts VALUES
  (1, E'\\set a[1] 1\n\\set x :a[2]'),
  (2, E'\\set a[1] 1\n\\set x :a[0]'),
  (3, E'\\set a[1] 1\n\\set x :a[NULL]'),
  (4, E'\\set a[2] 1'),
  (5, E'\\set a 1\n\\set a[1] 1'),
  (6, E'\\set a 1\n\\set x array_length(:a)'),
  (7, E'\\set a[1] 1\n\\set x :a + 1'),
  (8, E'\\set a[1] 1\nSELECT :a;'),
  (9, E'\\set a[1] 1\n\\set b[1] 1\n\\set b[2] 2\nSELECT :(a, b)[*];'),
  (10, E'SELECT 1 AS a WHERE false \\garray\nSELECT :a[*];'),
  (11, E'SELECT :nothing[*];'),
  (12, E'\\set x :nothing[1]');
\set VERBOSITY sqlstate
\set ECHO none
SELECT format($r$SELECT bench.run(script => %L, protocol => %L, transactions => 1, prewarm => false, progress => '0')$r$,
              b.source, p.proto)
  FROM bad_scripts b, (VALUES ('simple'), ('extended'), ('prepared')) p(proto)
 ORDER BY b.n, p.proto \gexec
\set ECHO all
\set VERBOSITY default
-- each failed with its error, the same in every protocol
SELECT status, sqlstate, error, string_agg(protocol, ', ' ORDER BY protocol) AS protocols
  FROM bench.runs WHERE id > :runs_before AND status <> 'done'
 GROUP BY status, sqlstate, error ORDER BY min(id);

DELETE FROM bench.runs WHERE id > :runs_before;
DROP TABLE bad_scripts, arr_vals, arr_checks, arr_lines, arr_item, arr_sums, arr_text;
