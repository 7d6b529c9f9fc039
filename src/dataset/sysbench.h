/*-------------------------------------------------------------------------
 *
 * sysbench.h
 *		Sysbench's dataset, the kind "sysbench": the tables sbtest1..N of
 *		oltp_common.lua, their options, loader and statements for a target
 *		(sysbench.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_SYSBENCH_H
#define PGBENCHKIT_SYSBENCH_H

#include "dataset/dataset.h"

/* the kind "sysbench" (init.c's list of kinds) */
extern const BkDatasetKind bk_dataset_sysbench;

#endif							/* PGBENCHKIT_SYSBENCH_H */
