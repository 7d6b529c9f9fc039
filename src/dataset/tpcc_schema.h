/*-------------------------------------------------------------------------
 *
 * tpcc_schema.h
 *		TPC-C's tables as go-tpc makes them, their keys, and the tasks that
 *		build the keys of a load in the server (tpcc_schema.c), for the kind
 *		"tpcc" (tpcc.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_TPCC_SCHEMA_H
#define PGBENCHKIT_TPCC_SCHEMA_H

#include "nodes/pg_list.h"
#include "port/atomics.h"

/* the tables, in the order go-tpc creates them */
typedef enum TcTable
{
	TT_WAREHOUSE,
	TT_DISTRICT,
	TT_CUSTOMER,
	TT_HISTORY,
	TT_NEW_ORDER,
	TT_ORDERS,
	TT_ORDER_LINE,
	TT_ITEM,
	TT_STOCK,
	TC_NTABLES
} TcTable;

extern const char *const bk_tpcc_names[TC_NTABLES];

/*
 * The tables written page by page, each unit (a district's order lines or
 * customers, a tenth of a warehouse's stock) on pages of its own
 * (heapfill.c), so that their primary keys are built from their pages
 * without a sort (tc_build_key): the three largest, whose units fill
 * hundreds of pages.  The others' units would leave too much of their last
 * page empty for what a sort of them costs.
 */
static inline bool
tc_by_units(int t)
{
	return t == TT_ORDER_LINE || t == TT_STOCK || t == TT_CUSTOMER;
}

extern char *bk_tpcc_create_sql(const char *qualified, int t);
extern void bk_tpcc_create(const void *opts, const char *nspname, const char *prefix);
extern List *bk_tpcc_keys_sql(const char *nspname, const char *prefix);
extern List *bk_tpcc_foreign_keys_sql(const void *opts, const char *nspname);
extern void bk_tpcc_run_all(List *stmts);
extern List *bk_tpcc_finish_tasks(const void *opts, const char *nspname, const char *prefix);
extern void bk_tpcc_build_key(const void *opts, const Oid *leaves, int table,
							  pg_atomic_uint32 *cancel);
extern void bk_tpcc_after_load(const void *opts, const Oid *leaves);

#endif							/* PGBENCHKIT_TPCC_SCHEMA_H */
