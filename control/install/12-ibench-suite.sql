--
-- The Insert Benchmark as one call: bench.ibench runs its steps as a
-- suite of steps, one run per step (bench.runs.step), and
-- bench.ibench_steps shows each step as the benchmark reports it.
--

#include "functions/_steps.sql"

#include "functions/_ibench_spec.sql"

#include "views/ibench_steps.sql"

-- read as the role that queries it, as the other views of runs (09-privileges)
DO $do$
BEGIN
    IF pg_catalog.current_setting('server_version_num')::integer >= 150000 THEN
        ALTER VIEW bench.ibench_steps SET (security_invoker = true);
    ELSE
        REVOKE SELECT ON bench.ibench_steps FROM PUBLIC;
        GRANT SELECT ON bench.ibench_steps TO pgbenchkit_admin;
    END IF;
END
$do$;

#include "functions/ibench.sql"

#include "functions/start_ibench.sql"
