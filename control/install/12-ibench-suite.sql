--
-- The Insert Benchmark as one call: bench.ibench runs its steps as a
-- suite of steps, one run per step (bench.runs.step), and
-- bench.ibench_steps shows each step as the benchmark reports it.
--

#include "functions/_steps.sql"

#include "functions/_ibench_spec.sql"

#include "views/ibench_steps.sql"

#include "functions/ibench.sql"

#include "functions/start_ibench.sql"
