/*-------------------------------------------------------------------------
 *
 * subst.h
 *		The variables in the text of a statement: found when the script is
 *		parsed, their values put in when it runs (subst.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_SCRIPT_SUBST_H
#define PGBENCHKIT_SCRIPT_SUBST_H

#include "script/script.h"

extern void bk_sql_params(BkScript *script, BkStatement *stmt);
extern const char *bk_sql_with_idents(const BkStatement *stmt, const BkValue *vars);
extern char *bk_sql_substitute(const BkStatement *stmt, const BkValue *vars);

#endif							/* PGBENCHKIT_SCRIPT_SUBST_H */
