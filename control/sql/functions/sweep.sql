--
-- bench.sweep and friends: suites of runs, each in a transaction of its own,
-- carried out by a background worker.
--
SELECT bench._create_run_function('bench.sweep', 'SETOF bench.suite_summary', 'bench_sweep',
    'Run a workload at each client count, repeat times each, as one suite; wait for it and return its summary per client count');
