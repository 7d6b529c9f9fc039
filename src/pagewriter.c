/*-------------------------------------------------------------------------
 *
 * pagewriter.c
 *		Writing fully built pages straight to a new relation's storage.
 *
 * The tables bench.init fills are new and seen by no one until they are
 * renamed into place, so their pages need not pass through shared buffers
 * one tuple at a time.  A loader builds each page in its own memory, logs
 * it whole (log_newpages, as index builds do), sets its checksum and hands
 * it to the storage manager, which asks the checkpointer to sync the file
 * at its next checkpoint, as for any buffer written out (bk_pw_flush).
 *
 * A writer appends to the relation, or, when the relation was first
 * extended to its final length (bk_preextend), overwrites its block range
 * while other writers overwrite theirs.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/visibilitymap.h"
#include "access/xloginsert.h"
#include "miscadmin.h"
#include "storage/bufpage.h"
#include "storage/smgr.h"
#include "utils/inval.h"
#include "utils/rel.h"

#include "compat.h"
#include "pagewriter.h"

/* the visibility map's layout (private to visibilitymap.c) */
#define VM_MAPSIZE				(BLCKSZ - MAXALIGN(SizeOfPageHeaderData))
#define VM_HEAPBLOCKS_PER_BYTE	(BITS_PER_BYTE / BITS_PER_HEAPBLOCK)
#define VM_HEAPBLOCKS_PER_PAGE	(VM_MAPSIZE * VM_HEAPBLOCKS_PER_BYTE)

/*
 * bk_pw_begin
 *		Start writing FORK of REL (the fork exists), holding up to CAPACITY
 *		pages before each write (at most BK_PW_MAX_BATCH: one WAL record's
 *		worth).  Blocks below the fork's current length are overwritten;
 *		blocks past it extend the fork, any gap filled with zero pages.
 */
void
bk_pw_begin(BkPageWriter *pw, Relation rel, ForkNumber fork, bool page_std,
			int capacity)
{
	pw->rel = rel;
	pw->fork = fork;
	pw->page_std = page_std;
	pw->use_wal = RelationNeedsWAL(rel);
	pw->nblocks = smgrnblocks(bk_relation_smgr(rel), fork);
	pw->capacity = Max(1, Min(capacity, BK_PW_MAX_BATCH));
	pw->npending = 0;
	pw->buf = palloc((Size) pw->capacity * BLCKSZ);
}

/*
 * bk_pw_page
 *		A page buffer for block BLKNO, to be filled by the caller before the
 *		next call; earlier pages are written when the batch is full.
 */
Page
bk_pw_page(BkPageWriter *pw, BlockNumber blkno)
{
	if (pw->npending == pw->capacity)
		bk_pw_flush(pw);
	pw->blknos[pw->npending] = blkno;
	return (Page) (pw->buf + (Size) BLCKSZ * pw->npending++);
}

/*
 * bk_pw_write
 *		Write a copy of PAGE, built elsewhere, as block BLKNO.
 */
void
bk_pw_write(BkPageWriter *pw, BlockNumber blkno, Page page)
{
	memcpy(bk_pw_page(pw, blkno), page, BLCKSZ);
}

/*
 * bk_pw_flush
 *		Log and write the pages held.
 *
 * Each write skips its fsync request except the batch's last and any that
 * ends a segment: one request per segment and batch tells the checkpointer
 * to sync the file.  A checkpoint must not begin between our WAL records
 * and that request (it would not sync our writes, yet recovery would start
 * after our records), so the batch runs with checkpoint start delayed, as
 * a buffer write holds its buffer against a checkpoint.  (A checkpoint
 * waits only for processes inside a transaction; ours always are.)
 */
void
bk_pw_flush(BkPageWriter *pw)
{
	Page		pages[BK_PW_MAX_BATCH];
	int			n = pw->npending;

	if (n == 0)
		return;
	for (int i = 0; i < n; i++)
		pages[i] = (Page) (pw->buf + (Size) BLCKSZ * i);

	BK_DELAY_CHECKPOINT_START();
	PG_TRY();
	{
		SMgrRelation smgr;

		if (pw->use_wal)
			log_newpages(BK_REL_LOCATOR(pw->rel), pw->fork, n, pw->blknos, pages,
						 pw->page_std);
		smgr = bk_relation_smgr(pw->rel);
		for (int i = 0; i < n; i++)
		{
			BlockNumber blkno = pw->blknos[i];
			bool		skip_fsync = i < n - 1 && (blkno + 1) % RELSEG_SIZE != 0;

			PageSetChecksumInplace(pages[i], blkno);
			if (blkno < pw->nblocks)
				smgrwrite(smgr, pw->fork, blkno, (char *) pages[i], skip_fsync);
			else
			{
				/* a gap is zero pages, neither logged nor synced: rewritten later */
				while (pw->nblocks < blkno)
				{
					PGAlignedBlock zero = {0};

					smgrextend(smgr, pw->fork, pw->nblocks++, zero.data, true);
				}
				smgrextend(smgr, pw->fork, blkno, (char *) pages[i], skip_fsync);
				pw->nblocks = blkno + 1;
			}
		}
	}
	PG_FINALLY();
	{
		BK_DELAY_CHECKPOINT_END();
	}
	PG_END_TRY();
	pw->npending = 0;
}

/*
 * bk_pw_finish
 *		Write what is left; free the writer's memory.
 */
void
bk_pw_finish(BkPageWriter *pw)
{
	bk_pw_flush(pw);
	pfree(pw->buf);
	pw->buf = NULL;
}

/*
 * bk_preextend
 *		Make the main fork of the new, empty REL NBLOCKS long, so that
 *		several writers can then overwrite disjoint block ranges.  Only the
 *		last block is written (zeros; earlier segments are filled out by the
 *		storage manager, sparsely); it is neither logged nor synced, since
 *		the writers overwrite every block, log it and sync it.
 */
void
bk_preextend(Relation rel, BlockNumber nblocks)
{
	PGAlignedBlock zero;
	SMgrRelation smgr = bk_relation_smgr(rel);

	if (nblocks == 0)
		return;
	if (smgrnblocks(smgr, MAIN_FORKNUM) != 0)
		elog(ERROR, "relation \"%s\" is not empty", RelationGetRelationName(rel));
	memset(zero.data, 0, BLCKSZ);
	smgrextend(smgr, MAIN_FORKNUM, nblocks - 1, zero.data, true);
}

/*
 * bk_write_vm_all_frozen
 *		Write REL's visibility map with every one of its HEAP_BLOCKS blocks
 *		marked all-visible and all-frozen, as COPY FREEZE leaves it.  The
 *		heap pages themselves carry PD_ALL_VISIBLE.
 */
void
bk_write_vm_all_frozen(Relation rel, BlockNumber heap_blocks)
{
	BkPageWriter pw;
	SMgrRelation smgr = bk_relation_smgr(rel);
	BlockNumber vm_blocks;

	if (heap_blocks == 0)
		return;
	if (!smgrexists(smgr, VISIBILITYMAP_FORKNUM))
		smgrcreate(smgr, VISIBILITYMAP_FORKNUM, false);
	vm_blocks = (heap_blocks + VM_HEAPBLOCKS_PER_PAGE - 1) / VM_HEAPBLOCKS_PER_PAGE;

	/* map pages are not of the standard layout: log them whole */
	bk_pw_begin(&pw, rel, VISIBILITYMAP_FORKNUM, false, (int) vm_blocks);
	for (BlockNumber b = 0; b < vm_blocks; b++)
	{
		Page		page = bk_pw_page(&pw, b);
		uint8	   *map;
		BlockNumber first = b * VM_HEAPBLOCKS_PER_PAGE;
		BlockNumber n = Min(heap_blocks - first, (BlockNumber) VM_HEAPBLOCKS_PER_PAGE);

		PageInit(page, BLCKSZ, 0);
		map = (uint8 *) PageGetContents(page);
		memset(map, 0xFF, n / VM_HEAPBLOCKS_PER_BYTE);
		for (BlockNumber i = n - n % VM_HEAPBLOCKS_PER_BYTE; i < n; i++)
			map[i / VM_HEAPBLOCKS_PER_BYTE] |=
				(VISIBILITYMAP_ALL_VISIBLE | VISIBILITYMAP_ALL_FROZEN) <<
				(BITS_PER_HEAPBLOCK * (i % VM_HEAPBLOCKS_PER_BYTE));
	}
	bk_pw_finish(&pw);

	/* other backends may have cached the map's size (none) */
	CacheInvalidateSmgr(BK_SMGR_LOCATOR(bk_relation_smgr(rel)));
}
