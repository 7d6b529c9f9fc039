/*-------------------------------------------------------------------------
 *
 * sql_scan.h
 *		The SQL of a script as psql's lexer reads it (sql_scan.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_SCRIPT_SQL_SCAN_H
#define PGBENCHKIT_SCRIPT_SQL_SCAN_H

#include "script/parse_state.h"

/* the longest word bk_sql_words keeps, with its terminating zero */
#define BK_WORD_LEN 16

extern void bk_sql_append(BkScriptParser *sp, const char *p, int len, int *line);
extern const char *bk_skip_quoted(BkScriptParser *sp, const char *p, bool escapes, int line);
extern const char *bk_skip_comment(BkScriptParser *sp, const char *p, int line);
extern const char *bk_skip_dollar(BkScriptParser *sp, const char *p, int line);
extern void bk_sql_identifier(BkScriptParser *sp, const char *word, int len);
extern int	bk_sql_words(const char *sql, char words[][BK_WORD_LEN], int maxwords,
						 bool *more);

#endif							/* PGBENCHKIT_SCRIPT_SQL_SCAN_H */
