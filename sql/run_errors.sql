--
-- bench.run, bench.start, bench.wait and bench.cancel refuse bad input
-- before anything starts: no run row, no worker left behind.
--
CREATE SCHEMA runerrs;
SET search_path = runerrs, public;
SET client_min_messages = warning;
SELECT dataset_id > 0 AS loaded FROM bench.init('tpcb', scale => 1);
RESET client_min_messages;
SELECT coalesce(max(id), 0) AS runs_before FROM bench.runs \gset

-- unknown workload
SELECT * FROM bench.run('tpcd');
-- NULL arguments
SELECT * FROM bench.run(NULL);
SELECT * FROM bench.run('tpcb', clients => NULL);
SELECT * FROM bench.run('tpcb', protocol => NULL);
SELECT * FROM bench.run('tpcb', warmup => NULL);
SELECT * FROM bench.run('tpcb', progress => NULL);
SELECT * FROM bench.run('tpcb', max_tries => NULL);
SELECT bench.start('tpcb', clients => NULL);
-- clients
SELECT * FROM bench.run('tpcb', clients => 0);
SELECT * FROM bench.run('tpcb', clients => -3);
SELECT * FROM bench.run('tpcb', clients => 10001);
-- duration and transactions
SELECT * FROM bench.run('tpcb', duration => '0 s');
SELECT * FROM bench.run('tpcb', duration => '-5 s');
SELECT * FROM bench.run('tpcb', duration => '2 years');
SELECT * FROM bench.run('tpcb', duration => '10 s', transactions => 10);
SELECT * FROM bench.run('tpcb', transactions => 0);
SELECT * FROM bench.run('tpcb', transactions => -1);
-- protocol
SELECT * FROM bench.run('tpcb', protocol => 'binary');
SELECT * FROM bench.run('tpcb', protocol => 'Prepared');
-- warmup
SELECT * FROM bench.run('tpcb', warmup => '-1 s');
SELECT * FROM bench.run('tpcb', duration => '10 s', warmup => '10 s');
SELECT * FROM bench.run('tpcb', duration => '10 s', warmup => '1 min');
-- progress
SELECT * FROM bench.run('tpcb', progress => '50 ms');
SELECT * FROM bench.run('tpcb', progress => '-1 s');
-- max_tries
SELECT * FROM bench.run('tpcb', max_tries => -1);
SELECT * FROM bench.run('tpcb', transactions => 10, max_tries => 0);
-- more clients than free background workers (max_worker_processes is 64 here)
DO $$
BEGIN
  PERFORM bench.run('tpcb', clients => 64);
EXCEPTION WHEN insufficient_resources THEN
  RAISE NOTICE 'refused with %: %', SQLSTATE, regexp_replace(SQLERRM, 'only [0-9]+ are free', 'only N are free');
END $$;
-- inside a transaction block
BEGIN;
SELECT * FROM bench.run('select-only', transactions => 1);
ROLLBACK;
-- no dataset in search_path
CREATE SCHEMA nodata;
SET search_path = nodata;
SELECT * FROM bench.run('select-only', transactions => 1);
-- a pgbench_accounts that bench.init did not make
CREATE TABLE nodata.pgbench_accounts (aid int);
SELECT * FROM bench.run('select-only', transactions => 1);
DROP SCHEMA nodata CASCADE;
SET search_path = runerrs, public;

-- targets, jobs and connect
SELECT * FROM bench.run('select-only', transactions => 1, target => 'nosuch');
SELECT * FROM bench.run('select-only', clients => 2, jobs => 1, transactions => 1);
SELECT * FROM bench.run('select-only', connect => 'per_transaction', transactions => 1);
SELECT name FROM bench.add_target('nowhere', 'host=127.0.0.1 port=1 dbname=postgres connect_timeout=1');
SELECT * FROM bench.run('select-only', clients => 2, jobs => 0, transactions => 1, target => 'nowhere');
SELECT * FROM bench.run('select-only', connect => 'sometimes', transactions => 1, target => 'nowhere');
SELECT * FROM bench.run('select-only', connect => NULL, transactions => 1, target => 'nowhere');
SELECT * FROM bench.run('select-only', on_disconnect => 'continue', transactions => 1);
SELECT * FROM bench.run('select-only', on_disconnect => 'reconnect', duration => '1 s');
SELECT * FROM bench.run('select-only', on_disconnect => 'reconnect', transactions => 1, target => 'nowhere');
SELECT * FROM bench.run('select-only', on_disconnect => 'retry', transactions => 1, target => 'nowhere');
SELECT * FROM bench.run('select-only', on_disconnect => 'reconnect', reconnect_delay => '0', target => 'nowhere');
SELECT * FROM bench.run('select-only', on_disconnect => 'reconnect', reconnect_max_delay => '1 h', target => 'nowhere');
SELECT * FROM bench.run('select-only', on_disconnect => 'reconnect', reconnect_delay => '2 s', target => 'nowhere');
SELECT * FROM bench.run('select-only', on_disconnect => 'reconnect', reconnect_delay => NULL, target => 'nowhere');
-- a target that cannot be reached: the coordinator's connection fails first
SELECT * FROM bench.run('select-only', transactions => 1, target => 'nowhere');
SET client_min_messages = warning;
SELECT bench.drop_target('nowhere');
RESET client_min_messages;

-- bench.wait and bench.cancel
SELECT * FROM bench.wait(NULL);
SELECT * FROM bench.wait(-1);
SELECT bench.cancel(NULL);
SELECT bench.cancel(12345678);

-- nothing was recorded, nothing is left running
SELECT count(*) AS runs FROM bench.runs WHERE id > :runs_before;
SELECT count(*) AS workers FROM pg_stat_activity
 WHERE backend_type IN ('pgbenchkit run', 'pgbenchkit client');
