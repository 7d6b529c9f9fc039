/*-------------------------------------------------------------------------
 *
 * segment.c
 *		What the parts of a run read from its shared memory beyond its
 *		plain fields (segment.h: the layout).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "meta/workload.h"
#include "runner/segment.h"

/*
 * bk_run_shared_workload
 *		The workload of a run, as its shared memory holds it.
 */
BkWorkload *
bk_run_shared_workload(const RunShared *sh)
{
	BkWorkload *w = palloc0(sizeof(BkWorkload));
	const char *p = RUN_TEXT(sh, sh->scripts_off);

	w->name = pstrdup(sh->workload);
	w->nscripts = sh->nscripts;
	w->scripts = palloc(sizeof(char *) * sh->nscripts);
	w->weights = palloc(sizeof(int) * sh->nscripts);
	for (int i = 0; i < sh->nscripts; i++)
	{
		w->scripts[i] = pstrdup(p);
		p += strlen(p) + 1;
		w->weights[i] = sh->weights[i];
		w->total_weight += sh->weights[i];
	}
	return w;
}
