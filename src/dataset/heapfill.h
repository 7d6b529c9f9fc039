/*-------------------------------------------------------------------------
 *
 * heapfill.h
 *		Filling a new table with rows of any length, page by page, straight
 *		to storage, several writers at once (heapfill.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_HEAPFILL_H
#define PGBENCHKIT_HEAPFILL_H

#include "access/htup.h"
#include "dataset/pagewriter.h"

typedef struct BkHeapFill
{
	Relation	rel;
	Size		save;			/* the free space the fillfactor keeps */
	char	   *pages;			/* BK_PW_MAX_BATCH pages being built */
	int			npages;			/* pages begun; the last is being filled */
	BkPageWriter pw;
	int64		blocks;			/* blocks written */
} BkHeapFill;

extern void bk_hf_begin(BkHeapFill *hf, Relation rel);
extern void bk_hf_add(BkHeapFill *hf, HeapTuple tuple);
extern void bk_hf_flush(BkHeapFill *hf);
extern void bk_hf_finish(BkHeapFill *hf);

extern BlockNumber bk_reserve_blocks(Relation rel, BlockNumber n);

#endif							/* PGBENCHKIT_HEAPFILL_H */
