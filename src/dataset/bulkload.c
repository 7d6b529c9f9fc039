/*-------------------------------------------------------------------------
 *
 * bulkload.c
 *		Filling a new table of a dataset with formed rows: batches handed to
 *		the table AM frozen and straight into new pages, as COPY FREEZE
 *		does.  The table must be one nobody else sees yet (bench.init's
 *		staging names).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "executor/tuptable.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "dataset/bulkload.h"

void
bk_bulk_open(BkBulkTarget *bt, Oid relid, int capacity)
{
	bt->rel = table_open(relid, RowExclusiveLock);
	bt->bistate = GetBulkInsertState();
	bt->capacity = capacity;
	bt->nslots = 0;
	bt->slots = palloc(sizeof(TupleTableSlot *) * capacity);
	for (int i = 0; i < capacity; i++)
		bt->slots[i] = MakeSingleTupleTableSlot(RelationGetDescr(bt->rel),
												&TTSOpsHeapTuple);
	bt->tuplecxt = AllocSetContextCreate(CurrentMemoryContext, "pgbenchkit load batch",
										 ALLOCSET_DEFAULT_SIZES);
}

/* insert the batch: frozen, straight into new pages, as COPY FREEZE does */
void
bk_bulk_flush(BkBulkTarget *bt)
{
	MemoryContext oldcxt;

	if (bt->nslots == 0)
		return;
	oldcxt = MemoryContextSwitchTo(bt->tuplecxt);
	table_multi_insert(bt->rel, bt->slots, bt->nslots, GetCurrentCommandId(true),
					   TABLE_INSERT_SKIP_FSM | TABLE_INSERT_FROZEN, bt->bistate);
	MemoryContextSwitchTo(oldcxt);
	for (int i = 0; i < bt->nslots; i++)
		ExecClearTuple(bt->slots[i]);
	bt->nslots = 0;
	MemoryContextReset(bt->tuplecxt);
}

/* add one row; flushes when the batch is full, and then returns true */
bool
bk_bulk_add(BkBulkTarget *bt, Datum *values, bool *nulls)
{
	MemoryContext oldcxt = MemoryContextSwitchTo(bt->tuplecxt);
	HeapTuple	tuple = heap_form_tuple(RelationGetDescr(bt->rel), values, nulls);

	MemoryContextSwitchTo(oldcxt);
	ExecStoreHeapTuple(tuple, bt->slots[bt->nslots++], false);
	if (bt->nslots < bt->capacity)
		return false;
	bk_bulk_flush(bt);
	return true;
}

void
bk_bulk_close(BkBulkTarget *bt)
{
	bk_bulk_flush(bt);
	for (int i = 0; i < bt->capacity; i++)
		ExecDropSingleTupleTableSlot(bt->slots[i]);
	FreeBulkInsertState(bt->bistate);
	table_close(bt->rel, NoLock);
	MemoryContextDelete(bt->tuplecxt);
	pfree(bt->slots);
}
