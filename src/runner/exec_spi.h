/*-------------------------------------------------------------------------
 *
 * exec_spi.h
 *		The executor of in-server clients (exec_spi.c): the run's SQL
 *		through SPI in the client worker's own backend.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_EXEC_SPI_H
#define PGBENCHKIT_EXEC_SPI_H

#include "runner/executor.h"

extern BkExecSession *bk_exec_spi_create(int protocol, bool time_phases, bool (*quiet) (void *arg),
										 void *quiet_arg, MemoryContext cxt);

#endif							/* PGBENCHKIT_EXEC_SPI_H */
