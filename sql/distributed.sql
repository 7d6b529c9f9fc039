--
-- at => and part_of =>: a run whose measured part starts at a given
-- instant, a part of a distributed run; the parts merged by
-- bench.distributed_runs, bench.distributed_progress and
-- bench.report_distributed.  (After node: the ids are in node 3's range.)
--

-- bad input: refused before anything starts, nothing recorded
SELECT bench.start(script => 'SELECT 1', at => '2000-01-01 00:00:00+00');
SELECT bench.start(script => 'SELECT 1', at => 'infinity');
SELECT bench.start(script => 'SELECT 1', at => '2999-01-01 00:00:00+00');
SELECT bench.start(script => 'SELECT 1', duration => '10 s', warmup => '5 s',
                   at => clock_timestamp() + interval '2 s');
SELECT bench.start(script => 'SELECT 1', part_of => 'no-instant');
SELECT bench.start(script => 'SELECT 1', at => clock_timestamp() + interval '1 min', part_of => '');
SELECT bench.start(script => 'SELECT 1', at => clock_timestamp() + interval '1 min',
                   part_of => repeat('p', 64));
-- a sweep's runs each at their instant: at + k * every, so every is needed
-- (longer than the duration), and a duration; schedules and capacity
-- searches take neither at nor part_of
SELECT bench.sweep(script => 'SELECT 1', at => clock_timestamp() + interval '1 min');
SELECT bench.sweep(script => 'SELECT 1', clients => '{1,2}', repeat => 1, transactions => 5,
                   at => clock_timestamp() + interval '1 min', every => '1 min');
SELECT bench.sweep(script => 'SELECT 1', clients => '{1,2}', repeat => 1, duration => '10 s',
                   at => clock_timestamp() + interval '1 min', every => '10 s');
SELECT bench.sweep(script => 'SELECT 1', clients => '{1,2}', repeat => 1, every => '1 min');
SELECT bench.sweep(script => 'SELECT 1', clients => '{1,2}', repeat => 1, duration => '10 s',
                   at => clock_timestamp() + interval '1 min', every => '1 min', part_of => repeat('p', 62));
SELECT bench.schedule('nightly-parts', '0 3 * * *', script => 'SELECT 1', at => clock_timestamp() + interval '1 min');
SELECT bench.capacity(script => 'SELECT 1', slo => 'p99 <= 10 ms', part_of => 'x');
SELECT count(*) AS recorded FROM bench.runs WHERE start_at IS NOT NULL OR part_of IS NOT NULL;

-- a run not ready by its instant (held at its prewarm for 3 s here) fails
-- before its row is written: 55000
DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET pgbenchkit.test_pause = %L', current_database(), 'prewarm=3000'); END $$;
\set VERBOSITY sqlstate
SELECT bench.run(script => 'SELECT 1', transactions => 1, progress => '0',
                 at => clock_timestamp() + interval '1 s');
\set VERBOSITY default
DO $$ BEGIN EXECUTE format('ALTER DATABASE %I RESET pgbenchkit.test_pause', current_database()); END $$;
SELECT count(*) AS recorded FROM bench.runs WHERE start_at IS NOT NULL OR part_of IS NOT NULL;

-- bench.start returns once the row is written, before the instant; the
-- row shows the planned start until the clients go
SELECT bench.start(script => 'SELECT 1', clients => 2, duration => '2 s', warmup => '1 s',
                   progress => '1 s', prewarm => false, part_of => 'regress-1',
                   at => date_trunc('second', clock_timestamp()) + interval '12 s') AS part1 \gset
SELECT status, part_of, started_at = start_at - warmup AS planned_start,
       clock_timestamp() < start_at - warmup AS returned_before_the_instant
  FROM bench.runs WHERE id = :part1;
SET client_min_messages = warning;
SELECT status, transactions > 0 AS measured FROM bench.wait(:part1);
RESET client_min_messages;
-- it went at its instant, not before; its measured part started then
SELECT started_at >= start_at - warmup AS not_early, part_of
  FROM bench.runs WHERE id = :part1;

-- its report says so
SELECT count(*) AS report_line FROM regexp_split_to_table(bench.report(:part1), E'\n') AS line
 WHERE line ~ '^measured part to start at: .*, a part of distributed run regress-1 \(bench.report_distributed\)$';
SELECT bench.report_json(:part1)->'run'->>'part_of' AS part_of,
       (bench.report_json(:part1)->'run'->>'start_at')::timestamptz = start_at AS start_at
  FROM bench.runs WHERE id = :part1;

-- one part: the merge is the run itself
SELECT d.parts, d.status, d.run_ids = ARRAY[r.id] AS its_run, d.nodes,
       d.clients = r.clients AS clients, d.transactions = r.transactions AS transactions,
       d.failures = r.failures AS failures,
       abs(d.latency_p99_ms - r.latency_p99_ms) < 1e-9 AS p99,
       abs(d.latency_p50_ms - r.latency_p50_ms) < 1e-9 AS p50,
       d.latency_max_ms = r.latency_max_ms AS max,
       abs(d.measured_s - (r.measured_s + extract(epoch FROM r.started_at + r.warmup - r.start_at))) < 1e-6
           AS measured_from_the_instant,
       d.start_spread_ms = 0 AS spread
  FROM bench.distributed_runs('regress-1') d, bench.runs r
 WHERE r.id = :part1;
-- progress by offset from the instant: the warm-up before it, the measured
-- intervals adding up to the run's transactions
SELECT bool_and(in_warmup = (offset_s < 0)) AS warmup_before, bool_and(parts = 1) AS one_part,
       sum(transactions) FILTER (WHERE NOT in_warmup) = (SELECT transactions FROM bench.runs WHERE id = :part1)
           AS measured_sum
  FROM bench.distributed_progress('regress-1');
SELECT regexp_replace(regexp_replace(line, 'run [0-9]+ ', 'run N '), '\(host [^)]*\)|[0-9.]+ (transactions|tps)', '...', 'g') AS line
  FROM regexp_split_to_table(bench.report_distributed('regress-1'), E'\n') AS line
 WHERE line ~ '^(distributed run|part 1|number of clients)';

-- a second part of another run name, canceled while it waits: no
-- transaction, status canceled
SELECT bench.start(script => 'SELECT 1', duration => '2 s', progress => '0', prewarm => false,
                   part_of => 'regress-2', at => clock_timestamp() + interval '1 min') AS waiting \gset
SELECT bench.cancel(:waiting);
SELECT status, transactions, sqlstate FROM bench.wait(:waiting);
SELECT part_of, parts, status, transactions > 0 AS measured FROM bench.distributed_runs() ORDER BY part_of;

-- a sweep given at: run k starts its measured part at at + k * every, the
-- part "part_of/k+1" of its own distributed run
SET client_min_messages = warning;
SELECT DISTINCT suite_id AS sweep FROM bench.sweep(script => 'SELECT 1', clients => '{1,2}', repeat => 1,
       duration => '1 s', progress => '0', prewarm => false, every => '3 s', part_of => 'regress-sweep',
       at => date_trunc('second', clock_timestamp()) + interval '10 s') \gset
RESET client_min_messages;
SELECT part_of, clients, status, start_at - first_value(start_at) OVER (ORDER BY id) AS after_the_first,
       started_at >= start_at - warmup AS not_early
  FROM bench.runs WHERE suite_id = :sweep ORDER BY id;
SELECT status, runs_planned FROM bench.suites WHERE id = :sweep;
SELECT part_of, parts, status FROM bench.distributed_runs() WHERE part_of LIKE 'regress-sweep/%' ORDER BY part_of;

-- bad input of the merge
SELECT * FROM bench.distributed_progress(NULL);
SELECT bench.report_distributed(NULL);
SELECT bench.report_distributed('no-such-run');
SELECT count(*) AS none FROM bench.distributed_runs('no-such-run');
SELECT count(*) AS none FROM bench.distributed_progress('no-such-run');
