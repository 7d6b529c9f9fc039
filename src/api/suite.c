/*-------------------------------------------------------------------------
 *
 * suite.c
 *		Suites: a workload run at several client counts, each repeated,
 *		recorded as one experiment (bench.sweep), and the scheduled
 *		executions of such suites (bench.run_schedule, what pg_cron calls).
 *
 * A suite is carried out by a background worker of its own, the suite's
 * worker, so that every run of it is a transaction of its own: the suite's
 * row is committed before the first run, each run commits its results as
 * bench.run does, and the caller's session holds no snapshot during hours
 * of benchmarking.  The worker:
 *
 *		1. in one transaction, refuses to start while another run or suite
 *		   is running in the database (a scheduled suite must not pile up on
 *		   a still-running one), and inserts the suite's row, 'running' or
 *		   'refused';
 *		2. calls bench.run for each step, in the suite's order, as the
 *		   calling role; the runs carry the suite's id (bk_run_suite_id);
 *		3. records how the suite ended: 'done', 'failed' (a run failed; the
 *		   suite stops there), 'canceled' (bench.cancel_suite, the caller's
 *		   cancel, or a run canceled on its own) or 'aborted' (the worker was
 *		   terminated); for a scheduled suite where a client count
 *		   regressed it then notifies channel bench_regression with the
 *		   suite's id.
 *
 * The caller (bench.sweep, bench.run_schedule) waits, prints each run's
 * start, progress and end as NOTICEs, and returns the suite's summary.  If
 * the caller is canceled or goes away, the suite is canceled: the worker
 * gets SIGINT, its bench.run cancels the run in progress, and the finished
 * runs stay in the suite.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <signal.h>

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "tcop/tcopprot.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/tuplestore.h"

#include "meta/catalog.h"
#include "core/compat.h"
#include "runner/segment.h"
#include "api/run.h"
#include "meta/runstate.h"
#include "api/runargs.h"
#include "core/worker.h"
#include "meta/workload.h"
#include "core/pgbenchkit.h"
#include "meta/privilege.h"

/* bgw_type of a suite's worker */
#define SUITE_WORKER_TYPE		"pgbenchkit suite"

PG_FUNCTION_INFO_V1(bench_sweep);
PG_FUNCTION_INFO_V1(bench_start_sweep);
PG_FUNCTION_INFO_V1(bench_sweep_spec);
PG_FUNCTION_INFO_V1(bench_schedule);
PG_FUNCTION_INFO_V1(bench_wait_suite);
PG_FUNCTION_INFO_V1(bench_cancel_suite);
PG_FUNCTION_INFO_V1(bench_run_schedule);
PG_FUNCTION_INFO_V1(bench_unschedule);
PG_FUNCTION_INFO_V1(bench_steps);

PGDLLEXPORT void bench_suite_worker_main(Datum main_arg);

#define SUITE_MAGIC				BK_SEGMENT_MAGIC('S')

#define SWEEP_MAX_CLIENT_COUNTS	1000
#define SWEEP_MAX_REPEAT		1000
#define SWEEP_MAX_RUNS			100000

/* advisory lock (classid, objid) that serializes the start of suites */
#define SUITE_LOCK_KEY1			19266	/* 0x4b42, "KB" */
#define SUITE_LOCK_KEY2			21333	/* 0x5355, "SU" */

/* SuiteShared.state */
#define SUITE_STARTING			0
#define SUITE_RUNNING			1	/* the row is committed */
#define SUITE_ENDED				2	/* the final row is committed */
#define SUITE_NOT_STARTED		3	/* failed before there was a row: error */

typedef struct SuiteShared
{
	uint32		magic;

	/* set by the caller */
	Oid			dboid;
	Oid			roleid;
	int			caller_pid;
	Size		spec_off;		/* the suite as jsonb text */

	/* set by the worker */
	int			worker_pid;
	pg_atomic_uint32 state;
	int64		suite_id;
	int			runs_planned;
	char		final_status[16];
	BkError		error;
} SuiteShared;

#define SUITE_SPEC(sh)			((char *) (sh) + (sh)->spec_off)

static volatile sig_atomic_t suite_terminated = false;

/* in the worker: the client count of each step, in the suite's order */
static int *suite_steps = NULL;

/* in the worker: the caller's search_path, which its runs use */
static char *suite_search_path = NULL;

/* in the worker: the query that runs a step (suite_step_sql) */
static char *suite_run_sql = NULL;

/* in the worker, for a suite of steps: each step's name and query */
static char **suite_step_names = NULL;
static char **suite_step_sqls = NULL;

#define STEPS_MAX				1000

/* ------------------------------------------------------------------------
 * Checking a suite's arguments
 * ------------------------------------------------------------------------
 */

/*
 * sweep_spec
 *		Check the arguments V and N of F (bench.sweep, or one of its
 *		siblings: slots as runargs.h has them) as fully as a single run's,
 *		before anything starts, and return the suite as jsonb text:
 *		workload, clients, repeat, run_order, tag and the run arguments
 *		each run gets ("args", keyed by the names of the table of run
 *		arguments).  FN names the function in messages.  NOW: the workers
 *		must be free now (a sweep about to start), rather than merely exist
 *		(a schedule).
 */
static char *
sweep_spec(const char *fn, const BkArgFunction *f, const Datum *v, const bool *n, bool now)
{
	ArrayType  *arr;
	Datum	   *elems;
	bool	   *enulls;
	int			nclients;
	int			repeat;
	int			maxclients = 0;
	char	   *run_order;
	Datum		rv[RUN_NARGS];
	bool		rn[RUN_NARGS];
	Oid			types[4 + RUN_NARGS];
	Datum		values[4 + RUN_NARGS];
	char		nulls[4 + RUN_NARGS];
	int			nparams = 0;
	StringInfoData sql;
	char	   *spec;
	MemoryContext callercxt = CurrentMemoryContext;

	if (!n[BK_RUN_SLOT(f, RA_GROUPS)])
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s does not take groups", fn),
				 errdetail("A sweep varies the number of clients; groups fix each group's."),
				 errhint("Run groups with bench.run or bench.start.")));
	bk_arg_not_null(n[BK_RUN_SLOT(f, RA_WORKLOAD)] && n[BK_RUN_SLOT(f, RA_SCRIPT)], fn, "workload");
	bk_arg_not_null(n[SWEEP_CLIENTS], fn, "clients");
	bk_arg_not_null(n[SWEEP_REPEAT], fn, "repeat");
	bk_arg_not_null(n[SWEEP_RUN_ORDER], fn, "run_order");

	/* clients: a non-empty list of distinct counts, each as bench.run takes */
	arr = DatumGetArrayTypeP(v[SWEEP_CLIENTS]);
	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("clients must be a one-dimensional array"),
				 errhint("For example clients => '{1,16,32,64}'.")));
	deconstruct_array(arr, INT4OID, sizeof(int32), true, TYPALIGN_INT,
					  &elems, &enulls, &nclients);
	if (nclients == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("clients must not be empty"),
				 errhint("Give the client counts to run, for example clients => '{1,16,32,64}'.")));
	if (nclients > SWEEP_MAX_CLIENT_COUNTS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("clients may list at most %d client counts, not %d",
						SWEEP_MAX_CLIENT_COUNTS, nclients)));
	for (int i = 0; i < nclients; i++)
	{
		int			c;

		if (enulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("clients must not contain null"),
					 errhint("Each element is a number of concurrent sessions, as pgbench -c.")));
		c = DatumGetInt32(elems[i]);
		if (c < 1 || c > RUN_MAX_CLIENTS)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("clients must be between 1 and %d, not %d", RUN_MAX_CLIENTS, c),
					 errhint("Each element is a number of concurrent sessions, as pgbench -c.")));
		for (int j = 0; j < i; j++)
			if (DatumGetInt32(elems[j]) == c)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("clients lists %d twice", c),
						 errhint("List each client count once; repeat => N runs each of them N times.")));
		maxclients = Max(maxclients, c);
	}

	repeat = DatumGetInt32(v[SWEEP_REPEAT]);
	if (repeat < 1 || repeat > SWEEP_MAX_REPEAT)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("repeat must be between 1 and %d, not %d", SWEEP_MAX_REPEAT, repeat),
				 errhint("repeat is how many times each client count is run; the summary takes the median.")));
	if ((int64) repeat * nclients > SWEEP_MAX_RUNS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a suite may have at most %d runs, not %lld",
						SWEEP_MAX_RUNS, (long long) repeat * nclients)));

	run_order = TextDatumGetCString(v[SWEEP_RUN_ORDER]);
	if (strcmp(run_order, "interleaved") != 0 && strcmp(run_order, "blocks") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown run_order \"%s\"", run_order),
				 errhint("Use \"interleaved\" (every client count once, then again: drift spreads over all of them) or \"blocks\" (all repeats of one client count, then the next).")));

	/* the run arguments, checked as bench.run checks them, at the largest count */
	for (int ra = 0; ra < RUN_NARGS; ra++)
	{
		rv[ra] = v[BK_RUN_SLOT(f, ra)];
		rn[ra] = n[BK_RUN_SLOT(f, ra)];
	}
	rv[RA_CLIENTS] = Int32GetDatum(maxclients);
	rn[RA_CLIENTS] = false;
	bk_run_check_argv(fn, rv, rn, now ? 1 : -1);

	/*
	 * The suite as jsonb, built by the server's own jsonb functions: every
	 * run argument but workload, clients and tag goes into "args".
	 */
#define SPEC_PARAM(type_, value_, null_) \
	(types[nparams] = (type_), values[nparams] = (null_) ? (Datum) 0 : (value_), \
	 nulls[nparams] = (null_) ? 'n' : ' ', ++nparams)
	SPEC_PARAM(TEXTOID, rn[RA_WORKLOAD] ? CStringGetTextDatum(BK_UNNAMED_WORKLOAD) : rv[RA_WORKLOAD],
			   false);
	SPEC_PARAM(INT4ARRAYOID, v[SWEEP_CLIENTS], false);
	SPEC_PARAM(INT4OID, v[SWEEP_REPEAT], false);
	SPEC_PARAM(TEXTOID, v[SWEEP_RUN_ORDER], false);
	SPEC_PARAM(TEXTOID, rv[RA_TAG], rn[RA_TAG]);
	/* the caller's (read here: in the SPI session below it is pinned) */
	SPEC_PARAM(TEXTOID, CStringGetTextDatum(GetConfigOption("search_path", false, false)), false);
	initStringInfo(&sql);
	appendStringInfoString(&sql,
						   "SELECT pg_catalog.jsonb_build_object("
						   "  'workload', $1, 'clients', pg_catalog.to_jsonb($2),"
						   "  'repeat', $3, 'run_order', $4, 'tag', $5,"
						   "  'search_path', $6,"
						   "  'args', pg_catalog.jsonb_build_object(");
	for (int ra = 0, first = 1; ra < RUN_NARGS; ra++)
	{
		if (ra == RA_WORKLOAD || ra == RA_CLIENTS || ra == RA_TAG)
			continue;
		SPEC_PARAM(bk_run_args[ra].type, rv[ra], rn[ra]);
		appendStringInfo(&sql, "%s%s, $%d", first ? "" : ", ",
						 quote_literal_cstr(bk_run_args[ra].name), nparams);
		first = 0;
	}
#undef SPEC_PARAM
	appendStringInfoString(&sql, "))::text");

	bk_spi_connect();
	if (SPI_execute_with_args(sql.data, nparams, types, values, nulls, true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not build the suite's arguments");
	spec = MemoryContextStrdup(callercxt,
							   SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1));
	bk_spi_finish();
	return spec;
}

/* ------------------------------------------------------------------------
 * The caller's side
 * ------------------------------------------------------------------------
 */

/*
 * suite_caller_cancel
 *		The caller errs or exits while it waits: cancel the suite (the
 *		worker's bench.run cancels the run in progress) and give the worker
 *		a moment to record it, so that the user's next query sees it so.
 */
static void
suite_caller_cancel(int code, Datum arg)
{
	SuiteShared *sh = (SuiteShared *) DatumGetPointer(arg);

	if (!bk_postmaster_alive())
		return;
	if (sh->worker_pid > 0)
		(void) kill(sh->worker_pid, SIGINT);
	for (int i = 0; i < 1000; i++)
	{
		uint32		state = pg_atomic_read_u32(&sh->state);

		if (state == SUITE_ENDED || state == SUITE_NOT_STARTED)
			break;
		if (sh->worker_pid > 0 && kill(sh->worker_pid, 0) != 0)
			break;
		pg_usleep(10000L);
	}
}

static bool
suite_started(void *arg)
{
	return pg_atomic_read_u32(&((SuiteShared *) arg)->state) != SUITE_STARTING;
}

/* the suite's worker, started by suite_launch */
static const BkLaunch suite_worker_launch = {
	.type = SUITE_WORKER_TYPE,
	.function = "bench_suite_worker_main",
	.what = "the suite's worker",
	.ready = suite_started,
	.cancel = suite_caller_cancel,
	.interval_ms = 100,
	.stopped = "the suite's worker stopped before the suite started",
	.stopped_hint = "It could not start or was terminated; the server log says more.",
};

/*
 * suite_launch
 *		Start the suite's worker and wait until the suite has its row.
 *		Returns the suite's segment, attached.
 */
static dsm_segment *
suite_launch(const char *fn, const char *spec, BackgroundWorkerHandle **handle_out)
{
	Size		size = MAXALIGN(sizeof(SuiteShared)) + strlen(spec) + 1;
	dsm_segment *seg = dsm_create(size, 0);
	SuiteShared *sh = (SuiteShared *) dsm_segment_address(seg);
	BackgroundWorkerHandle *handle;

	memset(sh, 0, size);
	sh->magic = SUITE_MAGIC;
	sh->dboid = MyDatabaseId;
	sh->roleid = GetUserId();
	sh->caller_pid = MyProcPid;
	sh->spec_off = MAXALIGN(sizeof(SuiteShared));
	strcpy(SUITE_SPEC(sh), spec);
	pg_atomic_init_u32(&sh->state, SUITE_STARTING);

	/* the runs' workers were counted by bk_run_check_argv */
	handle = bk_launch(&suite_worker_launch, seg, sh, NULL, 0);

	if (pg_atomic_read_u32(&sh->state) == SUITE_NOT_STARTED)
	{
		pg_read_barrier();
		bk_error_raise(&sh->error);
	}
	*handle_out = handle;
	return seg;
}

/* the waiting caller's view of a suite, read afresh */
typedef struct SuiteWatch
{
	int64		suite_id;
	int64		run_id;			/* the run last announced */
	bool		run_ended;		/* and whether its end was announced */
	double		printed_elapsed;	/* its progress printed so far */
	char	   *status;
	int			runs_planned;
	int			runs_done;
	char	   *error;
	char	   *sqlstate;
	char	   *created_by;
	int			worker_pid;
} SuiteWatch;

/*
 * Where suite_getvalue copies what it reads: outside SPI, so that it stays
 * after SPI_finish; suite_wait resets it at every round.
 */
static MemoryContext suite_result_cxt = NULL;

static char *
suite_getvalue(int row, int col)
{
	char	   *s = SPI_getvalue(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, col);

	Assert(suite_result_cxt != NULL);
	return s ? MemoryContextStrdup(suite_result_cxt, s) : NULL;
}

/*
 * suite_read
 *		The suite's row (an error if there is none).
 */
static void
suite_read(SuiteWatch *w)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(w->suite_id)};

	bk_spi_connect();
	bk_select_latest("SELECT s.status, s.runs_planned,"
						"       (SELECT count(*) FROM bench.runs r"
						"         WHERE r.suite_id = s.id AND r.status = 'done')::integer,"
						"       s.error, s.sqlstate, s.created_by, s.worker_pid"
						"  FROM bench.suites s WHERE s.id = $1",
						1, types, values, 0);
	if (SPI_processed != 1)
	{
		bk_spi_finish();
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("suite %lld does not exist", (long long) w->suite_id),
				 errhint("bench.suites lists the suites.")));
	}
	w->status = suite_getvalue(0, 1);
	w->runs_planned = atoi(suite_getvalue(0, 2));
	w->runs_done = atoi(suite_getvalue(0, 3));
	w->error = suite_getvalue(0, 4);
	w->sqlstate = suite_getvalue(0, 5);
	w->created_by = suite_getvalue(0, 6);
	{
		char	   *pid = suite_getvalue(0, 7);

		w->worker_pid = pid ? atoi(pid) : 0;
	}
	bk_spi_finish();
}

/*
 * suite_print
 *		NOTICEs for what happened since the last call: a run that started
 *		(its step, client count and repetition), its progress rows, its end.
 */
static void
suite_print(SuiteWatch *w)
{
	Oid			types[2] = {INT8OID, INT8OID};
	Datum		values[2];

	bk_spi_connect();
	for (;;)
	{
		int64		next_id;
		char	   *status;

		/* the run after the one announced last, or the same one */
		values[0] = Int64GetDatum(w->suite_id);
		values[1] = Int64GetDatum(w->run_ended ? w->run_id : w->run_id - 1);
		/* a run of a suite of steps says its step (bench.runs.step: not in 0.1.0's SQL) */
		bk_select_latest("SELECT r.id, r.status,"
							"  CASE WHEN pg_catalog.to_jsonb(r) OPERATOR(pg_catalog.->>) 'step' IS NOT NULL"
							"   THEN pg_catalog.format('suite %s: run %s started (%s of %s: step %s, clients %s)',"
							"    s.id, r.id,"
							"    (SELECT count(*) FROM bench.runs q WHERE q.suite_id = s.id AND q.id <= r.id),"
							"    s.runs_planned, pg_catalog.to_jsonb(r) OPERATOR(pg_catalog.->>) 'step', r.clients)"
							"   ELSE pg_catalog.format('suite %s: run %s started (%s of %s: clients %s, repetition %s of %s)',"
							"    s.id, r.id,"
							"    (SELECT count(*) FROM bench.runs q WHERE q.suite_id = s.id AND q.id <= r.id),"
							"    s.runs_planned, r.clients,"
							"    (SELECT count(*) FROM bench.runs q WHERE q.suite_id = s.id AND q.id <= r.id"
							"        AND q.clients = r.clients), s.repeat) END,"
							"  CASE WHEN r.status = 'done' AND COALESCE(r.transactions, 0) = 0"
							"   THEN pg_catalog.format('suite %s: run %s done: 0 tps, latency average n/a (no transaction)',"
							"    s.id, r.id)"
							"   WHEN r.status = 'done'"
							"   THEN pg_catalog.format('suite %s: run %s done: %s tps, latency average %s ms, p99 %s ms',"
							"    s.id, r.id, round(r.tps::numeric, 1),"
							"    round(r.latency_avg_ms::numeric, 3), round(r.latency_p99_ms::numeric, 3))"
							"   ELSE pg_catalog.format('suite %s: run %s %s: %s', s.id, r.id, r.status, r.error) END"
							"  FROM bench.runs r JOIN bench.suites s ON s.id = r.suite_id"
							" WHERE r.suite_id = $1 AND r.id > $2 ORDER BY r.id LIMIT 1",
							2, types, values, 0);
		if (SPI_processed == 0)
			break;
		next_id = pg_strtoint64(SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1));
		status = suite_getvalue(0, 2);
		if (next_id != w->run_id)
		{
			ereport(NOTICE, (errmsg_internal("%s", suite_getvalue(0, 3))));
			w->run_id = next_id;
			w->run_ended = false;
			w->printed_elapsed = -1;
		}

		/* its progress rows not printed yet, then its end */
		{
			char	   *ended_line = suite_getvalue(0, 4);

			bk_print_progress(w->run_id, &w->printed_elapsed);
			if (strcmp(status, "running") == 0)
				break;
			ereport(NOTICE, (errmsg_internal("%s", ended_line)));
			w->run_ended = true;
		}
	}
	bk_spi_finish();
}

/*
 * suite_wait
 *		Wait until the suite is no longer running, printing as it goes.
 *		HANDLE: the worker, when this backend started it (bench.sweep);
 *		NULL for bench.wait_suite, which watches the table only.
 */
static void
suite_wait(SuiteWatch *w, BackgroundWorkerHandle *handle)
{
	MemoryContext roundcxt = AllocSetContextCreate(CurrentMemoryContext, "pgbenchkit suite wait",
												   ALLOCSET_SMALL_SIZES);

	w->run_id = 0;
	w->run_ended = true;
	w->printed_elapsed = -1;
	suite_result_cxt = roundcxt;
	for (int round = 0;; round++)
	{
		MemoryContextReset(roundcxt);
		suite_read(w);
		suite_print(w);
		if (strcmp(w->status, "running") != 0)
			break;
		if ((handle != NULL && !bk_worker_alive(handle)) || !bk_suite_alive(w->suite_id) ||
			round % 10 == 9)
			bk_recover_runs();	/* a worker that vanished */
		bk_release_xmin();
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	/* what the last round read stays until the function returns */
	suite_result_cxt = CurrentMemoryContext;
}

/*
 * suite_raise_unless_done
 *		A suite that did not end 'done' is the caller's error, with the
 *		suite's own SQLSTATE and message.
 */
static void
suite_raise_unless_done(SuiteWatch *w)
{
	int			code;

	if (strcmp(w->status, "done") == 0)
		return;
	code = w->sqlstate && strlen(w->sqlstate) == 5
		? MAKE_SQLSTATE(w->sqlstate[0], w->sqlstate[1], w->sqlstate[2], w->sqlstate[3], w->sqlstate[4])
		: ERRCODE_INTERNAL_ERROR;
	if (strcmp(w->status, "refused") == 0)
		ereport(ERROR,
				(errcode(code),
				 errmsg("suite %lld was refused: %s", (long long) w->suite_id,
						w->error ? w->error : "it could not start"),
				 errhint("A suite starts only when no other run or suite is running in the database; bench.suites keeps the refusal.")));
	ereport(ERROR,
			(errcode(code),
			 errmsg("suite %lld %s after %d of %d runs: %s", (long long) w->suite_id,
					strcmp(w->status, "canceled") == 0 ? "was canceled" :
					strcmp(w->status, "aborted") == 0 ? "was aborted" : "failed",
					w->runs_done, w->runs_planned, w->error ? w->error : "no reason recorded"),
			 errhint("bench.suite_summary keeps the runs it finished.")));
}

/*
 * suite_return_summary
 *		The rows of bench.suite_summary of the suite, as the result set.
 */
static void
suite_return_summary(FunctionCallInfo fcinfo, int64 suite_id)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(suite_id)};

	bk_init_materialized_srf(fcinfo);
	bk_spi_connect();
	bk_select_latest("SELECT * FROM bench.suite_summary WHERE suite_id = $1 ORDER BY position",
						1, types, values, 0);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		Datum		row[32];
		bool		isnull[32];
		TupleDesc	desc = SPI_tuptable->tupdesc;

		if (desc->natts > 32 || desc->natts != rsinfo->setDesc->natts)
			elog(ERROR, "bench.suite_summary does not match the function's result type");
		heap_deform_tuple(SPI_tuptable->vals[i], desc, row, isnull);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, row, isnull);
	}
	bk_spi_finish();
}

/* start a suite from its spec, wait for it, return its summary */
static Datum
suite_run(FunctionCallInfo fcinfo, const char *fn, const char *spec)
{
	BackgroundWorkerHandle *handle;
	dsm_segment *seg = suite_launch(fn, spec, &handle);
	SuiteShared *sh = (SuiteShared *) dsm_segment_address(seg);
	SuiteWatch	w;

	memset(&w, 0, sizeof(w));
	w.suite_id = sh->suite_id;
	bk_release_xmin();
	PG_ENSURE_ERROR_CLEANUP(suite_caller_cancel, PointerGetDatum(sh));
	{
		suite_wait(&w, handle);
	}
	PG_END_ENSURE_ERROR_CLEANUP(suite_caller_cancel, PointerGetDatum(sh));
	dsm_detach(seg);

	suite_raise_unless_done(&w);
	suite_return_summary(fcinfo, w.suite_id);
	return (Datum) 0;
}

/*
 * bench_sweep
 *		SQL function bench.sweep(workload, clients, repeat, <the other run
 *		arguments>, run_order) returns setof bench.suite_summary: every
 *		client count, repeat times, as one suite; waits for it.
 */
Datum
bench_sweep(PG_FUNCTION_ARGS)
{
	Datum		v[BK_MAX_ARG_SLOTS];
	bool		n[BK_MAX_ARG_SLOTS];
	char	   *spec;

	bk_call_args(fcinfo, &bk_fn_sweep, v, n);
	spec = sweep_spec("bench.sweep", &bk_fn_sweep, v, n, true);
	return suite_run(fcinfo, "bench.sweep", spec);
}

/*
 * bench_start_sweep
 *		SQL function bench.start_sweep(...): the suite's id, once its row is
 *		committed; the suite goes on without the caller.
 */
Datum
bench_start_sweep(PG_FUNCTION_ARGS)
{
	Datum		v[BK_MAX_ARG_SLOTS];
	bool		n[BK_MAX_ARG_SLOTS];
	char	   *spec;
	BackgroundWorkerHandle *handle;
	dsm_segment *seg;
	SuiteShared *sh;
	int64		suite_id;
	bool		refused;

	bk_call_args(fcinfo, &bk_fn_start_sweep, v, n);
	spec = sweep_spec("bench.start_sweep", &bk_fn_start_sweep, v, n, true);
	seg = suite_launch("bench.start_sweep", spec, &handle);
	sh = (SuiteShared *) dsm_segment_address(seg);
	suite_id = sh->suite_id;
	refused = pg_atomic_read_u32(&sh->state) == SUITE_ENDED &&
		strcmp(sh->final_status, "refused") == 0;

	dsm_detach(seg);
	suite_result_cxt = CurrentMemoryContext;
	if (refused)
	{
		SuiteWatch	w;

		memset(&w, 0, sizeof(w));
		w.suite_id = suite_id;
		suite_read(&w);
		suite_raise_unless_done(&w);
	}
	PG_RETURN_INT64(suite_id);
}

/*
 * steps_check
 *		Check each step of the suite of steps SPEC (jsonb text) as bench.run
 *		checks its arguments, before anything starts: the arguments of step
 *		I are its "args", a run argument missing from them taking its
 *		default.  With "init" (the suite makes its dataset first), the
 *		steps' dataset is not looked for; else it is, under the spec's
 *		"search_path" (the caller's, which the runs will use: bench.ibench
 *		pins its own).
 */
static void
steps_check(const char *fn, const char *spec)
{
	Oid			types[2] = {JSONBOID, INT4OID};
	Datum		values[2];
	StringInfoData sql;
	int			nsteps;
	bool		init;
	bool		isnull;
	char	   *search_path;
	int			level;
	MemoryContext cxt = CurrentMemoryContext;

	values[0] = DirectFunctionCall1(jsonb_in, CStringGetDatum(spec));
	bk_spi_connect();
	if (SPI_execute_with_args("SELECT pg_catalog.jsonb_array_length($1 OPERATOR(pg_catalog.->) 'steps'),"
							  " $1 OPERATOR(pg_catalog.?) 'init', $1 OPERATOR(pg_catalog.->>) 'search_path'",
							  1, types, values, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read the steps");
	nsteps = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	init = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull));
	search_path = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3);
	if (search_path != NULL)
		search_path = MemoryContextStrdup(cxt, search_path);
	if (nsteps < 1 || nsteps > STEPS_MAX)
		elog(ERROR, "a suite of steps has from 1 to %d steps, not %d", STEPS_MAX, nsteps);

	/* each run argument of a step, as its type, or its default */
	MemoryContextSwitchTo(cxt);
	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT ");
	for (int ra = 0; ra < RUN_NARGS; ra++)
	{
		const BkArgDef *d = &bk_run_args[ra];

		appendStringInfo(&sql, "%sCOALESCE(a OPERATOR(pg_catalog.->>) %s, %s)::%s", ra > 0 ? ", " : "",
						 quote_literal_cstr(d->name),
						 d->default_value ? quote_literal_cstr(d->default_value) : "NULL",
						 format_type_be_qualified(d->type));
	}
	appendStringInfoString(&sql, " FROM (SELECT $1 OPERATOR(pg_catalog.->) 'steps' OPERATOR(pg_catalog.->) $2"
						   " OPERATOR(pg_catalog.->) 'args' AS a) x");
	bk_spi_finish();

	/* the caller's search_path, as the worker will set it for the runs */
	level = search_path != NULL ? bk_search_path_push(search_path) : -1;
	bk_run_check_skip_dataset = init;
	PG_TRY();
	{
		for (int i = 0; i < nsteps; i++)
		{
			Datum		rv[RUN_NARGS];
			bool		rn[RUN_NARGS];

			values[1] = Int32GetDatum(i);
			bk_spi_connect();
			if (SPI_execute_with_args(sql.data, 2, types, values, NULL, true, 1) != SPI_OK_SELECT)
				elog(ERROR, "could not read step %d", i + 1);
			for (int ra = 0; ra < RUN_NARGS; ra++)
			{
				Form_pg_attribute att = TupleDescAttr(SPI_tuptable->tupdesc, ra);
				Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, ra + 1, &rn[ra]);

				/* out of SPI's memory, which bk_spi_finish frees */
				if (rn[ra])
					rv[ra] = (Datum) 0;
				else
				{
					MemoryContext old = MemoryContextSwitchTo(cxt);

					rv[ra] = datumCopy(d, att->attbyval, att->attlen);
					MemoryContextSwitchTo(old);
				}
			}
			bk_spi_finish();
			bk_run_check_argv(fn, rv, rn, 1);
		}
	}
	PG_FINALLY();
	{
		bk_run_check_skip_dataset = false;
	}
	PG_END_TRY();
	if (level >= 0)
		bk_search_path_pop(level);
}

/*
 * bench_steps
 *		SQL function bench._steps(spec jsonb, wait boolean) returns bigint:
 *		a suite of steps (bench.ibench's), each a run of its own arguments,
 *		as the suite's worker runs them one after the other; its id, when it
 *		is done (WAIT, printing each run's start, progress and end) or once
 *		its row is committed.  SPEC: workload (the suite's name for what
 *		it runs), clients (each step's), tag, search_path, args (what the
 *		caller was asked, kept with the suite), init (bench.init's
 *		arguments, for a dataset made first) and steps, each a step name
 *		and its run arguments.
 */
Datum
bench_steps(PG_FUNCTION_ARGS)
{
	char	   *spec;
	bool		wait;
	BackgroundWorkerHandle *handle;
	dsm_segment *seg;
	SuiteShared *sh;
	SuiteWatch	w;

	bk_check_call(fcinfo, 2, "bench._steps");
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("bench._steps needs a spec and whether to wait")));
	spec = DatumGetCString(DirectFunctionCall1(jsonb_out, PG_GETARG_DATUM(0)));
	wait = PG_GETARG_BOOL(1);
	steps_check("bench.ibench", spec);

	seg = suite_launch("bench.ibench", spec, &handle);
	sh = (SuiteShared *) dsm_segment_address(seg);
	memset(&w, 0, sizeof(w));
	w.suite_id = sh->suite_id;
	suite_result_cxt = CurrentMemoryContext;
	if (wait)
	{
		bk_release_xmin();
		PG_ENSURE_ERROR_CLEANUP(suite_caller_cancel, PointerGetDatum(sh));
		{
			suite_wait(&w, handle);
		}
		PG_END_ENSURE_ERROR_CLEANUP(suite_caller_cancel, PointerGetDatum(sh));
		dsm_detach(seg);
		suite_raise_unless_done(&w);
	}
	else
	{
		bool		refused = pg_atomic_read_u32(&sh->state) == SUITE_ENDED &&
			strcmp(sh->final_status, "refused") == 0;

		dsm_detach(seg);
		if (refused)
		{
			suite_read(&w);
			suite_raise_unless_done(&w);
		}
	}
	PG_RETURN_INT64(w.suite_id);
}

/*
 * schedule_call
 *		bench._schedule(name, schedule, SPEC, baseline_runs, threshold) with
 *		the arguments V and N of bench.schedule: its row, or with SPEC NULL
 *		(the schedule's own checks only) NULL.
 */
static Datum
schedule_call(const Datum *v, const bool *n, const char *spec, bool *isnull)
{
	Oid			types[6] = {TEXTOID, TEXTOID, TEXTOID, INT4OID, FLOAT8OID, NAMEOID};
	static const int slots[5] = {SCHEDULE_NAME, SCHEDULE_SCHEDULE, -1,
	SCHEDULE_BASELINE_RUNS, SCHEDULE_THRESHOLD};
	Datum		values[6];
	char		nulls[6];
	Datum		row;
	BkOwnerSwitch sw;

	for (int i = 0; i < 5; i++)
	{
		bool		null = slots[i] < 0 ? spec == NULL : n[slots[i]];

		values[i] = null ? (Datum) 0 : slots[i] < 0 ? CStringGetTextDatum(spec) : v[slots[i]];
		nulls[i] = null ? 'n' : ' ';
	}
	/* the schedule is the calling role's */
	values[5] = DirectFunctionCall1(namein, CStringGetDatum(GetUserNameFromId(GetUserId(), false)));
	nulls[5] = ' ';

	/*
	 * As the owner of schema bench: it writes bench.schedules, reads
	 * cron.database_name (a superuser's setting) and makes pg_cron's job for
	 * the calling role, which only a superuser may do.
	 */
	bk_become_owner(&sw);
	bk_spi_connect();
	if (SPI_execute_with_args("SELECT s FROM bench._schedule($1, $2, $3::pg_catalog.jsonb, $4, $5, $6) s",
							  6, types, values, nulls, false, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not create the schedule");
	row = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, isnull);
	if (!*isnull)
		row = SPI_datumTransfer(row, false, -1);
	bk_spi_finish();
	bk_restore_user(&sw);
	return row;
}

/*
 * bench_schedule
 *		SQL function bench.schedule(name, schedule, workload, clients,
 *		repeat, <the other run arguments but tag>, run_order,
 *		baseline_runs, threshold) returns bench.schedules: the schedule's
 *		own arguments checked by bench._schedule, then the sweep here (its
 *		workers need only exist), then the row and pg_cron's job by
 *		bench._schedule.
 */
Datum
bench_schedule(PG_FUNCTION_ARGS)
{
	Datum		v[BK_MAX_ARG_SLOTS];
	bool		n[BK_MAX_ARG_SLOTS];
	char	   *spec;
	Datum		row;
	bool		isnull;

	bk_call_args(fcinfo, &bk_fn_schedule, v, n);
	(void) schedule_call(v, n, NULL, &isnull);
	spec = sweep_spec("bench.schedule", &bk_fn_schedule, v, n, false);
	row = schedule_call(v, n, spec, &isnull);
	if (isnull)
		elog(ERROR, "bench._schedule returned no schedule");
	PG_RETURN_DATUM(row);
}

/*
 * bench_unschedule
 *		SQL function bench.unschedule(name): remove a schedule and its
 *		pg_cron job, when the calling role may (bk_may_steer of the role
 *		that made it); bench._unschedule does it as the owner of schema
 *		bench.
 */
Datum
bench_unschedule(PG_FUNCTION_ARGS)
{
	Oid			types[2] = {TEXTOID, NAMEOID};
	Datum		values[2];
	char	   *name;
	char	   *owner = NULL;
	bool		found;
	BkOwnerSwitch sw;

	bk_check_call(fcinfo, 1, "bench.unschedule");
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument \"name\" of bench.unschedule must not be null"),
				 errhint("Pass the name of a schedule, as bench.schedules lists it.")));
	name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	values[0] = PG_GETARG_DATUM(0);

	bk_become_owner(&sw);
	bk_spi_connect();
	if (SPI_execute_with_args("SELECT created_by FROM bench.schedules WHERE name = $1",
							  1, types, values, NULL, false, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read bench.schedules");
	found = SPI_processed == 1;
	if (found)
	{
		char	   *o = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);

		owner = o ? MemoryContextStrdup(TopTransactionContext, o) : NULL;
	}
	bk_spi_finish();
	bk_restore_user(&sw);
	if (!found)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("schedule \"%s\" does not exist", name),
				 errhint("bench.schedules lists the schedules.")));
	if (!bk_may_steer(owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to unschedule schedule \"%s\"", name),
				 errdetail("Only the role that made it, members of %s and superusers may remove it.",
						   BK_ADMIN_ROLE)));

	/* the row, if it is still that role's, and pg_cron's job */
	values[1] = DirectFunctionCall1(namein, CStringGetDatum(owner ? owner : ""));
	bk_become_owner(&sw);
	bk_spi_connect();
	if (SPI_execute_with_args("SELECT bench._unschedule($1, $2)",
							  2, types, values, NULL, false, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not remove the schedule");
	bk_spi_finish();
	bk_restore_user(&sw);
	PG_RETURN_BOOL(true);
}

/*
 * bench_sweep_spec
 *		SQL function bench._sweep_spec(<bench.sweep's arguments>): the
 *		checked arguments of a sweep that is to run later, as jsonb; its
 *		workers need only exist.  (The bench.schedule of 0.1.0 calls it.)
 */
Datum
bench_sweep_spec(PG_FUNCTION_ARGS)
{
	Datum		v[BK_MAX_ARG_SLOTS];
	bool		n[BK_MAX_ARG_SLOTS];
	char	   *spec;

	bk_call_args(fcinfo, &bk_fn_sweep_spec, v, n);
	spec = sweep_spec("bench.schedule", &bk_fn_sweep, v, n, false);
	PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(spec)));
}

#define SUITE_ID_NOT_NULL(fn) \
	do { \
		if (PG_ARGISNULL(0)) \
			ereport(ERROR, \
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), \
					 errmsg("argument \"suite_id\" of %s must not be null", fn), \
					 errhint("Pass the id of a suite, as bench.start_sweep returned it or bench.suites lists it."))); \
	} while (0)

/*
 * bench_wait_suite
 *		SQL function bench.wait_suite(suite_id): wait until the suite is no
 *		longer running and return its summary; a suite that did not end
 *		'done' gets a NOTICE saying how it ended.  Canceling the wait does
 *		not cancel the suite.
 */
Datum
bench_wait_suite(PG_FUNCTION_ARGS)
{
	SuiteWatch	w;

	bk_check_call(fcinfo, 1, "bench.wait_suite");
	SUITE_ID_NOT_NULL("bench.wait_suite");
	suite_result_cxt = CurrentMemoryContext;
	memset(&w, 0, sizeof(w));
	w.suite_id = PG_GETARG_INT64(0);
	bk_run_check_caller("bench.wait_suite");
	bk_recover_runs();
	bk_release_xmin();
	suite_wait(&w, NULL);
	/* as bench.wait: how it ended is said, not raised (what it marked stays) */
	if (strcmp(w.status, "done") != 0)
		ereport(NOTICE,
				(errmsg("suite %lld ended %s after %d of %d runs: %s", (long long) w.suite_id,
						w.status, w.runs_done, w.runs_planned, w.error ? w.error : "no reason recorded")));
	suite_return_summary(fcinfo, w.suite_id);
	return (Datum) 0;
}

/*
 * bench_cancel_suite
 *		SQL function bench.cancel_suite(suite_id): cancel the run in
 *		progress and the runs not started; the finished ones stay.  False
 *		when the suite was not running.
 */
Datum
bench_cancel_suite(PG_FUNCTION_ARGS)
{
	SuiteWatch	w;

	bk_check_call(fcinfo, 1, "bench.cancel_suite");
	SUITE_ID_NOT_NULL("bench.cancel_suite");
	suite_result_cxt = CurrentMemoryContext;
	memset(&w, 0, sizeof(w));
	w.suite_id = PG_GETARG_INT64(0);
	bk_recover_runs();
	suite_read(&w);
	if (strcmp(w.status, "running") != 0)
	{
		ereport(NOTICE,
				(errmsg("suite %lld is not running (its status is %s)",
						(long long) w.suite_id, w.status)));
		PG_RETURN_BOOL(false);
	}
	if (!bk_may_steer(w.created_by))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to cancel suite %lld", (long long) w.suite_id),
				 errdetail("Only roles with the privileges of the role that started it (%s), members of %s and superusers can cancel it.",
						   w.created_by, BK_ADMIN_ROLE)));
	if (w.worker_pid <= 0 || kill(w.worker_pid, SIGINT) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("could not signal the worker of suite %lld", (long long) w.suite_id),
				 errhint("If the server restarted, the next call marks the suite as aborted.")));
	for (int i = 0; i < 1000; i++)
	{
		suite_read(&w);
		if (strcmp(w.status, "running") != 0)
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 10L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	PG_RETURN_BOOL(true);
}

/*
 * bench_run_schedule
 *		SQL function bench.run_schedule(name): one execution of a schedule,
 *		what its pg_cron job calls.  A suite tagged with the schedule's
 *		name; refused while anything else runs; an error unless it ends
 *		'done', so that cron.job_run_details says 'failed' with the reason.
 */
Datum
bench_run_schedule(PG_FUNCTION_ARGS)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1];
	char	   *name;
	char	   *spec = NULL;
	char	   *owner = NULL;
	BkOwnerSwitch sw;

	bk_check_call(fcinfo, 1, "bench.run_schedule");
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument \"name\" of bench.run_schedule must not be null"),
				 errhint("Pass the name of a schedule, as bench.schedules lists it.")));
	values[0] = PG_GETARG_DATUM(0);
	name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	suite_result_cxt = CurrentMemoryContext;
	bk_run_check_caller("bench.run_schedule");

	/* the schedule, whoever made it: then whether this role may run it */
	bk_become_owner(&sw);
	bk_spi_connect();
	bk_select_latest("SELECT pg_catalog.jsonb_build_object("
						"  'workload', workload, 'clients', pg_catalog.to_jsonb(clients),"
						"  'repeat', repeat, 'run_order', run_order, 'tag', NULL,"
						"  'search_path', search_path,"
						"  'schedule', name, 'args', args)::text, created_by"
						"  FROM bench.schedules WHERE name = $1",
						1, types, values, 0);
	if (SPI_processed == 1)
	{
		spec = suite_getvalue(0, 1);
		owner = suite_getvalue(0, 2);
	}
	bk_spi_finish();
	bk_restore_user(&sw);
	if (spec == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("schedule \"%s\" does not exist", bk_shown(name)),
				 errhint("bench.schedules lists the schedules; bench.schedule creates one.")));
	if (!bk_may_steer(owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to run schedule \"%s\"", bk_shown(name)),
				 errdetail("A schedule's executions are its baseline: only the role that made it, members of %s and superusers may run it.",
						   BK_ADMIN_ROLE)));
	return suite_run(fcinfo, "bench.run_schedule", spec);
}

/* ------------------------------------------------------------------------
 * The suite's worker
 * ------------------------------------------------------------------------
 */

/*
 * SIGTERM (pg_terminate_backend, server shutdown): stop as a cancel does,
 * so that the run in progress is canceled and the suite is recorded as
 * 'aborted' before the worker exits.
 */
static void
suite_sigterm(SIGNAL_ARGS)
{
	int			save_errno = errno;

	suite_terminated = true;
	InterruptPending = true;
	QueryCancelPending = true;
	SetLatch(MyLatch);
	errno = save_errno;
}

/* begin and end a transaction of the worker, with SPI and a snapshot */
static void
suite_xact_begin(const char *activity)
{
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	bk_spi_connect();
	PushActiveSnapshot(GetTransactionSnapshot());
	pgstat_report_activity(STATE_RUNNING, activity);
}

static void
suite_xact_end(void)
{
	PopActiveSnapshot();
	bk_spi_finish();
	CommitTransactionCommand();
	pgstat_report_stat(true);
	pgstat_report_activity(STATE_IDLE, NULL);
}

/*
 * suite_append_run_args
 *		Append to SQL, a call of bench.run being written, ", name => value"
 *		for each run argument the jsonb ARGS (an expression over bench.suites
 *		s, the row of SUITE_ID) has, read as its type; an argument at its
 *		default is left to bench.run's default, so that the SQL of an older
 *		version, whose bench.run lacks the newer arguments, still runs the
 *		suites that do not use them.  A sweep's args (STEP < 0) leave
 *		workload and clients to the sweep; a step's args (step STEP of a
 *		suite of steps) hold them.  tag is always the suite's.
 */
static void
suite_append_run_args(StringInfo sql, int64 suite_id, const char *args, int step)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(suite_id)};
	char	   *what = step < 0 ? psprintf("suite %lld", (long long) suite_id) :
		psprintf("step %d of suite %lld", step + 1, (long long) suite_id);

	if (SPI_execute_with_args(psprintf("SELECT a.key, a.value FROM bench.suites s,"
									   " pg_catalog.jsonb_each_text(%s) a"
									   " WHERE s.id = $1 ORDER BY a.key", args),
							  1, types, values, NULL, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the run arguments of %s", what);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		char	   *key = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);
		char	   *value = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2);
		int			ra = -1;

		for (int j = 0; j < RUN_NARGS; j++)
			if (strcmp(bk_run_args[j].name, key) == 0 && j != RA_TAG &&
				(step >= 0 || (j != RA_WORKLOAD && j != RA_CLIENTS)))
				ra = j;
		if (ra < 0)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("%s has a run argument \"%s\" that the pgbenchkit library of version %s does not know",
							what, key, BK_VERSION)));
		if (value == NULL ? bk_run_args[ra].default_value == NULL :
			(bk_run_args[ra].default_value != NULL &&
			 strcmp(value, bk_run_args[ra].default_value) == 0))
			continue;
		appendStringInfo(sql, ", %s => (%s OPERATOR(pg_catalog.->>) %s)::%s",
						 quote_identifier(key), args, quote_literal_cstr(key),
						 format_type_be_qualified(bk_run_args[ra].type));
	}
}

/*
 * suite_steps_sql
 *		For a suite of steps: each step's name and the query that runs it,
 *		bench.run with the run arguments of the step ("args" of its element
 *		of bench.suites.steps; one at its default left to bench.run's) and
 *		the suite's tag.  In the worker's first transaction.
 */
static void
suite_steps_sql(SuiteShared *sh)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(sh->suite_id)};
	SPITupleTable *steps;

	if (SPI_execute_with_args("SELECT e.s OPERATOR(pg_catalog.->>) 'step'"
							  "  FROM bench.suites s,"
							  "       pg_catalog.jsonb_array_elements(s.steps) WITH ORDINALITY AS e(s, i)"
							  " WHERE s.id = $1 ORDER BY e.i",
							  1, types, values, NULL, false, 0) != SPI_OK_SELECT ||
		SPI_processed != (uint64) sh->runs_planned)
		elog(ERROR, "could not read the steps of suite %lld", (long long) sh->suite_id);
	steps = SPI_tuptable;
	suite_step_names = MemoryContextAllocZero(TopMemoryContext, sizeof(char *) * sh->runs_planned);
	suite_step_sqls = MemoryContextAllocZero(TopMemoryContext, sizeof(char *) * sh->runs_planned);
	for (int i = 0; i < sh->runs_planned; i++)
	{
		StringInfoData sql;

		suite_step_names[i] = MemoryContextStrdup(TopMemoryContext,
												  SPI_getvalue(steps->vals[i], steps->tupdesc, 1));
		initStringInfo(&sql);
		appendStringInfoString(&sql, "SELECT (bench.run(tag => COALESCE(s.tag, s.schedule)");
		suite_append_run_args(&sql, sh->suite_id,
							  psprintf("(s.steps OPERATOR(pg_catalog.->) %d OPERATOR(pg_catalog.->) 'args')", i),
							  i);
		appendStringInfoString(&sql, ")).id FROM bench.suites s WHERE s.id OPERATOR(pg_catalog.=) $1");
		suite_step_sqls[i] = MemoryContextStrdup(TopMemoryContext, sql.data);
	}
}

/*
 * suite_init
 *		A suite of steps whose spec has "init": its dataset made first, by
 *		bench.init as the calling role, with the caller's search_path.
 */
static void
suite_init(SuiteShared *sh)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {CStringGetTextDatum(SUITE_SPEC(sh))};
	bool		isnull;
	bool		init;
	int			level;

	suite_xact_begin("pgbenchkit: making a suite's dataset");
	if (SPI_execute_with_args("SELECT $1::pg_catalog.jsonb OPERATOR(pg_catalog.?) 'init'",
							  1, types, values, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read the suite");
	init = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	if (init)
	{
		level = bk_search_path_push(suite_search_path);
		if (SPI_execute_with_args("SELECT (bench.init(i OPERATOR(pg_catalog.->>) 'workload',"
								  "   tables => (i OPERATOR(pg_catalog.->>) 'tables')::integer,"
								  "   target => i OPERATOR(pg_catalog.->>) 'target',"
								  "   force => true)).workload"
								  "  FROM (SELECT $1::pg_catalog.jsonb OPERATOR(pg_catalog.->) 'init' AS i) x",
								  1, types, values, NULL, false, 1) != SPI_OK_SELECT)
			elog(ERROR, "could not make the dataset of suite %lld", (long long) sh->suite_id);
		bk_search_path_pop(level);
	}
	suite_xact_end();
}

/*
 * suite_begin
 *		The suite's row: 'running', or 'refused' when another run or suite
 *		is running in the database.  Starts of suites are serialized by an
 *		advisory lock, so that two scheduled at the same minute cannot both
 *		pass the check.  Returns false when refused.
 */
static bool
suite_begin(SuiteShared *sh, int **clients)
{
	Oid			types[4] = {TEXTOID, TEXTOID, TEXTOID, INT4OID};
	Datum		values[4];
	char		nulls[4] = {' ', ' ', ' ', ' '};
	char	   *busy = NULL;
	char	   *search_path;
	bool		isnull;
	bool		steps;
	BkOwnerSwitch sw;

	suite_xact_begin("pgbenchkit: starting a suite");
	{
		Oid			t1[1] = {TEXTOID};
		Datum		v1[1] = {CStringGetTextDatum(SUITE_SPEC(sh))};

		if (SPI_execute_with_args("SELECT $1::pg_catalog.jsonb OPERATOR(pg_catalog.?) 'steps'",
								  1, t1, v1, NULL, true, 1) != SPI_OK_SELECT)
			elog(ERROR, "could not read the suite");
		steps = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	}
	if (SPI_execute("SELECT pg_catalog.pg_advisory_xact_lock(" CppAsString2(SUITE_LOCK_KEY1) ", "
					CppAsString2(SUITE_LOCK_KEY2) ")", false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not lock the start of suites");
	/*
	 * Under the lock, the runs and suites whose process is gone are
	 * recorded as such: what still says 'running' is alive (its
	 * coordinator or worker holds its lock, runstate.c).
	 */
	bk_recover_runs();
	if (SPI_execute("SELECT * FROM ("
					" SELECT pg_catalog.format('run %s is still running', r.id), r.started_at"
					"   FROM bench.runs r WHERE r.status = 'running'"
					" UNION ALL"
					" SELECT pg_catalog.format('suite %s%s is still running', s.id,"
					"        ' (schedule ' || pg_catalog.quote_literal(s.schedule) || ')'), s.started_at"
					"   FROM bench.suites s WHERE s.status = 'running') x ORDER BY 2 LIMIT 1",
					true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not look for running suites");
	if (SPI_processed > 0)
		busy = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);

	values[0] = CStringGetTextDatum(SUITE_SPEC(sh));
	values[1] = busy ? CStringGetTextDatum(busy) : (Datum) 0;
	nulls[1] = busy ? ' ' : 'n';
	values[2] = CStringGetTextDatum(GetUserNameFromId(sh->roleid, false));
	values[3] = Int32GetDatum(MyProcPid);
	bk_become_owner(&sw);
	if (SPI_execute_with_args(psprintf("INSERT INTO %s (workload, clients, repeat, run_order,"
							  "   args, search_path, tag, schedule, runs_planned, status, sqlstate, error,"
							  "   created_by, worker_pid, ended_at%s)"
							  " SELECT j->>'workload',"
							  "        ARRAY(SELECT c::integer FROM pg_catalog.jsonb_array_elements_text(j->'clients')"
							  "                WITH ORDINALITY AS e(c, pos) ORDER BY pos),"
							  "        (j->>'repeat')::integer, j->>'run_order', j->'args',"
							  "        j->>'search_path', j->>'tag',"
							  "        j->>'schedule',"
							  "        pg_catalog.jsonb_array_length(j->'clients') * (j->>'repeat')::integer,"
							  "        CASE WHEN $2 IS NULL THEN 'running' ELSE 'refused' END,"
							  "        CASE WHEN $2 IS NULL THEN NULL ELSE '55006' END, $2, $3::name,"
							  "        CASE WHEN $2 IS NULL THEN $4 END,"
							  "        CASE WHEN $2 IS NULL THEN NULL ELSE pg_catalog.clock_timestamp() END%s"
							  "   FROM (SELECT $1::pg_catalog.jsonb AS j) x"
							  " RETURNING id, runs_planned, search_path",
							  bk_suites_table(),
							  /* steps only for a suite of steps: the SQL of 0.1.0 has none */
							  steps ? ", steps" : "", steps ? ", j->'steps'" : ""),
							  4, types, values, nulls, false, 1) != SPI_OK_INSERT_RETURNING)
		elog(ERROR, "could not record the suite");
	sh->suite_id = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	/* alive while this worker holds the suite's lock: taken before the row is seen */
	if (busy == NULL)
		bk_suite_hold(sh->suite_id);
	sh->runs_planned = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull));
	search_path = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3);
	bk_restore_user(&sw);

	/* the runs see the tables the caller saw (suite_step) */
	suite_search_path = MemoryContextStrdup(TopMemoryContext, search_path);

	/* the client count of every step, in the suite's order */
	if (busy == NULL)
	{
		Oid			t1[1] = {INT8OID};
		Datum		v1[1] = {Int64GetDatum(sh->suite_id)};

		if (SPI_execute_with_args("SELECT c.clients"
								  "  FROM bench.suites s,"
								  "       pg_catalog.unnest(s.clients) WITH ORDINALITY AS c(clients, pos),"
								  "       pg_catalog.generate_series(1, s.repeat) AS rep"
								  " WHERE s.id = $1"
								  " ORDER BY CASE s.run_order WHEN 'interleaved' THEN rep ELSE c.pos END,"
								  "          CASE s.run_order WHEN 'interleaved' THEN c.pos ELSE rep END",
								  1, t1, v1, NULL, false, 0) != SPI_OK_SELECT ||
			SPI_processed != (uint64) sh->runs_planned)
			elog(ERROR, "could not plan the suite's runs");
		*clients = MemoryContextAlloc(TopMemoryContext, sizeof(int) * sh->runs_planned);
		for (int i = 0; i < sh->runs_planned; i++)
			(*clients)[i] = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[i],
														SPI_tuptable->tupdesc, 1, &isnull));
		if (steps)
			suite_steps_sql(sh);
	}
	suite_xact_end();

	if (busy != NULL)
	{
		strlcpy(sh->final_status, "refused", sizeof(sh->final_status));
		bk_error_set(&sh->error, ERRCODE_OBJECT_IN_USE, busy, NULL);
	}
	return busy == NULL;
}

/*
 * suite_step_sql
 *		The query that runs one step of the suite: bench.run with the
 *		suite's run arguments, each one its "args" has (a suite recorded by
 *		an older version lacks the newer ones, which take bench.run's
 *		defaults), the step's client count ($2) and the suite's tag or
 *		schedule.  Made once, in the worker's first transaction.
 */
static char *
suite_step_sql(int64 suite_id)
{
	StringInfoData sql;

	initStringInfo(&sql);
	appendStringInfoString(&sql,
						   "SELECT (bench.run(clients => $2, tag => COALESCE(s.tag, s.schedule),"
						   " workload => CASE WHEN s.args OPERATOR(pg_catalog.->>) 'script' IS NULL"
						   " THEN s.workload END");
	suite_append_run_args(&sql, suite_id, "s.args", -1);
	appendStringInfoString(&sql, ")).id FROM bench.suites s WHERE s.id OPERATOR(pg_catalog.=) $1");
	return MemoryContextStrdup(TopMemoryContext, sql.data);
}

/*
 * suite_step
 *		One run of the suite, by bench.run itself as the calling role; the
 *		run's row carries the suite's id.
 */
static void
suite_step(SuiteShared *sh, int step, int clients)
{
	Oid			types[2] = {INT8OID, INT4OID};
	Datum		values[2] = {Int64GetDatum(sh->suite_id), Int32GetDatum(clients)};
	char		activity[128];
	int			level;

	snprintf(activity, sizeof(activity), "pgbenchkit: suite %lld, run %d of %d (%s%s%d clients)",
			 (long long) sh->suite_id, step + 1, sh->runs_planned,
			 suite_step_names ? suite_step_names[step] : "", suite_step_names ? ", " : "", clients);
	suite_xact_begin(activity);
	if (suite_run_sql == NULL && suite_step_sqls == NULL)
		suite_run_sql = suite_step_sql(sh->suite_id);
	bk_run_suite_id = sh->suite_id;
	bk_run_suite_step = suite_step_names ? suite_step_names[step] : NULL;
	/* bench.run as the caller would call it: with the caller's search_path */
	level = bk_search_path_push(suite_search_path);
	if (SPI_execute_with_args(suite_step_sqls ? suite_step_sqls[step] : suite_run_sql,
							  suite_step_sqls ? 1 : 2, types, values, NULL, false, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not run step %d of suite %lld", step + 1, (long long) sh->suite_id);
	bk_search_path_pop(level);
	bk_run_suite_id = 0;
	bk_run_suite_step = NULL;
	suite_xact_end();
}

/*
 * suite_finish
 *		Record how the suite ended; for a scheduled suite that is done,
 *		notify channel bench_regression if a client count fell below its
 *		baseline (bench.regressions).  The payload is the suite's id and
 *		nothing else: any role may LISTEN on any channel, so the details
 *		are read in bench.regressions, under its row level security.
 *		Cancels are held off: this is the last word on the suite.
 */
static void
suite_finish(SuiteShared *sh, const char *status)
{
	Oid			types[4] = {INT8OID, TEXTOID, TEXTOID, TEXTOID};
	Datum		values[4];
	char		nulls[4] = {' ', ' ', ' ', ' '};
	BkOwnerSwitch sw;

	HOLD_CANCEL_INTERRUPTS();
	suite_xact_begin("pgbenchkit: ending a suite");
	values[0] = Int64GetDatum(sh->suite_id);
	values[1] = CStringGetTextDatum(status);
	if (sh->error.set)
	{
		values[2] = CStringGetTextDatum(unpack_sql_state(sh->error.sqlerrcode));
		values[3] = CStringGetTextDatum(sh->error.message);
	}
	else
		nulls[2] = nulls[3] = 'n';
	bk_become_owner(&sw);
	if (SPI_execute_with_args(psprintf("UPDATE %s SET status = $2, sqlstate = $3, error = $4,"
									   "   ended_at = pg_catalog.clock_timestamp(), worker_pid = NULL"
									   " WHERE id = $1", bk_suites_table()),
							  4, types, values, nulls, false, 0) != SPI_OK_UPDATE)
		elog(ERROR, "could not record the end of suite %lld", (long long) sh->suite_id);
	bk_restore_user(&sw);
	if (strcmp(status, "done") == 0 &&
		SPI_execute_with_args("SELECT pg_catalog.pg_notify('bench_regression', $1::pg_catalog.text)"
							  " WHERE EXISTS (SELECT FROM bench.regressions WHERE suite_id = $1)",
							  1, types, values, NULL, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not check suite %lld for regressions", (long long) sh->suite_id);
	suite_xact_end();
	RESUME_CANCEL_INTERRUPTS();
}

/*
 * bench_suite_worker_main
 *		Entry point of a suite's worker.
 */
void
bench_suite_worker_main(Datum main_arg)
{
	dsm_segment *seg;
	SuiteShared *sh;
	const char *volatile status = "done";
	MemoryContext topcxt;

	pqsignal(SIGTERM, suite_sigterm);
	BackgroundWorkerUnblockSignals();
	seg = dsm_attach(DatumGetUInt32(main_arg));
	if (seg == NULL)
		return;					/* the caller is gone already */
	sh = (SuiteShared *) dsm_segment_address(seg);
	if (!bk_segment_ours(seg, SUITE_MAGIC, SUITE_WORKER_TYPE))
		return;
	sh->worker_pid = MyProcPid;
	bk_worker_connect(sh->dboid, sh->roleid, "pgbenchkit suite");
	/* a run lasts as long as it lasts: no statement_timeout of the role's */
	SetConfigOption("statement_timeout", "0", PGC_SUSET, PGC_S_OVERRIDE);

	topcxt = AllocSetContextCreate(TopMemoryContext, "pgbenchkit suite", ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(topcxt);

	/* 1. the suite's row */
	PG_TRY();
	{
		HOLD_CANCEL_INTERRUPTS();
		if (!suite_begin(sh, &suite_steps))
			status = "refused";
		RESUME_CANCEL_INTERRUPTS();
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(topcxt);
		bk_error_capture(&sh->error);
		AbortCurrentTransaction();
		pg_write_barrier();
		pg_atomic_write_u32(&sh->state, SUITE_NOT_STARTED);
		bk_set_latch_of(sh->caller_pid);
		proc_exit(0);
	}
	PG_END_TRY();
	if (strcmp(status, "refused") == 0)
	{
		pg_write_barrier();
		pg_atomic_write_u32(&sh->state, SUITE_ENDED);
		bk_set_latch_of(sh->caller_pid);
		proc_exit(0);
	}
	pg_write_barrier();
	pg_atomic_write_u32(&sh->state, SUITE_RUNNING);
	bk_set_latch_of(sh->caller_pid);

	/* 2. the runs, one transaction each */
	PG_TRY();
	{
		if (suite_step_sqls != NULL)
			suite_init(sh);
		for (int i = 0; i < sh->runs_planned; i++)
		{
			CHECK_FOR_INTERRUPTS();
			suite_step(sh, i, suite_steps[i]);
		}
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(topcxt);
		bk_run_suite_id = 0;
		bk_run_suite_step = NULL;
		bk_error_capture(&sh->error);
		AbortCurrentTransaction();
		if (suite_terminated)
		{
			status = "aborted";
			memset(&sh->error, 0, sizeof(sh->error));
			bk_error_set(&sh->error, ERRCODE_ADMIN_SHUTDOWN,
						 "the suite's worker was terminated", NULL);
		}
		else if (sh->error.sqlerrcode == ERRCODE_QUERY_CANCELED)
		{
			status = "canceled";
			if (strncmp(sh->error.message, "canceling statement", 19) == 0)
				bk_text_copy(sh->error.message,
						"the suite was canceled (bench.cancel_suite, pg_cancel_backend, or its caller was canceled)",
						sizeof(sh->error.message));
		}
		else
			status = "failed";
	}
	PG_END_TRY();

	/* 3. its end, then the suite's lock goes */
	PG_TRY();
	{
		suite_finish(sh, status);
		bk_suite_release(sh->suite_id);
		strlcpy(sh->final_status, status, sizeof(sh->final_status));
	}
	PG_CATCH();
	{
		/* the next call of a bench function marks the suite aborted */
		EmitErrorReport();
		FlushErrorState();
		AbortCurrentTransaction();
		strlcpy(sh->final_status, "aborted", sizeof(sh->final_status));
	}
	PG_END_TRY();
	pg_write_barrier();
	pg_atomic_write_u32(&sh->state, SUITE_ENDED);
	bk_set_latch_of(sh->caller_pid);
	proc_exit(0);
}
