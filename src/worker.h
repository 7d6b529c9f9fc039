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

extern void bk_error_capture(BkError *dst);
extern void bk_error_set(BkError *dst, int sqlerrcode, const char *message,
						 const char *hint);
extern void bk_error_raise(const BkError *err);

extern BackgroundWorkerHandle *bk_register_worker(const char *type,
												  const char *function,
												  dsm_handle handle,
												  int index);
extern bool bk_worker_alive(BackgroundWorkerHandle *handle);
extern void bk_set_latch_of(int pid);
extern dsm_segment *bk_worker_attach(Datum main_arg);
extern int	bk_worker_index(void);
extern void bk_worker_connect(Oid dboid, Oid roleid, const char *appname);
extern bool bk_postmaster_alive(void);
extern bool bk_wait_worker(BackgroundWorkerHandle *handle, bool (*done) (void *arg),
						   void (*each) (void *arg), void *arg, long interval_ms);

#endif							/* PGBENCHKIT_WORKER_H */
