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
#include "script/vars.h"

/* pgbench evaluates at most this many arguments of a function */
#define BK_MAX_FARGS			16

static void bk_eval(BkEvalState *st, const BkExpr *e, BkValue *ret);

/*
 * bk_read_value
 *		V, a variable's value or an array's element (of variable NAME), as
 *		an expression reads it into RET: a string read as pgbench reads a
 *		variable's text.
 */
static void
bk_read_value(const char *name, const BkValue *v, BkValue *ret)
{
	if (v->kind == BK_VAL_STRING)
	{
		memset(ret, 0, sizeof(*ret));
		bk_string_value(name, v->s, ret);
	}
	else
	{
		*ret = *v;
		ret->s = NULL;
		ret->a = NULL;
	}
}

/*
 * bk_eval_index
 *		The index expression of E (:name[index]) evaluated: an integer.
 */
static int64
bk_eval_index(BkEvalState *st, const BkExpr *e)
{
	BkValue		ix;

	bk_eval(st, e->args[0], &ix);
	if (ix.kind == BK_VAL_NULL)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("null index for array variable \"%s\"", st->script->vt->names[e->var]),
				 errhint("An index is a whole number from 1 to the length of the array.")));
	return bk_to_int(&ix);
}

/*
 * bk_elem_equal
 *		Whether element ELEM of an array equals PROBE (not null) for
 *		array_position(): a null element equals nothing, a string is read
 *		as a number when it is one (what a query's \garray stores), and is
 *		otherwise equal to no number.
 */
static bool
bk_elem_equal(BkEvalState *st, const BkValue *elem, const BkValue *probe)
{
	static const BkExpr eq = {.kind = BK_EXPR_FUNC, .func = BK_F_EQ, .nargs = 2};
	BkValue		args[2];
	BkValue		r;

	if (elem->kind == BK_VAL_NULL)
		return false;
	memset(args, 0, sizeof(args));
	if (elem->kind == BK_VAL_STRING)
	{
		bool		out_of_range;

		if (bk_strtoint64(elem->s, &args[0].i, &out_of_range))
			args[0].kind = BK_VAL_INT;
		else if (bk_strtodouble(elem->s, &args[0].d))
			args[0].kind = BK_VAL_DOUBLE;
		else
			return false;
	}
	else
		args[0] = *elem;
	args[1] = *probe;
	bk_apply(st, &eq, args, 2, &r);
	return r.kind == BK_VAL_BOOL && r.b;
}

/*
 * bk_eval_array_func
 *		array_length(:name), array_position(:name, value): the number of
 *		elements (0 for a variable not set), the index of the first element
 *		equal to the value (null when none is, or the value is null).
 */
static void
bk_eval_array_func(BkEvalState *st, const BkExpr *e, BkValue *ret)
{
	const char *name = st->script->vt->names[e->var];
	const BkValue *var = &st->vars[e->var];
	int			n = bk_var_array_length(var, name);
	BkValue		probe;

	if (e->func == BK_F_ARRAY_LENGTH)
	{
		bk_set_int(ret, n);
		return;
	}
	bk_eval(st, e->args[0], &probe);
	bk_set_null(ret);
	if (probe.kind == BK_VAL_NULL)
		return;
	for (int i = 0; i < n; i++)
	{
		if (bk_elem_equal(st, &var->a->elems[i], &probe))
		{
			bk_set_int(ret, i + 1);
			return;
		}
	}
}

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
				if (v->kind == BK_VAL_ARRAY)
					bk_var_not_array(st->script->vt->names[e->var]);
				bk_read_value(st->script->vt->names[e->var], v, ret);
				return;
			}

		case BK_EXPR_ELEM:
			{
				const char *name = st->script->vt->names[e->var];
				int64		ix = bk_eval_index(st, e);

				bk_read_value(name, bk_var_element(&st->vars[e->var], name, ix), ret);
				return;
			}

		case BK_EXPR_FUNC:
			check_stack_depth();
			CHECK_FOR_INTERRUPTS();
			if (e->func == BK_F_AND || e->func == BK_F_OR || e->func == BK_F_CASE)
				bk_eval_lazy(st, e, ret);
			else if (e->func == BK_F_ARRAY_LENGTH || e->func == BK_F_ARRAY_POSITION)
				bk_eval_array_func(st, e, ret);
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

/*
 * bk_expr_element
 *		The element of array variable that EXPR, a :name[index] of command
 *		CMDNO of SCRIPT, reads, as it is (a string stays a string): what
 *		\set x :name[i] copies.
 */
const BkValue *
bk_expr_element(const BkScript *script, int cmdno, const BkExpr *expr,
				BkValue *vars, BkPrng *prng)
{
	BkEvalState st;
	ErrorContextCallback errcallback;
	const BkValue *v;

	Assert(expr->kind == BK_EXPR_ELEM);
	st.script = script;
	st.cmdno = cmdno;
	st.vars = vars;
	st.prng = prng;
	errcallback.callback = bk_eval_context;
	errcallback.arg = &st;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;

	v = bk_var_element(&vars[expr->var], script->vt->names[expr->var],
					   bk_eval_index(&st, expr));

	error_context_stack = errcallback.previous;
	return v;
}
