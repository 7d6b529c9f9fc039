/*-------------------------------------------------------------------------
 *
 * start_at.h
 *		at =>: the instant a run's measured part starts, shared by the
 *		parts of a distributed run (start_at.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_START_AT_H
#define PGBENCHKIT_START_AT_H

#include "datatype/timestamp.h"
#include "runner/segment.h"

/* how long before the clients go the run's first sample is taken */
#define BK_RUN_SAMPLE_LEAD_NS	(200 * INT64CONST(1000000))

/* whether the run must not go (and why, the caller's code) */
typedef bool (*BkStopCheck) (void *arg, int *why);

extern TimestampTz bk_run_go_at(const RunShared *sh);
extern void bk_run_check_in_time(const RunShared *sh);
extern bool bk_run_wait_for_start(RunShared *sh, int64 lead_ns, BkStopCheck stop, void *arg,
								  int *why);

#endif							/* PGBENCHKIT_START_AT_H */
