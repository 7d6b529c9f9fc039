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

/*
 * A statement with identifier variables or lists as it runs this time, with
 * the extended or prepared protocol: its text, and the values of its
 * parameters ($1 .. $nparams; SQL's null is a value of kind BK_VAL_UNDEF,
 * which binds as pgbench binds a variable never set)
 */
typedef struct BkSqlText
{
	const char *sql;
	int			nparams;
	const BkValue **params;
} BkSqlText;

extern void bk_sql_params(BkScript *script, BkStatement *stmt);
extern void bk_sql_dynamic(const BkStatement *stmt, const BkValue *vars, BkSqlText *out);
extern char *bk_sql_substitute(const BkStatement *stmt, const BkValue *vars);

#endif							/* PGBENCHKIT_SCRIPT_SUBST_H */
