--
-- bench.ibench and bench.start_ibench: the benchmark as one suite.
--
CREATE OR REPLACE FUNCTION bench.ibench(rows bigint DEFAULT 1000000,
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
RETURNS SETOF bench.ibench_steps
LANGUAGE plpgsql VOLATILE
-- search_path pinned as every function's; the caller's (search_path, the
-- default evaluated in the caller's query) finds the dataset and is the
-- one the steps run with, as bench.run's
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    id bigint;
BEGIN
    id := bench._steps(bench._ibench_spec(rows, steps, insert_clients, query_clients, tables,
                                          secondary_indexes, duration, options, tag, target, progress,
                                          search_path),
                       true);
    RETURN QUERY SELECT * FROM bench.ibench_steps v WHERE v.suite_id OPERATOR(pg_catalog.=) id
                  ORDER BY v.step_no;
END
$fn$;

COMMENT ON FUNCTION bench.ibench(bigint, text[], integer, integer, integer, integer, interval, jsonb, text, text, interval, text) IS
    'The Insert Benchmark as one suite: its steps (l.i0, l.x, l.i1, l.i2, qr100 ... qp1000) one run each, on this server or a target; waits, and returns each step as bench.ibench_steps shows it';
REVOKE ALL ON FUNCTION bench.ibench(bigint, text[], integer, integer, integer, integer, interval, jsonb, text, text, interval, text) FROM PUBLIC;
