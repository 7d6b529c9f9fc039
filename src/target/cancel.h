/*-------------------------------------------------------------------------
 *
 * cancel.h
 *		Cancel requests to a target sent all at once, by helper threads
 *		that do nothing else (cancel.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef BK_CANCEL_H
#define BK_CANCEL_H

#include "libpq-fe.h"

typedef struct BkCancels BkCancels;

extern BkCancels *bk_cancels_create(int capacity);
extern void bk_cancels_add(BkCancels *c, PGconn *conn);
extern int	bk_cancels_count(const BkCancels *c);
extern void bk_cancels_send(BkCancels *c);
extern int	bk_cancels_left(const BkCancels *c);
extern void bk_cancels_release(BkCancels *c);

#endif							/* BK_CANCEL_H */
