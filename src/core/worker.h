/*-------------------------------------------------------------------------
 *
 * worker.h
 *		Dynamic background workers of pgbenchkit: launching them, waiting
 *		for them, and carrying their errors back to whoever waits.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_WORKER_H
#define PGBENCHKIT_WORKER_H

#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "storage/ipc.h"

/*
 * An error raised in a worker, kept in shared memory so that the backend
 * waiting for the worker can raise it again with the same SQLSTATE, message,
 * detail and hint.
 */
typedef struct BkError
{
	bool		set;
	int			sqlerrcode;
	char		message[1024];
	char		detail[1024];
	char		hint[512];
	char		context[512];
} BkError;

/*
 * The first word of every segment a caller hands to a worker: which kind of
 * segment it is and the version of its layout.  BK_LAYOUT_VERSION goes up
 * with any change to a struct a segment holds, so that a worker of one
 * build of the library never reads the segment of another (a library
 * installed while a caller of the old one was starting work):
 * bk_segment_ours refuses it.
 */
#define BK_LAYOUT_VERSION		5
#define BK_SEGMENT_MAGIC(kind)	(0x424b0000u | ((uint32) (kind) << 8) | BK_LAYOUT_VERSION)

/*
 * Background workers one call needs at once: the formulas docs/install.md
 * gives users, in one place.
 */
#define BK_RUN_WORKERS(jobs)		((int64) (jobs) + 1)	/* coordinator, client workers */
#define BK_SUITE_WORKERS(jobs)		(BK_RUN_WORKERS(jobs) + 1)	/* the suite's, its largest run */
#define BK_INIT_WORKERS(jobs)		((int64) (jobs) + 1)	/* coordinator, one per loader */

/*
 * How a call hands its work to a worker and waits for it (bk_launch): the
 * worker's type and entry point, what it is called in messages, how many
 * workers the whole call needs (for the hint when no slot is free), when
 * the wait is over, what a cancel during the wait does, and what to say if
 * the worker stops before the wait is over, and what to do at every wake-up
 * of the wait (print what the worker has to say).
 */
typedef struct BkLaunch
{
	const char *type;			/* bgw_type, as pg_stat_activity shows it */
	const char *function;		/* entry point in this library */
	const char *what;			/* "the run's coordinator" */
	bool		(*ready) (void *arg);	/* the wait is over */
	pg_on_exit_callback cancel; /* on error or exit while waiting; or NULL */
	long		interval_ms;	/* how often READY is asked */
	const char *stopped;		/* message if it stops before READY */
	const char *stopped_hint;
	void		(*each) (void *arg);	/* at every wake-up while waiting; or NULL */
} BkLaunch;

extern void bk_text_copy(char *dst, const char *src, size_t size);
extern void bk_error_capture(BkError *dst);
extern void bk_error_copy(BkError *dst, const ErrorData *edata);
extern void bk_error_set(BkError *dst, int sqlerrcode, const char *message,
						 const char *hint);
extern void bk_error_raise(const BkError *err);

extern bool bk_worker_alive(BackgroundWorkerHandle *handle);
extern void bk_set_latch_of(int pid);
extern dsm_segment *bk_worker_attach(Datum main_arg);
extern int	bk_worker_index(void);
extern void bk_worker_connect(Oid dboid, Oid roleid, const char *appname);
extern bool bk_postmaster_alive(void);
extern bool bk_segment_ours(dsm_segment *seg, uint32 magic, const char *what);
extern bool bk_wait_worker(BackgroundWorkerHandle *handle, bool (*done) (void *arg),
						   void (*each) (void *arg), void *arg, long interval_ms);
extern BackgroundWorkerHandle *bk_start_worker(const char *type, const char *function,
											   dsm_segment *seg, int index,
											   const char *what, const char *needed_by,
											   int64 needed);
extern BackgroundWorkerHandle *bk_launch(const BkLaunch *launch, dsm_segment *seg,
										 void *arg, const char *needed_by, int64 needed);

#endif							/* PGBENCHKIT_WORKER_H */
