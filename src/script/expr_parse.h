/*-------------------------------------------------------------------------
 *
 * expr_parse.h
 *		The parser of expressions (expr_parse.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_SCRIPT_EXPR_PARSE_H
#define PGBENCHKIT_SCRIPT_EXPR_PARSE_H

#include "script/script.h"

extern BkExpr *bk_expr_parse(BkScript *script, const char *text, int line,
							 int column, const char *command);

#endif							/* PGBENCHKIT_SCRIPT_EXPR_PARSE_H */
