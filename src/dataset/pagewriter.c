/*-------------------------------------------------------------------------
 *
 * pagewriter.c
 *		Writing fully built pages straight to a new relation's storage.
 *
 * The tables bench.init fills are new and seen by no one until they are
 * renamed into place, so their pages need not pass through shared buffers
 * one tuple at a time.  A loader builds each page in its own memory, logs
 * it whole (log_newpages, as index builds do), sets its checksum and writes
 * it; the checkpointer syncs the file at its next checkpoint, as for any
 * buffer written out (bk_pw_flush).
 *
 * Most pages are written around the kernel's page cache (O_DIRECT), a batch
 * of contiguous blocks in one write, where the file system allows it and
 * pgbenchkit.init_direct_writes is on (which bench.init's 'auto' chooses for
 * a dataset larger than a quarter of the memory): a dataset of gigabytes that nobody
 * reads yet would otherwise fill the page cache with dirty pages that the
 * next checkpoint writes anyway, and on machines where the page cache is
 * slow to grow (virtual machines that give free memory back to their host)
 * copying into it costs more than the disk write.  The last page a batch
 * writes to each segment goes through the storage manager, buffered, which
 * asks the checkpointer to sync that segment.
 *
 * A writer appends to the relation, or, when the relation was first
 * extended to its final length (bk_preextend), overwrites its block range
 * while other writers overwrite theirs.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <unistd.h>

#include "access/visibilitymap.h"
#include "access/xloginsert.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/bufpage.h"
#include "storage/fd.h"
#include "storage/smgr.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/rel.h"

#include "core/compat.h"
#include "dataset/pagewriter.h"
#include "core/pgbenchkit.h"

/* the visibility map's layout (private to visibilitymap.c) */
#define VM_MAPSIZE				(BLCKSZ - MAXALIGN(SizeOfPageHeaderData))
#define VM_HEAPBLOCKS_PER_BYTE	(BITS_PER_BYTE / BITS_PER_HEAPBLOCK)
#define VM_HEAPBLOCKS_PER_PAGE	(VM_MAPSIZE * VM_HEAPBLOCKS_PER_BYTE)

/*
 * bk_pw_begin
 *		Start writing FORK of REL (the fork exists), holding up to CAPACITY
 *		pages before each write (at most BK_PW_MAX_BATCH).  Blocks below the
 *		fork's current length are overwritten; blocks past it extend the
 *		fork, any gap filled with zero pages.
 */
void
bk_pw_begin(BkPageWriter *pw, Relation rel, ForkNumber fork, bool page_std,
			int capacity)
{
	pw->rel = rel;
	pw->fork = fork;
	pw->page_std = page_std;
	pw->use_wal = RelationNeedsWAL(rel);
	pw->nblocks = smgrnblocks(bk_relation_smgr(rel), fork);
	pw->capacity = Max(1, Min(capacity, BK_PW_MAX_BATCH));
	pw->npending = 0;
	pw->buf_alloc = palloc((Size) pw->capacity * BLCKSZ + PG_IO_ALIGN_SIZE);
	pw->buf = (char *) TYPEALIGN(PG_IO_ALIGN_SIZE, pw->buf_alloc);
#ifdef O_DIRECT
	pw->direct = bk_init_direct_writes == BK_DIRECT_WRITES_ON;
#else
	pw->direct = false;
#endif
	pw->dfd = -1;
	pw->dseg = InvalidBlockNumber;
	pw->dpath = NULL;
}

/*
 * bk_pw_page
 *		A page buffer for block BLKNO, to be filled by the caller before the
 *		next call; earlier pages are written when the batch is full.
 */
Page
bk_pw_page(BkPageWriter *pw, BlockNumber blkno)
{
	if (pw->npending == pw->capacity)
		bk_pw_flush(pw);
	pw->blknos[pw->npending] = blkno;
	return (Page) (pw->buf + (Size) BLCKSZ * pw->npending++);
}

/*
 * bk_pw_write
 *		Write a copy of PAGE, built elsewhere, as block BLKNO.
 */
void
bk_pw_write(BkPageWriter *pw, BlockNumber blkno, Page page)
{
	memcpy(bk_pw_page(pw, blkno), page, BLCKSZ);
}

/* the path of segment SEG of the fork whose first segment is BASE */
static char *
segment_path(const char *base, BlockNumber seg)
{
	return seg == 0 ? pstrdup(base) : psprintf("%s.%u", base, seg);
}

/* the path of segment SEG of the writer's fork */
static char *
pw_segment_path(BkPageWriter *pw, BlockNumber seg)
{
	if (pw->dpath == NULL)
		pw->dpath = bk_relpath(pw->rel, pw->fork);
	return segment_path(pw->dpath, seg);
}

/* close the writer's direct descriptor, if open */
static void
pw_close_direct(BkPageWriter *pw)
{
	if (pw->dfd >= 0)
		CloseTransientFile(pw->dfd);
	pw->dfd = -1;
	pw->dseg = InvalidBlockNumber;
}

/*
 * pw_write_direct
 *		Write the N pages at BUF as blocks BLKNO on, all in one segment,
 *		around the page cache.  False, with nothing written, if the file
 *		system refuses direct I/O: the writer then goes on through the
 *		storage manager.
 */
static bool
pw_write_direct(BkPageWriter *pw, BlockNumber blkno, const char *buf, int n)
{
#ifdef O_DIRECT
	BlockNumber seg = blkno / RELSEG_SIZE;
	off_t		off = (off_t) (blkno % RELSEG_SIZE) * BLCKSZ;
	size_t		len = (size_t) n * BLCKSZ;
	size_t		done = 0;

	if (pw->dseg != seg)
	{
		char	   *path = pw_segment_path(pw, seg);

		pw_close_direct(pw);
		pw->dfd = OpenTransientFile(path, O_RDWR | O_CREAT | PG_BINARY | O_DIRECT);
		if (pw->dfd < 0)
		{
			if (errno == EINVAL)
			{
				/* the file system has no direct I/O */
				pw->direct = false;
				pfree(path);
				return false;
			}
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not open file \"%s\": %m", path)));
		}
		pw->dseg = seg;
		pfree(path);
	}

	pgstat_report_wait_start(WAIT_EVENT_DATA_FILE_WRITE);
	while (done < len)
	{
		ssize_t		w = pwrite(pw->dfd, buf + done, len - done, off + (off_t) done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EINVAL && done == 0)
		{
			/* the device wants another alignment: give direct I/O up */
			pgstat_report_wait_end();
			pw_close_direct(pw);
			pw->direct = false;
			return false;
		}
		if (w <= 0)
		{
			int			save_errno = (w == 0) ? ENOSPC : errno;

			pgstat_report_wait_end();
			errno = save_errno;
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not write blocks %u to %u in file \"%s\": %m",
							blkno, blkno + n - 1, pw_segment_path(pw, seg)),
					 errhint("Check free disk space.")));
		}
		done += (size_t) w;
	}
	pgstat_report_wait_end();
	return true;
#else
	return false;				/* not reached: pw->direct is never set */
#endif
}

/* write PAGE as block BLKNO through the storage manager */
static void
pw_write_smgr(BkPageWriter *pw, BlockNumber blkno, Page page, bool skip_fsync)
{
	SMgrRelation smgr = bk_relation_smgr(pw->rel);

	if (blkno < pw->nblocks)
		smgrwrite(smgr, pw->fork, blkno, (char *) page, skip_fsync);
	else
	{
		/* a gap is zero pages, neither logged nor synced: rewritten later */
		while (pw->nblocks < blkno)
		{
			PGAlignedBlock zero = {0};

			smgrextend(smgr, pw->fork, pw->nblocks++, zero.data, true);
		}
		smgrextend(smgr, pw->fork, blkno, (char *) page, skip_fsync);
		pw->nblocks = blkno + 1;
	}
}

/*
 * bk_pw_flush
 *		Log and write the pages held.
 *
 * The last page written to each segment goes through the storage manager
 * with an fsync request, which tells the checkpointer to sync the segment;
 * the others are written around the page cache when the writer can (runs
 * of contiguous blocks, each in one write), else through the storage
 * manager without a request.  A page goes around the page cache only into
 * a segment that exists or comes right after the last full one, since the
 * storage manager takes a short segment for the relation's last.
 *
 * A checkpoint must not begin between our WAL records and the fsync
 * requests (it would not sync our writes, yet recovery would start after
 * our records), so the batch runs with checkpoint start delayed, as a
 * buffer write holds its buffer against a checkpoint.  (A checkpoint waits
 * only for processes inside a transaction; ours always are.)
 */
void
bk_pw_flush(BkPageWriter *pw)
{
	Page		pages[BK_PW_MAX_BATCH];
	bool		request[BK_PW_MAX_BATCH];
	int			n = pw->npending;

	if (n == 0)
		return;
	for (int i = 0; i < n; i++)
	{
		pages[i] = (Page) (pw->buf + (Size) BLCKSZ * i);
		request[i] = true;
		for (int j = i + 1; j < n && request[i]; j++)
			if (pw->blknos[j] / RELSEG_SIZE == pw->blknos[i] / RELSEG_SIZE)
				request[i] = false;
	}

	BK_DELAY_CHECKPOINT_START();
	PG_TRY();
	{
		if (pw->use_wal)
			log_newpages(BK_REL_LOCATOR(pw->rel), pw->fork, n, pw->blknos, pages,
						 pw->page_std);
		for (int i = 0; i < n; i++)
			PageSetChecksumInplace(pages[i], pw->blknos[i]);

		for (int i = 0; i < n;)
		{
			BlockNumber blkno = pw->blknos[i];
			int			run = 0;

			if (pw->direct && !request[i] &&
				blkno / RELSEG_SIZE <= pw->nblocks / RELSEG_SIZE)
			{
				run = 1;
				while (i + run < n && !request[i + run] &&
					   pw->blknos[i + run] == blkno + run &&
					   (blkno + run) % RELSEG_SIZE != 0)
					run++;
				if (!pw_write_direct(pw, blkno, (char *) pages[i], run))
					run = 0;
				else
					pw->nblocks = Max(pw->nblocks, blkno + run);
			}
			if (run == 0)
			{
				pw_write_smgr(pw, blkno, pages[i], !request[i]);
				run = 1;
			}
			i += run;
		}
	}
	PG_FINALLY();
	{
		BK_DELAY_CHECKPOINT_END();
	}
	PG_END_TRY();
	pw->npending = 0;
}

/*
 * bk_pw_finish
 *		Write what is left; free the writer's memory.
 */
void
bk_pw_finish(BkPageWriter *pw)
{
	bk_pw_flush(pw);
	pw_close_direct(pw);
	pfree(pw->buf_alloc);
	pw->buf = pw->buf_alloc = NULL;
	if (pw->dpath)
		pfree(pw->dpath);
	pw->dpath = NULL;
}

/*
 * bk_preextend
 *		Make the main fork of the new, empty REL NBLOCKS long, so that
 *		several writers can then overwrite disjoint block ranges.  Only the
 *		last block is written (zeros; earlier segments are filled out by the
 *		storage manager); it is neither logged nor synced, since the writers
 *		overwrite every block, log it and sync it.  Where the file system
 *		can, the space is then allocated (fallocate): the writers' direct
 *		writes go faster into allocated space than into holes, and a disk
 *		too full for the table fails here, before anything is written.
 */
void
bk_preextend(Relation rel, BlockNumber nblocks)
{
	PGAlignedBlock zero;
	SMgrRelation smgr = bk_relation_smgr(rel);

	if (nblocks == 0)
		return;
	if (smgrnblocks(smgr, MAIN_FORKNUM) != 0)
		elog(ERROR, "relation \"%s\" is not empty", RelationGetRelationName(rel));
	memset(zero.data, 0, BLCKSZ);
	smgrextend(smgr, MAIN_FORKNUM, nblocks - 1, zero.data, true);

#if defined(__linux__)
	{
		char	   *base = bk_relpath(rel, MAIN_FORKNUM);

		for (BlockNumber seg = 0; seg <= (nblocks - 1) / RELSEG_SIZE; seg++)
		{
			char	   *path = segment_path(base, seg);
			off_t		len = (off_t) Min(nblocks - seg * RELSEG_SIZE, RELSEG_SIZE) * BLCKSZ;
			int			fd = OpenTransientFile(path, O_RDWR | PG_BINARY);
			int			rc;

			if (fd < 0)
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not open file \"%s\": %m", path)));
			do
				rc = fallocate(fd, 0, 0, len);
			while (rc != 0 && errno == EINTR);
			if (rc != 0 && errno == ENOSPC)
				ereport(ERROR,
						(errcode(ERRCODE_DISK_FULL),
						 errmsg("could not extend file \"%s\" to %lld bytes: %m",
								path, (long long) len),
						 errhint("Check free disk space.")));
			/* other failures (no support for it) leave the holes */
			CloseTransientFile(fd);
			pfree(path);
		}
		pfree(base);
	}
#endif
}

/*
 * bk_write_vm_all_frozen
 *		Write REL's visibility map with every one of its HEAP_BLOCKS blocks
 *		marked all-visible and all-frozen, as COPY FREEZE leaves it.  The
 *		heap pages themselves carry PD_ALL_VISIBLE.
 */
void
bk_write_vm_all_frozen(Relation rel, BlockNumber heap_blocks)
{
	BkPageWriter pw;
	SMgrRelation smgr = bk_relation_smgr(rel);
	BlockNumber vm_blocks;

	if (heap_blocks == 0)
		return;
	if (!smgrexists(smgr, VISIBILITYMAP_FORKNUM))
		smgrcreate(smgr, VISIBILITYMAP_FORKNUM, false);
	vm_blocks = (heap_blocks + VM_HEAPBLOCKS_PER_PAGE - 1) / VM_HEAPBLOCKS_PER_PAGE;

	/* map pages are not of the standard layout: log them whole */
	bk_pw_begin(&pw, rel, VISIBILITYMAP_FORKNUM, false, (int) vm_blocks);
	for (BlockNumber b = 0; b < vm_blocks; b++)
	{
		Page		page = bk_pw_page(&pw, b);
		uint8	   *map;
		BlockNumber first = b * VM_HEAPBLOCKS_PER_PAGE;
		BlockNumber n = Min(heap_blocks - first, (BlockNumber) VM_HEAPBLOCKS_PER_PAGE);

		PageInit(page, BLCKSZ, 0);
		map = (uint8 *) PageGetContents(page);
		memset(map, 0xFF, n / VM_HEAPBLOCKS_PER_BYTE);
		for (BlockNumber i = n - n % VM_HEAPBLOCKS_PER_BYTE; i < n; i++)
			map[i / VM_HEAPBLOCKS_PER_BYTE] |=
				(VISIBILITYMAP_ALL_VISIBLE | VISIBILITYMAP_ALL_FROZEN) <<
				(BITS_PER_HEAPBLOCK * (i % VM_HEAPBLOCKS_PER_BYTE));
	}
	bk_pw_finish(&pw);

	/* other backends may have cached the map's size (none) */
	CacheInvalidateSmgr(BK_SMGR_LOCATOR(bk_relation_smgr(rel)));
}
