/*-------------------------------------------------------------------------
 *
 * btbuild.h
 *		Building a unique btree index on integer columns from keys that
 *		arrive in ascending order, straight to storage.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_BTBUILD_H
#define PGBENCHKIT_BTBUILD_H

#include "port/atomics.h"
#include "storage/block.h"
#include "storage/off.h"
#include "utils/relcache.h"

typedef struct BkBtBuild BkBtBuild;

extern BkBtBuild *bk_bt_begin(Relation index, int capacity);
extern void bk_bt_add(BkBtBuild *bt, int64 key, BlockNumber heap_blkno,
					  OffsetNumber heap_offnum);
extern void bk_bt_add_keys(BkBtBuild *bt, const int32 *keys, BlockNumber heap_blkno,
						   OffsetNumber heap_offnum);
extern BlockNumber bk_bt_finish(BkBtBuild *bt);
extern int64 bk_bt_build_from_pages(Relation heap, Relation index, pg_atomic_uint32 *cancel);

#endif							/* PGBENCHKIT_BTBUILD_H */
