--
-- Charts: SVG drawn in SQL
--
--
-- Charts: a run, a suite or a schedule drawn as a standalone SVG document,
-- made in SQL from the tables above, to be saved with psql:
--
--   \pset format unaligned
--   \pset tuples_only on
--   \o run42.svg
--   SELECT bench.chart_run(42);
--   \o
--
-- The bench._svg_* functions are the drawing kit they share: internal, not
-- part of the interface.  The small ones are LANGUAGE sql without a SET
-- clause so that the planner inlines them (they are called once per point),
-- and name only pg_catalog functions; only functions that pin search_path
-- call them, so their operators too are pg_catalog's once inlined (the
-- body is parsed when the caller's query is planned, under the caller's
-- pinned search_path).  The others pin search_path as every function of
-- the extension does.  The install script is kept ASCII: what
-- needs another character in the picture is written as an XML character
-- reference.
--

#include "functions/_svg_escape.sql"

#include "functions/_svg_num.sql"

#include "functions/_svg_text.sql"

#include "functions/_svg_fit.sql"

#include "functions/_svg_check_size.sql"

#include "functions/_svg_ticks.sql"

#include "functions/_svg_tick_label.sql"

#include "functions/_svg_tick_labels.sql"

#include "functions/_svg_time_ticks.sql"

#include "functions/_svg_open.sql"

#include "functions/_svg_heading.sql"

#include "functions/_svg_panel.sql"

#include "functions/_svg_legend.sql"

#include "functions/_svg_no_data.sql"

#include "functions/chart_run.sql"

#include "functions/chart_suite.sql"

#include "functions/chart_schedule.sql"

#include "functions/chart_capacity.sql"
