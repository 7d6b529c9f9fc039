/*-------------------------------------------------------------------------
 *
 * heapfill.c
 *		Filling a new table with rows of any length, page by page, straight
 *		to storage, several writers at once.
 *
 * Where tpcb's rows all have one length, so that each loader can be given
 * its block range in advance (tpcb.c), TPC-C's rows vary: a writer here
 * packs the rows it is given on pages in its own memory, frozen, as
 * heap_multi_insert packs them (a new page takes its first row, then more
 * while the room left exceeds the row and the space the fillfactor keeps
 * free), and when it holds BK_PW_MAX_BATCH pages, or when the caller says
 * (bk_hf_flush: the next row starts a page), it reserves that many blocks
 * at the end of the table under the relation extension lock, points each
 * row's t_ctid at itself and writes the pages through pagewriter.c.  Each
 * page then holds rows of one writer, given between two flushes, in the
 * order they were given.
 *
 * The pages carry PD_ALL_VISIBLE and their rows FrozenTransactionId; the
 * visibility map is the caller's to write once every writer is done
 * (bk_write_vm_all_frozen), before anyone reads the table.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/transam.h"
#include "storage/bufpage.h"
#include "storage/lmgr.h"
#include "storage/smgr.h"
#include "utils/rel.h"

#include "core/compat.h"
#include "dataset/heapfill.h"

/*
 * bk_reserve_blocks
 *		Extend REL's main fork by N blocks, for its caller alone to write:
 *		the first of them.  Only the last is written (zeros, neither logged
 *		nor synced), as bk_preextend does: the caller overwrites every one,
 *		logs it and syncs it.
 */
BlockNumber
bk_reserve_blocks(Relation rel, BlockNumber n)
{
	PGAlignedBlock zero;
	SMgrRelation smgr;
	BlockNumber first;

	Assert(n > 0);
	memset(zero.data, 0, BLCKSZ);
	LockRelationForExtension(rel, ExclusiveLock);
	smgr = bk_relation_smgr(rel);
	first = smgrnblocks(smgr, MAIN_FORKNUM);
	if ((uint64) first + n > (uint64) MaxBlockNumber)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("cannot extend relation \"%s\" beyond %u blocks",
						RelationGetRelationName(rel), MaxBlockNumber)));
	smgrextend(smgr, MAIN_FORKNUM, first + n - 1, zero.data, true);
	UnlockRelationForExtension(rel, ExclusiveLock);
	return first;
}

static inline Page
hf_page(BkHeapFill *hf, int i)
{
	return (Page) (hf->pages + (Size) BLCKSZ * i);
}

/*
 * bk_hf_begin
 *		Start filling REL, a table nobody else sees yet, opened and locked by
 *		the caller.
 */
void
bk_hf_begin(BkHeapFill *hf, Relation rel)
{
	hf->rel = rel;
	hf->save = RelationGetTargetPageFreeSpace(rel, HEAP_DEFAULT_FILLFACTOR);
	hf->pages = palloc((Size) BLCKSZ * BK_PW_MAX_BATCH);
	hf->npages = 0;
	hf->blocks = 0;
	bk_pw_begin(&hf->pw, rel, MAIN_FORKNUM, true, BK_PW_MAX_BATCH);
}

/*
 * bk_hf_add
 *		Add TUPLE, formed for the table (heap_form_tuple; its header is
 *		made that of a frozen row, and then copied).
 */
void
bk_hf_add(BkHeapFill *hf, HeapTuple tuple)
{
	HeapTupleHeader tup = tuple->t_data;
	Page		page;

	if (tuple->t_len > MaxHeapTupleSize)
		elog(ERROR, "a row of %u bytes does not fit on a page of \"%s\"",
			 (unsigned) tuple->t_len, RelationGetRelationName(hf->rel));
	tup->t_infomask &= ~HEAP_XACT_MASK;
	tup->t_infomask2 &= ~HEAP2_XACT_MASK;
	tup->t_infomask |= HEAP_XMAX_INVALID;
	HeapTupleHeaderSetXmin(tup, FrozenTransactionId);
	HeapTupleHeaderSetXminFrozen(tup);
	HeapTupleHeaderSetCmin(tup, FirstCommandId);
	HeapTupleHeaderSetXmax(tup, 0);

	if (hf->npages > 0)
	{
		page = hf_page(hf, hf->npages - 1);
		if (PageGetHeapFreeSpace(page) >= MAXALIGN(tuple->t_len) + hf->save &&
			PageAddItem(page, (Item) tup, tuple->t_len, InvalidOffsetNumber,
						false, true) != InvalidOffsetNumber)
			return;
	}
	if (hf->npages == BK_PW_MAX_BATCH)
		bk_hf_flush(hf);
	page = hf_page(hf, hf->npages++);
	PageInit(page, BLCKSZ, 0);
	PageSetAllVisible(page);
	if (PageAddItem(page, (Item) tup, tuple->t_len, InvalidOffsetNumber,
					false, true) == InvalidOffsetNumber)
		elog(ERROR, "could not add a row to a new page of \"%s\"",
			 RelationGetRelationName(hf->rel));
}

/*
 * bk_hf_flush
 *		Write the pages held, the last one as it is: the next row starts a
 *		new page.
 */
void
bk_hf_flush(BkHeapFill *hf)
{
	BlockNumber first;

	if (hf->npages == 0)
		return;
	first = bk_reserve_blocks(hf->rel, (BlockNumber) hf->npages);
	/* every block up to these exists now: the writer overwrites them */
	hf->pw.nblocks = Max(hf->pw.nblocks, first + (BlockNumber) hf->npages);
	for (int i = 0; i < hf->npages; i++)
	{
		Page		page = hf_page(hf, i);
		OffsetNumber maxoff = PageGetMaxOffsetNumber(page);

		for (OffsetNumber off = FirstOffsetNumber; off <= maxoff; off = OffsetNumberNext(off))
		{
			HeapTupleHeader tup = (HeapTupleHeader) PageGetItem(page, PageGetItemId(page, off));

			ItemPointerSet(&tup->t_ctid, first + i, off);
		}
		bk_pw_write(&hf->pw, first + i, page);
	}
	bk_pw_flush(&hf->pw);
	hf->blocks += hf->npages;
	hf->npages = 0;
}

/*
 * bk_hf_finish
 *		Write what is left; free the writer's memory.
 */
void
bk_hf_finish(BkHeapFill *hf)
{
	bk_hf_flush(hf);
	bk_pw_finish(&hf->pw);
	pfree(hf->pages);
	hf->pages = NULL;
}
