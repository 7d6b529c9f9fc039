/*-------------------------------------------------------------------------
 *
 * observe.c
 *		What the server did during a run, recorded by its coordinator:
 *
 *		prewarm		the workload's tables and indexes loaded into shared
 *					buffers with pg_prewarm before the clients start, blocks
 *					and seconds per relation (bench.prewarms; prewarm.c);
 *		samples		the server's counters before the clients start, every
 *					sample_interval while they run and after they stopped
 *					(bench.samples, sample.c): pg_stat_wal, pg_stat_bgwriter,
 *					pg_stat_checkpointer (17+), pg_stat_io (16+),
 *					pg_stat_database, the workload's table and index
 *					statistics, pg_stat_statements when it is installed
 *					(the texts of the run's role's statements redacted of
 *					what could be a password: redact.c),
 *					the WAL insert position, and the CPU time of the
 *					server's processes and of the host from /proc (cpu.c);
 *		sizes		the workload's tables and indexes before and after
 *					(bench.relation_sizes; record.c);
 *		settings	non-default and notable settings, and the host facts
 *					the server can see (bench.runs.settings, .host; record.c,
 *					cpu.c).
 *
 * Everything is read as the run's role, so a role without pg_read_all_stats
 * sees what it may see and no more; what could not be read is named in
 * bench.runs.unavailable.  The rows are written as the owner of schema
 * bench (catalog.c).  Each source is stored as the server's own view
 * returns it (to_jsonb of its rows): the column sets differ between
 * versions, and the views of the install script give them stable names.
 *
 * A sample that fails (it should not) is rolled back alone, sampling stops,
 * and the run goes on.
 *
 * This file holds what the parts share: reading the observed server (this
 * one, or a target over libpq), naming what could not be read, a call in a
 * subtransaction of its own, the workload's leaf tables.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/resowner.h"

#include "meta/catalog.h"
#include "observe/observe.h"
#include "target/target.h"

/* the workload's leaf tables: a dataset's tables and their partitions */
const char *const leaf_tables_cte =
"WITH t AS (SELECT b.relid FROM pg_catalog.unnest($1::pg_catalog.oid[]) AS b (relid)"
" JOIN pg_catalog.pg_class c ON c.oid = b.relid WHERE c.relkind <> 'p'"
" UNION SELECT p.relid FROM pg_catalog.unnest($1::pg_catalog.oid[]) AS b (relid),"
" pg_catalog.pg_partition_tree(b.relid) AS p WHERE p.isleaf)";

/* an oid[] datum */
Datum
obs_oid_array(const Oid *oids, int n)
{
	Datum	   *elems = palloc(sizeof(Datum) * Max(n, 1));

	for (int i = 0; i < n; i++)
		elems[i] = ObjectIdGetDatum(oids[i]);
	return PointerGetDatum(construct_array(elems, n, OIDOID, sizeof(Oid), true, TYPALIGN_INT));
}

/* the single text value of a query run as the current user; NULL if none */
char *
obs_query_text(const char *sql, int nargs, Oid *types, Datum *values)
{
	MemoryContext cxt = CurrentMemoryContext;
	char	   *result = NULL;

	bk_spi_connect();
	if (SPI_execute_with_args(sql, nargs, types, values, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "unexpected SPI result for: %s", sql);
	if (SPI_processed > 0)
	{
		char	   *v = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);

		if (v != NULL)
			result = MemoryContextStrdup(cxt, v);
	}
	bk_spi_finish();
	return result;
}

/* the single text value of SQL on the observer's target: bk_target_value */
char *
obs_remote_text(BkObserver *o, const char *sql, int nparams, const Oid *types,
				const char *const *values)
{
	return bk_target_value(o->remote, o->remote_name, "its statistics", sql,
						   nparams, types, values);
}

/*
 * obs_text
 *		The single text value of a query on the server observer O samples:
 *		this one (obs_query_text; also with O NULL), or its target, the
 *		parameters sent as text.
 */
char *
obs_text(BkObserver *o, const char *sql, int nargs, Oid *types, Datum *values)
{
	const char **texts;

	if (o == NULL || o->remote == NULL)
		return obs_query_text(sql, nargs, types, values);
	texts = palloc(sizeof(char *) * Max(nargs, 1));
	for (int i = 0; i < nargs; i++)
	{
		Oid			out;
		bool		varlena;

		getTypeOutputInfo(types[i], &out, &varlena);
		texts[i] = OidOutputFunctionCall(out, values[i]);
	}
	return obs_remote_text(o, sql, nargs, types, texts);
}

/* the schema an extension is installed in on the observed server, or NULL */
char *
obs_extension_schema(BkObserver *o, const char *extname)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {CStringGetTextDatum(extname)};

	return obs_text(o, "SELECT n.nspname FROM pg_catalog.pg_extension e"
					" JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace"
					" WHERE e.extname OPERATOR(pg_catalog.=) $1",
					1, types, values);
}

void
obs_unavailable(BkObserver *o, const char *source, const char *why)
{
	if (o->unavailable.len > 1)
		appendStringInfoString(&o->unavailable, ", ");
	escape_json(&o->unavailable, source);
	appendStringInfoString(&o->unavailable, ": ");
	escape_json(&o->unavailable, why);
	o->unavailable_changed = true;
}

/*
 * obs_try
 *		FN(ARG) in a subtransaction of its own.  NULL if it succeeded; else
 *		its error, rolled back and copied into the caller's memory context.
 */
ErrorData *
obs_try(void (*fn) (void *), void *arg)
{
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	ErrorData  *volatile edata = NULL;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		fn(arg);
		ReleaseCurrentSubTransaction();
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
	}
	PG_END_TRY();
	MemoryContextSwitchTo(cxt);
	CurrentResourceOwner = owner;
	return edata;
}
