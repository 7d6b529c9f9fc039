/*-------------------------------------------------------------------------
 *
 * btbuild.c
 *		Building the primary key of pgbench_accounts without sorting.
 *
 * The loaders know where every account goes (its block and slot), in
 * ascending order of aid, so its primary key needs no heap scan and no
 * sort: this file lays the keys out on btree pages as CREATE INDEX's bulk
 * build (nbtsort.c) lays out sorted input, page for page -- same leaf and
 * internal fill, same truncated high keys, same block numbering, same
 * metapage -- and writes them through pagewriter.c.  It handles only what
 * pgbench needs: a unique index on one int4 or int8 column, whose keys
 * are all distinct (so no posting lists and no heap TIDs in pivots), built
 * on a new, empty index that no one reads until it is complete.  Its one
 * page, the metapage, is replaced through shared buffers at the end; the
 * others are new blocks, which no one can have read.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/itup.h"
#include "access/nbtree.h"
#include "access/xloginsert.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

#include "dataset/btbuild.h"
#include "dataset/pagewriter.h"

/* one level of the tree being built: its rightmost page so far */
typedef struct BtLevel
{
	Page		page;
	BlockNumber blkno;
	OffsetNumber lastoff;		/* last item added; P_HIKEY when none */
	IndexTuple	lowkey;			/* the page's low key (downlink to be) */
	Size		full;			/* free space below which a page is full */
	uint32		level;
	struct BtLevel *up;
} BtLevel;

struct BkBtBuild
{
	Relation	index;
	BkPageWriter pw;
	BlockNumber alloced;		/* next block number to hand out */
	BtLevel    *leaf;
	IndexTuple	tuple;			/* leaf tuple template */
	bool		key_int8;
	Size		key_off;
	bool		allequalimage;
	int64		last_key;
};

static Page
bt_newpage(uint32 level)
{
	Page		page = palloc(BLCKSZ);
	BTPageOpaque opaque;

	_bt_pageinit(page, BLCKSZ);
	opaque = (BTPageOpaque) PageGetSpecialPointer(page);
	opaque->btpo_prev = opaque->btpo_next = P_NONE;
	opaque->btpo_level = level;
	opaque->btpo_flags = (level > 0) ? 0 : BTP_LEAF;
	opaque->btpo_cycleid = 0;
	/* room for the high key's line pointer, filled when the page is done */
	((PageHeader) page)->pd_lower += sizeof(ItemIdData);
	return page;
}

static BtLevel *
bt_level(BkBtBuild *bt, uint32 level)
{
	BtLevel    *l = palloc0(sizeof(BtLevel));

	l->page = bt_newpage(level);
	l->blkno = bt->alloced++;
	l->lastoff = P_HIKEY;
	l->level = level;
	l->full = level > 0 ? BLCKSZ * (100 - BTREE_NONLEAF_FILLFACTOR) / 100 :
		BTGetTargetPageFreeSpace(bt->index);
	return l;
}

static void
bt_write(BkBtBuild *bt, Page page, BlockNumber blkno)
{
	bk_pw_write(&bt->pw, blkno, page);
	pfree(page);
}

/* add an item; the first data item of an internal page keeps no key */
static void
bt_addtup(Page page, Size size, IndexTuple itup, OffsetNumber off, bool minus_infinity)
{
	IndexTupleData trunc;

	if (minus_infinity)
	{
		trunc = *itup;
		trunc.t_info = sizeof(IndexTupleData);
		BTreeTupleSetNAtts(&trunc, 0, false);
		itup = &trunc;
		size = sizeof(IndexTupleData);
	}
	if (PageAddItem(page, (Item) itup, size, off, false, false) == InvalidOffsetNumber)
		elog(ERROR, "could not add an item to a new index page");
}

/*
 * bt_add
 *		Add ITUP to level L, finishing its page first when it is full (by
 *		nbtsort.c's rule) and linking the finished page into the level above.
 */
static void
bt_add(BkBtBuild *bt, BtLevel *l, IndexTuple itup)
{
	Size		itupsz = MAXALIGN(IndexTupleSize(itup));
	Size		pgspc = PageGetFreeSpace(l->page);
	bool		leaf = l->level == 0;

	if (pgspc < itupsz + (leaf ? MAXALIGN(sizeof(ItemPointerData)) : 0) ||
		(pgspc < l->full && l->lastoff > P_FIRSTKEY))
	{
		Page		opage = l->page;
		BlockNumber oblkno = l->blkno;
		ItemId		ii;
		ItemId		hii;
		IndexTuple	oitup;

		l->page = bt_newpage(l->level);
		l->blkno = bt->alloced++;

		/* the last item moves to the new page and becomes the high key */
		ii = PageGetItemId(opage, l->lastoff);
		oitup = (IndexTuple) PageGetItem(opage, ii);
		bt_addtup(l->page, ItemIdGetLength(ii), oitup, P_FIRSTKEY, !leaf);
		hii = PageGetItemId(opage, P_HIKEY);
		*hii = *ii;
		ItemIdSetUnused(ii);
		((PageHeader) opage)->pd_lower -= sizeof(ItemIdData);

		if (leaf)
		{
			/*
			 * Suffix truncation: keys are distinct, so the high key keeps
			 * its one key column and no heap TID, in the same space.
			 */
			IndexTuple	pivot = CopyIndexTuple(oitup);

			BTreeTupleSetNAtts(pivot, 1, false);
			if (!PageIndexTupleOverwrite(opage, P_HIKEY, (Item) pivot, IndexTupleSize(pivot)))
				elog(ERROR, "could not set the high key of a new index page");
			pfree(pivot);
			oitup = (IndexTuple) PageGetItem(opage, PageGetItemId(opage, P_HIKEY));
		}

		if (l->up == NULL)
			l->up = bt_level(bt, l->level + 1);
		BTreeTupleSetDownLink(l->lowkey, oblkno);
		bt_add(bt, l->up, l->lowkey);
		pfree(l->lowkey);
		l->lowkey = CopyIndexTuple(oitup);

		((BTPageOpaque) PageGetSpecialPointer(opage))->btpo_next = l->blkno;
		((BTPageOpaque) PageGetSpecialPointer(l->page))->btpo_prev = oblkno;
		bt_write(bt, opage, oblkno);
		l->lastoff = P_FIRSTKEY;
		CHECK_FOR_INTERRUPTS();
	}

	/* the first item of a level: its first page's low key is minus infinity */
	if (l->lastoff == P_HIKEY)
	{
		l->lowkey = palloc0(sizeof(IndexTupleData));
		l->lowkey->t_info = sizeof(IndexTupleData);
		BTreeTupleSetNAtts(l->lowkey, 0, false);
	}
	l->lastoff = OffsetNumberNext(l->lastoff);
	bt_addtup(l->page, itupsz, itup, l->lastoff, !leaf && l->lastoff == P_FIRSTKEY);
}

/*
 * bk_bt_begin
 *		Start filling INDEX, a new and empty unique btree on one int4 or
 *		int8 column, opened and locked by the caller; CAPACITY pages are
 *		held before each write.
 */
BkBtBuild *
bk_bt_begin(Relation index, int capacity)
{
	BkBtBuild  *bt = palloc0(sizeof(BkBtBuild));
	TupleDesc	desc = RelationGetDescr(index);
	Oid			type = TupleDescAttr(desc, 0)->atttypid;
	Datum		value = Int64GetDatum(0);
	bool		isnull = false;

	if (index->rd_rel->relam != BTREE_AM_OID || desc->natts != 1 ||
		(type != INT4OID && type != INT8OID) || !index->rd_index->indisunique)
		elog(ERROR, "index \"%s\" is not a unique btree on one integer column",
			 RelationGetRelationName(index));

	bt->index = index;
	bt->key_int8 = type == INT8OID;
	if (!bt->key_int8)
		value = Int32GetDatum(0);
	bt->tuple = index_form_tuple(desc, &value, &isnull);
	bt->key_off = IndexInfoFindDataOffset(bt->tuple->t_info);
	bt->allequalimage = _bt_allequalimage(index, false);
	bt->last_key = PG_INT64_MIN;

	bk_pw_begin(&bt->pw, index, MAIN_FORKNUM, true, capacity);
	if (bt->pw.nblocks > 1)
		elog(ERROR, "index \"%s\" is not empty", RelationGetRelationName(index));
	bt->alloced = BTREE_METAPAGE + 1;
	return bt;
}

/*
 * bk_bt_add
 *		Add KEY, pointing at heap tuple (HEAP_BLKNO, HEAP_OFFNUM).  Keys come
 *		in strictly ascending order.
 */
void
bk_bt_add(BkBtBuild *bt, int64 key, BlockNumber heap_blkno, OffsetNumber heap_offnum)
{
	char	   *data = (char *) bt->tuple + bt->key_off;

	if (key <= bt->last_key)
		elog(ERROR, "index keys out of order: " INT64_FORMAT " after " INT64_FORMAT,
			 key, bt->last_key);
	bt->last_key = key;

	if (bt->leaf == NULL)
		bt->leaf = bt_level(bt, 0);
	ItemPointerSet(&bt->tuple->t_tid, heap_blkno, heap_offnum);
	if (bt->key_int8)
		memcpy(data, &key, sizeof(int64));
	else
	{
		int32		key32 = (int32) key;

		memcpy(data, &key32, sizeof(int32));
	}
	bt_add(bt, bt->leaf, bt->tuple);
}

/*
 * bk_bt_finish
 *		Close every level (the rightmost page of each links into the one
 *		above; the top one is the root), write the metapage last, as
 *		nbtsort.c does.  Returns the index's length in blocks.
 */
BlockNumber
bk_bt_finish(BkBtBuild *bt)
{
	BlockNumber root = P_NONE;
	uint32		rootlevel = 0;
	Page		meta;
	Buffer		metabuf;
	BlockNumber nblocks;

	for (BtLevel *l = bt->leaf; l != NULL; l = l->up)
	{
		if (l->up == NULL)
		{
			((BTPageOpaque) PageGetSpecialPointer(l->page))->btpo_flags |= BTP_ROOT;
			root = l->blkno;
			rootlevel = l->level;
		}
		else
		{
			BTreeTupleSetDownLink(l->lowkey, l->blkno);
			bt_add(bt, l->up, l->lowkey);
		}

		/* the rightmost page has no high key: slide the items left */
		if (!PageIsEmpty(l->page))
		{
			OffsetNumber maxoff = PageGetMaxOffsetNumber(l->page);
			ItemId		prev = PageGetItemId(l->page, P_HIKEY);

			for (OffsetNumber off = P_FIRSTKEY; off <= maxoff; off = OffsetNumberNext(off))
			{
				ItemId		this = PageGetItemId(l->page, off);

				*prev = *this;
				prev = this;
			}
			((PageHeader) l->page)->pd_lower -= sizeof(ItemIdData);
		}
		bt_write(bt, l->page, l->blkno);
	}

	bk_pw_finish(&bt->pw);
	nblocks = Max(bt->alloced, bt->pw.nblocks);

	/*
	 * The metapage already exists (CREATE INDEX wrote it, empty) and may be
	 * in shared buffers: committing a new relation under wal_level minimal
	 * logs its small files by reading them there.  So it is replaced
	 * through the buffer manager, last, which makes the tree reachable.
	 */
	meta = palloc(BLCKSZ);
	_bt_initmetapage(meta, root, rootlevel, bt->allequalimage);
	metabuf = ReadBufferExtended(bt->index, MAIN_FORKNUM, BTREE_METAPAGE, RBM_NORMAL, NULL);
	LockBuffer(metabuf, BUFFER_LOCK_EXCLUSIVE);
	START_CRIT_SECTION();
	memcpy(BufferGetPage(metabuf), meta, BLCKSZ);
	MarkBufferDirty(metabuf);
	if (RelationNeedsWAL(bt->index))
		log_newpage_buffer(metabuf, true);
	END_CRIT_SECTION();
	UnlockReleaseBuffer(metabuf);
	pfree(meta);
	pfree(bt->tuple);
	return nblocks;
}
