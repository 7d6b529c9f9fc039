/*-------------------------------------------------------------------------
 *
 * prewarm.h
 *		The workload's relations loaded into shared buffers (prewarm.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_OBSERVE_PREWARM_H
#define PGBENCHKIT_OBSERVE_PREWARM_H

#include "observe/observe.h"

extern void obs_dataset_tables(int64 dataset_id, Oid **tables, int *ntables);
/* in a transaction, as the run's role */
extern void bk_obs_prewarm(BkObserver *o);

#endif							/* PGBENCHKIT_OBSERVE_PREWARM_H */
