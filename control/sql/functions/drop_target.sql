--
-- bench.drop_target(name): drop a target's server and its user mappings.
-- Only a server of the wrapper bench_target, by its owner; refused while
-- anything else (a foreign table) depends on it.
--
CREATE OR REPLACE FUNCTION bench.drop_target(name text)
RETURNS void
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    srv record;
BEGIN
    IF drop_target.name IS NULL THEN
        RAISE EXCEPTION 'argument "name" of bench.drop_target must not be null'
              USING ERRCODE = 'null_value_not_allowed',
                    HINT = 'Name a target of bench.targets.';
    END IF;
    SELECT s.oid, s.srvowner, w.fdwname INTO srv
      FROM pg_foreign_server s JOIN pg_foreign_data_wrapper w ON w.oid = s.srvfdw
     WHERE s.srvname = drop_target.name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'target "%" does not exist', drop_target.name
              USING ERRCODE = 'undefined_object',
                    HINT = 'bench.targets lists the targets.';
    END IF;
    IF srv.fdwname <> 'bench_target' THEN
        RAISE EXCEPTION 'server "%" is not a target', drop_target.name
              USING ERRCODE = 'wrong_object_type',
                    DETAIL = format('Its foreign-data wrapper is %s, not bench_target.', srv.fdwname),
                    HINT = 'bench.drop_target drops only targets; DROP SERVER drops other servers.';
    END IF;
    IF NOT pg_has_role(srv.srvowner, 'USAGE') THEN
        RAISE EXCEPTION 'must be owner of target "%"', drop_target.name
              USING ERRCODE = 'insufficient_privilege',
                    HINT = format('Its owner, %s, or a superuser drops it.', pg_get_userbyid(srv.srvowner));
    END IF;
    IF EXISTS (SELECT FROM pg_depend d
                WHERE d.refclassid = 'pg_foreign_server'::regclass AND d.refobjid = srv.oid
                  AND d.classid <> 'pg_user_mapping'::regclass) THEN
        RAISE EXCEPTION 'other objects depend on target "%"', drop_target.name
              USING ERRCODE = 'dependent_objects_still_exist',
                    HINT = 'bench.drop_target drops the server and its user mappings only: drop the others first, or use DROP SERVER ... CASCADE.';
    END IF;
    EXECUTE format('DROP SERVER %I CASCADE', drop_target.name);
END
$fn$;

COMMENT ON FUNCTION bench.drop_target(text) IS
    'Drop a target: its server and every user mapping of it; refused for another wrapper''s server and while other objects depend on it';
REVOKE ALL ON FUNCTION bench.drop_target(text) FROM PUBLIC;
