--
-- bench.set_node: this database as a node of a fleet of drivers, its name
-- and number set once; the ids drawn from then on in the number's range,
-- and each run and suite recording its node.  Last of the schedule: the
-- ids of the runs after it are in node 3's range.
--
SELECT count(*) AS nodes FROM bench.node;

-- before: a run's id is below every range, its node's name and number
-- unknown, its host and cluster known
SELECT id < (1::bigint << 40) AS below_every_range, node_name, node_number,
       node_host IS NOT NULL AND node_host <> '' AS has_host,
       node_system_identifier = (SELECT c.system_identifier::text FROM pg_control_system() c) AS this_cluster
  FROM bench.run(script => 'SELECT 1', transactions => 5, progress => '0', prewarm => false);

-- bad input: nothing is set
SELECT bench.set_node(NULL, 1);
SELECT bench.set_node('aws-1', NULL);
SELECT bench.set_node('', 1);
SELECT bench.set_node('aws 1', 1);
SELECT bench.set_node('-aws', 1);
SELECT bench.set_node(repeat('a', 64), 1);
SELECT bench.set_node('aws-1', 0);
SELECT bench.set_node('aws-1', 8388607);
SELECT count(*) AS nodes FROM bench.node;

-- ------------------------------------------------------------ bench.subscribe
-- errors as rows: SQLSTATE, message, hint, and whether any of them or the
-- detail shows the password of the connection string ("secret"), for the
-- refusals made before the check of transaction blocks (an exception block
-- is a subtransaction: bench.subscribe refuses it as a transaction block);
-- the others are called on their own, their SQLSTATE read after each
CREATE FUNCTION pg_temp.error_of(query text,
    OUT state text, OUT message text, OUT hint text, OUT shows_secret boolean)
LANGUAGE plpgsql AS $$
DECLARE
    detail text;
BEGIN
    EXECUTE query;
    state := 'none';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT,
                            detail = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
    shows_secret := concat(message, detail, hint) LIKE '%secret%';
END
$$;

-- bad input, refused before anything
SELECT * FROM pg_temp.error_of($$SELECT bench.subscribe(NULL, 'host=/nonexistent dbname=bk')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.subscribe('aws_1', NULL)$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.subscribe('aws_1', 'host=/nonexistent dbname=bk', NULL)$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.subscribe('aws_1', 'host=/nonexistent dbname=bk', 'pgbenchkit', NULL)$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.subscribe('aws_1', '')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.subscribe('AWS-1', 'host=/nonexistent dbname=bk')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.subscribe('aws_1', 'hots=/nonexistent')$$);
-- libpq's message would quote the password: left out
SELECT * FROM pg_temp.error_of($$SELECT bench.subscribe('aws_1', 'postgresql://u:sec%zzret@h/bk')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.subscribe('aws_1', 'host=/nonexistent password=secret dbname')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.unsubscribe(NULL)$$);
-- the slot on the driver is made at once: no transaction block
BEGIN;
SELECT bench.subscribe('aws_1', 'host=/nonexistent dbname=bk password=secret');
ROLLBACK;
SELECT :'LAST_ERROR_SQLSTATE' AS sqlstate;
BEGIN;
SELECT bench.unsubscribe('aws_1');
ROLLBACK;
SELECT :'LAST_ERROR_SQLSTATE' AS sqlstate;
-- a central database that is not a node yet
SELECT bench.subscribe('aws_1', 'host=/nonexistent dbname=bk password=secret');
SELECT :'LAST_ERROR_SQLSTATE' AS sqlstate;
SELECT count(*) AS subscriptions FROM pg_subscription;

-- set: the node, and the ranges of the sequences
SELECT name, number, set_by = current_user AS by_me,
       system_identifier = (SELECT c.system_identifier::text FROM pg_control_system() c) AS this_cluster
  FROM bench.set_node('aws-1', 3);
SELECT sequencename, min_value = (3::bigint << 40) AS from_range,
       max_value = (4::bigint << 40) - 1 AS to_range
  FROM pg_sequences WHERE schemaname = 'bench' ORDER BY sequencename;

-- the same again: nothing changes; another name or number: refused
SELECT name, number FROM bench.set_node('aws-1', 3);
SELECT bench.set_node('aws-2', 3);
SELECT bench.set_node('aws-1', 4);
SELECT name, number FROM bench.node;

-- after: runs and suites carry the node, their ids in its range
SELECT id >= (3::bigint << 40) AND id < (4::bigint << 40) AS in_range, node_name, node_number,
       node_system_identifier = (SELECT c.system_identifier::text FROM pg_control_system() c) AS this_cluster
  FROM bench.run(script => 'SELECT 1', transactions => 5, progress => '0', prewarm => false);
SET client_min_messages = warning;
SELECT DISTINCT suite_id AS node_suite
  FROM bench.sweep(script => 'SELECT 1', clients => '{1}', repeat => 1, transactions => 5,
                   progress => '0', prewarm => false) \gset
RESET client_min_messages;
SELECT s.id >= (3::bigint << 40) AND s.id < (4::bigint << 40) AS in_range, s.node_name, s.node_number,
       bool_and(r.node_name = 'aws-1' AND r.id > s.id) AS runs_too
  FROM bench.suites s
  JOIN bench.runs r ON r.suite_id = s.id
 WHERE s.id = :node_suite
 GROUP BY s.id, s.node_name, s.node_number;

-- a run and a suite of another node, as a fleet's central database
-- receives them: they show the status their node last wrote, 'running',
-- never judged dead here (this database holds no lock for them); a run of
-- this node whose coordinator is gone is aborted
INSERT INTO bench._runs (id, workload, clients, protocol, warmup, progress, max_tries, status,
                         created_by, node_name, node_number)
VALUES ((5::bigint << 40) + 7, 'tpcb', 4, 'prepared', '0', '5 s', 1, 'running', current_user, 'gcp-1', 5),
       ((3::bigint << 40) + 999999, 'tpcb', 4, 'prepared', '0', '5 s', 1, 'running', current_user, 'aws-1', 3);
INSERT INTO bench._suites (id, workload, clients, repeat, run_order, args, search_path, runs_planned,
                           status, created_by, node_name, node_number)
VALUES ((5::bigint << 40) + 8, 'tpcb', '{4}', 1, 'interleaved', '{}', 'public', 1, 'running', current_user, 'gcp-1', 5);
SELECT id >> 40 AS node, id - (id >> 40 << 40) AS local_id, node_name, status FROM bench.runs
 WHERE id IN ((5::bigint << 40) + 7, (3::bigint << 40) + 999999) ORDER BY id;
SELECT id >> 40 AS node, node_name, status FROM bench.suites WHERE id = (5::bigint << 40) + 8;
SELECT id >> 40 AS node, id - (id >> 40 << 40) AS local_id FROM bench.runs_in_progress
 WHERE id IN ((5::bigint << 40) + 7, (3::bigint << 40) + 999999);
-- the recovery of dead runs, which a bench call makes first, records this
-- node's as aborted and leaves the other node's as they are
SELECT status FROM bench.run(script => 'SELECT 1', transactions => 1, progress => '0', prewarm => false);
SELECT id >> 40 AS node, id - (id >> 40 << 40) AS local_id, status FROM bench._runs
 WHERE id IN ((5::bigint << 40) + 7, (3::bigint << 40) + 999999) ORDER BY id;
SELECT status FROM bench._suites WHERE id = (5::bigint << 40) + 8;
DELETE FROM bench._suites WHERE id = (5::bigint << 40) + 8;
DELETE FROM bench._runs WHERE id IN ((5::bigint << 40) + 7, (3::bigint << 40) + 999999);

-- comparisons across nodes, as a central database holds them: a target of
-- one name on two nodes is two targets.  Runs of tag node-cmp: on rds of
-- aws-1 (node 3) at 100 and 110 tps, on rds of gcp-1 (node 5) at 200 and
-- 220, and on aws-1's own server (no target) at 50
INSERT INTO bench._runs (id, workload, clients, protocol, warmup, progress, max_tries, status,
                         created_by, node_name, node_number, target, server_version, tag, tps, started_at)
VALUES ((3::bigint << 40) + 900001, 'tpcb', 4, 'prepared', '0', '5 s', 1, 'done', current_user, 'aws-1', 3,
        'rds', '16.4', 'node-cmp', 100, '2024-01-01 00:00:01+00'),
       ((5::bigint << 40) + 900001, 'tpcb', 4, 'prepared', '0', '5 s', 1, 'done', current_user, 'gcp-1', 5,
        'rds', '16.4', 'node-cmp', 200, '2024-01-01 00:00:02+00'),
       ((3::bigint << 40) + 900002, 'tpcb', 4, 'prepared', '0', '5 s', 1, 'done', current_user, 'aws-1', 3,
        'rds', '16.4', 'node-cmp', 110, '2024-01-01 00:00:03+00'),
       ((5::bigint << 40) + 900002, 'tpcb', 4, 'prepared', '0', '5 s', 1, 'done', current_user, 'gcp-1', 5,
        'rds', '16.4', 'node-cmp', 220, '2024-01-01 00:00:04+00'),
       ((3::bigint << 40) + 900003, 'tpcb', 4, 'prepared', '0', '5 s', 1, 'done', current_user, 'aws-1', 3,
        NULL, '16.4', 'node-cmp', 50, '2024-01-01 00:00:05+00');
SELECT (3::bigint << 40) + 900001 AS a1, (3::bigint << 40) + 900002 AS a2, (3::bigint << 40) + 900003 AS a3,
       (5::bigint << 40) + 900001 AS g1, (5::bigint << 40) + 900002 AS g2 \gset
-- bench.compare_many: three configurations, each target named with its
-- node (the runs come from two), the node in a column of its own; rds of
-- gcp-1 twice as fast as rds of aws-1, ranges apart: an improvement
SELECT config_no, configuration, target, node, column_label, run_count, run_ids,
       tps_median, tps_min, tps_max, round(relative::numeric, 6) AS relative,
       round(noise_pct::numeric, 4) AS noise_pct, verdict
  FROM bench.compare_many(tag => 'node-cmp');
-- targets => names targets: rds matches the rds of every node, each a
-- configuration of its own
SELECT config_no, configuration, node, run_count, verdict FROM bench.compare_many(targets => '{rds}');
-- the base: a label, or a node or target that names one configuration
SELECT config_no, configuration, relative, verdict
  FROM bench.compare_many(targets => '{rds}', base => 'rds @ gcp-1');
SELECT config_no, configuration, relative, verdict
  FROM bench.compare_many(targets => '{rds}', base => 'gcp-1');
\set SHOW_CONTEXT never
SELECT * FROM bench.compare_many(tag => 'node-cmp', base => 'rds');
SELECT * FROM bench.compare_many(tag => 'node-cmp', base => 'aws-1');
\set SHOW_CONTEXT errors
-- the Markdown table's lines are the configurations' labels
SELECT * FROM bench.compare_many_table(tag => 'node-cmp');
-- runs of one node: their labels name only what differs (the target), the
-- node column names the node; one configuration is named by where it ran
SELECT config_no, configuration, target, node FROM bench.compare_many(runs => ARRAY[:a1, :a3]);
SELECT config_no, configuration, target, node FROM bench.compare_many(runs => ARRAY[:g1, :g2]);
-- runs without a node (made before it was set) are named as ever; beside
-- a run of the node, the node tells them apart
SELECT max(id) AS pre FROM bench.runs WHERE node_name IS NULL AND id < (1::bigint << 40) \gset
SELECT min(id) AS post FROM bench.runs WHERE node_name = 'aws-1' AND suite_id IS NULL AND workload = '(script)' \gset
SELECT config_no, configuration, target, node, column_label, run_count FROM bench.compare_many(runs => ARRAY[:pre]);
SELECT config_no, configuration, target, node, column_label, run_count FROM bench.compare_many(runs => ARRAY[:pre, :post]);

-- bench.chart_runs: the legend names each run's target with its node
-- where the runs come from two nodes; the title names what they share,
-- the node too (wide enough for the whole title)
CREATE FUNCTION pg_temp.legend_and_title(svg text, OUT legend text, OUT title text) LANGUAGE sql AS $$
SELECT regexp_replace(regexp_replace(svg, '^.*<g class="legend"[^>]*>(.*?)</g>.*$', '\1'), '(<[^>]*>|\n)+', ' / ', 'g'),
       (regexp_match(svg, '<text[^>]*class="title"[^>]*>([^<]*)</text>'))[1]
$$;
SELECT * FROM pg_temp.legend_and_title(bench.chart_runs(ARRAY[:a1, :g1], width => 1200));
SELECT * FROM pg_temp.legend_and_title(bench.chart_runs(ARRAY[:a1, :a3], width => 1200));
SELECT * FROM pg_temp.legend_and_title(bench.chart_runs(ARRAY[:a1, :a2], width => 1200));

-- bench.compare of runs of two nodes: the node differs (a row of its own)
-- and a warning says so, as for runs of two targets
SELECT metric, a_value, b_value, verdict FROM bench.compare(:a1, :g1) WHERE section = 'parameter';

-- bench.relative_throughput, relative_table and chart_relative: each run
-- named with its node
SELECT id - (id >> 40 << 40) AS local_id, label, round(relative::numeric, 2) AS relative
  FROM bench.relative_throughput(:a1, ARRAY[:g1, :a3]);
SET client_min_messages = error;
SELECT * FROM bench.relative_table(:a1, ARRAY[:g1]);
SELECT regexp_count(bench.chart_relative(:a1, ARRAY[:g1]), 'node-cmp \(run [0-9]+ @ (aws|gcp)-1\)') > 0 AS legend_names_nodes;
RESET client_min_messages;

-- bench.chart_suite: its subtitle names the suite's node
SELECT (regexp_match(bench.chart_suite(:node_suite), '<text[^>]*class="subtitle"[^>]*>[^<]*(node [^<,]*)</text>'))[1] AS subtitle_node;
DELETE FROM bench._runs WHERE id IN (:a1, :a2, :a3, :g1, :g2);

-- who may set it: not everyone
-- a driver that cannot be reached (08001): libpq's reason, but never the
-- password; nothing is made
SELECT bench.subscribe('aws_1', 'host=/nonexistent/socket port=5999 dbname=bk user=fleet password=secret connect_timeout=5');
SELECT :'LAST_ERROR_SQLSTATE' AS sqlstate;
SELECT bench.subscribe('aws_1', 'postgresql://fleet:secret@:5999/bk?host=/nonexistent/socket');
SELECT :'LAST_ERROR_SQLSTATE' AS sqlstate;
SELECT (SELECT count(*) FROM pg_subscription) AS subscriptions,
       (SELECT count(*) FROM bench.subscriptions) AS recorded;
-- this database as its own driver (it is one: pgbenchkit, a node): first
-- without the publication (42704), then with it: its number is this
-- database's own (23505); nothing is made
SELECT format('host=%s port=%s dbname=%s', split_part(current_setting('unix_socket_directories'), ',', 1),
              current_setting('port'), current_database()) AS self_conn \gset
SELECT bench.subscribe('self', :'self_conn');
SELECT :'LAST_ERROR_SQLSTATE' AS sqlstate;
SET client_min_messages = error;
SELECT bench.publish();
RESET client_min_messages;
SELECT bench.subscribe('self', :'self_conn');
SELECT :'LAST_ERROR_SQLSTATE' AS sqlstate;
SELECT (SELECT count(*) FROM pg_subscription) AS subscriptions,
       (SELECT count(*) FROM bench.subscriptions) AS recorded,
       (SELECT count(*) FROM pg_replication_slots) AS slots;
DROP PUBLICATION pgbenchkit;
-- bench.unsubscribe: a subscription that does not exist, and one not made
-- by bench.subscribe (left as it is)
SELECT bench.unsubscribe('aws_1');
SELECT :'LAST_ERROR_SQLSTATE' AS sqlstate;
SET client_min_messages = error;
CREATE SUBSCRIPTION plain_sub CONNECTION 'host=/nonexistent/socket dbname=bk' PUBLICATION pgbenchkit
    WITH (connect = false, slot_name = NONE);
RESET client_min_messages;
SELECT bench.unsubscribe('plain_sub');
SELECT :'LAST_ERROR_SQLSTATE' AS sqlstate;
SELECT subname FROM pg_subscription;
DROP SUBSCRIPTION plain_sub;

-- who may set it, subscribe and unsubscribe: not everyone
CREATE ROLE node_nobody;
SET ROLE node_nobody;
SELECT bench.set_node('aws-1', 3);
SELECT bench.subscribe('aws_1', 'host=/nonexistent/socket dbname=bk');
SELECT bench.unsubscribe('aws_1');
RESET ROLE;
DROP ROLE node_nobody;
