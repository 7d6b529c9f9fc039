/*-------------------------------------------------------------------------
 *
 * start_at.c
 *		at =>: a run whose measured part starts at a given instant, so that
 *		drivers given the same instant (their clocks synchronised by NTP)
 *		start together, the parts of one distributed run (part_of =>).
 *
 * The coordinator gets its clients connected and ready and the relations
 * prewarmed as for any run, then checks that it is in time: a run ready
 * after its instant fails before its row is written, so that no part
 * starts late.  It writes the row (status 'running', started_at the
 * planned instant), lets bench.start return (RUN_WAITING), waits, takes
 * the first sample shortly before the instant, waits again, and goes.  The
 * clients start the warm-up at the instant minus the warm-up, so that the
 * measured part starts at the instant itself.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "pgstat.h"
#include "storage/latch.h"
#include "utils/timestamp.h"

#include "core/clock.h"
#include "core/worker.h"
#include "runner/start_at.h"

/* the instant the clients go: the measured part's, minus the warm-up */
TimestampTz
bk_run_go_at(const RunShared *sh)
{
	return sh->start_at - sh->warmup_ns / 1000;
}

/*
 * bk_run_check_in_time
 *		A run ready after the instant its clients were to go cannot start
 *		with the other parts: 55000, before its row is written.
 */
void
bk_run_check_in_time(const RunShared *sh)
{
	TimestampTz now = GetCurrentTimestamp();
	TimestampTz go = bk_run_go_at(sh);

	if (now < go)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("the run was ready %.3f s after its instant", (now - go) / 1e6),
			 errdetail("Its clients were to start at %s%s.", timestamptz_to_str(go),
					   sh->warmup_ns > 0 ? " (at, minus the warm-up)" : ""),
			 errhint("Give at further ahead: the clients connect and the relations are prewarmed before it.")));
}

/*
 * bk_run_wait_for_start
 *		Wait, the row written and the clients ready, until LEAD_NS before
 *		the clients' instant; the first call says so to the caller of
 *		bench.start, which returns.  The wall clock's instant is turned
 *		into the monotonic clock once per call.  False, with *WHY, as soon
 *		as STOP says the run must not go (a cancel, a client's error).
 */
bool
bk_run_wait_for_start(RunShared *sh, int64 lead_ns, BkStopCheck stop, void *arg, int *why)
{
	int64		until = bk_now_ns() + (bk_run_go_at(sh) - GetCurrentTimestamp()) * 1000 - lead_ns;

	if (pg_atomic_read_u32(&sh->state) == RUN_STARTING)
	{
		pg_write_barrier();
		pg_atomic_write_u32(&sh->state, RUN_WAITING);
		bk_set_latch_of(sh->caller_pid);
		pgstat_report_activity(STATE_RUNNING, psprintf("pgbenchkit: waiting until %s",
													   timestamptz_to_str(bk_run_go_at(sh))));
	}
	for (;;)
	{
		int64		now = bk_now_ns();

		if (stop(arg, why))
			return false;
		if (now >= until)
			return true;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 Max(1L, Min(250L, (long) ((until - now + 999999) / 1000000))),
						 PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}
