/*-------------------------------------------------------------------------
 *
 * pgbenchkit.h
 *		Declarations shared by the C files of pgbenchkit.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_H
#define PGBENCHKIT_H

extern void _PG_init(void);

#endif							/* PGBENCHKIT_H */
