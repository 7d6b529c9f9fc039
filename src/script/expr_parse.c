/*-------------------------------------------------------------------------
 *
 * expr_parse.c
 *		The parser of the expressions of \set, \if and \elif (pgbench's
 *		exprparse.y, by precedence climbing) over expr_scan.c's tokens,
 *		into the parsed form of expr.h: the operators with exprparse.y's
 *		precedences, IS, CASE, and function calls checked against the
 *		table of functions, given their default arguments.  The language
 *		is described in expr.h.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "miscadmin.h"

#include "script/expr.h"
#include "script/expr_parse.h"
#include "script/expr_scan.h"
#include "script/vars.h"

/* argument counts that are not a plain number (exprparse.y's) */
#define BK_NARGS_ANY		(-1)	/* one or more: least, greatest */
#define BK_NARGS_HASH		(-2)	/* a value and an optional seed */
#define BK_NARGS_PERMUTE	(-3)	/* a value, a size and an optional seed */

/*
 * the functions an expression may call, by name (case-insensitive); with
 * MAXARGS, NARGS is the least number of arguments and the others have the
 * defaults of DEFAULTS (sysbench's, for its distributions)
 */
static const struct
{
	const char *name;
	int			nargs;
	BkFunc		func;
	int			maxargs;
	double		defaults[3];
}			bk_functions[] =
{
	{"abs", 1, BK_F_ABS},
	{"array_length", 1, BK_F_ARRAY_LENGTH},
	{"array_position", 2, BK_F_ARRAY_POSITION},
	{"debug", 1, BK_F_DEBUG},
	{"double", 1, BK_F_DOUBLE},
	{"exp", 1, BK_F_EXP},
	{"greatest", BK_NARGS_ANY, BK_F_GREATEST},
	{"hash", BK_NARGS_HASH, BK_F_HASH_MURMUR2},
	{"hash_fnv1a", BK_NARGS_HASH, BK_F_HASH_FNV1A},
	{"hash_murmur2", BK_NARGS_HASH, BK_F_HASH_MURMUR2},
	{"int", 1, BK_F_INT},
	{"least", BK_NARGS_ANY, BK_F_LEAST},
	{"ln", 1, BK_F_LN},
	{"mod", 2, BK_F_MOD},
	{"permute", BK_NARGS_PERMUTE, BK_F_PERMUTE},
	{"pi", 0, BK_F_PI},
	{"pow", 2, BK_F_POW},
	{"power", 2, BK_F_POW},
	{"random", 2, BK_F_RANDOM},
	{"random_exponential", 3, BK_F_RANDOM_EXPONENTIAL},
	{"random_gaussian", 3, BK_F_RANDOM_GAUSSIAN},
	{"random_zipfian", 3, BK_F_RANDOM_ZIPFIAN},
	{"random_string", 1, BK_F_RANDOM_STRING},
	{"sqrt", 1, BK_F_SQRT},
	{"sysbench_gaussian", 2, BK_F_SB_GAUSSIAN, 3, {12}},
	{"sysbench_pareto", 2, BK_F_SB_PARETO, 3, {0.2}},
	{"sysbench_special", 2, BK_F_SB_SPECIAL, 5, {1, 75, 12}},
	{"sysbench_zipfian", 2, BK_F_SB_ZIPFIAN, 3, {0.8}},
};

/* the list of them, for a hint */
#define BK_FUNCTION_LIST "The functions are abs, array_length, array_position, debug, double, exp, greatest, hash, hash_fnv1a, hash_murmur2, int, least, ln, mod, permute, pi, pow, power, random, random_exponential, random_gaussian, random_string, random_zipfian, sqrt, sysbench_gaussian, sysbench_pareto, sysbench_special and sysbench_zipfian."

/* the longest pattern of random_string() */
#define BK_MAX_STRING_PATTERN	8192

/* binding strength of the operators, weakest first, as in exprparse.y */
#define BK_PREC_OR		1		/* left */
#define BK_PREC_AND		2		/* left */
#define BK_PREC_NOT		3		/* right, prefix */
#define BK_PREC_IS		4		/* postfix: IS, ISNULL, NOTNULL */
#define BK_PREC_CMP		5		/* non-associative */
#define BK_PREC_BIT		6		/* left: | # & << >>, and prefix ~ */
#define BK_PREC_ADD		7		/* left */
#define BK_PREC_MUL		8		/* left */
#define BK_PREC_UNARY	9		/* prefix + and - */

static BkExpr *bk_parse_expr(BkExprParser *ep, int minprec);

/*
 * expr_syntax_error
 *		Report the current token as one that cannot be there: bison's
 *		"syntax error", with HINT saying what could.
 */
static BK_NORETURN void
expr_syntax_error(BkExprParser *ep, const char *hint)
{
	bk_expr_error(ep, &ep->tok, hint, "syntax error", NULL);
}

/* a new constant node, VALUE */
static BkExpr *
bk_make_const(const BkValue *value)
{
	BkExpr	   *e = palloc0(sizeof(BkExpr));

	e->kind = BK_EXPR_CONST;
	e->value = *value;
	return e;
}

/* a new integer constant node */
static BkExpr *
bk_make_int(int64 i)
{
	BkValue		v = {0};

	v.kind = BK_VAL_INT;
	v.i = i;
	return bk_make_const(&v);
}

/* a new null or boolean constant node */
static BkExpr *
bk_make_special(BkValueKind kind, bool b)
{
	BkValue		v = {0};

	v.kind = kind;
	v.b = b;
	return bk_make_const(&v);
}

/* a new node reading variable VAR */
static BkExpr *
bk_make_var(int var)
{
	BkExpr	   *e = palloc0(sizeof(BkExpr));

	e->kind = BK_EXPR_VAR;
	e->var = var;
	return e;
}

/* a new node applying FUNC to the NARGS nodes of ARGS (kept) */
static BkExpr *
bk_make_func(BkFunc func, int nargs, BkExpr **args)
{
	BkExpr	   *e = palloc0(sizeof(BkExpr));

	e->kind = BK_EXPR_FUNC;
	e->func = func;
	e->nargs = nargs;
	e->args = args;
	return e;
}

/* a new node applying a unary operator */
static BkExpr *
bk_make_uop(BkFunc func, BkExpr *arg)
{
	BkExpr	  **args = palloc(sizeof(BkExpr *));

	args[0] = arg;
	return bk_make_func(func, 1, args);
}

/* a new node applying a binary operator, LEFT evaluated first */
static BkExpr *
bk_make_op(BkFunc func, BkExpr *left, BkExpr *right)
{
	BkExpr	  **args = palloc(sizeof(BkExpr *) * 2);

	args[0] = left;
	args[1] = right;
	return bk_make_func(func, 2, args);
}

/*
 * bk_infix
 *		Whether token KIND continues an expression as an infix or postfix
 *		operator; if so its precedence, its function and whether the
 *		operands swap (a > b is b < a, evaluated in that order, as pgbench).
 */
static bool
bk_infix(BkTokenKind kind, int *prec, BkFunc *func, bool *swap)
{
	*swap = false;
	switch (kind)
	{
		case TOK_OR:
			*prec = BK_PREC_OR;
			*func = BK_F_OR;
			return true;
		case TOK_AND:
			*prec = BK_PREC_AND;
			*func = BK_F_AND;
			return true;
		case TOK_IS:
		case TOK_ISNULL:
		case TOK_NOTNULL:
			*prec = BK_PREC_IS;
			*func = BK_F_IS;
			return true;
		case TOK_EQ:
			*prec = BK_PREC_CMP;
			*func = BK_F_EQ;
			return true;
		case TOK_NE:
			*prec = BK_PREC_CMP;
			*func = BK_F_NE;
			return true;
		case TOK_LT:
			*prec = BK_PREC_CMP;
			*func = BK_F_LT;
			return true;
		case TOK_LE:
			*prec = BK_PREC_CMP;
			*func = BK_F_LE;
			return true;
		case TOK_GT:
			*prec = BK_PREC_CMP;
			*func = BK_F_LT;
			*swap = true;
			return true;
		case TOK_GE:
			*prec = BK_PREC_CMP;
			*func = BK_F_LE;
			*swap = true;
			return true;
		case TOK_BITAND:
			*prec = BK_PREC_BIT;
			*func = BK_F_BITAND;
			return true;
		case TOK_BITOR:
			*prec = BK_PREC_BIT;
			*func = BK_F_BITOR;
			return true;
		case TOK_BITXOR:
			*prec = BK_PREC_BIT;
			*func = BK_F_BITXOR;
			return true;
		case TOK_LSHIFT:
			*prec = BK_PREC_BIT;
			*func = BK_F_LSHIFT;
			return true;
		case TOK_RSHIFT:
			*prec = BK_PREC_BIT;
			*func = BK_F_RSHIFT;
			return true;
		case TOK_PLUS:
			*prec = BK_PREC_ADD;
			*func = BK_F_ADD;
			return true;
		case TOK_MINUS:
			*prec = BK_PREC_ADD;
			*func = BK_F_SUB;
			return true;
		case TOK_MUL:
			*prec = BK_PREC_MUL;
			*func = BK_F_MUL;
			return true;
		case TOK_DIV:
			*prec = BK_PREC_MUL;
			*func = BK_F_DIV;
			return true;
		case TOK_MOD:
			*prec = BK_PREC_MUL;
			*func = BK_F_MOD;
			return true;
		default:
			return false;
	}
}

/*
 * bk_expect
 *		Consume the current token, which must be of kind KIND (WHAT is how
 *		the hint names it).
 */
static void
bk_expect(BkExprParser *ep, BkTokenKind kind, const char *what)
{
	if (ep->tok.kind != kind)
		expr_syntax_error(ep, psprintf("The expression needs %s at this point.", what));
	bk_lex(ep);
}

/*
 * bk_parse_is
 *		The rest of a postfix IS [NOT] {NULL | TRUE | FALSE}, ISNULL or
 *		NOTNULL (token KIND, consumed) applied to LEFT.
 */
static BkExpr *
bk_parse_is(BkExprParser *ep, BkTokenKind kind, BkExpr *left)
{
	bool		negate = (kind == TOK_NOTNULL);
	BkExpr	   *right;
	BkExpr	   *result;

	if (kind != TOK_IS)
		right = bk_make_special(BK_VAL_NULL, false);
	else
	{
		if (ep->tok.kind == TOK_NOT)
		{
			negate = true;
			bk_lex(ep);
		}
		if (ep->tok.kind == TOK_NULL)
			right = bk_make_special(BK_VAL_NULL, false);
		else if (ep->tok.kind == TOK_TRUE || ep->tok.kind == TOK_FALSE)
			right = bk_make_special(BK_VAL_BOOL, ep->tok.kind == TOK_TRUE);
		else
			expr_syntax_error(ep, "IS and IS NOT are followed by NULL, TRUE or FALSE.");
		bk_lex(ep);
	}
	result = bk_make_op(BK_F_IS, left, right);
	return negate ? bk_make_uop(BK_F_NOT, result) : result;
}

/*
 * bk_find_function
 *		The entry of bk_functions named by the LEN bytes at NAME, or -1.
 */
static int
bk_find_function(const char *name, int len)
{
	for (int i = 0; i < lengthof(bk_functions); i++)
	{
		if ((int) strlen(bk_functions[i].name) == len &&
			pg_strncasecmp(bk_functions[i].name, name, len) == 0)
			return i;
	}
	return -1;
}

/*
 * bk_parse_random_string
 *		random_string('pattern'), after its "(": a string literal and ")".
 *		It is a \set's whole expression: its value is text, which no
 *		operator or function reads.
 */
static BkExpr *
bk_parse_random_string(BkExprParser *ep, const BkToken *name)
{
	BkToken		lit = ep->tok;
	BkValue		v = {0};
	StringInfoData buf;
	BkExpr	  **args = palloc(sizeof(BkExpr *));

	if (strcmp(ep->command, "set") != 0 || name->start != ep->text + ep->first_offset)
		bk_expr_error(ep, name,
					  "random_string() makes text: it is the whole expression of a \\set, as in \\set c random_string('###-@@@').",
					  "random_string() must be the whole expression of a \\set", NULL);
	if (lit.kind != TOK_STRING)
		expr_syntax_error(ep, "random_string() takes a pattern in quotes: '#' is a random digit, '@' a random lower-case letter.");
	initStringInfo(&buf);
	for (int i = 1; i < lit.len - 1; i++)
	{
		appendStringInfoChar(&buf, lit.start[i]);
		if (lit.start[i] == '\'')
			i++;				/* '' is one quote */
	}
	if (buf.len > BK_MAX_STRING_PATTERN)
		bk_expr_error(ep, &lit,
					  psprintf("A pattern of random_string() has at most %d characters.", BK_MAX_STRING_PATTERN),
					  "pattern too long", NULL);
	bk_lex(ep);
	bk_expect(ep, TOK_RPAREN, "\")\" after the pattern of random_string()");
	if (ep->tok.kind != TOK_END)
		bk_expr_error(ep, &ep->tok,
					  "random_string() makes text: it is the whole expression of a \\set, as in \\set c random_string('###-@@@').",
					  "random_string() must be the whole expression of a \\set", NULL);
	v.kind = BK_VAL_STRING;
	v.s = buf.data;
	args[0] = bk_make_const(&v);
	return bk_make_func(BK_F_RANDOM_STRING, 1, args);
}

/*
 * bk_parse_array_call
 *		array_length(:name) or array_position(:name, value) (FUNC), after
 *		its "(": the first argument is an array variable, named, not an
 *		expression.
 */
static BkExpr *
bk_parse_array_call(BkExprParser *ep, BkFunc func)
{
	const char *fname = func == BK_F_ARRAY_LENGTH ? "array_length" : "array_position";
	BkExpr	  **args = palloc(sizeof(BkExpr *));
	BkExpr	   *e;
	char	   *name;
	int			var;

	if (ep->tok.kind != TOK_VAR)
		expr_syntax_error(ep, psprintf("The first argument of %s() is an array variable, as in %s(:name%s).",
									   fname, fname,
									   func == BK_F_ARRAY_LENGTH ? "" : ", value"));
	name = pnstrdup(ep->tok.start + 1, ep->tok.len - 1);
	var = bk_var_lookup(ep->script->vt, name, true);
	pfree(name);
	bk_lex(ep);
	if (func == BK_F_ARRAY_POSITION)
	{
		bk_expect(ep, TOK_COMMA, "\",\" and the value to find");
		args[0] = bk_parse_expr(ep, 0);
	}
	bk_expect(ep, TOK_RPAREN, "\")\"");
	e = bk_make_func(func, func == BK_F_ARRAY_POSITION ? 1 : 0, args);
	e->var = var;
	return e;
}

/*
 * bk_parse_call
 *		A function call, at its name.  As exprparse.y: the name is checked
 *		as soon as it is read, the number of arguments at the ")"; the list
 *		of arguments may start with a comma ("f(, x)" is "f(x)"); hash()
 *		and permute() without a seed read :default_seed.
 */
static BkExpr *
bk_parse_call(BkExprParser *ep)
{
	BkToken		name = ep->tok;
	int			f = bk_find_function(name.start, name.len);
	int			nargs = 0;
	int			maxargs = 4;
	BkExpr	  **args;
	int			want;
	bool		ok;

	if (f < 0)
	{
		char	   *fname = pnstrdup(name.start, name.len);

		bk_expr_error(ep, &name, BK_FUNCTION_LIST,
					  "unexpected function name", fname);
	}
	bk_lex(ep);
	bk_expect(ep, TOK_LPAREN, "\"(\" after a function name");
	if (bk_functions[f].func == BK_F_RANDOM_STRING)
		return bk_parse_random_string(ep, &name);
	if (bk_functions[f].func == BK_F_ARRAY_LENGTH ||
		bk_functions[f].func == BK_F_ARRAY_POSITION)
		return bk_parse_array_call(ep, bk_functions[f].func);

	/* room for a seed more */
	args = palloc(sizeof(BkExpr *) * (maxargs + 1));
	if (ep->tok.kind != TOK_RPAREN && ep->tok.kind != TOK_COMMA)
		args[nargs++] = bk_parse_expr(ep, 0);
	while (ep->tok.kind == TOK_COMMA)
	{
		bk_lex(ep);
		if (nargs == maxargs)
		{
			maxargs *= 2;
			args = repalloc(args, sizeof(BkExpr *) * (maxargs + 1));
		}
		args[nargs++] = bk_parse_expr(ep, 0);
	}
	if (ep->tok.kind != TOK_RPAREN)
		expr_syntax_error(ep, "The expression needs \",\" or \")\" at this point.");

	want = bk_functions[f].nargs;
	switch (want)
	{
		case BK_NARGS_ANY:
			if (nargs == 0)
				bk_expr_error(ep, &ep->tok,
							  psprintf("%s() takes one or more arguments.", bk_functions[f].name),
							  "at least one argument expected", bk_functions[f].name);
			ok = true;
			break;
		case BK_NARGS_HASH:
			ok = (nargs == 1 || nargs == 2);
			break;
		case BK_NARGS_PERMUTE:
			ok = (nargs == 2 || nargs == 3);
			break;
		default:
			if (bk_functions[f].maxargs > 0)
				ok = (nargs >= want && nargs <= bk_functions[f].maxargs);
			else
				ok = (nargs == want);
			break;
	}
	if (!ok)
	{
		const char *hint;

		if (bk_functions[f].maxargs > 0)
			hint = psprintf("%s() takes %d to %d arguments.", bk_functions[f].name,
							want, bk_functions[f].maxargs);
		else if (want == BK_NARGS_HASH)
			hint = psprintf("%s() takes a value and an optional seed.", bk_functions[f].name);
		else if (want == BK_NARGS_PERMUTE)
			hint = "permute() takes a value, a size and an optional seed.";
		else if (want == 0)
			hint = psprintf("%s() takes no argument.", bk_functions[f].name);
		else if (want == 1)
			hint = psprintf("%s() takes one argument.", bk_functions[f].name);
		else
			hint = psprintf("%s() takes %d arguments.", bk_functions[f].name, want);
		bk_expr_error(ep, &ep->tok, hint, "unexpected number of arguments",
					  bk_functions[f].name);
	}
	bk_lex(ep);

	/* no seed: that of :default_seed, read when evaluated */
	if ((want == BK_NARGS_HASH && nargs == 1) ||
		(want == BK_NARGS_PERMUTE && nargs == 2))
		args[nargs++] = bk_make_var(BK_VAR_DEFAULT_SEED);
	/* the arguments left out: their defaults */
	if (bk_functions[f].maxargs > nargs)
	{
		args = repalloc(args, sizeof(BkExpr *) * (bk_functions[f].maxargs + 1));
		while (nargs < bk_functions[f].maxargs)
		{
			BkValue		v = {0};

			v.kind = BK_VAL_DOUBLE;
			v.d = bk_functions[f].defaults[nargs - want];
			args[nargs++] = bk_make_const(&v);
		}
	}
	return bk_make_func(bk_functions[f].func, nargs, args);
}

/*
 * bk_parse_case
 *		CASE WHEN c THEN v [WHEN c THEN v ...] [ELSE e] END, at CASE: a node
 *		whose arguments are c1, v1, c2, v2, ..., e (NULL when no ELSE).
 */
static BkExpr *
bk_parse_case(BkExprParser *ep)
{
	int			nargs = 0;
	int			maxargs = 5;
	BkExpr	  **args = palloc(sizeof(BkExpr *) * maxargs);

	bk_lex(ep);
	if (ep->tok.kind != TOK_WHEN)
		expr_syntax_error(ep, "CASE is followed by one or more WHEN condition THEN value.");
	while (ep->tok.kind == TOK_WHEN)
	{
		if (nargs + 3 > maxargs)
		{
			maxargs *= 2;
			args = repalloc(args, sizeof(BkExpr *) * maxargs);
		}
		bk_lex(ep);
		args[nargs++] = bk_parse_expr(ep, 0);
		bk_expect(ep, TOK_THEN, "THEN");
		args[nargs++] = bk_parse_expr(ep, 0);
	}
	if (ep->tok.kind == TOK_ELSE)
	{
		bk_lex(ep);
		args[nargs++] = bk_parse_expr(ep, 0);
	}
	else
		args[nargs++] = bk_make_special(BK_VAL_NULL, false);
	bk_expect(ep, TOK_ENDKW, "WHEN, ELSE or END");
	return bk_make_func(BK_F_CASE, nargs, args);
}

/*
 * bk_parse_prefix
 *		An operand: a constant, a variable, a call, a CASE, a parenthesised
 *		expression, or a prefix operator and its operand.
 */
static BkExpr *
bk_parse_prefix(BkExprParser *ep)
{
	BkToken		tok = ep->tok;
	BkExpr	   *e;

	switch (tok.kind)
	{
		case TOK_LPAREN:
			bk_lex(ep);
			e = bk_parse_expr(ep, 0);
			bk_expect(ep, TOK_RPAREN, "\")\"");
			return e;
		case TOK_PLUS:
			bk_lex(ep);
			return bk_parse_expr(ep, BK_PREC_UNARY);
		case TOK_MINUS:
			bk_lex(ep);
			if (ep->tok.kind == TOK_MAXINT)
			{
				bk_lex(ep);
				return bk_make_int(PG_INT64_MIN);
			}
			/* -x is 0 - x */
			return bk_make_op(BK_F_SUB, bk_make_int(0),
							  bk_parse_expr(ep, BK_PREC_UNARY));
		case TOK_BITNOT:
			/* ~x is all ones # x */
			bk_lex(ep);
			return bk_make_op(BK_F_BITXOR, bk_make_int(~INT64CONST(0)),
							  bk_parse_expr(ep, BK_PREC_BIT + 1));
		case TOK_NOT:
			bk_lex(ep);
			return bk_make_uop(BK_F_NOT, bk_parse_expr(ep, BK_PREC_NOT));
		case TOK_NULL:
			bk_lex(ep);
			return bk_make_special(BK_VAL_NULL, false);
		case TOK_TRUE:
		case TOK_FALSE:
			bk_lex(ep);
			return bk_make_special(BK_VAL_BOOL, tok.kind == TOK_TRUE);
		case TOK_INT:
			bk_lex(ep);
			return bk_make_int(tok.ival);
		case TOK_DOUBLE:
			{
				BkValue		v = {0};

				bk_lex(ep);
				v.kind = BK_VAL_DOUBLE;
				v.d = tok.dval;
				return bk_make_const(&v);
			}
		case TOK_VAR:
			{
				char	   *name = pnstrdup(tok.start + 1, tok.len - 1);

				e = bk_make_var(bk_var_lookup(ep->script->vt, name, true));
				pfree(name);
				bk_lex(ep);
				if (ep->tok.kind == TOK_LBRACKET)
				{
					/* :name[index], an element of an array variable */
					e->kind = BK_EXPR_ELEM;
					e->nargs = 1;
					e->args = palloc(sizeof(BkExpr *));
					bk_lex(ep);
					e->args[0] = bk_parse_expr(ep, 0);
					bk_expect(ep, TOK_RBRACKET, "\"]\"");
				}
				return e;
			}
		case TOK_IDENT:
			return bk_parse_call(ep);
		case TOK_CASE:
			return bk_parse_case(ep);
		case TOK_STRING:
			expr_syntax_error(ep, "A quoted string is only the pattern of random_string(); expressions compute numbers and booleans.");
		case TOK_MAXINT:
			expr_syntax_error(ep, "9223372036854775808 is a bigint only as -9223372036854775808; write 9223372036854775808.0 for a double.");
		case TOK_END:
			expr_syntax_error(ep, "The expression is missing or ends too early.");
		default:
			expr_syntax_error(ep, "An operand is needed at this point: a number, a :variable, a function call, CASE or an expression in parentheses.");
	}
}

/*
 * bk_parse_expr
 *		An expression whose operators all bind at least as strongly as
 *		MINPREC, by precedence climbing over exprparse.y's precedences.
 */
static BkExpr *
bk_parse_expr(BkExprParser *ep, int minprec)
{
	BkExpr	   *left;
	bool		after_cmp = false;

	check_stack_depth();
	left = bk_parse_prefix(ep);
	for (;;)
	{
		BkToken		op = ep->tok;
		int			prec;
		BkFunc		func;
		bool		swap;
		BkExpr	   *right;

		if (!bk_infix(op.kind, &prec, &func, &swap) || prec < minprec)
			break;
		if (prec == BK_PREC_CMP && after_cmp)
			expr_syntax_error(ep, "Comparisons do not chain: write a < b AND b < c, or use parentheses.");
		bk_lex(ep);

		if (prec == BK_PREC_IS)
		{
			left = bk_parse_is(ep, op.kind, left);
			after_cmp = false;
			continue;
		}
		right = bk_parse_expr(ep, prec + 1);
		left = swap ? bk_make_op(func, right, left) : bk_make_op(func, left, right);
		after_cmp = (prec == BK_PREC_CMP);
	}
	return left;
}

/*
 * bk_expr_parse
 *		The whole expression TEXT of the COMMAND ("set", "if", "elif") at
 *		LINE of SCRIPT, TEXT starting at COLUMN (from 1) of that line.
 */
BkExpr *
bk_expr_parse(BkScript *script, const char *text, int line, int column,
			  const char *command)
{
	BkExprParser ep;
	BkExpr	   *e;

	ep.script = script;
	ep.line = line;
	ep.column = column;
	ep.command = command;
	ep.text = text;
	ep.pos = text;
	bk_lex(&ep);
	ep.first_offset = (int) (ep.tok.start - text);
	e = bk_parse_expr(&ep, 0);
	if (ep.tok.kind != TOK_END)
		expr_syntax_error(&ep, "An operator may be missing before this point.");
	return e;
}
