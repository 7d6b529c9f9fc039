/*-------------------------------------------------------------------------
 *
 * runstate.c
 *		Whether a run is still going, a run's hold on its dataset, and the
 *		runs whose coordinator is gone.
 *
 * A run's coordinator holds two session-level advisory locks for as long
 * as it lives: one keyed by the run's id, taken before the run's row is
 * inserted, and one keyed by its dataset's id (one run at a time per
 * dataset).  The lock manager drops them when the process exits, however
 * it exits, and a crash or an immediate shutdown empties it: a run whose
 * row says 'running' is alive exactly while someone holds its lock.  That
 * answer needs no process id (the system may have given the coordinator's
 * to another process since) and no statistics snapshot (pg_stat_activity
 * is read once per transaction, and may be older than the row).  A
 * suite's worker holds the same kind of lock, keyed by the suite's id
 * (with its own field4, since suite and run ids come from one sequence).
 *
 * bench._run_alive asks the lock manager; the view bench.runs shows a run
 * whose coordinator is gone as the 'aborted' run it is (bench._run_aborted),
 * from the first read after a crash, and bk_recover_runs writes it so into
 * the table under the view, bench._runs, with what its
 * progress rows kept: counts, latencies, and the latency histogram merged
 * from the rows' histograms, and a suite whose worker is gone as
 * 'aborted', its finished runs kept.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/lock.h"
#include "utils/array.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"

#include "meta/catalog.h"
#include "core/pgbenchkit.h"
#include "meta/runstate.h"
#include "target/target.h"

PG_FUNCTION_INFO_V1(bench_run_alive);
PG_FUNCTION_INFO_V1(bench_suite_alive);

/* field4 of pgbenchkit's advisory locks, as pg_locks.objsubid shows them */
#define RUN_LOCK_DATASET	0x4b42	/* a run's dataset: 19266 */
#define RUN_LOCK_RUN		0x4b43	/* a run, held by its coordinator: 19267 */
#define RUN_LOCK_SUITE		0x4b44	/* a suite, held by its worker: 19268 */

/* the run this process coordinates, whose lock is its own */
static int64 my_run_id = 0;

/* the suite this process runs (a suite's worker), whose lock is its own */
static int64 my_suite_id = 0;

static void
run_locktag(LOCKTAG *tag, int64 id, uint16 field4)
{
	SET_LOCKTAG_ADVISORY(*tag, MyDatabaseId, (uint32) (id >> 32), (uint32) id, field4);
}

/*
 * run_ids
 *		The bigint first column of every row of SQL, in the caller's memory
 *		context; *N is their number.
 */
static int64 *
run_ids(const char *sql, int nargs, Oid *types, Datum *values, int *n)
{
	MemoryContext cxt = CurrentMemoryContext;
	int64	   *ids;

	bk_spi_connect();
	if (SPI_execute_with_args(sql, nargs, types, values, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read: %s", sql);
	*n = (int) SPI_processed;
	ids = MemoryContextAlloc(cxt, sizeof(int64) * Max(*n, 1));
	for (int i = 0; i < *n; i++)
	{
		bool		isnull;

		ids[i] = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc,
											 1, &isnull));
	}
	bk_spi_finish();
	return ids;
}

/*
 * lock_hold, lock_release, lock_alive
 *		The lock of a run (held by its coordinator) or of a suite (held by
 *		its worker), KIND RUN_LOCK_RUN or RUN_LOCK_SUITE: taken before the
 *		row is committed and kept until the final row is (or the process
 *		exits), so that the work is alive while it is held.  *MINE is the
 *		one this process holds.  On a standby, where no work can start, the
 *		rows are the primary's and their processes are not here to ask:
 *		alive.
 */
static void
lock_hold(int64 id, uint16 kind, int64 *mine)
{
	LOCKTAG		tag;

	run_locktag(&tag, id, kind);
	if (LockAcquire(&tag, ExclusiveLock, true, true) == LOCKACQUIRE_NOT_AVAIL)
		elog(ERROR, "the lock of new %s %lld is taken",
			 kind == RUN_LOCK_RUN ? "run" : "suite", (long long) id);
	*mine = id;
}

static void
lock_release(int64 id, uint16 kind, int64 *mine)
{
	LOCKTAG		tag;

	if (*mine == 0 || *mine != id)
		return;
	run_locktag(&tag, id, kind);
	LockRelease(&tag, ExclusiveLock, true);
	*mine = 0;
}

static bool
lock_alive(int64 id, uint16 kind, int64 mine)
{
	LOCKTAG		tag;

	if (id == mine || RecoveryInProgress())
		return true;
	run_locktag(&tag, id, kind);
	if (LockAcquire(&tag, ShareLock, false, true) == LOCKACQUIRE_NOT_AVAIL)
		return true;
	LockRelease(&tag, ShareLock, false);
	return false;
}

/* the coordinator of run RUN_ID holds its lock until it exits */
void
bk_run_hold(int64 run_id)
{
	lock_hold(run_id, RUN_LOCK_RUN, &my_run_id);
}

/* the run's final row is committed: its coordinator lets go of it */
void
bk_run_release(int64 run_id)
{
	lock_release(run_id, RUN_LOCK_RUN, &my_run_id);
}

/*
 * bk_of_this_node
 *		Whether ID, a run's or a suite's, was drawn in this database: below
 *		every node's range (before a node was set, or with none), or in the
 *		range of this database's node (bench.set_node).  A row of another
 *		node, which a fleet's central database receives by logical
 *		replication, shows the status its node last wrote: whether it is
 *		alive is its node's to judge, and this database holds no lock for
 *		it.
 */
bool
bk_of_this_node(int64 id)
{
	int64		number = 0;

	if (id < BK_NODE_RANGE)
		return true;
	bk_spi_connect();
	/* bench.node is not in the SQL of 0.2.0 and before */
	if (bk_spi_int64("SELECT count(*) FROM pg_catalog.pg_class"
					 " WHERE oid = pg_catalog.to_regclass('bench.node')", 0, NULL, NULL) > 0)
		number = bk_spi_int64("SELECT COALESCE((SELECT n.number FROM bench.node n), 0)",
							  0, NULL, NULL);
	bk_spi_finish();
	return number > 0 && id / BK_NODE_RANGE == number;
}

/*
 * whether the coordinator of run RUN_ID is alive: it holds the run's lock
 * (a run of another node is its node's to judge: alive here)
 */
bool
bk_run_alive(int64 run_id)
{
	if (!bk_of_this_node(run_id))
		return true;
	return lock_alive(run_id, RUN_LOCK_RUN, my_run_id);
}

/*
 * stored_running
 *		Whether the newest committed row of ID in TABLE (bench._runs or
 *		bench._suites, or their 0.1.0 names) says 'running', read with a
 *		snapshot taken now rather than the statement's.  A reader that found
 *		a row 'running' and its lock free may hold a snapshot older than the
 *		final row: the process commits that row, then lets go of its lock,
 *		so once the lock is free the final row, if there is one, is seen
 *		here.
 */
static bool
stored_running(const char *table, int64 id)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(id)};
	SPIPlanPtr	plan;
	bool		running = false;

	bk_spi_connect();
	plan = SPI_prepare(psprintf("SELECT status OPERATOR(pg_catalog.=) 'running' FROM %s WHERE id = $1",
								table), 1, types);
	if (plan == NULL ||
		SPI_execute_snapshot(plan, values, NULL, GetLatestSnapshot(), InvalidSnapshot,
							 true, false, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read the row of %lld in %s", (long long) id, table);
	if (SPI_processed == 1)
	{
		bool		isnull;
		Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);

		running = !isnull && DatumGetBool(d);
	}
	bk_spi_finish();
	return running;
}

/*
 * bench_run_alive
 *		SQL function bench._run_alive(run_id bigint): whether the run's
 *		coordinator is alive (bk_run_alive), or has ended it since the
 *		caller's snapshot (its final row committed): false only for a run
 *		whose coordinator is gone without a final row, which its readers
 *		show as aborted.
 */
Datum
bench_run_alive(PG_FUNCTION_ARGS)
{
	int64		id;

	bk_check_call(fcinfo, 1, "bench._run_alive");
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	id = PG_GETARG_INT64(0);
	PG_RETURN_BOOL(bk_run_alive(id) || !stored_running(bk_runs_table(), id));
}

/* the worker of suite SUITE_ID holds its lock until it exits */
void
bk_suite_hold(int64 suite_id)
{
	lock_hold(suite_id, RUN_LOCK_SUITE, &my_suite_id);
}

/* the suite's final row is committed: its worker lets go of it */
void
bk_suite_release(int64 suite_id)
{
	lock_release(suite_id, RUN_LOCK_SUITE, &my_suite_id);
}

/*
 * whether the worker of suite SUITE_ID is alive: it holds the suite's lock
 * (a suite of another node is its node's to judge: alive here)
 */
bool
bk_suite_alive(int64 suite_id)
{
	if (!bk_of_this_node(suite_id))
		return true;
	return lock_alive(suite_id, RUN_LOCK_SUITE, my_suite_id);
}

/*
 * bench_suite_alive
 *		SQL function bench._suite_alive(suite_id bigint): whether the
 *		suite's worker is alive (bk_suite_alive), or has ended it since the
 *		caller's snapshot (see bench_run_alive).
 */
Datum
bench_suite_alive(PG_FUNCTION_ARGS)
{
	int64		id;

	bk_check_call(fcinfo, 1, "bench._suite_alive");
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	id = PG_GETARG_INT64(0);
	PG_RETURN_BOOL(bk_suite_alive(id) || !stored_running(bk_suites_table(), id));
}

/*
 * bk_dataset_busy_run
 *		The run on dataset DATASET_ID whose coordinator is alive, or 0.
 */
int64
bk_dataset_busy_run(int64 dataset_id)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(dataset_id)};
	int			n;
	int64	   *ids;
	BkOwnerSwitch sw;

	/* the runs of every role (row level security hides other roles' ones) */
	bk_become_owner(&sw);
	ids = run_ids(psprintf("SELECT id FROM %s WHERE dataset_id = $1 AND status = 'running'"
						   " ORDER BY id", bk_runs_table()), 1, types, values, &n);
	bk_restore_user(&sw);

	for (int i = 0; i < n; i++)
		if (bk_run_alive(ids[i]))
			return ids[i];
	return 0;
}

/* the error of a dataset that run OTHER (0: unknown) is using */
static void
run_dataset_in_use(int64 dataset_id, int64 other)
{
	if (other != 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_IN_USE),
				 errmsg("dataset %lld is in use by run %lld",
						(long long) dataset_id, (long long) other),
				 errhint("Wait for it with bench.wait(%lld) or stop it with bench.cancel(%lld): one run at a time per dataset.",
						 (long long) other, (long long) other)));
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_IN_USE),
			 errmsg("dataset %lld is in use by a run that is starting or by bench.init",
					(long long) dataset_id),
			 errhint("Wait for it to end, then try again: one run at a time per dataset.")));
}

/*
 * bk_refuse_busy_dataset
 *		Refuse, with its clear error, what needs a dataset a run uses.
 */
void
bk_refuse_busy_dataset(int64 dataset_id)
{
	int64		other = bk_dataset_busy_run(dataset_id);

	if (other != 0)
		run_dataset_in_use(dataset_id, other);
}

/*
 * bk_take_dataset
 *		Hold dataset DATASET_ID's lock: for the session (a run's
 *		coordinator, until it exits or bk_release_dataset) or for the
 *		transaction (bench.init, while it drops the tables).  When a run or
 *		a load holds it, refuse with the clear error.
 */
void
bk_take_dataset(int64 dataset_id, bool session)
{
	LOCKTAG		tag;

	run_locktag(&tag, dataset_id, RUN_LOCK_DATASET);
	if (LockAcquire(&tag, ExclusiveLock, session, true) != LOCKACQUIRE_NOT_AVAIL)
		return;
	run_dataset_in_use(dataset_id, bk_dataset_busy_run(dataset_id));
}

/* let go of the lock bk_take_dataset took for the session */
void
bk_release_dataset(int64 dataset_id)
{
	LOCKTAG		tag;

	run_locktag(&tag, dataset_id, RUN_LOCK_DATASET);
	LockRelease(&tag, ExclusiveLock, true);
}

/* the ready datasets that made any of the N tables RELIDS */
static int64 *
run_datasets_of(const Oid *relids, int nrels, int *n)
{
	Oid			types[1] = {OIDARRAYOID};
	Datum		values[1];
	Datum	   *elems = palloc(sizeof(Datum) * Max(nrels, 1));

	for (int i = 0; i < nrels; i++)
		elems[i] = ObjectIdGetDatum(relids[i]);
	values[0] = PointerGetDatum(construct_array(elems, nrels, OIDOID, sizeof(Oid), true,
												TYPALIGN_INT));
	return run_ids("SELECT id FROM bench.datasets WHERE status = 'ready'"
				   "   AND tables::pg_catalog.oid[] OPERATOR(pg_catalog.&&) $1 ORDER BY id",
				   1, types, values, n);
}

/*
 * bk_refuse_busy_tables
 *		bench.init replaces the N tables RELIDS: refuse at once when a run
 *		uses the dataset they belong to (dropping them would wait for the
 *		run's clients, which wait for it in turn).
 */
void
bk_refuse_busy_tables(const Oid *relids, int nrels)
{
	int			n;
	int64	   *ids;

	if (nrels == 0)
		return;
	ids = run_datasets_of(relids, nrels, &n);
	for (int i = 0; i < n; i++)
		bk_refuse_busy_dataset(ids[i]);
}

/*
 * bk_take_tables
 *		bench.init is about to drop the N tables RELIDS: hold the lock of
 *		their datasets for the transaction, so that no run uses them (or
 *		starts to) until the drop is committed.
 */
void
bk_take_tables(const Oid *relids, int nrels)
{
	int			n;
	int64	   *ids;

	if (nrels == 0)
		return;
	ids = run_datasets_of(relids, nrels, &n);
	for (int i = 0; i < n; i++)
		bk_take_dataset(ids[i], false);
}

/* a run marked aborted that ran against a target: its target and role */
typedef struct RecoverTarget
{
	int64		id;
	char	   *target;
	char	   *role;
} RecoverTarget;

/*
 * recover_targets_of
 *		Of the N runs IDS, those that ran against a target, with the target
 *		and the run's role, in the caller's memory context (SPI connected).
 */
static RecoverTarget *
recover_targets_of(const int64 *ids, int n, int *ntargets)
{
	MemoryContext cxt = CurrentMemoryContext;
	Oid			types[1] = {INT8ARRAYOID};
	Datum	   *elems = palloc(sizeof(Datum) * n);
	Datum		values[1];
	RecoverTarget *t;

	for (int i = 0; i < n; i++)
		elems[i] = Int64GetDatum(ids[i]);
	values[0] = PointerGetDatum(construct_array(elems, n, INT8OID, 8, FLOAT8PASSBYVAL,
												TYPALIGN_DOUBLE));
	if (SPI_execute_with_args(psprintf("SELECT id, target, created_by::pg_catalog.text FROM %s"
									   " WHERE id = ANY ($1) AND target IS NOT NULL ORDER BY id",
									   bk_runs_table()),
							  1, types, values, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the targets of abandoned runs");
	*ntargets = (int) SPI_processed;
	t = MemoryContextAlloc(cxt, sizeof(RecoverTarget) * Max(*ntargets, 1));
	for (int i = 0; i < *ntargets; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		MemoryContext old = MemoryContextSwitchTo(cxt);

		t[i].id = DatumGetInt64(SPI_getbinval(tup, desc, 1, &isnull));
		t[i].target = SPI_getvalue(tup, desc, 2);
		t[i].role = SPI_getvalue(tup, desc, 3);
		MemoryContextSwitchTo(old);
	}
	return t;
}

/*
 * recover_terminate
 *		Terminate, over a connection to TARGET_NAME as ROLEID, that role's
 *		sessions of run RUN_ID; how many, as text.
 */
static char *
recover_terminate(int64 run_id, const char *target_name, Oid roleid)
{
	char		appname[NAMEDATALEN];
	char		mine[NAMEDATALEN];
	char		workers[NAMEDATALEN + 16];
	const char *values[2] = {mine, workers};
	BkTarget   *target;
	PGconn	   *conn;
	char	   *volatile n = NULL;

	snprintf(appname, sizeof(appname), "pgbenchkit recovery of run %lld", (long long) run_id);
	snprintf(mine, sizeof(mine), "pgbenchkit run %lld", (long long) run_id);
	snprintf(workers, sizeof(workers), "pgbenchkit run %lld worker %%", (long long) run_id);
	target = bk_target_open(target_name, roleid, appname);
	conn = bk_target_open_conn(target);
	PG_TRY();
	{
		n = bk_target_value(conn, target_name, "the run's sessions",
							"SELECT count(pg_catalog.pg_terminate_backend(pid))"
							"  FROM pg_catalog.pg_stat_activity"
							" WHERE pid <> pg_catalog.pg_backend_pid()"
							"   AND usename = current_user"
							"   AND (application_name = $1 OR application_name LIKE $2)",
							2, NULL, values);
	}
	PG_FINALLY();
	{
		bk_target_close_conn(target, conn);
	}
	PG_END_TRY();
	return n;
}

/*
 * recover_target_sessions
 *		Run RUN_ID, recorded as aborted just now, ran against a target: the
 *		sessions its workers left there (their queries run on until the
 *		target notices that the driver is gone, which a target before
 *		PostgreSQL 14 does only when it next writes to them) are terminated,
 *		over a connection as the run's role, by the application names the
 *		run gave them.  Only that role's own sessions: it may terminate
 *		those.  A target that cannot be reached leaves a line in the log.
 */
static void
recover_target_sessions(int64 run_id, const char *target_name, const char *role_name)
{
	MemoryContext oldcxt = CurrentMemoryContext;
	ResourceOwner oldowner = CurrentResourceOwner;
	Oid			roleid = get_role_oid(role_name, true);

	if (!OidIsValid(roleid))
		return;
	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(oldcxt);
	PG_TRY();
	{
		char	   *n = recover_terminate(run_id, target_name, roleid);

		int			count = n != NULL ? atoi(n) : 0;

		if (count > 0)
			ereport(LOG,
					(errmsg_plural("terminated %d session that run %lld left on target \"%s\"",
								   "terminated %d sessions that run %lld left on target \"%s\"",
								   count, count, (long long) run_id, target_name)));
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcxt);
		CurrentResourceOwner = oldowner;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(oldcxt);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcxt);
		CurrentResourceOwner = oldowner;
		ereport(LOG,
				(errmsg("could not end the sessions that run %lld left on target \"%s\": %s",
						(long long) run_id, target_name, edata->message)));
		FreeErrorData(edata);
	}
	PG_END_TRY();
}

/*
 * bk_recover_runs
 *		Runs left 'running' by a coordinator that no longer exists (a crash,
 *		an immediate shutdown, a restart) become 'aborted', with what their
 *		progress rows say was measured (bench._run_aborted: transactions,
 *		throughput, latencies after the warm-up) and the latency histogram
 *		merged from them.  Suites left 'running' by a worker that no longer
 *		holds their lock become 'aborted'.
 *
 * With the SQL of 0.1.0 (a newer library before ALTER EXTENSION UPDATE),
 * which has neither bench._run_aborted nor the progress rows' histograms,
 * the runs get the counts of their progress rows, as 0.1.0 gave them.
 */
void
bk_recover_runs(void)
{
	BkOwnerSwitch sw;
	int			n;
	int64	   *ids;
	int			ndead = 0;
	int64	   *suites;
	int			nsuites;
	int			nsuites_dead = 0;
	int			nmarked = 0;
	RecoverTarget *targets = NULL;
	int			ntargets = 0;
	const char *runs;

	/* the tables, not the views over them, which show the dead as aborted */
	bk_become_owner(&sw);
	runs = bk_runs_table();
	ids = run_ids(psprintf("SELECT id FROM %s WHERE status = 'running' ORDER BY id", runs),
				  0, NULL, NULL, &n);
	for (int i = 0; i < n; i++)
		if (!bk_run_alive(ids[i]))
			ids[ndead++] = ids[i];
	suites = run_ids(psprintf("SELECT id FROM %s WHERE status = 'running' ORDER BY id",
							  bk_suites_table()),
					 0, NULL, NULL, &nsuites);
	for (int i = 0; i < nsuites; i++)
		if (!bk_suite_alive(suites[i]))
			suites[nsuites_dead++] = suites[i];

	bk_spi_connect();
	if (ndead > 0 &&
		bk_spi_int64("SELECT count(*) FROM pg_catalog.pg_proc"
					 " WHERE proname = '_run_aborted'"
					 "   AND pronamespace = 'bench'::pg_catalog.regnamespace", 0, NULL, NULL) > 0)
	{
		for (int i = 0; i < ndead; i++)
		{
			Oid			types[1] = {INT8OID};
			Datum		values[1] = {Int64GetDatum(ids[i])};
			bool		marked;

			/* the row first: its lock makes a concurrent recovery wait, then skip */
			if (SPI_execute_with_args(psprintf("UPDATE %s r SET (status, sqlstate, error, ended_at,"
									  "   coordinator_pid, measured_s, transactions, tps,"
									  "   latency_avg_ms, latency_stddev_ms, latency_p50_ms,"
									  "   latency_p90_ms, latency_p95_ms, latency_p99_ms,"
									  "   latency_p999_ms, latency_max_ms, failures, retries,"
									  "   warmup_transactions, ignored_errors) ="
									  " (SELECT a.status, a.sqlstate, a.error, a.ended_at,"
									  "   a.coordinator_pid, a.measured_s, a.transactions, a.tps,"
									  "   a.latency_avg_ms, a.latency_stddev_ms, a.latency_p50_ms,"
									  "   a.latency_p90_ms, a.latency_p95_ms, a.latency_p99_ms,"
									  "   a.latency_p999_ms, a.latency_max_ms, a.failures, a.retries,"
									  "   a.warmup_transactions, a.ignored_errors FROM bench._run_aborted(r) a)"
									  " WHERE r.id = $1 AND r.status = 'running'", runs),
									  1, types, values, NULL, false, 0) != SPI_OK_UPDATE)
				elog(ERROR, "could not mark abandoned run %lld", (long long) ids[i]);
			marked = SPI_processed == 1;
			if (marked &&
				SPI_execute_with_args("INSERT INTO bench.histograms (run_id, lower_ms, upper_ms, count)"
									  " SELECT $1, h.lower_ms, h.upper_ms, h.count"
									  "   FROM bench._progress_histogram($1) h",
									  1, types, values, NULL, false, 0) != SPI_OK_INSERT)
				elog(ERROR, "could not write the histogram of abandoned run %lld", (long long) ids[i]);
			if (marked)
				ids[nmarked++] = ids[i];	/* marked here: its target's sessions next */
		}
	}
	else if (ndead > 0)
	{
		Oid			types[1] = {INT8ARRAYOID};
		Datum	   *elems = palloc(sizeof(Datum) * ndead);
		Datum		values[1];

		for (int i = 0; i < ndead; i++)
			elems[i] = Int64GetDatum(ids[i]);
		values[0] = PointerGetDatum(construct_array(elems, ndead, INT8OID, 8, FLOAT8PASSBYVAL,
													TYPALIGN_DOUBLE));
		if (SPI_execute_with_args(psprintf("UPDATE %s r SET status = 'aborted', sqlstate = '57P01',"
								  "   error = 'the run''s coordinator ended before the run finished (server restart, crash or termination)',"
								  "   ended_at = COALESCE(p.last_end, r.started_at),"
								  "   coordinator_pid = NULL,"
								  "   measured_s = p.measured_s, transactions = p.xacts,"
								  "   tps = CASE WHEN p.measured_s > 0 THEN p.xacts / p.measured_s END,"
								  "   warmup_transactions = p.warmup_xacts,"
								  "   failures = p.failures"
								  "  FROM (SELECT r2.id,"
								  "               max(q.interval_end) AS last_end,"
								  "               sum(q.transactions) FILTER (WHERE NOT q.in_warmup)::bigint AS xacts,"
								  "               sum(q.transactions) FILTER (WHERE q.in_warmup)::bigint AS warmup_xacts,"
								  "               sum(q.failures)::bigint AS failures,"
								  "               sum(EXTRACT(epoch FROM q.interval_end - q.interval_start))"
								  "                   FILTER (WHERE NOT q.in_warmup)::float8 AS measured_s"
								  "          FROM %s r2"
								  "          LEFT JOIN bench.progress q ON q.run_id = r2.id"
								  "         WHERE r2.id = ANY ($1)"
								  "         GROUP BY r2.id) p"
								  " WHERE r.id = p.id AND r.status = 'running'", runs, runs),
								  1, types, values, NULL, false, 0) != SPI_OK_UPDATE)
			elog(ERROR, "could not mark abandoned runs");
	}
	/* and suites whose worker is gone: their finished runs stay theirs */
	if (nsuites_dead > 0)
	{
		Oid			types[1] = {INT8ARRAYOID};
		Datum	   *elems = palloc(sizeof(Datum) * nsuites_dead);
		Datum		values[1];

		for (int i = 0; i < nsuites_dead; i++)
			elems[i] = Int64GetDatum(suites[i]);
		values[0] = PointerGetDatum(construct_array(elems, nsuites_dead, INT8OID, 8,
													FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
		if (SPI_execute_with_args(psprintf("UPDATE %s s SET status = 'aborted', sqlstate = '57P01',"
								  "   error = 'the suite''s worker ended before the suite finished (server restart, crash or termination)',"
								  "   ended_at = COALESCE((SELECT max(r.ended_at) FROM %s r WHERE r.suite_id = s.id),"
								  "                       s.started_at),"
								  "   worker_pid = NULL"
								  " WHERE s.id = ANY ($1) AND s.status = 'running'",
										   bk_suites_table(), runs),
								  1, types, values, NULL, false, 0) != SPI_OK_UPDATE)
			elog(ERROR, "could not mark abandoned suites");
	}
	if (nmarked > 0)
		targets = recover_targets_of(ids, nmarked, &ntargets);
	bk_spi_finish();

	/* what the runs marked here left running on their targets */
	for (int i = 0; i < ntargets; i++)
		recover_target_sessions(targets[i].id, targets[i].target, targets[i].role);
	bk_restore_user(&sw);
}
