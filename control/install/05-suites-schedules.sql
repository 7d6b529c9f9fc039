--
-- Suites: many runs as one experiment (bench.sweep), and schedules of
-- them (bench.schedule, with pg_cron).
--

--
-- bench._suites: one row per sweep, scheduled or not, read through the view
-- bench.suites (below).  Suite ids and run ids are drawn from one sequence,
-- so an id names either a run or a suite.
--
CREATE TABLE bench._suites (
    id              bigint      PRIMARY KEY DEFAULT pg_catalog.nextval('bench.runs_id_seq'),
    workload        text        NOT NULL,
    clients         integer[]   NOT NULL,
    repeat          integer     NOT NULL,
    run_order       text        NOT NULL CHECK (run_order IN ('interleaved', 'blocks')),
    args            jsonb,
    search_path     text        NOT NULL,
    tag             text,
    schedule        text,
    runs_planned    integer     NOT NULL,
    status          text        NOT NULL
                    CHECK (status IN ('running', 'done', 'canceled', 'failed', 'aborted', 'refused')),
    sqlstate        text,
    error           text,
    created_by      name        NOT NULL,
    server_version  text        NOT NULL DEFAULT current_setting('server_version'),
    started_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    ended_at        timestamptz,
    worker_pid      integer,
    origin          jsonb,
    steps           jsonb,
    targets         text[],
    capacity        jsonb,
    node_name       text,
    node_number     integer
);

CREATE INDEX suites_schedule ON bench._suites (schedule, started_at) WHERE schedule IS NOT NULL;

COMMENT ON TABLE bench._suites IS
    'Sweeps as recorded (read them through the view bench.suites)';
COMMENT ON COLUMN bench._suites.steps IS
    'A suite of steps (bench.ibench): each step''s name and run arguments, in order; NULL for a sweep';
COMMENT ON COLUMN bench._suites.targets IS
    'A suite over several targets: their names in the order given (local: this server); NULL for a suite on one';
COMMENT ON COLUMN bench._suites.capacity IS
    'A capacity search (bench.capacity): its objective, precision and budget; NULL otherwise';
COMMENT ON COLUMN bench._suites.args IS
    'The run arguments each run got; NULL on a fleet''s central database for a suite of a driver (they may hold secrets: bench.publish leaves them out)';
COMMENT ON COLUMN bench._suites.node_name IS
    'The node of the fleet that ran it (bench.set_node); NULL before its node was set';
COMMENT ON COLUMN bench._suites.node_number IS
    'The number of that node: the suite''s id lies in its range';

ALTER TABLE bench._runs ADD FOREIGN KEY (suite_id) REFERENCES bench._suites (id);
CREATE INDEX runs_suite ON bench._runs (suite_id) WHERE suite_id IS NOT NULL;

SELECT pg_catalog.pg_extension_config_dump('bench._suites', '');
GRANT SELECT ON bench._suites TO PUBLIC;

#include "functions/_suite_alive.sql"

#include "views/suites.sql"

#include "functions/_suite_state.sql"

#include "views/suite_summary.sql"

--
-- Capacity under a latency objective (bench.capacity): a suite of
-- rate-limited runs whose rates are chosen as the results come in.
--

#include "functions/_capacity_spec.sql"

#include "functions/capacity_steps.sql"

#include "functions/_capacity_search.sql"

#include "functions/_capacity_next.sql"

#include "views/capacity_results.sql"

#include "functions/capacity.sql"

--
-- bench.schedules: sweeps (or single runs) pg_cron starts.
--
CREATE TABLE bench.schedules (
    name            text        PRIMARY KEY,
    cron            text        NOT NULL,
    workload        text        NOT NULL,
    clients         integer[]   NOT NULL,
    repeat          integer     NOT NULL,
    run_order       text        NOT NULL,
    args            jsonb       NOT NULL,
    search_path     text        NOT NULL,
    baseline_runs   integer     NOT NULL,
    threshold       double precision NOT NULL,
    cron_database   name        NOT NULL,
    jobid           bigint,
    created_by      name        NOT NULL DEFAULT current_user,
    created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    targets         text[],
    capacity        jsonb
);

COMMENT ON TABLE bench.schedules IS
    'Benchmarks pg_cron starts: when (cron), what (workload, client counts, repeats, run arguments) and how a regression is judged';

COMMENT ON COLUMN bench.schedules.targets IS
    'A schedule over several targets: their names in the order given (local: this server), each judged against its own baseline; NULL for a schedule on one';
COMMENT ON COLUMN bench.schedules.capacity IS
    'A schedule of capacity searches (bench.schedule_capacity): their objective, precision and budget; NULL for a schedule of sweeps';

SELECT pg_catalog.pg_extension_config_dump('bench.schedules', '');
GRANT SELECT ON bench.schedules TO PUBLIC;

#include "views/schedule_results.sql"

#include "views/regressions.sql"

#include "functions/sweep.sql"
#include "functions/start_sweep.sql"
#include "functions/_sweep_spec.sql"

#include "functions/wait_suite.sql"

#include "functions/cancel_suite.sql"

#include "functions/run_schedule.sql"

#include "functions/_cron_call.sql"

#include "functions/_cron_check.sql"

#include "functions/_schedule.sql"

#include "functions/schedule.sql"

#include "functions/schedule_capacity.sql"

#include "functions/unschedule.sql"

#include "functions/_unschedule.sql"

#include "views/schedule_status.sql"
