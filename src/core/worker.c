/*-------------------------------------------------------------------------
 *
 * worker.c
 *		Launching dynamic background workers and carrying their errors.
 *
 * Every pgbenchkit worker is a dynamic background worker that connects to
 * the caller's database as the calling role, finds its instructions in a
 * dynamic shared memory segment whose handle arrives as bgw_main_arg, and
 * reports back through that segment.  Nothing here needs
 * shared_preload_libraries.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "tcop/tcopprot.h"
#include "storage/latch.h"
#include "storage/pmsignal.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "utils/elog.h"
#include "utils/memutils.h"

#include "core/compat.h"
#include "core/worker.h"

/*
 * bk_error_capture
 *		In a PG_CATCH block: copy the current error into shared memory.
 *
 * The first error wins: a later one (often a consequence of the first) does
 * not overwrite it.  The error state is flushed so that the caller can go on
 * to abort its transaction and clean up.
 */
void
bk_error_capture(BkError *dst)
{
	ErrorData  *edata;
	MemoryContext oldcxt;

	oldcxt = MemoryContextSwitchTo(TopMemoryContext);
	edata = CopyErrorData();
	FlushErrorState();
	MemoryContextSwitchTo(oldcxt);

	if (!dst->set)
		bk_error_copy(dst, edata);
	FreeErrorData(edata);
}

/*
 * bk_text_copy
 *		strlcpy for text in the database's encoding: a text longer than
 *		DST's SIZE is cut at the last whole character that fits, so that
 *		what is kept (and stored in a table) stays valid in the encoding.
 */
void
bk_text_copy(char *dst, const char *src, size_t size)
{
	size_t		len = strlen(src);

	Assert(size > 0);
	if (len >= size)
		len = pg_mbcliplen(src, (int) Min(len, (size_t) PG_INT32_MAX), (int) size - 1);
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/*
 * bk_error_copy
 *		Copy an error (CopyErrorData's) into DST, which is set last.
 */
void
bk_error_copy(BkError *dst, const ErrorData *edata)
{
	dst->sqlerrcode = edata->sqlerrcode;
	bk_text_copy(dst->message, edata->message ? edata->message : "", sizeof(dst->message));
	bk_text_copy(dst->detail, edata->detail ? edata->detail : "", sizeof(dst->detail));
	bk_text_copy(dst->hint, edata->hint ? edata->hint : "", sizeof(dst->hint));
	bk_text_copy(dst->context, edata->context ? edata->context : "", sizeof(dst->context));
	pg_memory_barrier();
	dst->set = true;
}

/*
 * bk_error_set
 *		Record an error that did not come from ereport (a worker that died).
 */
void
bk_error_set(BkError *dst, int sqlerrcode, const char *message, const char *hint)
{
	if (dst->set)
		return;
	dst->sqlerrcode = sqlerrcode;
	bk_text_copy(dst->message, message, sizeof(dst->message));
	dst->detail[0] = '\0';
	bk_text_copy(dst->hint, hint ? hint : "", sizeof(dst->hint));
	dst->context[0] = '\0';
	pg_memory_barrier();
	dst->set = true;
}

/*
 * bk_error_raise
 *		Raise a captured error again in this process, as it was.
 */
void
bk_error_raise(const BkError *err)
{
	ereport(ERROR,
			(errcode(err->sqlerrcode),
			 errmsg_internal("%s", err->message),
			 err->detail[0] ? errdetail_internal("%s", err->detail) : 0,
			 err->hint[0] ? errhint("%s", err->hint) : 0,
			 err->context[0] ? errcontext("%s", err->context) : 0));
}

/*
 * bk_register_worker
 *		Register one dynamic background worker running FUNCTION of this
 *		library; this backend is told when it starts and stops.
 *
 * Returns NULL when no background worker slot is free: bk_start_worker
 * says so.
 */
static BackgroundWorkerHandle *
bk_register_worker(const char *type, const char *function,
				   dsm_handle handle, int index)
{
	BackgroundWorker worker;
	BackgroundWorkerHandle *bgwhandle;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_ConsistentState;
	worker.bgw_restart_time = BGW_NEVER_RESTART;
	strlcpy(worker.bgw_library_name, "pgbenchkit", BGW_MAXLEN);
	strlcpy(worker.bgw_function_name, function, BGW_MAXLEN);
	snprintf(worker.bgw_name, BGW_MAXLEN, "%s %d", type, index);
	strlcpy(worker.bgw_type, type, BGW_MAXLEN);
	worker.bgw_main_arg = UInt32GetDatum(handle);
	memcpy(worker.bgw_extra, &index, sizeof(int));
	worker.bgw_notify_pid = MyProcPid;

	if (!RegisterDynamicBackgroundWorker(&worker, &bgwhandle))
		return NULL;
	return bgwhandle;
}

/*
 * bk_worker_alive
 *		True while the worker has not stopped (it may not have started yet).
 */
bool
bk_worker_alive(BackgroundWorkerHandle *handle)
{
	pid_t		pid;

	return GetBackgroundWorkerPid(handle, &pid) != BGWH_STOPPED;
}

/*
 * bk_set_latch_of
 *		Wake the backend with the given pid, if it is still there.
 */
void
bk_set_latch_of(int pid)
{
	PGPROC	   *proc;

	if (pid <= 0)
		return;
	proc = BackendPidGetProc(pid);
	if (proc != NULL)
		SetLatch(&proc->procLatch);
}

/*
 * bk_worker_attach
 *		First step of every worker: signal handling and the shared segment.
 *
 * SIGTERM (pg_terminate_backend, server shutdown) ends the worker at its
 * next CHECK_FOR_INTERRUPTS, as for a regular backend.  The segment is
 * attached outside any resource owner so it stays mapped for the life of
 * the worker.  Returns NULL when the caller has gone away before the worker
 * started: the segment no longer exists and the worker should just exit.
 */
dsm_segment *
bk_worker_attach(Datum main_arg)
{
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();

	return dsm_attach(DatumGetUInt32(main_arg));
}

/*
 * bk_segment_ours
 *		Whether the segment this worker attached has the first word MAGIC:
 *		made by a caller of this build's layout (BK_SEGMENT_MAGIC).  One of
 *		another version is left untouched, and the server log says why the
 *		worker ends at once; the caller then learns that its worker stopped.
 */
bool
bk_segment_ours(dsm_segment *seg, uint32 magic, const char *what)
{
	uint32		found = *(uint32 *) dsm_segment_address(seg);

	if (found == magic)
		return true;
	ereport(LOG,
			(errmsg("%s: the shared memory of this work was laid out by another version of the pgbenchkit library (%08x, this one reads %08x)",
					what, found, magic),
			 errhint("A new pgbenchkit library was installed while the work was starting; start it again.")));
	return false;
}

/*
 * bk_worker_index
 *		The index the worker was registered with (bk_register_worker).
 */
int
bk_worker_index(void)
{
	int			index;

	memcpy(&index, MyBgworkerEntry->bgw_extra, sizeof(int));
	return index;
}

/*
 * bk_worker_connect
 *		Connect to the caller's database as the calling role and show up in
 *		pg_stat_activity under APPNAME.
 */
void
bk_worker_connect(Oid dboid, Oid roleid, const char *appname)
{
	BackgroundWorkerInitializeConnectionByOid(dboid, roleid, BK_BGW_CONNECT_FLAGS);
	pgstat_report_appname(appname);
}

/*
 * bk_postmaster_alive
 *		Whether the postmaster is alive, asked of its pipe every time.
 *
 * PostmasterIsAlive() trusts the parent-death signal and may answer "alive"
 * for a moment after the pipe already says otherwise, which is how a
 * waiting backend learns of the death.  A worker that is about to write
 * (cleanup after a cancel that came of the death) asks here.
 */
bool
bk_postmaster_alive(void)
{
	return PostmasterIsAliveInternal();
}

/*
 * bk_wait_worker
 *		Wait in the calling backend until DONE(ARG) is true, serving
 *		interrupts (a cancel raises its error here) and calling EACH(ARG),
 *		if given, at every wake-up.  Returns false if the worker stopped
 *		before DONE became true: it was killed before it could say why, and
 *		the caller raises the error that fits.
 */
bool
bk_wait_worker(BackgroundWorkerHandle *handle, bool (*done) (void *arg),
			   void (*each) (void *arg), void *arg, long interval_ms)
{
	for (;;)
	{
		if (each)
			each(arg);
		if (done(arg))
			return true;
		if (!bk_worker_alive(handle))
		{
			/* it may have said it was done just before it stopped */
			pg_read_barrier();
			return done(arg);
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 interval_ms, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * bk_start_worker
 *		Start one worker of this library for the segment SEG, or raise 53000
 *		saying which one could not start and how many background workers
 *		the whole call (NEEDED_BY, e.g. "A run with 8 clients") needs; with
 *		NEEDED_BY NULL (a worker that is the whole call, or one whose later
 *		needs were checked before) the hint says only to make room.
 */
BackgroundWorkerHandle *
bk_start_worker(const char *type, const char *function, dsm_segment *seg, int index,
				const char *what, const char *needed_by, int64 needed)
{
	BackgroundWorkerHandle *handle;

	handle = bk_register_worker(type, function, dsm_segment_handle(seg), index);
	if (handle == NULL && needed_by == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("could not start %s: no background worker slot is free", what),
				 errhint("Raise max_worker_processes (now %d) or wait for other workers to finish.",
						 max_worker_processes)));
	if (handle == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("could not start %s: no background worker slot is free", what),
				 errhint("%s needs %lld background workers at once; raise max_worker_processes (now %d) or wait for other workers to finish.",
						 needed_by, (long long) needed, max_worker_processes)));
	return handle;
}

/*
 * bk_launch
 *		Hand a call's work to a worker and wait, serving interrupts, until
 *		LAUNCH->ready(ARG): the start-and-wait of every pgbenchkit function
 *		that works in a worker.  No free slot raises 53000 (bk_start_worker);
 *		a worker that stops before it is ready raises 57P01 with
 *		LAUNCH->stopped.  An error or exit while waiting (a cancel) calls
 *		LAUNCH->cancel, which tells the worker to stop; the worker keeps
 *		the record of what it did.
 */
BackgroundWorkerHandle *
bk_launch(const BkLaunch *launch, dsm_segment *seg, void *arg,
		  const char *needed_by, int64 needed)
{
	BackgroundWorkerHandle *handle;
	bool		ready;

	handle = bk_start_worker(launch->type, launch->function, seg, 0,
							 launch->what, needed_by, needed);
	if (launch->cancel != NULL)
	{
		PG_ENSURE_ERROR_CLEANUP(launch->cancel, PointerGetDatum(arg));
		{
			ready = bk_wait_worker(handle, launch->ready, launch->each, arg, launch->interval_ms);
		}
		PG_END_ENSURE_ERROR_CLEANUP(launch->cancel, PointerGetDatum(arg));
	}
	else
		ready = bk_wait_worker(handle, launch->ready, launch->each, arg, launch->interval_ms);
	if (!ready)
		ereport(ERROR,
				(errcode(ERRCODE_ADMIN_SHUTDOWN),
				 errmsg("%s", launch->stopped),
				 errhint("%s", launch->stopped_hint)));
	return handle;
}
