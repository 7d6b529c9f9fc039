--
-- bench._create_run_function: (re)create one of the functions that take
-- the run arguments, with the signature bench._arguments_of gives it, as
-- a C function of the library (which reads its arguments by name).  The
-- install script and every upgrade script that changes the run arguments
-- call it; a signature of another version is dropped first.
--
CREATE FUNCTION bench._create_run_function(function text, returns text, symbol text,
                                           comment text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    args text;
    old  regprocedure;
BEGIN
    SELECT string_agg(format('%I %s', a.name, a.type)
                      || CASE WHEN a.required THEN ''
                              ELSE ' DEFAULT ' || coalesce(quote_literal(a.default_value) || '::' || a.type, 'NULL')
                         END, ', ' ORDER BY a.argno)
      INTO args
      FROM bench._arguments_of(function) a;
    FOR old IN SELECT p.oid::regprocedure FROM pg_proc p
                WHERE p.pronamespace = 'bench'::regnamespace
                  AND p.proname = split_part(function, '.', 2)
    LOOP
        EXECUTE format('DROP FUNCTION %s', old);
    END LOOP;
    EXECUTE format('CREATE FUNCTION %s(%s) RETURNS %s LANGUAGE c VOLATILE PARALLEL UNSAFE AS %L, %L',
                   function, args, returns, 'MODULE_PATHNAME', symbol);
    SELECT p.oid::regprocedure INTO old FROM pg_proc p
     WHERE p.pronamespace = 'bench'::regnamespace AND p.proname = split_part(function, '.', 2);
    EXECUTE format('COMMENT ON FUNCTION %s IS %L', old, comment);
    EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', old);
END
$fn$;

COMMENT ON FUNCTION bench._create_run_function(text, text, text, text) IS
    'Internal: create a function that takes the run arguments, from the library''s table of them';
REVOKE ALL ON FUNCTION bench._create_run_function(text, text, text, text) FROM PUBLIC;
