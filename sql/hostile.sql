--
-- Hostile input across the whole API: each call must fail with its
-- SQLSTATE before anything starts, leave every table of schema bench as it
-- was, start no worker, and leave the server up.
--
SET client_min_messages = warning;

-- what must not change: every table of schema bench (its rows, in order),
-- the foreign servers and user mappings targets are made of, pg_cron's jobs
CREATE FUNCTION pg_temp.digest() RETURNS TABLE (relation text, rows bigint, digest text)
LANGUAGE plpgsql AS $$
DECLARE
    r regclass;
BEGIN
    FOR r IN SELECT c.oid FROM pg_class c
              WHERE c.relnamespace = 'bench'::regnamespace AND c.relkind IN ('r', 'p')
              ORDER BY c.relname LOOP
        relation := r::text;
        EXECUTE format('SELECT count(*), md5(coalesce(string_agg(x::text, E''\n'' ORDER BY x::text), '''')) FROM %s x', r)
           INTO rows, digest;
        RETURN NEXT;
    END LOOP;
    relation := 'pg_foreign_server';
    SELECT count(*), md5(coalesce(string_agg(srvname::text, ',' ORDER BY srvname), '')) INTO rows, digest FROM pg_foreign_server;
    RETURN NEXT;
    relation := 'pg_user_mapping';
    SELECT count(*), '' INTO rows, digest FROM pg_user_mappings;
    RETURN NEXT;
    IF to_regclass('cron.job') IS NOT NULL THEN
        relation := 'cron.job';
        EXECUTE 'SELECT count(*), md5(coalesce(string_agg(jobname || command, '','' ORDER BY jobid), '''')) FROM cron.job'
           INTO rows, digest;
        RETURN NEXT;
    END IF;
END $$;

CREATE TEMP TABLE before AS SELECT * FROM pg_temp.digest();
CREATE TEMP TABLE started AS SELECT pg_postmaster_start_time() AS at;
CREATE TEMP TABLE workers_before AS
SELECT pid FROM pg_stat_activity WHERE backend_type LIKE 'pgbenchkit%';

-- the SQLSTATE and message of a call that fails, or 'no error'
CREATE FUNCTION pg_temp.try(call text, OUT code text, OUT message text)
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE call;
    code := 'none';
    message := 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS code = RETURNED_SQLSTATE, message = MESSAGE_TEXT;
END $$;

CREATE TEMP TABLE hostile (n serial, want text NOT NULL, call text NOT NULL);
INSERT INTO hostile (want, call) VALUES
-- bench.run and bench.start: each run argument out of its range
('22023', $$SELECT bench.run('tpcb', clients => 0)$$),
('22023', $$SELECT bench.run('tpcb', clients => -2147483648)$$),
('22023', $$SELECT bench.run('tpcb', clients => 2147483647)$$),
('22004', $$SELECT bench.run('tpcb', clients => NULL)$$),
('22P02', $$SELECT bench.run('tpcb', clients => 'many')$$),
('22023', $$SELECT bench.run('tpcb', duration => '-1 s')$$),
('22023', $$SELECT bench.run('tpcb', duration => '0')$$),
('22023', $$SELECT bench.run('tpcb', duration => '2 years')$$),
('22007', $$SELECT bench.run('tpcb', duration => 'forever')$$),
('22023', $$SELECT bench.run('tpcb', transactions => 0)$$),
('22023', $$SELECT bench.run('tpcb', transactions => -9223372036854775808)$$),
('22023', $$SELECT bench.run('tpcb', duration => '1 s', transactions => 10)$$),
('22023', $$SELECT bench.run('tpcb', protocol => 'prepared; DROP TABLE bench.runs')$$),
('22023', $$SELECT bench.run('tpcb', protocol => '')$$),
('22023', $$SELECT bench.run('tpcb', warmup => '-1 s')$$),
('22023', $$SELECT bench.run('tpcb', progress => '-5 s')$$),
('22023', $$SELECT bench.run('tpcb', max_tries => -1)$$),
('22001', $$SELECT bench.run('tpcb', tag => repeat('x', 257))$$),
('22001', $$SELECT bench.run('tpcb', tag => repeat('ü', 257))$$),
('22001', $$SELECT bench.run('tpcb', tag => repeat('x', 10000000))$$),
('22023', $$SELECT bench.run('tpcb', sample_interval => '1 ms')$$),
('22023', $$SELECT bench.run('tpcb', rate => 0)$$),
('22023', $$SELECT bench.run('tpcb', rate => -1)$$),
('22023', $$SELECT bench.run('tpcb', rate => 'NaN')$$),
('22023', $$SELECT bench.run('tpcb', rate => 'Infinity')$$),
('22023', $$SELECT bench.run('tpcb', latency_limit => '0')$$),
('22023', $$SELECT bench.run('tpcb', latency_limit => '-1 ms')$$),
('22023', $$SELECT bench.run('tpcb', variables => '[1, 2]')$$),
('22023', $$SELECT bench.run('tpcb', variables => '"scale"')$$),
('22023', $$SELECT bench.run('tpcb', variables => '{"1st": 1}')$$),
('22023', $$SELECT bench.run('tpcb', variables => '{"a;b": 1}')$$),
('22023', $$SELECT bench.run('tpcb', variables => '{"a": {"b": 1}}')$$),
('22023', $$SELECT bench.run('tpcb', variables => '{"a": [1]}')$$),
('54000', $$SELECT bench.run('tpcb', variables => (SELECT jsonb_object_agg('v' || i, i) FROM generate_series(1, 1001) i))$$),
('22001', $$SELECT bench.run('tpcb', variables => jsonb_build_object('a', repeat('x', 1048576)))$$),
('22P02', $$SELECT bench.run('tpcb', variables => '{not json')$$),
('22023', $$SELECT bench.run('tpcb', jobs => 2)$$),
('22023', $$SELECT bench.run('tpcb', connect => 'per_transaction')$$),
('22023', $$SELECT bench.run('tpcb', on_disconnect => 'continue')$$),
('42704', $$SELECT bench.run('tpcb', target => 'no such target')$$),
('42704', $$SELECT bench.run('tpcb', target => repeat('t', 100000))$$),
('22023', $$SELECT bench.run('no such workload')$$),
('22023', $$SELECT bench.run(repeat('w', 1000000))$$),
('22023', $$SELECT bench.run('tpcb''; DROP TABLE bench.runs; --')$$),
('22023', $$SELECT bench.run('ワークロード')$$),
('22023', $$SELECT bench.run('')$$),
('22023', $$SELECT bench.run(NULL)$$),
('22023', $$SELECT bench.run('tpcb', script => 'SELECT 1;')$$),
('54000', $$SELECT bench.run(groups => (SELECT jsonb_agg(jsonb_build_object('name', 'g' || i, 'script', 'SELECT 1;', 'clients', 1)) FROM generate_series(1, 17) i))$$),
('22001', $$SELECT bench.run(groups => jsonb_build_array(jsonb_build_object('script', repeat('x', 1048577), 'clients', 1)))$$),
('22023', $$SELECT bench.run(groups => jsonb_build_array(jsonb_build_object('name', repeat('n', 64), 'script', 'SELECT 1;', 'clients', 1)))$$),
('22023', $$SELECT bench.run(groups => jsonb_build_array(jsonb_build_object('workload', repeat('w', 1000000), 'clients', 1)))$$),
('22023', $$SELECT bench.run(groups => '[{"script": "SELECT 1;", "clients": 10001}]')$$),
('22023', $$SELECT bench.run(groups => '[{"script": "SELECT 1;", "clients": 1, "rate": 1e308}]')$$),
('22023', $$SELECT bench.ibench(steps => ARRAY[repeat('s', 100000)])$$),
('22023', $$SELECT bench.ibench(options => jsonb_build_object(repeat('k', 100000), 1))$$),
('22023', $$SELECT bench.ibench(rows => -1)$$),
('22023', $$SELECT bench.run(script => '')$$),
('42601', $$SELECT bench.run(script => E'\\no_such_command')$$),
('42601', $$SELECT bench.run(script => E'\\set x (1 +')$$),
('42601', $$SELECT bench.run(script => E'\\set 1x 1\nSELECT 1;')$$),
('42601', $$SELECT bench.run(script => E'\\sleep\nSELECT 1;')$$),
('42601', $$SELECT bench.run(script => E'\\if 1\nSELECT 1;')$$),
('42601', $$SELECT bench.run(script => E'\\endpipeline\nSELECT 1;')$$),
('22001', $$SELECT bench.run(script => repeat('SELECT 1;', 120000))$$),
('22023', $$SELECT bench.start('tpcb', clients => 0)$$),
('22001', $$SELECT bench.start('tpcb', tag => repeat('x', 300))$$),
-- sweeps
('22023', $$SELECT bench.sweep('tpcb', clients => '{}')$$),
('22023', $$SELECT bench.sweep('tpcb', clients => '{1, 0}')$$),
('22004', $$SELECT bench.sweep('tpcb', clients => '{1, NULL}')$$),
('22023', $$SELECT bench.sweep('tpcb', clients => '{{1}, {2}}')$$),
('22023', $$SELECT bench.sweep('tpcb', repeat => 0)$$),
('22023', $$SELECT bench.sweep('tpcb', run_order => 'random')$$),
('22001', $$SELECT bench.start_sweep('tpcb', tag => repeat('x', 257))$$),
-- workloads
('42602', $$SELECT bench.define_workload('', 'SELECT 1;')$$),
('42602', $$SELECT bench.define_workload('a;DROP TABLE bench.runs', 'SELECT 1;')$$),
('42602', $$SELECT bench.define_workload('it''s', 'SELECT 1;')$$),
('42602', $$SELECT bench.define_workload('Ärger', 'SELECT 1;')$$),
('42602', $$SELECT bench.define_workload(repeat('w', 64), 'SELECT 1;')$$),
('42602', $$SELECT bench.define_workload(repeat('w', 1000000), 'SELECT 1;')$$),
('22004', $$SELECT bench.define_workload(NULL, 'SELECT 1;')$$),
('22004', $$SELECT bench.define_workload('w', NULL::text)$$),
('22023', $$SELECT bench.define_workload('w', '{}'::text[])$$),
('22004', $$SELECT bench.define_workload('w', ARRAY[NULL]::text[])$$),
('22023', $$SELECT bench.define_workload('w', array_fill('SELECT 1;'::text, ARRAY[129]))$$),
('22023', $$SELECT bench.define_workload('w', ARRAY['SELECT 1;', 'SELECT 2;'], ARRAY[1])$$),
('22023', $$SELECT bench.define_workload('w', ARRAY['SELECT 1;'], ARRAY[-1])$$),
('22023', $$SELECT bench.define_workload('w', ARRAY['SELECT 1;'], ARRAY[0])$$),
('22001', $$SELECT bench.define_workload('w', 'SELECT 1;', description => repeat('d', 1025))$$),
('22001', $$SELECT bench.define_workload('w', repeat('SELECT 1;', 120000))$$),
('22023', $$SELECT bench.define_workload('w', 'SELECT 1;', dataset => 'nosuch')$$),
('42601', $$SELECT bench.define_workload('w', E'\\set x 1 +')$$),
('42501', $$SELECT bench.define_workload('tpcb', 'SELECT 1;', replace => true)$$),
('42501', $$SELECT bench.drop_workload('tpcb')$$),
('42704', $$SELECT bench.drop_workload('no such workload')$$),
('22004', $$SELECT bench.drop_workload(NULL)$$),
-- loads
('22023', $$SELECT bench.init('tpcb', scale => 0)$$),
('22023', $$SELECT bench.init('tpcb', scale => -1)$$),
('22023', $$SELECT bench.init('tpcb', fillfactor => 9)$$),
('22023', $$SELECT bench.init('tpcb', fillfactor => 101)$$),
('22023', $$SELECT bench.init('tpcb', partitions => -1)$$),
('22023', $$SELECT bench.init('tpcb', partitions => 2, partition_method => 'list')$$),
('22023', $$SELECT bench.init('tpcb', jobs => 0)$$),
('22023', $$SELECT bench.init('nosuch')$$),
('22023', $$SELECT bench.init('tpcb', generate => 'client')$$),
-- runs and suites that do not exist
('22004', $$SELECT bench.cancel(NULL)$$),
('42704', $$SELECT bench.cancel(-1)$$),
('P0002', $$SELECT bench.report(9223372036854775807)$$),
('P0002', $$SELECT bench.report_json(-1)$$),
('P0002', $$SELECT bench.compare(9223372036854775806, 9223372036854775807)$$),
('P0002', $$SELECT bench.chart_run(9223372036854775807)$$),
('P0002', $$SELECT bench.export(9223372036854775807)$$),
('42704', $$SELECT bench.cancel_suite(-1)$$),
('22023', $$SELECT bench.import('{}')$$),
('22023', $$SELECT bench.import('[1, 2, 3]')$$),
('22004', $$SELECT bench.import(NULL)$$),
-- targets
('22023', $$SELECT bench.add_target('', 'host=127.0.0.1')$$),
('22023', $$SELECT bench.add_target(repeat('t', 64), 'host=127.0.0.1')$$),
('22023', $$SELECT bench.add_target('t', 'host=127.0.0.1 password=secret')$$),
('22023', $$SELECT bench.add_target('t', 'host=127.0.0.1', password => '')$$),
('22001', $$SELECT bench.add_target('t', 'host=' || repeat('h', 9000))$$),
('22001', $$SELECT bench.add_target('t', 'host=127.0.0.1', password => repeat('p', 1025))$$),
('42622', $$SELECT bench.add_target('t', 'host=127.0.0.1', "user" => repeat('u', 64))$$),
('22023', $$SELECT bench.add_target('t', 'host=127.0.0.1 port=''5432')$$),
('22023', $$SELECT bench.add_target('t', 'no_such_option=1')$$),
('22004', $$SELECT bench.add_target(NULL, 'host=127.0.0.1')$$),
('42704', $$SELECT bench.drop_target('no such target')$$),
('42704', $$SELECT bench.check_target('no such target')$$),
-- schedules
('22023', $$SELECT bench.schedule('bad name!', '0 3 * * *', 'tpcb')$$),
('22023', $$SELECT bench.schedule(repeat('s', 64), '0 3 * * *', 'tpcb')$$),
('22004', $$SELECT bench.schedule(NULL, '0 3 * * *', 'tpcb')$$),
('22023', $$SELECT bench.schedule(repeat('s', 1000000), '0 3 * * *', 'tpcb')$$),
('22023', $$SELECT bench.schedule('s', '61 * * * *', 'tpcb')$$),
('22001', $$SELECT bench.schedule('s', repeat('* ', 200), 'tpcb')$$),
('22023', $$SELECT bench.schedule('s', '0 3 * * *', 'tpcb', clients => '{0}')$$),
('22023', $$SELECT bench.schedule('s', '0 3 * * *', 'no such workload')$$),
('42704', $$SELECT bench.unschedule('no such schedule')$$),
('P0002', $$SELECT bench.chart_schedule('no such schedule')$$);

-- every call, with what it gave: the SQLSTATE it must give, and the
-- message (cut at 100 characters)
SELECT h.n, h.want, t.code AS got, left(t.message, 100) AS message
  FROM hostile h, LATERAL pg_temp.try(h.call) t
 ORDER BY h.n;

-- the calls that did not give their SQLSTATE (none)
SELECT h.n, h.call, h.want, t.code, t.message
  FROM hostile h, LATERAL pg_temp.try(h.call) t
 WHERE t.code IS DISTINCT FROM h.want;

SELECT count(*) >= 60 AS at_least_60_calls FROM hostile;

-- the functions that refuse to run inside a transaction block, called on
-- their own
SELECT bench.init('tpcb', target => 'no such target');
SELECT :'LAST_ERROR_SQLSTATE' AS sqlstate;
SELECT bench.init('tpcb', scale => 0, jobs => 100000);
SELECT :'LAST_ERROR_SQLSTATE' AS sqlstate;
SELECT bench.wait(9223372036854775807);
SELECT :'LAST_ERROR_SQLSTATE' AS sqlstate;
SELECT bench.wait(NULL);
SELECT :'LAST_ERROR_SQLSTATE' AS sqlstate;
SELECT bench.wait_suite(-1);
SELECT :'LAST_ERROR_SQLSTATE' AS sqlstate;
SELECT bench.run_schedule('no such schedule');
SELECT :'LAST_ERROR_SQLSTATE' AS sqlstate;
SELECT bench.run_schedule(repeat('s', 100000));
SELECT :'LAST_ERROR_SQLSTATE' AS sqlstate;

-- nothing changed, nothing started, the server still up (and not restarted)
SELECT b.relation, b.rows AS rows_before, a.rows AS rows_after
  FROM before b FULL JOIN pg_temp.digest() a USING (relation)
 WHERE a.digest IS DISTINCT FROM b.digest OR a.rows IS DISTINCT FROM b.rows;
SELECT count(*) AS new_workers FROM pg_stat_activity
 WHERE backend_type LIKE 'pgbenchkit%' AND pid NOT IN (SELECT pid FROM workers_before);
SELECT pg_postmaster_start_time() = at AS same_server FROM started;
