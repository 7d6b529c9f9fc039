/*-------------------------------------------------------------------------
 *
 * exec_pq.h
 *		The executor of a target's clients (exec_pq.c): the run's SQL over
 *		a libpq connection to the target, in pgbench's protocols.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_EXEC_PQ_H
#define PGBENCHKIT_EXEC_PQ_H

#include "runner/executor.h"

struct BkTarget;
extern BkExecSession *bk_exec_pq_create(int protocol, bool per_transaction,
										struct BkTarget *target, MemoryContext cxt);

#endif							/* PGBENCHKIT_EXEC_PQ_H */
