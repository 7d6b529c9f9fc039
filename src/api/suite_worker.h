/*-------------------------------------------------------------------------
 *
 * suite_worker.h
 *		What a suite's caller (suite_caller.c) and its worker
 *		(suite_worker.c) share: the suite's segment.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_API_SUITE_WORKER_H
#define PGBENCHKIT_API_SUITE_WORKER_H

#include "port/atomics.h"

#include "core/worker.h"

/* bgw_type of a suite's worker */
#define SUITE_WORKER_TYPE		"pgbenchkit suite"

#define SUITE_MAGIC				BK_SEGMENT_MAGIC('S')

/* SuiteShared.state */
#define SUITE_STARTING			0
#define SUITE_RUNNING			1	/* the row is committed */
#define SUITE_ENDED				2	/* the final row is committed */
#define SUITE_NOT_STARTED		3	/* failed before there was a row: error */

typedef struct SuiteShared
{
	uint32		magic;

	/* set by the caller */
	Oid			dboid;
	Oid			roleid;
	int			caller_pid;
	Size		spec_off;		/* the suite as jsonb text */

	/* set by the worker */
	int			worker_pid;
	pg_atomic_uint32 state;
	int64		suite_id;
	int			runs_planned;
	char		final_status[16];
	BkError		error;
} SuiteShared;

#define SUITE_SPEC(sh)			((char *) (sh) + (sh)->spec_off)

#endif							/* PGBENCHKIT_API_SUITE_WORKER_H */
