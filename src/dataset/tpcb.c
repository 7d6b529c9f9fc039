/*-------------------------------------------------------------------------
 *
 * tpcb.c
 *		pgbench's TPC-B-like dataset: tables, keys and the bulk loader.
 *
 * The tables, columns, types, fillers, fillfactor, partitioning, primary
 * and foreign keys are those of pgbench -i, so that pgbench and bench.run
 * can be compared on the same tables.  The data are not sent as COPY text:
 * the loader forms each tuple directly and hands them to the table access
 * method in batches (table_multi_insert), frozen and skipping the free space
 * map, which is what COPY ... WITH (FREEZE) does once it has parsed its
 * input.  A target gets what pgbench -i sends it: the same CREATE TABLEs
 * (tpcb_table_sql, tpcb_partition_sql, which the in-server load runs too),
 * COPY text or INSERT ... SELECT, and the keys (init_remote.c sends them).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/heapam.h"
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/multixact.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/partition.h"
#include "commands/vacuum.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "storage/ipc.h"
#include "storage/lmgr.h"
#include "storage/pmsignal.h"
#include "storage/smgr.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "dataset/btbuild.h"
#include "dataset/bulkload.h"
#include "meta/catalog.h"
#include "core/compat.h"
#include "dataset/pagewriter.h"
#include "dataset/tpcb.h"

/* name suffixes: pgbench names its tables pgbench_<suffix> */
const char *const tpcb_table_suffix[TPCB_NTABLES] = {
	"history", "tellers", "accounts", "branches"
};

/*
 * Column lists of pgbench's initCreateTables, for 32-bit and 64-bit account
 * ids, and whether the table takes the fillfactor.
 */
static const struct
{
	const char *smcols;
	const char *bigcols;
	bool		fillfactor;
}			tpcb_ddl[TPCB_NTABLES] = {
	{"tid int,bid int,aid    int,delta int,mtime timestamp,filler char(22)",
	"tid int,bid int,aid bigint,delta int,mtime timestamp,filler char(22)", false},
	{"tid int not null,bid int,tbalance int,filler char(84)",
	"tid int not null,bid int,tbalance int,filler char(84)", true},
	{"aid    int not null,bid int,abalance int,filler char(84)",
	"aid bigint not null,bid int,abalance int,filler char(84)", true},
	{"bid int not null,bbalance int,filler char(88)",
	"bid int not null,bbalance int,filler char(88)", true},
};

/* tuples handed to the table AM in one call, as COPY does */
#define TPCB_BATCH_ROWS 1000

/*
 * tpcb_naccounts
 *		Number of rows of pgbench_accounts at this scale.
 */
int64
tpcb_naccounts(const TpcbOptions *opts)
{
	return (int64) TPCB_NACCOUNTS * opts->scale;
}

/*
 * tpcb_estimate_bytes
 *		Disk space the loaded dataset will take, rounded up.
 *
 * An account row takes 132 bytes of a page (tuple header, three integers,
 * the blank-padded filler, line pointer): 61 rows in a full 8 kB page.  Its
 * primary key takes about 2.3 MB per unit of scale (more with bigint ids).
 */
uint64
tpcb_estimate_bytes(const TpcbOptions *opts)
{
	double		rows_per_page = floor((BLCKSZ * opts->fillfactor / 100.0 - 24) / 132.0);
	double		heap_pages;
	double		index_bytes;

	if (rows_per_page < 1)
		rows_per_page = 1;
	heap_pages = ceil(TPCB_NACCOUNTS / rows_per_page) * opts->scale;
	index_bytes = (opts->scale >= TPCB_SCALE_32BIT_THRESHOLD ? 2.9 : 2.3) *
		1024.0 * 1024.0 * opts->scale;
	return (uint64) (heap_pages * BLCKSZ + index_bytes);
}

/*
 * tpcb_part_method_name
 *		The partition method as pgbench spells it.
 */
const char *
tpcb_part_method_name(TpcbPartMethod method)
{
	switch (method)
	{
		case TPCB_PART_RANGE:
			return "range";
		case TPCB_PART_HASH:
			return "hash";
		default:
			return "none";
	}
}

/*
 * tpcb_table_name
 *		PREFIX followed by the table's suffix: "pgbench_" gives pgbench's
 *		names, a staging prefix gives the names used while loading.
 */
char *
tpcb_table_name(const char *prefix, int table)
{
	return psprintf("%s%s", prefix, tpcb_table_suffix[table]);
}

/*
 * tpcb_partition_name
 *		Name of partition PARTNO (1-based) of the accounts table.
 */
char *
tpcb_partition_name(const char *prefix, int partno)
{
	return psprintf("%saccounts_%d", prefix, partno);
}

/*
 * tpcb_unlogged_table
 *		Whether the four tables are created unlogged on a server whose
 *		server_version_num is VERSION.  pgbench up to 17 makes them all
 *		unlogged with --unlogged-tables; PostgreSQL 18 no longer allows
 *		unlogged partitioned tables, so its pgbench leaves them logged when
 *		pgbench_accounts is partitioned (the partitions are unlogged either
 *		way).  We follow the pgbench of the server that gets the tables.
 */
static bool
tpcb_unlogged_table(const TpcbOptions *opts, int version)
{
	if (version >= 180000)
		return opts->unlogged && opts->method == TPCB_PART_NONE;
	return opts->unlogged;
}

/*
 * tpcb_table_sql
 *		pgbench's CREATE TABLE of table T, named NSPNAME.PREFIX<suffix>, for
 *		a server whose server_version_num is VERSION.
 */
char *
tpcb_table_sql(const TpcbOptions *opts, int version, const char *nspname,
			   const char *prefix, int t)
{
	StringInfoData sql;
	bool		big = opts->scale >= TPCB_SCALE_32BIT_THRESHOLD;

	initStringInfo(&sql);
	appendStringInfo(&sql, "create%s table %s.%s(%s)",
					 tpcb_unlogged_table(opts, version) ? " unlogged" : "",
					 quote_identifier(nspname), quote_identifier(tpcb_table_name(prefix, t)),
					 big ? tpcb_ddl[t].bigcols : tpcb_ddl[t].smcols);
	if (opts->method != TPCB_PART_NONE && t == TPCB_ACCOUNTS)
		appendStringInfo(&sql, " partition by %s (aid)",
						 tpcb_part_method_name(opts->method));
	else if (tpcb_ddl[t].fillfactor)
		appendStringInfo(&sql, " with (fillfactor=%d)", opts->fillfactor);
	return sql.data;
}

/*
 * tpcb_partition_sql
 *		pgbench's CREATE TABLE of partition P (1-based) of the accounts
 *		table, both named after PREFIX in NSPNAME.
 */
char *
tpcb_partition_sql(const TpcbOptions *opts, const char *nspname, const char *prefix, int p)
{
	StringInfoData sql;
	const char *qnsp = quote_identifier(nspname);

	initStringInfo(&sql);
	appendStringInfo(&sql, "create%s table %s.%s partition of %s.%s ",
					 opts->unlogged ? " unlogged" : "",
					 qnsp, quote_identifier(tpcb_partition_name(prefix, p)),
					 qnsp, quote_identifier(tpcb_table_name(prefix, TPCB_ACCOUNTS)));
	if (opts->method == TPCB_PART_RANGE)
	{
		int64		part_size = (tpcb_naccounts(opts) + opts->partitions - 1) / opts->partitions;

		appendStringInfoString(&sql, "for values from (");
		if (p == 1)
			appendStringInfoString(&sql, "minvalue");
		else
			appendStringInfo(&sql, INT64_FORMAT, (p - 1) * part_size + 1);
		appendStringInfoString(&sql, ") to (");
		if (p < opts->partitions)
			appendStringInfo(&sql, INT64_FORMAT, p * part_size + 1);
		else
			appendStringInfoString(&sql, "maxvalue");
		appendStringInfoChar(&sql, ')');
	}
	else
		appendStringInfo(&sql, "for values with (modulus %d, remainder %d)",
						 opts->partitions, p - 1);
	appendStringInfo(&sql, " with (fillfactor=%d)", opts->fillfactor);
	return sql.data;
}

/*
 * tpcb_create_tables
 *		Create the four tables (and the accounts partitions) in NSPNAME,
 *		named PREFIX<suffix>, with pgbench's definitions.  Needs SPI.
 */
void
tpcb_create_tables(const TpcbOptions *opts, const char *nspname,
				   const char *prefix)
{
	for (int t = 0; t < TPCB_NTABLES; t++)
		bk_spi_utility(tpcb_table_sql(opts, PG_VERSION_NUM, nspname, prefix, t));
	for (int p = 1; p <= opts->partitions && opts->method != TPCB_PART_NONE; p++)
		bk_spi_utility(tpcb_partition_sql(opts, nspname, prefix, p));
}

/*
 * tpcb_add_accounts_key
 *		The primary key of the new, still empty accounts table named
 *		PREFIXaccounts (and of its partitions): its pages are written with
 *		the rows' (tpcb_build_account_keys, or the hash loaders).  Renamed
 *		with the table, it is pgbench's pgbench_accounts_pkey.
 */
void
tpcb_add_accounts_key(const char *nspname, const char *prefix)
{
	bk_spi_utility(psprintf("alter table %s add primary key (aid)",
							quote_qualified_identifier(nspname,
													   tpcb_table_name(prefix, TPCB_ACCOUNTS))));
}

/* pgbench's primary keys, in the order of its step "p" */
static const struct
{
	int			table;
	const char *column;
}			tpcb_pkeys[] = {
	{TPCB_BRANCHES, "bid"},
	{TPCB_TELLERS, "tid"},
	{TPCB_ACCOUNTS, "aid"},
};

/* pgbench's foreign keys (its step "f"), with its constraint names */
static const char *const tpcb_fkeys[][4] = {
	{"tellers", "pgbench_tellers_bid_fkey", "bid", "branches"},
	{"accounts", "pgbench_accounts_bid_fkey", "bid", "branches"},
	{"history", "pgbench_history_bid_fkey", "bid", "branches"},
	{"history", "pgbench_history_tid_fkey", "tid", "tellers"},
	{"history", "pgbench_history_aid_fkey", "aid", "accounts"},
};

/* ALTER TABLE ... ADD PRIMARY KEY of pgbench's key I, in NSPNAME */
static char *
tpcb_primary_key_sql(const char *nspname, int i)
{
	return psprintf("alter table %s.pgbench_%s add primary key (%s)",
					quote_identifier(nspname), tpcb_table_suffix[tpcb_pkeys[i].table],
					tpcb_pkeys[i].column);
}

/*
 * tpcb_foreign_keys_sql
 *		pgbench's foreign keys as ALTER TABLE statements, in NSPNAME.
 */
List *
tpcb_foreign_keys_sql(const char *nspname)
{
	const char *qnsp = quote_identifier(nspname);
	List	   *stmts = NIL;

	for (int i = 0; i < lengthof(tpcb_fkeys); i++)
		stmts = lappend(stmts,
						psprintf("alter table %s.pgbench_%s add constraint %s "
								 "foreign key (%s) references %s.pgbench_%s",
								 qnsp, tpcb_fkeys[i][0], tpcb_fkeys[i][1], tpcb_fkeys[i][2],
								 qnsp, tpcb_fkeys[i][3]));
	return stmts;
}

/*
 * tpcb_add_primary_keys
 *		pgbench's primary keys of pgbench_branches and pgbench_tellers, on
 *		the tables with their final names, built by CREATE INDEX as pgbench
 *		builds them (they are small).  The key of pgbench_accounts was
 *		written with its rows.
 */
void
tpcb_add_primary_keys(const char *nspname)
{
	for (int i = 0; i < lengthof(tpcb_pkeys); i++)
		if (tpcb_pkeys[i].table != TPCB_ACCOUNTS)
			bk_spi_utility(tpcb_primary_key_sql(nspname, i));
}

/*
 * tpcb_add_foreign_keys
 *		pgbench's foreign keys (its step "f"), with its constraint names.
 */
void
tpcb_add_foreign_keys(const char *nspname)
{
	ListCell   *lc;

	foreach(lc, tpcb_foreign_keys_sql(nspname))
		bk_spi_utility((const char *) lfirst(lc));
}

/*
 * blank_filler
 *		The value pgbench's '' becomes in a char(n) column of REL: n blanks.
 */
static Datum
blank_filler(Relation rel, int attnum)
{
	Form_pg_attribute att = TupleDescAttr(RelationGetDescr(rel), attnum - 1);

	return DirectFunctionCall3(bpcharin, CStringGetDatum(""),
							   ObjectIdGetDatum(InvalidOid),
							   Int32GetDatum(att->atttypmod));
}

/*
 * tpcb_load_branches_tellers
 *		Fill pgbench_branches and pgbench_tellers; their filler is NULL, as
 *		in pgbench.  Returns the number of rows.
 */
int64
tpcb_load_branches_tellers(const TpcbOptions *opts, Oid branches, Oid tellers)
{
	BkBulkTarget	bt;
	Datum		values[4];
	bool		nulls[4] = {false, false, false, true};
	int64		nb = (int64) TPCB_NBRANCHES * opts->scale;
	int64		nt = (int64) TPCB_NTELLERS * opts->scale;

	bk_bulk_open(&bt, branches, TPCB_BATCH_ROWS);
	for (int64 bid = 1; bid <= nb; bid++)
	{
		values[0] = Int32GetDatum((int32) bid);
		values[1] = Int32GetDatum(0);
		bk_bulk_add(&bt, values, nulls + 1);	/* bid, bbalance, filler NULL */
	}
	bk_bulk_close(&bt);

	bk_bulk_open(&bt, tellers, TPCB_BATCH_ROWS);
	for (int64 tid = 1; tid <= nt; tid++)
	{
		values[0] = Int32GetDatum((int32) tid);
		values[1] = Int32GetDatum((int32) ((tid - 1) / TPCB_NTELLERS + 1));
		values[2] = Int32GetDatum(0);
		bk_bulk_add(&bt, values, nulls);
		if (tid % TPCB_BATCH_ROWS == 0)
			CHECK_FOR_INTERRUPTS();
	}
	bk_bulk_close(&bt);
	return nb + nt;
}

/*
 * hash_partition_of
 *		The remainder of the hash partition a 32- or 64-bit account id
 *		belongs to, computed as PostgreSQL's partition routing does for a
 *		single integer key: the type's extended hash with the partition
 *		seed, combined, modulo the number of partitions.
 */
static inline int
hash_partition_of(int64 aid, bool big, int partitions)
{
	uint64		h;

	if (big)
		h = DatumGetUInt64(DirectFunctionCall2(hashint8extended, Int64GetDatum(aid),
											   UInt64GetDatum(HASH_PARTITION_SEED)));
	else
		h = DatumGetUInt64(DirectFunctionCall2(hashint4extended, Int32GetDatum((int32) aid),
											   UInt64GetDatum(HASH_PARTITION_SEED)));
	return (int) (hash_combine64(0, h) % (uint64) partitions);
}

/*
 * An account row ready to be copied onto pages: formed once, frozen, with
 * the offsets of the two columns that change from row to row.
 */
typedef struct AccountTemplate
{
	HeapTuple	tuple;			/* owns data */
	HeapTupleHeader data;
	uint32		len;
	bool		big;			/* aid is bigint */
	int			aid_off;		/* from the start of the tuple's data */
	int			bid_off;
	int			rows_per_page;
} AccountTemplate;

/*
 * account_template
 *		The account row of REL (aid and bid to be filled in) and how many of
 *		them a page of REL takes.
 *
 * The row is frozen as COPY FREEZE freezes it, except that its xmin is
 * FrozenTransactionId itself: the loaders need no transaction id.  Rows
 * per page follow heap_multi_insert's rule: a new page takes its first
 * row, then more while the free space left exceeds the row plus the space
 * the fillfactor keeps free.  Every row has the same length, so every page
 * but the last holds the same number.
 */
static void
account_template(Relation rel, bool big, AccountTemplate *t)
{
	TupleDesc	desc = RelationGetDescr(rel);
	Datum		values[4];
	bool		nulls[4] = {false, false, false, false};
	HeapTuple	tuple;
	int			off = 0;
	Size		save = RelationGetTargetPageFreeSpace(rel, HEAP_DEFAULT_FILLFACTOR);
	PGAlignedBlock scratch;
	Page		page = (Page) scratch.data;

	values[0] = big ? Int64GetDatum(1) : Int32GetDatum(1);
	values[1] = Int32GetDatum(1);
	values[2] = Int32GetDatum(0);
	values[3] = blank_filler(rel, 4);
	tuple = heap_form_tuple(desc, values, nulls);

	t->tuple = tuple;
	t->data = tuple->t_data;
	t->len = tuple->t_len;
	t->data->t_infomask &= ~HEAP_XACT_MASK;
	t->data->t_infomask2 &= ~HEAP2_XACT_MASK;
	t->data->t_infomask |= HEAP_XMAX_INVALID;
	HeapTupleHeaderSetXmin(t->data, FrozenTransactionId);
	HeapTupleHeaderSetXminFrozen(t->data);
	HeapTupleHeaderSetCmin(t->data, FirstCommandId);
	HeapTupleHeaderSetXmax(t->data, 0);

	/* aid and bid lead the row, never null: their offsets are fixed */
	t->big = big;
	off = att_align_nominal(off, TupleDescAttr(desc, 0)->attalign);
	t->aid_off = off;
	off += TupleDescAttr(desc, 0)->attlen;
	off = att_align_nominal(off, TupleDescAttr(desc, 1)->attalign);
	t->bid_off = off;

	PageInit(page, BLCKSZ, 0);
	t->rows_per_page = 0;
	while (t->rows_per_page == 0 ||
		   PageGetHeapFreeSpace(page) >= MAXALIGN(t->len) + save)
	{
		if (PageAddItem(page, (Item) t->data, t->len, InvalidOffsetNumber,
						false, true) == InvalidOffsetNumber)
			break;
		t->rows_per_page++;
	}
	if (t->rows_per_page == 0)
		elog(ERROR, "an account row does not fit on a page");
}

/*
 * put_account
 *		Add account AID to PAGE, block BLKNO; returns its slot.
 */
static inline OffsetNumber
put_account(Page page, BlockNumber blkno, const AccountTemplate *t, int64 aid)
{
	OffsetNumber off;
	HeapTupleHeader tup;
	char	   *data;
	int32		bid = (int32) ((aid - 1) / TPCB_NACCOUNTS + 1);

	off = PageAddItem(page, (Item) t->data, t->len, InvalidOffsetNumber, false, true);
	if (off == InvalidOffsetNumber)
		elog(ERROR, "could not add account " INT64_FORMAT " to block %u", aid, blkno);
	tup = (HeapTupleHeader) PageGetItem(page, PageGetItemId(page, off));
	ItemPointerSet(&tup->t_ctid, blkno, off);
	data = (char *) tup + tup->t_hoff;
	if (t->big)
		memcpy(data + t->aid_off, &aid, sizeof(int64));
	else
	{
		int32		aid32 = (int32) aid;

		memcpy(data + t->aid_off, &aid32, sizeof(int32));
	}
	memcpy(data + t->bid_off, &bid, sizeof(int32));
	return off;
}

/* the primary key index of a leaf of the accounts table */
static Oid
leaf_key(Relation rel)
{
	List	   *indexes = RelationGetIndexList(rel);

	if (list_length(indexes) != 1)
		elog(ERROR, "relation \"%s\" should have exactly one index", RelationGetRelationName(rel));
	return linitial_oid(indexes);
}

/* a new, empty heap page whose rows will all be frozen */
static inline void
init_heap_page(Page page)
{
	PageInit(page, BLCKSZ, 0);
	PageSetAllVisible(page);
}

/*
 * leaf_rows
 *		The accounts of leaf LEAF of an unpartitioned or range-partitioned
 *		table: FIRST_AID and the number of rows (ids are contiguous).
 */
static int64
leaf_rows(const TpcbOptions *opts, int leaf, int64 *first_aid)
{
	int64		naccounts = tpcb_naccounts(opts);
	int64		part_size;

	if (opts->method == TPCB_PART_NONE)
	{
		*first_aid = 1;
		return naccounts;
	}
	Assert(opts->method == TPCB_PART_RANGE);
	part_size = (naccounts + opts->partitions - 1) / opts->partitions;
	*first_aid = leaf * part_size + 1;
	return Max(0, Min(part_size, naccounts - leaf * part_size));
}

/* check for cancel and interrupts, and report rows done */
static inline void
load_checkpoint(pg_atomic_uint64 *progress, int64 *pending, pg_atomic_uint32 *cancel)
{
	pg_atomic_fetch_add_u64(progress, *pending);
	*pending = 0;
	CHECK_FOR_INTERRUPTS();
	if (pg_atomic_read_u32(cancel) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_QUERY_CANCELED),
				 errmsg("loading of pgbench_accounts was canceled")));
}

/*
 * tpcb_prepare_accounts
 *		Before the loaders start: write the visibility map of each leaf of
 *		an unpartitioned or range-partitioned accounts table and, when
 *		NLOADERS > 1, give it its final length, so that the loaders can
 *		write disjoint block ranges of it at once (one loader appends).
 *		Hash leaves are filled by one loader each, which writes their maps
 *		itself.  Runs in the caller's transaction.
 */
void
tpcb_prepare_accounts(const TpcbOptions *opts, const Oid *leaves, int nloaders)
{
	int			nleaves = tpcb_nleaves(opts);
	bool		big = opts->scale >= TPCB_SCALE_32BIT_THRESHOLD;

	if (opts->method == TPCB_PART_HASH)
		return;
	for (int leaf = 0; leaf < nleaves; leaf++)
	{
		int64		first_aid;
		int64		nrows = leaf_rows(opts, leaf, &first_aid);
		Relation	rel;
		AccountTemplate t;
		BlockNumber npages;

		if (nrows == 0)
			continue;
		rel = table_open(leaves[leaf], RowExclusiveLock);
		account_template(rel, big, &t);
		npages = (BlockNumber) ((nrows + t.rows_per_page - 1) / t.rows_per_page);
		if (nloaders > 1)
			bk_preextend(rel, npages);
		bk_write_vm_all_frozen(rel, npages);
		table_close(rel, NoLock);
		heap_freetuple(t.tuple);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * load_contiguous
 *		Loader LOADER of NLOADERS, unpartitioned or range-partitioned: its
 *		share of the pages of every leaf, prepared by tpcb_prepare_accounts.
 */
static int64
load_contiguous(const TpcbOptions *opts, const Oid *leaves, int loader, int nloaders,
				pg_atomic_uint64 *progress, pg_atomic_uint32 *cancel)
{
	int			nleaves = tpcb_nleaves(opts);
	bool		big = opts->scale >= TPCB_SCALE_32BIT_THRESHOLD;
	int64		total = 0;
	int64		pending = 0;

	for (int leaf = 0; leaf < nleaves; leaf++)
	{
		int64		first_aid;
		int64		nrows = leaf_rows(opts, leaf, &first_aid);
		int64		npages;
		int64		p0,
					p1;
		Relation	rel;
		AccountTemplate t;
		BkPageWriter pw;

		if (nrows == 0)
			continue;
		rel = table_open(leaves[leaf], RowExclusiveLock);
		account_template(rel, big, &t);
		npages = (nrows + t.rows_per_page - 1) / t.rows_per_page;
		p0 = npages * loader / nloaders;
		p1 = npages * (loader + 1) / nloaders;

		bk_pw_begin(&pw, rel, MAIN_FORKNUM, true, BK_PW_MAX_BATCH);
		for (int64 p = p0; p < p1; p++)
		{
			Page		page = bk_pw_page(&pw, (BlockNumber) p);
			int64		aid = first_aid + p * t.rows_per_page;
			int64		end = Min(aid + t.rows_per_page, first_aid + nrows);

			init_heap_page(page);
			for (; aid < end; aid++)
				put_account(page, (BlockNumber) p, &t, aid);
			pending += end - (first_aid + p * t.rows_per_page);
			if (pending >= TPCB_BATCH_ROWS)
			{
				total += pending;
				load_checkpoint(progress, &pending, cancel);
			}
		}
		bk_pw_finish(&pw);
		table_close(rel, NoLock);
		heap_freetuple(t.tuple);
	}
	total += pending;
	load_checkpoint(progress, &pending, cancel);
	return total;
}

/* a hash leaf being filled by its one loader */
typedef struct HashLeaf
{
	Relation	rel;
	Relation	index;
	BkBtBuild  *key;
	int64		rows;
	BkPageWriter pw;
	Page		page;			/* current page, or NULL */
	BlockNumber nblocks;
	int			nrows;			/* on the current page */
} HashLeaf;

/*
 * load_hash
 *		Loader LOADER of NLOADERS, hash-partitioned: the whole of every leaf
 *		whose number is LOADER modulo NLOADERS, and its primary key, built
 *		as the rows are placed.  Ids scatter over the leaves, so each loader
 *		walks all of them and keeps its own.  The rows of each leaf go to
 *		LEAF_ROWS_OUT.
 */
static int64
load_hash(const TpcbOptions *opts, const Oid *leaves, int64 *leaf_rows_out,
		  int loader, int nloaders, pg_atomic_uint64 *progress, pg_atomic_uint32 *cancel)
{
	int			nleaves = opts->partitions;
	int			nmine = (nleaves - loader + nloaders - 1) / nloaders;
	bool		big = opts->scale >= TPCB_SCALE_32BIT_THRESHOLD;
	int64		naccounts = tpcb_naccounts(opts);
	HashLeaf   *mine;
	AccountTemplate t;
	int			capacity;
	int64		total = 0;
	int64		pending = 0;

	if (nmine <= 0)
		return 0;

	/* bound the pages held in memory, whatever the number of leaves */
	capacity = Max(1, 1024 / nmine);
	mine = palloc0(sizeof(HashLeaf) * nmine);
	for (int i = 0; i < nmine; i++)
	{
		mine[i].rel = table_open(leaves[loader + i * nloaders], RowExclusiveLock);
		if (smgrnblocks(bk_relation_smgr(mine[i].rel), MAIN_FORKNUM) != 0)
			elog(ERROR, "relation \"%s\" is not empty", RelationGetRelationName(mine[i].rel));
		bk_pw_begin(&mine[i].pw, mine[i].rel, MAIN_FORKNUM, true, capacity);
		mine[i].index = index_open(leaf_key(mine[i].rel), RowExclusiveLock);
		mine[i].key = bk_bt_begin(mine[i].index, capacity);
	}
	/* the leaves share a definition and a fillfactor, hence one template */
	account_template(mine[0].rel, big, &t);

	for (int64 aid = 1; aid <= naccounts; aid++)
	{
		int			leaf = hash_partition_of(aid, big, nleaves);
		HashLeaf   *hl;

		if (leaf % nloaders != loader)
			continue;
		hl = &mine[leaf / nloaders];
		if (hl->page == NULL || hl->nrows == t.rows_per_page)
		{
			hl->page = bk_pw_page(&hl->pw, hl->nblocks++);
			init_heap_page(hl->page);
			hl->nrows = 0;
		}
		bk_bt_add(hl->key, aid, hl->nblocks - 1,
				  put_account(hl->page, hl->nblocks - 1, &t, aid));
		hl->nrows++;
		hl->rows++;
		if (++pending == TPCB_BATCH_ROWS)
		{
			total += pending;
			load_checkpoint(progress, &pending, cancel);
		}
	}

	for (int i = 0; i < nmine; i++)
	{
		bk_pw_finish(&mine[i].pw);
		bk_write_vm_all_frozen(mine[i].rel, mine[i].nblocks);
		(void) bk_bt_finish(mine[i].key);
		leaf_rows_out[loader + i * nloaders] = mine[i].rows;
		index_close(mine[i].index, NoLock);
		table_close(mine[i].rel, NoLock);
	}
	total += pending;
	load_checkpoint(progress, &pending, cancel);
	heap_freetuple(t.tuple);
	pfree(mine);
	return total;
}

/*
 * tpcb_load_accounts
 *		Loader LOADER (0-based) of NLOADERS: write its share of
 *		pgbench_accounts into LEAVES (the table itself, or its partitions in
 *		order), page by page, straight to storage; with hash partitions, the
 *		primary keys too, and each leaf's rows in LEAF_ROWS.  Runs in the
 *		caller's transaction.  PROGRESS counts rows written; CANCEL, when set, stops
 *		the load with an error.  Returns the number of rows.
 */
int64
tpcb_load_accounts(const TpcbOptions *opts, const Oid *leaves, int64 *leaf_rows,
				   int loader, int nloaders,
				   pg_atomic_uint64 *progress, pg_atomic_uint32 *cancel)
{
	if (opts->method == TPCB_PART_HASH)
		return load_hash(opts, leaves, leaf_rows, loader, nloaders, progress, cancel);
	return load_contiguous(opts, leaves, loader, nloaders, progress, cancel);
}

/*
 * tpcb_build_account_keys
 *		For an unpartitioned or range-partitioned table: write each leaf's
 *		primary key.  Where each account lies follows from the layout alone
 *		(its rank over the rows per page), so the heap is not read and the
 *		loaders need not have finished.  CANCEL, when set, stops it with an
 *		error.  Runs in the caller's transaction.
 */
void
tpcb_build_account_keys(const TpcbOptions *opts, const Oid *leaves, pg_atomic_uint32 *cancel)
{
	int			nleaves = tpcb_nleaves(opts);
	bool		big = opts->scale >= TPCB_SCALE_32BIT_THRESHOLD;

	if (opts->method == TPCB_PART_HASH)
		return;
	for (int leaf = 0; leaf < nleaves; leaf++)
	{
		int64		first_aid;
		int64		nrows = leaf_rows(opts, leaf, &first_aid);
		Relation	rel;
		Relation	index;
		AccountTemplate t;
		BkBtBuild  *key;

		if (nrows == 0)
			continue;
		rel = table_open(leaves[leaf], RowExclusiveLock);
		index = index_open(leaf_key(rel), RowExclusiveLock);
		account_template(rel, big, &t);
		key = bk_bt_begin(index, BK_PW_MAX_BATCH);
		for (int64 r = 0; r < nrows; r++)
		{
			bk_bt_add(key, first_aid + r, (BlockNumber) (r / t.rows_per_page),
					  (OffsetNumber) (r % t.rows_per_page + 1));
			if (r % (TPCB_BATCH_ROWS * 100) != 0)
				continue;
			/* as a wait would: a dead postmaster ends us at once */
			if (!PostmasterIsAlive())
				proc_exit(1);
			if (pg_atomic_read_u32(cancel) != 0)
				ereport(ERROR,
						(errcode(ERRCODE_QUERY_CANCELED),
						 errmsg("building the primary key of pgbench_accounts was canceled")));
		}
		(void) bk_bt_finish(key);
		heap_freetuple(t.tuple);
		index_close(index, NoLock);
		table_close(rel, NoLock);
	}
}

/*
 * tpcb_set_account_stats
 *		What CREATE INDEX leaves in pg_class, which pgbench's primary key
 *		step runs after VACUUM ANALYZE: each leaf's pages, rows and
 *		all-visible pages, and its primary key's pages and rows.  HASH_ROWS
 *		are the rows of hash leaves, as the loaders counted them.
 */
void
tpcb_set_account_stats(const TpcbOptions *opts, const Oid *leaves, const int64 *hash_rows)
{
	int			nleaves = tpcb_nleaves(opts);

	for (int leaf = 0; leaf < nleaves; leaf++)
	{
		int64		first_aid;
		double		nrows;
		Relation	rel = table_open(leaves[leaf], ShareUpdateExclusiveLock);
		Relation	index = index_open(leaf_key(rel), ShareUpdateExclusiveLock);
		BlockNumber pages = RelationGetNumberOfBlocks(rel);

		nrows = opts->method == TPCB_PART_HASH ? hash_rows[leaf] :
			leaf_rows(opts, leaf, &first_aid);
		bk_update_relstats(rel, pages, nrows, pages, true);
		bk_update_relstats(index, RelationGetNumberOfBlocks(index), nrows, 0, false);
		index_close(index, NoLock);
		table_close(rel, NoLock);
	}
}

/* ------------------------------------------------------------------------
 * The dataset kind "tpcb", as init.c drives it (dataset.h)
 * ------------------------------------------------------------------------
 */

/* upper bound of partitions: far beyond any useful benchmark */
#define TPCB_MAX_PARTITIONS		10000

StaticAssertDecl(sizeof(TpcbOptions) <= BK_DATASET_OPTIONS_SIZE,
				 "TpcbOptions must fit in a load's segment");

/* bench.init's arguments, as pgbench -i takes them */
static void
tpcb_read_options(const BkInitArgs *args, void *opts_out)
{
	TpcbOptions *opts = (TpcbOptions *) opts_out;

	memset(opts, 0, sizeof(*opts));
	if (args->tables_given || args->table_size_given)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s is an option of the sysbench dataset, not of tpcb",
						args->tables_given ? "tables" : "table_size"),
				 errhint("pgbench's dataset is sized by scale; bench.init('sysbench', tables => N, table_size => M) makes sysbench's.")));
	if (args->warehouses_given)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("warehouses is an option of the tpcc dataset, not of tpcb"),
				 errhint("pgbench's dataset is sized by scale; bench.init('tpcc', warehouses => W) makes TPC-C's.")));
	opts->scale = args->scale;
	opts->fillfactor = args->fillfactor;
	opts->partitions = args->partitions;
	opts->unlogged = args->unlogged;
	opts->foreign_keys = args->foreign_keys;
	if (opts->scale < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("scale must be at least 1, not %d", opts->scale),
				 errhint("Scale 1 is 100000 accounts, as with pgbench -i -s 1.")));
	if (opts->fillfactor < 10 || opts->fillfactor > 100)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("fillfactor must be between 10 and 100, not %d", opts->fillfactor),
				 errhint("This is the same range pgbench -i -F accepts.")));
	if (opts->partitions < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("partitions must not be negative, not %d", opts->partitions),
				 errhint("Use 0 for an unpartitioned pgbench_accounts.")));
	if ((int64) opts->partitions > Min(tpcb_naccounts(opts), TPCB_MAX_PARTITIONS))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("partitions must be at most %lld here, not %d",
						(long long) Min(tpcb_naccounts(opts), TPCB_MAX_PARTITIONS),
						opts->partitions),
				 errhint("There can be no more partitions than accounts (100000 per unit of scale), and at most %d.",
						 TPCB_MAX_PARTITIONS)));
	opts->method = TPCB_PART_NONE;
	opts->method_given = args->partition_method != NULL;
	if (args->partition_method != NULL)
	{
		const char *method = args->partition_method;

		if (strcmp(method, "range") == 0)
			opts->method = TPCB_PART_RANGE;
		else if (strcmp(method, "hash") == 0)
			opts->method = TPCB_PART_HASH;
		else
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("unknown partition method \"%s\"", method),
					 errhint("Use \"range\" or \"hash\".")));
		if (opts->partitions == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("partition_method \"%s\" needs partitions greater than zero", method),
					 errhint("Give partitions => N as well, as pgbench requires --partitions with --partition-method.")));
	}
	else if (opts->partitions > 0)
		opts->method = TPCB_PART_RANGE; /* pgbench's default */
}

/* the options as bench.datasets.options keeps them (init.c adds its own) */
static void
tpcb_options_json(const void *opts_in, StringInfo out)
{
	const TpcbOptions *opts = (const TpcbOptions *) opts_in;

	appendStringInfo(out, "\"scale\": %d, \"fillfactor\": %d, \"partitions\": %d, "
					 "\"partition_method\": %s%s%s, \"unlogged\": %s, \"foreign_keys\": %s",
					 opts->scale, opts->fillfactor, opts->partitions,
					 opts->method_given ? "\"" : "",
					 opts->method_given ? tpcb_part_method_name(opts->method) : "null",
					 opts->method_given ? "\"" : "",
					 opts->unlogged ? "true" : "false", opts->foreign_keys ? "true" : "false");
}

static uint64
tpcb_kind_estimate_bytes(const void *opts)
{
	return tpcb_estimate_bytes((const TpcbOptions *) opts);
}

static char *
tpcb_size_words(const void *opts)
{
	return psprintf("scale %d", ((const TpcbOptions *) opts)->scale);
}

static int
tpcb_scale(const void *opts)
{
	return ((const TpcbOptions *) opts)->scale;
}

static int
tpcb_nchildren(const void *opts)
{
	const TpcbOptions *o = (const TpcbOptions *) opts;

	return o->method == TPCB_PART_NONE ? 0 : o->partitions;
}

static const char *
tpcb_child_suffix(const void *opts, int child)
{
	return tpcb_partition_name("", child + 1);
}

static int
tpcb_kind_nleaves(const void *opts)
{
	return tpcb_nleaves((const TpcbOptions *) opts);
}

static void
tpcb_create(const void *opts, const char *nspname, const char *prefix)
{
	tpcb_create_tables((const TpcbOptions *) opts, nspname, prefix);
	tpcb_add_accounts_key(nspname, prefix);
}

/* the leaves: pgbench_accounts, or its partitions */
static void
tpcb_prepare(const void *opts_in, const char *nspname, const char *prefix, Oid *leaves,
			 int nloaders)
{
	const TpcbOptions *opts = (const TpcbOptions *) opts_in;
	Oid			nspid = get_namespace_oid(nspname, false);

	if (opts->method == TPCB_PART_NONE)
		leaves[0] = get_relname_relid(tpcb_table_name(prefix, TPCB_ACCOUNTS), nspid);
	else
		for (int p = 0; p < opts->partitions; p++)
			leaves[p] = get_relname_relid(tpcb_partition_name(prefix, p + 1), nspid);
	tpcb_prepare_accounts(opts, leaves, nloaders);
}

static int64
tpcb_load_share(const void *opts, const Oid *leaves, int64 *leaf_rows, int loader,
				int nloaders, pg_atomic_uint64 *next_unit,
				pg_atomic_uint64 *progress, pg_atomic_uint32 *cancel)
{
	return tpcb_load_accounts((const TpcbOptions *) opts, leaves, leaf_rows, loader, nloaders,
							  progress, cancel);
}

/*
 * While the loaders write the accounts: branches and tellers, then the
 * primary key of the accounts (where each row goes is known, so it need not
 * wait for them; hash loaders write theirs as they go).
 */
static int64
tpcb_load_rest(const void *opts_in, const Oid *tables, const Oid *leaves,
			   pg_atomic_uint32 *cancel)
{
	const TpcbOptions *opts = (const TpcbOptions *) opts_in;
	int64		rows = tpcb_load_branches_tellers(opts, tables[TPCB_BRANCHES],
												  tables[TPCB_TELLERS]);

	CommandCounterIncrement();
	tpcb_build_account_keys(opts, leaves, cancel);
	return rows;
}

static void
tpcb_after_vacuum(const void *opts, const Oid *leaves, const int64 *leaf_rows)
{
	tpcb_set_account_stats((const TpcbOptions *) opts, leaves, leaf_rows);
}

static void
tpcb_add_keys(const void *opts, const char *nspname)
{
	tpcb_add_primary_keys(nspname);
}

static void
tpcb_kind_add_foreign_keys(const void *opts, const char *nspname)
{
	tpcb_add_foreign_keys(nspname);
}

static bool
tpcb_wants_foreign_keys(const void *opts)
{
	return ((const TpcbOptions *) opts)->foreign_keys;
}

/* ------------------------------------------------------------------------
 * A load into a target: what pgbench -i sends (init_remote.c sends it)
 * ------------------------------------------------------------------------
 */

static char *
tpcb_kind_table_sql(const void *opts, int version, const char *nspname, const char *prefix,
					int table)
{
	return tpcb_table_sql((const TpcbOptions *) opts, version, nspname, prefix, table);
}

static char *
tpcb_kind_child_sql(const void *opts, int version, const char *nspname, const char *prefix,
					int child)
{
	return tpcb_partition_sql((const TpcbOptions *) opts, nspname, prefix, child + 1);
}

/* pgbench fills branches, tellers, accounts, in that order */
static const int tpcb_filled[] = {TPCB_BRANCHES, TPCB_TELLERS, TPCB_ACCOUNTS};

/* the rows of table T */
static int64
tpcb_rows(const void *opts_in, int t)
{
	const TpcbOptions *opts = (const TpcbOptions *) opts_in;

	switch (t)
	{
		case TPCB_BRANCHES:
			return (int64) TPCB_NBRANCHES * opts->scale;
		case TPCB_TELLERS:
			return (int64) TPCB_NTELLERS * opts->scale;
		case TPCB_ACCOUNTS:
			return tpcb_naccounts(opts);
		default:
			return 0;
	}
}

/* append the decimal digits of V */
static inline void
append_int64(StringInfo out, int64 v)
{
	char		digits[24];		/* 20 digits and a sign at most */
	int			len = pg_lltoa(v, digits);

	appendBinaryStringInfo(out, digits, len);
}

/*
 * tpcb_copy_row
 *		Row ROW (from 0) of table T as pgbench's COPY text: the filler is
 *		NULL in pgbench_branches and pgbench_tellers, an empty string (blank
 *		padded) in pgbench_accounts.
 */
static void
tpcb_copy_row(const void *opts, int t, int64 row, StringInfo out)
{
	append_int64(out, row + 1);
	switch (t)
	{
		case TPCB_BRANCHES:
			appendBinaryStringInfo(out, "\t0\t\\N\n", 6);
			break;
		case TPCB_TELLERS:
			appendStringInfoChar(out, '\t');
			append_int64(out, row / TPCB_NTELLERS + 1);
			appendBinaryStringInfo(out, "\t0\t\\N\n", 6);
			break;
		case TPCB_ACCOUNTS:
			appendStringInfoChar(out, '\t');
			append_int64(out, row / TPCB_NACCOUNTS + 1);
			appendBinaryStringInfo(out, "\t0\t\n", 4);
			break;
		default:
			elog(ERROR, "table %d of tpcb is not filled", t);
	}
}

/*
 * tpcb_insert_sql
 *		The INSERT ... SELECT with which pgbench has the server generate the
 *		rows of table T (its step "G").
 */
static char *
tpcb_insert_sql(const void *opts_in, int t, const char *nspname)
{
	const TpcbOptions *opts = (const TpcbOptions *) opts_in;
	const char *table = quote_qualified_identifier(nspname,
												   tpcb_table_name("pgbench_", t));

	switch (t)
	{
		case TPCB_BRANCHES:
			return psprintf("insert into %s(bid,bbalance) "
							"select bid, 0 "
							"from generate_series(1, %d) as bid",
							table, TPCB_NBRANCHES * opts->scale);
		case TPCB_TELLERS:
			return psprintf("insert into %s(tid,bid,tbalance) "
							"select tid, (tid - 1) / %d + 1, 0 "
							"from generate_series(1, %d) as tid",
							table, TPCB_NTELLERS, TPCB_NTELLERS * opts->scale);
		case TPCB_ACCOUNTS:
			return psprintf("insert into %s(aid,bid,abalance,filler) "
							"select aid, (aid - 1) / %d + 1, 0, '' "
							"from generate_series(1, " INT64_FORMAT ") as aid",
							table, TPCB_NACCOUNTS, tpcb_naccounts(opts));
		default:
			elog(ERROR, "table %d of tpcb is not filled", t);
	}
	return NULL;				/* keep the compiler quiet */
}

/* pgbench's step "p": the primary keys of branches, tellers, accounts */
static List *
tpcb_primary_keys_sql(const void *opts, const char *nspname)
{
	List	   *stmts = NIL;

	for (int i = 0; i < lengthof(tpcb_pkeys); i++)
		stmts = lappend(stmts, tpcb_primary_key_sql(nspname, i));
	return stmts;
}

static List *
tpcb_kind_foreign_keys_sql(const void *opts, const char *nspname)
{
	return tpcb_foreign_keys_sql(nspname);
}

/* pgbench vacuums branches, tellers, accounts, history */
static const int tpcb_vacuum_order[TPCB_NTABLES] = {
	TPCB_BRANCHES, TPCB_TELLERS, TPCB_ACCOUNTS, TPCB_HISTORY
};

static int
tpcb_ntables(const void *opts)
{
	return TPCB_NTABLES;
}

static const char *
tpcb_kind_table_suffix(const void *opts, int t)
{
	return tpcb_table_suffix[t];
}

static int
tpcb_vacuum_table(const void *opts, int i)
{
	return tpcb_vacuum_order[i];
}

static int
tpcb_nfilled(const void *opts)
{
	return lengthof(tpcb_filled);
}

static int
tpcb_kind_filled(const void *opts, int f)
{
	return tpcb_filled[f];
}

const BkDatasetKind bk_dataset_tpcb = {
	.name = "tpcb",
	.serves = "it also serves simple-update and select-only",
	.final_prefix = "pgbench_",
	.read_options = tpcb_read_options,
	.options_json = tpcb_options_json,
	.estimate_bytes = tpcb_kind_estimate_bytes,
	.size_words = tpcb_size_words,
	.smaller_hint = "Choose a smaller scale or free some space.",
	.scale = tpcb_scale,
	.ntables = tpcb_ntables,
	.table_suffix = tpcb_kind_table_suffix,
	.vacuum_table = tpcb_vacuum_table,
	.nchildren = tpcb_nchildren,
	.main_table = TPCB_ACCOUNTS,
	.child_suffix = tpcb_child_suffix,
	.nleaves = tpcb_kind_nleaves,
	.create = tpcb_create,
	.prepare = tpcb_prepare,
	.load_share = tpcb_load_share,
	.load_rest = tpcb_load_rest,
	.after_vacuum = tpcb_after_vacuum,
	.add_keys = tpcb_add_keys,
	.add_foreign_keys = tpcb_kind_add_foreign_keys,
	.wants_foreign_keys = tpcb_wants_foreign_keys,
	.table_sql = tpcb_kind_table_sql,
	.child_sql = tpcb_kind_child_sql,
	.nfilled = tpcb_nfilled,
	.filled = tpcb_kind_filled,
	.rows = tpcb_rows,
	.copy_row = tpcb_copy_row,
	.insert_sql = tpcb_insert_sql,
	.primary_keys_sql = tpcb_primary_keys_sql,
	.foreign_keys_sql = tpcb_kind_foreign_keys_sql,
};
