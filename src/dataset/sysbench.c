/*-------------------------------------------------------------------------
 *
 * sysbench.c
 *		The dataset kind "sysbench": the tables sbtest1 .. sbtestN that
 *		sysbench 1.0's oltp_common.lua prepares for PostgreSQL, as init.c
 *		drives a kind (dataset.h).
 *
 * sysbench prepare makes each table as
 *
 *	CREATE TABLE sbtestN(
 *	  id SERIAL,
 *	  k INTEGER DEFAULT '0' NOT NULL,
 *	  c CHAR(120) DEFAULT '' NOT NULL,
 *	  pad CHAR(60) DEFAULT '' NOT NULL,
 *	  PRIMARY KEY (id)
 *	)
 *
 * inserts table_size rows with id 1, 2, ... (its serial), k drawn by
 * sysbench.rand.default(1, table_size) (the special distribution unless
 * --rand-type says otherwise), c and pad from the patterns below (each '#'
 * a random digit), then CREATE INDEX k_N ON sbtestN(k).  Loaded in the
 * server, the tables get the same columns, defaults, sequence (sbtestN_id_
 * seq, at table_size), primary key (sbtestN_pkey) and index; the loaders
 * fill whole tables, and the keys are built after the rows, in the swap.
 * Into a target, the statements are sysbench's own (the primary key with
 * the table), the rows sent with COPY or made there by INSERT ... SELECT.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/namespace.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "dataset/bulkload.h"
#include "meta/catalog.h"
#include "dataset/sysbench.h"
#include "core/random.h"

/* sysbench's defaults (--tables, --table-size) and our bounds */
#define SB_DEFAULT_TABLES		1
#define SB_DEFAULT_TABLE_SIZE	10000
#define SB_MAX_TABLES			10000
#define SB_BATCH_ROWS			1000

/* oltp_common.lua's patterns of c and pad */
#define SB_C_PATTERN \
	"###########-###########-###########-###########-###########-" \
	"###########-###########-###########-###########-###########"
#define SB_PAD_PATTERN \
	"###########-###########-###########-###########-###########"

/* the columns' widths: char(120), char(60) */
#define SB_C_WIDTH				120
#define SB_PAD_WIDTH			60

StaticAssertDecl(sizeof(SB_C_PATTERN) - 1 <= SB_C_WIDTH && sizeof(SB_PAD_PATTERN) - 1 <= SB_PAD_WIDTH,
				 "the patterns fit their columns");

/* k: sysbench.rand.default under --rand-type=special, its defaults */
#define SB_SPECIAL_PCT			1
#define SB_SPECIAL_RES			75
#define SB_SPECIAL_ITER			12

typedef struct SbOptions
{
	int			tables;
	int			table_size;
} SbOptions;

StaticAssertDecl(sizeof(SbOptions) <= BK_DATASET_OPTIONS_SIZE,
				 "SbOptions must fit in a load's segment");

/* ------------------------------------------------------------------------
 * Options
 * ------------------------------------------------------------------------
 */

/* pgbench's options have no meaning here: refused when not their defaults */
static void
sb_refuse_pgbench_option(const char *name, bool given)
{
	if (given)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s is an option of the tpcb dataset, not of sysbench", name),
				 errhint("sysbench's dataset is sized by tables and table_size, as sysbench prepare --tables=N --table-size=M.")));
}

static void
sb_read_options(const BkInitArgs *args, void *opts_out)
{
	SbOptions  *opts = (SbOptions *) opts_out;

	memset(opts, 0, sizeof(*opts));
	sb_refuse_pgbench_option("scale", args->scale != 1);
	sb_refuse_pgbench_option("fillfactor", args->fillfactor != 100);
	sb_refuse_pgbench_option("partitions", args->partitions != 0);
	sb_refuse_pgbench_option("partition_method", args->partition_method != NULL);
	sb_refuse_pgbench_option("unlogged", args->unlogged);
	sb_refuse_pgbench_option("foreign_keys", args->foreign_keys);
	if (args->warehouses_given)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("warehouses is an option of the tpcc dataset, not of sysbench"),
				 errhint("sysbench's dataset is sized by tables and table_size, as sysbench prepare --tables=N --table-size=M.")));
	opts->tables = args->tables_given ? args->tables : SB_DEFAULT_TABLES;
	opts->table_size = args->table_size_given ? args->table_size : SB_DEFAULT_TABLE_SIZE;
	if (opts->tables < 1 || opts->tables > SB_MAX_TABLES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("tables must be between 1 and %d, not %d", SB_MAX_TABLES, opts->tables),
				 errhint("tables is sysbench's --tables: how many tables sbtest1, sbtest2, ... to make.")));
	if (opts->table_size < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("table_size must be at least 1, not %d", args->table_size),
				 errhint("table_size is sysbench's --table-size: the rows of each table.")));
}

static void
sb_options_json(const void *opts_in, StringInfo out)
{
	const SbOptions *opts = (const SbOptions *) opts_in;

	appendStringInfo(out, "\"tables\": %d, \"table_size\": %d", opts->tables, opts->table_size);
}

/*
 * What the tables take: per row a heap tuple of 24 + 4 + 4 + 121 + 61
 * bytes (aligned) and its line pointer, and an entry in each index.
 */
static uint64
sb_estimate_bytes(const void *opts_in)
{
	const SbOptions *opts = (const SbOptions *) opts_in;

	return (uint64) opts->tables * (uint64) opts->table_size * (224 + 4 + 2 * 20);
}

static char *
sb_size_words(const void *opts_in)
{
	const SbOptions *opts = (const SbOptions *) opts_in;

	return psprintf("a dataset of tables %d and table_size %d", opts->tables, opts->table_size);
}

/* :scale of the runs on it: sysbench has none */
static int
sb_scale(const void *opts)
{
	return 1;
}

static int
sb_ntables(const void *opts)
{
	return ((const SbOptions *) opts)->tables;
}

static const char *
sb_table_suffix(const void *opts, int t)
{
	return psprintf("%d", t + 1);
}

static int
sb_in_order(const void *opts, int i)
{
	return i;
}

static int
sb_nchildren(const void *opts)
{
	return 0;
}

static const char *
sb_child_suffix(const void *opts, int child)
{
	elog(ERROR, "the sysbench dataset has no partitions");
	return NULL;				/* keep the compiler quiet */
}

/* ------------------------------------------------------------------------
 * Rows
 * ------------------------------------------------------------------------
 */

/* the generator of a table's rows: a strong seed of its own */
static void
sb_seed(BkPrng *prng, int table)
{
	bk_prng_seed(prng, bk_strong_seed() ^ (uint64) table);
}

/* k of a row: sysbench.rand.default(1, table_size) */
static inline int32
sb_k(BkPrng *prng, const SbOptions *opts)
{
	return (int32) bk_sb_special(prng, 1, opts->table_size,
								 SB_SPECIAL_PCT, SB_SPECIAL_RES, SB_SPECIAL_ITER);
}

/* ------------------------------------------------------------------------
 * A load into this server
 * ------------------------------------------------------------------------
 */

/* the table as sysbench creates it, the primary key left for later */
static char *
sb_create_sql(const char *qualified, bool with_key)
{
	return psprintf("CREATE TABLE %s(\n"
					"  id SERIAL,\n"
					"  k INTEGER DEFAULT '0' NOT NULL,\n"
					"  c CHAR(120) DEFAULT '' NOT NULL,\n"
					"  pad CHAR(60) DEFAULT '' NOT NULL%s\n"
					") ",
					qualified, with_key ? ",\n  PRIMARY KEY (id)" : "");
}

static void
sb_create(const void *opts_in, const char *nspname, const char *prefix)
{
	const SbOptions *opts = (const SbOptions *) opts_in;

	for (int t = 0; t < opts->tables; t++)
		bk_spi_utility(sb_create_sql(quote_qualified_identifier(nspname,
																psprintf("%s%d", prefix, t + 1)),
									 false));
}

static int
sb_nleaves(const void *opts)
{
	return ((const SbOptions *) opts)->tables;
}

static void
sb_prepare(const void *opts_in, const char *nspname, const char *prefix, Oid *leaves,
		   int nloaders)
{
	const SbOptions *opts = (const SbOptions *) opts_in;
	Oid			nspid = get_namespace_oid(nspname, false);

	for (int t = 0; t < opts->tables; t++)
		leaves[t] = get_relname_relid(psprintf("%s%d", prefix, t + 1), nspid);
}

/*
 * a char(WIDTH) Datum of the LEN bytes at TEXT, blank-padded to WIDTH as
 * the type's input pads it (the patterns are ASCII: bytes are characters)
 */
static inline Datum
sb_bpchar(char *buf, const char *text, int len, int width)
{
	SET_VARSIZE(buf, VARHDRSZ + width);
	memcpy(VARDATA(buf), text, len);
	memset(VARDATA(buf) + len, ' ', width - len);
	return PointerGetDatum(buf);
}

/*
 * The loader LOADER of NLOADERS fills the tables T with T % NLOADERS =
 * LOADER, whole.
 */
static int64
sb_load_share(const void *opts_in, const Oid *leaves, int64 *leaf_rows, int loader,
			  int nloaders, pg_atomic_uint64 *next_unit,
			  pg_atomic_uint64 *progress, pg_atomic_uint32 *cancel)
{
	const SbOptions *opts = (const SbOptions *) opts_in;
	int64		total = 0;
	char		c[sizeof(SB_C_PATTERN)];
	char		pad[sizeof(SB_PAD_PATTERN)];
	char	   *cbuf = palloc(VARHDRSZ + SB_C_WIDTH);
	char	   *padbuf = palloc(VARHDRSZ + SB_PAD_WIDTH);

	for (int t = loader; t < opts->tables; t += nloaders)
	{
		BkBulkTarget bt;
		BkPrng		prng;
		Datum		values[4];
		bool		nulls[4] = {false, false, false, false};
		int64		pending = 0;

		sb_seed(&prng, t);
		bk_bulk_open(&bt, leaves[t], SB_BATCH_ROWS);
		for (int64 id = 1; id <= opts->table_size; id++)
		{
			values[0] = Int32GetDatum((int32) id);
			values[1] = Int32GetDatum(sb_k(&prng, opts));
			bk_sb_string(&prng, SB_C_PATTERN, c);
			bk_sb_string(&prng, SB_PAD_PATTERN, pad);
			values[2] = sb_bpchar(cbuf, c, sizeof(SB_C_PATTERN) - 1, SB_C_WIDTH);
			values[3] = sb_bpchar(padbuf, pad, sizeof(SB_PAD_PATTERN) - 1, SB_PAD_WIDTH);
			if (bk_bulk_add(&bt, values, nulls) || id == opts->table_size)
			{
				pending = (id - 1) % SB_BATCH_ROWS + 1;
				pg_atomic_fetch_add_u64(progress, pending);
				CHECK_FOR_INTERRUPTS();
				if (pg_atomic_read_u32(cancel) != 0)
					ereport(ERROR,
							(errcode(ERRCODE_QUERY_CANCELED),
							 errmsg("canceling the load")));
			}
		}
		bk_bulk_close(&bt);
		leaf_rows[t] = opts->table_size;
		total += opts->table_size;
	}
	return total;
}

static int64
sb_load_rest(const void *opts, const Oid *tables, const Oid *leaves,
			 pg_atomic_uint32 *cancel)
{
	return 0;
}

/* the statements that finish table T under its final name */
static List *
sb_keys_sql(const SbOptions *opts, const char *nspname, int t, bool with_pkey)
{
	char	   *name = psprintf("sbtest%d", t + 1);
	char	   *table = quote_qualified_identifier(nspname, name);
	List	   *stmts = NIL;

	if (with_pkey)
		stmts = lappend(stmts, psprintf("ALTER TABLE %s ADD PRIMARY KEY (id)", table));
	stmts = lappend(stmts, psprintf("CREATE INDEX k_%d ON %s(k)", t + 1, table));
	/* the serial, where sysbench's table_size inserts left it */
	stmts = lappend(stmts, psprintf("DO $bk$BEGIN PERFORM pg_catalog.setval(pg_catalog.pg_get_serial_sequence(%s, 'id'), %d); END$bk$",
									quote_literal_cstr(table), opts->table_size));
	return stmts;
}

/* in the swap: the primary keys, the indexes on k, the serials */
static void
sb_add_keys(const void *opts_in, const char *nspname)
{
	const SbOptions *opts = (const SbOptions *) opts_in;
	ListCell   *lc;

	for (int t = 0; t < opts->tables; t++)
		foreach(lc, sb_keys_sql(opts, nspname, t, true))
		{
			const char *sql = (const char *) lfirst(lc);

			bk_spi_utility(sql);
		}
}

static bool
sb_wants_foreign_keys(const void *opts)
{
	return false;
}

/* ------------------------------------------------------------------------
 * A load into a target: what sysbench prepare sends
 * ------------------------------------------------------------------------
 */

static char *
sb_table_sql(const void *opts, int version, const char *nspname, const char *prefix,
			 int table)
{
	return sb_create_sql(quote_qualified_identifier(nspname, psprintf("%s%d", prefix, table + 1)),
						 true);
}

static int64
sb_rows(const void *opts, int t)
{
	return ((const SbOptions *) opts)->table_size;
}

/*
 * sb_copy_row
 *		Row ROW (from 0) of table T as COPY text.  Rows come in order, from
 *		row 0 of each table: the generator is seeded there.
 */
static void
sb_copy_row(const void *opts_in, int t, int64 row, StringInfo out)
{
	static BkPrng prng;
	const SbOptions *opts = (const SbOptions *) opts_in;
	char		c[sizeof(SB_C_PATTERN)];
	char		pad[sizeof(SB_PAD_PATTERN)];

	if (row == 0)
		sb_seed(&prng, t);
	appendStringInfo(out, INT64_FORMAT "\t%d\t", row + 1, (int) sb_k(&prng, opts));
	bk_sb_string(&prng, SB_C_PATTERN, c);
	bk_sb_string(&prng, SB_PAD_PATTERN, pad);
	appendBinaryStringInfo(out, c, sizeof(c) - 1);
	appendStringInfoChar(out, '\t');
	appendBinaryStringInfo(out, pad, sizeof(pad) - 1);
	appendStringInfoChar(out, '\n');
}

/* eleven random digits, in SQL */
#define SB_SQL_DIGITS "pg_catalog.lpad(pg_catalog.floor(pg_catalog.random() * 100000000000)::bigint::text, 11, '0')"

/*
 * sb_insert_sql
 *		The rows of table T made by the target: k by the special
 *		distribution as sysbench draws it (one uniform draw decides between
 *		the 75% put uniformly in the middle 1% of the range and the mean of
 *		12 draws), c and pad as groups of eleven random digits.
 */
static char *
sb_insert_sql(const void *opts_in, int t, const char *nspname)
{
	const SbOptions *opts = (const SbOptions *) opts_in;
	double		range = (double) opts->table_size - 1;
	StringInfoData sql;
	StringInfoData twelve;

	initStringInfo(&twelve);
	for (int i = 0; i < SB_SPECIAL_ITER; i++)
		appendStringInfo(&twelve, "%spg_catalog.random()", i ? " + " : "");
	initStringInfo(&sql);
	appendStringInfo(&sql,
					 "INSERT INTO %s (id, k, c, pad) "
					 "SELECT i, CASE WHEN u * %.17g < %.17g "
					 "THEN 1 + pg_catalog.floor((%s) * %.17g / %d)::bigint "
					 "ELSE 1 + pg_catalog.floor(u * (%.17g + 1) + %.17g / 2 - %.17g)::bigint END, ",
					 quote_qualified_identifier(nspname, psprintf("sbtest%d", t + 1)),
					 range * (100.0 / (100 - SB_SPECIAL_RES)), range,
					 twelve.data, range, SB_SPECIAL_ITER,
					 range * SB_SPECIAL_PCT / 100.0, range, range * SB_SPECIAL_PCT / 200.0);
	appendStringInfoString(&sql, "pg_catalog.concat_ws('-'");
	for (int g = 0; g < 10; g++)
		appendStringInfoString(&sql, ", " SB_SQL_DIGITS);
	appendStringInfoString(&sql, "), pg_catalog.concat_ws('-'");
	for (int g = 0; g < 5; g++)
		appendStringInfoString(&sql, ", " SB_SQL_DIGITS);
	appendStringInfo(&sql, ") FROM pg_catalog.generate_series(1, %d) AS i, "
					 "LATERAL (SELECT pg_catalog.random() + 0 * i AS u) AS d",
					 opts->table_size);
	return sql.data;
}

/* after the rows: the indexes on k, the serials (the keys came with the tables) */
static List *
sb_primary_keys_sql(const void *opts_in, const char *nspname)
{
	const SbOptions *opts = (const SbOptions *) opts_in;
	List	   *stmts = NIL;

	for (int t = 0; t < opts->tables; t++)
		stmts = list_concat(stmts, sb_keys_sql(opts, nspname, t, false));
	return stmts;
}

static List *
sb_foreign_keys_sql(const void *opts, const char *nspname)
{
	return NIL;
}

const BkDatasetKind bk_dataset_sysbench = {
	.name = "sysbench",
	.serves = "sbtest1 .. sbtestN, as sysbench prepare makes them",
	.final_prefix = "sbtest",
	.read_options = sb_read_options,
	.options_json = sb_options_json,
	.estimate_bytes = sb_estimate_bytes,
	.size_words = sb_size_words,
	.smaller_hint = "Choose fewer tables or a smaller table_size, or free some space.",
	.scale = sb_scale,
	.ntables = sb_ntables,
	.table_suffix = sb_table_suffix,
	.vacuum_table = sb_in_order,
	.nchildren = sb_nchildren,
	.main_table = 0,
	.child_suffix = sb_child_suffix,
	.nleaves = sb_nleaves,
	.create = sb_create,
	.prepare = sb_prepare,
	.load_share = sb_load_share,
	.load_rest = sb_load_rest,
	.after_vacuum = NULL,
	.add_keys = sb_add_keys,
	.add_foreign_keys = NULL,
	.wants_foreign_keys = sb_wants_foreign_keys,
	.table_sql = sb_table_sql,
	.child_sql = NULL,
	.nfilled = sb_ntables,
	.filled = sb_in_order,
	.rows = sb_rows,
	.copy_row = sb_copy_row,
	.insert_sql = sb_insert_sql,
	.primary_keys_sql = sb_primary_keys_sql,
	.foreign_keys_sql = sb_foreign_keys_sql,
};
