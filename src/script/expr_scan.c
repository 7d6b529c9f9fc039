/*-------------------------------------------------------------------------
 *
 * expr_scan.c
 *		The tokenizer of the expressions of \set, \if and \elif (pgbench's
 *		exprscan.l): numbers, :variables, names and keywords, operators,
 *		the quoted pattern of random_string(); and the errors found while
 *		reading an expression, in pgbench's words, marking where they are.
 *		The language is described in expr.h.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "script/expr_scan.h"
#include "script/value.h"

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

/*
 * bk_expr_error
 *		Report an error found while reading the expression, in pgbench's
 *		words: MSG and, when not NULL, MORE in parentheses.  Like pgbench,
 *		point at the last character of token AT, the one read when the
 *		error showed (its position when AT is the end).
 */
void
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
void
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
				case '[':
					tok->kind = TOK_LBRACKET;
					break;
				case ']':
					tok->kind = TOK_RBRACKET;
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
