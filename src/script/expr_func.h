/*-------------------------------------------------------------------------
 *
 * expr_func.h
 *		The operators and functions of expressions (expr_func.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_SCRIPT_EXPR_FUNC_H
#define PGBENCHKIT_SCRIPT_EXPR_FUNC_H

#include "script/expr.h"

extern void bk_apply(BkEvalState *st, const BkExpr *e, BkValue *args, int nargs,
					 BkValue *ret);

#endif							/* PGBENCHKIT_SCRIPT_EXPR_FUNC_H */
