--
-- Export and import: flat views for CSV, and runs and suites as jsonb
-- documents that another server imports under new ids
--
SET search_path = runs, public;
\set SHOW_CONTEXT never

-- errors as rows: SQLSTATE, message (the ids of this test's runs and the
-- system identifier by name) and hint
CREATE FUNCTION pg_temp.error_of(query text, ids jsonb DEFAULT '{}')
RETURNS TABLE (state text, message text, hint text)
LANGUAGE plpgsql AS $$
DECLARE
    k text;
    v text;
BEGIN
    EXECUTE query;
    state := 'no error';
    RETURN NEXT;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
    FOR k, v IN SELECT * FROM jsonb_each_text(ids) LOOP
        message := regexp_replace(message, '\m' || v || '\M', k, 'g');
        hint := regexp_replace(hint, '\m' || v || '\M', k, 'g');
    END LOOP;
    RETURN NEXT;
END
$$;

-- a document less what differs from one export to the other: ids, where
-- and when it was exported, origins; a row's run is its run's position
CREATE FUNCTION pg_temp.normalized(d jsonb) RETURNS jsonb
LANGUAGE sql AS $$
    WITH pos AS (SELECT r->>'id' AS id, n FROM jsonb_array_elements(d->'runs') WITH ORDINALITY AS x (r, n))
    SELECT d - ARRAY['id', 'exported_at', 'system_identifier', 'server_version', 'server_version_num',
                     'pgbenchkit_version']
           || jsonb_build_object(
                  'suite', CASE WHEN jsonb_typeof(d->'suite') = 'object'
                                THEN (d->'suite') - ARRAY['id', 'worker_pid', 'origin'] END,
                  'runs', (SELECT jsonb_agg(r - ARRAY['id', 'suite_id', 'dataset_id', 'coordinator_pid', 'origin']
                                            ORDER BY n)
                             FROM jsonb_array_elements(d->'runs') WITH ORDINALITY AS x (r, n)))
           || (SELECT jsonb_object_agg(t, (SELECT COALESCE(jsonb_agg(e || jsonb_build_object('run_id', pos.n)
                                                                     ORDER BY i), '[]')
                                             FROM jsonb_array_elements(d->t) WITH ORDINALITY AS y (e, i)
                                             JOIN pos ON pos.id = e->>'run_id'))
                 FROM unnest(ARRAY['progress', 'histograms', 'samples', 'relation_sizes', 'prewarms',
                                   'run_scripts', 'command_latencies']) t)
$$;

SELECT system_identifier AS sysid FROM pg_control_system() \gset
SET client_min_messages = warning;
SELECT id AS r1 FROM bench.run('tpcb', clients => 2, transactions => 150, progress => '0') \gset
SELECT id AS r2 FROM bench.run('tpcb', clients => 2, transactions => 100, progress => '0') \gset
SELECT id AS r3 FROM bench.run('tpcb', clients => 1, transactions => 100, progress => '0') \gset
RESET client_min_messages;

--
-- The views, for \copy (SELECT * FROM bench.export_runs) TO 'runs.csv' CSV HEADER
--
SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod) AS type
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
 WHERE c.oid IN ('bench.export_runs'::regclass, 'bench.export_progress'::regclass, 'bench.export_suites'::regclass)
   AND a.attnum > 0
 ORDER BY c.relname, a.attnum;
-- CSV headers
COPY (SELECT * FROM bench.export_runs LIMIT 0) TO STDOUT WITH (FORMAT csv, HEADER);
COPY (SELECT * FROM bench.export_progress LIMIT 0) TO STDOUT WITH (FORMAT csv, HEADER);
COPY (SELECT * FROM bench.export_suites LIMIT 0) TO STDOUT WITH (FORMAT csv, HEADER);

-- a run's row is its row of bench.runs with its counters
SELECT e.workload, e.scale, e.clients, e.protocol, e.duration_s, e.transactions_per_client, e.status,
       e.suite_id, e.tag, e.started_at = r.started_at AND e.ended_at = r.ended_at AS times,
       e.transactions = r.transactions AND e.tps = r.tps AND e.measured_s = r.measured_s AS summary,
       e.latency_avg_ms = r.latency_avg_ms AND e.latency_stddev_ms = r.latency_stddev_ms
         AND e.latency_min_ms = r.latency_min_ms AND e.latency_p50_ms = r.latency_p50_ms
         AND e.latency_p90_ms = r.latency_p90_ms AND e.latency_p95_ms = r.latency_p95_ms
         AND e.latency_p99_ms = r.latency_p99_ms AND e.latency_p999_ms = r.latency_p999_ms
         AND e.latency_max_ms = r.latency_max_ms AS latency,
       e.failures, e.retries,
       e.wal_bytes_per_tx = k.wal_bytes_per_tx AND e.wal_fpi_per_tx = k.wal_fpi_per_tx
         AND e.checkpoints = k.checkpoints_timed + k.checkpoints_requested
         AND e.blks_read_per_tx = k.blks_read_per_tx AND e.cache_hit_ratio = k.cache_hit_ratio
         AND e.server_cpu_ms_per_tx = k.server_cpu_ms_per_tx AS counters
  FROM bench.export_runs e JOIN bench.runs r USING (id) JOIN bench.run_counters k ON k.run_id = r.id
 WHERE e.id = :r1;
SELECT count(*) = (SELECT count(*) FROM bench.progress WHERE run_id = :r1) AS all_progress_rows,
       bool_and(e.tps = p.tps AND e.elapsed_s = p.elapsed_s AND e.in_warmup = p.in_warmup) AS same
  FROM bench.export_progress e JOIN bench.progress p ON p.run_id = e.run_id AND p.elapsed_s = e.elapsed_s
 WHERE e.run_id = :r1;

-- a suite of r2 and r3 (its row as bench.sweep fills it): one row per
-- client count, as bench.suite_summary
INSERT INTO bench.suites
SELECT * FROM jsonb_populate_record(NULL::bench.suites, jsonb_build_object(
    'id', nextval('bench.runs_id_seq'), 'workload', 'tpcb', 'clients', '{2,1}'::int[], 'repeat', 1,
    'run_order', 'interleaved', 'args', '{"transactions": 100}'::jsonb, 'tag', 'exported',
    'search_path', current_setting('search_path'), 'runs_planned', 2, 'status', 'done',
    'created_by', current_user, 'server_version', current_setting('server_version'),
    'started_at', clock_timestamp(), 'ended_at', clock_timestamp()))
RETURNING id AS s1 \gset
UPDATE bench.runs SET suite_id = :s1 WHERE id IN (:r2, :r3);
SELECT e.suite_id = :s1 AS suite, e.schedule, e.tag, e.workload, e.clients, e.runs_done, e.runs_planned,
       e.tps_median = r.tps AND e.tps_min = r.tps AND e.tps_max = r.tps AS tps,
       e.latency_p95_ms_median = r.latency_p95_ms AND e.latency_p99_ms_median = r.latency_p99_ms AS latency
  FROM bench.export_suites e JOIN bench.runs r ON r.suite_id = e.suite_id AND r.clients = e.clients
 WHERE e.suite_id = :s1 ORDER BY e.clients;

--
-- bench.export: a run as a document
--
CREATE TEMP TABLE docs (name text PRIMARY KEY, doc jsonb NOT NULL);
INSERT INTO docs SELECT 'r1', bench.export(:r1);
SELECT array_agg(k ORDER BY k) AS keys FROM docs, jsonb_object_keys(doc) k WHERE name = 'r1';
SELECT doc->>'format' AS format, doc->'format_version' AS format_version, doc->>'kind' AS kind,
       (doc->>'id')::bigint = :r1 AS id, doc->>'system_identifier' = :'sysid' AS system_identifier,
       doc->>'server_version' = current_setting('server_version') AS server_version,
       (doc->>'server_version_num')::int = current_setting('server_version_num')::int AS server_version_num,
       (doc->>'exported_at')::timestamptz <= now() AS exported_at,
       doc->>'pgbenchkit_version' AS pgbenchkit_version, doc->'suite' AS suite
  FROM docs WHERE name = 'r1';
-- every row of the run, every column (intervals as export writes them)
SET intervalstyle = 'postgres';
SELECT jsonb_array_length(doc->'runs') AS runs,
       doc->'runs'->0 = to_jsonb(r) AS run_row,
       jsonb_array_length(doc->'progress') = (SELECT count(*) FROM bench.progress WHERE run_id = :r1) AS progress,
       jsonb_array_length(doc->'histograms') = (SELECT count(*) FROM bench.histograms WHERE run_id = :r1) AS histograms,
       jsonb_array_length(doc->'samples') = (SELECT count(*) FROM bench.samples WHERE run_id = :r1) AS samples,
       jsonb_array_length(doc->'relation_sizes') = (SELECT count(*) FROM bench.relation_sizes WHERE run_id = :r1) AS sizes,
       jsonb_array_length(doc->'prewarms') = (SELECT count(*) FROM bench.prewarms WHERE run_id = :r1) AS prewarms,
       jsonb_array_length(doc->'histograms') > 0 AND jsonb_array_length(doc->'samples') >= 2
         AND jsonb_array_length(doc->'relation_sizes') > 0 AND jsonb_array_length(doc->'prewarms') > 0 AS not_empty
  FROM docs, bench.runs r WHERE name = 'r1' AND r.id = :r1;
RESET intervalstyle;

--
-- bench.import: the run under a new id, where it came from in origin
--
SELECT bench.import(doc) AS c1 FROM docs WHERE name = 'r1' \gset
SELECT c.id > :r1 AS new_id, c.dataset_id, c.coordinator_pid, c.suite_id, c.status,
       r.dataset_id IS NOT NULL AS original_had_dataset,
       (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(c.origin) k) AS origin_keys,
       (c.origin->>'id')::bigint = :r1 AS origin_id,
       c.origin->>'system_identifier' = :'sysid' AS origin_system,
       c.origin->>'server_version' = current_setting('server_version') AS origin_version,
       c.origin->'exported_at' = d.doc->'exported_at' AS origin_exported_at
  FROM bench.runs c, bench.runs r, docs d
 WHERE c.id = :c1 AND r.id = :r1 AND d.name = 'r1';
-- the same values, exactly, in every table
SELECT (to_jsonb(c) - ARRAY['id', 'dataset_id', 'coordinator_pid', 'origin'])
       = (to_jsonb(r) - ARRAY['id', 'dataset_id', 'coordinator_pid', 'origin']) AS run_row,
       (r.tps, r.latency_avg_ms, r.latency_p99_ms, r.measured_s, r.started_at, r.duration, r.settings, r.host)
       IS NOT DISTINCT FROM (c.tps, c.latency_avg_ms, c.latency_p99_ms, c.measured_s, c.started_at, c.duration,
                             c.settings, c.host) AS exact
  FROM bench.runs c, bench.runs r WHERE c.id = :c1 AND r.id = :r1;
SELECT (SELECT count(*) FROM (SELECT interval_start, interval_end, elapsed_s, transactions, tps, latency_avg_ms,
                                     latency_stddev_ms, latency_p99_ms, latency_max_ms, failures, retries, in_warmup
                                FROM bench.progress WHERE run_id = :r1
                              EXCEPT
                              SELECT interval_start, interval_end, elapsed_s, transactions, tps, latency_avg_ms,
                                     latency_stddev_ms, latency_p99_ms, latency_max_ms, failures, retries, in_warmup
                                FROM bench.progress WHERE run_id = :c1) x) AS progress_lost,
       (SELECT count(*) FROM (SELECT lower_ms, upper_ms, count FROM bench.histograms WHERE run_id = :r1
                              EXCEPT SELECT lower_ms, upper_ms, count FROM bench.histograms WHERE run_id = :c1) x) AS histogram_lost,
       (SELECT count(*) FROM (SELECT sample_no, phase, taken_at, elapsed_s, data FROM bench.samples WHERE run_id = :r1
                              EXCEPT SELECT sample_no, phase, taken_at, elapsed_s, data FROM bench.samples WHERE run_id = :c1) x) AS samples_lost,
       (SELECT count(*) FROM (SELECT phase, relid, relation, kind, table_name, main_bytes, toast_bytes, indexes_bytes, total_bytes
                                FROM bench.relation_sizes WHERE run_id = :r1
                              EXCEPT SELECT phase, relid, relation, kind, table_name, main_bytes, toast_bytes, indexes_bytes, total_bytes
                                FROM bench.relation_sizes WHERE run_id = :c1) x) AS sizes_lost,
       (SELECT count(*) FROM (SELECT relid, relation, kind, blocks, seconds FROM bench.prewarms WHERE run_id = :r1
                              EXCEPT SELECT relid, relation, kind, blocks, seconds FROM bench.prewarms WHERE run_id = :c1) x) AS prewarms_lost,
       (SELECT count(*) FROM bench.progress WHERE run_id = :c1) = (SELECT count(*) FROM bench.progress WHERE run_id = :r1)
       AND (SELECT count(*) FROM bench.samples WHERE run_id = :c1) = (SELECT count(*) FROM bench.samples WHERE run_id = :r1) AS counts;
-- round trip: the copy exported again is the same document but for ids
-- and origin, whatever the session's float and interval output settings
SET extra_float_digits = 0;
SET intervalstyle = 'sql_standard';
SELECT pg_temp.normalized(bench.export(:c1)) = pg_temp.normalized(doc) AS round_trip,
       bench.export(:c1)->'runs'->0->'origin'->'id' = to_jsonb(:r1) AS origin_exported
  FROM docs WHERE name = 'r1';
RESET extra_float_digits;
RESET intervalstyle;
-- and compares as the same run
SELECT DISTINCT section, verdict FROM bench.compare(:r1, :c1) ORDER BY 1, 2;

-- once only: the same document again is refused, and so is the run in a
-- suite's document
SELECT * FROM pg_temp.error_of(format('SELECT bench.import(doc) FROM docs WHERE name = %L', 'r1'),
                               jsonb_build_object('r1', :r1, 'c1', :c1, 'sysid', :'sysid'));

--
-- A suite: its row and all its runs, imported as a new suite of new runs
--
INSERT INTO docs SELECT 's1', bench.export(:s1);
SELECT doc->>'kind' AS kind, (doc->>'id')::bigint = :s1 AS id,
       (doc->'suite') - 'origin' = to_jsonb(s) - 'origin' AS suite_row,
       jsonb_array_length(doc->'runs') AS runs,
       (SELECT array_agg((r->>'id')::bigint ORDER BY (r->>'id')::bigint) FROM jsonb_array_elements(doc->'runs') r)
         = ARRAY[:r2, :r3]::bigint[] AS its_runs,
       (SELECT count(DISTINCT x->>'run_id') FROM jsonb_array_elements(doc->'samples') x) AS runs_with_samples
  FROM docs, bench.suites s WHERE name = 's1' AND s.id = :s1;
SELECT bench.import(doc) AS s2 FROM docs WHERE name = 's1' \gset
SELECT s.id > :s1 AS new_id, s.status, s.clients, s.worker_pid,
       (s.origin->>'id')::bigint = :s1 AS origin_id,
       (to_jsonb(s) - ARRAY['id', 'worker_pid', 'origin']) = (to_jsonb(o) - ARRAY['id', 'worker_pid', 'origin']) AS same_row,
       (SELECT array_agg((r.origin->>'id')::bigint ORDER BY r.id) FROM bench.runs r WHERE r.suite_id = s.id)
         = ARRAY[:r2, :r3]::bigint[] AS runs_remapped,
       (SELECT bool_and(r.id > :s2 AND r.dataset_id IS NULL) FROM bench.runs r WHERE r.suite_id = s.id) AS new_runs
  FROM bench.suites s, bench.suites o WHERE s.id = :s2 AND o.id = :s1;
SELECT pg_temp.normalized(bench.export(:s2)) = pg_temp.normalized(doc) AS round_trip
  FROM docs WHERE name = 's1';
SELECT DISTINCT section, verdict FROM bench.compare(:s1, :s2) ORDER BY 1, 2;
SELECT * FROM pg_temp.error_of(format('SELECT bench.import(doc) FROM docs WHERE name = %L', 's1'),
                               jsonb_build_object('s1', :s1, 's2', :s2, 'sysid', :'sysid'));
-- a suite with a run imported before (r1, alone): refused
INSERT INTO bench.suites
SELECT * FROM jsonb_populate_record(NULL::bench.suites, jsonb_build_object(
    'id', nextval('bench.runs_id_seq'), 'workload', 'tpcb', 'clients', '{2}'::int[], 'repeat', 1,
    'run_order', 'interleaved', 'args', '{}'::jsonb, 'search_path', current_setting('search_path'),
    'runs_planned', 1, 'status', 'done', 'created_by', current_user,
    'server_version', current_setting('server_version'), 'started_at', clock_timestamp()))
RETURNING id AS s3 \gset
UPDATE bench.runs SET suite_id = :s3 WHERE id = :r1;
SELECT * FROM pg_temp.error_of(format('SELECT bench.import(bench.export(%s))', :s3),
                               jsonb_build_object('r1', :r1, 'c1', :c1, 'sysid', :'sysid'));
UPDATE bench.runs SET suite_id = NULL WHERE id = :r1;
DELETE FROM bench.suites WHERE id = :s3;

--
-- Bad documents: refused, and nothing of them is left
--
SELECT (SELECT count(*) FROM bench.runs) AS runs_before, (SELECT count(*) FROM bench.suites) AS suites_before,
       (SELECT count(*) FROM bench.progress) AS progress_before, (SELECT count(*) FROM bench.samples) AS samples_before \gset
DELETE FROM docs WHERE name = 's1';
INSERT INTO docs SELECT 's1', bench.export(:s1) || '{"system_identifier": "123"}';
SELECT * FROM pg_temp.error_of('SELECT bench.import(NULL)');
SELECT * FROM pg_temp.error_of($$SELECT bench.import('{}')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.import('[1, 2]')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.import('"pgbenchkit export"')$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.import(doc || '{"format": "pgbench"}') FROM docs WHERE name = 's1'$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.import(doc || '{"format_version": 2}') FROM docs WHERE name = 's1'$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.import(doc - 'format_version') FROM docs WHERE name = 's1'$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.import(doc - 'samples' - 'histograms') FROM docs WHERE name = 's1'$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.import(doc || '{"runs": null}') FROM docs WHERE name = 's1'$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.import(doc || '{"kind": "dataset"}') FROM docs WHERE name = 's1'$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.import(doc || '{"progress": {}}') FROM docs WHERE name = 's1'$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.import(doc || '{"kind": "run"}') FROM docs WHERE name = 's1'$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.import(doc - 'suite') FROM docs WHERE name = 's1'$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.import(jsonb_set(doc, '{runs,0,status}', '"running"')) FROM docs WHERE name = 's1'$$);
-- values that do not fit, found after the suite and some rows went in:
-- none of them stays
SELECT * FROM pg_temp.error_of($$SELECT bench.import(jsonb_set(doc, '{runs,1,tps}', '"fast"')) FROM docs WHERE name = 's1'$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.import(jsonb_set(doc, '{runs,1}', (doc->'runs'->1) - 'workload')) FROM docs WHERE name = 's1'$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.import(jsonb_set(doc, '{prewarms,0,kind}', '"bogus"')) FROM docs WHERE name = 's1'$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.import(jsonb_set(doc, '{samples,0,run_id}', '1')) FROM docs WHERE name = 's1'$$);
SELECT * FROM pg_temp.error_of($$SELECT bench.import(jsonb_set(doc, '{histograms,1}', doc->'histograms'->0)) FROM docs WHERE name = 's1'$$);
SELECT (SELECT count(*) FROM bench.runs) = :runs_before AND (SELECT count(*) FROM bench.suites) = :suites_before
       AND (SELECT count(*) FROM bench.progress) = :progress_before
       AND (SELECT count(*) FROM bench.samples) = :samples_before AS nothing_imported;
-- the same document, whole, goes in
SELECT bench.import(doc) > :s2 AS imported FROM docs WHERE name = 's1';

--
-- Bad ids to export
--
SELECT * FROM pg_temp.error_of('SELECT bench.export(NULL)');
SELECT * FROM pg_temp.error_of('SELECT bench.export(987654321)');
SELECT bench.start('tpcb', clients => 1, duration => '1 min', progress => '0') AS r4 \gset
SELECT * FROM pg_temp.error_of(format('SELECT bench.export(%s)', :r4), jsonb_build_object('r4', :r4));
SELECT bench.cancel(:r4);
SELECT doc->'runs'->0->>'status' AS status FROM bench.export(:r4) AS doc;

--
-- Privileges: everyone may export and read the views; importing writes
-- the tables, for roles given EXECUTE on bench.import
--
CREATE ROLE bench_exporter;
SELECT has_function_privilege('bench_exporter', 'bench.export(bigint)', 'EXECUTE') AS export,
       has_function_privilege('bench_exporter', 'bench.compare(bigint, bigint, double precision, boolean)', 'EXECUTE') AS compare,
       has_function_privilege('bench_exporter', 'bench.import(jsonb)', 'EXECUTE') AS import,
       has_table_privilege('bench_exporter', 'bench.export_runs', 'SELECT')
         AND has_table_privilege('bench_exporter', 'bench.export_progress', 'SELECT')
         AND has_table_privilege('bench_exporter', 'bench.export_suites', 'SELECT') AS views;
GRANT SELECT ON docs TO bench_exporter;
SET ROLE bench_exporter;
-- the runs of other roles are not its to export
\set VERBOSITY sqlstate
SELECT jsonb_array_length(bench.export(:r1)->'runs') AS exported;
\set VERBOSITY default
SELECT count(*) > 0 AS read FROM bench.export_runs;
RESET ROLE;
GRANT pgbenchkit_admin TO bench_exporter;
SET ROLE bench_exporter;
SELECT jsonb_array_length(bench.export(:r1)->'runs') AS exported;
SELECT count(*) > 0 AS read FROM bench.export_runs;
SELECT * FROM pg_temp.error_of($$SELECT bench.import(doc) FROM docs WHERE name = 's1'$$);
RESET ROLE;
GRANT EXECUTE ON FUNCTION bench.import(jsonb) TO bench_exporter;
DELETE FROM docs WHERE name = 'r1';
INSERT INTO docs SELECT 'r1', bench.export(:r1) || '{"system_identifier": "456"}';
SET ROLE bench_exporter;
SELECT bench.import(doc) AS c5 FROM docs WHERE name = 'r1' \gset
RESET ROLE;
-- an import is the importing role's, whoever ran it
SELECT created_by AS imported_by, origin->>'system_identifier' AS system_identifier
  FROM bench.runs WHERE id = :c5;
REVOKE ALL ON FUNCTION bench.import(jsonb) FROM bench_exporter;
DROP TABLE docs;
DROP ROLE bench_exporter;
