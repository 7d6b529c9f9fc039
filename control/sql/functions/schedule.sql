SELECT bench._create_run_function('bench.schedule', 'bench.schedules', 'bench_schedule',
    'Have pg_cron run a sweep (or a single run) on a cron schedule; its runs are tagged with the schedule''s name and judged against a rolling baseline');
