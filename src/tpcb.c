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
 * input.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/partition.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "catalog.h"
#include "tpcb.h"

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
 *		Whether the four tables are created unlogged.  pgbench up to 17
 *		makes them all unlogged with --unlogged-tables; PostgreSQL 18 no
 *		longer allows unlogged partitioned tables, so its pgbench leaves
 *		them logged when pgbench_accounts is partitioned (the partitions
 *		are unlogged either way).  We follow the server's own pgbench.
 */
static bool
tpcb_unlogged_table(const TpcbOptions *opts)
{
#if PG_VERSION_NUM >= 180000
	return opts->unlogged && opts->method == TPCB_PART_NONE;
#else
	return opts->unlogged;
#endif
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
	StringInfoData sql;
	const char *qnsp = quote_identifier(nspname);
	bool		big = opts->scale >= TPCB_SCALE_32BIT_THRESHOLD;

	initStringInfo(&sql);
	for (int t = 0; t < TPCB_NTABLES; t++)
	{
		resetStringInfo(&sql);
		appendStringInfo(&sql, "create%s table %s.%s(%s)",
						 tpcb_unlogged_table(opts) ? " unlogged" : "",
						 qnsp, quote_identifier(tpcb_table_name(prefix, t)),
						 big ? tpcb_ddl[t].bigcols : tpcb_ddl[t].smcols);
		if (opts->method != TPCB_PART_NONE && t == TPCB_ACCOUNTS)
			appendStringInfo(&sql, " partition by %s (aid)",
							 tpcb_part_method_name(opts->method));
		else if (tpcb_ddl[t].fillfactor)
			appendStringInfo(&sql, " with (fillfactor=%d)", opts->fillfactor);
		bk_spi_utility(sql.data);
	}

	for (int p = 1; p <= opts->partitions && opts->method != TPCB_PART_NONE; p++)
	{
		resetStringInfo(&sql);
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
		bk_spi_utility(sql.data);
	}
	pfree(sql.data);
}

/*
 * tpcb_add_primary_keys
 *		pgbench's primary keys, on the tables with their final names.
 */
void
tpcb_add_primary_keys(const char *nspname)
{
	static const char *const cols[] = {"bid", "tid", "aid"};
	static const int tables[] = {TPCB_BRANCHES, TPCB_TELLERS, TPCB_ACCOUNTS};
	const char *qnsp = quote_identifier(nspname);

	for (int i = 0; i < lengthof(tables); i++)
		bk_spi_utility(psprintf("alter table %s.pgbench_%s add primary key (%s)",
						   qnsp, tpcb_table_suffix[tables[i]], cols[i]));
}

/*
 * tpcb_add_foreign_keys
 *		pgbench's foreign keys (its step "f"), with its constraint names.
 */
void
tpcb_add_foreign_keys(const char *nspname)
{
	static const char *const fks[][4] = {
		{"tellers", "pgbench_tellers_bid_fkey", "bid", "branches"},
		{"accounts", "pgbench_accounts_bid_fkey", "bid", "branches"},
		{"history", "pgbench_history_bid_fkey", "bid", "branches"},
		{"history", "pgbench_history_tid_fkey", "tid", "tellers"},
		{"history", "pgbench_history_aid_fkey", "aid", "accounts"},
	};
	const char *qnsp = quote_identifier(nspname);

	for (int i = 0; i < lengthof(fks); i++)
		bk_spi_utility(psprintf("alter table %s.pgbench_%s add constraint %s "
						   "foreign key (%s) references %s.pgbench_%s",
						   qnsp, fks[i][0], fks[i][1], fks[i][2], qnsp, fks[i][3]));
}

/*
 * A table being filled: its batch of formed tuples and the bulk-insert
 * state that keeps the current target page pinned between batches.
 */
typedef struct BulkTarget
{
	Relation	rel;
	BulkInsertState bistate;
	TupleTableSlot **slots;
	int			nslots;
	int			capacity;
	MemoryContext tuplecxt;		/* the batch's tuples; reset after a flush */
} BulkTarget;

static void
bulk_open(BulkTarget *bt, Oid relid, int capacity)
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
static void
bulk_flush(BulkTarget *bt)
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

/* add one row; flushes when the batch is full */
static inline bool
bulk_add(BulkTarget *bt, Datum *values, bool *nulls)
{
	MemoryContext oldcxt = MemoryContextSwitchTo(bt->tuplecxt);
	HeapTuple	tuple = heap_form_tuple(RelationGetDescr(bt->rel), values, nulls);

	MemoryContextSwitchTo(oldcxt);
	ExecStoreHeapTuple(tuple, bt->slots[bt->nslots++], false);
	if (bt->nslots < bt->capacity)
		return false;
	bulk_flush(bt);
	return true;
}

static void
bulk_close(BulkTarget *bt)
{
	bulk_flush(bt);
	for (int i = 0; i < bt->capacity; i++)
		ExecDropSingleTupleTableSlot(bt->slots[i]);
	FreeBulkInsertState(bt->bistate);
	table_close(bt->rel, NoLock);
	MemoryContextDelete(bt->tuplecxt);
	pfree(bt->slots);
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
	BulkTarget	bt;
	Datum		values[4];
	bool		nulls[4] = {false, false, false, true};
	int64		nb = (int64) TPCB_NBRANCHES * opts->scale;
	int64		nt = (int64) TPCB_NTELLERS * opts->scale;

	bulk_open(&bt, branches, TPCB_BATCH_ROWS);
	for (int64 bid = 1; bid <= nb; bid++)
	{
		values[0] = Int32GetDatum((int32) bid);
		values[1] = Int32GetDatum(0);
		bulk_add(&bt, values, nulls + 1);	/* bid, bbalance, filler NULL */
	}
	bulk_close(&bt);

	bulk_open(&bt, tellers, TPCB_BATCH_ROWS);
	for (int64 tid = 1; tid <= nt; tid++)
	{
		values[0] = Int32GetDatum((int32) tid);
		values[1] = Int32GetDatum((int32) ((tid - 1) / TPCB_NTELLERS + 1));
		values[2] = Int32GetDatum(0);
		bulk_add(&bt, values, nulls);
		if (tid % TPCB_BATCH_ROWS == 0)
			CHECK_FOR_INTERRUPTS();
	}
	bulk_close(&bt);
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
 * tpcb_load_accounts
 *		Fill accounts FIRST_AID..LAST_AID into LEAVES: the accounts table
 *		itself, or its partitions in order.  Runs in the caller's
 *		transaction.  PROGRESS counts rows inserted; CANCEL, when set,
 *		stops the load with an error.  Returns the number of rows.
 */
int64
tpcb_load_accounts(const TpcbOptions *opts, const Oid *leaves,
				   int64 first_aid, int64 last_aid,
				   pg_atomic_uint64 *progress, pg_atomic_uint32 *cancel)
{
	int			nleaves = opts->method == TPCB_PART_NONE ? 1 : opts->partitions;
	bool		big = opts->scale >= TPCB_SCALE_32BIT_THRESHOLD;
	int64		part_size = (tpcb_naccounts(opts) + nleaves - 1) / nleaves;
	int			capacity;
	BulkTarget *targets;
	Datum		values[4];
	bool		nulls[4] = {false, false, false, false};
	int64		pending = 0;

	/*
	 * With hash partitions consecutive ids scatter over all partitions, so
	 * each gets a smaller batch to bound memory; ranges fill one at a time.
	 */
	capacity = (opts->method == TPCB_PART_HASH) ?
		Max(64, TPCB_BATCH_ROWS * 16 / nleaves) : TPCB_BATCH_ROWS;
	capacity = Min(capacity, TPCB_BATCH_ROWS);

	targets = palloc0(sizeof(BulkTarget) * nleaves);
	for (int i = 0; i < nleaves; i++)
		bulk_open(&targets[i], leaves[i], capacity);

	values[2] = Int32GetDatum(0);
	values[3] = blank_filler(targets[0].rel, 4);

	for (int64 aid = first_aid; aid <= last_aid; aid++)
	{
		int			leaf = 0;

		values[0] = big ? Int64GetDatum(aid) : Int32GetDatum((int32) aid);
		values[1] = Int32GetDatum((int32) ((aid - 1) / TPCB_NACCOUNTS + 1));
		if (opts->method == TPCB_PART_RANGE)
			leaf = (int) ((aid - 1) / part_size);
		else if (opts->method == TPCB_PART_HASH)
			leaf = hash_partition_of(aid, big, nleaves);

		bulk_add(&targets[leaf], values, nulls);

		if (++pending == TPCB_BATCH_ROWS)
		{
			pg_atomic_fetch_add_u64(progress, pending);
			pending = 0;
			CHECK_FOR_INTERRUPTS();
			if (pg_atomic_read_u32(cancel) != 0)
				ereport(ERROR,
						(errcode(ERRCODE_QUERY_CANCELED),
						 errmsg("loading of pgbench_accounts was canceled")));
		}
	}

	for (int i = 0; i < nleaves; i++)
		bulk_close(&targets[i]);
	pg_atomic_fetch_add_u64(progress, pending);
	pfree(targets);
	return last_aid >= first_aid ? last_aid - first_aid + 1 : 0;
}
