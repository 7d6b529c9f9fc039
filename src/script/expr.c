/*-------------------------------------------------------------------------
 *
 * expr.c
 *		Expressions of pgbench's script language (\set, \if, \elif): the
 *		tokenizer, the parser, evaluation, and values as text.  The random
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
#include "postgres.h"

#include <float.h>
#include <math.h>

#include "common/int.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/memutils.h"

#include "script/script.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* pgbench's limits for the distributions */
#define BK_MIN_GAUSSIAN_PARAM	2.0
#define BK_MIN_ZIPFIAN_PARAM	1.001
#define BK_MAX_ZIPFIAN_PARAM	1000.0

/* pgbench evaluates at most this many arguments of a function */
#define BK_MAX_FARGS			16


/* ------------------------------------------------------------------------
 * Parsed forms
 * ------------------------------------------------------------------------
 */

/* the kinds of expression node */
typedef enum BkExprKind
{
	BK_EXPR_CONST,				/* a constant: value */
	BK_EXPR_VAR,				/* :name: var */
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
	BK_F_PERMUTE
} BkFunc;

struct BkExpr
{
	BkExprKind	kind;
	BkValue		value;			/* BK_EXPR_CONST */
	int			var;			/* BK_EXPR_VAR */
	BkFunc		func;			/* BK_EXPR_FUNC */
	int			nargs;
	BkExpr	  **args;
};

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
#define BK_FUNCTION_LIST "The functions are abs, debug, double, exp, greatest, hash, hash_fnv1a, hash_murmur2, int, least, ln, mod, permute, pi, pow, power, random, random_exponential, random_gaussian, random_string, random_zipfian, sqrt, sysbench_gaussian, sysbench_pareto, sysbench_special and sysbench_zipfian."

/* sysbench's distributions draw from a range of uint32 */
#define BK_SB_MAX_BOUND			INT64CONST(4294967295)
#define BK_SB_MAX_ITER			1000
/* the longest pattern of random_string() */
#define BK_MAX_STRING_PATTERN	8192

/* ------------------------------------------------------------------------
 * Expressions: the tokenizer (pgbench's exprscan.l)
 * ------------------------------------------------------------------------
 */

typedef enum BkTokenKind
{
	TOK_END,					/* end of the expression */
	TOK_INT,
	TOK_MAXINT,					/* 9223372036854775808, only after a '-' */
	TOK_DOUBLE,
	TOK_VAR,					/* :name */
	TOK_STRING,					/* 'text': random_string()'s pattern */
	TOK_IDENT,					/* a function name */
	TOK_PLUS,
	TOK_MINUS,
	TOK_MUL,
	TOK_DIV,
	TOK_MOD,
	TOK_EQ,
	TOK_NE,						/* <> or != */
	TOK_LT,
	TOK_LE,
	TOK_GT,
	TOK_GE,
	TOK_BITAND,
	TOK_BITOR,
	TOK_BITXOR,					/* # */
	TOK_BITNOT,					/* ~ */
	TOK_LSHIFT,
	TOK_RSHIFT,
	TOK_LPAREN,
	TOK_RPAREN,
	TOK_COMMA,
	TOK_AND,
	TOK_OR,
	TOK_NOT,
	TOK_IS,
	TOK_ISNULL,
	TOK_NOTNULL,
	TOK_CASE,
	TOK_WHEN,
	TOK_THEN,
	TOK_ELSE,
	TOK_ENDKW,					/* END of CASE */
	TOK_TRUE,
	TOK_FALSE,
	TOK_NULL
} BkTokenKind;

/* the keywords, matched case-insensitively against whole words */
static const struct
{
	const char *word;
	BkTokenKind kind;
}			bk_keywords[] =
{
	{"and", TOK_AND},
	{"case", TOK_CASE},
	{"else", TOK_ELSE},
	{"end", TOK_ENDKW},
	{"false", TOK_FALSE},
	{"is", TOK_IS},
	{"isnull", TOK_ISNULL},
	{"not", TOK_NOT},
	{"notnull", TOK_NOTNULL},
	{"null", TOK_NULL},
	{"or", TOK_OR},
	{"then", TOK_THEN},
	{"true", TOK_TRUE},
	{"when", TOK_WHEN},
};

typedef struct BkToken
{
	BkTokenKind kind;
	const char *start;			/* in BkExprParser.text */
	int			len;			/* 0 for TOK_END */
	int64		ival;			/* TOK_INT */
	double		dval;			/* TOK_DOUBLE */
} BkToken;

/* the state of parsing one expression */
typedef struct BkExprParser
{
	BkScript   *script;
	int			line;			/* of the command */
	int			column;			/* where the text starts in that line, from 1 */
	const char *command;		/* "set", "if" or "elif" */
	const char *text;			/* the expression */
	const char *pos;			/* where the tokenizer is */
	int			first_offset;	/* of the expression's first token */
	BkToken		tok;			/* the current token */
} BkExprParser;

static BK_NORETURN void bk_expr_error(BkExprParser *ep, const BkToken *at,
									  const char *hint, const char *msg,
									  const char *more);

/*
 * bk_expr_error
 *		Report an error found while reading the expression, in pgbench's
 *		words: MSG and, when not NULL, MORE in parentheses.  Like pgbench,
 *		point at the last character of token AT, the one read when the
 *		error showed (its position when AT is the end).
 */
static void
bk_expr_error(BkExprParser *ep, const BkToken *at, const char *hint,
			  const char *msg, const char *more)
{
	int			caret = (int) (at->start - ep->text) + (at->len > 0 ? at->len - 1 : 0);
	char	   *what = more != NULL ? psprintf("%s (%s)", msg, more) : pstrdup(msg);

	ereport(ERROR,
			(errcode(ERRCODE_SYNTAX_ERROR),
			 errmsg("%s in command \"%s\" of script \"%s\" at line %d, column %d",
					what, ep->command, ep->script->name, ep->line,
					Max(ep->column, 1) + caret),
			 errdetail("The expression, with the error marked:\n%s\n%*c error found here",
					   ep->text, caret + 1, '^'),
			 errhint("%s", hint)));
}

/* pgbench's spaces between tokens: [ \t\r\f\v] */
static inline bool
bk_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* a decimal digit, in any locale */
static inline bool
bk_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * bk_strtoint64
 *		pgbench's strtoint64: STR, blanks around allowed, as a bigint into
 *		*RESULT; false if it is not one (*OUT_OF_RANGE tells why).
 */
static bool
bk_strtoint64(const char *str, int64 *result, bool *out_of_range)
{
	const char *p = str;
	int64		tmp = 0;
	bool		neg = false;

	*out_of_range = false;
	while (bk_is_space(*p) || *p == '\n')
		p++;
	if (*p == '-')
	{
		p++;
		neg = true;
	}
	else if (*p == '+')
		p++;
	if (!bk_is_digit(*p))
		return false;

	/* accumulate as a negative number, the larger range */
	while (bk_is_digit(*p))
	{
		int			digit = *p++ - '0';

		if (pg_mul_s64_overflow(tmp, 10, &tmp) ||
			pg_sub_s64_overflow(tmp, digit, &tmp))
		{
			*out_of_range = true;
			return false;
		}
	}
	while (bk_is_space(*p) || *p == '\n')
		p++;
	if (*p != '\0')
		return false;
	if (!neg)
	{
		if (tmp == PG_INT64_MIN)
		{
			*out_of_range = true;
			return false;
		}
		tmp = -tmp;
	}
	*result = tmp;
	return true;
}

/*
 * bk_strtodouble
 *		pgbench's strtodouble: the whole of STR as a double into *RESULT;
 *		false if it is not one or is out of range (overflow or underflow).
 */
static bool
bk_strtodouble(const char *str, double *result)
{
	char	   *end;

	errno = 0;
	*result = strtod(str, &end);
	return errno == 0 && end != str && *end == '\0';
}

/*
 * bk_lex_number
 *		Read the number at P into TOK as flex's longest match of exprscan.l
 *		does: digits are an integer, with a point or an exponent a double
 *		("1." and ".5" are doubles, "1e" is 1 then "e"), and
 *		9223372036854775808 exactly is a token of its own.
 */
static const char *
bk_lex_number(BkExprParser *ep, const char *p, BkToken *tok)
{
	const char *start = p;
	bool		isdouble = false;
	char	   *text;

	while (bk_is_digit(*p))
		p++;
	if (*p == '.')
	{
		isdouble = true;
		for (p++; bk_is_digit(*p); p++)
			;
	}
	if (*p == 'e' || *p == 'E')
	{
		const char *q = p + 1;

		if (*q == '+' || *q == '-')
			q++;
		if (bk_is_digit(*q))
		{
			while (bk_is_digit(*q))
				q++;
			p = q;
			isdouble = true;
		}
	}
	tok->len = (int) (p - start);
	text = pnstrdup(start, tok->len);

	if (isdouble)
	{
		tok->kind = TOK_DOUBLE;
		if (!bk_strtodouble(text, &tok->dval))
			bk_expr_error(ep, tok,
						  "A double constant lies between about 1e-308 and 1e308 in absolute value, or is zero.",
						  "double constant overflow", text);
	}
	else if (strcmp(text, "9223372036854775808") == 0)
	{
		/* -9223372036854775808 is read as '-' then this */
		tok->kind = TOK_MAXINT;
	}
	else
	{
		bool		out_of_range;

		tok->kind = TOK_INT;
		if (!bk_strtoint64(text, &tok->ival, &out_of_range))
			bk_expr_error(ep, tok,
						  "An integer constant lies between -9223372036854775808 and 9223372036854775807; write a double, as in 1e19, for more.",
						  "bigint constant overflow", text);
	}
	pfree(text);
	return p;
}

/*
 * bk_lex
 *		Read the next token of the expression into ep->tok.
 */
static void
bk_lex(BkExprParser *ep)
{
	const char *p = ep->pos;
	BkToken    *tok = &ep->tok;
	unsigned char c;

	/* blanks, and backslash-newline continuations */
	for (;;)
	{
		if (bk_is_space(*p))
			p++;
		else if (p[0] == '\\' && p[1] == '\n')
			p += 2;
		else if (p[0] == '\\' && p[1] == '\r' && p[2] == '\n')
			p += 3;
		else
			break;
	}
	tok->start = p;
	tok->len = 1;
	tok->ival = 0;
	tok->dval = 0.0;
	c = (unsigned char) *p;

	if (c == '\0' || c == '\n')
	{
		/* a newline ends the command */
		tok->kind = TOK_END;
		tok->len = 0;
	}
	else if (bk_is_digit(c) || (c == '.' && bk_is_digit(p[1])))
	{
		ep->pos = bk_lex_number(ep, p, tok);
		return;
	}
	else if (c == '\'')
	{
		const char *q = p + 1;

		/* to the closing quote; '' is a quote */
		for (;;)
		{
			if (*q == '\0' || *q == '\n')
			{
				tok->len = (int) (q - p);
				bk_expr_error(ep, tok, "A string ends with a quote on the same line; write '' for a quote inside it.",
							  "unterminated quoted string", NULL);
			}
			if (q[0] == '\'' && q[1] == '\'')
				q += 2;
			else if (q[0] == '\'')
				break;
			else
				q++;
		}
		tok->kind = TOK_STRING;
		tok->len = (int) (q + 1 - p);
	}
	else if (c == ':' && bk_is_name_char((unsigned char) p[1]))
	{
		const char *q = p + 1;

		/* in expressions a variable name may start with a digit */
		while (bk_is_name_char((unsigned char) *q))
			q++;
		tok->kind = TOK_VAR;
		tok->len = (int) (q - p);
	}
	else if (bk_is_name_start(c))
	{
		const char *q = p + 1;

		while (bk_is_name_char((unsigned char) *q))
			q++;
		tok->len = (int) (q - p);
		tok->kind = TOK_IDENT;
		for (int i = 0; i < lengthof(bk_keywords); i++)
		{
			if ((int) strlen(bk_keywords[i].word) == tok->len &&
				pg_strncasecmp(bk_keywords[i].word, p, tok->len) == 0)
			{
				tok->kind = bk_keywords[i].kind;
				break;
			}
		}
	}
	else
	{
		char		c2 = p[1];

		tok->len = 2;
		if ((c == '<' && c2 == '>') || (c == '!' && c2 == '='))
			tok->kind = TOK_NE;
		else if (c == '<' && c2 == '=')
			tok->kind = TOK_LE;
		else if (c == '>' && c2 == '=')
			tok->kind = TOK_GE;
		else if (c == '<' && c2 == '<')
			tok->kind = TOK_LSHIFT;
		else if (c == '>' && c2 == '>')
			tok->kind = TOK_RSHIFT;
		else
		{
			tok->len = 1;
			switch (c)
			{
				case '+':
					tok->kind = TOK_PLUS;
					break;
				case '-':
					tok->kind = TOK_MINUS;
					break;
				case '*':
					tok->kind = TOK_MUL;
					break;
				case '/':
					tok->kind = TOK_DIV;
					break;
				case '%':
					tok->kind = TOK_MOD;
					break;
				case '=':
					tok->kind = TOK_EQ;
					break;
				case '<':
					tok->kind = TOK_LT;
					break;
				case '>':
					tok->kind = TOK_GT;
					break;
				case '&':
					tok->kind = TOK_BITAND;
					break;
				case '|':
					tok->kind = TOK_BITOR;
					break;
				case '#':
					tok->kind = TOK_BITXOR;
					break;
				case '~':
					tok->kind = TOK_BITNOT;
					break;
				case '(':
					tok->kind = TOK_LPAREN;
					break;
				case ')':
					tok->kind = TOK_RPAREN;
					break;
				case ',':
					tok->kind = TOK_COMMA;
					break;
				default:
					{
						char		more[2] = {(char) c, '\0'};

						bk_expr_error(ep, tok,
									  c == ':' ?
									  "A variable is written as a colon followed by its name, as in :aid." :
									  "The operators are + - * / % = <> != < <= > >= & | # ~ << >>, AND, OR, NOT, IS, ISNULL and NOTNULL.",
									  "unexpected character", more);
					}
			}
		}
	}
	ep->pos = p + tok->len;
}

/* ------------------------------------------------------------------------
 * Expressions: the parser (pgbench's exprparse.y, by precedence climbing)
 * ------------------------------------------------------------------------
 */

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
 * bk_syntax_error
 *		Report the current token as one that cannot be there: bison's
 *		"syntax error", with HINT saying what could.
 */
static BK_NORETURN void
bk_syntax_error(BkExprParser *ep, const char *hint)
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
		bk_syntax_error(ep, psprintf("The expression needs %s at this point.", what));
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
			bk_syntax_error(ep, "IS and IS NOT are followed by NULL, TRUE or FALSE.");
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
		bk_syntax_error(ep, "random_string() takes a pattern in quotes: '#' is a random digit, '@' a random lower-case letter.");
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
		bk_syntax_error(ep, "The expression needs \",\" or \")\" at this point.");

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
		bk_syntax_error(ep, "CASE is followed by one or more WHEN condition THEN value.");
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
				return e;
			}
		case TOK_IDENT:
			return bk_parse_call(ep);
		case TOK_CASE:
			return bk_parse_case(ep);
		case TOK_STRING:
			bk_syntax_error(ep, "A quoted string is only the pattern of random_string(); expressions compute numbers and booleans.");
		case TOK_MAXINT:
			bk_syntax_error(ep, "9223372036854775808 is a bigint only as -9223372036854775808; write 9223372036854775808.0 for a double.");
		case TOK_END:
			bk_syntax_error(ep, "The expression is missing or ends too early.");
		default:
			bk_syntax_error(ep, "An operand is needed at this point: a number, a :variable, a function call, CASE or an expression in parentheses.");
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
			bk_syntax_error(ep, "Comparisons do not chain: write a < b AND b < c, or use parentheses.");
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
		bk_syntax_error(&ep, "An operator may be missing before this point.");
	return e;
}

/* ------------------------------------------------------------------------
 * Expressions: evaluation (pgbench's evaluateExpr)
 * ------------------------------------------------------------------------
 */

/* what an evaluation works with */
typedef struct BkEvalState
{
	const BkScript *script;
	int			cmdno;			/* the command evaluated, from 0 */
	BkValue    *vars;
	BkPrng	   *prng;
} BkEvalState;

static void bk_eval(BkEvalState *st, const BkExpr *e, BkValue *ret);

/* set V to an integer */
static inline void
bk_set_int(BkValue *v, int64 i)
{
	v->kind = BK_VAL_INT;
	v->i = i;
}

/* set V to a double */
static inline void
bk_set_double(BkValue *v, double d)
{
	v->kind = BK_VAL_DOUBLE;
	v->d = d;
}

/* set V to a boolean */
static inline void
bk_set_bool(BkValue *v, bool b)
{
	v->kind = BK_VAL_BOOL;
	v->b = b;
}

/* set V to null */
static inline void
bk_set_null(BkValue *v)
{
	v->kind = BK_VAL_NULL;
}

/* the name of V's type, for messages (pgbench's valueTypeName) */
static const char *
bk_type_name(const BkValue *v)
{
	switch (v->kind)
	{
		case BK_VAL_NULL:
			return "null";
		case BK_VAL_BOOL:
			return "boolean";
		case BK_VAL_INT:
			return "int";
		case BK_VAL_DOUBLE:
			return "double";
		default:
			return "none";
	}
}

/*
 * bk_is_an_int
 *		pgbench's is_an_int: whether STR looks like an integer, blanks
 *		first and a sign allowed ("-" alone does, as in pgbench).
 */
static bool
bk_is_an_int(const char *str)
{
	const char *p = str;

	while (bk_is_space(*p) || *p == '\n')
		p++;
	if (*p == '+' || *p == '-')
		p++;
	if (*p != '\0' && !bk_is_digit(*p))
		return false;
	while (bk_is_digit(*p))
		p++;
	return *p == '\0';
}

/*
 * bk_string_value
 *		The value of variable NAME holding the string S, read as pgbench's
 *		makeVariableValue reads one: null, a boolean (prefixes of true, yes,
 *		false and no; on, off, of), an integer, else a double.
 */
static void
bk_string_value(const char *name, const char *s, BkValue *ret)
{
	size_t		slen = strlen(s);

	if (slen == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("malformed variable \"%s\" value: \"%s\"", name, s),
				 errhint("An empty string is no value an expression can read.")));

	if (pg_strcasecmp(s, "null") == 0)
		bk_set_null(ret);
	else if (pg_strncasecmp(s, "true", slen) == 0 ||
			 pg_strncasecmp(s, "yes", slen) == 0 ||
			 pg_strcasecmp(s, "on") == 0)
		bk_set_bool(ret, true);
	else if (pg_strncasecmp(s, "false", slen) == 0 ||
			 pg_strncasecmp(s, "no", slen) == 0 ||
			 pg_strcasecmp(s, "off") == 0 ||
			 pg_strcasecmp(s, "of") == 0)
		bk_set_bool(ret, false);
	else if (bk_is_an_int(s))
	{
		int64		i;
		bool		out_of_range;

		if (!bk_strtoint64(s, &i, &out_of_range))
		{
			if (out_of_range)
				ereport(ERROR,
						(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
						 errmsg("value \"%s\" is out of range for type bigint", s),
						 errhint("Variable \"%s\" holds an integer beyond the range of bigint.", name)));
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type bigint: \"%s\"", s),
					 errhint("Variable \"%s\" holds a sign without digits.", name)));
		}
		bk_set_int(ret, i);
	}
	else
	{
		double		d;

		if (!bk_strtodouble(s, &d))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("malformed variable \"%s\" value: \"%s\"", name, s),
					 errhint("An expression reads a variable's text as NULL, a boolean, an integer or a double.")));
		bk_set_double(ret, d);
	}
}

/*
 * bk_to_bool
 *		V as a boolean; only a boolean is one.
 */
static bool
bk_to_bool(const BkValue *v)
{
	if (v->kind != BK_VAL_BOOL)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("cannot coerce %s to boolean", bk_type_name(v)),
				 errhint("AND, OR and NOT take booleans; compare numbers, as in :x <> 0, to make one.")));
	return v->b;
}

/*
 * bk_to_int
 *		V as an integer: doubles are rounded to the nearest.
 */
static int64
bk_to_int(const BkValue *v)
{
	if (v->kind == BK_VAL_INT)
		return v->i;
	if (v->kind == BK_VAL_DOUBLE)
	{
		double		d = rint(v->d);

		if (isnan(d) || !FLOAT8_FITS_IN_INT64(d))
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("double to int overflow for %f", d),
					 errhint("A double used as an integer must lie within the range of bigint.")));
		return (int64) d;
	}
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("cannot coerce %s to int", bk_type_name(v)),
			 errhint("Use a CASE expression to turn a boolean into a number.")));
	return 0;					/* keep the compiler quiet */
}

/*
 * bk_to_double
 *		V as a double.
 */
static double
bk_to_double(const BkValue *v)
{
	if (v->kind == BK_VAL_DOUBLE)
		return v->d;
	if (v->kind == BK_VAL_INT)
		return (double) v->i;
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("cannot coerce %s to double", bk_type_name(v)),
			 errhint("Use a CASE expression to turn a boolean into a number.")));
	return 0.0;					/* keep the compiler quiet */
}

/*
 * bk_truth
 *		Whether V counts as true for CASE, \if and \elif (pgbench's
 *		valueTruth): true, or a number other than zero; null is false.
 */
static bool
bk_truth(const BkValue *v)
{
	switch (v->kind)
	{
		case BK_VAL_BOOL:
			return v->b;
		case BK_VAL_INT:
			return v->i != 0;
		case BK_VAL_DOUBLE:
			return v->d != 0.0;
		default:
			return false;
	}
}

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
static void
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

/* ------------------------------------------------------------------------
 * Values as text
 * ------------------------------------------------------------------------
 */

/*
 * bk_value_format
 *		Write V at OUT (BK_VALUE_TEXT_LEN bytes) as pgbench's getVariable
 *		makes the text of a variable, which is what pgbench puts into SQL:
 *		integers in decimal, doubles with %.15g (so "Infinity", "NaN"), true
 *		and false, NULL (the four letters, not SQL's null).  An unset
 *		variable is the empty string; a string is cut to the room there is
 *		(callers substitute strings themselves).  Returns the length.
 */
int
bk_value_format(const BkValue *v, char *out)
{
	switch (v->kind)
	{
		case BK_VAL_INT:
			return snprintf(out, BK_VALUE_TEXT_LEN, INT64_FORMAT, v->i);
		case BK_VAL_DOUBLE:
			return snprintf(out, BK_VALUE_TEXT_LEN, "%.*g", DBL_DIG, v->d);
		case BK_VAL_BOOL:
			return snprintf(out, BK_VALUE_TEXT_LEN, "%s", v->b ? "true" : "false");
		case BK_VAL_NULL:
			return snprintf(out, BK_VALUE_TEXT_LEN, "NULL");
		case BK_VAL_STRING:
			strlcpy(out, v->s, BK_VALUE_TEXT_LEN);
			return (int) strlen(out);
		case BK_VAL_UNDEF:
			break;
	}
	out[0] = '\0';
	return 0;
}

/*
 * bk_value_text
 *		VALUE as text, as pgbench puts it into a query, in BUF of LEN bytes
 *		(cut if too short: BK_VALUE_TEXT_LEN is always enough but for a
 *		string).  Returns BUF.
 */
char *
bk_value_text(const BkValue *value, char *buf, size_t len)
{
	char		text[BK_VALUE_TEXT_LEN];

	if (value->kind == BK_VAL_STRING)
	{
		strlcpy(buf, value->s, len);
		return buf;
	}
	bk_value_format(value, text);
	strlcpy(buf, text, len);
	return buf;
}

