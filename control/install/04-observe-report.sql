--
-- Observability: what the server did during every run.
--

--
-- bench.prewarms: the relations a run loaded into shared buffers with
-- pg_prewarm before its clients started.
--
CREATE TABLE bench.prewarms (
    run_id          bigint      NOT NULL REFERENCES bench._runs (id) ON DELETE CASCADE,
    relid           oid         NOT NULL,
    relation        text        NOT NULL,
    kind            text        NOT NULL CHECK (kind IN ('table', 'index', 'toast table', 'toast index')),
    blocks          bigint      NOT NULL,
    seconds         double precision NOT NULL,
    PRIMARY KEY (run_id, relid)
);

COMMENT ON TABLE bench.prewarms IS
    'Relations each run prewarmed with pg_prewarm before its clients started: blocks loaded and seconds taken';

--
-- bench.samples: the server's counters, read by the coordinator before
-- the clients start, every sample_interval while they run, and after they
-- stopped.  data holds one key per source, each as the server's own view
-- returns it (to_jsonb of its rows), so that one table serves every
-- server version; bench.sample_counters names the columns.
--
CREATE TABLE bench.samples (
    run_id          bigint      NOT NULL REFERENCES bench._runs (id) ON DELETE CASCADE,
    sample_no       integer     NOT NULL,
    phase           text        NOT NULL CHECK (phase IN ('before', 'during', 'after')),
    taken_at        timestamptz NOT NULL,
    elapsed_s       double precision NOT NULL,
    data            jsonb       NOT NULL,
    PRIMARY KEY (run_id, sample_no)
);

COMMENT ON TABLE bench.samples IS
    'Server counters of every run (pg_stat_wal, pg_stat_bgwriter, pg_stat_checkpointer, pg_stat_io, pg_stat_database, table and index statistics, pg_stat_statements, CPU), one jsonb key per source';

--
-- bench.relation_sizes: the workload's tables and indexes before and after
-- every run.
--
CREATE TABLE bench.relation_sizes (
    run_id          bigint      NOT NULL REFERENCES bench._runs (id) ON DELETE CASCADE,
    phase           text        NOT NULL CHECK (phase IN ('before', 'after')),
    relid           oid         NOT NULL,
    relation        text        NOT NULL,
    kind            text        NOT NULL CHECK (kind IN ('table', 'index')),
    table_name      text        NOT NULL,
    main_bytes      bigint      NOT NULL,
    toast_bytes     bigint,
    indexes_bytes   bigint,
    total_bytes     bigint      NOT NULL,
    PRIMARY KEY (run_id, phase, relid)
);

COMMENT ON TABLE bench.relation_sizes IS
    'Sizes of the workload''s tables (heap, toast, indexes, total) and indexes, before and after every run';

SELECT pg_catalog.pg_extension_config_dump('bench.prewarms', '');
SELECT pg_catalog.pg_extension_config_dump('bench.samples', '');
SELECT pg_catalog.pg_extension_config_dump('bench.relation_sizes', '');
GRANT SELECT ON bench.prewarms, bench.samples, bench.relation_sizes TO PUBLIC;

#include "functions/_redact_statement.sql"

#include "functions/_host_cpu_sample.sql"

#include "views/sample_counters.sql"

#include "views/interval_counters.sql"

#include "views/run_counters.sql"

#include "views/run_statements.sql"

#include "functions/prewarm.sql"

-- TPC-C's results, as HammerDB and go-tpc report them
#include "views/tpcc_transactions.sql"

#include "views/tpcc_results.sql"

#include "functions/_tpcc_rates.sql"

#include "functions/report_json.sql"

#include "functions/report.sql"
