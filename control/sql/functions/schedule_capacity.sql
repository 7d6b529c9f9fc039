SELECT bench._create_run_function('bench.schedule_capacity', 'bench.schedules', 'bench_schedule_capacity',
    'Have pg_cron run a capacity search on a cron schedule; each execution''s capacity is judged against a rolling baseline');
