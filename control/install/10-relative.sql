--
-- Relative throughput: runs or suites against a base, step by step, as the
-- Insert Benchmark reports versions and configurations.
--

#include "functions/relative_throughput.sql"

#include "functions/_metric_check.sql"

#include "functions/relative_table.sql"

#include "functions/chart_relative.sql"
