--
-- The run arguments: one table of them, in the library (src/api/runargs.c),
-- which every function that starts runs takes them from.
--
CREATE OR REPLACE FUNCTION bench._arguments_of(function text)
RETURNS TABLE (argno integer, name text, type regtype, default_value text,
               required boolean, description text)
LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'bench_arguments_of';

COMMENT ON FUNCTION bench._arguments_of(text) IS
    'Internal: the arguments of bench.run, bench.start, bench.sweep, bench.start_sweep or bench.schedule, in the order of its signature, from the library''s table of run arguments';
