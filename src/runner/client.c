/*-------------------------------------------------------------------------
 *
 * client.c
 *		A client worker of a benchmark run: one background worker playing
 *		one or more clients of the run, each a session of the runner
 *		(runner.c) over an executor session (executor.h).
 *
 * In-server runs have one worker per client, as pgbench -c N -j N: the
 * worker's own backend is the client's session (SPI, exec_spi.c).  Runs
 * against a target have `jobs` workers, as pgbench -j, each playing its
 * share of the clients over libpq connections (exec_pq.c), clients dealt
 * to workers as pgbench deals them to threads; the sessions of a worker
 * share its generators and rate schedule (runner.h's BkThread).
 *
 * A worker connects to the run's database as the role that started the
 * run, sets up its sessions (the scripts parsed, the variables and
 * generators seeded as pgbench does), connects and prepares them, and
 * waits for the coordinator's go.  Then it advances every session that can
 * go on, and waits for what the others wait for, all at once: a time (the
 * rate schedule, \sleep) or a socket (a query in progress on the target),
 * and its latch (the run stops, a signal).
 *
 * Errors raised while a session is advanced, outside its executor (an
 * expression's, say), are caught here and handed back to the session,
 * which fails the command at hand.  The worker stops when the run stops or
 * on SIGTERM: the statement in progress is canceled (for a target, by a
 * cancel request to it), and the transaction it belonged to is not
 * counted.  The end of a run's duration cancels it too, as pgbench leaves
 * the transactions its end interrupts: an in-server client arms a timeout
 * at the end that cancels its statement (one waiting for a row lock held
 * by another session, say), a worker of libpq sessions sends the target a
 * cancel request for each query in progress.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/resource.h>

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
#include "utils/timeout.h"

#include "target/cancel.h"
#include "core/compat.h"
#include "runner/exec_pq.h"
#include "runner/exec_spi.h"
#include "target/target.h"
#include "core/clock.h"
#include "runner/segment.h"
#include "runner/runner.h"
#include "core/worker.h"

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
 * Whether the worker is advancing a session (an SPI statement may be in
 * progress), and whether the run's duration is over: the end's timeout
 * cancels a statement in progress, and only then.
 */
static volatile sig_atomic_t client_advancing = false;
static volatile sig_atomic_t client_time_over = false;

/*
 * client_end_of_duration
 *		The timeout at the end of the run's duration (an in-server client):
 *		the statement in progress is canceled, as a query cancel does, so
 *		that a client waiting for a lock does not keep the run waiting.
 */
static void
client_end_of_duration(void)
{
	client_time_over = true;
	if (client_advancing)
	{
		QueryCancelPending = true;
		InterruptPending = true;
	}
	SetLatch(MyLatch);
}

/*
 * client_end_wake
 *		The timeout at the end of the run's duration (a worker of libpq
 *		sessions): the worker wakes to cancel its sessions' queries.  It
 *		waits for their sockets without a timeout of its own until then,
 *		so that the kernel arms no timer at each wait.
 */
static void
client_end_wake(void)
{
	client_time_over = true;
	SetLatch(MyLatch);
}

/* whether the session's errors stay out of the log: it is stopping */
static bool
client_quiet(void *arg)
{
	return bk_session_stopping((const BkSession *) arg);
}

/* one session of the worker and what it waits for */
typedef struct ClientSlot
{
	BkSession	s;
	BkWait		wait;
	bool		done;
	int			pos;			/* its socket's event in the set; -1: none */
	pgsocket	fd;				/* the socket of that event */
	bool		armed;			/* the event waits for readability */
	uint32		conn_epoch;		/* the session's when the event was made */
} ClientSlot;

typedef struct ClientWorker
{
	RunShared  *sh;
	int			index;			/* the worker's number */
	int			first;			/* its first client */
	int			nslots;
	ClientSlot *slots;
	BkThread	threads[RUN_MAX_GROUPS];	/* one for each group */
	MemoryContext cxt;
	WaitEventSet *wes;			/* the latch, the sockets */
	WaitEvent  *events;
	bool		wes_stale;		/* a socket changed: make the set anew */
	bool		canceled;		/* cancel requests sent */
	BkCancels  *cancels;		/* those requests, sent by helper threads */
	int64		cancel_ns;		/* when they were handed to them */
	int64		sent_ns;		/* when the last of them was sent; 0: not yet */
	int64		end_ns;			/* the end of the run's duration, or PG_INT64_MAX */
	bool		end_timer;		/* a timeout wakes the worker at end_ns */
} ClientWorker;

/* the client's state, for the coordinator */
static void
client_set_state(ClientWorker *cw, int slot, uint32 state)
{
	pg_write_barrier();
	pg_atomic_write_u32(&RUN_CLIENTS(cw->sh)[cw->first + slot].state, state);
}

/*
 * client_caught
 *		In a PG_CATCH block: an error raised while session S was advanced,
 *		outside its executor.  It goes to the log (unless the session is
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

/* advance slot I's session once; an error raised goes back to it */
static void
client_advance(ClientWorker *cw, ClientSlot *slot, bool interrupted)
{
	volatile bool caught = false;

	client_advancing = true;
	PG_TRY();
	{
		if (interrupted)
			CHECK_FOR_INTERRUPTS();
		bk_session_advance(&slot->s, &slot->wait);
	}
	PG_CATCH();
	{
		client_advancing = false;
		client_caught(&slot->s, cw->cxt);
		caught = true;
	}
	PG_END_TRY();
	client_advancing = false;

	/*
	 * The end's cancel came as the transaction ended, where no statement
	 * served it (a commit holds interrupts): nothing is left to cancel.
	 */
	if (client_time_over && !client_terminated)
		QueryCancelPending = false;
	if (caught)
		slot->wait.kind = BK_WAIT_NONE;	/* go on: the session handles it */
}

/* make the wait event set anew: the latch, and each session's socket */
static void
client_build_set(ClientWorker *cw)
{
	if (cw->wes != NULL)
		FreeWaitEventSet(cw->wes);
	cw->wes = bk_create_wait_event_set(cw->nslots + 2);
	AddWaitEventToSet(cw->wes, WL_LATCH_SET, PGINVALID_SOCKET, MyLatch, NULL);
	AddWaitEventToSet(cw->wes, WL_EXIT_ON_PM_DEATH, PGINVALID_SOCKET, NULL, NULL);
	for (int i = 0; i < cw->nslots; i++)
	{
		ClientSlot *slot = &cw->slots[i];

		slot->pos = -1;
		slot->armed = false;
		if (!slot->done && slot->wait.kind == BK_WAIT_SOCKET)
		{
			slot->fd = slot->wait.fd;
			slot->pos = AddWaitEventToSet(cw->wes, slot->wait.write ? WL_SOCKET_WRITEABLE :
										  WL_SOCKET_READABLE, slot->fd,
										  NULL, (void *) slot);
			slot->armed = true;
		}
	}
	cw->wes_stale = false;
}

/* slot SLOT waits for its socket: its event reads so */
static void
client_arm(ClientWorker *cw, ClientSlot *slot)
{
	if (slot->pos < 0 || slot->fd != slot->wait.fd)
	{
		cw->wes_stale = true;	/* a new socket */
		return;
	}
	if (!slot->armed)
	{
		ModifyWaitEvent(cw->wes, slot->pos, slot->wait.write ? WL_SOCKET_WRITEABLE :
						WL_SOCKET_READABLE, NULL);
		slot->armed = true;
	}
}

/* slot SLOT's socket has input nobody waits for: no longer of interest */
static void
client_disarm(ClientWorker *cw, ClientSlot *slot)
{
	if (slot->armed && slot->pos >= 0 && !cw->wes_stale)
	{
		ModifyWaitEvent(cw->wes, slot->pos, 0, NULL);
		slot->armed = false;
	}
}

/* what SLOT waits for, into the earliest time UNTIL and whether SOCKETS */
static inline void
client_note_wait(const ClientSlot *slot, int64 *until, bool *sockets)
{
	if (slot->wait.kind == BK_WAIT_TIME)
		*until = Min(*until, slot->wait.until_ns);
	else if (slot->wait.kind == BK_WAIT_SOCKET)
	{
		*sockets = true;
		if (slot->wait.until_ns > 0)	/* response_timeout */
			*until = Min(*until, slot->wait.until_ns);
	}
}

/*
 * client_cancel_all
 *		The worker was terminated, or the run is over (its duration, a
 *		stop): every query in progress on the target is canceled, all at
 *		once (cancel.c: helper threads send the requests, and this does not
 *		wait for them).  A transaction whose commit the target finished
 *		before its cancel landed is still counted, when its answer comes.
 */
static void
client_cancel_all(ClientWorker *cw)
{
	if (cw->canceled)
		return;
	cw->canceled = true;
	cw->cancel_ns = bk_now_ns();
	cw->cancels = bk_cancels_create(cw->nslots);
	for (int i = 0; i < cw->nslots; i++)
	{
		BkExecSession *xs = cw->slots[i].s.xs;

		if (!cw->slots[i].done && xs->exec->cancel != NULL)
			xs->exec->cancel(xs, cw->cancels);
	}
	bk_cancels_send(cw->cancels);
}

/*
 * client_give_up
 *		Whether the worker stops waiting for the target: two seconds after
 *		the last cancel request went out (a statement that does not answer
 *		one), or ten after they were handed to the threads (requests that
 *		cannot reach the target).  A session given up on is not counted:
 *		what it was doing is unknown.
 */
static bool
client_give_up(ClientWorker *cw, int64 now)
{
	if (cw->sent_ns == 0 && bk_cancels_left(cw->cancels) == 0)
	{
		cw->sent_ns = now;
		elog(DEBUG1, "client worker %d: its %d cancel requests sent in %.1f ms",
			 cw->index, bk_cancels_count(cw->cancels), (now - cw->cancel_ns) / 1e6);
	}
	if (cw->sent_ns != 0 && now >= cw->sent_ns + 2 * INT64CONST(1000000000))
		return true;
	return now >= cw->cancel_ns + 10 * INT64CONST(1000000000);
}

/*
 * client_loop
 *		Advance the sessions until each is finished: the run's end, its
 *		transaction count, or an error that ends its client.  A session that
 *		can go on is advanced; then the worker waits for the earliest time a
 *		session waits for, a socket of one, or its latch.
 *
 * Interrupts are served inside a session (a cancel fails the statement in
 * progress of an SPI session; SIGTERM sets client_terminated), or when one
 * cuts a wait short: then the first session still going takes the error,
 * never out of here, where it would end the worker without a word.
 */
static void
client_loop(ClientWorker *cw)
{
	bool		interrupted = false;
	int			left = cw->nslots;
	int			spins = 0;		/* rounds without a look at the sockets */

	for (int i = 0; i < cw->nslots; i++)
	{
		bk_session_start(&cw->slots[i].s);
		cw->slots[i].wait.kind = BK_WAIT_NONE;
	}
	client_build_set(cw);

	while (left > 0)
	{
		int64		now = bk_now_ns();
		int64		until = PG_INT64_MAX;
		bool		again = false;
		bool		sockets = false;
		long		timeout_ms;
		int			nev;

		if ((client_terminated || now >= cw->end_ns ||
			 pg_atomic_read_u32(&cw->sh->stop) != 0) &&
			cw->slots[0].s.xs->exec->cancel != NULL)
		{
			client_cancel_all(cw);
			if (client_give_up(cw, now))
				break;			/* the target does not answer: give up */
		}

		for (int i = 0; i < cw->nslots; i++)
		{
			ClientSlot *slot = &cw->slots[i];
			bool		stopping;

			if (slot->done)
				continue;
			stopping = bk_session_stopping(&slot->s);
			if ((slot->wait.kind == BK_WAIT_SOCKET &&
				 (slot->wait.until_ns == 0 || slot->wait.until_ns > now)) ||
				(slot->wait.kind == BK_WAIT_TIME && slot->wait.until_ns > now && !stopping))
			{
				client_note_wait(slot, &until, &sockets);
				continue;
			}
			client_advance(cw, slot, interrupted);
			interrupted = false;
			if (slot->conn_epoch != slot->s.conn_epoch)
			{
				/*
				 * on_disconnect 'reconnect': its connection was closed (the
				 * socket left the set with it), and the new one may have the
				 * same number
				 */
				slot->conn_epoch = slot->s.conn_epoch;
				slot->pos = -1;
				slot->armed = false;
			}
			switch (slot->wait.kind)
			{
				case BK_WAIT_DONE:
					/* its connection closes now (its socket leaves the set) */
					if (slot->s.xs->exec->close != NULL)
						slot->s.xs->exec->close(slot->s.xs);
					slot->done = true;
					slot->pos = -1;
					slot->armed = false;
					client_set_state(cw, i, CLIENT_DONE);
					bk_set_latch_of(cw->sh->coordinator_pid);
					left--;
					break;
				case BK_WAIT_NONE:
					again = true;
					if (cw->sh->connect_per_transaction)
					{
						/*
						 * Its connection was closed (the socket left the set
						 * with it), and the next may get the same number.
						 */
						slot->pos = -1;
						slot->armed = false;
					}
					break;
				case BK_WAIT_TIME:
					client_note_wait(slot, &until, &sockets);
					break;
				case BK_WAIT_SOCKET:
					client_arm(cw, slot);
					client_note_wait(slot, &until, &sockets);
					break;
			}
		}
		if (left == 0)
			break;
		if (cw->wes_stale)
			client_build_set(cw);

		now = bk_now_ns();
		/*
		 * A worker of libpq sessions wakes at the end to cancel their
		 * queries: its timeout wakes it, and if that came early (it is the
		 * wall clock's) the wait ends at the end.
		 */
		if (sockets && !cw->canceled && now < cw->end_ns &&
			(!cw->end_timer || client_time_over))
			until = Min(until, cw->end_ns);
		if (again)
		{
			/*
			 * A transaction ended: a look around, then on.  An SPI session
			 * shows what it runs in pg_stat_activity; a worker of libpq
			 * sessions runs nothing here.  A session whose command failed
			 * outside its executor (a \gset of no row) comes here too, its
			 * transaction still to be rolled back by its next advance: the
			 * statistics wait for that (they are reported out of a
			 * transaction only).
			 */
			if (cw->sh->driver == RUN_DRIVER_SERVER && !IsTransactionOrTransactionBlock())
			{
				pgstat_report_activity(STATE_IDLE, NULL);
				pgstat_report_stat(false);
			}
			if (!PostmasterIsAlive())
				proc_exit(1);

			/*
			 * The sessions that ended a transaction send their next query
			 * at once (the next round), and then wait with the others: no
			 * look at the sockets in between, but every 16th round, so
			 * that sessions that never wait do not starve those that do.
			 */
			if (!sockets || ++spins < 16)
				continue;
			timeout_ms = 0;
		}
		else if (until == PG_INT64_MAX)
			timeout_ms = client_terminated || cw->canceled ? 100 : -1;
		else if (until <= now)
			continue;
		else if (until - now < 2 * INT64CONST(1000000) && !sockets)
		{
			/* a precise short sleep; the run's stop is seen after it */
			pg_usleep((long) ((until - now + 999) / 1000));
			continue;
		}
		else
			timeout_ms = (long) ((until - now) / 1000000);
		if ((client_terminated || cw->canceled) && (timeout_ms < 0 || timeout_ms > 100))
			timeout_ms = 100;

		spins = 0;
		nev = WaitEventSetWait(cw->wes, timeout_ms, cw->events, cw->nslots + 2,
							   PG_WAIT_EXTENSION);
		for (int e = 0; e < nev; e++)
		{
			WaitEvent  *ev = &cw->events[e];

			if (ev->events & WL_LATCH_SET)
			{
				ResetLatch(MyLatch);
				if (QueryCancelPending)
					interrupted = true;
			}
			else if (ev->events & (WL_SOCKET_READABLE | WL_SOCKET_WRITEABLE))
			{
				ClientSlot *slot = (ClientSlot *) ev->user_data;

				/*
				 * A socket stays armed while its session waits for it, and
				 * between its queries too (no system call per query to
				 * change the set); input that comes while the session waits
				 * for something else (the server closing the connection,
				 * say) disarms it, so that it does not wake the worker
				 * again and again.
				 */
				if (slot->done)
					continue;
				if (slot->wait.kind == BK_WAIT_SOCKET)
					slot->wait.kind = BK_WAIT_NONE;
				else
					client_disarm(cw, slot);
			}
		}
	}

	/* given up on, or finished: the rest are done too */
	if (cw->cancels != NULL)
	{
		bk_cancels_release(cw->cancels);
		cw->cancels = NULL;
	}
	for (int i = 0; i < cw->nslots; i++)
	{
		ClientSlot *slot = &cw->slots[i];

		if (slot->s.xs->exec->close != NULL)
			slot->s.xs->exec->close(slot->s.xs);
		if (!slot->done)
		{
			slot->done = true;
			client_set_state(cw, i, CLIENT_DONE);
		}
	}
}

/*
 * client_exit_failed
 *		The worker could not get its clients ready: the error goes to the
 *		run (the coordinator does not start the run), every client of the
 *		worker is done, and the worker exits.
 */
static void
client_exit_failed(ClientWorker *cw, int slot, const BkError *err)
{
	bk_claim_client_error(cw->sh, cw->first + slot, err);
	AbortOutOfAnyTransaction();
	for (int i = 0; i < cw->nslots; i++)
	{
		if (i < slot && cw->slots[i].s.xs != NULL &&
			cw->slots[i].s.xs->exec->close != NULL)
			cw->slots[i].s.xs->exec->close(cw->slots[i].s.xs);
		client_set_state(cw, i, CLIENT_DONE);
	}
	bk_set_latch_of(cw->sh->coordinator_pid);
	proc_exit(1);
}

/* the error in a PG_CATCH block, logged, into ERR */
static void
client_copy_error(MemoryContext cxt, BkError *err)
{
	ErrorData  *edata;

	MemoryContextSwitchTo(cxt);
	edata = CopyErrorData();
	EmitErrorReport();
	FlushErrorState();
	bk_error_copy(err, edata);
}

/*
 * client_raise_fd_limit
 *		A worker of libpq sessions needs a socket per session beyond the
 *		file descriptors the server counts on for itself (the soft limit
 *		it started with): raise this process's soft limit by that much, up
 *		to the hard limit, or refuse before anything starts.
 */
static void
client_raise_fd_limit(ClientWorker *cw)
{
	struct rlimit rl;
	rlim_t		want;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return;
	want = rl.rlim_cur + (rlim_t) cw->nslots + 16;
	if (want <= rl.rlim_cur)
		return;
	if (rl.rlim_max != RLIM_INFINITY && want > rl.rlim_max)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("a client worker with %d connections needs %llu file descriptors, but the limit of the server's processes is %llu",
						cw->nslots, (unsigned long long) want, (unsigned long long) rl.rlim_max),
				 errhint("Use more jobs, so that each worker has fewer connections, or raise the hard limit of open files (ulimit -Hn, LimitNOFILE=) of the server.")));
	rl.rlim_cur = want;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("could not raise the limit of open files to %llu: %m", (unsigned long long) want),
				 errhint("Use more jobs, so that each worker has fewer connections.")));
}

/*
 * client_setup
 *		The worker's sessions, parsed and seeded, each with its executor
 *		session: SPI in this backend, or libpq to the run's target as the
 *		run's role (its user mapping, under the password rules).
 */
static void
client_setup(ClientWorker *cw)
{
	RunShared  *sh = cw->sh;
	BkTarget   *volatile target = NULL;
	volatile int slot = 0;
	BkError		err;

	PG_TRY();
	{
		/* the caller's search_path, so that the script finds what the caller found */
		SetConfigOption("search_path", RUN_TEXT(sh, sh->search_path_off),
						PGC_USERSET, PGC_S_SESSION);
		if (sh->driver == RUN_DRIVER_LIBPQ)
		{
			char		appname[NAMEDATALEN];

			snprintf(appname, sizeof(appname), "pgbenchkit run %lld worker %d",
					 (long long) sh->run_id, cw->index);
			StartTransactionCommand();
			MemoryContextSwitchTo(cw->cxt);
			target = bk_target_open(sh->target, sh->roleid, appname);
			/* a target that stopped answering holds a connect no longer */
			if (sh->response_timeout_ns > 0)
				target->params->connect_wait_ms = (int) Max(sh->response_timeout_ns / 1000000, 1);
			if (sh->target_checks_client)
				bk_target_add_setting(target, BK_TARGET_CHECK_INTERVAL);
			CommitTransactionCommand();
			MemoryContextSwitchTo(cw->cxt);
			client_raise_fd_limit(cw);
			target->own_fds = true;
		}
		for (slot = 0; slot < cw->nslots; slot++)
		{
			ClientSlot *cs = &cw->slots[slot];

			bk_session_init(&cs->s, sh, cw->first + slot,
							&cw->threads[bk_run_client_group(sh, cw->first + slot)],
							&client_terminated, cw->cxt);
			if (sh->driver == RUN_DRIVER_LIBPQ)
				cs->s.xs = bk_exec_pq_create(sh->protocol, sh->connect_per_transaction,
											 target, cw->cxt);
			else
				cs->s.xs = bk_exec_spi_create(sh->protocol, sh->time_phases, client_quiet, &cs->s, cw->cxt);
		}
	}
	PG_CATCH();
	{
		client_copy_error(cw->cxt, &err);
		client_exit_failed(cw, Min(slot, cw->nslots - 1), &err);
	}
	PG_END_TRY();

	/* connected and prepared, one after the other, as pgbench's threads do */
	for (int i = 0; i < cw->nslots; i++)
	{
		ClientSlot *cs = &cw->slots[i];
		int64		t0 = bk_now_ns();

		if (!cs->s.xs->exec->prepare(cs->s.xs, cs->s.scripts, cs->s.nscripts, &err))
			client_exit_failed(cw, i, &err);
		if (sh->driver == RUN_DRIVER_LIBPQ && !sh->connect_per_transaction)
			cs->s.me->conn_ns = bk_now_ns() - t0;
	}
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
	ClientWorker cw;
	BkError		err;
	char		appname[NAMEDATALEN];

	pqsignal(SIGTERM, client_sigterm);
	BackgroundWorkerUnblockSignals();
	seg = dsm_attach(DatumGetUInt32(main_arg));
	if (seg == NULL)
		return;					/* the run is over already */
	sh = (RunShared *) dsm_segment_address(seg);
	if (!bk_segment_ours(seg, RUN_MAGIC, RUN_CLIENT_TYPE))
		return;

	memset(&cw, 0, sizeof(cw));
	cw.sh = sh;
	cw.index = bk_worker_index();
	bk_run_worker_clients(sh, cw.index, &cw.first, &cw.nslots);
	for (int i = 0; i < cw.nslots; i++)
		RUN_CLIENTS(sh)[cw.first + i].pid = MyProcPid;

	if (sh->driver == RUN_DRIVER_LIBPQ)
		snprintf(appname, sizeof(appname), "pgbenchkit run %lld worker %d",
				 (long long) sh->run_id, cw.index);
	else
		snprintf(appname, sizeof(appname), "pgbenchkit run %lld client %d",
				 (long long) sh->run_id, cw.first);
	bk_worker_connect(sh->dboid, sh->roleid, appname);

	cw.cxt = AllocSetContextCreate(TopMemoryContext, "pgbenchkit client", ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(cw.cxt);
	cw.slots = palloc0(sizeof(ClientSlot) * cw.nslots);
	cw.events = palloc0(sizeof(WaitEvent) * (cw.nslots + 2));
	for (int g = 0; g < RUN_MAX_GROUPS; g++)
		cw.threads[g].index = cw.index;

	client_setup(&cw);

	/* ready: wait for the coordinator's go */
	for (int i = 0; i < cw.nslots; i++)
		client_set_state(&cw, i, CLIENT_READY);
	bk_set_latch_of(sh->coordinator_pid);
	while (pg_atomic_read_u32(&sh->go) == 0)
	{
		if (pg_atomic_read_u32(&sh->stop) != 0 || client_terminated)
		{
			/* terminated before the go: the run must not start without it */
			if (client_terminated && pg_atomic_read_u32(&sh->stop) == 0)
			{
				memset(&err, 0, sizeof(err));
				bk_error_set(&err, ERRCODE_ADMIN_SHUTDOWN,
							 "terminating connection due to administrator command",
							 "The client was terminated (pg_terminate_backend or a server shutdown).");
				bk_claim_client_error(sh, cw.first, &err);
			}
			for (int i = 0; i < cw.nslots; i++)
			{
				if (cw.slots[i].s.xs->exec->close != NULL)
					cw.slots[i].s.xs->exec->close(cw.slots[i].s.xs);
				client_set_state(&cw, i, CLIENT_DONE);
			}
			bk_set_latch_of(sh->coordinator_pid);
			proc_exit(0);
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
	pg_read_barrier();

	/*
	 * The end of the duration, a timeout: an in-server client may be inside
	 * a statement then, which it cancels; a worker of libpq sessions waits
	 * for their sockets until it wakes it, and cancels their queries.
	 */
	cw.end_ns = sh->duration_ns > 0 ? sh->start_ns + sh->duration_ns : PG_INT64_MAX;
	if (cw.end_ns != PG_INT64_MAX)
	{
		TimeoutId	end_timeout;
		int64		left_us = (cw.end_ns - bk_now_ns()) / 1000;

		end_timeout = RegisterTimeout(USER_TIMEOUT,
									  sh->driver == RUN_DRIVER_SERVER ?
									  client_end_of_duration : client_end_wake);
		/* a millisecond late rather than early: the session is stopping then */
		enable_timeout_at(end_timeout, GetCurrentTimestamp() + Max(left_us, 0) + 1000);
		cw.end_timer = true;
	}

	client_loop(&cw);
	if (client_terminated && pg_atomic_read_u32(&sh->stop) == 0)
	{
		memset(&err, 0, sizeof(err));
		bk_error_set(&err, ERRCODE_ADMIN_SHUTDOWN,
					 "terminating connection due to administrator command",
					 "The client was terminated (pg_terminate_backend or a server shutdown).");
		bk_claim_client_error(sh, cw.first, &err);
	}

	pgstat_report_activity(STATE_IDLE, NULL);
	pgstat_report_stat(true);
	bk_set_latch_of(sh->coordinator_pid);
}
