/*-------------------------------------------------------------------------
 *
 * expr_scan.h
 *		The tokenizer of expressions, and their syntax errors (expr_scan.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_SCRIPT_EXPR_SCAN_H
#define PGBENCHKIT_SCRIPT_EXPR_SCAN_H

#include "script/script.h"

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
	TOK_LBRACKET,				/* [ of :name[index] */
	TOK_RBRACKET,
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

extern BK_NORETURN void bk_expr_error(BkExprParser *ep, const BkToken *at,
									  const char *hint, const char *msg,
									  const char *more);
extern void bk_lex(BkExprParser *ep);

#endif							/* PGBENCHKIT_SCRIPT_EXPR_SCAN_H */
