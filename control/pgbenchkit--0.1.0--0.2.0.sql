-- pgbenchkit 0.1.0 to 0.2.0: ALTER EXTENSION pgbenchkit UPDATE
\echo Use "ALTER EXTENSION pgbenchkit UPDATE" to load this file. \quit

-- Every row of the tables of schema bench stays as it is.

-- bench.datasets.tables: regclass[] instead of oid[], so that pg_dump writes
-- the tables' names and a restored database still knows its datasets (the
-- OIDs of a restore are new ones)
ALTER TABLE bench.datasets ALTER COLUMN tables TYPE pg_catalog.regclass[]
    USING tables::pg_catalog.regclass[];
