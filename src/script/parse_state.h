/*-------------------------------------------------------------------------
 *
 * parse_state.h
 *		The state of parsing a script, which the parts of the script parser
 *		share (parse.c, sql_scan.c, sql_command.c, meta.c, sleep.c), and
 *		what they share to work on it (parse_state.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_SCRIPT_PARSE_STATE_H
#define PGBENCHKIT_SCRIPT_PARSE_STATE_H

#include "lib/stringinfo.h"

#include "script/script.h"

/* an \if being parsed, until its \endif, or a \while, until its \endwhile */
typedef struct BkOpenIf
{
	int			cmd;			/* index of the \if or \while */
	int			branch;			/* index of its latest \if, \elif or \else */
	bool		seen_else;
	bool		loop;			/* a \while */
} BkOpenIf;

/* the state of parsing a script */
typedef struct BkScriptParser
{
	BkScript   *script;
	const char *text;			/* the whole script */
	int			maxcommands;	/* allocated length of script->commands */

	/*
	 * The SQL lexer's state, which carries over from one SQL command to the
	 * next as psql's lexer's does: parentheses, and the heuristic that
	 * finds the BEGIN ... END body of CREATE FUNCTION and CREATE PROCEDURE.
	 */
	int			paren_depth;
	int			paren_line;		/* line of the outermost open parenthesis */
	int			begin_depth;
	int			ident_count;	/* identifiers seen in the statement */
	char		idents[4];		/* first letter of its first ones, if keys */

	/* the SQL command being collected, as pgbench's query buffer has it */
	StringInfoData sql;
	int			sql_line;		/* line of its first character */
	int		   *joins;			/* offsets in sql of the ';' of its \; */
	int			njoins;
	int			maxjoins;

	/* conditionals and loops open, innermost last */
	BkOpenIf   *ifs;
	int			nifs;
	int			maxifs;

	/* the pipeline open, if any */
	int			pipe_line;		/* line of its \startpipeline, 0 if none */
	int			pipe_nifs;		/* nifs at its \startpipeline */
} BkScriptParser;

/* one word of a meta-command */
typedef struct BkWord
{
	const char *start;
	int			len;
	int			line;
	int			column;			/* from 1, in bytes */
} BkWord;

/* whether C is blank within a meta-command, as pgbench's {space} */
static inline bool
bk_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* whether C is white space in SQL, as psql's lexer's {space} */
static inline bool
bk_is_sql_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* the name of word W, palloc'd */
static inline char *
bk_word(const BkWord *w)
{
	return pnstrdup(w->start, w->len);
}

extern int	bk_column(BkScriptParser *sp, const char *p);
extern BK_NORETURN void bk_syntax_error(BkScriptParser *sp, int line, int column,
										const char *command, const char *hint,
										const char *fmt,...) pg_attribute_printf(6, 7);
extern BkCommand *bk_new_command(BkScriptParser *sp, BkCommandKind kind, int line);

#endif							/* PGBENCHKIT_SCRIPT_PARSE_STATE_H */
