SELECT bench._create_run_function('bench.start_sweep', 'bigint', 'bench_start_sweep',
    'Start a sweep in the background and return its suite id at once');
