/*-------------------------------------------------------------------------
 *
 * pagewriter.h
 *		Writing fully built pages straight to a new relation's storage,
 *		WAL-logged as whole pages, as index builds write theirs.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_PAGEWRITER_H
#define PGBENCHKIT_PAGEWRITER_H

#include "common/relpath.h"
#include "storage/block.h"
#include "storage/bufpage.h"
#include "utils/relcache.h"

/* whole pages per WAL record, as log_newpages batches them */
#define BK_PW_MAX_BATCH 32

typedef struct BkPageWriter
{
	Relation	rel;
	ForkNumber	fork;
	bool		page_std;		/* standard layout: the hole is not logged */
	bool		use_wal;
	BlockNumber nblocks;		/* length of the fork so far */
	int			capacity;		/* pages held before a write */
	int			npending;
	char	   *buf;			/* capacity pages */
	BlockNumber blknos[BK_PW_MAX_BATCH];
} BkPageWriter;

extern void bk_pw_begin(BkPageWriter *pw, Relation rel, ForkNumber fork,
						bool page_std, int capacity);
extern Page bk_pw_page(BkPageWriter *pw, BlockNumber blkno);
extern void bk_pw_write(BkPageWriter *pw, BlockNumber blkno, Page page);
extern void bk_pw_flush(BkPageWriter *pw);
extern void bk_pw_finish(BkPageWriter *pw);

extern void bk_preextend(Relation rel, BlockNumber nblocks);
extern void bk_write_vm_all_frozen(Relation rel, BlockNumber heap_blocks);

#endif							/* PGBENCHKIT_PAGEWRITER_H */
