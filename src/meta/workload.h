/*-------------------------------------------------------------------------
 *
 * workload.h
 *		Workloads: the scripts of bench.workloads with their weights, as the
 *		caller of a run, its clients and bench.define_workload read them.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_WORKLOAD_H
#define PGBENCHKIT_WORKLOAD_H

#include "script/script.h"

/* pgbench's limit on the number of scripts (-f, -b) of one run */
#define BK_MAX_SCRIPTS		128

/* the label of the runs of an unnamed script (bench.run(script => ...)) */
#define BK_UNNAMED_WORKLOAD	"(script)"

typedef struct BkWorkload
{
	char	   *name;
	char	   *dataset;		/* the kind of dataset it needs, or NULL */
	int			nscripts;
	char	  **scripts;
	int		   *weights;
	int64		total_weight;
} BkWorkload;

extern BkWorkload *bk_workload_load(const char *name);
extern BkWorkload *bk_workload_unnamed(const char *script);
extern BkScript **bk_workload_parse(const BkWorkload *w, BkVarTable *vt);
extern void bk_workload_check_protocol(BkScript **scripts, int nscripts, bool simple);
extern void bk_workload_declare_dataset(BkWorkload *w, BkScript **scripts);

#endif							/* PGBENCHKIT_WORKLOAD_H */
