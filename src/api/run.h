/*-------------------------------------------------------------------------
 *
 * run.h
 *		What the suites (suite*.c) share with single runs (run.c): the
 *		checks of a run's arguments and caller, waiting, progress lines.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_API_RUN_H
#define PGBENCHKIT_API_RUN_H

#include "fmgr.h"

extern int64 bk_run_suite_id;
extern const char *bk_run_suite_step;
extern bool bk_run_check_skip_dataset;
extern void bk_run_check_argv(const char *fn, const Datum *v, const bool *n,
							  int extra_workers);
extern char *bk_run_dataset_shape(const char *fn, const Datum *v, const bool *n);
extern void bk_run_check_caller(const char *fn);
extern void bk_release_xmin(void);
extern void bk_select_latest(const char *sql, int nargs, Oid *types, Datum *values,
							 long tcount);
extern void bk_print_progress(int64 run_id, double *printed_elapsed);

#endif							/* PGBENCHKIT_API_RUN_H */
