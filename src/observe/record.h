/*-------------------------------------------------------------------------
 *
 * record.h
 *		What a run's observer records at the run's start and end, and the
 *		query of a target's settings (record.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_OBSERVE_RECORD_H
#define PGBENCHKIT_OBSERVE_RECORD_H

#include "observe/observe.h"

/* in a transaction, as the run's role */
extern void bk_obs_begin(BkObserver *o, TimestampTz at, double elapsed_s, int64 xacts);
extern void bk_obs_end(BkObserver *o, TimestampTz at, double elapsed_s, int64 xacts);
extern char *bk_obs_settings_sql(void);

#endif							/* PGBENCHKIT_OBSERVE_RECORD_H */
