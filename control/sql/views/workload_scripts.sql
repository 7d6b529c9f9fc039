--
-- bench.workload_scripts: each script of each workload on a row of its own,
-- readable as pgbench --show-script prints it.
--
CREATE OR REPLACE VIEW bench.workload_scripts AS
SELECT w.name AS workload, s.n::integer AS script_no, w.weights[s.n] AS weight,
       s.script, w.builtin
  FROM bench.workloads w,
       LATERAL unnest(w.scripts) WITH ORDINALITY AS s(script, n);

COMMENT ON VIEW bench.workload_scripts IS
    'The scripts of every workload, one row each, numbered from 1 as pgbench numbers them, with their weights';
GRANT SELECT ON bench.workload_scripts TO PUBLIC;
