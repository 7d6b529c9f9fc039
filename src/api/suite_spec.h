/*-------------------------------------------------------------------------
 *
 * suite_spec.h
 *		A suite's arguments checked before anything starts, and the suite
 *		as jsonb text (suite_spec.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_API_SUITE_SPEC_H
#define PGBENCHKIT_API_SUITE_SPEC_H

#include "fmgr.h"

#include "api/runargs.h"

extern char *sweep_spec(const char *fn, const BkArgFunction *f, const Datum *v, const bool *n,
						bool now);
extern void steps_check(const char *fn, const char *spec);

#endif							/* PGBENCHKIT_API_SUITE_SPEC_H */
