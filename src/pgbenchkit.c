/*-------------------------------------------------------------------------
 *
 * pgbenchkit.c
 *		Module entry point of pgbenchkit: the benchmark lab inside PostgreSQL.
 *
 * The extension needs no shared_preload_libraries entry: everything it
 * runs in the background is a dynamic background worker that talks to its
 * caller through a dynamic shared memory segment.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"

#include "pgbenchkit.h"

PG_MODULE_MAGIC;

/*
 * _PG_init
 *		Library load hook.  Nothing to set up yet beyond the module magic.
 */
void
_PG_init(void)
{
}
