/*-------------------------------------------------------------------------
 *
 * suite.c
 *		Suites: a workload run at several client counts, each repeated,
 *		recorded as one experiment (bench.sweep, bench.start_sweep), suites
 *		of steps (bench.ibench's bench._steps), and waiting for a suite or
 *		canceling it (bench.wait_suite, bench.cancel_suite).  The scheduled
 *		executions of sweeps are schedule.c's.
 *
 * A suite is carried out by a background worker of its own, the suite's
 * worker, so that every run of it is a transaction of its own: the suite's
 * row is committed before the first run, each run commits its results as
 * bench.run does, and the caller's session holds no snapshot during hours
 * of benchmarking.
 *
 * How the worker goes about it is suite_worker.c's; the arguments are
 * checked before anything starts (suite_spec.c); the caller waits and
 * prints as suite_caller.c says.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <signal.h>

#include "fmgr.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "utils/builtins.h"

#include "api/run.h"
#include "meta/runstate.h"
#include "api/runargs.h"
#include "api/suite_caller.h"
#include "api/suite_spec.h"
#include "api/suite_worker.h"
#include "core/pgbenchkit.h"
#include "meta/privilege.h"

PG_FUNCTION_INFO_V1(bench_sweep);
PG_FUNCTION_INFO_V1(bench_start_sweep);
PG_FUNCTION_INFO_V1(bench_sweep_spec);
PG_FUNCTION_INFO_V1(bench_wait_suite);
PG_FUNCTION_INFO_V1(bench_cancel_suite);
PG_FUNCTION_INFO_V1(bench_steps);

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

	bk_call_args(fcinfo, &bk_fn_start_sweep, v, n);
	spec = sweep_spec("bench.start_sweep", &bk_fn_start_sweep, v, n, true);
	return suite_start(fcinfo, "bench.start_sweep", spec);
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
