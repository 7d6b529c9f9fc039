/*-------------------------------------------------------------------------
 *
 * outage.h
 *		on_disconnect 'reconnect': a run's outages summed up, and its
 *		check_query (outage.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_OUTAGE_H
#define PGBENCHKIT_OUTAGE_H

#include "libpq-fe.h"
#include "datatype/timestamp.h"
#include "runner/results.h"
#include "runner/segment.h"

extern void bk_run_outages(RunShared *sh, TimestampTz start_ts, RunSummary *sum, int64 end_ns);
extern bool bk_run_check(RunShared *sh, PGconn *conn, bool before, int64 *value, char **why);

#endif							/* PGBENCHKIT_OUTAGE_H */
