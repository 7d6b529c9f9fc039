--
-- bench.init: create and load a workload's dataset, as pgbench -i does
-- (tpcb), sysbench prepare (sysbench: tables and table_size) or go-tpc
-- prepare (tpcc: warehouses), in this
-- database or, with target, on a target's server (generate: how the rows
-- get there, 'client' or 'server', as pgbench -I g or G).
--
CREATE OR REPLACE FUNCTION bench.init(
    workload         text,
    scale            integer DEFAULT 1,
    fillfactor       integer DEFAULT 100,
    partitions       integer DEFAULT 0,
    partition_method text    DEFAULT NULL,
    unlogged         boolean DEFAULT false,
    foreign_keys     boolean DEFAULT false,
    jobs             integer DEFAULT 1,
    force            boolean DEFAULT false,
    target           text    DEFAULT NULL,
    generate         text    DEFAULT NULL,
    tables           integer DEFAULT NULL,
    table_size       integer DEFAULT NULL,
    warehouses       integer DEFAULT NULL)
RETURNS bench.init_result
LANGUAGE c VOLATILE PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'bench_init';

COMMENT ON FUNCTION bench.init(text, integer, integer, integer, text, boolean, boolean, integer, boolean, text, text, integer, integer, integer) IS
    'Create and load a workload''s dataset (tpcb: the tables pgbench -i makes; sysbench: those sysbench prepare makes; tpcc: TPC-C''s, as go-tpc prepare makes them), in background workers';

-- starting workers and creating tables is for roles the administrator chose
REVOKE ALL ON FUNCTION bench.init(text, integer, integer, integer, text, boolean, boolean, integer, boolean, text, text, integer, integer, integer) FROM PUBLIC;
