--
-- bench._write_through: the trigger that makes the views bench.runs and
-- bench.suites writable (by whoever may write the table TG_ARGV[0]: the
-- owner of schema bench, a superuser).  An INSERT or DELETE of a row of the
-- view is done on the table; an UPDATE writes the columns it changed into
-- the table's row with the same id (not the ones the view computed, for a
-- run or a suite whose process is gone, and the UPDATE left as they were).
--
CREATE OR REPLACE FUNCTION bench._write_through()
RETURNS trigger
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    tbl     regclass := TG_ARGV[0]::regclass;
    changed text;
    n       bigint;
BEGIN
    IF TG_OP = 'INSERT' THEN
        EXECUTE format('INSERT INTO %s SELECT ($1).* RETURNING *', tbl) INTO NEW USING NEW;
        RETURN NEW;
    ELSIF TG_OP = 'UPDATE' THEN
        SELECT string_agg(format('%I = n.%I', a.key, a.key), ', ') INTO changed
          FROM jsonb_each(to_jsonb(NEW)) a JOIN jsonb_each(to_jsonb(OLD)) b ON b.key = a.key
         WHERE a.value IS DISTINCT FROM b.value;
        IF changed IS NULL THEN
            RETURN NEW;
        END IF;
        EXECUTE format('UPDATE %s t SET %s FROM (SELECT ($1).*) n WHERE t.id = $2', tbl, changed)
          USING NEW, OLD.id;
    ELSE
        EXECUTE format('DELETE FROM %s WHERE id = $1', tbl) USING OLD.id;
    END IF;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN CASE WHEN n = 0 THEN NULL WHEN TG_OP = 'UPDATE' THEN NEW ELSE OLD END;
END
$fn$;

COMMENT ON FUNCTION bench._write_through() IS
    'Internal: the trigger of the views bench.runs and bench.suites: an INSERT, UPDATE or DELETE of a row of the view is done on the table it reads';
