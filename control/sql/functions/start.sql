SELECT bench._create_run_function('bench.start', 'bigint', 'bench_start',
    'Start a run in the background and return its id at once');
