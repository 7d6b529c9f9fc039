--
-- bench._create_run_function: (re)create one of the functions that take
-- the run arguments, with the signature bench._arguments_of gives it, as
-- a C function of the library (which reads its arguments by name).  The
-- install script and every upgrade script call it.  A function of that
-- name with the same argument types is made again in place (CREATE OR
-- REPLACE: the privileges granted on it stay), unless its result,
-- argument names or defaults changed in a way that cannot be made in
-- place; every other signature (of another version) is dropped first.  A
-- function made anew is not executable by PUBLIC.
--
CREATE OR REPLACE FUNCTION bench._create_run_function(function text, returns text, symbol text,
                                                      comment text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    args       text;
    types      text;
    definition text;
    same       regprocedure;
    old        regprocedure;
BEGIN
    SELECT string_agg(format('%I %s', a.name, a.type)
                      || CASE WHEN a.required THEN ''
                              ELSE ' DEFAULT ' || coalesce(quote_literal(a.default_value) || '::' || a.type, 'NULL')
                         END, ', ' ORDER BY a.argno),
           string_agg(a.type::text, ', ' ORDER BY a.argno)
      INTO args, types
      FROM bench._arguments_of(function) a;
    same := to_regprocedure(format('%s(%s)', function, types));
    FOR old IN SELECT p.oid::regprocedure FROM pg_proc p
                WHERE p.pronamespace = 'bench'::regnamespace
                  AND p.proname = split_part(function, '.', 2)
                  AND p.oid IS DISTINCT FROM same::oid
    LOOP
        EXECUTE format('DROP FUNCTION %s', old);
    END LOOP;
    definition := format('FUNCTION %s(%s) RETURNS %s LANGUAGE c VOLATILE PARALLEL UNSAFE AS %L, %L',
                         function, args, returns, 'MODULE_PATHNAME', symbol);
    IF same IS NOT NULL THEN
        BEGIN
            EXECUTE 'CREATE OR REPLACE ' || definition;
        EXCEPTION WHEN invalid_function_definition THEN
            -- another result, argument names, or fewer defaults
            EXECUTE format('DROP FUNCTION %s', same);
            same := NULL;
        END;
    END IF;
    IF same IS NULL THEN
        EXECUTE 'CREATE ' || definition;
    END IF;
    SELECT p.oid::regprocedure INTO old FROM pg_proc p
     WHERE p.pronamespace = 'bench'::regnamespace AND p.proname = split_part(function, '.', 2);
    EXECUTE format('COMMENT ON FUNCTION %s IS %L', old, comment);
    IF same IS NULL THEN
        EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', old);
    END IF;
END
$fn$;

COMMENT ON FUNCTION bench._create_run_function(text, text, text, text) IS
    'Internal: create a function that takes the run arguments, from the library''s table of them';
REVOKE ALL ON FUNCTION bench._create_run_function(text, text, text, text) FROM PUBLIC;
