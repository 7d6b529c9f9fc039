/*-------------------------------------------------------------------------
 *
 * suite_caller.c
 *		The caller's side of a suite: starting the suite's worker
 *		(suite_worker.c) and waiting until the suite has its row, watching
 *		the suite, the suite's end as the caller's error, its summary.
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
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"

#include "meta/catalog.h"
#include "core/compat.h"
#include "api/run.h"
#include "meta/runstate.h"
#include "api/suite_caller.h"
#include "api/suite_worker.h"
#include "core/worker.h"

/*
 * suite_caller_cancel
 *		The caller errs or exits while it waits: cancel the suite (the
 *		worker's bench.run cancels the run in progress) and give the worker
 *		a moment to record it, so that the user's next query sees it so.
 */
void
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
 * suite_with_settings
 *		SPEC with the caller's settings its runs take from the session
 *		("settings": the price of this server, pgbenchkit.price_per_hour and
 *		pgbenchkit.currency, when set), which the suite's worker sets in its
 *		own session before the runs: a background worker starts with the
 *		server's, the database's and the role's settings only, so a SET in
 *		the caller's session would otherwise not reach the runs.
 */
static const char *
suite_with_settings(const char *spec)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {CStringGetTextDatum(spec)};
	MemoryContext cxt = CurrentMemoryContext;
	char	   *result;

	bk_spi_connect();
	if (SPI_execute_with_args("SELECT ($1::pg_catalog.jsonb OPERATOR(pg_catalog.||)"
							  "  pg_catalog.jsonb_build_object('settings', pg_catalog.jsonb_strip_nulls("
							  "    pg_catalog.jsonb_build_object("
							  "      'pgbenchkit.price_per_hour', NULLIF(pg_catalog.current_setting('pgbenchkit.price_per_hour', true), ''),"
							  "      'pgbenchkit.currency', NULLIF(pg_catalog.current_setting('pgbenchkit.currency', true), '')))))::text",
							  1, types, values, NULL, true, 1) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "could not read the settings a suite's runs take");
	result = MemoryContextStrdup(cxt, SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1));
	bk_spi_finish();
	return result;
}

/*
 * suite_launch
 *		Start the suite's worker and wait until the suite has its row.
 *		Returns the suite's segment, attached.
 */
dsm_segment *
suite_launch(const char *fn, const char *spec, BackgroundWorkerHandle **handle_out)
{
	Size		size;
	dsm_segment *seg;
	SuiteShared *sh;
	BackgroundWorkerHandle *handle;

	spec = suite_with_settings(spec);
	size = MAXALIGN(sizeof(SuiteShared)) + strlen(spec) + 1;
	seg = dsm_create(size, 0);
	sh = (SuiteShared *) dsm_segment_address(seg);

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

/*
 * Where suite_getvalue copies what it reads: outside SPI, so that it stays
 * after SPI_finish; suite_wait resets it at every round.
 */
MemoryContext suite_result_cxt = NULL;

char *
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
void
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
							"  CASE WHEN pg_catalog.jsonb_typeof(pg_catalog.to_jsonb(s) OPERATOR(pg_catalog.->) 'capacity') = 'object'"
							"   THEN pg_catalog.format('suite %s: run %s started (%s of at most %s: %s, clients %s)',"
							"    s.id, r.id,"
							"    (SELECT count(*) FROM bench.runs q WHERE q.suite_id = s.id AND q.id <= r.id),"
							"    s.runs_planned, CASE WHEN r.rate IS NULL THEN 'unthrottled probe'"
							"     ELSE pg_catalog.format('offered %s tps', round(r.rate::numeric, 1)) END, r.clients)"
							"   WHEN pg_catalog.to_jsonb(r) OPERATOR(pg_catalog.->>) 'step' IS NOT NULL"
							"   THEN pg_catalog.format('suite %s: run %s started (%s of %s: step %s, clients %s)',"
							"    s.id, r.id,"
							"    (SELECT count(*) FROM bench.runs q WHERE q.suite_id = s.id AND q.id <= r.id),"
							"    s.runs_planned, pg_catalog.to_jsonb(r) OPERATOR(pg_catalog.->>) 'step', r.clients)"
							/* a suite over several targets says each run's (not in 0.2.0's SQL) */
							"   WHEN pg_catalog.to_jsonb(s) OPERATOR(pg_catalog.->>) 'targets' IS NOT NULL"
							"   THEN pg_catalog.format('suite %s: run %s started (%s of %s: target %s, clients %s, repetition %s of %s)',"
							"    s.id, r.id,"
							"    (SELECT count(*) FROM bench.runs q WHERE q.suite_id = s.id AND q.id <= r.id),"
							"    s.runs_planned, COALESCE(pg_catalog.to_jsonb(r) OPERATOR(pg_catalog.->>) 'target', 'local'), r.clients,"
							"    (SELECT count(*) FROM bench.runs q WHERE q.suite_id = s.id AND q.id <= r.id"
							"        AND q.clients = r.clients AND (pg_catalog.to_jsonb(q) OPERATOR(pg_catalog.->>) 'target')"
							"            IS NOT DISTINCT FROM (pg_catalog.to_jsonb(r) OPERATOR(pg_catalog.->>) 'target')), s.repeat)"
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
void
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
void
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
 * The rows of bench.suite_summary of a suite ($1), in the suite's order: a
 * suite over several targets has each client count's targets in its list's
 * order.
 */
#define SUITE_SUMMARY_SQL \
	"SELECT m.* FROM bench.suite_summary m JOIN bench.suites s ON s.id = m.suite_id" \
	" WHERE m.suite_id = $1" \
	" ORDER BY m.position, pg_catalog.array_position(" \
	"   ARRAY(SELECT pg_catalog.jsonb_array_elements_text(t.a) FROM (SELECT pg_catalog.to_jsonb(s) OPERATOR(pg_catalog.->) 'targets' AS a) t" \
	"          WHERE pg_catalog.jsonb_typeof(t.a) OPERATOR(pg_catalog.=) 'array')," \
	"   pg_catalog.to_jsonb(m) OPERATOR(pg_catalog.->>) 'target')"

/*
 * suite_return_rows
 *		The rows of SQL (a query over a view, with the suite's id as $1) as
 *		the result set: those of bench.suite_summary, or of
 *		bench.capacity_results.  The view's columns must be the function's.
 */
void
suite_return_rows(FunctionCallInfo fcinfo, const char *sql, int64 suite_id)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(suite_id)};

	bk_init_materialized_srf(fcinfo);
	bk_spi_connect();
	bk_select_latest(sql, 1, types, values, 0);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		TupleDesc	desc = SPI_tuptable->tupdesc;
		Datum	   *row = palloc(sizeof(Datum) * desc->natts);
		bool	   *isnull = palloc(sizeof(bool) * desc->natts);

		if (desc->natts != rsinfo->setDesc->natts)
			elog(ERROR, "the suite's rows do not match the function's result type");
		heap_deform_tuple(SPI_tuptable->vals[i], desc, row, isnull);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, row, isnull);
	}
	bk_spi_finish();
}

/*
 * suite_return_summary
 *		The rows of bench.suite_summary of the suite, as the result set.
 */
void
suite_return_summary(FunctionCallInfo fcinfo, int64 suite_id)
{
	suite_return_rows(fcinfo, SUITE_SUMMARY_SQL, suite_id);
}

/* start a suite from its spec, wait for it, return its summary */
Datum
suite_run(FunctionCallInfo fcinfo, const char *fn, const char *spec)
{
	return suite_run_returning(fcinfo, fn, spec, SUITE_SUMMARY_SQL);
}

/*
 * suite_run_returning
 *		Start the suite SPEC, wait for it printing as it goes, raise its end
 *		unless it is done, and return the rows of RESULT_SQL (over a view,
 *		the suite's id as $1).
 */
Datum
suite_run_returning(FunctionCallInfo fcinfo, const char *fn, const char *spec, const char *result_sql)
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
	suite_return_rows(fcinfo, result_sql, w.suite_id);
	return (Datum) 0;
}

/*
 * suite_start
 *		Start the suite SPEC and return its id once its row is committed;
 *		the suite goes on without the caller.  A refusal is raised.
 */
Datum
suite_start(FunctionCallInfo fcinfo, const char *fn, const char *spec)
{
	BackgroundWorkerHandle *handle;
	dsm_segment *seg;
	SuiteShared *sh;
	int64		suite_id;
	bool		refused;

	seg = suite_launch(fn, spec, &handle);
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
