--
-- Bad input to the observability arguments and functions: refused with
-- an SQLSTATE, a message and a hint, before anything starts
--
SET search_path = runs, public;
\set SHOW_CONTEXT never
SELECT count(*) AS runs_before FROM bench.runs \gset
SELECT * FROM bench.run('select-only', transactions => 1, prewarm => NULL);
SELECT * FROM bench.run('select-only', transactions => 1, sample_interval => NULL);
SELECT * FROM bench.run('select-only', transactions => 1, sample_interval => '-1 s');
SELECT * FROM bench.run('select-only', transactions => 1, sample_interval => '50 ms');
SELECT * FROM bench.run('select-only', transactions => 1, sample_interval => '2 years');
SELECT bench.start('select-only', transactions => 1, sample_interval => '10 ms');
SELECT count(*) = :runs_before AS nothing_started FROM bench.runs;

SELECT * FROM bench.prewarm(NULL);
SELECT * FROM bench.prewarm('no-such-workload');
SET search_path = public;
SELECT * FROM bench.prewarm('tpcb');
SET search_path = runs, public;

SELECT bench.report(NULL);
SELECT bench.report(-1);
SELECT bench.report_json(NULL);
SELECT bench.report_json(123456789);
