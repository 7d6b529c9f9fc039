/*-------------------------------------------------------------------------
 *
 * catalog.c
 *		Bookkeeping in pgbenchkit's own tables (schema bench).
 *
 * The tables of schema bench are readable by everyone and written only by
 * pgbenchkit's C code, which switches to the owner of the schema for those
 * writes (as a SECURITY DEFINER function would, with a pinned search_path
 * and in a security-restricted operation).  The role that called keeps its
 * own identity for everything else, including the tables a load creates.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "meta/catalog.h"

/*
 * bench_owner
 *		The owner of schema bench: the role the extension's tables belong to.
 */
static Oid
bench_owner(void)
{
	Oid			nspid = get_namespace_oid("bench", false);
	HeapTuple	tup;
	Oid			owner;

	tup = SearchSysCache1(NAMESPACEOID, ObjectIdGetDatum(nspid));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for schema %u", nspid);
	owner = ((Form_pg_namespace) GETSTRUCT(tup))->nspowner;
	ReleaseSysCache(tup);
	return owner;
}

/*
 * bk_become_owner
 *		Act as the owner of schema bench, with search_path pinned to
 *		pg_catalog, until bk_restore_user.  An error in between is undone
 *		by transaction abort.
 */
void
bk_become_owner(BkOwnerSwitch *sw)
{
	GetUserIdAndSecContext(&sw->saved_userid, &sw->saved_sec_context);
	SetUserIdAndSecContext(bench_owner(),
						   sw->saved_sec_context |
						   SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
	sw->guc_nestlevel = bk_search_path_push(BK_PINNED_SEARCH_PATH);
}

/*
 * bk_restore_user
 *		Back to the identity saved by bk_become_owner.
 */
void
bk_restore_user(BkOwnerSwitch *sw)
{
	AtEOXact_GUC(false, sw->guc_nestlevel);
	SetUserIdAndSecContext(sw->saved_userid, sw->saved_sec_context);
}

/*
 * The search_path of pgbenchkit's own queries.  Every SPI session that runs
 * them (bk_spi_connect to bk_spi_finish) pins it, so that neither the
 * caller's search_path nor a role's or database's default can put a
 * function, operator or type of another schema before pg_catalog's in a
 * query pgbenchkit wrote (running it with the caller's rights, or a
 * worker's).  The scripts of a run are not such queries: exec_spi.c runs
 * them with the caller's search_path, as pgbench's session would.
 *
 * Each pin is a GUC nest level of its own, undone by bk_spi_finish, or by
 * the (sub)transaction's abort after an error: a level left on the stack by
 * an error is forgotten at the next pin, which gets a level no higher.
 */
static int	pin_levels[64];
static int	npins = 0;

static void
bk_pin_search_path(void)
{
	int			level = bk_search_path_push(BK_PINNED_SEARCH_PATH);

	while (npins > 0 && pin_levels[npins - 1] >= level)
		npins--;
	if (npins >= (int) lengthof(pin_levels))
		elog(ERROR, "too many nested SPI sessions of pgbenchkit");
	pin_levels[npins++] = level;
}

static void
bk_unpin_search_path(void)
{
	if (npins <= 0)
		elog(ERROR, "search_path is not pinned");
	bk_search_path_pop(pin_levels[--npins]);
}

/*
 * bk_search_path_push, bk_search_path_pop
 *		Use search_path PATH from here to the pop of the level returned (or
 *		the abort of the (sub)transaction), as a function's SET clause does.
 */
int
bk_search_path_push(const char *path)
{
	int			level = NewGUCNestLevel();

	(void) set_config_option("search_path", path, PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	return level;
}

void
bk_search_path_pop(int level)
{
	AtEOXact_GUC(true, level);
}

/*
 * bk_spi_connect, bk_spi_finish
 *		SPI_connect and SPI_finish for pgbenchkit's own queries, with
 *		search_path pinned in between.
 */
void
bk_spi_connect(void)
{
	SPI_connect();
	bk_pin_search_path();
}

void
bk_spi_finish(void)
{
	bk_unpin_search_path();
	SPI_finish();
}

/*
 * bk_arg_not_null
 *		The error of every SQL function of pgbenchkit given NULL for an
 *		argument that has a default instead.
 */
void
bk_arg_not_null(bool isnull, const char *fn, const char *name)
{
	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument \"%s\" of %s must not be null", name, fn),
				 errhint("Leave the argument out to use its default.")));
}

/*
 * bk_check_chars
 *		Refuse VALUE (named WHAT in the message) if it has more than
 *		MAX_CHARS characters: a label that is stored with every row that
 *		names it must stay a label.
 */
void
bk_check_chars(const char *what, const char *value, int max_chars, const char *hint)
{
	size_t		bytes = strlen(value);
	int			chars;

	/* no character counting of a value that cannot fit in any encoding */
	if (bytes <= (size_t) max_chars)
		return;
	chars = bytes > (size_t) max_chars * MAX_MULTIBYTE_CHAR_LEN ? -1 :
		pg_mbstrlen_with_len(value, (int) bytes);
	if (chars >= 0 && chars <= max_chars)
		return;
	if (chars < 0)
		ereport(ERROR,
				(errcode(ERRCODE_STRING_DATA_RIGHT_TRUNCATION),
				 errmsg("%s is too long: %zu bytes, at most %d characters", what, bytes, max_chars),
				 errhint("%s", hint)));
	ereport(ERROR,
			(errcode(ERRCODE_STRING_DATA_RIGHT_TRUNCATION),
			 errmsg("%s is too long: %d characters, at most %d", what, chars, max_chars),
			 errhint("%s", hint)));
}

/*
 * bk_check_bytes
 *		Refuse VALUE (named WHAT) if it is longer than MAX_BYTES bytes.
 */
void
bk_check_bytes(const char *what, const char *value, int max_bytes, const char *hint)
{
	size_t		bytes = strlen(value);

	if (bytes > (size_t) max_bytes)
		ereport(ERROR,
				(errcode(ERRCODE_STRING_DATA_RIGHT_TRUNCATION),
				 errmsg("%s is too long: %zu bytes, at most %d", what, bytes, max_bytes),
				 errhint("%s", hint)));
}

/*
 * bk_runs_table, bk_suites_table
 *		The tables that keep runs and suites, which pgbenchkit's own code
 *		writes: bench._runs and bench._suites, under the views bench.runs and
 *		bench.suites that show a run or a suite whose process is gone as
 *		aborted.  The SQL of 0.1.0 (a newer library before ALTER EXTENSION
 *		UPDATE) has them as the tables bench.runs and bench.suites.
 */
static const char *
bench_table(const char *table, const char *of_0_1_0)
{
	Oid			nspid = get_namespace_oid("bench", true);

	if (OidIsValid(nspid) && OidIsValid(get_relname_relid(table, nspid)))
		return psprintf("bench.%s", table);
	return of_0_1_0;
}

const char *
bk_runs_table(void)
{
	return bench_table("_runs", "bench.runs");
}

const char *
bk_suites_table(void)
{
	return bench_table("_suites", "bench.suites");
}

/*
 * bk_spi_exec
 *		Run one parameterised statement through SPI (connected here) and
 *		check its result code.
 */
void
bk_spi_exec(const char *sql, int nargs, Oid *argtypes, Datum *values,
			const char *nulls, int expected)
{
	int			rc;

	bk_spi_connect();
	rc = SPI_execute_with_args(sql, nargs, argtypes, values, nulls, false, 0);
	if (rc != expected)
		elog(ERROR, "unexpected SPI result %d for: %s", rc, sql);
	bk_spi_finish();
}

/*
 * bk_spi_utility
 *		Run one utility statement (DDL) in the current SPI connection.
 */
void
bk_spi_utility(const char *sql)
{
	int			rc = SPI_execute(sql, false, 0);

	if (rc != SPI_OK_UTILITY)
		elog(ERROR, "unexpected SPI result %d for: %s", rc, sql);
}

/* an oid[] datum of N relation OIDs */
static Datum
oid_array(const Oid *relids, int n)
{
	Datum	   *elems = palloc(sizeof(Datum) * n);

	for (int i = 0; i < n; i++)
		elems[i] = ObjectIdGetDatum(relids[i]);
	return PointerGetDatum(construct_array(elems, n, OIDOID, sizeof(Oid), true, TYPALIGN_INT));
}

/*
 * bk_spi_int64
 *		First column of the first row of a query, as int64 (0 if none).
 */
int64
bk_spi_int64(const char *sql, int nargs, Oid *argtypes, Datum *values)
{
	int64		result = 0;
	bool		isnull = true;
	int			rc;

	bk_spi_connect();
	rc = SPI_execute_with_args(sql, nargs, argtypes, values, NULL, false, 0);
	if (rc < 0)
		elog(ERROR, "unexpected SPI result %d for: %s", rc, sql);
	if (SPI_processed > 0)
	{
		Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);

		if (!isnull)
			result = DatumGetInt64(d);
	}
	bk_spi_finish();
	return result;
}

/*
 * bk_dataset_begin
 *		Record a dataset being loaded; returns its id.  worker_pid is this
 *		process, so that a later call can tell a load whose worker is gone.
 */
int64
bk_dataset_begin(const char *workload, int scale, const char *options_json,
				 const char *nspname, const char *rolename)
{
	BkOwnerSwitch sw;
	Oid			types[6] = {TEXTOID, INT4OID, TEXTOID, TEXTOID, TEXTOID, INT4OID};
	Datum		values[6];
	int64		id;

	values[0] = CStringGetTextDatum(workload);
	values[1] = Int32GetDatum(scale);
	values[2] = CStringGetTextDatum(options_json);
	values[3] = CStringGetTextDatum(nspname);
	values[4] = CStringGetTextDatum(rolename);
	values[5] = Int32GetDatum(MyProcPid);

	bk_become_owner(&sw);
	id = bk_spi_int64("INSERT INTO bench.datasets"
					  " (workload, scale, options, schema_name, status, created_by, worker_pid)"
					  " VALUES ($1, $2, $3::jsonb, $4::name, 'loading', $5::name, $6)"
					  " RETURNING id",
					  6, types, values);
	bk_restore_user(&sw);
	return id;
}

/*
 * bk_dataset_set_tables
 *		Record the OIDs of the tables a load created.
 */
void
bk_dataset_set_tables(int64 id, const Oid *relids, int n)
{
	BkOwnerSwitch sw;
	Oid			types[2] = {INT8OID, OIDARRAYOID};
	Datum		values[2];

	values[0] = Int64GetDatum(id);
	values[1] = oid_array(relids, n);

	bk_become_owner(&sw);
	bk_spi_exec("UPDATE bench.datasets SET tables = $2::pg_catalog.regclass[] WHERE id = $1",
				2, types, values, NULL, SPI_OK_UPDATE);
	bk_restore_user(&sw);
}

/*
 * bk_dataset_set_target
 *		Record that dataset ID is loaded into target TARGET, a server whose
 *		server_version is SERVER_VERSION.
 */
void
bk_dataset_set_target(int64 id, const char *target, const char *server_version)
{
	BkOwnerSwitch sw;
	Oid			types[3] = {INT8OID, TEXTOID, TEXTOID};
	Datum		values[3];

	values[0] = Int64GetDatum(id);
	values[1] = CStringGetTextDatum(target);
	values[2] = CStringGetTextDatum(server_version);

	bk_become_owner(&sw);
	bk_spi_exec("UPDATE bench.datasets SET target = $2, server_version = $3 WHERE id = $1",
				3, types, values, NULL, SPI_OK_UPDATE);
	bk_restore_user(&sw);
}

/*
 * bk_dataset_mark_replaced_on_target
 *		The ready datasets of the same workload, target and schema as dataset
 *		ID, which a load into a target has just replaced (pgbench -i drops
 *		its tables first; without force there were none left to drop).
 */
void
bk_dataset_mark_replaced_on_target(int64 id)
{
	BkOwnerSwitch sw;
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(id)};

	bk_become_owner(&sw);
	bk_spi_exec("UPDATE bench.datasets o SET status = 'replaced'"
				"  FROM bench.datasets n"
				" WHERE n.id = $1 AND o.id OPERATOR(pg_catalog.<>) n.id AND o.status = 'ready'"
				"   AND o.target OPERATOR(pg_catalog.=) n.target"
				"   AND o.schema_name OPERATOR(pg_catalog.=) n.schema_name"
				"   AND o.workload OPERATOR(pg_catalog.=) n.workload",
				1, types, values, NULL, SPI_OK_UPDATE);
	bk_restore_user(&sw);
}

/*
 * bk_dataset_finish
 *		Final status of a dataset, with its row count and phase timings
 *		(SECS: create, load, vacuum, primary keys, foreign keys; may be NULL)
 *		or its error.  ROWS < 0 records no row count.
 */
void
bk_dataset_finish(int64 id, const char *status, int64 rows, const double *secs,
				  const char *sqlstate, const char *error)
{
	BkOwnerSwitch sw;
	Oid			types[10] = {INT8OID, TEXTOID, INT8OID, FLOAT8OID, FLOAT8OID,
	FLOAT8OID, FLOAT8OID, FLOAT8OID, TEXTOID, TEXTOID};
	Datum		values[10];
	char		nulls[10];

	memset(nulls, ' ', sizeof(nulls));
	values[0] = Int64GetDatum(id);
	values[1] = CStringGetTextDatum(status);
	values[2] = Int64GetDatum(rows);
	if (rows < 0)
		nulls[2] = 'n';			/* not known: the load did not finish */
	for (int i = 0; i < 5; i++)
	{
		if (secs)
			values[3 + i] = Float8GetDatum(secs[i]);
		else
			nulls[3 + i] = 'n';
	}
	if (sqlstate)
		values[8] = CStringGetTextDatum(sqlstate);
	else
		nulls[8] = 'n';
	if (error)
		values[9] = CStringGetTextDatum(error);
	else
		nulls[9] = 'n';

	bk_become_owner(&sw);
	bk_spi_exec("UPDATE bench.datasets SET status = $2, rows_loaded = $3,"
				" create_s = $4, load_s = $5, vacuum_s = $6, primary_keys_s = $7,"
				" foreign_keys_s = $8, sqlstate = $9, error = $10,"
				" finished_at = pg_catalog.clock_timestamp(), worker_pid = NULL"
				" WHERE id = $1",
				10, types, values, nulls, SPI_OK_UPDATE);
	bk_restore_user(&sw);
}

/*
 * bk_dataset_mark_replaced
 *		Datasets whose tables were just dropped by a forced reload.
 */
void
bk_dataset_mark_replaced(const Oid *relids, int n)
{
	BkOwnerSwitch sw;
	Oid			types[1] = {OIDARRAYOID};
	Datum		values[1];

	if (n == 0)
		return;
	values[0] = oid_array(relids, n);

	bk_become_owner(&sw);
	bk_spi_exec("UPDATE bench.datasets SET status = 'replaced'"
				" WHERE status = 'ready' AND tables::pg_catalog.oid[] OPERATOR(pg_catalog.&&) $1",
				1, types, values, NULL, SPI_OK_UPDATE);
	bk_restore_user(&sw);
}

/*
 * bk_dataset_owns_table
 *		Whether RELID is a table of a ready dataset, i.e. one bench.init
 *		created and may drop again.
 */
bool
bk_dataset_owns_table(Oid relid)
{
	Oid			types[1] = {OIDOID};
	Datum		values[1] = {ObjectIdGetDatum(relid)};

	return bk_spi_int64("SELECT 1::int8 FROM bench.datasets"
						" WHERE status = 'ready' AND $1 OPERATOR(pg_catalog.=) ANY (tables::pg_catalog.oid[]) LIMIT 1",
						1, types, values) == 1;
}

/*
 * bk_dataset_other_tables
 *		The tables, still there, of the ready datasets that the N tables
 *		RELIDS belong to, other than RELIDS themselves: a dataset replaced
 *		goes whole (a sysbench dataset of more tables than its successor).
 *		Returns them palloc'd in the caller's context, their number in
 *		*NOUT.
 */
Oid *
bk_dataset_other_tables(const Oid *relids, int n, int *nout)
{
	Oid			types[1] = {OIDARRAYOID};
	Datum		values[1];
	Datum	   *elems = palloc(sizeof(Datum) * Max(n, 1));
	Oid		   *out;
	MemoryContext cxt = CurrentMemoryContext;

	for (int i = 0; i < n; i++)
		elems[i] = ObjectIdGetDatum(relids[i]);
	values[0] = PointerGetDatum(construct_array(elems, n, OIDOID, sizeof(Oid), true, TYPALIGN_INT));
	bk_spi_connect();
	if (SPI_execute_with_args("SELECT DISTINCT t FROM bench.datasets d,"
							  "  LATERAL pg_catalog.unnest(d.tables::pg_catalog.oid[]) AS t"
							  " WHERE d.status = 'ready'"
							  "   AND d.tables::pg_catalog.oid[] OPERATOR(pg_catalog.&&) $1"
							  "   AND t OPERATOR(pg_catalog.<>) ALL ($1)"
							  "   AND EXISTS (SELECT 1 FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) t)"
							  " ORDER BY t",
							  1, types, values, NULL, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the tables of the datasets to replace");
	out = MemoryContextAlloc(cxt, sizeof(Oid) * Max(SPI_processed, 1));
	*nout = (int) SPI_processed;
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		bool		isnull;

		out[i] = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull));
	}
	bk_spi_finish();
	return out;
}

/*
 * bk_recover_orphans
 *		Loads left 'loading' by a worker that no longer exists (a crash, a
 *		restart, a terminated worker) become 'aborted', and the half-loaded
 *		tables they created are dropped.  Only tables still carrying the
 *		load's staging name are dropped: nothing a user made is touched.
 */
void
bk_recover_orphans(void)
{
	BkOwnerSwitch sw;
	char	   *tables = NULL;

	bk_become_owner(&sw);
	bk_spi_connect();
	if (SPI_execute("WITH gone AS ("
					"  UPDATE bench.datasets d SET status = 'aborted',"
					"    error = 'the loading worker ended before it finished (server restart, crash or termination)',"
					"    finished_at = pg_catalog.clock_timestamp(), worker_pid = NULL"
					"   WHERE d.status = 'loading'"
					"     AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_stat_activity a"
					"                      WHERE a.pid = d.worker_pid"
					"                        AND a.backend_type = 'pgbenchkit init')"
					"  RETURNING d.id, d.tables)"
					" SELECT pg_catalog.string_agg(pg_catalog.format('%I.%I', n.nspname, c.relname), ', ')"
					"   FROM gone g"
					"   JOIN pg_catalog.pg_class c ON c.oid = ANY (g.tables)"
					"   JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
					"  WHERE c.relname LIKE 'bench\\_load\\_' || g.id || '\\_%'",
					false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not mark abandoned loads");
	if (SPI_processed == 1)
		tables = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
	if (tables != NULL)
	{
		bk_spi_utility(psprintf("DROP TABLE IF EXISTS %s", tables));
		ereport(LOG,
				(errmsg("pgbenchkit dropped tables of abandoned loads: %s", tables)));
	}
	bk_spi_finish();
	bk_restore_user(&sw);
}
