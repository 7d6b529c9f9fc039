/*-------------------------------------------------------------------------
 *
 * pgbenchkit.h
 *		Declarations shared by the C files of pgbenchkit.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_H
#define PGBENCHKIT_H

#include "fmgr.h"

/* the library's version, the Makefile's EXTVERSION */
#ifndef BK_VERSION
#error "BK_VERSION must be defined (the Makefile passes EXTVERSION)"
#endif

extern void _PG_init(void);
extern void bk_check_call(FunctionCallInfo fcinfo, int nargs, const char *fn);
extern void bk_refuse_call(const char *fn, const char *message);
extern void bk_refuse_call_count(FunctionCallInfo fcinfo, int nargs, const char *fn);

/* pgbenchkit.test_pause: moments a run's coordinator waits at, for tests */
extern PGDLLIMPORT char *bk_test_pause;
extern PGDLLIMPORT bool bk_time_phases;

#endif							/* PGBENCHKIT_H */
