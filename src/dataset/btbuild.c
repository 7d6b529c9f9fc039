/*-------------------------------------------------------------------------
 *
 * btbuild.c
 *		Building a primary key without sorting.
 *
 * The loaders know where every account goes (its block and slot), in
 * ascending order of aid, so pgbench_accounts' primary key needs no heap
 * scan and no sort; TPC-C's loaders write each unit of a table (a
 * district's order lines, ...) in key order on pages of its own, so a key
 * is its pages ordered by their first key (tpcc.c).  This file lays the
 * keys out on btree pages as CREATE INDEX's bulk build (nbtsort.c) lays
 * out sorted input, page for page -- same leaf and internal fill, same
 * truncated high keys, same block numbering, same metapage -- and writes
 * them through pagewriter.c.  It handles only what those need: a unique
 * index on one int8 column or on int4 columns, whose keys are all
 * distinct (so no posting lists and no heap TIDs in pivots), built on a
 * new, empty index that no one reads until it is complete.  Its one page,
 * the metapage, is replaced through shared buffers at the end; the others
 * are new blocks, which no one can have read.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/itup.h"
#include "access/nbtree.h"
#include "access/xloginsert.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/memutils.h"
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
	bool		key_int8;		/* one int8 column, or nkeys int4 columns */
	int			nkeys;
	Size		key_off;
	bool		allequalimage;
	bool		any;			/* a key was added */
	int64		last_key;
	int32		last_keys[INDEX_MAX_KEYS];
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
 * bt_pivot
 *		The high key between the leaf tuples LASTLEFT and FIRSTRIGHT, as
 *		nbtree's suffix truncation makes it (_bt_truncate): keys are
 *		distinct, so it keeps the key columns up to the first that differs
 *		and no heap TID, the columns dropped zeroed as index_form_tuple
 *		leaves its padding.
 */
static IndexTuple
bt_pivot(BkBtBuild *bt, IndexTuple lastleft, IndexTuple firstright)
{
	IndexTuple	pivot = CopyIndexTuple(firstright);
	int			keep = 1;

	if (!bt->key_int8)
	{
		const int32 *left = (const int32 *) ((char *) lastleft + bt->key_off);
		const int32 *right = (const int32 *) ((char *) firstright + bt->key_off);

		while (keep < bt->nkeys && left[keep - 1] == right[keep - 1])
			keep++;
		if (keep < bt->nkeys)
		{
			Size		used = bt->key_off + sizeof(int32) * keep;
			Size		size = MAXALIGN(used);

			memset((char *) pivot + used, 0, IndexTupleSize(pivot) - used);
			pivot->t_info = (pivot->t_info & ~INDEX_SIZE_MASK) | size;
		}
	}
	BTreeTupleSetNAtts(pivot, keep, false);
	return pivot;
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
			IndexTuple	pivot = bt_pivot(bt, (IndexTuple) PageGetItem(opage,
																	PageGetItemId(opage, OffsetNumberPrev(l->lastoff))),
										 oitup);

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
 *		Start filling INDEX, a new and empty unique btree on one int8
 *		column or on int4 columns (no INCLUDE columns), opened and locked
 *		by the caller; CAPACITY pages are held before each write.
 */
BkBtBuild *
bk_bt_begin(Relation index, int capacity)
{
	BkBtBuild  *bt = palloc0(sizeof(BkBtBuild));
	TupleDesc	desc = RelationGetDescr(index);
	Datum		values[INDEX_MAX_KEYS];
	bool		isnull[INDEX_MAX_KEYS];
	bool		ok = index->rd_rel->relam == BTREE_AM_OID && index->rd_index->indisunique &&
		IndexRelationGetNumberOfKeyAttributes(index) == desc->natts;

	for (int i = 0; ok && i < desc->natts; i++)
	{
		Oid			type = TupleDescAttr(desc, i)->atttypid;

		ok = type == INT4OID || (type == INT8OID && desc->natts == 1);
		values[i] = type == INT8OID ? Int64GetDatum(0) : Int32GetDatum(0);
		isnull[i] = false;
	}
	if (!ok)
		elog(ERROR, "index \"%s\" is not a unique btree on integer columns",
			 RelationGetRelationName(index));

	bt->index = index;
	bt->key_int8 = TupleDescAttr(desc, 0)->atttypid == INT8OID;
	bt->nkeys = desc->natts;
	bt->tuple = index_form_tuple(desc, values, isnull);
	bt->key_off = IndexInfoFindDataOffset(bt->tuple->t_info);
	bt->allequalimage = _bt_allequalimage(index, false);
	bt->last_key = PG_INT64_MIN;

	bk_pw_begin(&bt->pw, index, MAIN_FORKNUM, true, capacity);
	if (bt->pw.nblocks > 1)
		elog(ERROR, "index \"%s\" is not empty", RelationGetRelationName(index));
	bt->alloced = BTREE_METAPAGE + 1;
	return bt;
}

/* add the template tuple, its key set, pointing at the heap tuple given */
static void
bt_add_leaf(BkBtBuild *bt, BlockNumber heap_blkno, OffsetNumber heap_offnum)
{
	if (bt->leaf == NULL)
		bt->leaf = bt_level(bt, 0);
	ItemPointerSet(&bt->tuple->t_tid, heap_blkno, heap_offnum);
	bt_add(bt, bt->leaf, bt->tuple);
	bt->any = true;
}

/*
 * bk_bt_add
 *		Add KEY, of an index on one column, pointing at heap tuple
 *		(HEAP_BLKNO, HEAP_OFFNUM).  Keys come in strictly ascending order.
 */
void
bk_bt_add(BkBtBuild *bt, int64 key, BlockNumber heap_blkno, OffsetNumber heap_offnum)
{
	char	   *data = (char *) bt->tuple + bt->key_off;

	Assert(bt->nkeys == 1);
	if (bt->any && key <= bt->last_key)
		elog(ERROR, "index keys out of order: " INT64_FORMAT " after " INT64_FORMAT,
			 key, bt->last_key);
	bt->last_key = key;
	if (bt->key_int8)
		memcpy(data, &key, sizeof(int64));
	else
	{
		int32		key32 = (int32) key;

		memcpy(data, &key32, sizeof(int32));
	}
	bt_add_leaf(bt, heap_blkno, heap_offnum);
}

/*
 * bk_bt_add_keys
 *		Add the key KEYS (one per column, of an index on int4 columns),
 *		pointing at heap tuple (HEAP_BLKNO, HEAP_OFFNUM).  Keys come in
 *		strictly ascending order.
 */
void
bk_bt_add_keys(BkBtBuild *bt, const int32 *keys, BlockNumber heap_blkno,
			   OffsetNumber heap_offnum)
{
	int			i = 0;

	Assert(!bt->key_int8);
	while (i < bt->nkeys && keys[i] == bt->last_keys[i])
		i++;
	if (bt->any && (i == bt->nkeys || keys[i] < bt->last_keys[i]))
		elog(ERROR, "index \"%s\": keys out of order at heap tuple (%u,%u)",
			 RelationGetRelationName(bt->index), heap_blkno, heap_offnum);
	memcpy(bt->last_keys, keys, sizeof(int32) * bt->nkeys);
	memcpy((char *) bt->tuple + bt->key_off, keys, sizeof(int32) * bt->nkeys);
	bt_add_leaf(bt, heap_blkno, heap_offnum);
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

/* ------------------------------------------------------------------------
 * A key from the pages of a heap whose units lie on pages of their own
 * ------------------------------------------------------------------------
 */

/* the columns of such a key: at most four (TPC-C's order_line has four) */
#define BT_PAGE_KEYS	4

/* a heap page and the key of its first row */
typedef struct BtPageKey
{
	int32		key[BT_PAGE_KEYS];
	BlockNumber blkno;
} BtPageKey;

typedef struct BtHeapKey
{
	Relation	heap;
	TupleDesc	desc;
	int			nkeys;
	AttrNumber	attnums[BT_PAGE_KEYS];
} BtHeapKey;

/* the key of the row at OFF of PAGE (block BLKNO) */
static void
bt_heap_key(const BtHeapKey *hk, Page page, BlockNumber blkno, OffsetNumber off, int32 *key)
{
	ItemId		iid = PageGetItemId(page, off);
	HeapTupleData tuple;

	if (!ItemIdIsNormal(iid))
		elog(ERROR, "unexpected line pointer at (%u,%u) of \"%s\"",
			 blkno, off, RelationGetRelationName(hk->heap));
	tuple.t_data = (HeapTupleHeader) PageGetItem(page, iid);
	tuple.t_len = ItemIdGetLength(iid);
	tuple.t_tableOid = RelationGetRelid(hk->heap);
	ItemPointerSet(&tuple.t_self, blkno, off);
	for (int i = 0; i < hk->nkeys; i++)
	{
		bool		isnull;
		Datum		d = heap_getattr(&tuple, hk->attnums[i], hk->desc, &isnull);

		if (isnull)
			elog(ERROR, "a key column is null at (%u,%u) of \"%s\"",
				 blkno, off, RelationGetRelationName(hk->heap));
		key[i] = DatumGetInt32(d);
	}
}

static int
bt_page_key_cmp(const void *a, const void *b, void *arg)
{
	const BtPageKey *x = (const BtPageKey *) a;
	const BtPageKey *y = (const BtPageKey *) b;
	int			nkeys = *(const int *) arg;

	for (int i = 0; i < nkeys; i++)
		if (x->key[i] != y->key[i])
			return x->key[i] < y->key[i] ? -1 : 1;
	return 0;
}

static inline void
bt_check_cancel(BkBtBuild *bt, pg_atomic_uint32 *cancel)
{
	CHECK_FOR_INTERRUPTS();
	if (pg_atomic_read_u32(cancel) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_QUERY_CANCELED),
				 errmsg("building the index \"%s\" was canceled",
						RelationGetRelationName(bt->index))));
}

/*
 * bk_bt_build_from_pages
 *		Fill INDEX, a new and empty unique btree on int4 columns of HEAP (at
 *		most BT_PAGE_KEYS of them), from HEAP's pages alone, without a sort:
 *		each page holds rows in ascending order of the key, and no two
 *		pages' ranges of keys overlap (a loader's unit, a range of keys, on
 *		pages of its own: heapfill.c), so the pages ordered by their first
 *		key give every key in order.  A heap laid out otherwise fails with
 *		an error ("keys out of order").  The caller holds a lock on HEAP
 *		that keeps writers and VACUUM away.  Returns the rows.
 */
int64
bk_bt_build_from_pages(Relation heap, Relation index, pg_atomic_uint32 *cancel)
{
	BtHeapKey	hk;
	BlockNumber nblocks = RelationGetNumberOfBlocks(heap);
	BufferAccessStrategy strategy = GetAccessStrategy(BAS_BULKREAD);
	BtPageKey  *pages;
	int64		npages = 0;
	int64		rows = 0;
	BkBtBuild  *bt;

	hk.heap = heap;
	hk.desc = RelationGetDescr(heap);
	hk.nkeys = IndexRelationGetNumberOfKeyAttributes(index);
	if (hk.nkeys > BT_PAGE_KEYS)
		elog(ERROR, "index \"%s\" has more than %d key columns",
			 RelationGetRelationName(index), BT_PAGE_KEYS);
	for (int i = 0; i < hk.nkeys; i++)
	{
		hk.attnums[i] = index->rd_index->indkey.values[i];
		if (hk.attnums[i] <= 0 ||
			TupleDescAttr(hk.desc, hk.attnums[i] - 1)->atttypid != INT4OID)
			elog(ERROR, "index \"%s\" is not on int4 columns of its table",
				 RelationGetRelationName(index));
	}
	bt = bk_bt_begin(index, BK_PW_MAX_BATCH);

	/* each page's first key */
	pages = MemoryContextAllocHuge(CurrentMemoryContext,
								   sizeof(BtPageKey) * Max(nblocks, (BlockNumber) 1));
	for (BlockNumber blkno = 0; blkno < nblocks; blkno++)
	{
		Buffer		buf = ReadBufferExtended(heap, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);
		Page		page;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!PageIsNew(page) && PageGetMaxOffsetNumber(page) >= FirstOffsetNumber)
		{
			bt_heap_key(&hk, page, blkno, FirstOffsetNumber, pages[npages].key);
			pages[npages++].blkno = blkno;
		}
		UnlockReleaseBuffer(buf);
		if (blkno % 1024 == 0)
			bt_check_cancel(bt, cancel);
	}
	qsort_arg(pages, (size_t) npages, sizeof(BtPageKey), bt_page_key_cmp, &hk.nkeys);

	/* every key, page by page in that order */
	for (int64 i = 0; i < npages; i++)
	{
		Buffer		buf = ReadBufferExtended(heap, MAIN_FORKNUM, pages[i].blkno, RBM_NORMAL,
											 strategy);
		Page		page;
		OffsetNumber maxoff;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		maxoff = PageGetMaxOffsetNumber(page);
		for (OffsetNumber off = FirstOffsetNumber; off <= maxoff; off = OffsetNumberNext(off))
		{
			int32		key[BT_PAGE_KEYS];

			bt_heap_key(&hk, page, pages[i].blkno, off, key);
			bk_bt_add_keys(bt, key, pages[i].blkno, off);
		}
		rows += maxoff;
		UnlockReleaseBuffer(buf);
		if (i % 1024 == 0)
			bt_check_cancel(bt, cancel);
	}
	(void) bk_bt_finish(bt);
	pfree(pages);
	FreeAccessStrategy(strategy);
	return rows;
}
