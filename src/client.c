/*-------------------------------------------------------------------------
 *
 * client.c
 *		A client of a benchmark run: one background worker holding one
 *		client session of the run, as one pgbench client with -j equal to -c.
 *
 * A client connects to the run's database as the role that started the
 * run, sets up its session (runner.c: the scripts parsed, the variables
 * and generators seeded as pgbench does) with an SPI executor session
 * (exec_spi.c), which prepares the scripts' statements.  Then it waits for
 * the coordinator's go and advances its session until the session is
 * finished, waiting in between for what the session waits for: a time
 * (the rate schedule, \sleep) or a socket.
 *
 * Errors raised while the session is advanced, outside its executor (an
 * expression's, say), are caught here and handed back to the session,
 * which fails the command at hand.  The client stops when the run stops
 * or on SIGTERM: the statement in progress is canceled, and the
 * transaction it belonged to is not counted.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/pmsignal.h"
#include "tcop/tcopprot.h"
#include "utils/guc.h"
#include "utils/memutils.h"

#include "compat.h"
#include "executor.h"
#include "run.h"
#include "runner.h"
#include "worker.h"

PGDLLEXPORT void bench_run_client_main(Datum main_arg);

/* set by SIGTERM: the client was terminated (or the server shuts down) */
static volatile sig_atomic_t client_terminated = false;

/*
 * client_sigterm
 *		SIGTERM: stop the statement in progress with an error (as a query
 *		cancel does), so that the client can say why it ended before it
 *		exits; die() would exit without a word.
 */
static void
client_sigterm(SIGNAL_ARGS)
{
	int			save_errno = errno;

	client_terminated = true;
	QueryCancelPending = true;
	InterruptPending = true;
	SetLatch(MyLatch);
	errno = save_errno;
}

/*
 * bk_now_ns
 *		The monotonic clock, in nanoseconds, the same in every process.
 */
int64
bk_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* whether the session's errors stay out of the log: it is stopping */
static bool
client_quiet(void *arg)
{
	return bk_session_stopping((const BkSession *) arg);
}

/*
 * client_sleep_until
 *		Wait until the monotonic clock reads UNTIL_NS, or the run ends:
 *		on the latch for the bulk, then a precise short sleep.  Returns
 *		whether an interrupt cut it short (a cancel, SIGTERM).
 */
static bool
client_sleep_until(BkSession *s, int64 until_ns)
{
	for (;;)
	{
		int64		now = bk_now_ns();
		int64		left = until_ns - now;

		if (QueryCancelPending)
			return true;
		if (left <= 0 || bk_session_stopping(s))
			return false;
		if (left > 2 * INT64CONST(1000000))
		{
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
							 (long) (left / 1000000 - 1), PG_WAIT_EXTENSION);
			ResetLatch(MyLatch);
		}
		else
			pg_usleep((long) ((left + 999) / 1000));
	}
}

/*
 * client_wait_socket
 *		Wait until FD is readable, or the run ends.  Returns whether an
 *		interrupt cut it short.
 */
static bool
client_wait_socket(BkSession *s, pgsocket fd)
{
	while (!QueryCancelPending && !bk_session_stopping(s))
	{
		int			rc = WaitLatchOrSocket(MyLatch,
										   WL_LATCH_SET | WL_SOCKET_READABLE | WL_EXIT_ON_PM_DEATH,
										   fd, -1L, PG_WAIT_EXTENSION);

		ResetLatch(MyLatch);
		if (rc & WL_SOCKET_READABLE)
			return false;
	}
	return QueryCancelPending;
}

/*
 * client_caught
 *		In a PG_CATCH block: an error raised while the session was advanced,
 *		outside its executor.  It goes to the log (unless the client is
 *		stopping) and back to the session, as the failure of its command.
 */
static void
client_caught(BkSession *s, MemoryContext cxt)
{
	ErrorData  *edata;
	BkError		err;

	MemoryContextSwitchTo(cxt);
	edata = CopyErrorData();
	if (!bk_session_stopping(s))
		EmitErrorReport();
	FlushErrorState();
	bk_error_copy(&err, edata);
	FreeErrorData(edata);
	bk_session_error(s, &err);
}

/*
 * client_loop
 *		Advance the session until it is finished: the run's end, the
 *		client's transaction count, or an error that ends the client.
 *
 * After each transaction the client reports its statistics and looks for
 * the postmaster (a busy client never waits on its latch).  Interrupts are
 * served inside the session (a cancel fails the statement in progress;
 * SIGTERM sets client_terminated), or when one cuts a wait short; there
 * too the error goes to the session, never out of here, where it would
 * end the worker without a word.
 */
static void
client_loop(BkSession *s, MemoryContext cxt)
{
	BkWait		wait;
	bool		interrupted = false;

	bk_session_start(s);
	for (;;)
	{
		volatile bool caught = false;

		PG_TRY();
		{
			if (interrupted)
				CHECK_FOR_INTERRUPTS();
			bk_session_advance(s, &wait);
		}
		PG_CATCH();
		{
			client_caught(s, cxt);
			caught = true;
		}
		PG_END_TRY();
		interrupted = false;
		if (caught)
			continue;

		switch (wait.kind)
		{
			case BK_WAIT_DONE:
				return;
			case BK_WAIT_NONE:
				pgstat_report_activity(STATE_IDLE, NULL);
				pgstat_report_stat(false);
				if (!PostmasterIsAlive())
					proc_exit(1);
				break;
			case BK_WAIT_TIME:
				interrupted = client_sleep_until(s, wait.until_ns);
				break;
			case BK_WAIT_SOCKET:
				interrupted = client_wait_socket(s, wait.fd);
				break;
		}
	}
}

/*
 * client_exit_failed
 *		The client could not get ready: its error goes to the run (the
 *		coordinator does not start the run), and the client exits.
 */
static void
client_exit_failed(RunShared *sh, RunClient *me, int index, const BkError *err)
{
	bk_claim_client_error(sh, index, err);
	AbortOutOfAnyTransaction();
	pg_atomic_write_u32(&me->state, CLIENT_DONE);
	bk_set_latch_of(sh->coordinator_pid);
	proc_exit(1);
}

/*
 * bench_run_client_main
 *		Entry point of a client worker.
 */
void
bench_run_client_main(Datum main_arg)
{
	dsm_segment *seg;
	RunShared  *sh;
	RunClient  *me;
	int			index;
	BkSession	session;
	BkError		err;
	MemoryContext cxt;
	char		appname[NAMEDATALEN];

	pqsignal(SIGTERM, client_sigterm);
	BackgroundWorkerUnblockSignals();
	seg = dsm_attach(DatumGetUInt32(main_arg));
	if (seg == NULL)
		return;					/* the run is over already */
	sh = (RunShared *) dsm_segment_address(seg);
	if (!bk_segment_ours(seg, RUN_MAGIC, RUN_CLIENT_TYPE))
		return;

	index = bk_worker_index();
	me = &RUN_CLIENTS(sh)[index];
	me->pid = MyProcPid;

	snprintf(appname, sizeof(appname), "pgbenchkit run %lld client %d",
			 (long long) sh->run_id, index);
	bk_worker_connect(sh->dboid, sh->roleid, appname);

	cxt = AllocSetContextCreate(TopMemoryContext, "pgbenchkit client", ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(cxt);

	PG_TRY();
	{
		/* the caller's search_path, so that the script finds what the caller found */
		SetConfigOption("search_path", RUN_TEXT(sh, sh->search_path_off),
						PGC_USERSET, PGC_S_SESSION);

		bk_session_init(&session, sh, index, &client_terminated, cxt);
		session.xs = bk_exec_spi_create(sh->protocol, client_quiet, &session, cxt);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		EmitErrorReport();
		FlushErrorState();
		bk_error_copy(&err, edata);
		client_exit_failed(sh, me, index, &err);
	}
	PG_END_TRY();
	if (!session.xs->exec->prepare(session.xs, session.scripts, session.nscripts, &err))
		client_exit_failed(sh, me, index, &err);

	/* ready: wait for the coordinator's go */
	pg_write_barrier();
	pg_atomic_write_u32(&me->state, CLIENT_READY);
	bk_set_latch_of(sh->coordinator_pid);
	while (pg_atomic_read_u32(&sh->go) == 0)
	{
		if (pg_atomic_read_u32(&sh->stop) != 0 || client_terminated)
		{
			pg_atomic_write_u32(&me->state, CLIENT_DONE);
			bk_set_latch_of(sh->coordinator_pid);
			proc_exit(0);
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
	pg_read_barrier();

	client_loop(&session, cxt);
	if (client_terminated && pg_atomic_read_u32(&sh->stop) == 0)
	{
		memset(&err, 0, sizeof(err));
		bk_error_set(&err, ERRCODE_ADMIN_SHUTDOWN,
					 "terminating connection due to administrator command",
					 "The client was terminated (pg_terminate_backend or a server shutdown).");
		bk_claim_client_error(sh, index, &err);
	}

	pgstat_report_activity(STATE_IDLE, NULL);
	pgstat_report_stat(true);
	pg_write_barrier();
	pg_atomic_write_u32(&me->state, CLIENT_DONE);
	bk_set_latch_of(sh->coordinator_pid);
}
