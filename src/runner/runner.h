/*-------------------------------------------------------------------------
 *
 * runner.h
 *		The script runner: one client session of a run as a resumable state
 *		machine (runner.c), driving an executor session (executor.h).
 *
 * A worker (client.c) holds a session (one today; nothing here assumes
 * it).  It advances it with bk_session_advance, which runs the session
 * until it must wait (for a time, or for a socket of its executor), a
 * transaction has ended, or it has finished, and says which; the worker
 * waits for that and advances it again.  Everything pgbench's client does lives in the runner:
 * choosing the script, the rate schedule and latency_limit's skips, \set,
 * \if, \sleep, retries with the same random values, the counters, the
 * histograms and the per-command statistics.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_RUNNER_H
#define PGBENCHKIT_RUNNER_H

#include <signal.h>

#include "runner/executor.h"
#include "runner/segment.h"
#include "script/script.h"

/* where a session is (pgbench's CSTATE_*) */
typedef enum BkSessionState
{
	BK_ST_CHOOSE_SCRIPT,		/* the next transaction, or the end */
	BK_ST_PREPARE_THROTTLE,		/* rate: its scheduled time, skips */
	BK_ST_THROTTLE,				/* rate: waiting for its scheduled time */
	BK_ST_START_TX,				/* its first try */
	BK_ST_START_COMMAND,		/* the command at pc */
	BK_ST_WAIT_RESULT,			/* a request of the command sent */
	BK_ST_SLEEP,				/* \sleep */
	BK_ST_END_COMMAND,			/* the command ran: count it, go on */
	BK_ST_END_TX,				/* the script ran to its end: count it */
	BK_ST_ERROR,				/* a try failed: abort what it left open */
	BK_ST_WAIT_ROLLBACK,		/* the abort sent */
	BK_ST_RECONNECT,			/* on_disconnect 'reconnect': the connection
								 * lost, waiting to make a new one */
	BK_ST_FINISHED,				/* the run's end, or the client's */
	BK_ST_ABORTED				/* an error that ends the client */
} BkSessionState;


/*
 * What the sessions of one worker share, as pgbench's clients share their
 * thread's: the generators that choose scripts and draw the rate
 * schedule, and the schedule itself (pgbench's throttle_trigger).  With
 * one session per worker, as in-server runs have, it is the session's own.
 * A worker whose clients are of several groups has one for each group.
 */
typedef struct BkThread
{
	int			index;			/* the worker's number, from 0 */
	bool		seeded;
	BkPrng		choose;
	BkPrng		throttle;
	int64		trigger;		/* rate: the thread's last scheduled start */
	double		center_us;		/* rate: mean gap between the thread's starts */
} BkThread;

typedef struct BkSession
{
	/* the run and this client's place in it */
	RunShared  *sh;
	RunClient  *me;
	int			index;			/* the client's number, from 0 */
	const RunGroup *group;		/* its group: scripts, rate, shards */
	const volatile sig_atomic_t *terminated;	/* the worker's SIGTERM */

	/* the scripts and variables */
	int			nscripts;		/* of the run, every group's */
	BkScript  **scripts;
	int		   *command_base;	/* each script's first command in the stats */
	int64		total_weight;	/* of its group's scripts */
	BkVarTable *vt;
	BkValue    *vars;
	MemoryContext vars_cxt;		/* the variables' strings */
	BkClientRandom rnd;			/* rnd.func is random()'s generator */
	BkThread   *thread;			/* its worker's generators and schedule */
	MemoryContext try_cxt;		/* reset for every try */

	/* where the measurements go */
	RunScriptStat *script_stats;
	RunCommandStat *command_stats;
	BkSharedHist *hist[2];

	BkExecSession *xs;

	/* the state machine */
	BkSessionState state;
	int64		end_ns;			/* the run's end; PG_INT64_MAX with transactions */
	bool		throttled;		/* a rate limit */
	int64		scheduled;		/* rate: the current transaction's time */
	int64		done;			/* transactions over, skipped ones included */
	int			cur_script;
	int			pc;				/* the next command to run */
	int			cur_command;	/* the last one that started */
	int			next_command;	/* after the one at cur_command */
	bool		in_try;
	bool		in_block;		/* between BEGIN and END */
	bool		rolled_back;	/* the try's last transaction ended in
								 * ROLLBACK or a \rollback_errors error */
	int			nresults;		/* results of the current command so far */
	int64		xact_t0;		/* when the transaction was due (latency) */
	int64		xact_started;	/* when its first try started */
	int64		cmd_t0;			/* when the current command started */
	int64		cmd_phase_ns[BK_NPHASES];	/* its statements' phases so far */
	int64		sleep_until;	/* \sleep */
	bool		cut_short;		/* the run's end interrupted a \sleep */
	int			tries;
	BkPrng		saved_func;		/* rnd.func at the first try */
	int			failed_command; /* of the last try that failed, or -1 */
	BkErrClass	error;			/* of the last try */
	bool		lost;			/* it failed because the connection was lost,
								 * and the client reconnects */
	int64		reconnect_at;	/* BK_ST_RECONNECT: the next attempt */
	bool		connecting;		/* ... which is under way */
	int64		connect_t0;		/* since then */
	uint32		conn_epoch;		/* its connection was closed this many times
								 * (the worker's set of sockets follows) */
	int64		reconnect_wait_ns;	/* the wait before it, before jitter */
	BkPrng		backoff_prng;	/* the jitter's (not the script's) */
	BkError		err;
	BkResult	res;
} BkSession;

extern void bk_session_init(BkSession *s, RunShared *sh, int index, BkThread *thread,
							const volatile sig_atomic_t *terminated, MemoryContext cxt);
extern int64 bk_thread_gap_ns(BkThread *t);
extern void bk_session_start(BkSession *s);
extern void bk_session_advance(BkSession *s, BkWait *wait);
extern void bk_session_error(BkSession *s, const BkError *err);
extern bool bk_session_stopping(const BkSession *s);
extern void bk_claim_client_error(RunShared *sh, int index, const BkError *err);

#endif							/* PGBENCHKIT_RUNNER_H */
