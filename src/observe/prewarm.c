/*-------------------------------------------------------------------------
 *
 * prewarm.c
 *		The workload's tables and indexes loaded into shared buffers with
 *		pg_prewarm before a run's clients start, blocks and seconds per
 *		relation (bench.prewarms), on this server or on the run's target;
 *		bench.prewarm, the same on demand; the tables of a dataset.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/memutils.h"

#include "meta/catalog.h"
#include "core/compat.h"
#include "observe/observe.h"
#include "observe/prewarm.h"
#include "target/target.h"
#include "dataset/lookup.h"
#include "core/clock.h"
#include "meta/workload.h"
#include "core/pgbenchkit.h"

PG_FUNCTION_INFO_V1(bench_prewarm);

/* the dataset's tables as bench.datasets recorded them */
void
obs_dataset_tables(int64 dataset_id, Oid **tables, int *ntables)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(dataset_id)};
	MemoryContext cxt = CurrentMemoryContext;

	*tables = NULL;
	*ntables = 0;
	if (dataset_id <= 0)
		return;
	bk_spi_connect();
	if (SPI_execute_with_args("SELECT t::pg_catalog.oid FROM bench.datasets d, pg_catalog.unnest(d.tables) AS t"
							  " WHERE d.id = $1",
							  1, types, values, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read bench.datasets");
	*tables = MemoryContextAlloc(cxt, sizeof(Oid) * Max(SPI_processed, 1));
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		bool		isnull;

		(*tables)[i] = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[i],
													  SPI_tuptable->tupdesc, 1, &isnull));
	}
	*ntables = (int) SPI_processed;
	bk_spi_finish();
}

typedef struct ObsPrewarmed
{
	Oid			relid;
	char	   *relation;
	char	   *kind;
	int64		blocks;
	double		seconds;
	bool		skipped;		/* the role may not read it */
} ObsPrewarmed;

/* one pg_prewarm call, for obs_try */
typedef struct ObsPrewarmCall
{
	SPIPlanPtr	plan;
	Datum	   *values;
	int64		blocks;
} ObsPrewarmCall;

static void
obs_prewarm_one(void *arg)
{
	ObsPrewarmCall *call = arg;
	bool		isnull;

	if (SPI_execute_plan(call->plan, call->values, NULL, false, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not prewarm a relation");
	call->blocks = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0],
											   SPI_tuptable->tupdesc, 1, &isnull));
}

/*
 * obs_prewarm_list
 *		pg_prewarm every relation with storage of the tables: the tables,
 *		their indexes, their toast tables and toast indexes.  Returns the
 *		number of relations; *OUT their results, in the current context.
 */
static int
obs_prewarm_list(const Oid *tables, int ntables, ObsPrewarmed **out)
{
	MemoryContext cxt = CurrentMemoryContext;
	char	   *schema;
	char	   *call_sql;
	Oid			types[1] = {OIDOID};
	Datum		values[1];
	SPIPlanPtr	plan;
	ObsPrewarmCall call;
	int			n;

	*out = NULL;
	if (ntables == 0)
		return 0;
	schema = obs_extension_schema(NULL, "pg_prewarm");
	if (schema == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("extension \"pg_prewarm\" is not installed in this database"),
				 errhint("pgbenchkit requires it: CREATE EXTENSION pg_prewarm.")));
	call_sql = psprintf("SELECT %s.pg_prewarm($1::pg_catalog.regclass, 'buffer')",
					quote_identifier(schema));

	bk_spi_connect();
	values[0] = obs_oid_array(tables, ntables);
	types[0] = OIDARRAYOID;
	if (SPI_execute_with_args(psprintf("%s, r AS ("
									   " SELECT c.oid, 'table' AS kind, 1 AS ord FROM t JOIN pg_catalog.pg_class c ON c.oid = t.relid"
									   " UNION ALL SELECT i.indexrelid, 'index', 2 FROM t JOIN pg_catalog.pg_index i ON i.indrelid = t.relid"
									   " UNION ALL SELECT c.reltoastrelid, 'toast table', 3 FROM t JOIN pg_catalog.pg_class c ON c.oid = t.relid"
									   "  WHERE c.reltoastrelid <> 0"
									   " UNION ALL SELECT i.indexrelid, 'toast index', 4 FROM t JOIN pg_catalog.pg_class c ON c.oid = t.relid"
									   "  JOIN pg_catalog.pg_index i ON i.indrelid = c.reltoastrelid)"
									   " SELECT r.oid, pg_catalog.format('%%I.%%I', n.nspname, k.relname), r.kind FROM r"
									   " JOIN pg_catalog.pg_class k ON k.oid = r.oid"
									   " JOIN pg_catalog.pg_namespace n ON n.oid = k.relnamespace"
									   " WHERE k.relkind IN ('r', 'i', 't', 'm')"
									   " ORDER BY r.ord, 2",
									   leaf_tables_cte),
							  1, types, values, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not list the workload's relations");
	n = (int) SPI_processed;
	*out = MemoryContextAllocZero(cxt, sizeof(ObsPrewarmed) * Max(n, 1));
	for (int i = 0; i < n; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		bool		isnull;

		(*out)[i].relid = DatumGetObjectId(SPI_getbinval(tup, SPI_tuptable->tupdesc, 1, &isnull));
		(*out)[i].relation = MemoryContextStrdup(cxt, SPI_getvalue(tup, SPI_tuptable->tupdesc, 2));
		(*out)[i].kind = MemoryContextStrdup(cxt, SPI_getvalue(tup, SPI_tuptable->tupdesc, 3));
	}

	types[0] = OIDOID;
	plan = SPI_prepare(call_sql, 1, types);
	if (plan == NULL)
		elog(ERROR, "could not prepare: %s", call_sql);
	for (int i = 0; i < n; i++)
	{
		int64		t0 = bk_now_ns();
		ErrorData  *edata;

		CHECK_FOR_INTERRUPTS();
		values[0] = ObjectIdGetDatum((*out)[i].relid);

		/*
		 * A role may run a workload without SELECT on every relation (tpcb
		 * only inserts into pgbench_history): what it may not read is
		 * skipped, not an error.
		 */
		call.plan = plan;
		call.values = values;
		call.blocks = 0;
		edata = obs_try(obs_prewarm_one, &call);
		if (edata != NULL && edata->sqlerrcode != ERRCODE_INSUFFICIENT_PRIVILEGE)
			ReThrowError(edata);
		(*out)[i].skipped = edata != NULL;
		(*out)[i].blocks = call.blocks;
		(*out)[i].seconds = (bk_now_ns() - t0) / 1e9;
	}
	bk_spi_finish();
	return n;
}

/* the relations prewarm skipped, for a message; NULL if none */
static char *
obs_prewarm_skipped(const ObsPrewarmed *done, int n)
{
	StringInfoData buf;
	int			k = 0;

	initStringInfo(&buf);
	for (int i = 0; i < n; i++)
	{
		if (!done[i].skipped)
			continue;
		if (k++ < 10)
			appendStringInfo(&buf, "%s%s", buf.len > 0 ? ", " : "", done[i].relation);
	}
	if (k == 0)
		return NULL;
	if (k > 10)
		appendStringInfo(&buf, " and %d more", k - 10);
	return psprintf("no SELECT privilege on %d relation%s: %s", k, k > 1 ? "s" : "", buf.data);
}

/*
 * bench_prewarm
 *		SQL function bench.prewarm(workload): load the tables and indexes of
 *		the workload's dataset into shared buffers; a row per relation.
 */
Datum
bench_prewarm(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *workload;
	char	   *dataset;
	int64		dataset_id = 0;
	int			scale;
	Oid		   *tables;
	int			ntables;
	ObsPrewarmed *done = NULL;
	int			n = 0;

	bk_check_call(fcinfo, 1, "bench.prewarm");
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("workload must not be null"),
				 errhint("Give the name of a workload, as bench.workloads lists them.")));
	workload = text_to_cstring(PG_GETARG_TEXT_PP(0));
	bk_init_materialized_srf(fcinfo);

	dataset = bk_workload_load(workload)->dataset;
	if (dataset != NULL)
		dataset_id = bk_find_dataset(workload, dataset, &scale);
	obs_dataset_tables(dataset_id, &tables, &ntables);
	n = obs_prewarm_list(tables, ntables, &done);

	{
		char	   *skipped = obs_prewarm_skipped(done, n);

		if (skipped != NULL)
			ereport(WARNING,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("prewarm skipped what this role may not read: %s", skipped),
					 errhint("pg_prewarm needs SELECT on a relation; an index's is its owner's.")));
	}
	for (int i = 0; i < n; i++)
	{
		Datum		values[4];
		bool		nulls[4] = {false, false, false, false};

		if (done[i].skipped)
			continue;

		values[0] = CStringGetTextDatum(done[i].relation);
		values[1] = CStringGetTextDatum(done[i].kind);
		values[2] = Int64GetDatum(done[i].blocks);
		values[3] = Float8GetDatum(done[i].seconds);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/*
 * obs_prewarm_remote
 *		Prewarm the workload's tables and their indexes on the target with
 *		its pg_prewarm, where it has it, timing each on the target's clock.
 */
static void
obs_prewarm_remote(BkObserver *o)
{
	const char *schema;
	char	   *sql;
	PGresult   *r;
	MemoryContext old;

	if (o->ntables == 0)
		return;
	schema = obs_extension_schema(o, "pg_prewarm");
	old = MemoryContextSwitchTo(TopMemoryContext);
	if (schema == NULL)
	{
		obs_unavailable(o, "prewarm", "pg_prewarm is not installed in the target's database");
		MemoryContextSwitchTo(old);
		return;
	}
	MemoryContextSwitchTo(old);
	/* the relations first (materialized), then one pg_prewarm each */
	sql = psprintf("%s, r AS MATERIALIZED ("
				   " SELECT x.oid, pg_catalog.format('%%I.%%I', n.nspname, x.relname) AS relation,"
				   " CASE WHEN x.relkind = 'i' THEN 'index' ELSE 'table' END AS kind"
				   " FROM (SELECT t.relid AS oid FROM t UNION ALL"
				   "       SELECT i.indexrelid FROM t JOIN pg_catalog.pg_index i ON i.indrelid = t.relid) o"
				   " JOIN pg_catalog.pg_class x ON x.oid = o.oid"
				   " JOIN pg_catalog.pg_namespace n ON n.oid = x.relnamespace)"
				   " SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object("
				   " 'relid', r.oid, 'relation', r.relation, 'kind', r.kind,"
				   " 'blocks', p.blocks, 'seconds', EXTRACT(epoch FROM p.t1 OPERATOR(pg_catalog.-) p.t0))"
				   " ORDER BY r.relation)"
				   " FROM r CROSS JOIN LATERAL (SELECT pg_catalog.clock_timestamp() AS t0, %s.pg_prewarm(r.oid) AS blocks) p0"
				   " CROSS JOIN LATERAL (SELECT p0.t0, p0.blocks, pg_catalog.clock_timestamp() AS t1) p",
				   leaf_tables_cte, quote_identifier(schema));
	r = bk_target_exec_params(o->remote, sql, 1, (Oid[]) {OIDARRAYOID},
							  (const char *[]) {o->remote_tables});
	old = MemoryContextSwitchTo(TopMemoryContext);
	if (r != NULL && PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 &&
		!PQgetisnull(r, 0, 0))
		o->prewarm_json = pstrdup(PQgetvalue(r, 0, 0));
	else
		obs_unavailable(o, "prewarm",
						psprintf("pg_prewarm on the target failed: %s",
								 pchomp(r ? PQresultErrorMessage(r) : PQerrorMessage(o->remote))));
	MemoryContextSwitchTo(old);
	PQclear(r);
}

/*
 * bk_obs_prewarm
 *		Prewarm the workload's relations; the rows for bench.prewarms are
 *		written by bk_obs_begin, with the run's row.
 */
void
bk_obs_prewarm(BkObserver *o)
{
	ObsPrewarmed *done;
	int			n;
	char	   *skipped;
	StringInfoData buf;

	if (o->remote != NULL)
	{
		obs_prewarm_remote(o);
		return;
	}
	n = obs_prewarm_list(o->tables, o->ntables, &done);
	skipped = obs_prewarm_skipped(done, n);

	initStringInfo(&buf);
	if (skipped != NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

		obs_unavailable(o, "prewarm", skipped);
		MemoryContextSwitchTo(old);
	}
	appendStringInfoChar(&buf, '[');
	for (int i = 0; i < n; i++)
	{
		if (done[i].skipped)
			continue;
		appendStringInfo(&buf, "%s{\"relid\": %u, \"relation\": ", buf.len > 1 ? ", " : "", done[i].relid);
		escape_json(&buf, done[i].relation);
		appendStringInfoString(&buf, ", \"kind\": ");
		escape_json(&buf, done[i].kind);
		appendStringInfo(&buf, ", \"blocks\": %lld, \"seconds\": %.9f}",
						 (long long) done[i].blocks, done[i].seconds);
	}
	appendStringInfoChar(&buf, ']');
	o->prewarm_json = MemoryContextStrdup(TopMemoryContext, buf.data);
}
