/*-------------------------------------------------------------------------
 *
 * executor.h
 *		What the script runner (runner.c) asks of the thing that runs SQL:
 *		the executor interface, and its two implementations: SPI
 *		(exec_spi.c), the in-server clients' own backend, and libpq
 *		(exec_pq.c), a connection to a target server.
 *
 * An executor session is one server session: the runner sends it one
 * request at a time (a SQL command of the script with its statements, a
 * BEGIN, COMMIT or ROLLBACK, a pipeline command, or an abort after an
 * error) and then fetches what came of it until the request is done.  A
 * session keeps the server's transaction state as a connection does: a SQL
 * command outside BEGIN ... END and outside a pipeline is a transaction of
 * its own; in a pipeline, the implicit transaction lasts until
 * \syncpipeline or \endpipeline.
 *
 * Sending never waits and never fails: errors come back with the results.
 * Fetching may answer "not ready, wait until this socket is readable"
 * (BK_FETCH_WAIT): an executor of network connections answers that while
 * the server works, and the runner returns to its worker, which waits on
 * all its sessions at once.  SPI runs each statement when its result is
 * fetched and is always ready.
 *
 * In a pipeline, an executor may defer a SQL command's results: its fetch
 * then ends at once, and the results come with those of the \syncpipeline
 * or \endpipeline that waits for them, each naming its command (cmdno),
 * as pgbench reads a pipeline's results at its end.
 *
 * The runner sees no ErrorData, no SPI and no transaction machinery: an
 * error arrives copied out, with its class (what the runner retries) and
 * SQLSTATE, and the session has already given up the request.  Errors the
 * runner raises itself (an expression's, say) reach it through its worker
 * (bk_session_error); it then sends an abort, as it does after an error of
 * the executor, so that the session rolls back what is open.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_EXECUTOR_H
#define PGBENCHKIT_EXECUTOR_H

#include "script/script.h"
#include "core/worker.h"

/* what a session waits for when bk_session_advance returns */
typedef enum BkWaitKind
{
	BK_WAIT_NONE,				/* nothing: a transaction ended, go on */
	BK_WAIT_TIME,				/* until the monotonic clock reads until_ns */
	BK_WAIT_SOCKET,				/* until fd is readable (or writable) */
	BK_WAIT_DONE				/* finished (or aborted): never again */
} BkWaitKind;

typedef struct BkWait
{
	BkWaitKind	kind;
	int64		until_ns;		/* BK_WAIT_SOCKET too: a deadline, or 0 */
	pgsocket	fd;
	bool		write;			/* BK_WAIT_SOCKET: until fd is writable */
} BkWait;

/* what the runner does with an error */
typedef enum BkErrClass
{
	BK_ERR_NONE,
	BK_ERR_SERIALIZATION,		/* 40001: retried */
	BK_ERR_DEADLOCK,			/* 40P01: retried */
	BK_ERR_OTHER,				/* ends the client */
	BK_ERR_IGNORED,				/* in the script's \ignore_errors (the runner's) */
	BK_ERR_ROLLBACK				/* in its \rollback_errors (the runner's) */
} BkErrClass;

/* what a fetch brought */
typedef enum BkFetch
{
	BK_FETCH_RESULT,			/* the result of one statement, or an error */
	BK_FETCH_DONE,				/* the request is over */
	BK_FETCH_WAIT				/* not ready: wait for BkResult.fd */
} BkFetch;

/*
 * The result of one statement of a SQL command.  ERROR tells whether it
 * failed (the request is then over: no BK_FETCH_DONE follows) and ERR what
 * the error said.  NROWS counts the rows it returned; when the command has
 * \gset or \aset, NAMES and VALUES hold the columns of the last row (NULL
 * for a null), valid until the next request.
 */
/*
 * Where an in-server statement's time went (exec_spi.c times them when the
 * run asks): parse and analysis, rewrite, planning, execution.
 */
#define BK_PHASE_PARSE			0
#define BK_PHASE_REWRITE		1
#define BK_PHASE_PLAN			2
#define BK_PHASE_EXECUTE		3
#define BK_NPHASES				4

typedef struct BkResult
{
	int			cmdno;			/* the command it is of; -1: the request's */
	int64		phase_ns[BK_NPHASES];	/* of this statement; 0 when not timed */
	BkErrClass	error;
	BkError		err;
	uint64		nrows;
	int			ncols;
	char	  **names;
	char	  **values;
	pgsocket	fd;				/* BK_FETCH_WAIT: readable when it may be */
} BkResult;

typedef struct BkExecutor BkExecutor;

/* one session of an executor; each executor's own struct begins with it */
typedef struct BkExecSession
{
	const BkExecutor *exec;
} BkExecSession;

struct BkCancels;				/* cancel.h */

struct BkExecutor
{
	/*
	 * Get every statement of the scripts ready (parameter types, plans) as
	 * far as can be done before the run, in a transaction of its own.  On an
	 * error, returns false with ERR filled; the session is unusable.
	 */
	bool		(*prepare) (BkExecSession *xs, BkScript **scripts, int nscripts,
							BkError *err);

	/*
	 * Send command CMDNO of script SCRIPT (CMD: a SQL command, BEGIN, COMMIT,
	 * ROLLBACK or a pipeline command), with VARS for its parameters, read
	 * when it is sent.
	 */
	void		(*send) (BkExecSession *xs, int script, int cmdno, const BkCommand *cmd,
						 const BkValue *vars);

	/*
	 * After an error (the executor's or the runner's): end the transaction
	 * and the pipeline in progress, if any, rolling them back.  Its fetch
	 * ends with BK_FETCH_DONE.
	 */
	void		(*send_abort) (BkExecSession *xs);

	/* what came of the request: see BkFetch */
	BkFetch		(*fetch) (BkExecSession *xs, BkResult *res);

	/*
	 * The rest is optional (NULL: nothing to do).  connect is called before
	 * each transaction: an executor that connects per transaction (pgbench
	 * -C) connects, and prepares what prepare did, then; it returns 1 when
	 * it connected, 0 when it had nothing to do, -1 on an error (in ERR).
	 * end_tx is called after each transaction, committed or failed for
	 * good (a per-transaction connection is closed).  cancel adds to
	 * CANCELS the request that asks the server to cancel what runs, if
	 * anything does (the run ends; the worker sends them all at once), and
	 * close ends the session.
	 */
	int			(*connect) (BkExecSession *xs, BkError *err);
	void		(*end_tx) (BkExecSession *xs);
	void		(*cancel) (BkExecSession *xs, struct BkCancels *cancels);
	void		(*close) (BkExecSession *xs);

	/*
	 * on_disconnect 'reconnect': close the connection, if any, and make a
	 * new one, its statements prepared again, without a word in the log (a
	 * client tries again and again while the server is down), and without
	 * blocking: the first call starts it, the next ones go on with it once
	 * WAIT (a socket, readable or writable, and a deadline) is over.
	 * Returns 0 while it waits, 1 when connected, -1 with ERR filled when
	 * it could not.  close abandons one in progress.
	 */
	int			(*reconnect) (BkExecSession *xs, BkError *err, BkWait *wait);
};

#endif							/* PGBENCHKIT_EXECUTOR_H */
