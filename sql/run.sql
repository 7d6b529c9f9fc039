--
-- bench.run: pgbench's built-in workloads run by background-worker clients
--
CREATE SCHEMA runs;
SET search_path = runs, public;
SET client_min_messages = warning;
SELECT dataset_id > 0 AS loaded FROM bench.init('tpcb', scale => 2);
RESET client_min_messages;

-- the built-in workloads are pgbench's scripts
SELECT name, dataset, builtin, cardinality(scripts) AS scripts, weights FROM bench.workloads ORDER BY name;

-- tpcb, 2 clients x 25 transactions, each protocol: every transaction moves
-- money between an account, a teller and a branch and writes a history row,
-- so the balances of all three tables and the history's deltas agree
SELECT workload, clients, transactions_per_client, protocol, status, scale,
       transactions, failures, retries, warmup_transactions,
       duration IS NULL AS no_duration, dataset_id IS NOT NULL AS has_dataset,
       created_by = current_user AS by_me, server_version = current_setting('server_version') AS version,
       ended_at >= started_at AS ended, coordinator_pid IS NULL AS coordinator_gone,
       latency_min_ms > 0 AND latency_min_ms <= latency_p50_ms AND latency_p50_ms <= latency_p90_ms
         AND latency_p90_ms <= latency_p95_ms AND latency_p95_ms <= latency_p99_ms
         AND latency_p99_ms <= latency_p999_ms AND latency_p999_ms <= latency_max_ms AS percentiles_ordered,
       latency_avg_ms BETWEEN latency_min_ms AND latency_max_ms AS avg_within,
       tps > 0 AND abs(tps - transactions / measured_s) < 0.001 * tps AS tps_is_rate
  FROM bench.run('tpcb', clients => 2, transactions => 25, protocol => 'prepared', progress => '0');
SELECT workload, protocol, status, transactions
  FROM bench.run('tpcb', clients => 2, transactions => 25, protocol => 'extended', progress => '0');
SELECT workload, protocol, status, transactions
  FROM bench.run('tpcb', clients => 2, transactions => 25, protocol => 'simple', progress => '0');
SELECT count(*) AS history_rows, sum(delta) = (SELECT sum(abalance) FROM pgbench_accounts) AS accounts_agree,
       sum(delta) = (SELECT sum(tbalance) FROM pgbench_tellers) AS tellers_agree,
       sum(delta) = (SELECT sum(bbalance) FROM pgbench_branches) AS branches_agree,
       bool_and(aid BETWEEN 1 AND 200000 AND tid BETWEEN 1 AND 20 AND bid BETWEEN 1 AND 2
                AND delta BETWEEN -5000 AND 5000) AS in_range
  FROM pgbench_history;

-- simple-update leaves tellers and branches alone
SELECT workload, status, transactions
  FROM bench.run('simple-update', clients => 3, transactions => 10, progress => '0');
SELECT count(*) AS history_rows, sum(delta) = (SELECT sum(abalance) FROM pgbench_accounts) AS accounts_agree,
       (SELECT sum(tbalance) FROM pgbench_tellers) = (SELECT sum(bbalance) FROM pgbench_branches) AS tellers_branches_unchanged
  FROM pgbench_history;

-- select-only with a tag
SELECT workload, status, transactions, tag
  FROM bench.run('select-only', clients => 4, transactions => 100, progress => '0', tag => 'smoke');

-- at repeatable read too: the result is read back on the latest snapshot
SET default_transaction_isolation = 'repeatable read';
SELECT workload, status, transactions
  FROM bench.run('select-only', clients => 1, transactions => 10, progress => '0');
RESET default_transaction_isolation;

-- the latency histogram holds every measured transaction, in narrow buckets
SELECT r.workload, sum(h.count) = r.transactions AS complete,
       bool_and(h.upper_ms > h.lower_ms AND (h.upper_ms - h.lower_ms) <= h.lower_ms / 64 + 1e-6) AS narrow,
       min(h.lower_ms) <= r.latency_min_ms AND max(h.upper_ms) >= r.latency_max_ms AS spans
  FROM bench.runs r JOIN bench.histograms h ON h.run_id = r.id
 GROUP BY r.id, r.workload, r.transactions, r.latency_min_ms, r.latency_max_ms ORDER BY r.id;

-- progress rows: at least the final one per run, adding up to every transaction
SELECT r.id = min(r.id) OVER () AS first, sum(p.transactions) = r.transactions AS adds_up,
       bool_and(NOT p.in_warmup) AS none_in_warmup
  FROM bench.runs r JOIN bench.progress p ON p.run_id = r.id
 GROUP BY r.id, r.transactions ORDER BY r.id;

-- a timed run with a warm-up: progress every 500 ms, the warm-up kept apart;
-- the measured time (to the end of the last transaction) follows the
-- warm-up inside the run, however the machine's load stretched it
SET client_min_messages = warning;
SELECT status, duration, warmup, progress, transactions_per_client IS NULL AS timed,
       measured_s > 0 AND 1 + measured_s <= extract(epoch FROM ended_at - started_at) + 0.05 AS measured_in_run,
       transactions > 0 AS measured, warmup_transactions > 0 AS warmed_up
  FROM bench.run('select-only', clients => 2, duration => '2 s', warmup => '1 s', progress => '500 ms');
RESET client_min_messages;
SELECT count(*) FILTER (WHERE in_warmup) AS warmup_rows, count(*) FILTER (WHERE NOT in_warmup) BETWEEN 2 AND 3 AS measured_rows,
       min(interval_start) = (SELECT started_at FROM bench.runs WHERE id = p.run_id) AS from_start,
       bool_and(interval_end > interval_start) AS forward
  FROM bench.progress p WHERE run_id = (SELECT max(id) FROM bench.runs) GROUP BY run_id;
SELECT r.transactions = sum(p.transactions) FILTER (WHERE NOT p.in_warmup) AS measured_matches
  FROM bench.runs r JOIN bench.progress p ON p.run_id = r.id
 WHERE r.id = (SELECT max(id) FROM bench.runs) GROUP BY r.id, r.transactions, r.clients;

-- bench.start returns at once; the run shows in bench.runs_in_progress;
-- a second run on the same dataset is refused; bench.cancel stops it
SELECT bench.start('select-only', clients => 2, duration => '30 s', progress => '1 s') AS started \gset
SELECT id = :started AS listed, workload, clients, elapsed < '30 s' AS elapsed_ok
  FROM bench.runs_in_progress;
SELECT count(*) AS clients FROM pg_stat_activity
 WHERE backend_type = 'pgbenchkit client' AND application_name LIKE 'pgbenchkit run ' || :started || ' client %';
SELECT * FROM bench.run('tpcb', transactions => 1);
SELECT bench.cancel(:started) AS canceled;
SET client_min_messages = warning;
SELECT status, sqlstate, transactions > 0 AS kept, ended_at IS NOT NULL AS ended
  FROM bench.wait(:started);
RESET client_min_messages;
SELECT bench.cancel(:started) AS canceled_again;
-- its workers are gone within moments of the run's end (up to 5 s here)
DO $$
BEGIN
    FOR i IN 1 .. 100 LOOP
        PERFORM pg_stat_clear_snapshot();
        EXIT WHEN NOT EXISTS (SELECT FROM pg_stat_activity
                               WHERE backend_type IN ('pgbenchkit run', 'pgbenchkit client'));
        PERFORM pg_sleep(0.05);
    END LOOP;
END
$$;
SELECT count(*) AS workers_left FROM pg_stat_activity
 WHERE backend_type IN ('pgbenchkit run', 'pgbenchkit client');
SELECT count(*) AS in_progress FROM bench.runs_in_progress;

-- a client's SQL error fails the run with its SQLSTATE, and keeps what it measured
SELECT name FROM bench.define_workload('divide', E'\\set aid random(1, 100000 * :scale)\n\\set zero :client_id\nSELECT abalance / :zero FROM pgbench_accounts WHERE aid = :aid;\n', 'fails at once', dataset => 'tpcb');
SELECT * FROM bench.run('divide', clients => 2, transactions => 5, progress => '0');
SELECT status, sqlstate, error, other_failures >= 1 AS counted
  FROM bench.runs WHERE workload = 'divide';
-- an error message longer than what is kept is cut at a whole character:
-- what bench.runs keeps stays valid UTF-8
SELECT status FROM bench.run(script => $$DO $x$BEGIN RAISE EXCEPTION 'long: %', repeat('ä', 700); END $x$;$$,
                             transactions => 1, progress => '0', prewarm => false, tag => 'long error');
SELECT status, sqlstate, octet_length(error) BETWEEN 1000 AND 1100 AS cut, error ~ '^client 0: long: ä+ ?$' AS kept,
       pg_catalog.convert_from(pg_catalog.convert_to(error, 'UTF8'), 'UTF8') = error AS valid
  FROM bench.runs WHERE tag = 'long error';
-- an error while preparing (a missing table) refuses the run before it starts
SELECT name FROM bench.define_workload('missing', E'SELECT * FROM no_such_table;\n', 'refers to a missing table', dataset => 'tpcb');
SELECT * FROM bench.run('missing', transactions => 1);
SELECT count(*) AS missing_runs FROM bench.runs WHERE workload = 'missing';
DELETE FROM bench.workloads WHERE NOT builtin;
