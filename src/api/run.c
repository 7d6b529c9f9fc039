/*-------------------------------------------------------------------------
 *
 * run.c
 *		bench.run, bench.start, bench.wait and bench.cancel: the calling
 *		backend's side of a benchmark run.
 *
 * The caller checks every argument, finds the workload's script and its
 * dataset, and refuses — before anything starts — what cannot run: bad
 * values, a missing dataset, a dataset in use by another run, too few free
 * background worker slots.  Then it creates the run's shared memory
 * (run.h), starts the coordinator (coordinator.c) and waits until the run
 * has its row and its clients go.  bench.start returns the run's id there;
 * bench.run goes on waiting, prints the coordinator's progress lines as
 * NOTICEs and returns the run's row.  A cancel of bench.run (Ctrl-C,
 * pg_cancel_backend, the backend's exit) cancels the run: the caller waits
 * until the coordinator has stopped the clients and recorded the run as
 * 'canceled' before the cancel error reaches the user.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <signal.h>

#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "meta/catalog.h"
#include "core/compat.h"
#include "core/datasets.h"
#include "core/random.h"
#include "runner/segment.h"
#include "api/run.h"
#include "meta/runstate.h"
#include "dataset/lookup.h"
#include "runner/runner.h"
#include "api/runargs.h"
#include "api/runvars.h"
#include "script/script.h"
#include "script/vars.h"
#include "target/target.h"
#include "core/worker.h"
#include "meta/workload.h"
#include "core/pgbenchkit.h"
#include "meta/privilege.h"

PG_FUNCTION_INFO_V1(bench_run);
PG_FUNCTION_INFO_V1(bench_start);
PG_FUNCTION_INFO_V1(bench_wait);
PG_FUNCTION_INFO_V1(bench_cancel);

/* the suite the runs this backend starts belong to (set by a suite's worker) */
int64		bk_run_suite_id = 0;

/* the step of a suite of steps the next run is (bench.runs.step), or NULL */
const char *bk_run_suite_step = NULL;

/*
 * bk_run_check_argv does not look for the workload's dataset: a suite of
 * steps that makes it first (bench.ibench with l.i0) is checked before
 */
bool		bk_run_check_skip_dataset = false;

#define RUN_ID_NOT_NULL(fn) \
	do { \
		if (PG_ARGISNULL(0)) \
			ereport(ERROR, \
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), \
					 errmsg("argument \"run_id\" of %s must not be null", fn), \
					 errhint("Pass the id of a run, as bench.start returned it or bench.runs lists it."))); \
	} while (0)

/*
 * run_free_worker_slots
 *		An estimate of the background worker slots free now: the ones of
 *		max_worker_processes that no running background worker holds.
 */
static int
run_free_worker_slots(void)
{
	int64		used;
	BkOwnerSwitch sw;

	/*
	 * As the owner of schema bench: pg_stat_activity hides the
	 * backend_type of other roles' processes from a role that is not a
	 * member of pg_read_all_stats, which would count none of their workers.
	 */
	bk_become_owner(&sw);
	used = bk_spi_int64("SELECT count(*) FROM pg_catalog.pg_stat_activity"
						" WHERE backend_type NOT IN ('client backend', 'autovacuum launcher',"
						"  'autovacuum worker', 'background writer', 'checkpointer', 'walwriter',"
						"  'startup', 'walreceiver', 'walsender', 'archiver', 'logger',"
						"  'standalone backend', 'slotsync worker', 'walsummarizer', 'io worker')",
						0, NULL, NULL);
	bk_restore_user(&sw);
	return Max(0, max_worker_processes - (int) used);
}

/*
 * bk_run_check_caller
 *		What the calling session itself must allow: no transaction block,
 *		since the results arrive in the coordinator's transactions (they
 *		are read back on the latest snapshot); a role the workers can
 *		connect as.
 */
void
bk_run_check_caller(const char *fn)
{
	if (IsTransactionBlock())
		ereport(ERROR,
				(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				 errmsg("%s cannot run inside a transaction block", fn),
				 errhint("Its results are committed by background workers; call it on its own, outside BEGIN ... COMMIT.")));
#if BK_NEEDS_LOGIN_ROLE
	{
		HeapTuple	tup = SearchSysCache1(AUTHOID, ObjectIdGetDatum(GetUserId()));
		bool		canlogin = HeapTupleIsValid(tup) && ((Form_pg_authid) GETSTRUCT(tup))->rolcanlogin;

		if (HeapTupleIsValid(tup))
			ReleaseSysCache(tup);
		if (!canlogin)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("role \"%s\" cannot start background workers because it cannot log in",
							GetUserNameFromId(GetUserId(), false)),
					 errhint("Call %s as a role with LOGIN; the workers connect as the calling role.", fn)));
	}
#endif
}

/*
 * bk_release_xmin
 *		Stop holding back cleanup while this backend waits for a run.
 *
 * The statement calling bench.run holds a snapshot, and with it an xmin
 * that keeps VACUUM and page pruning from removing any row version that
 * dies after it: for the whole run, the updated rows of pgbench_branches
 * and pgbench_tellers would pile up (hundreds of pages in 20 s) and the
 * benchmark would measure that bloat.  The waiting backend reads no table
 * with that snapshot, and reads the run's results on the latest snapshot
 * afterwards, so it gives up its xmin while it waits, as a session between
 * transactions has none.  (The statement must not read other tables after
 * bench.run returns; docs/functions.md says so.)
 */
void
bk_release_xmin(void)
{
	InvalidateCatalogSnapshot();
	MyProc->xmin = InvalidTransactionId;
}

/*
 * bk_select_latest
 *		Run a query (SPI connected) on the latest committed state, whatever
 *		the caller's isolation level: the rows it reads are committed by the
 *		coordinator while the caller's transaction goes on.
 */
void
bk_select_latest(const char *sql, int nargs, Oid *types, Datum *values, long tcount)
{
	SPIPlanPtr	plan = SPI_prepare(sql, nargs, types);

	if (plan == NULL ||
		SPI_execute_snapshot(plan, values, NULL, GetLatestSnapshot(), InvalidSnapshot,
							 true, false, tcount) != SPI_OK_SELECT)
		elog(ERROR, "could not read: %s", sql);
}

/*
 * bk_print_progress
 *		A NOTICE for each progress row of the run after *PRINTED_ELAPSED (in
 *		pgbench -P's words), which then becomes the last one printed.
 */
void
bk_print_progress(int64 run_id, double *printed_elapsed)
{
	Oid			types[2] = {INT8OID, FLOAT8OID};
	Datum		values[2] = {Int64GetDatum(run_id), Float8GetDatum(*printed_elapsed)};

	bk_spi_connect();
	bk_select_latest("SELECT pg_catalog.format('progress: %s s, %s tps, lat %s ms stddev %s, %s failed%s',"
					 "  round(elapsed_s::numeric, 1), round(tps::numeric, 1),"
					 "  round(coalesce(latency_avg_ms, 0)::numeric, 3),"
					 "  round(coalesce(latency_stddev_ms, 0)::numeric, 3), failures,"
					 "  CASE WHEN in_warmup THEN ' (warm-up)' ELSE '' END), elapsed_s"
					 " FROM bench.progress WHERE run_id = $1 AND elapsed_s > $2"
					 " ORDER BY interval_start",
					 2, types, values, 0);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		bool		isnull;

		ereport(NOTICE,
				(errmsg_internal("%s", SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1))));
		*printed_elapsed = DatumGetFloat8(SPI_getbinval(SPI_tuptable->vals[i],
														SPI_tuptable->tupdesc, 2, &isnull));
	}
	bk_spi_finish();
}

/* the bench.runs row of a run, as the function's result (NULL: no such run) */
static Datum
run_row(FunctionCallInfo fcinfo, int64 run_id, bool *found)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(run_id)};
	Datum		result = (Datum) 0;

	bk_spi_connect();
	bk_select_latest("SELECT * FROM bench.runs WHERE id = $1", 1, types, values, 1);
	*found = SPI_processed == 1;
	if (*found)
		result = PointerGetDatum(SPI_returntuple(SPI_tuptable->vals[0], SPI_tuptable->tupdesc));
	bk_spi_finish();
	return result;
}

/* status and coordinator of a run, read afresh */
static char *
run_status(int64 run_id, int *coordinator_pid, char **created_by)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(run_id)};
	char	   *status = NULL;

	bk_spi_connect();
	bk_select_latest("SELECT status, coordinator_pid, created_by FROM bench.runs WHERE id = $1",
					  1, types, values, 1);
	if (SPI_processed == 1)
	{
		HeapTuple	tup = SPI_tuptable->vals[0];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		char	   *pid = SPI_getvalue(tup, desc, 2);
		char	   *s = SPI_getvalue(tup, desc, 1);
		char	   *who = SPI_getvalue(tup, desc, 3);
		MemoryContext old = MemoryContextSwitchTo(TopTransactionContext);

		status = pstrdup(s);
		if (created_by)
			*created_by = pstrdup(who);
		MemoryContextSwitchTo(old);
		if (coordinator_pid)
			*coordinator_pid = pid ? atoi(pid) : 0;
	}
	bk_spi_finish();
	if (status == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("run %lld does not exist", (long long) run_id),
				 errhint("bench.runs lists the runs.")));
	return status;
}

/* ------------------------------------------------------------------------
 * Starting a run
 * ------------------------------------------------------------------------
 */

/* the arguments of bench.run or bench.start, read from their call */
static void
run_read_args(FunctionCallInfo fcinfo, const BkArgFunction *f, RunArgs *a)
{
	Datum		v[RUN_NARGS];
	bool		n[RUN_NARGS];

	bk_call_args(fcinfo, f, v, n);
	bk_run_args_read(f->name, v, n, a);
}

/*
 * run_workload
 *		The run's workload (named or unnamed), every script parsed, refused
 *		now if it cannot run as asked.  Returns the workload; *NCOMMANDS is
 *		the number of commands of all its scripts.
 */
static BkWorkload *
run_workload(const RunArgs *a, int *ncommands)
{
	BkWorkload *w = a->workload ? bk_workload_load(a->workload) : bk_workload_unnamed(a->script);
	BkScript  **scripts = bk_workload_parse(w, bk_vartable_create());

	*ncommands = 0;
	for (int i = 0; i < w->nscripts; i++)
		*ncommands += scripts[i]->ncommands;
	bk_workload_check_protocol(scripts, w->nscripts, a->protocol == RUN_PROTO_SIMPLE);
	bk_workload_declare_dataset(w, scripts);
	return w;
}

/*
 * run_groups_workload
 *		With groups =>: one workload of every group's scripts, group after
 *		group, each parsed and checked as a run of its own would be, and
 *		the groups themselves in G (clients and scripts; rates and shards
 *		are the caller's).  The groups may need one kind of dataset at
 *		most.  Its name lists the groups' workloads, as bench.runs shows it.
 */
static BkWorkload *
run_groups_workload(const RunArgs *a, int *ncommands, RunGroup *g)
{
	BkWorkload *all = palloc0(sizeof(BkWorkload));
	StringInfoData label;
	const char *dataset_group = NULL;
	int			first_client = 0;

	initStringInfo(&label);
	all->scripts = palloc(sizeof(char *) * RUN_MAX_SCRIPTS);
	all->weights = palloc(sizeof(int) * RUN_MAX_SCRIPTS);
	*ncommands = 0;
	for (int i = 0; i < a->ngroups; i++)
	{
		const RunGroupArg *ga = &a->groups[i];
		BkWorkload *w = ga->workload ? bk_workload_load(ga->workload) :
			bk_workload_unnamed(ga->script);
		BkScript  **scripts = bk_workload_parse(w, bk_vartable_create());

		bk_workload_check_protocol(scripts, w->nscripts, a->protocol == RUN_PROTO_SIMPLE);
		bk_workload_declare_dataset(w, scripts);
		if (w->dataset != NULL)
		{
			if (all->dataset != NULL && strcmp(all->dataset, w->dataset) != 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("group \"%s\" needs %s %s dataset, and group \"%s\" %s %s dataset",
								ga->name, bk_dataset_article(w->dataset), w->dataset,
								dataset_group, bk_dataset_article(all->dataset),
								all->dataset),
						 errhint("The groups of a run share its tables: give them workloads of one dataset.")));
			all->dataset = w->dataset;
			dataset_group = ga->name;
		}
		if (all->nscripts + w->nscripts > RUN_MAX_SCRIPTS)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("the groups have more than %d scripts", RUN_MAX_SCRIPTS),
					 errhint("A run has at most %d scripts, of all its groups together.", RUN_MAX_SCRIPTS)));

		memset(&g[i], 0, sizeof(RunGroup));
		strlcpy(g[i].name, ga->name, NAMEDATALEN);
		strlcpy(g[i].workload, w->name, NAMEDATALEN);
		g[i].first_client = first_client;
		g[i].nclients = ga->clients;
		g[i].first_script = all->nscripts;
		g[i].nscripts = w->nscripts;
		g[i].total_weight = w->total_weight;
		g[i].rate = ga->rate;
		first_client += ga->clients;
		for (int k = 0; k < w->nscripts; k++)
		{
			all->scripts[all->nscripts] = w->scripts[k];
			all->weights[all->nscripts++] = w->weights[k];
			*ncommands += scripts[k]->ncommands;
		}
		all->total_weight += w->total_weight;
		appendStringInfo(&label, "%s%s", i > 0 ? " + " : "", w->name);
	}
	all->name = label.len < NAMEDATALEN ? label.data : psprintf("%d groups", a->ngroups);
	return all;
}

/* who plays the clients, as errors about workers say it */
static const char *
run_workers_text(const RunArgs *a)
{
	if (a->target == NULL)
		return "one plays each client";
	return psprintf("%d play%s the clients", a->jobs, a->jobs == 1 ? "s" : "");
}

/*
 * run_price
 *		The price the run of A runs at, into PRICE and CURRENCY ("" each
 *		when unknown): its target's options price_per_hour and currency,
 *		or, in this server, the settings pgbenchkit.price_per_hour and
 *		pgbenchkit.currency as the caller has them.  The run's row keeps
 *		them, so that a price changed later leaves the run's.  Settings
 *		with a price and no currency (or the reverse) are refused before
 *		anything starts; a target's options cannot be so (its validator).
 */
static void
run_price(const RunArgs *a, char *price, char *currency)
{
	const char *p;
	const char *c;

	if (a->target != NULL)
		bk_target_price(bk_target_lookup(a->target), &p, &c);
	else
	{
		p = bk_price_per_hour;
		c = bk_currency;
		bk_price_check_pair(p, c, "pgbenchkit.price_per_hour", "pgbenchkit.currency");
	}
	strlcpy(price, p ? p : "", BK_PRICE_MAX_LEN + 1);
	strlcpy(currency, c ? c : "", BK_CURRENCY_LEN + 1);
}

/*
 * run_target_found
 *		For workload WORKLOAD of DATASET (sysbench, ibench, tpcc) against
 *		target NAME, into *FOUND: the number of its tables sbtest1, sbtest2,
 *		... (pi1, pi2, ...) that the target's role finds in its search_path
 *		and, for sysbench, sbtest1's largest id, as a run in the server
 *		takes tables their benchmark made itself; for tpcc, the rows of its
 *		warehouse, and NURand's constants of the last load bench.init
 *		recorded for that target (none for go-tpc prepare's).  Over a
 *		connection of the caller's own.
 */
static void
run_target_found(const char *workload, const char *dataset, const char *name,
				 BkFoundDataset *found)
{
	const BkDatasetInfo *info = bk_dataset_info(dataset);
	BkTarget   *target = bk_target_open(name, GetUserId(), "pgbenchkit run");
	PGconn	   *conn = bk_target_open_conn(target);
	bool		sysbench = strcmp(dataset, "sysbench") == 0;
	bool		tpcc = info->sizing == BK_SIZED_BY_WAREHOUSES;

	memset(found, 0, sizeof(*found));
	found->scale = 1;
	PG_TRY();
	{
		char	   *readable = bk_target_value(conn, name, "its dataset's tables",
											   psprintf("SELECT pg_catalog.to_regclass('%s') IS NOT NULL"
														" AND pg_catalog.has_table_privilege('%s', 'SELECT')",
														info->key_table, info->key_table),
											   -1, NULL, NULL);

		if (strcmp(readable, "t") != 0)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("workload \"%s\" needs %s %s dataset, and target \"%s\" has no %s its role can read",
							workload, info->article, dataset, name, info->key_table),
					 errhint("Load one there with bench.init('%s', ..., target => '%s'), as the target's role finds it in its search_path.",
							 dataset, name)));
		if (tpcc)
		{
			found->warehouses = atoi(bk_target_value(conn, name, "its warehouses",
													 "SELECT count(*) FROM warehouse", -1, NULL, NULL));
			if (found->warehouses < 1)
				ereport(ERROR,
						(errcode(ERRCODE_UNDEFINED_TABLE),
						 errmsg("workload \"%s\" needs %s %s dataset, and target \"%s\" has an empty warehouse",
								workload, info->article, dataset, name),
						 errhint("Load one there with bench.init('tpcc', warehouses => W, target => '%s'), or go-tpc tpcc prepare.",
								 name)));
			found->scale = found->warehouses;
		}
		else
		{
			found->tables = atoi(bk_target_value(conn, name, "its dataset's tables",
												 psprintf("SELECT count(*) FROM pg_catalog.generate_series(1, 10000) AS i"
														  " WHERE pg_catalog.to_regclass('%s' OPERATOR(pg_catalog.||) i) IS NOT NULL",
														  info->prefix),
												 -1, NULL, NULL));
			if (sysbench)
				found->table_size = atoi(bk_target_value(conn, name, "the size of its sysbench tables",
														 "SELECT coalesce(max(id), 0) FROM sbtest1", -1, NULL, NULL));
		}
	}
	PG_CATCH();
	{
		bk_target_close_conn(target, conn);
		PG_RE_THROW();
	}
	PG_END_TRY();
	bk_target_close_conn(target, conn);

	/* the constants of the last load bench.init made there, of that size */
	if (tpcc)
	{
		Oid			types[2] = {TEXTOID, INT4OID};
		Datum		values[2] = {CStringGetTextDatum(name), Int32GetDatum(found->warehouses)};
		bool		isnull;

		bk_spi_connect();
		if (SPI_execute_with_args("SELECT (options->>'c_last')::int4, (options->>'c_id')::int4,"
								  "       (options->>'ol_i_id')::int4"
								  "  FROM bench.datasets"
								  " WHERE status = 'ready' AND workload = 'tpcc' AND target = $1"
								  "   AND scale = $2 AND options ? 'c_last'"
								  " ORDER BY id DESC LIMIT 1",
								  2, types, values, NULL, true, 1) != SPI_OK_SELECT)
			elog(ERROR, "could not read bench.datasets");
		if (SPI_processed == 1)
		{
			found->c_last = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
			found->c_id = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull));
			found->ol_i_id = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3, &isnull));
			found->constants = true;
		}
		bk_spi_finish();
	}
}

/*
 * run_target_scale
 *		The scale of the pgbench tables target NAME's role finds (the rows
 *		of pgbench_branches, as the coordinator counts them), refused as
 *		the coordinator refuses a target without them.
 */
static int
run_target_scale(const char *workload, const char *name)
{
	BkTarget   *target = bk_target_open(name, GetUserId(), "pgbenchkit run");
	PGconn	   *conn = bk_target_open_conn(target);
	int			scale = 0;

	PG_TRY();
	{
		char	   *readable = bk_target_value(conn, name, "its dataset's tables",
											   "SELECT pg_catalog.to_regclass('pgbench_branches') IS NOT NULL"
											   " AND pg_catalog.has_table_privilege('pgbench_branches', 'SELECT')",
											   -1, NULL, NULL);

		if (strcmp(readable, "t") == 0)
			scale = atoi(bk_target_value(conn, name, "the scale of its pgbench tables",
										 "SELECT count(*) FROM pgbench_branches", -1, NULL, NULL));
		if (scale < 1)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("workload \"%s\" needs a %s dataset, and target \"%s\" has %s",
							workload, "tpcb", name,
							strcmp(readable, "t") == 0 ? "an empty pgbench_branches" :
							"no pgbench_branches its role can read"),
					 errhint("Load one there with bench.init('tpcb', scale => N, target => '%s') or pgbench -i, as the target's role finds it in its search_path.",
							 name)));
	}
	PG_CATCH();
	{
		bk_target_close_conn(target, conn);
		PG_RE_THROW();
	}
	PG_END_TRY();
	bk_target_close_conn(target, conn);
	return scale;
}

/*
 * bk_run_dataset_shape
 *		What a run of the arguments V and N (checked already, in the order
 *		of the table of run arguments) finds of its workload's dataset, on
 *		its target or in this server, as words that are equal when two
 *		datasets are alike: "scale 10" (tpcb), "4 tables of 10000 rows"
 *		(sysbench), "3 tables" (ibench); NULL for a workload that needs
 *		none.  A run on several targets (bench.sweep's targets) compares
 *		them.  Refuses a target or a server without the dataset.
 */
char *
bk_run_dataset_shape(const char *fn, const Datum *v, const bool *n)
{
	RunArgs		a;
	BkWorkload *w;
	int			ncommands;
	BkFoundDataset found;

	bk_run_args_read(fn, v, n, &a);
	if (a.ngroups > 0)
	{
		RunGroup	groups[RUN_MAX_GROUPS];

		w = run_groups_workload(&a, &ncommands, groups);
	}
	else
		w = run_workload(&a, &ncommands);
	if (w->dataset == NULL)
		return NULL;
	memset(&found, 0, sizeof(found));
	if (a.target == NULL)
		bk_find_dataset_found(w->name, w->dataset, &found);
	else if (strcmp(w->dataset, "tpcb") == 0)
		found.scale = run_target_scale(w->name, a.target);
	else
		run_target_found(w->name, w->dataset, a.target, &found);
	if (strcmp(w->dataset, "sysbench") == 0)
		return psprintf("%d table%s of %d rows", found.tables, found.tables == 1 ? "" : "s",
						found.table_size);
	if (strcmp(w->dataset, "ibench") == 0)
		return psprintf("%d table%s", found.tables, found.tables == 1 ? "" : "s");
	if (strcmp(w->dataset, "tpcc") == 0)
		return psprintf("%d warehouse%s", found.warehouses, found.warehouses == 1 ? "" : "s");
	return psprintf("scale %d", found.scale);
}

/*
 * bk_run_check_argv
 *		Check the arguments of a run as bench.run would, before anything
 *		starts: each value, the workload's script and dataset, and that
 *		the server has background workers for it plus EXTRA_WORKERS more,
 *		free now and for a caller that may start it now; with EXTRA_WORKERS
 *		-1 (a schedule), only that max_worker_processes is large enough.
 *		V and N are in the order of the table of run arguments (runargs.h).
 */
void
bk_run_check_argv(const char *fn, const Datum *v, const bool *n, int extra_workers)
{
	RunArgs		a;
	BkWorkload *w;
	int			scale;
	int			free_slots;
	int			ncommands;

	bk_run_args_read(fn, v, n, &a);
	if (a.ngroups > 0)
	{
		RunGroup	groups[RUN_MAX_GROUPS];

		w = run_groups_workload(&a, &ncommands, groups);
	}
	else
		w = run_workload(&a, &ncommands);
	bk_run_tpcc_args(&a, w);
	if (w->dataset != NULL && a.target == NULL && !bk_run_check_skip_dataset)
	{
		(void) bk_find_dataset(w->name, w->dataset, &scale);
		if (strcmp(w->dataset, "tpcc") == 0)
			bk_run_tpcc_functions(&a, w);
	}
	if (extra_workers < 0)
	{
		/* a schedule: the workers must exist, for a run later */
		if (BK_SUITE_WORKERS(a.jobs) > max_worker_processes)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
					 errmsg("%s with %d clients needs %lld background workers, but max_worker_processes is %d",
							fn, a.clients, (long long) BK_SUITE_WORKERS(a.jobs), max_worker_processes),
					 errdetail("One worker runs the suite, one coordinates each run and %s.",
							   run_workers_text(&a)),
					 errhint("Use fewer clients or raise max_worker_processes (this needs a restart).")));
		bk_check_role_workers(fn, BK_SUITE_WORKERS(a.jobs), false);
		return;
	}
	bk_check_role_workers(fn, BK_RUN_WORKERS(a.jobs) + extra_workers, true);
	free_slots = run_free_worker_slots();
	if (BK_RUN_WORKERS(a.jobs) + extra_workers > free_slots)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("%s with %d clients needs %lld background workers, but only %d are free",
						fn, a.clients, (long long) BK_RUN_WORKERS(a.jobs) + extra_workers, free_slots),
				 errdetail("One worker coordinates each run and %s%s; max_worker_processes is %d.",
						   run_workers_text(&a),
						   extra_workers > 0 ? ", and one runs the suite" : "", max_worker_processes),
				 errhint("Use fewer clients, wait for other background work to end, or raise max_worker_processes (this needs a restart).")));
	bk_run_check_caller(fn);
}

/*
 * run_caller_cancel
 *		The caller of bench.run errs or exits while it waits: cancel the run
 *		and give the coordinator a moment to stop the clients and record
 *		the run as 'canceled', so that the user's next query sees it so.
 */
static void
run_caller_cancel(int code, Datum arg)
{
	RunShared  *sh = (RunShared *) DatumGetPointer(arg);

	/* a dead postmaster ends every process; the next call marks the run */
	if (!bk_postmaster_alive())
		return;
	pg_atomic_write_u32(&sh->cancel, 1);
	bk_set_latch_of(sh->coordinator_pid);
	for (int i = 0; i < 500; i++)
	{
		uint32		state = pg_atomic_read_u32(&sh->state);

		if (state == RUN_ENDED || state == RUN_NOT_STARTED)
			break;
		if (sh->coordinator_pid > 0 && kill(sh->coordinator_pid, 0) != 0)
			break;
		pg_usleep(10000L);
	}
}

/* the last progress line this backend printed */
static uint32 run_printed;

/* print the progress lines not printed yet */
static void
run_print_progress(void *arg)
{
	RunShared  *sh = (RunShared *) arg;
	uint32		seq = pg_atomic_read_u32(&sh->progress_seq);

	pg_read_barrier();
	if (seq - run_printed > RUN_PROGRESS_RING)
		run_printed = seq - RUN_PROGRESS_RING;
	while (run_printed != seq)
	{
		run_printed++;
		ereport(NOTICE,
				(errmsg_internal("%s", sh->progress_lines[run_printed % RUN_PROGRESS_RING])));
	}
}

/* whether the run has its row and its clients go (or will never) */
static bool
run_started(void *arg)
{
	return pg_atomic_read_u32(&((RunShared *) arg)->state) != RUN_STARTING;
}

/* whether the run's final row is committed */
static bool
run_ended(void *arg)
{
	return pg_atomic_read_u32(&((RunShared *) arg)->state) == RUN_ENDED;
}

/*
 * Where each part of a run's segment lies (offsets from its start) and its
 * whole size: computed once, by run_layout, for the segment's size and for
 * the offsets its header records.
 */
typedef struct RunLayout
{
	Size		scripts;
	Size		variables;
	Size		variables_json;
	Size		tag;
	Size		search_path;
	Size		check_query;
	Size		clients;
	Size		hists;
	Size		script_stats;
	Size		script_hists;
	Size		command_stats;
	Size		size;
} RunLayout;

/*
 * run_layout
 *		Lay out a run's segment: the header, then the texts (given in bytes
 *		with their NULs), then the per-client arrays, each MAXALIGNed.
 */
static void
run_layout(RunLayout *l, Size scripts_len, Size vars_len, Size json_len,
		   Size tag_len, Size path_len, Size check_len, int clients, int nshards, int nscripts,
		   int script_shards, int ncommands)
{
	Size		off = MAXALIGN(sizeof(RunShared));

#define RUN_PLACE(field, bytes) (l->field = off, off += MAXALIGN(bytes))
	RUN_PLACE(scripts, scripts_len);
	RUN_PLACE(variables, vars_len);
	RUN_PLACE(variables_json, json_len);
	RUN_PLACE(tag, tag_len);
	RUN_PLACE(search_path, path_len);
	RUN_PLACE(check_query, check_len);
	RUN_PLACE(clients, sizeof(RunClient) * clients);
	RUN_PLACE(hists, sizeof(BkSharedHist) * 2 * nshards);
	RUN_PLACE(script_stats, sizeof(RunScriptStat) * clients * nscripts);
	RUN_PLACE(script_hists, sizeof(BkSharedHist) * nscripts * script_shards);
	RUN_PLACE(command_stats, sizeof(RunCommandStat) * clients * Max(ncommands, 1));
#undef RUN_PLACE
	l->size = off;
}

/* the coordinator, started by run_launch */
static const BkLaunch run_coordinator_launch = {
	.type = RUN_COORDINATOR_TYPE,
	.function = "bench_run_coordinator_main",
	.what = "the run's coordinator",
	.ready = run_started,
	.cancel = run_caller_cancel,
	.interval_ms = 100,
	.stopped = "the run's coordinator stopped before the run started",
	.stopped_hint = "It could not start or was terminated; the server log says more.",
};

/*
 * run_launch
 *		Check everything, start the coordinator and wait until the run has
 *		its row and its clients go.  Returns the run's segment (attached).
 */
static dsm_segment *
run_launch(FunctionCallInfo fcinfo, const BkArgFunction *f, BackgroundWorkerHandle **handle_out)
{
	const char *fn = f->name;
	RunArgs		a;
	BkWorkload *w;
	int			ncommands;
	Size		scripts_len = 0;
	Size		vars_len = 0;
	int64		dataset_id = 0;
	char		dataset_schema[NAMEDATALEN] = "";
	int			scale = 0;
	uint64		seed;
	int			target_tables = 0;
	const char *search_path;
	RunLayout	lay;
	dsm_segment *seg;
	RunShared  *sh;
	BackgroundWorkerHandle *handle;
	int			nshards;
	int			script_shards;
	int			free_slots;
	RunGroup	groups[RUN_MAX_GROUPS];
	char		price[BK_PRICE_MAX_LEN + 1];
	char		currency[BK_CURRENCY_LEN + 1];

	run_read_args(fcinfo, f, &a);
	run_price(&a, price, currency);

	/* the workload: its scripts (parsed, to refuse a broken one now) and dataset */
	if (a.ngroups > 0)
		w = run_groups_workload(&a, &ncommands, groups);
	else
	{
		w = run_workload(&a, &ncommands);
		memset(&groups[0], 0, sizeof(RunGroup));
		strlcpy(groups[0].name, w->name, NAMEDATALEN);
		strlcpy(groups[0].workload, w->name, NAMEDATALEN);
		groups[0].nclients = a.clients;
		groups[0].nscripts = w->nscripts;
		groups[0].total_weight = w->total_weight;
		groups[0].rate = a.rate;
	}
	seed = a.seed_given ? a.seed : bk_strong_seed();
	bk_run_tpcc_args(&a, w);
	/*
	 * A run that reconnects checks what it counted committed: pgbench's
	 * tpcb-like scripts add one row to pgbench_history per transaction.
	 * Not a part of a distributed run: the count grows with every part's.
	 */
	if (a.check_query == NULL && a.on_disconnect_reconnect && a.ngroups == 0 && a.part_of == NULL &&
		(strcmp(w->name, "tpcb") == 0 || strcmp(w->name, "simple-update") == 0))
		a.check_query = "SELECT pg_catalog.count(*) FROM pgbench_history";
	if (w->dataset != NULL && a.target == NULL)
	{
		BkFoundDataset found;

		bk_find_dataset_found(w->name, w->dataset, &found);
		dataset_id = found.id;
		scale = found.scale;
		strlcpy(dataset_schema, found.nspname, NAMEDATALEN);
		if (dataset_id > 0)
			bk_refuse_busy_dataset(dataset_id);
		bk_run_dataset_variables(&a, w->dataset, &found, seed);
	}
	else if (w->dataset != NULL && strcmp(w->dataset, "tpcb") != 0)
	{
		/* against a target: its tables, counted and measured there */
		BkFoundDataset found;

		run_target_found(w->name, w->dataset, a.target, &found);
		target_tables = found.tables;
		bk_run_dataset_variables(&a, w->dataset, &found, seed);
		scale = found.scale;
	}
	if (w->dataset != NULL && strcmp(w->dataset, "tpcc") == 0)
	{
		bk_run_tpcc_variables(&a, a.target == NULL ? scale : 0);
		if (a.target == NULL)
			bk_run_tpcc_functions(&a, w);
	}
	for (int i = 0; i < w->nscripts; i++)
		scripts_len += strlen(w->scripts[i]) + 1;
	for (int i = 0; i < a.nvariables; i++)
		vars_len += strlen(a.var_names[i]) + 3 + (a.var_values[i] ? strlen(a.var_values[i]) : 0);

	free_slots = run_free_worker_slots();
	if (BK_RUN_WORKERS(a.jobs) > free_slots)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("a run with %d clients needs %lld background workers, but only %d are free",
						a.clients, (long long) BK_RUN_WORKERS(a.jobs), free_slots),
				 errdetail("One worker coordinates the run and %s; max_worker_processes is %d.",
						   run_workers_text(&a), max_worker_processes),
				 errhint("Use fewer clients, wait for other background work to end, or raise max_worker_processes (this needs a restart).")));
	bk_check_role_workers(fn, BK_RUN_WORKERS(a.jobs), true);
	bk_run_check_caller(fn);

	/* --- the run's shared memory --- */
	search_path = GetConfigOption("search_path", false, false);
	/* the histogram shards: each group's own, RUN_MAX_SHARDS in all or one each */
	nshards = 0;
	for (int i = 0; i < Max(a.ngroups, 1); i++)
	{
		groups[i].first_shard = nshards;
		groups[i].nshards = Min(groups[i].nclients, Max(RUN_MAX_SHARDS / Max(a.ngroups, 1), 1));
		nshards += groups[i].nshards;
	}
	/* each script's: RUN_MAX_SHARDS among them all, one each at least */
	script_shards = Max(1, Min(a.clients, RUN_MAX_SHARDS / w->nscripts));
	run_layout(&lay, scripts_len, vars_len + 1,
			   a.variables_json ? strlen(a.variables_json) + 1 : 1,
			   a.tag ? strlen(a.tag) + 1 : 1, strlen(search_path) + 1,
			   a.check_query ? strlen(a.check_query) + 1 : 1,
			   a.clients, nshards, w->nscripts, script_shards, ncommands);

	seg = dsm_create(lay.size, 0);
	sh = (RunShared *) dsm_segment_address(seg);
	memset(sh, 0, lay.size);
	sh->magic = RUN_MAGIC;
	sh->dboid = MyDatabaseId;
	sh->roleid = GetUserId();
	sh->caller_pid = MyProcPid;
	strlcpy(sh->workload, w->name, NAMEDATALEN);
	sh->dataset_id = dataset_id;
	sh->needs_dataset = w->dataset != NULL && strcmp(w->dataset, "tpcb") == 0;
	sh->target_tables = target_tables;
	if (w->dataset != NULL)
		strlcpy(sh->dataset_kind, w->dataset, sizeof(sh->dataset_kind));
	strlcpy(sh->dataset_schema, dataset_schema, NAMEDATALEN);
	if (w->dataset != NULL && target_tables > 0)
		strlcpy(sh->target_prefix, bk_dataset_info(w->dataset)->prefix, sizeof(sh->target_prefix));
	sh->scale = scale;
	sh->clients = a.clients;
	sh->nworkers = a.jobs;
	sh->driver = a.target ? RUN_DRIVER_LIBPQ : RUN_DRIVER_SERVER;
	if (a.target)
		strlcpy(sh->target, a.target, NAMEDATALEN);
	sh->connect_per_transaction = a.connect_per_transaction;
	sh->on_disconnect_continue = a.on_disconnect_continue;
	sh->on_disconnect_reconnect = a.on_disconnect_reconnect;
	sh->reconnect_min_ns = a.reconnect_delay_ns;
	sh->reconnect_max_ns = a.reconnect_max_delay_ns;
	sh->response_timeout_ns = a.response_timeout_ns;
	sh->response_timeout = a.response_timeout;
	sh->start_at = a.at;
	if (a.part_of)
		strlcpy(sh->part_of, a.part_of, NAMEDATALEN);
	sh->nshards = nshards;
	sh->script_shards = script_shards;
	sh->protocol = a.protocol;
	sh->time_phases = bk_time_phases && sh->driver == RUN_DRIVER_SERVER;
	strlcpy(sh->protocol_name, a.protocol_name, sizeof(sh->protocol_name));
	sh->duration_ns = a.duration_set ? a.duration_ns : 0;
	sh->transactions = a.transactions;
	sh->warmup_ns = a.warmup_ns;
	sh->progress_ns = a.progress_ns;
	sh->tick_ns = a.progress_ns > 0 ? a.progress_ns : 5 * INT64CONST(1000000000);
	sh->duration = a.duration;
	sh->duration_set = a.duration_set;
	sh->warmup = a.warmup;
	sh->progress = a.progress;
	sh->max_tries = a.max_tries;
	sh->prewarm = a.prewarm;
	sh->sample_ns = a.sample_ns;
	sh->sample_interval = a.sample_interval;
	sh->seed_given = a.seed_given;
	sh->seed = seed;
	sh->rate = a.rate;
	sh->latency_limit_ns = a.latency_limit_ns;
	sh->latency_limit = a.latency_limit;
	sh->suite_id = bk_run_suite_id;
	if (bk_run_suite_step != NULL)
		strlcpy(sh->step, bk_run_suite_step, NAMEDATALEN);
	strlcpy(sh->price_per_hour, price, sizeof(sh->price_per_hour));
	strlcpy(sh->currency, currency, sizeof(sh->currency));
	sh->nscripts = w->nscripts;
	sh->ncommands = ncommands;
	for (int i = 0; i < w->nscripts; i++)
		sh->weights[i] = w->weights[i];
	sh->grouped = a.ngroups > 0;
	sh->ngroups = Max(a.ngroups, 1);
	memcpy(sh->groups, groups, sizeof(RunGroup) * sh->ngroups);

	sh->scripts_off = lay.scripts;
	{
		char	   *p = RUN_TEXT(sh, lay.scripts);

		for (int i = 0; i < w->nscripts; i++)
		{
			strcpy(p, w->scripts[i]);
			p += strlen(w->scripts[i]) + 1;
		}
	}
	sh->variables_off = lay.variables;
	sh->nvariables = a.nvariables;
	{
		char	   *p = RUN_TEXT(sh, lay.variables);

		for (int i = 0; i < a.nvariables; i++)
		{
			strcpy(p, a.var_names[i]);
			p += strlen(p) + 1;
			*p++ = a.var_values[i] ? 's' : 'n';
			strcpy(p, a.var_values[i] ? a.var_values[i] : "");
			p += strlen(p) + 1;
		}
	}
	if (a.variables_json)
	{
		sh->variables_json_off = lay.variables_json;
		strcpy(RUN_TEXT(sh, lay.variables_json), a.variables_json);
	}
	if (a.tag)
	{
		sh->tag_off = lay.tag;
		strcpy(RUN_TEXT(sh, lay.tag), a.tag);
	}
	sh->search_path_off = lay.search_path;
	strcpy(RUN_TEXT(sh, lay.search_path), search_path);
	if (a.check_query)
	{
		sh->check_query_off = lay.check_query;
		strcpy(RUN_TEXT(sh, lay.check_query), a.check_query);
	}
	sh->clients_off = lay.clients;
	sh->hists_off = lay.hists;
	sh->script_stats_off = lay.script_stats;
	sh->script_hists_off = lay.script_hists;
	sh->command_stats_off = lay.command_stats;

	pg_atomic_init_u32(&sh->state, RUN_STARTING);
	pg_atomic_init_u32(&sh->go, 0);
	pg_atomic_init_u32(&sh->stop, 0);
	pg_atomic_init_u32(&sh->cancel, 0);
	pg_atomic_init_u32(&sh->client_error_claimed, 0);
	pg_atomic_init_u32(&sh->clients_lost, 0);
	pg_atomic_init_u32(&sh->lost_error_claimed, 0);
	pg_atomic_init_u32(&sh->progress_seq, 0);
	for (int i = 0; i < a.clients; i++)
	{
		RunClient  *cl = &RUN_CLIENTS(sh)[i];

		pg_atomic_init_u32(&cl->state, CLIENT_STARTING);
		for (int ph = 0; ph < 2; ph++)
		{
			pg_atomic_init_u64(&cl->phase[ph].xacts, 0);
			pg_atomic_init_u64(&cl->phase[ph].lat_sum_ns, 0);
			for (int k = 0; k < FAIL_KINDS; k++)
				pg_atomic_init_u64(&cl->phase[ph].failures[k], 0);
			pg_atomic_init_u64(&cl->phase[ph].retried, 0);
			pg_atomic_init_u64(&cl->phase[ph].retries, 0);
			pg_atomic_init_u64(&cl->phase[ph].ignored, 0);
			pg_atomic_init_u64(&cl->phase[ph].skipped, 0);
			pg_atomic_init_u64(&cl->phase[ph].late, 0);
			pg_atomic_init_u64(&cl->phase[ph].lag_sum_ns, 0);
		}
	}
	for (int ph = 0; ph < 2; ph++)
		for (int s = 0; s < nshards; s++)
			for (int b = 0; b < BK_HIST_BUCKETS; b++)
				pg_atomic_init_u64(&RUN_HIST(sh, ph, s)->counts[b], 0);
	for (int i = 0; i < w->nscripts; i++)
		for (int s = 0; s < script_shards; s++)
			for (int b = 0; b < BK_HIST_BUCKETS; b++)
				pg_atomic_init_u64(&RUN_SCRIPT_HIST(sh, i, s)->counts[b], 0);

	/* --- the coordinator --- */
	handle = bk_launch(&run_coordinator_launch, seg, sh,
					   psprintf("A run with %d clients", a.clients), BK_RUN_WORKERS(a.jobs));

	if (pg_atomic_read_u32(&sh->state) == RUN_NOT_STARTED)
	{
		pg_read_barrier();
		bk_error_raise(&sh->error);
	}
	*handle_out = handle;
	return seg;
}

/*
 * bench_run
 *		SQL function bench.run(<the run arguments>) returns bench.runs.
 */
Datum
bench_run(PG_FUNCTION_ARGS)
{
	BackgroundWorkerHandle *handle;
	dsm_segment *seg = run_launch(fcinfo, &bk_fn_run, &handle);
	RunShared  *sh = (RunShared *) dsm_segment_address(seg);
	int64		run_id = sh->run_id;
	Datum		row;
	bool		found;

	run_printed = 0;
	bk_release_xmin();
	PG_ENSURE_ERROR_CLEANUP(run_caller_cancel, PointerGetDatum(sh));
	{
		if (!bk_wait_worker(handle, run_ended, run_print_progress, sh, 100L))
			ereport(ERROR,
					(errcode(ERRCODE_ADMIN_SHUTDOWN),
					 errmsg("the coordinator of run %lld exited before the run ended",
							(long long) run_id),
					 errhint("The next call of a bench function marks the run as aborted, keeping its progress rows.")));
	}
	PG_END_ENSURE_ERROR_CLEANUP(run_caller_cancel, PointerGetDatum(sh));

	pg_read_barrier();
	if (strcmp(sh->final_status, "done") != 0)
	{
		BkError		err = sh->error;

		if (err.sqlerrcode == 0)
			bk_error_set(&err, ERRCODE_INTERNAL_ERROR, "the run ended without a result", NULL);
		ereport(ERROR,
				(errcode(err.sqlerrcode),
				 errmsg("run %lld %s: %s", (long long) run_id,
						strcmp(sh->final_status, "canceled") == 0 ? "was canceled" :
						strcmp(sh->final_status, "aborted") == 0 ? "was aborted" : "failed",
						err.message),
				 err.detail[0] ? errdetail_internal("%s", err.detail) : 0,
				 errhint("Its row in bench.runs keeps what was measured until then.")));
	}
	dsm_detach(seg);

	row = run_row(fcinfo, run_id, &found);
	if (!found)
		elog(ERROR, "run %lld has no row", (long long) run_id);
	PG_RETURN_DATUM(row);
}

/*
 * bench_start
 *		SQL function bench.start(...) returns the run's id once its clients
 *		go; the run goes on without the caller.
 */
Datum
bench_start(PG_FUNCTION_ARGS)
{
	BackgroundWorkerHandle *handle;
	dsm_segment *seg = run_launch(fcinfo, &bk_fn_start, &handle);
	RunShared  *sh = (RunShared *) dsm_segment_address(seg);
	int64		run_id = sh->run_id;

	dsm_detach(seg);
	PG_RETURN_INT64(run_id);
}

/*
 * bench_wait
 *		SQL function bench.wait(run_id): wait until the run is no longer
 *		running, printing its progress rows as they come, and return its
 *		row.  Canceling the wait does not cancel the run.
 */
Datum
bench_wait(PG_FUNCTION_ARGS)
{
	int64		run_id;
	double		printed_elapsed = -1;
	Datum		row;
	bool		found;

	bk_check_call(fcinfo, 1, "bench.wait");
	RUN_ID_NOT_NULL("bench.wait");
	run_id = PG_GETARG_INT64(0);
	bk_run_check_caller("bench.wait");
	bk_recover_runs();

	for (int round = 0;; round++)
	{
		char	   *status = run_status(run_id, NULL, NULL);

		/* the progress rows not printed yet */
		bk_print_progress(run_id, &printed_elapsed);

		if (strcmp(status, "running") != 0)
		{
			/* one whose coordinator vanished: recorded as bench.runs shows it */
			if (strcmp(status, "aborted") == 0)
				bk_recover_runs();
			break;
		}
		if (round % 10 == 9)
			bk_recover_runs();	/* a coordinator that vanished */
		bk_release_xmin();
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}

	row = run_row(fcinfo, run_id, &found);
	PG_RETURN_DATUM(row);
}

/*
 * bench_cancel
 *		SQL function bench.cancel(run_id): ask the run's coordinator to stop
 *		(SIGINT), then wait until it has recorded the run as canceled.
 *		False when the run was not running.
 */
Datum
bench_cancel(PG_FUNCTION_ARGS)
{
	int64		run_id;
	int			pid = 0;
	char	   *created_by = NULL;
	char	   *status;

	bk_check_call(fcinfo, 1, "bench.cancel");
	RUN_ID_NOT_NULL("bench.cancel");
	run_id = PG_GETARG_INT64(0);
	bk_recover_runs();
	status = run_status(run_id, &pid, &created_by);
	if (strcmp(status, "running") != 0)
	{
		ereport(NOTICE,
				(errmsg("run %lld is not running (its status is %s)", (long long) run_id, status)));
		PG_RETURN_BOOL(false);
	}
	if (!bk_may_steer(created_by))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to cancel run %lld", (long long) run_id),
				 errdetail("Only roles with the privileges of the role that started it (%s), members of %s and superusers can cancel it.",
						   created_by, BK_ADMIN_ROLE)));
	if (pid <= 0 || kill(pid, SIGINT) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("could not signal the coordinator of run %lld", (long long) run_id),
				 errhint("If the server restarted, the next call marks the run as aborted.")));

	/* wait until the coordinator has recorded the end (it takes well under a second) */
	for (int i = 0; i < 1000; i++)
	{
		status = run_status(run_id, NULL, NULL);
		if (strcmp(status, "running") != 0)
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 10L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	PG_RETURN_BOOL(true);
}

/*
 * bench_rate_schedule
 *		SQL function bench._rate_schedule(random_seed, rate, clients,
 *		workers, seconds): the starts, in seconds from the run's start, that
 *		the rate limit of a run with that seed, rate, clients and client
 *		workers (threads) schedules before SECONDS, in order: what its
 *		clients draw (bk_client_random, bk_thread_gap_ns), whatever the
 *		machine's timing.  For tests: a run's schedule depends only on these.
 */
PG_FUNCTION_INFO_V1(bench_rate_schedule);

static int
bk_cmp_float8_datum(const void *a, const void *b)
{
	float8		x = DatumGetFloat8(*(const Datum *) a);
	float8		y = DatumGetFloat8(*(const Datum *) b);

	return x < y ? -1 : x > y ? 1 : 0;
}

Datum
bench_rate_schedule(PG_FUNCTION_ARGS)
{
	int64		seed = PG_GETARG_INT64(0);
	double		rate = PG_GETARG_FLOAT8(1);
	int32		clients = PG_GETARG_INT32(2);
	int32		workers = PG_GETARG_INT32(3);
	double		seconds = PG_GETARG_FLOAT8(4);
	int64		end_ns;
	int			n = 0,
				cap = 64;
	Datum	   *starts;

	bk_check_call(fcinfo, 5, "bench._rate_schedule");
	if (!(rate > 0) || rate > 1e7 || clients < 1 || clients > RUN_MAX_CLIENTS ||
		workers < 1 || workers > clients || !(seconds >= 0) || seconds * rate > 1e7)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid arguments of bench._rate_schedule"),
				 errhint("rate > 0, 1 <= workers <= clients, and at most ten million starts.")));
	end_ns = (int64) (seconds * 1e9);
	starts = palloc(sizeof(Datum) * cap);
	for (int t = 0; t < workers; t++)
	{
		BkClientRandom rnd;
		BkThread	th;

		/* the first client of thread T, as clients are dealt to workers */
		bk_client_random((uint64) seed, clients, workers, t, t, true, &rnd);
		memset(&th, 0, sizeof(th));
		th.throttle = rnd.throttle;
		th.center_us = 1e6 * workers / rate;
		for (;;)
		{
			th.trigger += bk_thread_gap_ns(&th);
			if (th.trigger >= end_ns)
				break;
			if (n == cap)
			{
				cap *= 2;
				starts = repalloc(starts, sizeof(Datum) * cap);
			}
			starts[n++] = Float8GetDatum(th.trigger / 1e9);
		}
	}
	qsort(starts, n, sizeof(Datum), bk_cmp_float8_datum);
	PG_RETURN_ARRAYTYPE_P(construct_array(starts, n, FLOAT8OID, sizeof(float8),
										  FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}
