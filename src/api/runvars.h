/*-------------------------------------------------------------------------
 *
 * runvars.h
 *		The variables a run sets before it starts (runvars.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_RUNVARS_H
#define PGBENCHKIT_RUNVARS_H

#include "api/runargs.h"
#include "dataset/lookup.h"
#include "meta/workload.h"

extern void bk_run_dataset_variables(RunArgs *a, const char *dataset, const BkFoundDataset *found,
									 uint64 seed);
extern void bk_run_tpcc_args(const RunArgs *a, const BkWorkload *w);
extern void bk_run_tpcc_variables(RunArgs *a, int warehouses_found);
extern void bk_run_tpcc_functions(const RunArgs *a, const BkWorkload *w);

#endif							/* PGBENCHKIT_RUNVARS_H */
