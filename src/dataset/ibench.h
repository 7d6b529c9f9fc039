/*-------------------------------------------------------------------------
 *
 * ibench.h
 *		The Insert Benchmark's dataset, the kind "ibench": its tables pi1..N,
 *		created empty, their options and statements for a target (ibench.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_IBENCH_H
#define PGBENCHKIT_IBENCH_H

#include "dataset/dataset.h"

/* the kind "ibench" (init.c's list of kinds) */
extern const BkDatasetKind bk_dataset_ibench;

#endif							/* PGBENCHKIT_IBENCH_H */
