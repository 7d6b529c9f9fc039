--
-- Between the install of a new library and ALTER EXTENSION pgbenchkit
-- UPDATE, the database's SQL functions call the new library with the old
-- signatures.  Every C entry point refuses a call whose argument count is
-- not its own with 55000 and a hint naming the update, before it reads any
-- argument: here each one is called through a function of fewer arguments
-- (none) and of one more than its own.
--
CREATE FUNCTION pg_temp.call_with(sym text, nargs integer,
    OUT state text, OUT message text, OUT hint text)
LANGUAGE plpgsql AS $$
DECLARE
    args text := (SELECT string_agg('integer', ', ') FROM generate_series(1, nargs));
    vals text := (SELECT string_agg('NULL', ', ') FROM generate_series(1, nargs));
BEGIN
    EXECUTE format('CREATE FUNCTION pg_temp.%I(%s) RETURNS void AS %L, %L LANGUAGE c',
                   'wrong_' || sym || '_' || nargs, coalesce(args, ''), '$libdir/pgbenchkit', sym);
    BEGIN
        EXECUTE format('SELECT pg_temp.%I(%s)', 'wrong_' || sym || '_' || nargs, coalesce(vals, ''));
        state := 'none';
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT,
                                hint = PG_EXCEPTION_HINT;
    END;
END
$$;

-- the library's entry points, as the extension's functions name them
CREATE TEMP TABLE entry_points AS
SELECT p.prosrc AS sym, max(p.pronargs) AS nargs
  FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
       JOIN pg_extension e ON d.refclassid = 'pg_extension'::regclass AND d.refobjid = e.oid
 WHERE e.extname = 'pgbenchkit' AND p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'c')
 GROUP BY p.prosrc;
SELECT count(*) AS entry_points FROM entry_points;

SELECT e.sym, e.nargs, w.n AS called_with, c.state, split_part(c.message, ' ', 1) AS named,
       c.message LIKE '% was called with ' || w.n || ' arguments, but the pgbenchkit library of version % takes ' || e.nargs AS says_counts,
       c.hint = 'Run ALTER EXTENSION pgbenchkit UPDATE to bring them to the library''s version.' AS hint_names_update
  FROM entry_points e
       CROSS JOIN LATERAL (VALUES (0), (e.nargs + 1)) AS w(n)
       CROSS JOIN LATERAL pg_temp.call_with(e.sym, w.n) AS c
 ORDER BY e.sym, w.n;

-- the message names the function as SQL knows it, and the detail the version
-- of the SQL objects in this database
DO $$
BEGIN
    PERFORM pg_temp.wrong_bench_wait_0();
EXCEPTION WHEN OTHERS THEN
    DECLARE m text; d text;
    BEGIN
        GET STACKED DIAGNOSTICS m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL;
        RAISE NOTICE '%', regexp_replace(m, 'version [0-9.]+', 'version N');
        RAISE NOTICE '%', d = format('The SQL objects of pgbenchkit in this database are of version %s.',
                                     (SELECT extversion FROM pg_extension WHERE extname = 'pgbenchkit'));
    END;
END
$$;

-- the functions that start runs read their arguments by name: SQL of an
-- older version, without the newest arguments, still works (t/013 runs
-- 0.1.0's); an argument the library does not know, or of another type, is
-- refused with 55000 before anything starts
CREATE FUNCTION pg_temp.run_with_future(workload text, clients integer, future_option text)
RETURNS bench.runs AS '$libdir/pgbenchkit', 'bench_run' LANGUAGE c;
CREATE FUNCTION pg_temp.run_with_text_clients(workload text, clients text)
RETURNS bench.runs AS '$libdir/pgbenchkit', 'bench_run' LANGUAGE c;
SELECT coalesce(max(id), 0) AS last_run FROM bench.runs \gset
DO $$
DECLARE m text; h text; st text;
BEGIN
    BEGIN
        PERFORM pg_temp.run_with_future('tpcb', 1, 'on');
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, m = MESSAGE_TEXT, h = PG_EXCEPTION_HINT;
        RAISE NOTICE '% %', st, regexp_replace(m, 'version [0-9.]+', 'version N');
        RAISE NOTICE '%', h;
    END;
    BEGIN
        PERFORM pg_temp.run_with_text_clients('tpcb', '1');
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, m = MESSAGE_TEXT;
        RAISE NOTICE '% %', st, regexp_replace(m, 'version [0-9.]+', 'version N');
    END;
END
$$;
SELECT count(*) AS new_runs FROM bench.runs WHERE id > :last_run;
