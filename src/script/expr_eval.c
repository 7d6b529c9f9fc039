/*-------------------------------------------------------------------------
 *
 * expr_eval.c
 *		The evaluation of a parsed expression (pgbench's evaluateExpr): a
 *		variable read as its value, AND, OR and CASE evaluating only what
 *		they need, the arguments of the other operators and functions
 *		evaluated left to right before expr_func.c applies them, errors
 *		told which command they come from; and whether a result counts as
 *		true for \if and \elif.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"

#include "script/expr.h"
#include "script/expr_eval.h"
#include "script/expr_func.h"
#include "script/value.h"

/* pgbench evaluates at most this many arguments of a function */
#define BK_MAX_FARGS			16

static void bk_eval(BkEvalState *st, const BkExpr *e, BkValue *ret);

/*
 * bk_eval_lazy
 *		AND, OR and CASE, which evaluate only the arguments they need.  As
 *		in pgbench a null left operand makes AND and OR null.
 */
static void
bk_eval_lazy(BkEvalState *st, const BkExpr *e, BkValue *ret)
{
	BkValue		a;

	if (e->func == BK_F_CASE)
	{
		int			i;

		for (i = 0; i + 1 < e->nargs; i += 2)
		{
			bk_eval(st, e->args[i], &a);
			if (bk_truth(&a))
			{
				bk_eval(st, e->args[i + 1], ret);
				return;
			}
		}
		bk_eval(st, e->args[i], ret);
		return;
	}

	/* AND, OR */
	bk_eval(st, e->args[0], &a);
	if (a.kind == BK_VAL_NULL)
	{
		bk_set_null(ret);
		return;
	}
	if (bk_to_bool(&a) == (e->func == BK_F_OR))
	{
		/* false AND x, true OR x */
		bk_set_bool(ret, a.b);
		return;
	}
	bk_eval(st, e->args[1], &a);
	if (a.kind == BK_VAL_NULL)
		bk_set_null(ret);
	else
		bk_set_bool(ret, bk_to_bool(&a));
}

/*
 * bk_eval_func
 *		An operator or function: evaluate its arguments, left to right,
 *		then apply it (giving null at once if an argument is null, but for
 *		IS and debug).  As pgbench, at most BK_MAX_FARGS arguments are
 *		evaluated: a call with more fails after evaluating that many.
 */
static void
bk_eval_func(BkEvalState *st, const BkExpr *e, BkValue *ret)
{
	BkValue		args[BK_MAX_FARGS];
	bool		has_null = false;
	int			nargs = Min(e->nargs, BK_MAX_FARGS);

	for (int i = 0; i < nargs; i++)
	{
		bk_eval(st, e->args[i], &args[i]);
		if (args[i].kind == BK_VAL_NULL)
			has_null = true;
	}
	if (e->nargs > BK_MAX_FARGS)
		ereport(ERROR,
				(errcode(ERRCODE_TOO_MANY_ARGUMENTS),
				 errmsg("too many function arguments, maximum is %d", BK_MAX_FARGS),
				 errhint("Nest the calls, as in least(least(...), least(...)).")));

	if (has_null && e->func != BK_F_IS && e->func != BK_F_DEBUG)
		bk_set_null(ret);
	else
		bk_apply(st, e, args, nargs, ret);
}

/*
 * bk_eval
 *		Evaluate expression E into RET.
 */
static void
bk_eval(BkEvalState *st, const BkExpr *e, BkValue *ret)
{
	switch (e->kind)
	{
		case BK_EXPR_CONST:
			*ret = e->value;
			return;

		case BK_EXPR_VAR:
			{
				const BkValue *v = &st->vars[e->var];

				if (v->kind == BK_VAL_UNDEF)
					ereport(ERROR,
							(errcode(ERRCODE_UNDEFINED_OBJECT),
							 errmsg("undefined variable \"%s\"", st->script->vt->names[e->var]),
							 errhint("Set it with \\set, \\gset or \\aset before the command that reads it, or give it a value for the whole run.")));
				if (v->kind == BK_VAL_STRING)
				{
					memset(ret, 0, sizeof(*ret));
					bk_string_value(st->script->vt->names[e->var], v->s, ret);
				}
				else
				{
					*ret = *v;
					ret->s = NULL;
				}
				return;
			}

		case BK_EXPR_FUNC:
			check_stack_depth();
			CHECK_FOR_INTERRUPTS();
			if (e->func == BK_F_AND || e->func == BK_F_OR || e->func == BK_F_CASE)
				bk_eval_lazy(st, e, ret);
			else
				bk_eval_func(st, e, ret);
			return;
	}
	elog(ERROR, "unexpected expression node kind %d", (int) e->kind);
}

/*
 * bk_eval_context
 *		Error context of an evaluation: which command of which script.
 */
static void
bk_eval_context(void *arg)
{
	BkEvalState *st = (BkEvalState *) arg;

	errcontext("command %d of script \"%s\" at line %d",
			   st->cmdno + 1, st->script->name, st->script->commands[st->cmdno].line);
}

/*
 * bk_expr_eval
 *		Evaluate EXPR, of command CMDNO (from 0) of SCRIPT, with the
 *		variables VARS (indexed like the script's BkVarTable) and the
 *		generator PRNG, into RESULT: never a BK_VAL_STRING, which is read
 *		as pgbench reads a variable's text.
 */
void
bk_expr_eval(const BkScript *script, int cmdno, const BkExpr *expr,
			 BkValue *vars, BkPrng *prng, BkValue *result)
{
	BkEvalState st;
	ErrorContextCallback errcallback;

	st.script = script;
	st.cmdno = cmdno;
	st.vars = vars;
	st.prng = prng;
	errcallback.callback = bk_eval_context;
	errcallback.arg = &st;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;

	bk_eval(&st, expr, result);

	error_context_stack = errcallback.previous;
}

/*
 * bk_value_truth
 *		Whether VALUE, the result of the expression of command CMDNO of
 *		SCRIPT, counts as true for \if and \elif (pgbench's valueTruth):
 *		true, or a number other than zero.  A string is first read as
 *		pgbench reads a variable's text.
 */
bool
bk_value_truth(const BkScript *script, int cmdno, const BkValue *value)
{
	if (value->kind == BK_VAL_STRING)
	{
		BkValue		v = {0};

		/* not reached: expressions read strings as they evaluate */
		bk_string_value("?", value->s, &v);
		return bk_truth(&v);
	}
	return bk_truth(value);
}
