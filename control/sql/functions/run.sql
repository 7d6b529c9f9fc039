--
-- bench.run and friends.
--
SELECT bench._create_run_function('bench.run', 'bench.runs', 'bench_run',
    'Run a workload with background-worker clients; wait for it, print progress, return its row of bench.runs');
