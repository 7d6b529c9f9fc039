/*-------------------------------------------------------------------------
 *
 * suite_caller.h
 *		The caller's side of a suite (suite_caller.c): starting its worker,
 *		watching it, its end and its summary.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_API_SUITE_CALLER_H
#define PGBENCHKIT_API_SUITE_CALLER_H

#include "fmgr.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"

/* the waiting caller's view of a suite, read afresh */
typedef struct SuiteWatch
{
	int64		suite_id;
	int64		run_id;			/* the run last announced */
	bool		run_ended;		/* and whether its end was announced */
	double		printed_elapsed;	/* its progress printed so far */
	char	   *status;
	int			runs_planned;
	int			runs_done;
	char	   *error;
	char	   *sqlstate;
	char	   *created_by;
	int			worker_pid;
} SuiteWatch;

extern MemoryContext suite_result_cxt;

extern char *suite_getvalue(int row, int col);
extern void suite_caller_cancel(int code, Datum arg);
extern dsm_segment *suite_launch(const char *fn, const char *spec,
								 BackgroundWorkerHandle **handle_out);
extern void suite_read(SuiteWatch *w);
extern void suite_wait(SuiteWatch *w, BackgroundWorkerHandle *handle);
extern void suite_raise_unless_done(SuiteWatch *w);
extern void suite_return_rows(FunctionCallInfo fcinfo, const char *sql, int64 suite_id);
extern void suite_return_summary(FunctionCallInfo fcinfo, int64 suite_id);
extern Datum suite_run(FunctionCallInfo fcinfo, const char *fn, const char *spec);
extern Datum suite_start(FunctionCallInfo fcinfo, const char *fn, const char *spec);
extern Datum suite_run_returning(FunctionCallInfo fcinfo, const char *fn, const char *spec,
								 const char *result_sql);

#endif							/* PGBENCHKIT_API_SUITE_CALLER_H */
