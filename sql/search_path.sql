--
-- pgbenchkit's own queries are immune to the caller's search_path: a schema
-- put before pg_catalog, whose operators, functions and aggregates shadow
-- pg_catalog's, is never used by them (each shadow raises an error), in the
-- calling session nor in the workers (the role's default search_path).
-- The scripts of a run use the caller's search_path, as pgbench's would:
-- the ones here use no operator.
--
SET client_min_messages = warning;
CREATE SCHEMA shadow;
CREATE FUNCTION shadow.hijack(name text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'shadowing % of schema shadow was called', name;
END $$;
DO $do$
DECLARE
    t text[];
    op text;
BEGIN
    -- comparison and arithmetic operators of the types internal queries use
    FOREACH t SLICE 1 IN ARRAY ARRAY[['bigint', 'bigint'], ['integer', 'integer'], ['text', 'text'],
                                     ['bigint', 'integer'], ['integer', 'bigint'],
                                     ['double precision', 'double precision'], ['numeric', 'numeric'],
                                     ['timestamp with time zone', 'timestamp with time zone'],
                                     ['name', 'name'], ['oid', 'oid'], ['boolean', 'boolean'], ['jsonb', 'text']] LOOP
        FOREACH op IN ARRAY ARRAY['=', '<>', '<', '>', '<=', '>=', '+', '-', '*', '/', '->>', '||', '~'] LOOP
            CONTINUE WHEN op = '->>' AND t[1] <> 'jsonb';
            CONTINUE WHEN t[1] = 'jsonb' AND op <> '->>';
            EXECUTE format('CREATE FUNCTION shadow.%I(%s, %s) RETURNS %s LANGUAGE plpgsql AS $f$BEGIN PERFORM shadow.hijack(%L); RETURN NULL; END$f$',
                           'op_' || md5(op || t[1] || t[2]), t[1], t[2],
                           CASE WHEN op IN ('=', '<>', '<', '>', '<=', '>=', '~') THEN 'boolean'
                                WHEN op = '->>' THEN 'text' ELSE t[1] END,
                           format('operator %s(%s, %s)', op, t[1], t[2]));
            EXECUTE format('CREATE OPERATOR shadow.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = shadow.%I)',
                           op, t[1], t[2], 'op_' || md5(op || t[1] || t[2]));
        END LOOP;
    END LOOP;
END $do$;
-- functions and aggregates internal queries call
CREATE FUNCTION shadow.round(numeric, integer) RETURNS numeric LANGUAGE plpgsql AS $$BEGIN PERFORM shadow.hijack('round(numeric, integer)'); RETURN NULL; END$$;
CREATE FUNCTION shadow.round(double precision) RETURNS double precision LANGUAGE plpgsql AS $$BEGIN PERFORM shadow.hijack('round(double precision)'); RETURN NULL; END$$;
CREATE FUNCTION shadow.now() RETURNS timestamptz LANGUAGE plpgsql AS $$BEGIN PERFORM shadow.hijack('now()'); RETURN NULL; END$$;
CREATE FUNCTION shadow.clock_timestamp() RETURNS timestamptz LANGUAGE plpgsql AS $$BEGIN PERFORM shadow.hijack('clock_timestamp()'); RETURN NULL; END$$;
CREATE FUNCTION shadow.length(text) RETURNS integer LANGUAGE plpgsql AS $$BEGIN PERFORM shadow.hijack('length(text)'); RETURN NULL; END$$;
CREATE FUNCTION shadow.lower(text) RETURNS text LANGUAGE plpgsql AS $$BEGIN PERFORM shadow.hijack('lower(text)'); RETURN NULL; END$$;
CREATE FUNCTION shadow.to_jsonb(anyelement) RETURNS jsonb LANGUAGE plpgsql AS $$BEGIN PERFORM shadow.hijack('to_jsonb'); RETURN NULL; END$$;
CREATE FUNCTION shadow.jsonb_typeof(jsonb) RETURNS text LANGUAGE plpgsql AS $$BEGIN PERFORM shadow.hijack('jsonb_typeof'); RETURN NULL; END$$;
CREATE FUNCTION shadow.count_step(bigint) RETURNS bigint LANGUAGE plpgsql AS $$BEGIN PERFORM shadow.hijack('count(*)'); RETURN NULL; END$$;
CREATE AGGREGATE shadow.count(*) (SFUNC = shadow.count_step, STYPE = bigint, INITCOND = '0');
CREATE FUNCTION shadow.sum_step(numeric, anyelement) RETURNS numeric LANGUAGE plpgsql AS $$BEGIN PERFORM shadow.hijack('sum'); RETURN NULL; END$$;
CREATE AGGREGATE shadow.sum(bigint) (SFUNC = shadow.sum_step, STYPE = numeric);
CREATE AGGREGATE shadow.sum(double precision) (SFUNC = shadow.sum_step, STYPE = numeric);
GRANT USAGE ON SCHEMA shadow TO PUBLIC;

-- the shadows work: in the caller's own query they are called
SET search_path = shadow, pg_catalog, public;
SELECT 1::bigint = 1::bigint;
SELECT count(*) FROM pg_catalog.pg_class;

-- in the calling session: every call that reads or writes pgbenchkit's
-- tables (the statements here use no operator or function of their own;
-- what they return is checked below, with search_path reset)
CREATE TEMP TABLE r1 AS
SELECT status, transactions FROM bench.run(script => 'SELECT 1;', clients => 2, transactions => 20,
                                           progress => '1 s', prewarm => false, tag => 'shadowed');
SELECT id AS run_id FROM bench.runs ORDER BY id DESC LIMIT 1 \gset
CREATE TEMP TABLE r2 AS SELECT status FROM bench.wait(:run_id);
CREATE TEMP TABLE r3 AS SELECT bench.report(:run_id) AS report;
CREATE TEMP TABLE r4 AS SELECT bench.report_json(:run_id) AS j;
CREATE TEMP TABLE r6 AS SELECT bench.chart_run(:run_id) AS svg;
CREATE TEMP TABLE r7 AS SELECT bench.export(:run_id) AS doc;
CREATE TEMP TABLE r8 AS SELECT bench.cancel(:run_id) AS canceled;
CREATE TEMP TABLE r9 AS SELECT name FROM bench.define_workload('shadowed', 'SELECT 1;', description => 'shadowed');
CREATE TEMP TABLE r10 AS SELECT status, transactions FROM bench.run('shadowed', transactions => 5, progress => '0', prewarm => false);
SELECT id AS run_id2 FROM bench.runs ORDER BY id DESC LIMIT 1 \gset
CREATE TEMP TABLE r5 AS SELECT * FROM bench.compare(:run_id, :run_id2);
CREATE TEMP TABLE r11 AS SELECT bench.drop_workload('shadowed') AS dropped;
CREATE TEMP TABLE r12 AS SELECT * FROM bench.sweep(script => 'SELECT 2;', clients => '{1,2}', transactions => 5,
                                                   progress => '0', prewarm => false, tag => 'shadowed sweep');
RESET search_path;
SELECT * FROM r1;
SELECT * FROM r2;
SELECT report LIKE '%transactions%' AS report FROM r3;
SELECT j -> 'run' ->> 'status' AS status FROM r4;
SELECT count(*) > 10 AS compare_rows FROM r5;
SELECT svg LIKE '<svg%' AS chart FROM r6;
SELECT doc ->> 'format' AS format FROM r7;
SELECT * FROM r8;
SELECT * FROM r9;
SELECT * FROM r10;
SELECT * FROM r11;
SELECT count(*) AS runs FROM r12;
SELECT count(*) AS runs_done FROM bench.runs WHERE tag = 'shadowed sweep' AND status = 'done';

-- in the workers: the role's default search_path puts the shadows first
SELECT current_user AS me \gset
ALTER ROLE :"me" SET search_path = shadow, pg_catalog, public;
SELECT status, transactions, tps > 0 AS measured FROM bench.run(script => 'SELECT 3;', clients => 2, transactions => 20,
                                                                 progress => '1 s', prewarm => false,
                                                                 tag => 'shadowed workers');
SELECT count(*) AS runs FROM bench.sweep(script => 'SELECT 4;', clients => '{1,2}', transactions => 5,
                                          progress => '0', prewarm => false, tag => 'shadowed sweep workers');
SELECT count(*) AS runs_done FROM bench.runs WHERE tag = 'shadowed sweep workers' AND status = 'done';
ALTER ROLE :"me" RESET search_path;

-- a suite's runs use the caller's search_path, as recorded
SELECT tag, search_path FROM bench.suites WHERE tag IN ('shadowed sweep', 'shadowed sweep workers') ORDER BY 1;

-- every function of the extension not in C pins search_path to
-- pg_catalog, pg_temp (the C functions pin it for each query of their
-- own); the only ones that do not are the small LANGUAGE sql helpers of
-- the charts, inlined into their pinned callers (06-charts.sql)
SELECT p.oid::regprocedure AS unpinned, l.lanname
  FROM pg_proc p
  JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'pgbenchkit'
  JOIN pg_language l ON l.oid = p.prolang
 WHERE l.lanname <> 'c'
   AND NOT (COALESCE(p.proconfig, '{}') @> ARRAY['search_path=pg_catalog, pg_temp'])
 ORDER BY p.oid::regprocedure::text;

DROP SCHEMA shadow CASCADE;
