CREATE OR REPLACE FUNCTION bench._import(document jsonb, owner name)
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
SET intervalstyle = 'postgres'
AS $fn$
DECLARE
    doc         jsonb := _import.document;
    kind        text;
    doc_id      bigint;
    sysid       text;
    missing     text;
    ids         jsonb := '{}';
    new_suite   bigint;
    old         bigint;
    dup         record;
    origin      jsonb;
    err_message text;
BEGIN
    IF doc IS NULL THEN
        RAISE EXCEPTION 'document must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Give a document bench.export made.';
    END IF;

    -- the document: ours, of a version we read, complete
    IF jsonb_typeof(doc) IS DISTINCT FROM 'object' OR doc->>'format' IS DISTINCT FROM 'pgbenchkit export' THEN
        RAISE EXCEPTION 'document is not a pgbenchkit export'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'bench.export(id) makes the documents bench.import reads: a jsonb object whose "format" is "pgbenchkit export".';
    END IF;
    IF doc->'format_version' IS DISTINCT FROM '1'::jsonb THEN
        RAISE EXCEPTION 'pgbenchkit export format version % is not supported', COALESCE(doc->>'format_version', 'null')
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'This version of pgbenchkit reads format version 1.';
    END IF;
    SELECT string_agg(k, ', ' ORDER BY n) INTO missing
      FROM unnest(ARRAY['kind', 'id', 'system_identifier', 'server_version', 'exported_at', 'runs',
                        'progress', 'histograms', 'samples', 'relation_sizes', 'prewarms'])
           WITH ORDINALITY AS r (k, n)
     WHERE NOT doc ? k OR jsonb_typeof(doc->k) = 'null';
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION 'the export document lacks %', missing
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Import the document as bench.export made it.';
    END IF;
    kind := doc->>'kind';
    sysid := doc->>'system_identifier';
    IF kind NOT IN ('run', 'suite') OR jsonb_typeof(doc->'id') <> 'number'
       OR jsonb_typeof(doc->'system_identifier') <> 'string' OR jsonb_typeof(doc->'runs') <> 'array'
       OR jsonb_typeof(doc->'progress') <> 'array' OR jsonb_typeof(doc->'histograms') <> 'array'
       OR jsonb_typeof(doc->'samples') <> 'array' OR jsonb_typeof(doc->'relation_sizes') <> 'array'
       OR jsonb_typeof(doc->'prewarms') <> 'array'
       OR (kind = 'suite' AND jsonb_typeof(doc->'suite') IS DISTINCT FROM 'object') THEN
        RAISE EXCEPTION 'the export document is malformed'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'kind must be "run" or "suite", id a number, system_identifier a string, runs, progress, histograms, samples, relation_sizes and prewarms arrays, and a suite''s document needs the suite.',
                  HINT = 'Import the document as bench.export made it.';
    END IF;
    doc_id := (doc->>'id')::bigint;
    IF EXISTS (SELECT FROM jsonb_array_elements(doc->'runs') r
                WHERE jsonb_typeof(r) <> 'object' OR jsonb_typeof(r->'id') IS DISTINCT FROM 'number'
                   OR r->>'status' = 'running'
                   OR (kind = 'run' AND (r->>'id')::bigint <> doc_id)
                   OR (kind = 'suite' AND (r->>'suite_id')::bigint IS DISTINCT FROM doc_id))
       OR (kind = 'run' AND jsonb_array_length(doc->'runs') <> 1)
       OR (kind = 'suite' AND ((doc->'suite'->>'id')::bigint IS DISTINCT FROM doc_id
                               OR doc->'suite'->>'status' = 'running')) THEN
        RAISE EXCEPTION 'the runs of the export document do not match its %', kind
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A run''s document has that one run; a suite''s has the suite and the runs whose suite_id it is; none of them running.',
                  HINT = 'Import the document as bench.export made it.';
    END IF;

    -- once per origin: the same document imported twice is refused (the
    -- lock makes two sessions importing it at once take turns)
    PERFORM pg_advisory_xact_lock(hashtextextended('pgbenchkit import ' || sysid || ' ' || doc_id, 0));
    SELECT x.kind, x.id, (x.origin->>'id')::bigint AS orig INTO dup
      FROM (SELECT 'suite' AS kind, s.id, s.origin FROM bench.suites s
            UNION ALL
            SELECT 'run', r.id, r.origin FROM bench.runs r) x
     WHERE x.origin->>'system_identifier' = sysid
       AND (x.origin->>'id')::bigint IN (SELECT (r->>'id')::bigint FROM jsonb_array_elements(doc->'runs') r
                                         UNION ALL SELECT doc_id)
     ORDER BY x.kind DESC, x.id
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% % of system % was imported before, as % %', dup.kind, dup.orig, sysid, dup.kind, dup.id
            USING ERRCODE = 'unique_violation',
                  HINT = format('Compare with %s %s as it is, or delete it (and its runs) before importing it again.',
                                dup.kind, dup.id);
    END IF;

    origin := jsonb_build_object('system_identifier', sysid,
                                 'server_version', doc->'server_version',
                                 'exported_at', doc->'exported_at',
                                 'imported_at', now());
    BEGIN
        IF kind = 'suite' THEN
            new_suite := nextval('bench.runs_id_seq');
            INSERT INTO bench.suites
            SELECT * FROM jsonb_populate_record(NULL::bench.suites,
                doc->'suite' || jsonb_build_object('id', new_suite, 'worker_pid', NULL,
                                                   'created_by', _import.owner,
                                                   'origin', origin || jsonb_build_object('id', doc_id)));
        END IF;
        -- new ids in the order of the old ones
        FOR old IN SELECT (r->>'id')::bigint FROM jsonb_array_elements(doc->'runs') r ORDER BY 1 LOOP
            ids := ids || jsonb_build_object(old::text, nextval('bench.runs_id_seq'));
        END LOOP;
        INSERT INTO bench.runs
        SELECT * FROM jsonb_populate_recordset(NULL::bench.runs, (
            SELECT jsonb_agg(r || jsonb_build_object(
                       'id', ids->(r->>'id'), 'suite_id', new_suite, 'dataset_id', NULL,
                       'coordinator_pid', NULL, 'created_by', _import.owner,
                       'origin', origin || jsonb_build_object('id', (r->>'id')::bigint))
                       ORDER BY (r->>'id')::bigint)
              FROM jsonb_array_elements(doc->'runs') r));
        -- the rows of the runs: run_id is the new id (NULL, and refused,
        -- for a row of a run not in the document)
        INSERT INTO bench.progress
        SELECT * FROM jsonb_populate_recordset(NULL::bench.progress, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(doc->'progress') x));
        INSERT INTO bench.histograms
        SELECT * FROM jsonb_populate_recordset(NULL::bench.histograms, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(doc->'histograms') x));
        INSERT INTO bench.samples
        SELECT * FROM jsonb_populate_recordset(NULL::bench.samples, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(doc->'samples') x));
        INSERT INTO bench.relation_sizes
        SELECT * FROM jsonb_populate_recordset(NULL::bench.relation_sizes, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(doc->'relation_sizes') x));
        INSERT INTO bench.prewarms
        SELECT * FROM jsonb_populate_recordset(NULL::bench.prewarms, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(doc->'prewarms') x));
        -- the scripts and command latencies (documents of older versions have none)
        INSERT INTO bench.run_scripts
        SELECT * FROM jsonb_populate_recordset(NULL::bench.run_scripts, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(COALESCE(doc->'run_scripts', '[]')) x));
        INSERT INTO bench.command_latencies
        SELECT * FROM jsonb_populate_recordset(NULL::bench.command_latencies, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(COALESCE(doc->'command_latencies', '[]')) x));
        -- the groups of clients and their progress (none in older documents)
        INSERT INTO bench.run_groups
        SELECT * FROM jsonb_populate_recordset(NULL::bench.run_groups, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(COALESCE(doc->'run_groups', '[]')) x));
        INSERT INTO bench.group_progress
        SELECT * FROM jsonb_populate_recordset(NULL::bench.group_progress, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(COALESCE(doc->'group_progress', '[]')) x));
        -- the clients' outages (none in older documents)
        INSERT INTO bench.outages
        SELECT * FROM jsonb_populate_recordset(NULL::bench.outages, (
            SELECT jsonb_agg(x || jsonb_build_object('run_id', ids->(x->>'run_id')))
              FROM jsonb_array_elements(COALESCE(doc->'outages', '[]')) x));
    EXCEPTION
        -- a value that does not fit its column, a missing one, a row twice:
        -- the document was not made by bench.export, or was edited
        WHEN data_exception OR integrity_constraint_violation THEN
            GET STACKED DIAGNOSTICS err_message = MESSAGE_TEXT;
            RAISE EXCEPTION 'the export document is malformed: %', err_message
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'Import the document as bench.export made it; nothing was imported.';
    END;
    RETURN CASE WHEN kind = 'suite' THEN new_suite ELSE (ids->>(doc_id::text))::bigint END;
END
$fn$;

COMMENT ON FUNCTION bench._import(jsonb, name) IS
    'Internal: insert a document of bench.export as the work of role OWNER (the library calls it as the owner of schema bench)';

REVOKE ALL ON FUNCTION bench._import(jsonb, name) FROM PUBLIC;
