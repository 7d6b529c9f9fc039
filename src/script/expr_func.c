/*-------------------------------------------------------------------------
 *
 * expr_func.c
 *		The operators and functions of expressions, applied to their
 *		evaluated arguments: arithmetic and comparisons with pgbench's
 *		overflow checks, the bitwise operators, the mathematical functions,
 *		the random functions (pgbench's, with its checks of the range and
 *		the parameter, and sysbench's distributions), random_string(), the
 *		hashes, permute(), debug().  The generator, the distributions, the
 *		hashes and permute() themselves are core/random.c's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <float.h>
#include <math.h>

#include "common/int.h"

#include "core/random.h"
#include "script/expr.h"
#include "script/expr_func.h"
#include "script/value.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* pgbench's limits for the distributions */
#define BK_MIN_GAUSSIAN_PARAM	2.0
#define BK_MIN_ZIPFIAN_PARAM	1.001
#define BK_MAX_ZIPFIAN_PARAM	1000.0

/* sysbench's distributions draw from a range of uint32 */
#define BK_SB_MAX_BOUND			INT64CONST(4294967295)
#define BK_SB_MAX_ITER			1000

/* report a bigint overflow of operator OP (pgbench's words) */
static BK_NORETURN void
bk_bigint_out_of_range(const char *op)
{
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("bigint %s out of range", op),
			 errhint("Compute in doubles, as in double(:x) * :y, to go beyond the range of bigint.")));
}

/*
 * bk_arith
 *		+ - * / % and the comparisons: in doubles when an operand is one
 *		(but % is always on integers), else in integers with overflow checks.
 */
static void
bk_arith(BkFunc func, const BkValue *l, const BkValue *r, BkValue *ret)
{
	if ((l->kind == BK_VAL_DOUBLE || r->kind == BK_VAL_DOUBLE) && func != BK_F_MOD)
	{
		double		ld = bk_to_double(l);
		double		rd = bk_to_double(r);

		switch (func)
		{
			case BK_F_ADD:
				bk_set_double(ret, ld + rd);
				return;
			case BK_F_SUB:
				bk_set_double(ret, ld - rd);
				return;
			case BK_F_MUL:
				bk_set_double(ret, ld * rd);
				return;
			case BK_F_DIV:
				bk_set_double(ret, ld / rd);
				return;
			case BK_F_EQ:
				bk_set_bool(ret, ld == rd);
				return;
			case BK_F_NE:
				bk_set_bool(ret, ld != rd);
				return;
			case BK_F_LE:
				bk_set_bool(ret, ld <= rd);
				return;
			case BK_F_LT:
				bk_set_bool(ret, ld < rd);
				return;
			default:
				break;
		}
	}
	else
	{
		int64		li = bk_to_int(l);
		int64		ri = bk_to_int(r);
		int64		res;

		switch (func)
		{
			case BK_F_ADD:
				if (pg_add_s64_overflow(li, ri, &res))
					bk_bigint_out_of_range("add");
				bk_set_int(ret, res);
				return;
			case BK_F_SUB:
				if (pg_sub_s64_overflow(li, ri, &res))
					bk_bigint_out_of_range("sub");
				bk_set_int(ret, res);
				return;
			case BK_F_MUL:
				if (pg_mul_s64_overflow(li, ri, &res))
					bk_bigint_out_of_range("mul");
				bk_set_int(ret, res);
				return;
			case BK_F_DIV:
			case BK_F_MOD:
				if (ri == 0)
					ereport(ERROR,
							(errcode(ERRCODE_DIVISION_BY_ZERO),
							 errmsg("division by zero"),
							 errhint("The divisor of an integer / or %% must not be 0; a double one gives Infinity or NaN.")));
				if (ri == -1)
				{
					/* the smallest bigint has no opposite */
					if (func == BK_F_MOD)
						bk_set_int(ret, 0);
					else if (li == PG_INT64_MIN)
						bk_bigint_out_of_range("div");
					else
						bk_set_int(ret, -li);
					return;
				}
				bk_set_int(ret, func == BK_F_DIV ? li / ri : li % ri);
				return;
			case BK_F_EQ:
				bk_set_bool(ret, li == ri);
				return;
			case BK_F_NE:
				bk_set_bool(ret, li != ri);
				return;
			case BK_F_LE:
				bk_set_bool(ret, li <= ri);
				return;
			case BK_F_LT:
				bk_set_bool(ret, li < ri);
				return;
			default:
				break;
		}
	}
	elog(ERROR, "unexpected arithmetic function %d", (int) func);
}

/*
 * bk_random
 *		The random functions: pgbench's checks of the range and of the
 *		parameter, then a draw from the client's generator.
 */
static void
bk_random(BkEvalState *st, BkFunc func, const BkValue *args, BkValue *ret)
{
	int64		imin = bk_to_int(&args[0]);
	int64		imax = bk_to_int(&args[1]);
	int64		delta;
	double		param;

	if (imin > imax)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("empty range given to random"),
				 errhint("The lower bound, %lld, must not be greater than the upper bound, %lld.",
						 (long long) imin, (long long) imax)));
	if (pg_sub_s64_overflow(imax, imin, &delta) ||
		pg_add_s64_overflow(delta, 1, &delta))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("random range is too large"),
				 errhint("The range of a random function may hold at most 9223372036854775807 values.")));

	if (func == BK_F_RANDOM)
	{
		bk_set_int(ret, bk_random_uniform(st->prng, imin, imax));
		return;
	}

	/* NaN passes pgbench's checks but for zipfian's; see the file header */
	param = bk_to_double(&args[2]);
	switch (func)
	{
		case BK_F_RANDOM_GAUSSIAN:
			if (param < BK_MIN_GAUSSIAN_PARAM)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("gaussian parameter must be at least %f (not %f)",
								BK_MIN_GAUSSIAN_PARAM, param),
						 errhint("The parameter of random_gaussian is how many standard deviations the range spans on each side of its middle.")));
			bk_set_int(ret, bk_random_gaussian(st->prng, imin, imax, param));
			break;
		case BK_F_RANDOM_ZIPFIAN:
			if (!(param >= BK_MIN_ZIPFIAN_PARAM && param <= BK_MAX_ZIPFIAN_PARAM))
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("zipfian parameter must be in range [%.3f, %.0f] (not %f)",
								BK_MIN_ZIPFIAN_PARAM, BK_MAX_ZIPFIAN_PARAM, param),
						 errhint("The parameter of random_zipfian is the exponent of the distribution.")));
			bk_set_int(ret, bk_random_zipfian(st->prng, imin, imax, param));
			break;
		case BK_F_RANDOM_EXPONENTIAL:
			if (param <= 0.0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("exponential parameter must be greater than zero (not %f)",
								param),
						 errhint("The density of random_exponential at the upper bound is exp(-parameter) times that at the lower bound.")));
			bk_set_int(ret, bk_random_exponential(st->prng, imin, imax, param));
			break;
		default:
			elog(ERROR, "unexpected random function %d", (int) func);
	}
}

/* a whole number parameter of a sysbench distribution, in [LO, HI] */
static int
bk_sb_int_param(const BkValue *v, const char *fname, const char *what, int lo, int hi)
{
	double		d = bk_to_double(v);

	if (!(d >= lo && d <= hi) || d != floor(d))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s parameter of %s must be a whole number from %d to %d (not %g)",
						what, fname, lo, hi, d),
				 errhint("sysbench's option for it is --rand-spec-%s.",
						 strcmp(what, "iterations") == 0 ? "iter" :
						 strcmp(what, "percent") == 0 ? "pct" : "res")));
	return (int) d;
}

/*
 * bk_sysbench_random
 *		sysbench's distributions: bounds from 0 to 2^32 - 1 (sysbench's
 *		are uint32), the parameters of its options, a draw from the
 *		client's generator.
 */
static void
bk_sysbench_random(BkEvalState *st, BkFunc func, const BkValue *args, BkValue *ret)
{
	const char *fname = func == BK_F_SB_GAUSSIAN ? "sysbench_gaussian" :
		func == BK_F_SB_SPECIAL ? "sysbench_special" :
		func == BK_F_SB_PARETO ? "sysbench_pareto" : "sysbench_zipfian";
	int64		imin = bk_to_int(&args[0]);
	int64		imax = bk_to_int(&args[1]);

	if (imin > imax)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("empty range given to %s", fname),
				 errhint("The lower bound, %lld, must not be greater than the upper bound, %lld.",
						 (long long) imin, (long long) imax)));
	if (imin < 0 || imax > BK_SB_MAX_BOUND)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("range of %s out of bounds", fname),
				 errhint("sysbench draws from 0 to 4294967295; the range given is %lld to %lld.",
						 (long long) imin, (long long) imax)));
	switch (func)
	{
		case BK_F_SB_GAUSSIAN:
			bk_set_int(ret, bk_sb_gaussian(st->prng, imin, imax,
										   bk_sb_int_param(&args[2], fname, "iterations", 1, BK_SB_MAX_ITER)));
			return;
		case BK_F_SB_SPECIAL:
			{
				int			pct = bk_sb_int_param(&args[2], fname, "percent", 0, 100);
				int			res = bk_sb_int_param(&args[3], fname, "result", 0, 100);
				int			iter = bk_sb_int_param(&args[4], fname, "iterations", 1, BK_SB_MAX_ITER);

				bk_set_int(ret, bk_sb_special(st->prng, imin, imax, pct, res, iter));
				return;
			}
		case BK_F_SB_PARETO:
			{
				double		h = bk_to_double(&args[2]);

				if (!(h > 0.0 && h < 1.0))
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							 errmsg("pareto parameter must be greater than 0 and less than 1 (not %g)", h),
							 errhint("sysbench's option for it is --rand-pareto-h; its default is 0.2.")));
				bk_set_int(ret, bk_sb_pareto(st->prng, imin, imax, h));
				return;
			}
		case BK_F_SB_ZIPFIAN:
			{
				double		e = bk_to_double(&args[2]);

				if (!(e >= 0.0 && e <= BK_MAX_ZIPFIAN_PARAM))
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							 errmsg("zipfian exponent must be from 0 to %.0f (not %g)",
									BK_MAX_ZIPFIAN_PARAM, e),
							 errhint("sysbench's option for it is --rand-zipfian-exp; its default is 0.8.")));
				bk_set_int(ret, bk_sb_zipfian(st->prng, imin, imax, e));
				return;
			}
		default:
			elog(ERROR, "unexpected sysbench function %d", (int) func);
	}
}

/*
 * bk_debug
 *		debug(V): log V as pgbench prints it to stderr, naming the script
 *		by its position and the command from 1, so that the server log and
 *		pgbench's output compare line by line.
 */
static void
bk_debug(BkEvalState *st, const BkValue *v)
{
	char		text[BK_VALUE_TEXT_LEN + 16];

	switch (v->kind)
	{
		case BK_VAL_NULL:
			strcpy(text, "null");
			break;
		case BK_VAL_BOOL:
			snprintf(text, sizeof(text), "boolean %s", v->b ? "true" : "false");
			break;
		case BK_VAL_INT:
			snprintf(text, sizeof(text), "int " INT64_FORMAT, v->i);
			break;
		case BK_VAL_DOUBLE:
			snprintf(text, sizeof(text), "double %.*g", DBL_DIG, v->d);
			break;
		default:
			elog(ERROR, "unexpected value kind %d for debug()", (int) v->kind);
	}
	ereport(LOG,
			(errmsg_internal("debug(script=%d,command=%d): %s",
							 st->script->number, st->cmdno + 1, text),
			 errhidestmt(true),
			 errhidecontext(true)));
}

/*
 * bk_apply
 *		Function FUNC of node E on its NARGS evaluated arguments ARGS, none
 *		of them null (but for IS and debug).
 */
void
bk_apply(BkEvalState *st, const BkExpr *e, BkValue *args, int nargs,
		 BkValue *ret)
{
	switch (e->func)
	{
		case BK_F_ADD:
		case BK_F_SUB:
		case BK_F_MUL:
		case BK_F_DIV:
		case BK_F_MOD:
		case BK_F_EQ:
		case BK_F_NE:
		case BK_F_LE:
		case BK_F_LT:
			bk_arith(e->func, &args[0], &args[1], ret);
			return;

		case BK_F_BITAND:
		case BK_F_BITOR:
		case BK_F_BITXOR:
		case BK_F_LSHIFT:
		case BK_F_RSHIFT:
			{
				int64		li = bk_to_int(&args[0]);
				int64		ri = bk_to_int(&args[1]);

				if (e->func == BK_F_BITAND)
					bk_set_int(ret, li & ri);
				else if (e->func == BK_F_BITOR)
					bk_set_int(ret, li | ri);
				else if (e->func == BK_F_BITXOR)
					bk_set_int(ret, li ^ ri);
				else if (e->func == BK_F_LSHIFT)
					bk_set_int(ret, (int64) ((uint64) li << (ri & 63)));
				else
					bk_set_int(ret, li >> (ri & 63));
				return;
			}

		case BK_F_NOT:
			bk_set_bool(ret, !bk_to_bool(&args[0]));
			return;

		case BK_F_IS:
			/* the right side is a constant null, true or false */
			bk_set_bool(ret, args[0].kind == args[1].kind &&
						(args[0].kind != BK_VAL_BOOL || args[0].b == args[1].b));
			return;

		case BK_F_PI:
			bk_set_double(ret, M_PI);
			return;

		case BK_F_ABS:
			if (args[0].kind == BK_VAL_INT)
				bk_set_int(ret, args[0].i < 0 ? (int64) (-(uint64) args[0].i) : args[0].i);
			else if (args[0].kind == BK_VAL_DOUBLE)
				bk_set_double(ret, args[0].d < 0.0 ? -args[0].d : args[0].d);
			else
			{
				/* pgbench reads a boolean's storage as a double */
				uint64		bits = args[0].b ? 1 : 0;
				double		d;

				memcpy(&d, &bits, sizeof(d));
				bk_set_double(ret, d);
			}
			return;

		case BK_F_DEBUG:
			bk_debug(st, &args[0]);
			*ret = args[0];
			return;

		case BK_F_DOUBLE:
			bk_set_double(ret, bk_to_double(&args[0]));
			return;
		case BK_F_SQRT:
			bk_set_double(ret, sqrt(bk_to_double(&args[0])));
			return;
		case BK_F_LN:
			bk_set_double(ret, log(bk_to_double(&args[0])));
			return;
		case BK_F_EXP:
			bk_set_double(ret, exp(bk_to_double(&args[0])));
			return;
		case BK_F_POW:
			{
				double		ld = bk_to_double(&args[0]);
				double		rd = bk_to_double(&args[1]);

				bk_set_double(ret, pow(ld, rd));
				return;
			}

		case BK_F_INT:
			bk_set_int(ret, bk_to_int(&args[0]));
			return;

		case BK_F_LEAST:
		case BK_F_GREATEST:
			{
				bool		havedouble = false;

				for (int i = 0; i < nargs; i++)
				{
					if (args[i].kind == BK_VAL_DOUBLE)
						havedouble = true;
				}
				if (havedouble)
				{
					double		extremum = bk_to_double(&args[0]);

					for (int i = 1; i < nargs; i++)
					{
						double		d = bk_to_double(&args[i]);

						extremum = e->func == BK_F_LEAST ? Min(extremum, d) : Max(extremum, d);
					}
					bk_set_double(ret, extremum);
				}
				else
				{
					int64		extremum = bk_to_int(&args[0]);

					for (int i = 1; i < nargs; i++)
					{
						int64		v = bk_to_int(&args[i]);

						extremum = e->func == BK_F_LEAST ? Min(extremum, v) : Max(extremum, v);
					}
					bk_set_int(ret, extremum);
				}
				return;
			}

		case BK_F_RANDOM:
		case BK_F_RANDOM_EXPONENTIAL:
		case BK_F_RANDOM_GAUSSIAN:
		case BK_F_RANDOM_ZIPFIAN:
			bk_random(st, e->func, args, ret);
			return;

		case BK_F_SB_GAUSSIAN:
		case BK_F_SB_SPECIAL:
		case BK_F_SB_PARETO:
		case BK_F_SB_ZIPFIAN:
			bk_sysbench_random(st, e->func, args, ret);
			return;

		case BK_F_RANDOM_STRING:
			memset(ret, 0, sizeof(*ret));
			ret->kind = BK_VAL_STRING;
			ret->s = palloc(strlen(args[0].s) + 1);
			bk_sb_string(st->prng, args[0].s, ret->s);
			return;

		case BK_F_HASH_MURMUR2:
		case BK_F_HASH_FNV1A:
			{
				int64		val = bk_to_int(&args[0]);
				int64		seed = bk_to_int(&args[1]);

				bk_set_int(ret, e->func == BK_F_HASH_MURMUR2 ?
						   bk_hash_murmur2(val, (uint64) seed) :
						   bk_hash_fnv1a(val, (uint64) seed));
				return;
			}

		case BK_F_PERMUTE:
			{
				int64		val = bk_to_int(&args[0]);
				int64		size = bk_to_int(&args[1]);
				int64		seed = bk_to_int(&args[2]);

				if (size <= 0)
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							 errmsg("permute size parameter must be greater than zero"),
							 errhint("permute(i, size) permutes the integers from 0 to size - 1.")));
				bk_set_int(ret, bk_permute(val, size, seed));
				return;
			}

		default:
			break;
	}
	elog(ERROR, "unexpected function %d in an expression", (int) e->func);
}
