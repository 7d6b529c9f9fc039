/*-------------------------------------------------------------------------
 *
 * redact.h
 *		Statement texts without the secrets they may hold (redact.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_REDACT_H
#define PGBENCHKIT_REDACT_H

/* what takes the place of a string constant, a comment or a value */
#define BK_REDACTED "<redacted>"

/* TEXT redacted, palloc'd; NULL when it has nothing to redact */
extern char *bk_redact_statement(const char *text);

#endif							/* PGBENCHKIT_REDACT_H */
