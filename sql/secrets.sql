--
-- Secrets are not kept: the statement texts samples copy from
-- pg_stat_statements are redacted of what could be a password
-- (bench._redact_statement), so that no sample, view, report or export
-- shows one.  Every password of this test holds "hunter2".
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbenchkit CASCADE;
CREATE EXTENSION IF NOT EXISTS pg_stat_statements;
RESET client_min_messages;
-- pg_stat_statements may be in another schema (observe's)
SELECT set_config('search_path', 'public, ' || quote_ident(n.nspname), false) AS search_path
  FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
 WHERE e.extname = 'pg_stat_statements' \gset

-- ------------------------------------------------------------ the redaction alone
-- texts that may hold a secret: every string constant and comment redacted
CREATE TEMP TABLE texts (n integer PRIMARY KEY, query text);
INSERT INTO texts VALUES
 (1, $q$CREATE USER MAPPING FOR CURRENT_USER SERVER s OPTIONS (user 'bench', password 'hunter2')$q$),
 (2, $q$ALTER USER MAPPING FOR bob SERVER s OPTIONS (SET password 'hunter2''s')$q$),
 (3, $q$alter /* a comment */ user
   mapping for bob server s options (add pwd 'hunter2')$q$),
 (4, $q$CREATE ROLE r LOGIN PASSWORD 'hunter2'$q$),
 (5, $q$ALTER ROLE r ENCRYPTED PASSWORD $x$hunter2$x$$q$),
 (6, $q$CREATE USER u PASSWORD E'hunter2\' '$q$),
 (7, $q$CREATE SERVER s FOREIGN DATA WRAPPER w OPTIONS (token 'hunter2')$q$),
 (8, $q$CREATE SUBSCRIPTION sub CONNECTION 'host=h user=u hunter2' PUBLICATION p$q$),
 (9, $q$ALTER SYSTEM SET primary_conninfo = 'host=h hunter2'$q$),
 (10, $q$IMPORT FOREIGN SCHEMA x FROM SERVER s INTO y OPTIONS (key 'hunter2')$q$),
 (11, $q$SELECT 1; CREATE FOREIGN DATA WRAPPER w OPTIONS (key 'hunter2')$q$),
 (12, $q$SELECT dblink_connect('host=h dbname=d password=hunter2')$q$),
 (13, $q$SELECT dblink_connect('host=h PassWord = ''hunter2''')$q$),
 (14, $q$SELECT dblink_connect(E'host=h \x70assword=hunter2')$q$),
 (15, $q$SELECT dblink_connect(U&'host=h \0070assword=hunter2')$q$),
 (16, $q$SELECT dblink_connect('postgresql://bob:hunter2@h/d')$q$),
 (17, $q$SELECT * FROM bench.add_target('t', 'host=h', 'hunter2')$q$),
 (18, $q$SELECT * FROM bench.add_target('t', 'host=h', password => 'hunter2')$q$),
 (19, $q$SELECT f("Password" := 'hunter2', sslpassword => 'hunter2')$q$),
 (20, $q$SET my.password = hunter2$q$),
 (21, $q$ALTER ROLE r SET my.secret TO "hunter2"$q$),
 (22, $q$DO $$BEGIN EXECUTE 'CREATE ROLE r2 PASSWORD ''hunter2'''; END$$$q$),
 (23, $q$-- the password: hunter2
SELECT 1$q$),
 (24, $q$/* a /* nested */ comment */ SELECT 'password=hunter2'$q$),
 (25, $q$CREATE ROLE r PASSWORD 'hunter2 unterminated$q$),
 -- a backslash before a quote: plain '...' reads otherwise with
 -- standard_conforming_strings off, and only the first word is certain
 (26, $q$CREATE ROLE r PASSWORD 'hunter2\' -- 'x$q$),
 (27, $q$SELECT 'a\', password => 'hunter2'$q$),
 -- a backslash elsewhere reads the same both ways
 (28, $q$SELECT 'C:\dir', 1 WHERE password = 'hunter2'$q$);
SELECT n, bench._redact_statement(query) AS redacted FROM texts ORDER BY n;
SELECT count(*) AS leaks FROM texts WHERE bench._redact_statement(query) ~* 'hunter';

-- ordinary texts are kept as they are
SELECT q, bench._redact_statement(q) = q AS kept FROM (VALUES
 ('UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2'),
 ('SELECT abalance FROM pgbench_accounts WHERE aid = $1'),
 ('BEGIN'),
 ($q$SELECT a$b, $1, $$x$$, 'it''s', E'\n' FROM t -- a comment$q$),
 ('CREATE INDEX ON t (passed)'),
 ('VACUUM ANALYZE pgbench_accounts')) v (q);
SELECT bench._redact_statement(NULL) IS NULL AS strict;

-- ------------------------------------------------------------ samples of a run
-- Statements that hold passwords, in pg_stat_statements as written: utility
-- statements (the CREATE USER MAPPING of bench.add_target too, nested), and
-- a statement prepared before a reset, whose entry keeps the text it was
-- prepared with.
SET pg_stat_statements.track = 'all';
PREPARE leak AS SELECT 'host=h password=hunter2-prepared' AS conninfo;
SELECT pg_stat_statements_reset() IS NOT NULL AS reset;
EXECUTE leak;
CREATE ROLE bench_secret_role PASSWORD 'hunter2-role';
ALTER ROLE bench_secret_role PASSWORD 'hunter2-role-again';
SELECT name, has_user_mapping
  FROM bench.add_target('vault', 'host=127.0.0.1 port=1 dbname=postgres', password => 'hunter2-add');
ALTER USER MAPPING FOR CURRENT_USER SERVER vault OPTIONS (SET password 'hunter2-alter');
SELECT count(*) AS texts_with_password FROM pg_stat_statements WHERE query ~ 'hunter2';

-- a run whose script sets a password too, every transaction, through a
-- function (the script itself holds none): the statement is counted in the
-- run, nested
CREATE FUNCTION public.bench_secret_rotate() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    ALTER USER MAPPING FOR CURRENT_USER SERVER vault OPTIONS (SET password 'hunter2-rotated');
END
$$;
ALTER FUNCTION public.bench_secret_rotate() SET pg_stat_statements.track = 'all';
SELECT id AS run_id, status, transactions FROM bench.run(script => $s$
SELECT bench_secret_rotate();
SELECT count(*) FROM pg_catalog.pg_class WHERE relname = 'pg_class';
$s$, transactions => 10, prewarm => false, progress => '0') \gset
SELECT :'status' AS status, :transactions AS transactions;

-- the samples hold no password: the texts that had one are redacted, the
-- others are pg_stat_statements' own
SELECT count(*) AS samples, bool_and(data::text !~ 'hunter2') AS no_password
  FROM bench.samples WHERE run_id = :run_id;
-- (the ALTER FUNCTION that sets up the nested one is left out: PostgreSQL
-- 15 keeps it, later versions do not)
SELECT DISTINCT regexp_replace(st->>'query', '\s+', ' ', 'g') AS redacted
  FROM bench.samples s, jsonb_array_elements(s.data->'statements') st
 WHERE s.run_id = :run_id AND st->>'query' ~ '<redacted>'
   AND st->>'query' !~ '^ALTER FUNCTION'
 ORDER BY 1;
SELECT p.query ~ 'hunter2' AS had_password, st->>'query' = p.query AS kept, count(*) > 0 AS some
  FROM bench.samples s, jsonb_array_elements(s.data->'statements') st
  JOIN pg_stat_statements p ON p.queryid = (st->>'queryid')::bigint AND p.userid = (st->>'userid')::oid
   AND p.toplevel = (st->>'toplevel')::boolean
 WHERE s.run_id = :run_id AND s.phase = 'after' AND st ? 'query'
 GROUP BY 1, 2 ORDER BY 1, 2;

-- nor do the views, the report, its json and the export
SELECT regexp_replace(query, '\s+', ' ', 'g') AS query, calls > 0 AS called
  FROM bench.run_statements WHERE run_id = :run_id AND run_role ORDER BY query;
SELECT bench.report(:run_id) !~ 'hunter2' AS report,
       bench.report(:run_id) ~ 'ms mean: ALTER USER MAPPING FOR CURRENT_USER SERVER vault OPTIONS \(SET password ''<redacted>''\)' AS report_names_it,
       bench.report_json(:run_id)::text !~ 'hunter2' AS report_json,
       bench.export(:run_id)::text !~ 'hunter2' AS export,
       (SELECT count(*) FROM bench.run_statements r WHERE r.query ~ 'hunter2') AS run_statements;

-- ------------------------------------------------------------ clean up
RESET pg_stat_statements.track;
DEALLOCATE leak;
SELECT bench.drop_target('vault');
DROP ROLE bench_secret_role;
DROP FUNCTION public.bench_secret_rotate();
