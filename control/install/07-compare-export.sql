--
-- Comparisons and export
--
--
-- Comparing runs and suites, and moving them between servers.
--

#include "functions/_run_cv.sql"

#include "functions/_judge.sql"

#include "functions/compare.sql"

--
-- Export: flat views for CSV (\copy (SELECT * FROM bench.export_runs) TO
-- 'runs.csv' CSV HEADER), and whole runs or suites as jsonb for
-- bench.import on another server.
--

#include "views/export_runs.sql"

#include "views/export_progress.sql"

#include "views/export_suites.sql"

#include "functions/export.sql"

#include "functions/import.sql"

#include "functions/_import.sql"
