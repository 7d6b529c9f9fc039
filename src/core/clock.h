/*-------------------------------------------------------------------------
 *
 * clock.h
 *		The clock every part of a run reads: the caller, the coordinator,
 *		the clients and their executors, the samples.
 *
 * CLOCK_MONOTONIC is the same in every process of the machine, so times
 * taken in one worker (a transaction's end) and another (the run's start)
 * can be subtracted.  Inline: the clients read it several times per
 * transaction.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_CLOCK_H
#define PGBENCHKIT_CLOCK_H

#include <time.h>

/*
 * bk_now_ns
 *		The monotonic clock, in nanoseconds, the same in every process.
 */
static inline int64
bk_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#endif							/* PGBENCHKIT_CLOCK_H */
