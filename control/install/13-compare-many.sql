--
-- Many runs compared: configurations against workloads, and their lines
-- over time on one chart.
--

#include "functions/_differing_settings.sql"

#include "functions/_many_tps.sql"

#include "functions/compare_many.sql"

#include "functions/compare_many_table.sql"

#include "functions/chart_runs.sql"
