SELECT bench._create_run_function('bench._sweep_spec', 'jsonb', 'bench_sweep_spec',
    'Internal: check the arguments of a sweep and return them as jsonb');
