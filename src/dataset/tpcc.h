/*-------------------------------------------------------------------------
 *
 * tpcc.h
 *		The TPC-C dataset, the kind "tpcc": the nine tables of the
 *		specification as go-tpc makes them for PostgreSQL, their initial
 *		population (clause 4.3.3.1), loaders and statements for a target
 *		(tpcc.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_TPCC_H
#define PGBENCHKIT_TPCC_H

#include "dataset/dataset.h"

/* the kind "tpcc" (init.c's list of kinds) */
extern const BkDatasetKind bk_dataset_tpcc;

#endif							/* PGBENCHKIT_TPCC_H */
