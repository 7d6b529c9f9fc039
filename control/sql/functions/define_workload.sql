--
-- bench.define_workload, bench.drop_workload: custom workloads.
--
CREATE OR REPLACE FUNCTION bench.define_workload(
    name         text,
    scripts      text[],
    weights      integer[] DEFAULT NULL,
    description  text     DEFAULT NULL,
    dataset      text     DEFAULT NULL,
    replace      boolean  DEFAULT false)
RETURNS bench.workloads
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_define_workload';

COMMENT ON FUNCTION bench.define_workload(text, text[], integer[], text, text, boolean) IS
    'Define a workload of several scripts with weights (pgbench -f a@5 -f b@1); every script is checked now';

CREATE OR REPLACE FUNCTION bench.define_workload(
    name         text,
    script       text,
    description  text     DEFAULT NULL,
    dataset      text     DEFAULT NULL,
    replace      boolean  DEFAULT false)
RETURNS bench.workloads
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT bench.define_workload(name, ARRAY[script], NULL::integer[], description, dataset, replace)
$fn$;

COMMENT ON FUNCTION bench.define_workload(text, text, text, text, boolean) IS
    'Define a workload of one script in pgbench''s script language; the script is checked now';
REVOKE ALL ON FUNCTION bench.define_workload(text, text[], integer[], text, text, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION bench.define_workload(text, text, text, text, boolean) FROM PUBLIC;
