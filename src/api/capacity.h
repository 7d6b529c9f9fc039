/*-------------------------------------------------------------------------
 *
 * capacity.h
 *		A capacity search's arguments checked before anything starts, and
 *		the search as a suite's jsonb text (capacity.c), for bench.capacity
 *		and for bench.schedule_capacity (schedule.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_API_CAPACITY_H
#define PGBENCHKIT_API_CAPACITY_H

#include "fmgr.h"

#include "api/runargs.h"

extern char *capacity_spec(const char *fn, const BkArgFunction *f, const Datum *v, const bool *n,
						   bool now);

#endif							/* PGBENCHKIT_API_CAPACITY_H */
