/*-------------------------------------------------------------------------
 *
 * cancel.c
 *		Cancel requests to a target, sent all at once by helper threads
 *		that do nothing else.
 *
 * At the end of a run against a target, every query still in progress on
 * it is canceled, so that the run ends at its end and not one statement
 * (or one lock wait) later.  A cancel request is a connection of its own to
 * the target's postmaster: libpq's PQcancel connects, sends the backend's
 * key and waits until the server has read it and closed the connection.
 * It blocks; before libpq 17 there is no other way to send one (17 added
 * PQcancelStart and PQcancelPoll), and the key of a connection is not
 * public.  One after another, a thousand of them took the worker one to
 * three seconds, while the sessions not yet canceled went on committing:
 * the run's measured time stretched by as much.
 *
 * So the requests go out from helper threads, all at once: the worker
 * takes each busy connection's PGcancel (PQgetCancel copies what is
 * needed: the address and the key), and hands the list to a few threads,
 * which take the next request from a shared counter until none is left.
 * PQcancel is documented as safe to call from another thread (and from a
 * signal handler): it reads only its PGcancel and uses only the socket
 * calls.  The threads touch nothing of PostgreSQL's (no palloc, no elog,
 * no latch, no shared memory but this module's malloc'ed counters), and
 * block every signal, so that the backend's signal handlers keep running
 * in the worker's own thread.  The worker does not wait for them: it
 * reads how many requests are left (bk_cancels_left) while it reads what
 * its sessions answer.  A thread that a request holds up (a target that
 * no longer answers) is not waited for either: whoever of the worker and
 * the threads lets go of the list last frees it, and the process's exit
 * ends the thread.
 *
 * A child process would have done as well, but would need the PGcancel
 * data copied into shared memory (a fork copies it, but only what was
 * there at fork time) and a process of its own counted nowhere; threads
 * share the worker's memory and cost a fraction of a millisecond each.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <pthread.h>
#include <signal.h>

#include "port/atomics.h"

#include "target/cancel.h"

/* at most this many threads send a list's requests */
#define BK_CANCEL_THREADS	16

struct BkCancels
{
	int			n;				/* requests in the list */
	int			capacity;
	PGcancel  **cancels;
	pg_atomic_uint32 next;		/* the next request a thread takes */
	pg_atomic_uint32 sent;		/* requests sent (or failed) */
	pg_atomic_uint32 failed;	/* requests that could not be sent */
	pg_atomic_uint32 refs;		/* the worker and each running thread */
	bool		started;
};

/*
 * bk_cancels_create
 *		An empty list of up to CAPACITY cancel requests, in malloc'ed
 *		memory (the threads may outlive any memory context).
 */
BkCancels *
bk_cancels_create(int capacity)
{
	BkCancels  *c = malloc(sizeof(BkCancels));

	if (c == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory")));
	c->cancels = malloc(sizeof(PGcancel *) * Max(capacity, 1));
	if (c->cancels == NULL)
	{
		free(c);
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory")));
	}
	c->n = 0;
	c->capacity = capacity;
	c->started = false;
	pg_atomic_init_u32(&c->next, 0);
	pg_atomic_init_u32(&c->sent, 0);
	pg_atomic_init_u32(&c->failed, 0);
	pg_atomic_init_u32(&c->refs, 1);
	return c;
}

/* the request that cancels what runs on CONN, added to the list */
void
bk_cancels_add(BkCancels *c, PGconn *conn)
{
	PGcancel   *cancel;

	Assert(!c->started);
	if (c->n >= c->capacity)
		elog(ERROR, "more cancel requests than the list holds");
	cancel = PQgetCancel(conn);
	if (cancel != NULL)
		c->cancels[c->n++] = cancel;
}

/* how many requests the list has */
int
bk_cancels_count(const BkCancels *c)
{
	return c->n;
}

/* the list is let go of by one of its holders: the last frees it */
static void
cancels_unref(BkCancels *c)
{
	if (pg_atomic_sub_fetch_u32(&c->refs, 1) != 0)
		return;
	for (int i = 0; i < c->n; i++)
		if (c->cancels[i] != NULL)
			PQfreeCancel(c->cancels[i]);
	free(c->cancels);
	free(c);
}

/* a helper thread: the next request of the list, until none is left */
static void *
cancels_thread(void *arg)
{
	BkCancels  *c = (BkCancels *) arg;

	for (;;)
	{
		uint32		i = pg_atomic_fetch_add_u32(&c->next, 1);
		char		errbuf[256];

		if (i >= (uint32) c->n)
			break;
		if (!PQcancel(c->cancels[i], errbuf, sizeof(errbuf)))
			pg_atomic_fetch_add_u32(&c->failed, 1);
		PQfreeCancel(c->cancels[i]);
		c->cancels[i] = NULL;
		pg_atomic_fetch_add_u32(&c->sent, 1);
	}
	cancels_unref(c);
	return NULL;
}

/*
 * bk_cancels_send
 *		Send every request of the list at once: helper threads send them,
 *		and this returns before they are sent.  A thread that cannot be
 *		started leaves its share to the others; when none can be, the
 *		requests are sent here, one after another, as before.
 */
void
bk_cancels_send(BkCancels *c)
{
	int			nthreads = Min(c->n, BK_CANCEL_THREADS);
	int			started = 0;
	sigset_t	all;
	sigset_t	old;
	pthread_attr_t attr;

	Assert(!c->started);
	c->started = true;
	if (c->n == 0)
		return;

	/* the threads block every signal: the handlers are the worker's */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	for (int t = 0; t < nthreads; t++)
	{
		pthread_t	thread;

		pg_atomic_fetch_add_u32(&c->refs, 1);
		if (pthread_create(&thread, &attr, cancels_thread, c) != 0)
		{
			pg_atomic_fetch_sub_u32(&c->refs, 1);
			break;
		}
		started++;
	}
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);

	if (started == 0)
	{
		/* no thread: this one sends them */
		pg_atomic_fetch_add_u32(&c->refs, 1);
		(void) cancels_thread(c);
	}
	elog(DEBUG1, "%d cancel requests to the target handed to %d threads at once",
		 c->n, started);
}

/* how many requests of the list are not sent yet */
int
bk_cancels_left(const BkCancels *c)
{
	return c->n - (int) pg_atomic_read_u32(unconstify(pg_atomic_uint32 *, &c->sent));
}

/*
 * bk_cancels_release
 *		The worker is done with the list: it is freed now, or by the last
 *		thread still sending.  Says in the log how many could not be sent.
 */
void
bk_cancels_release(BkCancels *c)
{
	uint32		failed = pg_atomic_read_u32(&c->failed);

	if (failed > 0)
		ereport(LOG,
				(errmsg("%u of %d cancel requests to the target could not be sent",
						failed, c->n)));
	cancels_unref(c);
}
