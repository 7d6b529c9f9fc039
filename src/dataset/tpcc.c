/*-------------------------------------------------------------------------
 *
 * tpcc.c
 *		The dataset kind "tpcc": the nine tables of TPC-C (v5.11, clause
 *		1.3) as go-tpc v1.0.12 makes them for PostgreSQL, filled with the
 *		specification's initial population (clause 4.3.3.1), as init.c
 *		drives a kind (dataset.h).
 *
 * The tables have go-tpc's names (no prefix: warehouse, district, ...),
 * columns, types and NOT NULLs, its primary keys, its indexes idx_customer
 * and idx_order, and, with foreign_keys => true, its foreign keys by its
 * names.  History has no index (the specification gives it none; go-tpc's
 * two are MySQL habits).
 *
 * Every row is a function of the load's seed, its table and its keys
 * alone: each row (each order line) draws from a generator seeded there,
 * an order's line count from one of its own, and a district's customers
 * of its orders are a permutation of 1..3000 keyed by the district.  So
 * the loaders in the server (any number of them, each filling whole units
 * of work: a district's customers, a tenth of a warehouse's stock, ...)
 * and the COPY text sent to a target (row after row, in key order) give
 * the same rows for the same seed, from one generator of values
 * (tc_gen_*), written either as Datums or as COPY text.
 *
 * NURand's constants C (clause 2.1.6) are drawn from the seed at load time
 * and kept in the dataset's options: c_last (0..255), c_id (0..1023),
 * ol_i_id (0..8191).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "catalog/namespace.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "pgtime.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

#include "core/random.h"
#include "dataset/bulkload.h"
#include "dataset/heapfill.h"
#include "dataset/tpcc.h"
#include "dataset/tpcc_functions.h"
#include "dataset/tpcc_schema.h"
#include "meta/catalog.h"

/* the specification's cardinalities (clause 4.3.3.1) */
#define TC_ITEMS				100000
#define TC_STOCK				100000	/* per warehouse */
#define TC_DISTRICTS			10	/* per warehouse */
#define TC_CUSTOMERS			3000	/* per district */
#define TC_ORDERS				3000	/* per district */
#define TC_NEW_ORDERS			900 /* per district: the last orders */
#define TC_FIRST_NEW_ORDER		(TC_ORDERS - TC_NEW_ORDERS + 1)	/* 2101 */

/* our bound: the rows of a table stay far from int32 keys' limits */
#define TC_MAX_WAREHOUSES		100000

/* a unit of the loaders' work: a tenth of the items or of a warehouse's stock */
#define TC_CHUNKS				10
#define TC_BATCH_ROWS			1000


/* the syllables of a last name (clause 4.3.2.3) */
static const char *const tc_syllables[10] = {
	"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"
};

static const char tc_alnum[] =
"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

typedef struct TcOptions
{
	int			warehouses;
	bool		foreign_keys;
	int			c_last;			/* NURand's C for C_LAST at load time */
	int			c_id;			/* for C_ID */
	int			ol_i_id;		/* for OL_I_ID */
	uint64		seed;			/* every row's values come from it */
	Timestamp	now;			/* the load's date and time, to the second */
	char		now_text[24];	/* the same as COPY text: YYYY-MM-DD HH:MM:SS */
} TcOptions;

StaticAssertDecl(sizeof(TcOptions) <= BK_DATASET_OPTIONS_SIZE,
				 "TcOptions must fit in a load's segment");

/* ------------------------------------------------------------------------
 * Options
 * ------------------------------------------------------------------------
 */

/* the other kinds' options have no meaning here */
static void
tc_refuse_option(const char *name, const char *kind, bool given)
{
	if (given)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s is an option of the %s dataset, not of tpcc", name, kind),
				 errhint("The TPC-C dataset is sized by warehouses alone: bench.init('tpcc', warehouses => W).")));
}

/* one 64-bit value from the load's seed and up to three keys */
static inline uint64
tc_mix(uint64 seed, uint64 a, uint64 b, uint64 c)
{
	uint64		h = seed ^ (a * UINT64CONST(0x9E3779B97F4A7C15));

	h ^= b * UINT64CONST(0xC2B2AE3D27D4EB4F) + (h << 6) + (h >> 2);
	h ^= c * UINT64CONST(0x165667B19E3779F9) + (h << 6) + (h >> 2);
	/* splitmix64's finalizer */
	h = (h ^ (h >> 30)) * UINT64CONST(0xBF58476D1CE4E5B9);
	h = (h ^ (h >> 27)) * UINT64CONST(0x94D049BB133111EB);
	return h ^ (h >> 31);
}

static void
tc_read_options(const BkInitArgs *args, void *opts_out)
{
	TcOptions  *opts = (TcOptions *) opts_out;
	BkPrng		prng;
	TimestampTz now;
	Timestamp	local;
	struct pg_tm tm;
	fsec_t		fsec;

	memset(opts, 0, sizeof(*opts));
	tc_refuse_option("scale", "tpcb", args->scale != 1);
	tc_refuse_option("fillfactor", "tpcb", args->fillfactor != 100);
	tc_refuse_option("partitions", "tpcb", args->partitions != 0);
	tc_refuse_option("partition_method", "tpcb", args->partition_method != NULL);
	tc_refuse_option("unlogged", "tpcb", args->unlogged);
	tc_refuse_option("tables", "sysbench", args->tables_given);
	tc_refuse_option("table_size", "sysbench", args->table_size_given);
	if (!args->warehouses_given)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("bench.init('tpcc') needs warehouses"),
				 errhint("Give the number of warehouses, as go-tpc's --warehouses: bench.init('tpcc', warehouses => 10).")));
	if (args->warehouses < 1 || args->warehouses > TC_MAX_WAREHOUSES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("warehouses must be between 1 and %d, not %d", TC_MAX_WAREHOUSES, args->warehouses),
				 errhint("warehouses is TPC-C's W: each one is about 100 MB of rows.")));
	opts->warehouses = args->warehouses;
	opts->foreign_keys = args->foreign_keys;

	/* the seed of every row, and NURand's constants from it (clause 2.1.6) */
	opts->seed = bk_strong_seed();
	bk_prng_seed(&prng, tc_mix(opts->seed, TC_NTABLES, 0, 0));
	opts->c_last = (int) bk_random_uniform(&prng, 0, 255);
	opts->c_id = (int) bk_random_uniform(&prng, 0, 1023);
	opts->ol_i_id = (int) bk_random_uniform(&prng, 0, 8191);

	/* the load's date and time, in the caller's time zone, to the second */
	now = GetCurrentTimestamp();
	now -= now % USECS_PER_SEC;
	local = DatumGetTimestamp(DirectFunctionCall1(timestamptz_timestamp, TimestampTzGetDatum(now)));
	if (timestamp2tm(local, NULL, &tm, &fsec, NULL, NULL) != 0)
		elog(ERROR, "timestamp out of range");
	opts->now = local;
	snprintf(opts->now_text, sizeof(opts->now_text), "%04d-%02d-%02d %02d:%02d:%02d",
			 tm.tm_year, tm.tm_mon, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static void
tc_options_json(const void *opts_in, StringInfo out)
{
	const TcOptions *opts = (const TcOptions *) opts_in;

	appendStringInfo(out, "\"warehouses\": %d, \"foreign_keys\": %s, \"c_last\": %d, \"c_id\": %d, "
					 "\"ol_i_id\": %d, \"seed\": " UINT64_FORMAT,
					 opts->warehouses, opts->foreign_keys ? "true" : "false",
					 opts->c_last, opts->c_id, opts->ol_i_id, opts->seed);
}

/*
 * What the tables and their keys take, measured at one warehouse: about
 * 100 MB per warehouse (stock 37, customer 20, order lines 30, and the
 * keys) and 10 MB of items.
 */
static uint64
tc_estimate_bytes(const void *opts_in)
{
	const TcOptions *opts = (const TcOptions *) opts_in;

	return (uint64) opts->warehouses * UINT64CONST(105000000) + UINT64CONST(11000000);
}

static char *
tc_size_words(const void *opts_in)
{
	const TcOptions *opts = (const TcOptions *) opts_in;

	return psprintf("a TPC-C dataset of %d warehouse%s", opts->warehouses,
					opts->warehouses == 1 ? "" : "s");
}

/* bench.datasets.scale: the warehouses */
static int
tc_scale(const void *opts)
{
	return ((const TcOptions *) opts)->warehouses;
}

static int
tc_ntables(const void *opts)
{
	return TC_NTABLES;
}

static const char *
tc_table_suffix(const void *opts, int t)
{
	return bk_tpcc_names[t];
}

static int
tc_in_order(const void *opts, int i)
{
	return i;
}

static int
tc_nchildren(const void *opts)
{
	return 0;
}

static const char *
tc_child_suffix(const void *opts, int child)
{
	elog(ERROR, "the tpcc dataset has no partitions");
	return NULL;				/* keep the compiler quiet */
}

static bool
tc_wants_foreign_keys(const void *opts)
{
	return ((const TcOptions *) opts)->foreign_keys;
}

/* ------------------------------------------------------------------------
 * Rows: one generator of values, written as Datums or as COPY text
 * ------------------------------------------------------------------------
 */

typedef enum TcValKind
{
	TV_INT,
	TV_STR,
	TV_NUM,						/* int64 scaled by 10^scale */
	TV_TS,						/* the load's date and time */
	TV_NULL
} TcValKind;

typedef struct TcVal
{
	TcValKind	kind;
	int			scale;			/* TV_NUM */
	int64		i;				/* TV_INT, TV_NUM */
	const char *s;				/* TV_STR */
	int			len;
} TcVal;

#define TC_MAX_COLS		21
#define TC_ROW_CHARS	2048	/* the longest row's strings: customer's < 750 */

typedef struct TcRow
{
	int			n;
	TcVal		v[TC_MAX_COLS];
	char		chars[TC_ROW_CHARS];
	int			used;
	BkPrng		prng;
} TcRow;

static inline void
tc_begin(TcRow *r, const TcOptions *opts, int table, uint64 a, uint64 b, uint64 c)
{
	r->n = 0;
	r->used = 0;
	bk_prng_seed(&r->prng, tc_mix(opts->seed ^ (uint64) table, a, b, c));
}

static inline int64
tc_rand(TcRow *r, int64 min, int64 max)
{
	return bk_random_uniform(&r->prng, min, max);
}

static inline void
tc_int(TcRow *r, int64 v)
{
	TcVal	   *x = &r->v[r->n++];

	x->kind = TV_INT;
	x->i = v;
}

static inline void
tc_num(TcRow *r, int64 v, int scale)
{
	TcVal	   *x = &r->v[r->n++];

	x->kind = TV_NUM;
	x->i = v;
	x->scale = scale;
}

static inline void
tc_null(TcRow *r)
{
	r->v[r->n++].kind = TV_NULL;
}

static inline void
tc_ts(TcRow *r)
{
	r->v[r->n++].kind = TV_TS;
}

/* a string of LEN bytes at the end of the row's characters, to fill */
static inline char *
tc_str(TcRow *r, int len)
{
	TcVal	   *x = &r->v[r->n++];
	char	   *p = r->chars + r->used;

	Assert(r->used + len <= TC_ROW_CHARS);
	x->kind = TV_STR;
	x->s = p;
	x->len = len;
	r->used += len;
	return p;
}

static inline void
tc_const(TcRow *r, const char *s)
{
	memcpy(tc_str(r, strlen(s)), s, strlen(s));
}

/* LEN characters of SET (of SETLEN), two from each 64-bit draw */
static inline void
tc_fill(TcRow *r, char *p, int len, const char *set, int setlen)
{
	for (int i = 0; i < len; i += 2)
	{
		uint64		x = bk_prng_next(&r->prng);

		p[i] = set[((x & 0xFFFFFFFF) * (uint64) setlen) >> 32];
		if (i + 1 < len)
			p[i + 1] = set[((x >> 32) * (uint64) setlen) >> 32];
	}
}

/* random a-string [MIN .. MAX] (clause 4.3.2.2) */
static inline char *
tc_astring(TcRow *r, int min, int max)
{
	int			len = (int) tc_rand(r, min, max);
	char	   *p = tc_str(r, len);

	tc_fill(r, p, len, tc_alnum, 62);
	return p;
}

/* random n-string of LEN digits */
static inline void
tc_nstring(TcRow *r, int len)
{
	tc_fill(r, tc_str(r, len), len, tc_alnum + 52, 10);
}

/* i_data, s_data: a-string [26 .. 50], "ORIGINAL" somewhere in 10% of them */
static inline void
tc_data(TcRow *r)
{
	bool		original = tc_rand(r, 1, 10) == 1;
	int			len = (int) tc_rand(r, 26, 50);
	char	   *p = tc_str(r, len);

	tc_fill(r, p, len, tc_alnum, 62);
	if (original)
		memcpy(p + tc_rand(r, 0, len - 8), "ORIGINAL", 8);
}

/* an address: street 1, street 2, city, state, zip (clauses 4.3.2.7, 4.3.3.1) */
static inline void
tc_address(TcRow *r)
{
	char	   *zip;

	tc_astring(r, 10, 20);
	tc_astring(r, 10, 20);
	tc_astring(r, 10, 20);
	tc_fill(r, tc_str(r, 2), 2, tc_alnum + 26, 26);
	zip = tc_str(r, 9);
	tc_fill(r, zip, 4, tc_alnum + 52, 10);
	memcpy(zip + 4, "11111", 5);
}

/* a last name from the number N, 0 .. 999 (clause 4.3.2.3) */
static inline void
tc_last_name(TcRow *r, int n)
{
	char		buf[16];
	int			len;

	len = snprintf(buf, sizeof(buf), "%s%s%s", tc_syllables[n / 100],
				   tc_syllables[(n / 10) % 10], tc_syllables[n % 10]);
	memcpy(tc_str(r, len), buf, len);
}

static void
tc_gen_item(TcRow *r, const TcOptions *opts, int i)
{
	tc_begin(r, opts, TT_ITEM, i, 0, 0);
	tc_int(r, i);
	tc_int(r, tc_rand(r, 1, 10000));
	tc_astring(r, 14, 24);
	tc_num(r, tc_rand(r, 100, 10000), 2);
	tc_data(r);
}

static void
tc_gen_warehouse(TcRow *r, const TcOptions *opts, int w)
{
	tc_begin(r, opts, TT_WAREHOUSE, w, 0, 0);
	tc_int(r, w);
	tc_astring(r, 6, 10);
	tc_address(r);
	tc_num(r, tc_rand(r, 0, 2000), 4);
	tc_num(r, 30000000, 2);
}

static void
tc_gen_district(TcRow *r, const TcOptions *opts, int w, int d)
{
	tc_begin(r, opts, TT_DISTRICT, w, d, 0);
	tc_int(r, d);
	tc_int(r, w);
	tc_astring(r, 6, 10);
	tc_address(r);
	tc_num(r, tc_rand(r, 0, 2000), 4);
	tc_num(r, 3000000, 2);
	tc_int(r, TC_ORDERS + 1);
}

static void
tc_gen_stock(TcRow *r, const TcOptions *opts, int w, int i)
{
	tc_begin(r, opts, TT_STOCK, w, i, 0);
	tc_int(r, i);
	tc_int(r, w);
	tc_int(r, tc_rand(r, 10, 100));
	for (int k = 0; k < 10; k++)
		tc_fill(r, tc_str(r, 24), 24, tc_alnum, 62);
	tc_int(r, 0);
	tc_int(r, 0);
	tc_int(r, 0);
	tc_data(r);
}

static void
tc_gen_customer(TcRow *r, const TcOptions *opts, int w, int d, int c)
{
	tc_begin(r, opts, TT_CUSTOMER, w, d, c);
	tc_int(r, c);
	tc_int(r, d);
	tc_int(r, w);
	tc_astring(r, 8, 16);
	tc_const(r, "OE");
	if (c <= 1000)
		tc_last_name(r, c - 1);
	else
		tc_last_name(r, (int) (((tc_rand(r, 0, 255) | tc_rand(r, 0, 999)) + opts->c_last) % 1000));
	tc_address(r);
	tc_nstring(r, 16);
	tc_ts(r);
	tc_const(r, tc_rand(r, 1, 10) == 1 ? "BC" : "GC");
	tc_num(r, 5000000, 2);
	tc_num(r, tc_rand(r, 0, 5000), 4);
	tc_num(r, -1000, 2);
	tc_num(r, 1000, 2);
	tc_int(r, 1);
	tc_int(r, 0);
	tc_astring(r, 300, 500);
}

static void
tc_gen_history(TcRow *r, const TcOptions *opts, int w, int d, int c)
{
	tc_begin(r, opts, TT_HISTORY, w, d, c);
	tc_int(r, c);
	tc_int(r, d);
	tc_int(r, w);
	tc_int(r, d);
	tc_int(r, w);
	tc_ts(r);
	tc_num(r, 1000, 2);
	tc_astring(r, 12, 24);
}

/* an order's lines, 5 .. 15: a draw of its own, for orders and order lines alike */
static inline int
tc_ol_cnt(const TcOptions *opts, int w, int d, int o)
{
	return 5 + (int) (tc_mix(opts->seed ^ (uint64) TT_ORDER_LINE, w, d, (uint64) o << 32) % 11);
}

static void
tc_gen_order(TcRow *r, const TcOptions *opts, int w, int d, int o)
{
	/* the district's customers in a random order (a permutation keyed by it) */
	int64		pkey = (int64) (tc_mix(opts->seed ^ (uint64) TT_CUSTOMER, w, d, UINT64CONST(1) << 40) >> 1);

	tc_begin(r, opts, TT_ORDERS, w, d, o);
	tc_int(r, o);
	tc_int(r, d);
	tc_int(r, w);
	tc_int(r, bk_permute(o - 1, TC_CUSTOMERS, pkey) + 1);
	tc_ts(r);
	if (o < TC_FIRST_NEW_ORDER)
		tc_int(r, tc_rand(r, 1, 10));
	else
		tc_null(r);
	tc_int(r, tc_ol_cnt(opts, w, d, o));
	tc_int(r, 1);
}

static void
tc_gen_new_order(TcRow *r, const TcOptions *opts, int w, int d, int o)
{
	r->n = 0;
	r->used = 0;
	tc_int(r, o);
	tc_int(r, d);
	tc_int(r, w);
}

static void
tc_gen_order_line(TcRow *r, const TcOptions *opts, int w, int d, int o, int ol)
{
	tc_begin(r, opts, TT_ORDER_LINE, w, d, ((uint64) o << 8) | (uint64) ol);
	tc_int(r, o);
	tc_int(r, d);
	tc_int(r, w);
	tc_int(r, ol);
	tc_int(r, tc_rand(r, 1, TC_ITEMS));
	tc_int(r, w);
	if (o < TC_FIRST_NEW_ORDER)
		tc_ts(r);
	else
		tc_null(r);
	tc_int(r, 5);
	if (o < TC_FIRST_NEW_ORDER)
		tc_num(r, 0, 2);
	else
		tc_num(r, tc_rand(r, 1, 999999), 2);
	tc_fill(r, tc_str(r, 24), 24, tc_alnum, 62);
}

/* V as COPY text */
static void
tc_append_num(StringInfo out, int64 v, int scale)
{
	int64		div = 1;
	uint64		a = v < 0 ? (uint64) (-v) : (uint64) v;

	for (int i = 0; i < scale; i++)
		div *= 10;
	appendStringInfo(out, "%s%llu.%0*llu", v < 0 ? "-" : "",
					 (unsigned long long) (a / (uint64) div), scale,
					 (unsigned long long) (a % (uint64) div));
}

static void
tc_row_text(const TcRow *r, const TcOptions *opts, StringInfo out)
{
	for (int i = 0; i < r->n; i++)
	{
		const TcVal *x = &r->v[i];

		if (i > 0)
			appendStringInfoChar(out, '\t');
		switch (x->kind)
		{
			case TV_INT:
				appendStringInfo(out, INT64_FORMAT, x->i);
				break;
			case TV_STR:
				appendBinaryStringInfo(out, x->s, x->len);
				break;
			case TV_NUM:
				tc_append_num(out, x->i, x->scale);
				break;
			case TV_TS:
				appendStringInfoString(out, opts->now_text);
				break;
			case TV_NULL:
				appendStringInfoString(out, "\\N");
				break;
		}
	}
	appendStringInfoChar(out, '\n');
}

/* a numeric of V / 10^SCALE, with that display scale */
static Datum
tc_numeric(int64 v, int scale)
{
#if PG_VERSION_NUM >= 150000
	return NumericGetDatum(int64_div_fast_to_numeric(v, scale));
#else
	StringInfoData s;

	initStringInfo(&s);
	tc_append_num(&s, v, scale);
	return DirectFunctionCall3(numeric_in, CStringGetDatum(s.data),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
#endif
}

/*
 * The row as Datums, in CXT (reset by the caller); strings as varlenas
 * with a 4-byte header (heap_form_tuple packs them).
 */
static void
tc_row_datums(const TcRow *r, const TcOptions *opts, Datum *values, bool *nulls)
{
	for (int i = 0; i < r->n; i++)
	{
		const TcVal *x = &r->v[i];

		nulls[i] = false;
		switch (x->kind)
		{
			case TV_INT:
				values[i] = Int32GetDatum((int32) x->i);
				break;
			case TV_STR:
				{
					text	   *t = palloc(VARHDRSZ + x->len);

					SET_VARSIZE(t, VARHDRSZ + x->len);
					memcpy(VARDATA(t), x->s, x->len);
					values[i] = PointerGetDatum(t);
					break;
				}
			case TV_NUM:
				values[i] = tc_numeric(x->i, x->scale);
				break;
			case TV_TS:
				values[i] = TimestampGetDatum(opts->now);
				break;
			case TV_NULL:
				values[i] = (Datum) 0;
				nulls[i] = true;
				break;
		}
	}
}

/* ------------------------------------------------------------------------
 * The rows of each table, in key order
 * ------------------------------------------------------------------------
 */

/* the order lines of the whole dataset */
static int64
tc_order_lines(const TcOptions *opts)
{
	int64		n = 0;

	for (int w = 1; w <= opts->warehouses; w++)
		for (int d = 1; d <= TC_DISTRICTS; d++)
			for (int o = 1; o <= TC_ORDERS; o++)
				n += tc_ol_cnt(opts, w, d, o);
	return n;
}

static int64
tc_rows(const void *opts_in, int t)
{
	const TcOptions *opts = (const TcOptions *) opts_in;
	int64		w = opts->warehouses;

	switch ((TcTable) t)
	{
		case TT_WAREHOUSE:
			return w;
		case TT_DISTRICT:
			return w * TC_DISTRICTS;
		case TT_CUSTOMER:
		case TT_HISTORY:
			return w * TC_DISTRICTS * TC_CUSTOMERS;
		case TT_ORDERS:
			return w * TC_DISTRICTS * TC_ORDERS;
		case TT_NEW_ORDER:
			return w * TC_DISTRICTS * TC_NEW_ORDERS;
		case TT_ORDER_LINE:
			return tc_order_lines(opts);
		case TT_ITEM:
			return TC_ITEMS;
		case TT_STOCK:
			return w * TC_STOCK;
		case TC_NTABLES:
			break;
	}
	elog(ERROR, "unknown tpcc table %d", t);
	return 0;
}

/*
 * tc_gen_row
 *		Row ROW (from 0, in key order) of table T, but for order lines,
 *		whose rows come from the keys of their order and number: those are
 *		walked in order by tc_copy_row.
 */
static void
tc_gen_row(TcRow *r, const TcOptions *opts, int t, int64 row)
{
	int			per_w = TC_DISTRICTS * TC_CUSTOMERS;

	switch ((TcTable) t)
	{
		case TT_WAREHOUSE:
			tc_gen_warehouse(r, opts, (int) row + 1);
			return;
		case TT_DISTRICT:
			tc_gen_district(r, opts, (int) (row / TC_DISTRICTS) + 1, (int) (row % TC_DISTRICTS) + 1);
			return;
		case TT_CUSTOMER:
			tc_gen_customer(r, opts, (int) (row / per_w) + 1, (int) (row / TC_CUSTOMERS % TC_DISTRICTS) + 1,
							(int) (row % TC_CUSTOMERS) + 1);
			return;
		case TT_HISTORY:
			tc_gen_history(r, opts, (int) (row / per_w) + 1, (int) (row / TC_CUSTOMERS % TC_DISTRICTS) + 1,
						   (int) (row % TC_CUSTOMERS) + 1);
			return;
		case TT_ORDERS:
			tc_gen_order(r, opts, (int) (row / per_w) + 1, (int) (row / TC_ORDERS % TC_DISTRICTS) + 1,
						 (int) (row % TC_ORDERS) + 1);
			return;
		case TT_NEW_ORDER:
			tc_gen_new_order(r, opts, (int) (row / (TC_DISTRICTS * TC_NEW_ORDERS)) + 1,
							 (int) (row / TC_NEW_ORDERS % TC_DISTRICTS) + 1,
							 (int) (row % TC_NEW_ORDERS) + TC_FIRST_NEW_ORDER);
			return;
		case TT_ITEM:
			tc_gen_item(r, opts, (int) row + 1);
			return;
		case TT_STOCK:
			tc_gen_stock(r, opts, (int) (row / TC_STOCK) + 1, (int) (row % TC_STOCK) + 1);
			return;
		case TT_ORDER_LINE:
		case TC_NTABLES:
			break;
	}
	elog(ERROR, "tpcc table %d has no row numbers", t);
}

/* ------------------------------------------------------------------------
 * A load into this server
 * ------------------------------------------------------------------------
 */


static int
tc_nleaves(const void *opts)
{
	return TC_NTABLES;
}

static void
tc_prepare(const void *opts, const char *nspname, const char *prefix, Oid *leaves,
		   int nloaders)
{
	Oid			nspid = get_namespace_oid(nspname, false);

	for (int t = 0; t < TC_NTABLES; t++)
		leaves[t] = get_relname_relid(psprintf("%s%s", prefix, bk_tpcc_names[t]), nspid);
}

/*
 * The units of the loaders' work, in the order they are dealt: the
 * items in tenths; per warehouse and tenth k, a tenth of its stock and
 * district k+1's customers, history, orders, new orders and order lines;
 * then per warehouse its row and its districts'.
 */
#define TC_UNITS_PER_TENTH	6

static int64
tc_nunits(const TcOptions *opts)
{
	return TC_CHUNKS + (int64) opts->warehouses * (TC_CHUNKS * TC_UNITS_PER_TENTH + 1);
}

typedef struct TcLoad
{
	const TcOptions *opts;
	const Oid  *leaves;
	pg_atomic_uint64 *progress;
	pg_atomic_uint32 *cancel;
	MemoryContext rowcxt;
	TcRow		row;
	/* each table's batch or pages, open from its first unit to the end */
	BkBulkTarget bt[TC_NTABLES];
	BkHeapFill	hf[TC_NTABLES];	/* tc_by_units */
	bool		open[TC_NTABLES];
	int64		pending[TC_NTABLES];	/* rows in the batch, not yet counted */
	int			cur;			/* the table of the unit being generated */
	int64		total;
} TcLoad;

/*
 * A unit's rows go into its table's batch, kept open between units (its
 * slots are made once per table and loader, not once per unit)
 */
static void
tc_unit_open(TcLoad *l, int t)
{
	if (!l->open[t])
	{
		if (tc_by_units(t))
			bk_hf_begin(&l->hf[t], table_open(l->leaves[t], RowExclusiveLock));
		else
			bk_bulk_open(&l->bt[t], l->leaves[t], TC_BATCH_ROWS);
		l->open[t] = true;
	}
	l->cur = t;
}

/* the end of a unit: a table written by units has its pages written */
static void
tc_unit_end(TcLoad *l)
{
	if (tc_by_units(l->cur))
		bk_hf_flush(&l->hf[l->cur]);
}

/* add the row generated in L->row to the open table */
static void
tc_unit_add(TcLoad *l)
{
	Datum		values[TC_MAX_COLS];
	bool		nulls[TC_MAX_COLS];
	MemoryContext old = MemoryContextSwitchTo(l->rowcxt);

	bool		counted;

	tc_row_datums(&l->row, l->opts, values, nulls);
	if (tc_by_units(l->cur))
	{
		bk_hf_add(&l->hf[l->cur], heap_form_tuple(RelationGetDescr(l->hf[l->cur].rel),
												   values, nulls));
		counted = ++l->pending[l->cur] >= TC_BATCH_ROWS;
	}
	else
	{
		l->pending[l->cur]++;
		counted = bk_bulk_add(&l->bt[l->cur], values, nulls);
	}
	MemoryContextSwitchTo(old);
	if (counted)
	{
		pg_atomic_fetch_add_u64(l->progress, l->pending[l->cur]);
		l->total += l->pending[l->cur];
		l->pending[l->cur] = 0;
		CHECK_FOR_INTERRUPTS();
		if (pg_atomic_read_u32(l->cancel) != 0)
			ereport(ERROR,
					(errcode(ERRCODE_QUERY_CANCELED),
					 errmsg("canceling the load")));
	}
	MemoryContextReset(l->rowcxt);
}

/* the end of the share: every table's last batch */
static void
tc_close_all(TcLoad *l)
{
	for (int t = 0; t < TC_NTABLES; t++)
		if (l->open[t])
		{
			if (tc_by_units(t))
			{
				Relation	rel = l->hf[t].rel;

				bk_hf_finish(&l->hf[t]);
				table_close(rel, NoLock);
			}
			else
				bk_bulk_close(&l->bt[t]);
			l->open[t] = false;
			pg_atomic_fetch_add_u64(l->progress, l->pending[t]);
			l->total += l->pending[t];
			l->pending[t] = 0;
		}
}

static void
tc_load_unit_rows(TcLoad *l, int64 u)
{
	const TcOptions *opts = l->opts;
	TcRow	   *r = &l->row;
	int			w;
	int			k;

	if (u < TC_CHUNKS)
	{
		tc_unit_open(l, TT_ITEM);
		for (int i = (int) u * (TC_ITEMS / TC_CHUNKS) + 1; i <= (u + 1) * (TC_ITEMS / TC_CHUNKS); i++)
		{
			tc_gen_item(r, opts, i);
			tc_unit_add(l);
		}
		return;
	}
	u -= TC_CHUNKS;
	if (u >= (int64) opts->warehouses * TC_CHUNKS * TC_UNITS_PER_TENTH)
	{
		w = (int) (u - (int64) opts->warehouses * TC_CHUNKS * TC_UNITS_PER_TENTH) + 1;
		tc_unit_open(l, TT_WAREHOUSE);
		tc_gen_warehouse(r, opts, w);
		tc_unit_add(l);
		tc_unit_open(l, TT_DISTRICT);
		for (int d = 1; d <= TC_DISTRICTS; d++)
		{
			tc_gen_district(r, opts, w, d);
			tc_unit_add(l);
		}
		return;
	}
	w = (int) (u / (TC_CHUNKS * TC_UNITS_PER_TENTH)) + 1;
	k = (int) (u / TC_UNITS_PER_TENTH % TC_CHUNKS);
	switch (u % TC_UNITS_PER_TENTH)
	{
		case 0:
			tc_unit_open(l, TT_STOCK);
			for (int i = k * (TC_STOCK / TC_CHUNKS) + 1; i <= (k + 1) * (TC_STOCK / TC_CHUNKS); i++)
			{
				tc_gen_stock(r, opts, w, i);
				tc_unit_add(l);
			}
			break;
		case 1:
			tc_unit_open(l, TT_ORDER_LINE);
			for (int o = 1; o <= TC_ORDERS; o++)
			{
				int			n = tc_ol_cnt(opts, w, k + 1, o);

				for (int ol = 1; ol <= n; ol++)
				{
					tc_gen_order_line(r, opts, w, k + 1, o, ol);
					tc_unit_add(l);
				}
			}
			break;
		case 2:
			tc_unit_open(l, TT_CUSTOMER);
			for (int c = 1; c <= TC_CUSTOMERS; c++)
			{
				tc_gen_customer(r, opts, w, k + 1, c);
				tc_unit_add(l);
			}
			break;
		case 3:
			tc_unit_open(l, TT_HISTORY);
			for (int c = 1; c <= TC_CUSTOMERS; c++)
			{
				tc_gen_history(r, opts, w, k + 1, c);
				tc_unit_add(l);
			}
			break;
		case 4:
			tc_unit_open(l, TT_ORDERS);
			for (int o = 1; o <= TC_ORDERS; o++)
			{
				tc_gen_order(r, opts, w, k + 1, o);
				tc_unit_add(l);
			}
			break;
		default:
			tc_unit_open(l, TT_NEW_ORDER);
			for (int o = TC_FIRST_NEW_ORDER; o <= TC_ORDERS; o++)
			{
				tc_gen_new_order(r, opts, w, k + 1, o);
				tc_unit_add(l);
			}
			break;
	}
}

static void
tc_load_unit(TcLoad *l, int64 u)
{
	tc_load_unit_rows(l, u);
	tc_unit_end(l);
}

/*
 * Each loader takes the next unit from NEXT_UNIT until none is left (the
 * units differ in size: dealt in turn, two loaders would each get the same
 * tables, and one would wait a second for the other); several loaders fill
 * one table at once, each into pages of its own (bulkload.c skips the free
 * space map).
 */
static int64
tc_load_share(const void *opts_in, const Oid *leaves, int64 *leaf_rows, int loader,
			  int nloaders, pg_atomic_uint64 *next_unit,
			  pg_atomic_uint64 *progress, pg_atomic_uint32 *cancel)
{
	TcLoad	   *l = palloc0(sizeof(TcLoad));
	int64		nunits;

	l->opts = (const TcOptions *) opts_in;
	l->leaves = leaves;
	l->progress = progress;
	l->cancel = cancel;
	/* a row's values fit in its first block, kept between rows */
	l->rowcxt = AllocSetContextCreate(CurrentMemoryContext, "pgbenchkit tpcc row",
									  ALLOCSET_DEFAULT_SIZES);
	nunits = tc_nunits(l->opts);
	for (;;)
	{
		uint64		u = pg_atomic_fetch_add_u64(next_unit, 1);

		if (u >= (uint64) nunits)
			break;
		tc_load_unit(l, (int64) u);
	}
	tc_close_all(l);
	MemoryContextDelete(l->rowcxt);
	return l->total;
}

static int64
tc_load_rest(const void *opts, const Oid *tables, const Oid *leaves,
			 pg_atomic_uint32 *cancel)
{
	return 0;
}



static void
tc_add_foreign_keys(const void *opts, const char *nspname)
{
	bk_tpcc_run_all(bk_tpcc_foreign_keys_sql(opts, nspname));
}

/* the transactions' server-side functions, in the dataset's schema */
static List *
tc_functions_sql(const void *opts, int version, const char *nspname)
{
	return bk_tpcc_functions_sql(nspname, version);
}

/* ------------------------------------------------------------------------
 * A load into a target: the tables, COPY text, then the keys
 * ------------------------------------------------------------------------
 */

static char *
tc_table_sql(const void *opts, int version, const char *nspname, const char *prefix,
			 int table)
{
	return bk_tpcc_create_sql(quote_qualified_identifier(nspname, psprintf("%s%s", prefix, bk_tpcc_names[table])),
						 table);
}

/*
 * tc_copy_row
 *		Row ROW (from 0) of table T as COPY text.  Rows come in order, from
 *		row 0 of each table: order lines are walked from there.
 */
static void
tc_copy_row(const void *opts_in, int t, int64 row, StringInfo out)
{
	static TcRow r;
	static int	w,
				d,
				o,
				ol,
				n;
	const TcOptions *opts = (const TcOptions *) opts_in;

	if (t != TT_ORDER_LINE)
	{
		tc_gen_row(&r, opts, t, row);
		tc_row_text(&r, opts, out);
		return;
	}
	if (row == 0)
	{
		w = d = o = 1;
		ol = 0;
		n = tc_ol_cnt(opts, w, d, o);
	}
	if (++ol > n)
	{
		ol = 1;
		if (++o > TC_ORDERS)
		{
			o = 1;
			if (++d > TC_DISTRICTS)
			{
				d = 1;
				w++;
			}
		}
		n = tc_ol_cnt(opts, w, d, o);
	}
	tc_gen_order_line(&r, opts, w, d, o, ol);
	tc_row_text(&r, opts, out);
}

static List *
tc_primary_keys_sql(const void *opts, const char *nspname)
{
	return bk_tpcc_keys_sql(nspname, "");
}

const BkDatasetKind bk_dataset_tpcc = {
	.name = "tpcc",
	.serves = "the nine TPC-C tables, as go-tpc prepares them",
	.final_prefix = "",
	.read_options = tc_read_options,
	.options_json = tc_options_json,
	.estimate_bytes = tc_estimate_bytes,
	.size_words = tc_size_words,
	.smaller_hint = "Choose fewer warehouses, or free some space.",
	.scale = tc_scale,
	.ntables = tc_ntables,
	.table_suffix = tc_table_suffix,
	.vacuum_table = tc_in_order,
	.nchildren = tc_nchildren,
	.main_table = TT_WAREHOUSE,
	.random_pages = true,
	.child_suffix = tc_child_suffix,
	.nleaves = tc_nleaves,
	.create = bk_tpcc_create,
	.prepare = tc_prepare,
	.load_share = tc_load_share,
	.load_rest = tc_load_rest,
	.after_load = bk_tpcc_after_load,
	.after_vacuum = NULL,
	.finish_tasks = bk_tpcc_finish_tasks,
	.build_key = bk_tpcc_build_key,
	.add_foreign_keys = tc_add_foreign_keys,
	.wants_foreign_keys = tc_wants_foreign_keys,
	.functions_sql = tc_functions_sql,
	.table_sql = tc_table_sql,
	.child_sql = NULL,
	.nfilled = tc_ntables,
	.filled = tc_in_order,
	.rows = tc_rows,
	.copy_row = tc_copy_row,
	.insert_sql = NULL,
	.primary_keys_sql = tc_primary_keys_sql,
	.foreign_keys_sql = bk_tpcc_foreign_keys_sql,
};
