/*-------------------------------------------------------------------------
 *
 * sample.h
 *		A run's observer started, and its samples (sample.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_OBSERVE_SAMPLE_H
#define PGBENCHKIT_OBSERVE_SAMPLE_H

#include "observe/observe.h"

/* in a transaction, as the run's role */
extern void bk_obs_init(BkObserver *o, int64 run_id, int64 dataset_id, Oid roleid,
						const char *counters);
extern void bk_obs_init_remote(BkObserver *o, int64 run_id, Oid roleid, PGconn *conn,
							   const char *name, const char *table_names, const char *counters);
extern void bk_obs_sample(BkObserver *o, const char *phase, TimestampTz at,
						  double elapsed_s, int64 xacts);
extern void bk_obs_set_remote(BkObserver *o, PGconn *conn);
extern void bk_obs_resume(BkObserver *o, PGconn *conn);
extern bool bk_obs_sampling(const BkObserver *o);

#endif							/* PGBENCHKIT_OBSERVE_SAMPLE_H */
