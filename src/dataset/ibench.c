/*-------------------------------------------------------------------------
 *
 * ibench.c
 *		The dataset kind "ibench": the Insert Benchmark's tables pi1 .. piN,
 *		empty, as its client (iibench.py) creates them for PostgreSQL before
 *		its first step, as init.c drives a kind (dataset.h).
 *
 * The Insert Benchmark makes each table as
 *
 *	create table piN ( transactionid bigserial primary key,
 *	  dateandtime timestamp without time zone, cashregisterid int not null,
 *	  customerid int not null, productid int not null, price int not null,
 *	  data varchar(4000) )
 *	alter sequence piN_transactionid_seq cache 1000
 *
 * one table per client (or one that they share), and fills it in its first
 * step, l.i0, which is a benchmark step and so a run here; its secondary
 * indexes come in step l.x.  Loaded in the server, the tables get the same
 * columns, sequence (piN_transactionid_seq, cache 1000) and primary key
 * (piN_pkey), added after the swap; into a target, the statements are the
 * benchmark's own.  There are no rows to load.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "meta/catalog.h"
#include "dataset/ibench.h"

#define IB_DEFAULT_TABLES		1
#define IB_MAX_TABLES			10000

typedef struct IbOptions
{
	int			tables;
} IbOptions;

StaticAssertDecl(sizeof(IbOptions) <= BK_DATASET_OPTIONS_SIZE,
				 "IbOptions must fit in a load's segment");

/* ------------------------------------------------------------------------
 * Options
 * ------------------------------------------------------------------------
 */

/* the other kinds' options have no meaning here */
static void
ib_refuse_option(const char *name, const char *kind, bool given)
{
	if (given)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s is an option of the %s dataset, not of ibench", name, kind),
				 errhint("The Insert Benchmark's dataset is sized by tables alone: its rows come from its first step, l.i0.")));
}

static void
ib_read_options(const BkInitArgs *args, void *opts_out)
{
	IbOptions  *opts = (IbOptions *) opts_out;

	memset(opts, 0, sizeof(*opts));
	ib_refuse_option("scale", "tpcb", args->scale != 1);
	ib_refuse_option("fillfactor", "tpcb", args->fillfactor != 100);
	ib_refuse_option("partitions", "tpcb", args->partitions != 0);
	ib_refuse_option("partition_method", "tpcb", args->partition_method != NULL);
	ib_refuse_option("unlogged", "tpcb", args->unlogged);
	ib_refuse_option("foreign_keys", "tpcb", args->foreign_keys);
	ib_refuse_option("table_size", "sysbench", args->table_size_given);
	ib_refuse_option("warehouses", "tpcc", args->warehouses_given);
	opts->tables = args->tables_given ? args->tables : IB_DEFAULT_TABLES;
	if (opts->tables < 1 || opts->tables > IB_MAX_TABLES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("tables must be between 1 and %d, not %d", IB_MAX_TABLES, opts->tables),
				 errhint("tables is how many tables pi1, pi2, ... to make: one per insert client, or 1 that they share.")));
}

static void
ib_options_json(const void *opts_in, StringInfo out)
{
	const IbOptions *opts = (const IbOptions *) opts_in;

	appendStringInfo(out, "\"tables\": %d", opts->tables);
}

/* empty tables: a few pages each */
static uint64
ib_estimate_bytes(const void *opts_in)
{
	return (uint64) ((const IbOptions *) opts_in)->tables * 3 * 8192;
}

static char *
ib_size_words(const void *opts_in)
{
	return psprintf("a dataset of tables %d", ((const IbOptions *) opts_in)->tables);
}

static int
ib_scale(const void *opts)
{
	return 1;
}

static int
ib_ntables(const void *opts)
{
	return ((const IbOptions *) opts)->tables;
}

static const char *
ib_table_suffix(const void *opts, int t)
{
	return psprintf("%d", t + 1);
}

static int
ib_in_order(const void *opts, int i)
{
	return i;
}

static int
ib_none(const void *opts)
{
	return 0;
}

static const char *
ib_child_suffix(const void *opts, int child)
{
	elog(ERROR, "the ibench dataset has no partitions");
	return NULL;				/* keep the compiler quiet */
}

/* ------------------------------------------------------------------------
 * A load into this server: the tables, nothing in them
 * ------------------------------------------------------------------------
 */

/* the table as the Insert Benchmark creates it, its primary key apart */
static char *
ib_create_sql(const char *qualified, bool with_key)
{
	return psprintf("create table %s ( transactionid bigserial%s, "
					"dateandtime timestamp without time zone, cashregisterid int not null, "
					"customerid int not null, productid int not null, price int not null, "
					"data varchar(4000) ) ",
					qualified, with_key ? " primary key" : "");
}

static void
ib_create(const void *opts_in, const char *nspname, const char *prefix)
{
	const IbOptions *opts = (const IbOptions *) opts_in;

	for (int t = 0; t < opts->tables; t++)
		bk_spi_utility(ib_create_sql(quote_qualified_identifier(nspname,
																psprintf("%s%d", prefix, t + 1)),
									 false));
}

static int
ib_nleaves(const void *opts)
{
	return ((const IbOptions *) opts)->tables;
}

static void
ib_prepare(const void *opts_in, const char *nspname, const char *prefix, Oid *leaves,
		   int nloaders)
{
	const IbOptions *opts = (const IbOptions *) opts_in;
	Oid			nspid = get_namespace_oid(nspname, false);

	for (int t = 0; t < opts->tables; t++)
		leaves[t] = get_relname_relid(psprintf("%s%d", prefix, t + 1), nspid);
}

static int64
ib_load_share(const void *opts, const Oid *leaves, int64 *leaf_rows, int loader,
			  int nloaders, pg_atomic_uint64 *next_unit,
			  pg_atomic_uint64 *progress, pg_atomic_uint32 *cancel)
{
	return 0;
}

static int64
ib_load_rest(const void *opts, const Oid *tables, const Oid *leaves,
			 pg_atomic_uint32 *cancel)
{
	return 0;
}

/* what follows table T under its final name: the key, the sequence's cache */
static List *
ib_keys_sql(const char *nspname, int t, bool with_pkey)
{
	char	   *table = quote_qualified_identifier(nspname, psprintf("pi%d", t + 1));
	List	   *stmts = NIL;

	if (with_pkey)
		stmts = lappend(stmts, psprintf("alter table %s add primary key (transactionid)", table));
	stmts = lappend(stmts, psprintf("alter sequence %s cache 1000",
									quote_qualified_identifier(nspname,
															   psprintf("pi%d_transactionid_seq", t + 1))));
	return stmts;
}

static void
ib_add_keys(const void *opts_in, const char *nspname)
{
	const IbOptions *opts = (const IbOptions *) opts_in;
	ListCell   *lc;

	for (int t = 0; t < opts->tables; t++)
		foreach(lc, ib_keys_sql(nspname, t, true))
			bk_spi_utility((const char *) lfirst(lc));
}

static bool
ib_wants_foreign_keys(const void *opts)
{
	return false;
}

/* ------------------------------------------------------------------------
 * A load into a target: the benchmark's own statements
 * ------------------------------------------------------------------------
 */

static char *
ib_table_sql(const void *opts, int version, const char *nspname, const char *prefix,
			 int table)
{
	return ib_create_sql(quote_qualified_identifier(nspname, psprintf("%s%d", prefix, table + 1)),
						 true);
}

static int64
ib_rows(const void *opts, int t)
{
	return 0;
}

static List *
ib_primary_keys_sql(const void *opts_in, const char *nspname)
{
	const IbOptions *opts = (const IbOptions *) opts_in;
	List	   *stmts = NIL;

	for (int t = 0; t < opts->tables; t++)
		stmts = list_concat(stmts, ib_keys_sql(nspname, t, false));
	return stmts;
}

static List *
ib_foreign_keys_sql(const void *opts, const char *nspname)
{
	return NIL;
}

const BkDatasetKind bk_dataset_ibench = {
	.name = "ibench",
	.serves = "pi1 .. piN, as the Insert Benchmark creates them",
	.final_prefix = "pi",
	.read_options = ib_read_options,
	.options_json = ib_options_json,
	.estimate_bytes = ib_estimate_bytes,
	.size_words = ib_size_words,
	.smaller_hint = "Choose fewer tables or free some space.",
	.scale = ib_scale,
	.ntables = ib_ntables,
	.table_suffix = ib_table_suffix,
	.vacuum_table = ib_in_order,
	.nchildren = ib_none,
	.main_table = 0,
	.child_suffix = ib_child_suffix,
	.nleaves = ib_nleaves,
	.create = ib_create,
	.prepare = ib_prepare,
	.load_share = ib_load_share,
	.load_rest = ib_load_rest,
	.after_vacuum = NULL,
	.add_keys = ib_add_keys,
	.add_foreign_keys = NULL,
	.wants_foreign_keys = ib_wants_foreign_keys,
	.table_sql = ib_table_sql,
	.child_sql = NULL,
	.nfilled = ib_none,
	.filled = ib_in_order,
	.rows = ib_rows,
	.copy_row = NULL,
	.insert_sql = NULL,
	.primary_keys_sql = ib_primary_keys_sql,
	.foreign_keys_sql = ib_foreign_keys_sql,
};
