--
-- bench.export: a run or a suite with everything needed to compare it on
-- another server, as one jsonb document: the rows of bench.runs (every
-- column) and of the tables that belong to them, as to_jsonb writes them.
-- Floats are written with every digit and intervals in one style, so that
-- bench.import reads back exactly what was here.
--
CREATE OR REPLACE FUNCTION bench.export(id bigint)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
SET extra_float_digits = 3
SET intervalstyle = 'postgres'
AS $fn$
#variable_conflict use_column
DECLARE
    the_id  bigint := export.id;
    kind    text;
    status  text;
    suite   jsonb;
    run_ids bigint[];
BEGIN
    IF the_id IS NULL THEN
        RAISE EXCEPTION 'id must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give the id of a run (bench.runs) or of a suite (bench.suites).';
    END IF;
    SELECT 'run', (bench._run_state(r)).status INTO kind, status FROM bench.runs r WHERE r.id = the_id;
    IF NOT FOUND THEN
        SELECT 'suite', s.status, to_jsonb(s) INTO kind, status, suite FROM bench.suites s WHERE s.id = the_id;
    END IF;
    IF kind IS NULL THEN
        RAISE EXCEPTION 'run or suite % does not exist', the_id
            USING ERRCODE = 'no_data_found',
                  HINT = 'bench.runs and bench.suites list the runs and suites there are.';
    END IF;
    -- a run still running would arrive as one that never ends
    IF status = 'running' THEN
        RAISE EXCEPTION '% % is still running', kind, the_id
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = CASE WHEN kind = 'run'
                              THEN 'Wait for it to end (bench.wait) or cancel it (bench.cancel), then export it.'
                              ELSE 'Wait for the suite to end, then export it.' END;
    END IF;
    SELECT array_agg(r.id ORDER BY r.id) INTO run_ids
      FROM bench.runs r
     WHERE CASE WHEN kind = 'run' THEN r.id = the_id ELSE r.suite_id = the_id END;

    RETURN jsonb_build_object(
        'format', 'pgbenchkit export',
        'format_version', 1,
        'kind', kind,
        'id', the_id,
        'system_identifier', (SELECT c.system_identifier::text FROM pg_control_system() c),
        'server_version', current_setting('server_version'),
        'server_version_num', current_setting('server_version_num')::integer,
        'pgbenchkit_version', (SELECT e.extversion FROM pg_extension e WHERE e.extname = 'pgbenchkit'),
        'exported_at', now(),
        'suite', suite,
        'runs', COALESCE((SELECT jsonb_agg(to_jsonb(r) ORDER BY r.id)
                            FROM bench.runs r0 CROSS JOIN LATERAL bench._run_state(r0) r
                           WHERE r0.id = ANY (run_ids)), '[]'),
        'progress', COALESCE((SELECT jsonb_agg(to_jsonb(p) ORDER BY p.run_id, p.interval_start)
                                FROM bench.progress p WHERE p.run_id = ANY (run_ids)), '[]'),
        -- an aborted run not yet recorded so: its progress rows' histogram (its stored row
        -- still says running)
        'histograms', COALESCE((SELECT jsonb_agg(to_jsonb(h) ORDER BY h.run_id, h.lower_ms)
                                  FROM (SELECT * FROM bench.histograms h WHERE h.run_id = ANY (run_ids)
                                        UNION ALL
                                        SELECT r.id, p.lower_ms, p.upper_ms, p.count
                                          FROM bench._runs r CROSS JOIN LATERAL bench._progress_histogram(r.id) p
                                         WHERE r.id = ANY (run_ids) AND r.status = 'running') h), '[]'),
        'samples', COALESCE((SELECT jsonb_agg(to_jsonb(s) ORDER BY s.run_id, s.sample_no)
                               FROM bench.samples s WHERE s.run_id = ANY (run_ids)), '[]'),
        'relation_sizes', COALESCE((SELECT jsonb_agg(to_jsonb(z) ORDER BY z.run_id, z.phase, z.relid)
                                      FROM bench.relation_sizes z WHERE z.run_id = ANY (run_ids)), '[]'),
        'prewarms', COALESCE((SELECT jsonb_agg(to_jsonb(w) ORDER BY w.run_id, w.relid)
                                FROM bench.prewarms w WHERE w.run_id = ANY (run_ids)), '[]'),
        'run_scripts', COALESCE((SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.script_no)
                                   FROM bench.run_scripts x WHERE x.run_id = ANY (run_ids)), '[]'),
        'command_latencies', COALESCE((SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.script_no, x.command_no)
                                         FROM bench.command_latencies x WHERE x.run_id = ANY (run_ids)), '[]'),
        'run_groups', COALESCE((SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.group_no)
                                  FROM bench.run_groups x WHERE x.run_id = ANY (run_ids)), '[]'),
        'group_progress', COALESCE((SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.group_no, x.interval_start)
                                      FROM bench.group_progress x WHERE x.run_id = ANY (run_ids)), '[]'),
        'outages', COALESCE((SELECT jsonb_agg(to_jsonb(x) ORDER BY x.run_id, x.client)
                               FROM bench.outages x WHERE x.run_id = ANY (run_ids)), '[]'));
END
$fn$;

COMMENT ON FUNCTION bench.export(bigint) IS
    'A run or a suite as jsonb, with its progress, histograms, samples, sizes, prewarms, scripts, command latencies, groups of clients and the clients'' outages, for bench.import on another server';

GRANT EXECUTE ON FUNCTION bench.export(bigint) TO PUBLIC;
