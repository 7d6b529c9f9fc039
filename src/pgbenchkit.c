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
#include "utils/guc.h"

#include "compat.h"
#include "pagewriter.h"
#include "pgbenchkit.h"

PG_MODULE_MAGIC;

/*
 * _PG_init
 *		Library load hook: the extension's settings.
 */
void
_PG_init(void)
{
	DefineCustomBoolVariable("pgbenchkit.init_direct_writes",
							 "Lets bench.init write the tables and indexes it loads around the kernel's page cache.",
							 "With it, most pages are written with O_DIRECT where the file system allows that; "
							 "without it, all go through the page cache, as other writes of the server do.",
							 &bk_init_direct_writes,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	MarkGUCPrefixReserved("pgbenchkit");
}
