CREATE OR REPLACE FUNCTION bench._unschedule(name text, owner name)
RETURNS boolean
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    s bench.schedules;
BEGIN
    DELETE FROM bench.schedules sc WHERE sc.name = _unschedule.name AND sc.created_by = _unschedule.owner
    RETURNING * INTO s;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'schedule "%" does not exist', name
              USING ERRCODE = 'undefined_object',
                    HINT = 'bench.schedules lists the schedules.';
    END IF;
    IF s.jobid IS NOT NULL AND s.cron_database <> current_database() THEN
        IF bench._cron_call(s.cron_database, 'unschedule', ARRAY[s.jobid::text]) IS NULL THEN
            RAISE NOTICE 'pg_cron job % of schedule "%" was not there to remove', s.jobid, name;
        END IF;
    ELSIF s.jobid IS NOT NULL THEN
        BEGIN
            EXECUTE 'SELECT cron.unschedule($1)' USING s.jobid;
        EXCEPTION WHEN internal_error OR undefined_function OR invalid_schema_name THEN
            -- the job was removed with cron.unschedule already, or pg_cron is gone
            RAISE NOTICE 'pg_cron job % of schedule "%" was not there to remove: %', s.jobid, name, SQLERRM;
        END;
    END IF;
    RETURN true;
END
$fn$;

COMMENT ON FUNCTION bench._unschedule(text, name) IS
    'Internal: remove the schedule NAME of OWNER and its pg_cron job (the library calls it as the owner of schema bench)';
REVOKE ALL ON FUNCTION bench._unschedule(text, name) FROM PUBLIC;
