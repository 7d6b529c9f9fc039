--
-- bench.datasets: one row per dataset bench.init made or tried to make.
--
-- tables holds the tables the load created (regclass: pg_dump writes their
-- names, and a restore finds them again); with force => true, bench.init
-- drops only tables listed in a 'ready' row.  target names the target a
-- dataset was loaded into (NULL: this database); such a dataset has no
-- tables here: options->'target_tables' names them there, schema_name is
-- their schema there and server_version the target's.
--
CREATE TABLE bench.datasets (
    id              bigserial PRIMARY KEY,
    workload        text        NOT NULL,
    scale           integer     NOT NULL,
    options         jsonb       NOT NULL,
    schema_name     name        NOT NULL,
    tables          regclass[],
    status          text        NOT NULL
                    CHECK (status IN ('loading', 'ready', 'failed', 'aborted', 'replaced')),
    sqlstate        text,
    error           text,
    created_by      name        NOT NULL DEFAULT current_user,
    started_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    finished_at     timestamptz,
    server_version  text        NOT NULL DEFAULT current_setting('server_version'),
    rows_loaded     bigint,
    create_s        double precision,
    load_s          double precision,
    vacuum_s        double precision,
    primary_keys_s  double precision,
    foreign_keys_s  double precision,
    worker_pid      integer,
    target          text
);

COMMENT ON TABLE bench.datasets IS
    'Datasets loaded by bench.init: workload, scale, options, who and when, status and timings';

-- results are user data: pg_dump keeps them
SELECT pg_catalog.pg_extension_config_dump('bench.datasets', '');
SELECT pg_catalog.pg_extension_config_dump('bench.datasets_id_seq', '');

GRANT USAGE ON SCHEMA bench TO PUBLIC;
GRANT SELECT ON bench.datasets TO PUBLIC;

--
-- The row bench.init returns.
--
CREATE TYPE bench.init_result AS (
    dataset_id      bigint,
    workload        text,
    scale           integer,
    rows_loaded     bigint,
    create_s        double precision,
    load_s          double precision,
    vacuum_s        double precision,
    primary_keys_s  double precision,
    foreign_keys_s  double precision,
    total_s         double precision
);

#include "functions/init.sql"
