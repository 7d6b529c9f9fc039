/*-------------------------------------------------------------------------
 *
 * expr_eval.h
 *		The evaluation of expressions (expr_eval.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_SCRIPT_EXPR_EVAL_H
#define PGBENCHKIT_SCRIPT_EXPR_EVAL_H

#include "core/random.h"
#include "script/script.h"

extern void bk_expr_eval(const BkScript *script, int cmdno, const BkExpr *expr,
						 BkValue *vars, BkPrng *prng, BkValue *result);
extern const BkValue *bk_expr_element(const BkScript *script, int cmdno,
									  const BkExpr *expr, BkValue *vars, BkPrng *prng);
extern bool bk_value_truth(const BkScript *script, int cmdno, const BkValue *value);

#endif							/* PGBENCHKIT_SCRIPT_EXPR_EVAL_H */
