--
-- bench.publish: on a driver of a fleet (docs/fleet.md), the publication of
-- the results of this node, which a central pgbenchkit database subscribes
-- to: each table of results, the rows of this node's ids only, without
-- what may be secret (run variables, the run arguments of suites) or means
-- something on the driver only (process ids, the regclass[] of datasets).
-- Called again, after ALTER EXTENSION pgbenchkit UPDATE, it brings the
-- publication to this version's tables and columns (docs/fleet.md: the
-- order of a fleet's updates).
--
CREATE OR REPLACE FUNCTION bench.publish(publication name DEFAULT 'pgbenchkit')
RETURNS name
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    n       bench.node;
    lo      bigint;
    hi      bigint;
    spec    text[] := '{}';
    t       record;
    cols    text;
    pub     record;
    refresh boolean;
    tables  constant name[] := '{_runs,_suites,datasets,progress,histograms,samples,relation_sizes,prewarms,run_scripts,command_latencies,run_groups,group_progress,outages}';
BEGIN
    IF publish.publication IS NULL THEN
        RAISE EXCEPTION 'argument "publication" of bench.publish must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Leave it out for the publication pgbenchkit.';
    END IF;
    IF current_setting('server_version_num')::integer < 150000 THEN
        RAISE EXCEPTION 'bench.publish needs PostgreSQL 15 or later'
            USING ERRCODE = 'feature_not_supported',
                  DETAIL = 'It leaves columns out of the publication and publishes the rows of this node''s ids only: column lists and row filters came with PostgreSQL 15.';
    END IF;
    SELECT * INTO n FROM bench.node;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'this database is not a node yet'
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'Set its node first, bench.set_node(name, number): the rows published are those of its ids.';
    END IF;
    -- an existing publication is brought to this version's tables and
    -- columns (after ALTER EXTENSION pgbenchkit UPDATE), if it is one that
    -- bench.publish made: of the results' tables only
    SELECT p.oid, p.puballtables INTO pub FROM pg_publication p WHERE p.pubname = publish.publication;
    IF FOUND AND (pub.puballtables OR EXISTS (
            SELECT FROM pg_publication_rel pr JOIN pg_class k ON k.oid = pr.prrelid
             WHERE pr.prpubid = pub.oid
               AND (k.relnamespace <> 'bench'::regnamespace OR k.relname <> ALL (tables)))) THEN
        RAISE EXCEPTION 'publication "%" exists already, and publishes more than the results of pgbenchkit', publish.publication
            USING ERRCODE = 'duplicate_object',
                  HINT = 'Drop it first (DROP PUBLICATION), or give another name.';
    END IF;
    refresh := FOUND;

    lo := n.number::bigint << 40;
    hi := lo + (1::bigint << 40) - 1;
    FOR t IN SELECT * FROM (VALUES
            ('_runs', 'id', ARRAY['variables', 'coordinator_pid']),
            ('_suites', 'id', ARRAY['args', 'worker_pid']),
            ('datasets', 'id', ARRAY['tables', 'worker_pid']),
            ('progress', 'run_id', '{}'::text[]),
            ('histograms', 'run_id', '{}'),
            ('samples', 'run_id', '{}'),
            ('relation_sizes', 'run_id', '{}'),
            ('prewarms', 'run_id', '{}'),
            ('run_scripts', 'run_id', '{}'),
            ('command_latencies', 'run_id', '{}'),
            ('run_groups', 'run_id', '{}'),
            ('group_progress', 'run_id', '{}'),
            ('outages', 'run_id', '{}')) AS v(rel, key, leave_out)
    LOOP
        SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO cols
          FROM pg_attribute a
         WHERE a.attrelid = format('bench.%I', t.rel)::regclass AND a.attnum > 0
           AND NOT a.attisdropped AND a.attname <> ALL (t.leave_out);
        spec := spec || format('bench.%I (%s) WHERE (%I >= %s AND %I <= %s)',
                               t.rel, cols, t.key, lo, t.key, hi);
    END LOOP;
    EXECUTE format(CASE WHEN refresh THEN 'ALTER PUBLICATION %I SET TABLE %s'
                        ELSE 'CREATE PUBLICATION %I FOR TABLE %s' END,
                   publish.publication, array_to_string(spec, ', '));
    RETURN publish.publication;
END
$fn$;

COMMENT ON FUNCTION bench.publish(name) IS
    'On a driver of a fleet: the publication of this node''s results for a central database, without run variables, suite arguments, process ids and the tables of datasets';
REVOKE ALL ON FUNCTION bench.publish(name) FROM PUBLIC;
