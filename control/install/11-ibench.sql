#include "functions/ibench_script.sql"

-- the Insert Benchmark's steps at its defaults, built in
INSERT INTO bench.workloads (name, dataset, scripts, weights, description, builtin, defined_by)
SELECT 'ibench.' || s.step, 'ibench', ARRAY[bench.ibench_script(s.step)], '{1}',
       format(CASE WHEN s.step LIKE 'q%' THEN 'the query clients of the Insert Benchmark''s steps %s100, %s500, %s1000 with their defaults (bench.ibench_script(%L, options) for others)'
                   ELSE 'the Insert Benchmark''s step %s with its defaults (bench.ibench_script(%L, options) for others)' END,
              s.step, s.step, s.step, s.step),
       true, current_user
  FROM unnest(ARRAY['l.i0', 'l.x', 'l.i1', 'l.i2', 'qr', 'qp']) AS s(step);
