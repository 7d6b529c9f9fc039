-- pgbenchkit 0.1.0
\echo Use "CREATE EXTENSION pgbenchkit CASCADE" to load this file. \quit
