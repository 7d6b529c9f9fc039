/*-------------------------------------------------------------------------
 *
 * expr.h
 *		Expressions of pgbench's script language (\set, \if, \elif): their
 *		parsed form, which the parser (expr_parse.c, over the tokens of
 *		expr_scan.c) makes and the evaluator (expr_eval.c, applying the
 *		operators and functions of expr_func.c) reads, and the state of an
 *		evaluation.  Values and their text are value.c's; the random
 *		generator, the distributions behind random() and friends, the
 *		hashes and permute() are random.c's.
 *
 * The language is pgbench's as of PostgreSQL 17 (src/bin/pgbench:
 * exprscan.l, exprparse.y and pgbench.c), written again for the backend.
 * The aim is pgbench's results exactly: the same literals, precedences and
 * types, the same value from every operator and function, the same errors
 * in pgbench's words, and from one seed the same random numbers (random.c).
 * Errors are ereport()s naming the script, the line and (when parsing) the
 * column; memory is palloc'd; every random number comes from the BkPrng
 * handed in, so that a client restoring a saved copy of its generator
 * replays the same values.
 *
 * Beyond pgbench's language: sysbench's distributions (sysbench_gaussian,
 * sysbench_special, sysbench_pareto, sysbench_zipfian, with sysbench's
 * parameters and defaults) and random_string('pattern'), sysbench's
 * rand.string, whose text is the whole value of a \set: the only quoted
 * string an expression has, and the only text one makes.
 *
 * What is still not quite pgbench:
 *	- random_zipfian() with a NaN parameter is refused as out of range;
 *	  pgbench's range check lets a NaN through and then never returns.
 *	- An empty string variable read by an expression is an error here as
 *	  in pgbench, which however prints no message for it.
 *	- Where pgbench's C is undefined its results depend on the platform;
 *	  we give those of pgbench on x86-64: a shift by a count outside 0..63
 *	  shifts by the count modulo 64; abs() of the smallest bigint is
 *	  itself; abs() of a boolean reads its storage as a double (false is
 *	  0, true the smallest subnormal, 4.94065645841247e-324).  random.c
 *	  says what random_exponential() and random_gaussian() give there.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_SCRIPT_EXPR_H
#define PGBENCHKIT_SCRIPT_EXPR_H

#include "core/random.h"
#include "script/script.h"

/* the kinds of expression node */
typedef enum BkExprKind
{
	BK_EXPR_CONST,				/* a constant: value */
	BK_EXPR_VAR,				/* :name: var */
	BK_EXPR_ELEM,				/* :name[index]: var, args[0] the index */
	BK_EXPR_FUNC				/* an operator or a function: func, args */
} BkExprKind;

/* operators and functions; operators are evaluated as functions */
typedef enum BkFunc
{
	BK_F_ADD,
	BK_F_SUB,
	BK_F_MUL,
	BK_F_DIV,
	BK_F_MOD,
	BK_F_EQ,
	BK_F_NE,
	BK_F_LE,
	BK_F_LT,
	BK_F_IS,
	BK_F_AND,					/* lazy */
	BK_F_OR,					/* lazy */
	BK_F_NOT,
	BK_F_CASE,					/* lazy: when, then, ..., else */
	BK_F_BITAND,
	BK_F_BITOR,
	BK_F_BITXOR,
	BK_F_LSHIFT,
	BK_F_RSHIFT,
	BK_F_ABS,
	BK_F_DEBUG,
	BK_F_DOUBLE,
	BK_F_INT,
	BK_F_LEAST,
	BK_F_GREATEST,
	BK_F_PI,
	BK_F_SQRT,
	BK_F_LN,
	BK_F_EXP,
	BK_F_POW,
	BK_F_RANDOM,
	BK_F_RANDOM_EXPONENTIAL,
	BK_F_RANDOM_GAUSSIAN,
	BK_F_RANDOM_ZIPFIAN,
	BK_F_SB_GAUSSIAN,			/* sysbench's distributions */
	BK_F_SB_SPECIAL,
	BK_F_SB_PARETO,
	BK_F_SB_ZIPFIAN,
	BK_F_RANDOM_STRING,			/* sysbench.rand.string: a \set's whole value */
	BK_F_HASH_MURMUR2,
	BK_F_HASH_FNV1A,
	BK_F_PERMUTE,
	BK_F_ARRAY_LENGTH,			/* array_length(:name): var, no args */
	BK_F_ARRAY_POSITION			/* array_position(:name, v): var, args[0] */
} BkFunc;

struct BkExpr
{
	BkExprKind	kind;
	BkValue		value;			/* BK_EXPR_CONST */
	int			var;			/* BK_EXPR_VAR, BK_EXPR_ELEM; the array of
								 * BK_F_ARRAY_LENGTH and BK_F_ARRAY_POSITION */
	BkFunc		func;			/* BK_EXPR_FUNC */
	int			nargs;
	BkExpr	  **args;
};

/* what an evaluation works with */
typedef struct BkEvalState
{
	const BkScript *script;
	int			cmdno;			/* the command evaluated, from 0 */
	BkValue    *vars;
	BkPrng	   *prng;
} BkEvalState;

#endif							/* PGBENCHKIT_SCRIPT_EXPR_H */
