/*-------------------------------------------------------------------------
 *
 * bulkload.h
 *		Filling a new table with formed rows, frozen (bulkload.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_BULKLOAD_H
#define PGBENCHKIT_BULKLOAD_H

#include "access/heapam.h"
#include "executor/tuptable.h"
#include "utils/relcache.h"

/*
 * A table being filled: its batch of formed tuples and the bulk-insert
 * state that keeps the current target page pinned between batches.
 */
typedef struct BkBulkTarget
{
	Relation	rel;
	BulkInsertState bistate;
	TupleTableSlot **slots;
	int			nslots;
	int			capacity;
	MemoryContext tuplecxt;		/* the batch's tuples; reset after a flush */
} BkBulkTarget;

extern void bk_bulk_open(BkBulkTarget *bt, Oid relid, int capacity);
extern bool bk_bulk_add(BkBulkTarget *bt, Datum *values, bool *nulls);
extern void bk_bulk_flush(BkBulkTarget *bt);
extern void bk_bulk_close(BkBulkTarget *bt);

#endif							/* PGBENCHKIT_BULKLOAD_H */
