/*-------------------------------------------------------------------------
 *
 * tpcc_functions.h
 *		The server-side functions of a TPC-C dataset: one per transaction
 *		of the specification, which a run in mode 'procedures' calls once
 *		per transaction (as HammerDB's TPROC-C does on PostgreSQL).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_TPCC_FUNCTIONS_H
#define PGBENCHKIT_TPCC_FUNCTIONS_H

#include "nodes/pg_list.h"

/*
 * The statements that create them in schema NSPNAME (CREATE OR REPLACE
 * FUNCTION, every name qualified), for a server whose server_version_num
 * is VERSION: a list of palloc'd strings, in the order to send them.
 */
extern List *bk_tpcc_functions_sql(const char *nspname, int version);

#endif							/* PGBENCHKIT_TPCC_FUNCTIONS_H */
