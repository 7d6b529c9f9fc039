--
-- bench.capacity and bench.start_capacity: the highest rate the server
-- sustains within a latency objective, found by a suite of rate-limited
-- runs (src/api/capacity.c, the search in bench._capacity_search).
--
SELECT bench._create_run_function('bench.capacity', 'SETOF bench.capacity_results', 'bench_capacity',
    'Find the highest rate the server sustains within a latency objective, as one suite of rate-limited runs; wait for it and return its answer');
SELECT bench._create_run_function('bench.start_capacity', 'bigint', 'bench_start_capacity',
    'Start a capacity search in the background and return its suite id at once');
