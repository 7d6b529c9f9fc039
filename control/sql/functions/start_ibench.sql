CREATE OR REPLACE FUNCTION bench.start_ibench(rows bigint DEFAULT 1000000,
                                              steps text[] DEFAULT '{l.i0,l.x,l.i1,l.i2,qr100,qp100,qr500,qp500,qr1000,qp1000}',
                                              insert_clients integer DEFAULT 1,
                                              query_clients integer DEFAULT NULL,
                                              tables integer DEFAULT NULL,
                                              secondary_indexes integer DEFAULT 3,
                                              duration interval DEFAULT '5 min',
                                              options jsonb DEFAULT '{}',
                                              tag text DEFAULT NULL,
                                              target text DEFAULT NULL,
                                              progress interval DEFAULT '1 s',
                                              search_path text DEFAULT pg_catalog.current_setting('search_path'))
RETURNS bigint
LANGUAGE plpgsql VOLATILE
-- search_path pinned: as bench.ibench
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN bench._steps(bench._ibench_spec(rows, steps, insert_clients, query_clients, tables,
                                           secondary_indexes, duration, options, tag, target, progress,
                                           search_path),
                        false);
END
$fn$;

COMMENT ON FUNCTION bench.start_ibench(bigint, text[], integer, integer, integer, integer, interval, jsonb, text, text, interval, text) IS
    'bench.ibench without waiting: the suite''s id once it has started (bench.wait_suite waits for it)';
REVOKE ALL ON FUNCTION bench.start_ibench(bigint, text[], integer, integer, integer, integer, interval, jsonb, text, text, interval, text) FROM PUBLIC;
