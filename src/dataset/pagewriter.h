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

#include "utils/guc.h"

#include "common/relpath.h"
#include "storage/block.h"
#include "storage/bufpage.h"
#include "utils/relcache.h"

/*
 * Pages written at once: 1 MB, four WAL records of 32 whole pages
 * (log_newpages), and one write of contiguous blocks around the page cache.
 */
#define BK_PW_MAX_BATCH 128

typedef struct BkPageWriter
{
	Relation	rel;
	ForkNumber	fork;
	bool		page_std;		/* standard layout: the hole is not logged */
	bool		use_wal;
	BlockNumber nblocks;		/* length of the fork so far */
	int			capacity;		/* pages held before a write */
	int			npending;
	char	   *buf;			/* capacity pages, aligned for direct I/O */
	char	   *buf_alloc;
	BlockNumber blknos[BK_PW_MAX_BATCH];
	bool		direct;			/* write around the kernel's page cache */
	int			dfd;			/* open for that: segment DSEG, or -1 */
	BlockNumber dseg;
	char	   *dpath;			/* the fork's file (segment 0) */
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
