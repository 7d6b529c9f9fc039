/*-------------------------------------------------------------------------
 *
 * pgbenchkit.c
 *		Module entry point of pgbenchkit: the benchmark lab inside PostgreSQL.
 *
 * The extension needs no shared_preload_libraries entry: everything it
 * runs in the background is a dynamic background worker that talks to its
 * caller through a dynamic shared memory segment.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_extension.h"
#include "fmgr.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/rel.h"

#include "core/compat.h"
#include "core/pgbenchkit.h"

PG_MODULE_MAGIC;

/* pgbenchkit.test_pause: the moments a run's coordinator waits at (tests) */
char	   *bk_test_pause = NULL;

/* pgbenchkit.time_phases: in-server clients time their statements' phases */
bool		bk_time_phases = true;

/* pgbenchkit.max_workers_per_role: -1, no cap (meta/privilege.c) */
int			bk_max_workers_per_role = -1;

/* pgbenchkit.price_per_hour and pgbenchkit.currency: "" when unknown */
char	   *bk_price_per_hour = NULL;
char	   *bk_currency = NULL;

/*
 * GUC pgbenchkit.init_direct_writes: on, off, or auto (bench.init chooses
 * for each load and sets on or off in its workers); booleans' spellings
 * too, as for PostgreSQL's own on/off/auto settings.
 */
int			bk_init_direct_writes = BK_DIRECT_WRITES_AUTO;

static const struct config_enum_entry bk_direct_writes_options[] = {
	{"auto", BK_DIRECT_WRITES_AUTO, false},
	{"on", BK_DIRECT_WRITES_ON, false},
	{"off", BK_DIRECT_WRITES_OFF, false},
	{"true", BK_DIRECT_WRITES_ON, true},
	{"false", BK_DIRECT_WRITES_OFF, true},
	{"yes", BK_DIRECT_WRITES_ON, true},
	{"no", BK_DIRECT_WRITES_OFF, true},
	{"1", BK_DIRECT_WRITES_ON, true},
	{"0", BK_DIRECT_WRITES_OFF, true},
	{NULL, 0, false}
};

/*
 * bk_price_valid
 *		Whether VALUE is a price per hour: digits, maybe a point and more
 *		digits, at most BK_PRICE_MAX_LEN characters.  So no sign (a price is
 *		not negative), no exponent, no NaN or infinity: what numeric reads
 *		exactly and a person writes.
 */
bool
bk_price_valid(const char *value)
{
	const char *p = value;
	int			digits = 0;

	if (strlen(value) > BK_PRICE_MAX_LEN)
		return false;
	for (; *p >= '0' && *p <= '9'; p++)
		digits++;
	if (*p == '.')
	{
		int			fraction = 0;

		for (p++; *p >= '0' && *p <= '9'; p++)
			fraction++;
		if (fraction == 0)
			return false;
		digits += fraction;
	}
	return digits > 0 && *p == '\0';
}

/* whether VALUE is a currency: three upper-case letters, ISO 4217's form */
bool
bk_currency_valid(const char *value)
{
	for (int i = 0; i < BK_CURRENCY_LEN; i++)
		if (value[i] < 'A' || value[i] > 'Z')
			return false;
	return value[BK_CURRENCY_LEN] == '\0';
}

/*
 * bk_price_check_pair
 *		Refuse a price without its currency or a currency without a price
 *		(PRICE, CURRENCY: NULL or "" for none), PRICE_NAME and CURRENCY_NAME
 *		saying where they are set: a price is ambiguous without its currency.
 */
void
bk_price_check_pair(const char *price, const char *currency,
					const char *price_name, const char *currency_name)
{
	bool		has_price = price != NULL && price[0] != '\0';
	bool		has_currency = currency != NULL && currency[0] != '\0';

	if (has_price != has_currency)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s is set without %s",
						has_price ? price_name : currency_name,
						has_price ? currency_name : price_name),
				 errhint("A price means nothing without its currency: set both, as %s '0.52' and %s 'USD', or neither.",
						 price_name, currency_name)));
}

/* check hook of pgbenchkit.price_per_hour: "" or a price */
static bool
check_price_per_hour(char **newval, void **extra, GucSource source)
{
	if (*newval == NULL || (*newval)[0] == '\0' || bk_price_valid(*newval))
		return true;
	GUC_check_errcode(ERRCODE_INVALID_PARAMETER_VALUE);
	GUC_check_errdetail("A price per hour is a decimal number of zero or more, of at most %d characters, without sign or exponent, like 0.52.",
						BK_PRICE_MAX_LEN);
	return false;
}

/* check hook of pgbenchkit.currency: "" or three upper-case letters */
static bool
check_currency(char **newval, void **extra, GucSource source)
{
	if (*newval == NULL || (*newval)[0] == '\0' || bk_currency_valid(*newval))
		return true;
	GUC_check_errcode(ERRCODE_INVALID_PARAMETER_VALUE);
	GUC_check_errdetail("A currency is its ISO 4217 code: three upper-case letters, like USD or EUR.");
	return false;
}

/*
 * _PG_init
 *		Library load hook: the extension's settings.
 */
void
_PG_init(void)
{
	DefineCustomEnumVariable("pgbenchkit.init_direct_writes",
							 "Lets bench.init write the tables and indexes it loads around the kernel's page cache.",
							 "With on, most pages are written with O_DIRECT where the file system allows that; "
							 "with off, all go through the page cache, as other writes of the server do; "
							 "with auto, around it when the dataset is larger than a quarter of the memory.",
							 &bk_init_direct_writes,
							 BK_DIRECT_WRITES_AUTO,
							 bk_direct_writes_options,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	DefineCustomIntVariable("pgbenchkit.max_workers_per_role",
							"Caps the background workers of pgbenchkit one role may hold at once.",
							"A call that would take the role over it is refused before it starts; "
							"-1 is no cap.  Superusers are not capped.",
							&bk_max_workers_per_role,
							-1, -1, 262143,	/* MAX_BACKENDS */
							PGC_SUSET,
							0,
							NULL, NULL, NULL);
	DefineCustomBoolVariable("pgbenchkit.time_phases",
							 "Lets a run's in-server clients time the parse, rewrite, plan and execute phases of their statements.",
							 "Read when a run starts; the phases go to bench.command_latencies.  Off saves a few "
							 "clock readings per statement.",
							 &bk_time_phases,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	DefineCustomStringVariable("pgbenchkit.price_per_hour",
							   "The price per hour of this server, which runs in it record.",
							   "A decimal number like 0.52, in pgbenchkit.currency; empty when unknown.  "
							   "Read when a run without a target starts.",
							   &bk_price_per_hour,
							   "",
							   PGC_USERSET,
							   0,
							   check_price_per_hour, NULL, NULL);
	DefineCustomStringVariable("pgbenchkit.currency",
							   "The currency of pgbenchkit.price_per_hour.",
							   "Its ISO 4217 code, like USD; empty when unknown.",
							   &bk_currency,
							   "",
							   PGC_USERSET,
							   0,
							   check_currency, NULL, NULL);
	DefineCustomStringVariable("pgbenchkit.test_pause",
							   "For tests: moments at which a run's coordinator waits, so that a test can hit it there.",
							   "A comma-separated list of prewarm and final_write, each for ten minutes or, as prewarm=500, that many milliseconds; empty in normal use.",
							   &bk_test_pause,
							   "",
							   PGC_SUSET,
							   GUC_NOT_IN_SAMPLE,
							   NULL, NULL, NULL);
	MarkGUCPrefixReserved("pgbenchkit");
}

/* the version of pgbenchkit's SQL objects in this database */
static char *
installed_version(void)
{
	Relation	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tup;
	char	   *version = "unknown";

	ScanKeyInit(&key, Anum_pg_extension_extname, BTEqualStrategyNumber, F_NAMEEQ,
				CStringGetDatum("pgbenchkit"));
	scan = systable_beginscan(rel, ExtensionNameIndexId, true, NULL, 1, &key);
	tup = systable_getnext(scan);
	if (HeapTupleIsValid(tup))
	{
		bool		isnull;
		Datum		d = heap_getattr(tup, Anum_pg_extension_extversion,
									 RelationGetDescr(rel), &isnull);

		if (!isnull)
			version = TextDatumGetCString(d);
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return version;
}

/*
 * bk_refuse_call
 *		Refuse a call of FN from SQL of another version with MESSAGE: 55000,
 *		the version of the database's SQL objects, the update to run.
 */
void
bk_refuse_call(const char *fn, const char *message)
{
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg_internal("%s", message),
			 errdetail("The SQL objects of pgbenchkit in this database are of version %s.",
					   installed_version()),
			 errhint("Run ALTER EXTENSION pgbenchkit UPDATE to bring them to the library's version.")));
}

/* refuse a call of FN with the wrong number of arguments: it takes NARGS */
void
bk_refuse_call_count(FunctionCallInfo fcinfo, int nargs, const char *fn)
{
	bk_refuse_call(fn, psprintf("%s was called with %d arguments, but the pgbenchkit library of version %s takes %d",
								fn, PG_NARGS(), BK_VERSION, nargs));
}

/*
 * bk_check_call
 *		First step of every SQL-callable function that reads its arguments
 *		by position: refuse a call whose argument count is not the one this
 *		library was built for.  (The functions that start runs read theirs
 *		by name instead: bk_call_args, in runargs.c.)
 *
 * Between the install of a new library and ALTER EXTENSION ... UPDATE, the
 * database's functions are still the old version's and call into the new
 * library: an argument count that differs is such a call, and it gets a
 * clear error naming the update to run rather than arguments read where
 * there are none.
 */
void
bk_check_call(FunctionCallInfo fcinfo, int nargs, const char *fn)
{
	if (PG_NARGS() != nargs)
		bk_refuse_call_count(fcinfo, nargs, fn);
}

/*
 * bk_shown
 *		VALUE as an error message quotes a value it refuses: whole when
 *		short, else its first BK_MAX_SHOWN_CHARS characters and "...", so
 *		that a megabyte of bad input does not become a megabyte of log.
 */
const char *
bk_shown(const char *value)
{
	size_t		bytes = strlen(value);
	int			cut;

	if (bytes <= BK_MAX_SHOWN_CHARS)
		return value;
	cut = pg_mbcharcliplen(value, (int) Min(bytes, (size_t) BK_MAX_SHOWN_CHARS * MAX_MULTIBYTE_CHAR_LEN),
						   BK_MAX_SHOWN_CHARS);
	if ((size_t) cut >= bytes)
		return value;
	return psprintf("%.*s...", cut, value);
}
