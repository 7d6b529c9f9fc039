/*-------------------------------------------------------------------------
 *
 * script.c
 *		Workload scripts in pgbench's script language: splitting a script
 *		into commands, the table of variable names, substituting variables
 *		into statements, the length of a \sleep.
 *
 * A script is split as pgbench splits it (its ParseScript, with psql's
 * lexer for SQL), so that a script runs here as it runs under pgbench and
 * its commands are numbered as pgbench numbers them:
 *
 * - SQL ends at a semicolon outside quotes, comments, parentheses and
 *   BEGIN ATOMIC bodies, at a backslash (any backslash of the SQL text,
 *   not only one at the start of a line), or at the end of the script.
 *   Whatever is left once blanks and "--" comments are dropped is one
 *   command, even a lone semicolon (an empty query).  "\;" joins
 *   statements into one command and "\:" is a colon.
 *
 * - A meta-command is the rest of its line, lines ending in a backslash
 *   continuing it; its first word is its name, in any case.
 *
 * - \gset and \aset are no commands of their own: they give their
 *   variable prefix to the SQL command just before them (which they end,
 *   or which a semicolon ended).
 *
 * - \if, \elif, \else and \endif are checked as pgbench's
 *   CheckConditional checks them, and linked to each other.
 *
 * - BEGIN and START TRANSACTION, COMMIT and END, ROLLBACK and ABORT are
 *   commands of their own kinds, which the client runs itself; BEGIN
 *   keeps its transaction modes.
 *
 * Everything pgbench refuses when it reads a script is refused here, with
 * the script, line and column.  Some mistakes pgbench finds only when a
 * client reaches them are refused here too, since such a script fails
 * whenever it runs that far: an invalid variable name or \gset prefix, a
 * pipeline not started, nested or left open, \gset in a pipeline, \gset
 * after a statement that returns no rows, an unterminated quote, comment
 * or parenthesis.  So is a pipeline that does not end in the branch of an
 * \if it starts in, whose commands would be in a pipeline or not depending
 * on the branch taken.  What a client inside the server cannot do is
 * refused as well: \shell, \setshell, transaction control joined with \;
 * to other statements, savepoints and two-phase commit.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>

#include "common/int.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/memutils.h"

#include "script/expr_parse.h"
#include "script/script.h"
#include "script/value.h"

/* first size of BkVarTable.names, which doubles whenever it is full */
#define BK_VARNAMES_INIT		8

/* the longest \sleep, in microseconds: its nanoseconds fit in an int64 */
#define BK_SLEEP_MAX_USEC		(PG_INT64_MAX / 1000)

/* pgbench -r shows at most this many bytes of a SQL command */
#define BK_SQL_TEXT_MAX			127

/*
 * one :name or :{name} in a statement: where it is in BkStatement.sql,
 * which variable
 */
typedef struct BkSqlRef
{
	int			off;			/* offset of the colon */
	int			len;			/* length of ":name", ":'name'" or ":{name}" */
	int			var;
	int			param;			/* :name, :'name': its $n; :{name}: 0 */
	bool		quoted;			/* :'name': a literal in the simple protocol */
	const char *ident;			/* :{name}: the name (for errors); NULL */
} BkSqlRef;

/* every :name and :{name} of a statement, in the order of the text */
struct BkSqlSubst
{
	int			sqllen;			/* strlen(BkStatement.sql) */
	int			nrefs;
	BkSqlRef	refs[FLEXIBLE_ARRAY_MEMBER];
};

/* ------------------------------------------------------------------------
 * Variables
 * ------------------------------------------------------------------------
 */

/*
 * bk_valid_var_name
 *		Whether NAME may be set by \set: pgbench's valid_variable_name.
 */
bool
bk_valid_var_name(const char *name)
{
	const unsigned char *p = (const unsigned char *) name;

	if (!bk_is_name_start(*p))
		return false;
	for (p++; *p; p++)
	{
		if (!bk_is_name_char(*p))
			return false;
	}
	return true;
}

/*
 * bk_vartable_create
 *		A table of variable names with the variables every client has.
 */
BkVarTable *
bk_vartable_create(void)
{
	BkVarTable *vt = palloc0(sizeof(BkVarTable));

	vt->maxvars = BK_VARNAMES_INIT;
	vt->names = palloc(sizeof(char *) * vt->maxvars);
	if (bk_var_lookup(vt, "scale", true) != BK_VAR_SCALE ||
		bk_var_lookup(vt, "client_id", true) != BK_VAR_CLIENT_ID ||
		bk_var_lookup(vt, "random_seed", true) != BK_VAR_RANDOM_SEED ||
		bk_var_lookup(vt, "default_seed", true) != BK_VAR_DEFAULT_SEED)
		elog(ERROR, "predefined script variables out of order");
	return vt;
}

/*
 * bk_var_lookup
 *		The index of variable NAME in VT; with CREATE, a variable not known
 *		yet is added (in the memory context of the table), otherwise the
 *		answer is -1.  Scripts name few variables: a linear search it is.
 */
int
bk_var_lookup(BkVarTable *vt, const char *name, bool create)
{
	for (int i = 0; i < vt->nvars; i++)
	{
		if (strcmp(vt->names[i], name) == 0)
			return i;
	}
	if (!create)
		return -1;
	if (vt->nvars == vt->maxvars)
	{
		vt->maxvars *= 2;
		vt->names = repalloc(vt->names, sizeof(char *) * vt->maxvars);
	}
	vt->names[vt->nvars] = MemoryContextStrdup(GetMemoryChunkContext(vt->names), name);
	return vt->nvars++;
}

/*
 * bk_var_assign
 *		Set variable VAR to VALUE, freeing its old string; a string value is
 *		copied into CXT (or over the old string, when that is long enough).
 */
void
bk_var_assign(BkValue *var, const BkValue *value, MemoryContext cxt)
{
	char	   *old = var->kind == BK_VAL_STRING ? var->s : NULL;

	*var = *value;
	if (value->kind == BK_VAL_STRING)
	{
		size_t		len = strlen(value->s);

		/* a string as long as the old one or shorter takes its place */
		if (old != NULL && len <= strlen(old))
		{
			memmove(old, value->s, len + 1);
			var->s = old;
			return;
		}
		var->s = MemoryContextStrdup(cxt, value->s);
	}
	else
		var->s = NULL;
	if (old != NULL)
		pfree(old);
}

/*
 * bk_var_set_string
 *		Set variable VAR to the string TEXT (copied into CXT).
 */
void
bk_var_set_string(BkValue *var, const char *text, MemoryContext cxt)
{
	BkValue		v;

	memset(&v, 0, sizeof(v));
	v.kind = BK_VAL_STRING;
	v.s = unconstify(char *, text);
	bk_var_assign(var, &v, cxt);
}

/* ------------------------------------------------------------------------
 * Splitting a script into commands
 * ------------------------------------------------------------------------
 */

/* an \if being parsed, until its \endif */
typedef struct BkOpenIf
{
	int			cmd;			/* index of the \if */
	int			branch;			/* index of its latest \if, \elif or \else */
	bool		seen_else;
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

	/* conditionals open, innermost last */
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

/* most words a meta-command may have (pgbench's MAX_ARGS) */
#define BK_MAX_WORDS			256

static BK_NORETURN void bk_syntax_error(BkScriptParser *sp, int line, int column,
										const char *command, const char *hint,
										const char *fmt,...) pg_attribute_printf(6, 7);

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

/*
 * bk_continuation
 *		The length of the line continuation (a backslash ending a line) at
 *		P, 0 if there is none.
 */
static inline int
bk_continuation(const char *p)
{
	if (p[0] != '\\')
		return 0;
	if (p[1] == '\n')
		return 2;
	if (p[1] == '\r' && p[2] == '\n')
		return 3;
	return 0;
}

/*
 * bk_column
 *		The column of P in its line of the script, from 1.
 */
static int
bk_column(BkScriptParser *sp, const char *p)
{
	const char *q = p;

	while (q > sp->text && q[-1] != '\n')
		q--;
	return (int) (p - q) + 1;
}

/*
 * bk_syntax_error
 *		Report a mistake at LINE and COLUMN (0 when unknown) of the script,
 *		in meta-command COMMAND (NULL if none), as pgbench's syntax_error
 *		words it: "<message> in command "<name>"".
 */
static void
bk_syntax_error(BkScriptParser *sp, int line, int column, const char *command,
				const char *hint, const char *fmt,...)
{
	StringInfoData what;
	StringInfoData where;

	initStringInfo(&what);
	for (;;)
	{
		va_list		args;
		int			needed;

		va_start(args, fmt);
		needed = appendStringInfoVA(&what, fmt, args);
		va_end(args);
		if (needed == 0)
			break;
		enlargeStringInfo(&what, needed);
	}

	initStringInfo(&where);
	if (command != NULL)
		appendStringInfo(&where, " in command \"%s\"", command);
	appendStringInfo(&where, " in script \"%s\" at line %d",
					 sp->script->name, line);
	if (column > 0)
		appendStringInfo(&where, ", column %d", column);

	ereport(ERROR,
			(errcode(ERRCODE_SYNTAX_ERROR),
			 errmsg("%s%s", what.data, where.data),
			 hint ? errhint("%s", hint) : 0));
}

/*
 * bk_unterminated
 *		Report a quoted string, dollar-quoted string or comment (WHAT) that
 *		starts at P, on LINE, and never ends.
 */
static BK_NORETURN void
bk_unterminated(BkScriptParser *sp, const char *what, const char *p, int line)
{
	bk_syntax_error(sp, line, bk_column(sp, p), NULL,
					"Close it before the end of the script.",
					"unterminated %s", what);
}

/*
 * bk_new_command
 *		A zeroed command of KIND at LINE, appended to the script.
 */
static BkCommand *
bk_new_command(BkScriptParser *sp, BkCommandKind kind, int line)
{
	BkScript   *script = sp->script;
	BkCommand  *cmd;

	if (script->ncommands == sp->maxcommands)
	{
		sp->maxcommands *= 2;
		script->commands = repalloc(script->commands,
									sizeof(BkCommand) * sp->maxcommands);
	}
	cmd = &script->commands[script->ncommands++];
	memset(cmd, 0, sizeof(BkCommand));
	cmd->kind = kind;
	cmd->line = line;
	cmd->var = -1;
	cmd->sleep_var = -1;
	cmd->next_branch = -1;
	cmd->endif = -1;
	cmd->gset_prefix = "";
	return cmd;
}

/* ------------------------------------------------------------------------
 * SQL: the lexer
 * ------------------------------------------------------------------------
 */

/*
 * bk_sql_append
 *		Add LEN bytes at P to the SQL command being collected, counting the
 *		lines they end.  The command starts at its first byte that is not
 *		white space: psql's lexer drops white space and "--" comments at the
 *		start of its query buffer.
 */
static void
bk_sql_append(BkScriptParser *sp, const char *p, int len, int *line)
{
	for (int i = 0; i < len; i++)
	{
		if (p[i] == '\n')
			(*line)++;
	}
	if (sp->sql.len == 0)
		sp->sql_line = *line;
	appendBinaryStringInfo(&sp->sql, p, len);
}

/*
 * bk_skip_quoted
 *		Past the string or quoted identifier opened by the quote at P; with
 *		ESCAPES (an E'' string) a backslash escapes the next character.
 */
static const char *
bk_skip_quoted(BkScriptParser *sp, const char *p, bool escapes, int line)
{
	const char *start = p;
	char		quote = *p;

	for (p++;; p++)
	{
		if (*p == '\0')
			bk_unterminated(sp, quote == '"' ? "quoted identifier" : "quoted string",
							start, line);
		if (escapes && *p == '\\' && p[1] != '\0')
			p++;
		else if (*p == quote)
		{
			if (p[1] != quote)
				return p + 1;
			p++;				/* a doubled quote */
		}
	}
}

/*
 * bk_skip_comment
 *		Past the comment opened by the slash-star at P; they nest, as in
 *		PostgreSQL.
 */
static const char *
bk_skip_comment(BkScriptParser *sp, const char *p, int line)
{
	const char *start = p;
	int			depth = 1;

	p += 2;
	while (depth > 0)
	{
		if (*p == '\0')
			bk_unterminated(sp, "comment", start, line);
		if (p[0] == '/' && p[1] == '*')
		{
			depth++;
			p += 2;
		}
		else if (p[0] == '*' && p[1] == '/')
		{
			depth--;
			p += 2;
		}
		else
			p++;
	}
	return p;
}

/*
 * bk_skip_dollar
 *		At a '$' that starts a token: past the dollar-quoted string it opens
 *		($$...$$ or $tag$...$tag$), or just past the '$' when it opens none
 *		(a parameter such as $1).
 */
static const char *
bk_skip_dollar(BkScriptParser *sp, const char *p, int line)
{
	const char *q = p + 1;
	int			delimlen;

	if (bk_is_name_start((unsigned char) *q))
	{
		while (bk_is_name_char((unsigned char) *q))
			q++;
	}
	if (*q != '$')
		return p + 1;
	delimlen = (int) (q - p) + 1;

	for (q++;; q++)
	{
		if (*q == '\0')
			bk_unterminated(sp, "dollar-quoted string", p, line);
		if (*q == '$' && strncmp(q, p, delimlen) == 0)
			return q + delimlen;
	}
}

/*
 * bk_sql_identifier
 *		Follow psql's lexer through identifier WORD of LEN bytes: a
 *		statement that starts CREATE [OR REPLACE] FUNCTION or PROCEDURE
 *		may have a BEGIN ... END body, whose semicolons end no statement.
 */
static void
bk_sql_identifier(BkScriptParser *sp, const char *word, int len)
{
	static const char *const keys[] = {"create", "function", "procedure", "or", "replace"};
	char	   *idents = sp->idents;

	if (sp->ident_count == 0)
		memset(sp->idents, 0, sizeof(sp->idents));
	for (int i = 0; i < lengthof(keys); i++)
	{
		if (len == (int) strlen(keys[i]) && pg_strncasecmp(word, keys[i], len) == 0)
		{
			if (sp->ident_count < (int) sizeof(sp->idents))
				idents[sp->ident_count] = keys[i][0];
			break;
		}
	}
	sp->ident_count++;

	if (idents[0] == 'c' &&
		(idents[1] == 'f' || idents[1] == 'p' ||
		 (idents[1] == 'o' && idents[2] == 'r' &&
		  (idents[3] == 'f' || idents[3] == 'p'))) &&
		sp->paren_depth == 0)
	{
		if (len == 5 && pg_strncasecmp(word, "begin", 5) == 0)
			sp->begin_depth++;
		else if (len == 4 && pg_strncasecmp(word, "case", 4) == 0)
		{
			/* CASE ends with END too, which counts inside a body only */
			if (sp->begin_depth >= 1)
				sp->begin_depth++;
		}
		else if (len == 3 && pg_strncasecmp(word, "end", 3) == 0)
		{
			if (sp->begin_depth > 0)
				sp->begin_depth--;
		}
	}
}

/* ------------------------------------------------------------------------
 * SQL: statements and commands
 * ------------------------------------------------------------------------
 */

/* what a statement is, as far as transactions go */
typedef enum BkXactKind
{
	BK_XACT_NONE,				/* not transaction control */
	BK_XACT_BEGIN,				/* BEGIN, START TRANSACTION */
	BK_XACT_COMMIT,				/* COMMIT, END */
	BK_XACT_ROLLBACK,			/* ROLLBACK, ABORT */
	BK_XACT_OTHER				/* SAVEPOINT, PREPARE TRANSACTION ... */
} BkXactKind;

/*
 * bk_sql_words
 *		The first words of statement SQL, lower-cased, skipping blanks and
 *		comments, up to MAXWORDS; a comma counts as the word ",".  *MORE
 *		tells whether anything else follows them.  A longer word is kept as
 *		"" (it is no keyword we look for).
 */
#define BK_WORD_LEN 16
static int
bk_sql_words(const char *sql, char words[][BK_WORD_LEN], int maxwords,
			 bool *more)
{
	const char *p = sql;
	int			n = 0;

	*more = false;
	for (;;)
	{
		if (bk_is_sql_space(*p) || *p == '\v')
			p++;
		else if (p[0] == '-' && p[1] == '-')
		{
			while (*p && *p != '\n' && *p != '\r')
				p++;
		}
		else if (p[0] == '/' && p[1] == '*')
		{
			int			depth = 1;

			for (p += 2; *p && depth > 0; p++)
			{
				if (p[0] == '/' && p[1] == '*')
				{
					depth++;
					p++;
				}
				else if (p[0] == '*' && p[1] == '/')
				{
					depth--;
					p++;
				}
			}
		}
		else if (*p == '\0')
			return n;
		else if (n < maxwords && *p == ',')
		{
			strcpy(words[n++], ",");
			p++;
		}
		else if (n < maxwords &&
				 ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		{
			int			len = 0;

			while (bk_is_name_char((unsigned char) p[len]) || p[len] == '$')
				len++;
			if (len < BK_WORD_LEN)
			{
				for (int i = 0; i < len; i++)
					words[n][i] = pg_ascii_tolower((unsigned char) p[i]);
				words[n][len] = '\0';
			}
			else
				words[n][0] = '\0';
			n++;
			p += len;
		}
		else
		{
			*more = true;
			return n;
		}
	}
}

/* whether statement SQL has no statement in it, only blanks and comments */
static bool
bk_sql_is_empty(const char *sql)
{
	char		w[1][BK_WORD_LEN];
	bool		more;

	return bk_sql_words(sql, w, 1, &more) == 0 && !more;
}

/*
 * bk_xact_kind
 *		What statement SQL is to transactions, from its first words.
 */
static BkXactKind
bk_xact_kind(const char *sql)
{
	char		w[2][BK_WORD_LEN];
	bool		more;
	int			n = bk_sql_words(sql, w, lengthof(w), &more);

	if (n == 0)
		return BK_XACT_NONE;
	if (strcmp(w[0], "begin") == 0)
		return BK_XACT_BEGIN;
	if (strcmp(w[0], "start") == 0 || strcmp(w[0], "prepare") == 0)
	{
		if (n == 2 && strcmp(w[1], "transaction") == 0)
			return w[0][0] == 's' ? BK_XACT_BEGIN : BK_XACT_OTHER;
		return BK_XACT_NONE;
	}
	if (strcmp(w[0], "commit") == 0 || strcmp(w[0], "end") == 0)
		return BK_XACT_COMMIT;
	if (strcmp(w[0], "rollback") == 0 || strcmp(w[0], "abort") == 0)
		return BK_XACT_ROLLBACK;
	if (strcmp(w[0], "savepoint") == 0 || strcmp(w[0], "release") == 0)
		return BK_XACT_OTHER;
	return BK_XACT_NONE;
}

/* why a benchmark client cannot run savepoints and two-phase commit */
#define BK_SPI_XACT_HINT "A benchmark client runs its statements through SPI, which runs no transaction control; the client itself runs BEGIN, COMMIT and ROLLBACK."

/*
 * bk_xact_unsupported
 *		Refuse transaction control statement SQL (at LINE), which a client
 *		inside the server cannot run: WHAT says which it is.
 */
static BK_NORETURN void
bk_xact_unsupported(BkScriptParser *sp, const char *sql, int line,
					const char *what, const char *hint)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("%s is not supported in script \"%s\" at line %d",
					what, sp->script->name, line),
			 errdetail("The statement is \"%s\".", sql),
			 errhint("%s", hint)));
}

/*
 * bk_begin_modes
 *		The transaction modes of BEGIN or START TRANSACTION: words W[I..N)
 *		(*MORE if something else follows), into CMD as the values of
 *		transaction_isolation, transaction_read_only and
 *		transaction_deferrable.  As in PostgreSQL, commas between them may
 *		be left out and the last of two contradicting modes wins.
 */
static void
bk_begin_modes(BkScriptParser *sp, BkCommand *cmd, const char *sql,
			   char w[][BK_WORD_LEN], int i, int n, bool more)
{
	bool		after_mode = false;

	while (i < n && !more)
	{
		if (strcmp(w[i], ",") == 0 && after_mode && i + 1 < n)
		{
			i++;
			after_mode = false;
			continue;
		}
		if (i + 2 < n && strcmp(w[i], "isolation") == 0 &&
			strcmp(w[i + 1], "level") == 0)
		{
			const char *level = NULL;

			if (strcmp(w[i + 2], "serializable") == 0)
			{
				level = "serializable";
				i += 3;
			}
			else if (i + 3 < n && strcmp(w[i + 2], "repeatable") == 0 &&
					 strcmp(w[i + 3], "read") == 0)
			{
				level = "repeatable read";
				i += 4;
			}
			else if (i + 3 < n && strcmp(w[i + 2], "read") == 0 &&
					 strcmp(w[i + 3], "committed") == 0)
			{
				level = "read committed";
				i += 4;
			}
			else if (i + 3 < n && strcmp(w[i + 2], "read") == 0 &&
					 strcmp(w[i + 3], "uncommitted") == 0)
			{
				level = "read uncommitted";
				i += 4;
			}
			if (level == NULL)
				break;
			cmd->xact_isolation = level;
		}
		else if (strcmp(w[i], "read") == 0 && i + 1 < n &&
				 (strcmp(w[i + 1], "only") == 0 || strcmp(w[i + 1], "write") == 0))
		{
			cmd->xact_read_only = (w[i + 1][0] == 'o') ? "on" : "off";
			i += 2;
		}
		else if (strcmp(w[i], "deferrable") == 0)
		{
			cmd->xact_deferrable = "on";
			i += 1;
		}
		else if (strcmp(w[i], "not") == 0 && i + 1 < n &&
				 strcmp(w[i + 1], "deferrable") == 0)
		{
			cmd->xact_deferrable = "off";
			i += 2;
		}
		else
			break;
		after_mode = true;
	}
	if (i < n || more)
		bk_syntax_error(sp, cmd->line, 0, NULL,
						"The transaction modes are ISOLATION LEVEL { SERIALIZABLE | REPEATABLE READ | READ COMMITTED | READ UNCOMMITTED }, READ WRITE, READ ONLY and [ NOT ] DEFERRABLE.",
						"invalid transaction modes in \"%s\"", sql);
}

/*
 * bk_sql_kind
 *		Whether statement SQL, alone in command CMD, is transaction control,
 *		which the client runs itself: BEGIN [WORK | TRANSACTION] and START
 *		TRANSACTION, with their transaction modes; END and COMMIT, ROLLBACK
 *		and ABORT (with an optional WORK or TRANSACTION and AND NO CHAIN).
 *		Other transaction control cannot run in the server's SPI and is
 *		refused; anything else is plain SQL.
 */
static BkCommandKind
bk_sql_kind(BkScriptParser *sp, BkCommand *cmd, const char *sql)
{
	char		w[24][BK_WORD_LEN];
	bool		more;
	int			n;
	int			i;
	BkXactKind	xact = bk_xact_kind(sql);
	BkCommandKind kind;

	if (xact == BK_XACT_NONE)
		return BK_CMD_SQL;
	n = bk_sql_words(sql, w, lengthof(w), &more);

	if (xact == BK_XACT_BEGIN)
	{
		i = 1;
		if (strcmp(w[0], "start") == 0 ||
			(n >= 2 && (strcmp(w[1], "work") == 0 || strcmp(w[1], "transaction") == 0)))
			i = 2;
		bk_begin_modes(sp, cmd, sql, w, i, n, more);
		return BK_CMD_BEGIN;
	}

	if (xact == BK_XACT_OTHER)
		bk_xact_unsupported(sp, sql, cmd->line,
							strcmp(w[0], "prepare") == 0 ? "PREPARE TRANSACTION" :
							strcmp(w[0], "release") == 0 ? "RELEASE SAVEPOINT" : "SAVEPOINT",
							BK_SPI_XACT_HINT);

	kind = (xact == BK_XACT_COMMIT) ? BK_CMD_COMMIT : BK_CMD_ROLLBACK;
	i = 1;
	if (i < n && (strcmp(w[i], "work") == 0 || strcmp(w[i], "transaction") == 0))
		i++;
	if (i == n && !more)
		return kind;
	if (i + 3 == n && !more && strcmp(w[i], "and") == 0 &&
		strcmp(w[i + 1], "no") == 0 && strcmp(w[i + 2], "chain") == 0)
		return kind;
	if (i + 2 == n && !more && strcmp(w[i], "and") == 0 && strcmp(w[i + 1], "chain") == 0)
		bk_xact_unsupported(sp, sql, cmd->line,
							kind == BK_CMD_COMMIT ? "COMMIT AND CHAIN" : "ROLLBACK AND CHAIN",
							psprintf("End the transaction with a plain %s and start the next one with BEGIN.",
									 kind == BK_CMD_COMMIT ? "COMMIT" : "ROLLBACK"));
	if (n >= 2 && strcmp(w[1], "prepared") == 0)
		bk_xact_unsupported(sp, sql, cmd->line,
							kind == BK_CMD_COMMIT ? "COMMIT PREPARED" : "ROLLBACK PREPARED",
							BK_SPI_XACT_HINT);
	if (kind == BK_CMD_ROLLBACK && i < n && strcmp(w[i], "to") == 0)
		bk_xact_unsupported(sp, sql, cmd->line, "ROLLBACK TO SAVEPOINT",
							BK_SPI_XACT_HINT);
	bk_syntax_error(sp, cmd->line, 0, NULL,
					"Write COMMIT, END, ROLLBACK or ABORT, optionally followed by WORK or TRANSACTION.",
					"invalid transaction control statement \"%s\"", sql);
}

/*
 * bk_sql_name_len
 *		The length of the variable name after the colon at P, 0 if none
 *		(pgbench's parseVariable: it must not start with a digit).
 */
static int
bk_sql_name_len(const char *p)
{
	int			i = 1;

	if (!bk_is_name_start((unsigned char) p[i]))
		return 0;
	while (bk_is_name_char((unsigned char) p[i]))
		i++;
	return i - 1;
}

/*
 * bk_sql_ident_len
 *		The length of the identifier variable ":{name}" at the colon P, 0 if
 *		P is no such thing: a colon, a brace, a name as pgbench spells
 *		variable names, a closing brace.  pgbench reads none of these as a
 *		variable, so the scripts it runs keep their meaning unless they hold
 *		exactly this.
 */
static int
bk_sql_ident_len(const char *p)
{
	int			i = 2;

	if (p[1] != '{' || !bk_is_name_start((unsigned char) p[i]))
		return 0;
	while (bk_is_name_char((unsigned char) p[i]))
		i++;
	return p[i] == '}' ? i + 1 : 0;
}

/*
 * bk_sql_quoted_len
 *		The length of the quoted variable ":'name'" at the colon P (psql's
 *		spelling of a variable as a literal), 0 if P is no such thing.
 */
static int
bk_sql_quoted_len(const char *p)
{
	int			i = 2;

	if (p[1] != '\'' || !bk_is_name_start((unsigned char) p[i]))
		return 0;
	while (bk_is_name_char((unsigned char) p[i]))
		i++;
	return p[i] == '\'' ? i + 1 : 0;
}

/*
 * bk_sql_may_be_utility
 *		Whether statement SQL may be anything but SELECT, INSERT, UPDATE,
 *		DELETE or MERGE, from its first word alone (for a statement that
 *		cannot be parsed before it runs): a query that begins otherwise
 *		(with a parenthesis, say) counts as one that may.
 */
static bool
bk_sql_may_be_utility(const char *sql)
{
	static const char *const dml[] = {
		"select", "insert", "update", "delete", "merge", "with", "values", "table"
	};
	char		w[1][BK_WORD_LEN];
	bool		more;

	if (bk_sql_words(sql, w, 1, &more) == 1)
	{
		for (int i = 0; i < lengthof(dml); i++)
		{
			if (strcmp(w[0], dml[i]) == 0)
				return false;
		}
	}
	return true;
}

/*
 * bk_sql_params
 *		Find the :names of statement STMT, as pgbench's parseQuery: fill
 *		sql_params (each :name turned into $n, one n per variable),
 *		param_vars, nparams, and subst for bk_sql_substitute.  Quotes do not
 *		matter, and colons not followed by a name (as in ::int) are skipped
 *		all together.  Identifier variables, :{name}, stay in sql_params as
 *		written, and are counted in nidents.
 */
static void
bk_sql_params(BkScript *script, BkStatement *stmt)
{
	const char *sql = stmt->sql;
	const char *p;
	const char *copied = sql;
	int			maxrefs = 0;
	BkSqlSubst *subst;
	StringInfoData buf;

	for (p = sql; (p = strchr(p, ':')) != NULL; p++)
		maxrefs++;
	subst = palloc(offsetof(BkSqlSubst, refs) + sizeof(BkSqlRef) * Max(maxrefs, 1));
	subst->sqllen = (int) strlen(sql);
	subst->nrefs = 0;
	stmt->param_vars = palloc(sizeof(int) * Max(maxrefs, 1));
	stmt->nparams = 0;
	initStringInfo(&buf);

	stmt->nidents = 0;
	p = sql;
	while ((p = strchr(p, ':')) != NULL)
	{
		int			quotedlen = bk_sql_quoted_len(p);
		int			namelen = quotedlen > 0 ? quotedlen - 3 : bk_sql_name_len(p);
		int			identlen = bk_sql_ident_len(p);
		char	   *name;
		int			var;
		int			n;
		BkSqlRef   *ref;

		if (identlen > 0)
		{
			/* :{name}: left in sql_params, put in when the statement runs */
			name = pnstrdup(p + 2, identlen - 3);
			ref = &subst->refs[subst->nrefs++];
			ref->off = (int) (p - sql);
			ref->len = identlen;
			ref->var = bk_var_lookup(script->vt, name, true);
			ref->param = 0;
			ref->ident = name;
			ref->quoted = false;
			stmt->nidents++;
			p += identlen;
			continue;
		}
		if (namelen == 0)
		{
			while (*p == ':')
				p++;
			continue;
		}
		name = pnstrdup(p + (quotedlen > 0 ? 2 : 1), namelen);
		var = bk_var_lookup(script->vt, name, true);
		pfree(name);

		for (n = 0; n < stmt->nparams; n++)
		{
			if (stmt->param_vars[n] == var)
				break;
		}
		if (n == stmt->nparams)
			stmt->param_vars[stmt->nparams++] = var;

		appendBinaryStringInfo(&buf, copied, (int) (p - copied));
		appendStringInfo(&buf, "$%d", n + 1);

		ref = &subst->refs[subst->nrefs++];
		ref->off = (int) (p - sql);
		ref->len = quotedlen > 0 ? quotedlen : namelen + 1;
		ref->var = var;
		ref->param = n + 1;
		ref->ident = NULL;
		ref->quoted = quotedlen > 0;

		p += ref->len;
		copied = p;
	}
	appendStringInfoString(&buf, copied);
	stmt->sql_params = buf.data;
	stmt->subst = subst;
	stmt->nrefs = subst->nrefs - stmt->nidents;
	stmt->ident_utility = stmt->nidents > 0 && bk_sql_may_be_utility(sql);
}

/*
 * bk_trimmed
 *		A copy of LEN bytes at P without the white space around them.
 */
static char *
bk_trimmed(const char *p, int len)
{
	while (len > 0 && (bk_is_sql_space(*p) || *p == '\v'))
	{
		p++;
		len--;
	}
	while (len > 0 && (bk_is_sql_space(p[len - 1]) || p[len - 1] == '\v'))
		len--;
	return pnstrdup(p, len);
}

/*
 * bk_sql_text
 *		What pgbench -r shows of the SQL command SQL: its first line, cut
 *		to 127 bytes (at a character's end), here without trailing blanks.
 */
static char *
bk_sql_text(const char *sql)
{
	int			len = (int) strcspn(sql, "\n\r");

	if (len > BK_SQL_TEXT_MAX)
		len = pg_mbcliplen(sql, len, BK_SQL_TEXT_MAX);
	while (len > 0 && bk_is_blank(sql[len - 1]))
		len--;
	return pnstrdup(sql, len);
}

/*
 * bk_flush_sql
 *		End the SQL command being collected, if any (TERMINATED when by a
 *		semicolon), as a command of its statements: the pieces between its
 *		\; joints, without those that hold no statement.  A command with no
 *		statement at all (only a semicolon, or comments) is one empty
 *		statement, an empty query, as pgbench sends it.
 */
static void
bk_flush_sql(BkScriptParser *sp, bool terminated)
{
	const char *sql = sp->sql.data;
	int			end = sp->sql.len;
	BkCommand  *cmd;
	int			start = 0;

	if (sp->sql.len == 0)
	{
		sp->njoins = 0;
		return;
	}
	if (terminated)
		end--;					/* without the semicolon */

	cmd = bk_new_command(sp, BK_CMD_SQL, sp->sql_line);
	cmd->text = bk_sql_text(sql);
	cmd->in_pipeline = (sp->pipe_line > 0);
	cmd->stmts = palloc0(sizeof(BkStatement) * (sp->njoins + 1));
	for (int j = 0; j <= sp->njoins; j++)
	{
		int			stop = (j < sp->njoins) ? sp->joins[j] : end;
		char	   *stmt = bk_trimmed(sql + start, stop - start);

		start = stop + 1;
		if (bk_sql_is_empty(stmt))
			continue;
		cmd->stmts[cmd->nstmts++].sql = stmt;
	}
	if (cmd->nstmts == 0)
		cmd->stmts[cmd->nstmts++].sql = pstrdup("");

	if (cmd->nstmts == 1)
		cmd->kind = bk_sql_kind(sp, cmd, cmd->stmts[0].sql);
	else
	{
		for (int j = 0; j < cmd->nstmts; j++)
		{
			if (bk_xact_kind(cmd->stmts[j].sql) != BK_XACT_NONE)
				ereport(ERROR,
						(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						 errmsg("transaction control joined to other statements with \\; in script \"%s\" at line %d",
								sp->script->name, cmd->line),
						 errdetail("The statement is \"%s\".", cmd->stmts[j].sql),
						 errhint("Give BEGIN, COMMIT, END, ROLLBACK and ABORT a command of their own, ended by a semicolon: a benchmark client runs them itself.")));
		}
	}

	for (int j = 0; j < cmd->nstmts; j++)
	{
		if (cmd->kind == BK_CMD_SQL)
			bk_sql_params(sp->script, &cmd->stmts[j]);
		else
			cmd->stmts[j].sql_params = pstrdup(cmd->stmts[j].sql);
	}

	resetStringInfo(&sp->sql);
	sp->njoins = 0;
}

/* ------------------------------------------------------------------------
 * Meta-commands
 * ------------------------------------------------------------------------
 */

/*
 * bk_meta_end
 *		Where the meta-command whose backslash is at BS ends: at the newline
 *		that ends its line (lines ending with a backslash continuing it), or
 *		at the end of the script.
 */
static const char *
bk_meta_end(const char *bs)
{
	const char *p = bs + 1;

	for (;;)
	{
		int			cont = bk_continuation(p);

		if (cont > 0)
			p += cont;
		else if (*p == '\n' || *p == '\0')
			return p;
		else
			p++;
	}
}

/*
 * bk_meta_word
 *		The next word of a meta-command ending at END, from *P on, as
 *		pgbench's lexer reads them: words are separated by blanks and line
 *		continuations.  *P and *LINE move past it; false when there is no
 *		word left.
 */
static bool
bk_meta_word(BkScriptParser *sp, const char **p, const char *end, int *line,
			 BkWord *word)
{
	const char *q = *p;
	const char *start;

	for (;;)
	{
		int			cont = bk_continuation(q);

		if (cont > 0 && q < end)
		{
			q += cont;
			(*line)++;
		}
		else if (q < end && bk_is_blank(*q))
			q++;
		else
			break;
	}
	if (q >= end)
	{
		*p = q;
		return false;
	}
	start = q;
	while (q < end && !bk_is_blank(*q) && bk_continuation(q) == 0)
		q++;
	word->start = start;
	word->len = (int) (q - start);
	word->line = *line;
	word->column = bk_column(sp, start);
	*p = q;
	return true;
}

/*
 * bk_meta_rest
 *		The rest of the meta-command ending at END from P on, without the
 *		blanks around it and with its line continuations turned to blanks:
 *		an expression.  *LINE and *COLUMN tell where it starts (where it
 *		would, when it is empty).
 */
static char *
bk_meta_rest(BkScriptParser *sp, const char *p, const char *end, int *line,
			 int *column)
{
	StringInfoData buf;
	const char *q;

	for (;;)
	{
		int			cont = bk_continuation(p);

		if (cont > 0 && p < end)
		{
			p += cont;
			(*line)++;
		}
		else if (p < end && bk_is_blank(*p))
			p++;
		else
			break;
	}
	*column = bk_column(sp, p);

	initStringInfo(&buf);
	for (q = p; q < end;)
	{
		int			cont = bk_continuation(q);

		if (cont > 0)
		{
			appendStringInfoChar(&buf, ' ');
			q += cont;
		}
		else
			appendStringInfoChar(&buf, *q++);
	}
	while (buf.len > 0 && bk_is_blank(buf.data[buf.len - 1]))
		buf.data[--buf.len] = '\0';
	return buf.data;
}

/*
 * bk_meta_text
 *		The text of the meta-command from BS to END, as pgbench -r shows it:
 *		all its lines, without the blanks that end it.
 */
static char *
bk_meta_text(const char *bs, const char *end)
{
	int			len = (int) (end - bs);

	while (len > 0 && (bk_is_blank(bs[len - 1]) || bs[len - 1] == '\n'))
		len--;
	return pnstrdup(bs, len);
}

/* the name of word W, palloc'd */
static inline char *
bk_word(const BkWord *w)
{
	return pnstrdup(w->start, w->len);
}

/*
 * bk_no_argument
 *		Refuse the arguments of a meta-command that takes none.
 */
static void
bk_no_argument(BkScriptParser *sp, BkWord *words, int nwords)
{
	if (nwords > 1)
		bk_syntax_error(sp, words[1].line, words[1].column, bk_word(&words[0]),
						psprintf("\\%s takes no argument.", bk_word(&words[0])),
						"unexpected argument");
}

/*
 * bk_parse_ignore_errors
 *		\ignore_errors SQLSTATE ...: a declaration of the script, not a
 *		command that runs.  A statement that fails with one of them rolls
 *		the transaction back, which starts again from the script's first
 *		command with new random values (sysbench's ignored errors, its
 *		restarted event).  Errors of connections and of the run's end
 *		(classes 08 and 57) cannot be ignored, nor what is no error.
 */
static void
bk_parse_ignore_errors(BkScriptParser *sp, BkWord *words, int nwords, int line)
{
	BkScript   *script = sp->script;
	const char *hint = "Write \\ignore_errors followed by SQLSTATEs, as sysbench ignores them: \\ignore_errors 40P01 23505 40001.";

	if (nwords < 2)
		bk_syntax_error(sp, line, 0, "ignore_errors", hint, "missing argument");
	for (int i = 1; i < nwords; i++)
	{
		char	   *code = bk_word(&words[i]);
		bool		valid = strlen(code) == 5;
		int			sqlerrcode;
		bool		seen = false;

		for (int k = 0; valid && k < 5; k++)
		{
			code[k] = pg_ascii_toupper((unsigned char) code[k]);
			valid = (code[k] >= '0' && code[k] <= '9') || (code[k] >= 'A' && code[k] <= 'Z');
		}
		if (!valid)
			bk_syntax_error(sp, words[i].line, words[i].column, "ignore_errors",
							"A SQLSTATE is five digits or upper-case letters, as 23505 (unique_violation).",
							"invalid SQLSTATE \"%s\"", code);
		if (strncmp(code, "00", 2) == 0 || strncmp(code, "01", 2) == 0 ||
			strncmp(code, "02", 2) == 0)
			bk_syntax_error(sp, words[i].line, words[i].column, "ignore_errors",
							"Classes 00, 01 and 02 are success, warnings and no data: only errors can be ignored.",
							"SQLSTATE %s is not an error", code);
		if (strncmp(code, "08", 2) == 0 || strncmp(code, "57", 2) == 0)
			bk_syntax_error(sp, words[i].line, words[i].column, "ignore_errors",
							"A lost connection (class 08) or an operator's intervention (class 57: a cancel, a shutdown) ends the client, or the run; it cannot be ignored.",
							"SQLSTATE %s cannot be ignored", code);
		sqlerrcode = MAKE_SQLSTATE(code[0], code[1], code[2], code[3], code[4]);
		for (int k = 0; k < script->nignored; k++)
			seen |= (script->ignored[k] == sqlerrcode);
		if (seen)
			continue;
		if (script->nignored >= BK_MAX_IGNORED_ERRORS)
			bk_syntax_error(sp, words[i].line, words[i].column, "ignore_errors",
							psprintf("A script may ignore at most %d SQLSTATEs.", BK_MAX_IGNORED_ERRORS),
							"too many SQLSTATEs");
		script->ignored[script->nignored++] = sqlerrcode;
	}
}

/*
 * bk_parse_dataset
 *		\dataset KIND: a declaration of the script, not a command: the kind
 *		of dataset its statements need (tpcb, sysbench or ibench), which a
 *		run of the script alone, or in a group, finds as a named workload's
 *		(bench.ibench_script and bench.sysbench_script write it).
 */
static void
bk_parse_dataset(BkScriptParser *sp, BkWord *words, int nwords, int line)
{
	BkScript   *script = sp->script;
	const char *hint = "Write \\dataset followed by the kind of dataset the script needs: tpcb, sysbench or ibench.";
	char	   *kind;

	if (nwords < 2)
		bk_syntax_error(sp, line, 0, "dataset", hint, "missing argument");
	if (nwords > 2)
		bk_syntax_error(sp, words[2].line, words[2].column, "dataset", hint, "too many arguments");
	kind = bk_word(&words[1]);
	if (strcmp(kind, "tpcb") != 0 && strcmp(kind, "sysbench") != 0 && strcmp(kind, "ibench") != 0)
		bk_syntax_error(sp, words[1].line, words[1].column, "dataset", hint,
						"unknown kind of dataset \"%s\"", kind);
	if (script->dataset[0] != '\0' && strcmp(script->dataset, kind) != 0)
		bk_syntax_error(sp, words[1].line, words[1].column, "dataset",
						"A script needs one kind of dataset.",
						"the script declared dataset %s before", script->dataset);
	strlcpy(script->dataset, kind, sizeof(script->dataset));
}

/*
 * bk_script_ignores
 *		Whether SCRIPT's \ignore_errors names SQLERRCODE.
 */
bool
bk_script_ignores(const BkScript *script, int sqlerrcode)
{
	for (int i = 0; i < script->nignored; i++)
	{
		if (script->ignored[i] == sqlerrcode)
			return true;
	}
	return false;
}

/*
 * bk_parse_sleep
 *		\sleep n [us | ms | s], as pgbench's process_backslash_command reads
 *		it: n is an integer constant (optionally signed, its unit possibly
 *		glued to it, as in 10ms) or a :variable; seconds by default.
 */
static void
bk_parse_sleep(BkScriptParser *sp, BkCommand *cmd, BkWord *words, int nwords)
{
	const char *hint = "Write \\sleep followed by an integer or a :variable and a unit, us, ms or s (the default), as in \\sleep 10 ms.";
	BkWord		arg;
	BkWord		unit = {0};
	bool		have_unit = false;

	if (nwords < 2)
		bk_syntax_error(sp, cmd->line, 0, "sleep", hint, "missing argument");
	if (nwords > 3)
		bk_syntax_error(sp, words[3].line, words[3].column, "sleep", hint,
						"too many arguments");
	arg = words[1];
	if (nwords == 3)
	{
		unit = words[2];
		have_unit = true;
	}

	if (arg.start[0] == ':')
	{
		char	   *name = pnstrdup(arg.start + 1, arg.len - 1);

		if (!bk_valid_var_name(name))
			bk_syntax_error(sp, arg.line, arg.column, "sleep",
							"A variable name is made of letters, digits and underscores, and does not start with a digit.",
							"invalid variable name \"%s\"", name);
		cmd->sleep_var = bk_var_lookup(sp->script->vt, name, true);
	}
	else
	{
		int			i = 0;
		bool		negative = false;
		bool		have_digit = false;
		int64		value = 0;

		if (arg.start[i] == '+' || arg.start[i] == '-')
			negative = (arg.start[i++] == '-');
		while (i < arg.len && isdigit((unsigned char) arg.start[i]))
		{
			int			digit = arg.start[i++] - '0';

			have_digit = true;
			if (pg_mul_s64_overflow(value, 10, &value) ||
				pg_add_s64_overflow(value, negative ? -digit : digit, &value))
				bk_syntax_error(sp, arg.line, arg.column, "sleep", hint,
								"sleep time out of range (%s)", bk_word(&arg));
		}
		if (i < arg.len)
		{
			/* "10ms": the unit glued to the number */
			if (nwords == 2 && have_digit)
			{
				unit.start = arg.start + i;
				unit.len = arg.len - i;
				unit.line = arg.line;
				unit.column = arg.column + i;
				have_unit = true;
			}
			else
				bk_syntax_error(sp, arg.line, arg.column, "sleep", hint,
								"invalid sleep time, must be an integer (%s)",
								bk_word(&arg));
		}
		cmd->sleep_value = value;
	}

	cmd->sleep_unit_us = 1000000;
	if (have_unit)
	{
		if (unit.len == 2 && pg_strncasecmp(unit.start, "us", 2) == 0)
			cmd->sleep_unit_us = 1;
		else if (unit.len == 2 && pg_strncasecmp(unit.start, "ms", 2) == 0)
			cmd->sleep_unit_us = 1000;
		else if (unit.len == 1 && pg_strncasecmp(unit.start, "s", 1) == 0)
			cmd->sleep_unit_us = 1000000;
		else
			bk_syntax_error(sp, unit.line, unit.column, "sleep", hint,
							"unrecognized time unit, must be us, ms or s (%s)",
							bk_word(&unit));
	}
	if (cmd->sleep_var < 0)
	{
		int64		usec;

		if (pg_mul_s64_overflow(cmd->sleep_value, cmd->sleep_unit_us, &usec))
			bk_syntax_error(sp, arg.line, arg.column, "sleep", hint,
							"sleep time out of range (%s)", bk_word(&arg));
	}
}

/*
 * bk_parse_gset
 *		\gset [prefix] or \aset [prefix] (ALL), at LINE: the SQL command
 *		just before it stores its result into variables.
 */
static void
bk_parse_gset(BkScriptParser *sp, BkWord *words, int nwords, bool all, int line)
{
	const char *name = all ? "aset" : "gset";
	const char *hint = psprintf("End a query with \\%s in place of its semicolon, as in SELECT abalance FROM pgbench_accounts WHERE aid = :aid \\%s.",
								name, name);
	BkScript   *script = sp->script;
	BkCommand  *prev;
	char	   *prefix = "";

	if (nwords > 2)
		bk_syntax_error(sp, words[2].line, words[2].column, name, hint,
						"too many arguments");
	if (nwords == 2)
	{
		prefix = bk_word(&words[1]);
		if (!bk_valid_var_name(prefix))
			bk_syntax_error(sp, words[1].line, words[1].column, name,
							"The prefix starts the names of the variables set: letters, digits and underscores, not starting with a digit.",
							"invalid variable prefix \"%s\"", prefix);
	}

	if (script->ncommands == 0)
		bk_syntax_error(sp, line, 0, NULL, hint,
						"\\%s must follow an SQL command", name);
	prev = &script->commands[script->ncommands - 1];
	if (prev->nstmts == 0)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("\\%s must follow an SQL command in script \"%s\" at line %d",
						name, script->name, line),
				 errdetail("The command before it is \"%s\".", prev->text),
				 errhint("%s", hint)));
	if (prev->gset != BK_GSET_NONE)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("\\%s must follow an SQL command in script \"%s\" at line %d",
						name, script->name, line),
				 errdetail("The query before it ends with \\%s already.",
						   prev->gset == BK_GSET_ALL ? "aset" : "gset"),
				 errhint("%s", hint)));
	if (prev->in_pipeline)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("\\%s is not allowed in pipeline mode in script \"%s\" at line %d",
						name, script->name, line),
				 errdetail("The pipeline starts at line %d.", sp->pipe_line),
				 errhint("Run the query after \\endpipeline, or without \\%s.", name)));
	if (!all && prev->kind != BK_CMD_SQL)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("\\gset after a statement that returns no row in script \"%s\" at line %d",
						script->name, line),
				 errdetail("\\gset expects one row, and \"%s\" returns none.",
						   prev->stmts[0].sql),
				 errhint("%s", hint)));

	prev->gset = all ? BK_GSET_ALL : BK_GSET_ONE;
	prev->gset_prefix = prefix;
}

/*
 * bk_parse_if
 *		The structure of \if, \elif, \else and \endif (KIND), command CMD,
 *		as pgbench's CheckConditional checks it; each links to the next one
 *		of its \if, and at the \endif all of them to it.
 */
static void
bk_parse_if(BkScriptParser *sp, BkCommandKind kind, int cmdno)
{
	BkScript   *script = sp->script;
	BkCommand  *cmd = &script->commands[cmdno];
	BkOpenIf   *top = (sp->nifs > 0) ? &sp->ifs[sp->nifs - 1] : NULL;
	const char *name = (kind == BK_CMD_ELIF) ? "elif" :
		(kind == BK_CMD_ELSE) ? "else" : "endif";

	if (kind == BK_CMD_IF)
	{
		if (sp->nifs == sp->maxifs)
		{
			sp->maxifs *= 2;
			sp->ifs = repalloc(sp->ifs, sizeof(BkOpenIf) * sp->maxifs);
		}
		top = &sp->ifs[sp->nifs++];
		top->cmd = top->branch = cmdno;
		top->seen_else = false;
		return;
	}

	if (top == NULL)
		bk_syntax_error(sp, cmd->line, 0, NULL,
						"Start the conditional block with \\if.",
						"\\%s without matching \\if", name);
	if (top->seen_else && kind != BK_CMD_ENDIF)
		bk_syntax_error(sp, cmd->line, 0, NULL,
						"\\else is the last branch of an \\if: end it with \\endif.",
						"\\%s after \\else", name);

	/* a pipeline must end in the branch it starts in */
	if (sp->pipe_line > 0 && sp->pipe_nifs == sp->nifs)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("\\%s inside a pipeline in script \"%s\" at line %d",
						name, script->name, cmd->line),
				 errdetail("The pipeline starts at line %d, in the branch that \\%s ends.",
						   sp->pipe_line, name),
				 errhint("End the pipeline with \\endpipeline in the branch of the \\if it starts in.")));

	script->commands[top->branch].next_branch = cmdno;
	top->branch = cmdno;
	if (kind == BK_CMD_ELSE)
		top->seen_else = true;
	if (kind == BK_CMD_ENDIF)
	{
		for (int c = top->cmd; c != cmdno; c = script->commands[c].next_branch)
			script->commands[c].endif = cmdno;
		cmd->endif = cmdno;
		sp->nifs--;
	}
}

/*
 * bk_parse_pipeline
 *		\startpipeline, \syncpipeline or \endpipeline (KIND), command CMD:
 *		pipelines do not nest, the other two belong inside one, and one ends
 *		in the branch of the \if it starts in.  pgbench finds these mistakes
 *		only when a client runs into them, with these words.
 */
static void
bk_parse_pipeline(BkScriptParser *sp, BkCommandKind kind, BkCommand *cmd)
{
	const char *name = (kind == BK_CMD_START_PIPELINE) ? "startpipeline" :
		(kind == BK_CMD_SYNC_PIPELINE) ? "syncpipeline" : "endpipeline";

	if (kind == BK_CMD_START_PIPELINE)
	{
		if (sp->pipe_line > 0)
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("already in pipeline mode in command \"startpipeline\" in script \"%s\" at line %d",
							sp->script->name, cmd->line),
					 errdetail("The pipeline started at line %d has not ended.",
							   sp->pipe_line),
					 errhint("End a pipeline with \\endpipeline before starting the next one.")));
		sp->pipe_line = cmd->line;
		sp->pipe_nifs = sp->nifs;
		return;
	}

	if (sp->pipe_line == 0)
		bk_syntax_error(sp, cmd->line, 0, name,
						"Start a pipeline with \\startpipeline first.",
						"not in pipeline mode");
	if (kind == BK_CMD_END_PIPELINE)
	{
		if (sp->nifs > sp->pipe_nifs)
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("\\endpipeline inside an \\if in script \"%s\" at line %d",
							sp->script->name, cmd->line),
					 errdetail("The pipeline starts at line %d, outside the \\if at line %d.",
							   sp->pipe_line,
							   sp->script->commands[sp->ifs[sp->nifs - 1].cmd].line),
					 errhint("End the pipeline with \\endpipeline in the branch of the \\if it starts in.")));
		sp->pipe_line = 0;
	}
}

/*
 * bk_meta_name
 *		The kind of the meta-command called NAME (in any case), as pgbench's
 *		getMetaCommand; *GSET (\gset, \aset) and *SHELL (\shell, \setshell)
 *		tell those that are no command here.  False if there is none.
 */
static bool
bk_meta_name(const char *name, BkCommandKind *kind, bool *gset, bool *shell)
{
	static const struct
	{
		const char *name;
		BkCommandKind kind;
	}			names[] =
	{
		{"set", BK_CMD_SET},
		{"sleep", BK_CMD_SLEEP},
		{"if", BK_CMD_IF},
		{"elif", BK_CMD_ELIF},
		{"else", BK_CMD_ELSE},
		{"endif", BK_CMD_ENDIF},
		{"startpipeline", BK_CMD_START_PIPELINE},
		{"syncpipeline", BK_CMD_SYNC_PIPELINE},
		{"endpipeline", BK_CMD_END_PIPELINE}
	};

	*gset = (pg_strcasecmp(name, "gset") == 0 || pg_strcasecmp(name, "aset") == 0);
	*shell = (pg_strcasecmp(name, "shell") == 0 || pg_strcasecmp(name, "setshell") == 0);
	if (*gset || *shell)
		return true;
	for (int i = 0; i < lengthof(names); i++)
	{
		if (pg_strcasecmp(name, names[i].name) == 0)
		{
			*kind = names[i].kind;
			return true;
		}
	}
	return false;
}

/*
 * bk_parse_meta
 *		The meta-command whose backslash is at BS, on line *LINE: read it to
 *		the end of its line (lines ending with a backslash continuing it),
 *		and parse it.  Returns where the next line starts; *LINE follows.
 */
static const char *
bk_parse_meta(BkScriptParser *sp, const char *bs, int *line)
{
	BkScript   *script = sp->script;
	int			cmdline = *line;
	const char *end = bk_meta_end(bs);
	const char *p = bs + 1;
	int			wline = *line;
	BkWord	   *words = palloc(sizeof(BkWord) * BK_MAX_WORDS);
	int			nwords = 0;
	char	   *name;
	BkCommandKind kind = BK_CMD_SQL;
	bool		gset;
	bool		shell;
	BkCommand  *cmd;
	int			cmdno;

	/* the line after the command */
	for (const char *q = bs; q < end; q++)
	{
		if (*q == '\n')
			(*line)++;
	}
	if (*end == '\n')
		(*line)++;

	/* a lone backslash is nothing, as in pgbench */
	if (!bk_meta_word(sp, &p, end, &wline, &words[nwords]))
	{
		pfree(words);
		return (*end == '\n') ? end + 1 : end;
	}
	name = bk_word(&words[nwords++]);

	/* a declaration of the script: no command */
	if (pg_strcasecmp(name, "ignore_errors") == 0 || pg_strcasecmp(name, "dataset") == 0)
	{
		while (nwords < BK_MAX_WORDS &&
			   bk_meta_word(sp, &p, end, &wline, &words[nwords]))
			nwords++;
		if (nwords == BK_MAX_WORDS)
		{
			BkWord		extra;

			if (bk_meta_word(sp, &p, end, &wline, &extra))
				bk_syntax_error(sp, extra.line, extra.column, name, NULL,
								"too many arguments");
		}
		if (pg_strcasecmp(name, "dataset") == 0)
			bk_parse_dataset(sp, words, nwords, cmdline);
		else
			bk_parse_ignore_errors(sp, words, nwords, cmdline);
		pfree(words);
		return (*end == '\n') ? end + 1 : end;
	}

	if (!bk_meta_name(name, &kind, &gset, &shell))
		bk_syntax_error(sp, cmdline, bk_column(sp, bs), NULL,
						"The meta-commands are \\set, \\sleep, \\if, \\elif, \\else, \\endif, \\gset, \\aset, \\startpipeline, \\syncpipeline, \\endpipeline, and the declarations \\ignore_errors and \\dataset.",
						"invalid command \"\\%s\"", name);
	if (shell)
	{
		bool		set = (pg_strcasecmp(name, "setshell") == 0);

		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("\\%s is not supported in script \"%s\" at line %d",
						set ? "setshell" : "shell", script->name, cmdline),
				 errdetail("A benchmark client cannot run shell commands inside the server."),
				 set ?
				 errhint("Set the variable with \\set, or with a query that ends with \\gset.") :
				 errhint("Run the command before or after the benchmark.")));
	}

	/*
	 * The words of the command; those of \set and \if are a variable name
	 * and an expression, read apart.
	 */
	if (kind != BK_CMD_IF && kind != BK_CMD_ELIF)
	{
		int			maxwords = (kind == BK_CMD_SET && !gset) ? 2 : BK_MAX_WORDS;

		while (nwords < maxwords &&
			   bk_meta_word(sp, &p, end, &wline, &words[nwords]))
			nwords++;
		if (nwords == BK_MAX_WORDS)
		{
			BkWord		extra;

			if (bk_meta_word(sp, &p, end, &wline, &extra))
				bk_syntax_error(sp, extra.line, extra.column, name, NULL,
								"too many arguments");
		}
	}

	if (gset)
	{
		bk_parse_gset(sp, words, nwords, pg_strcasecmp(name, "aset") == 0, cmdline);
		pfree(words);
		return (*end == '\n') ? end + 1 : end;
	}

	cmdno = script->ncommands;
	cmd = bk_new_command(sp, kind, cmdline);
	cmd->text = bk_meta_text(bs, end);

	switch (kind)
	{
		case BK_CMD_SET:
			{
				char	   *var;
				char	   *expr;
				int			ecol;

				if (nwords < 2)
					bk_syntax_error(sp, cmdline, 0, "set",
									"Write \\set followed by a variable name and an expression, as in \\set aid random(1, 100000 * :scale).",
									"missing argument");
				var = bk_word(&words[1]);
				if (!bk_valid_var_name(var))
					bk_syntax_error(sp, words[1].line, words[1].column, "set",
									"A variable name is made of letters, digits and underscores, and does not start with a digit.",
									"invalid variable name \"%s\"", var);
				expr = bk_meta_rest(sp, p, end, &wline, &ecol);
				cmd->expr = bk_expr_parse(script, expr, wline, ecol, "set");
				cmd->var = bk_var_lookup(script->vt, var, true);
			}
			break;
		case BK_CMD_IF:
		case BK_CMD_ELIF:
			{
				char	   *expr;
				int			ecol;

				expr = bk_meta_rest(sp, p, end, &wline, &ecol);
				cmd->expr = bk_expr_parse(script, expr, wline, ecol,
										  kind == BK_CMD_IF ? "if" : "elif");
				bk_parse_if(sp, kind, cmdno);
			}
			break;
		case BK_CMD_ELSE:
		case BK_CMD_ENDIF:
			bk_no_argument(sp, words, nwords);
			bk_parse_if(sp, kind, cmdno);
			break;
		case BK_CMD_SLEEP:
			bk_parse_sleep(sp, cmd, words, nwords);
			break;
		case BK_CMD_START_PIPELINE:
		case BK_CMD_SYNC_PIPELINE:
		case BK_CMD_END_PIPELINE:
			bk_no_argument(sp, words, nwords);
			bk_parse_pipeline(sp, kind, cmd);
			break;
		default:
			elog(ERROR, "unexpected meta-command kind %d", (int) kind);
	}

	pfree(words);
	return (*end == '\n') ? end + 1 : end;
}

/*
 * bk_script_parse
 *		Parse script TEXT, called NAME in messages, into its commands, its
 *		variables going to VT.
 */
BkScript *
bk_script_parse(const char *text, const char *name, BkVarTable *vt)
{
	BkScriptParser sp;
	BkScript   *script = palloc0(sizeof(BkScript));
	const char *p = text;
	int			line = 1;

	script->name = pstrdup(name);
	script->vt = vt;

	memset(&sp, 0, sizeof(sp));
	sp.script = script;
	sp.text = text;
	sp.maxcommands = 16;
	script->commands = palloc(sizeof(BkCommand) * sp.maxcommands);
	initStringInfo(&sp.sql);
	sp.maxjoins = 4;
	sp.joins = palloc(sizeof(int) * sp.maxjoins);
	sp.maxifs = 4;
	sp.ifs = palloc(sizeof(BkOpenIf) * sp.maxifs);

	while (*p != '\0')
	{
		const char *tok = p;

		switch (*p)
		{
			case ' ':
			case '\t':
			case '\n':
			case '\r':
			case '\f':
				/* white space starts no command */
				p++;
				if (sp.sql.len > 0)
					bk_sql_append(&sp, tok, 1, &line);
				else if (*tok == '\n')
					line++;
				continue;
			case '-':
				if (p[1] == '-')
				{
					/* a comment, to the end of the line */
					while (*p != '\0' && *p != '\n' && *p != '\r')
						p++;
					if (sp.sql.len > 0)
						bk_sql_append(&sp, tok, (int) (p - tok), &line);
					continue;
				}
				p++;
				break;
			case '/':
				p = (p[1] == '*') ? bk_skip_comment(&sp, p, line) : p + 1;
				break;
			case '\'':
			case '"':
				p = bk_skip_quoted(&sp, p, false, line);
				break;
			case '$':
				p = bk_skip_dollar(&sp, p, line);
				break;
			case '(':
				if (sp.paren_depth++ == 0)
					sp.paren_line = line;
				p++;
				break;
			case ')':
				if (sp.paren_depth > 0)
					sp.paren_depth--;
				p++;
				break;
			case ';':
				bk_sql_append(&sp, p++, 1, &line);
				if (sp.paren_depth == 0 && sp.begin_depth == 0)
				{
					sp.ident_count = 0;
					bk_flush_sql(&sp, true);
				}
				continue;
			case '\\':
				if (p[1] == ';')
				{
					/* \; joins two statements into one command */
					bk_sql_append(&sp, ";", 1, &line);
					sp.ident_count = 0;
					if (sp.paren_depth == 0 && sp.begin_depth == 0)
					{
						if (sp.njoins == sp.maxjoins)
						{
							sp.maxjoins *= 2;
							sp.joins = repalloc(sp.joins, sizeof(int) * sp.maxjoins);
						}
						sp.joins[sp.njoins++] = sp.sql.len - 1;
					}
					p += 2;
					continue;
				}
				if (p[1] == ':')
				{
					/* \: is a colon */
					bk_sql_append(&sp, ":", 1, &line);
					p += 2;
					continue;
				}
				/* any other backslash ends the SQL and starts a meta-command */
				bk_flush_sql(&sp, false);
				p = bk_parse_meta(&sp, p, &line);
				continue;
			default:
				if (bk_is_name_start((unsigned char) *p))
				{
					bool		ident = true;

					while (bk_is_name_char((unsigned char) *p) || *p == '$')
						p++;
					/* E'...' is a string with escapes; B'', X'', N'' and U&'' are strings */
					if (p - tok == 1 && *p == '\'')
					{
						ident = !strchr("bBeEnNxX", *tok);
						if (*tok == 'E' || *tok == 'e')
							p = bk_skip_quoted(&sp, p, true, line);
					}
					else if (p - tok == 1 && (*tok == 'U' || *tok == 'u') && *p == '&')
						ident = false;
					if (ident)
						bk_sql_identifier(&sp, tok, (int) (p - tok));
				}
				else
					p++;
				break;
		}

		/* [tok, p) belongs to the SQL command being collected */
		bk_sql_append(&sp, tok, (int) (p - tok), &line);
	}
	bk_flush_sql(&sp, false);

	if (sp.paren_depth > 0)
		bk_syntax_error(&sp, sp.paren_line, 0, NULL,
						"Close each parenthesis in the statement that opens it.",
						"unterminated parenthesis");
	if (sp.nifs > 0)
		bk_syntax_error(&sp, script->commands[sp.ifs[sp.nifs - 1].cmd].line, 0, NULL,
						"End each \\if with \\endif.",
						"\\if without matching \\endif");
	if (sp.pipe_line > 0)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("end of script \"%s\" reached with pipeline open", name),
				 errdetail("The pipeline starts at line %d.", sp.pipe_line),
				 errhint("End the pipeline with \\endpipeline.")));
	if (script->ncommands == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("empty command list for script \"%s\"", name),
				 errhint("A script needs at least one SQL command or meta-command, such as SELECT 1; or \\set x 1.")));

	pfree(sp.sql.data);
	pfree(sp.joins);
	pfree(sp.ifs);
	return script;
}

/* ------------------------------------------------------------------------
 * Running commands
 * ------------------------------------------------------------------------
 */

/*
 * bk_ident_quote
 *		At most the first 64 characters of TEXT, quoted, for an error
 *		message; a byte that is not printable ASCII shows as '?', so that
 *		the message is valid text whatever the value holds.
 */
static char *
bk_ident_quote(const char *text)
{
	StringInfoData buf;
	int			i;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '"');
	for (i = 0; text[i] != '\0' && i < 64; i++)
	{
		unsigned char c = (unsigned char) text[i];

		appendStringInfoChar(&buf, (c >= 0x20 && c < 0x7f) ? (char) c : '?');
	}
	appendStringInfoString(&buf, text[i] != '\0' ? "...\"" : "\"");
	return buf.data;
}

#define BK_IDENT_HINT "An identifier variable holds a whole number or a name of letters, digits and underscores, 1 to 63 bytes long."

/*
 * bk_ident_text
 *		The text that the identifier variable of REF puts into a statement,
 *		with variables VARS: the decimal digits of an integer, or a string
 *		(of \gset, random_string(), a run's variables) of 1 to 63 ASCII
 *		letters, digits and underscores, nothing else, as it goes into SQL
 *		unquoted.  Any other value is an error, as is a variable not set.
 *		BUF has room for an integer's text.
 */
static const char *
bk_ident_text(const BkSqlRef *ref, const BkValue *vars, char *buf)
{
	const BkValue *v = &vars[ref->var];
	const char *text;
	const char *why = NULL;
	size_t		len;

	switch (v->kind)
	{
		case BK_VAL_UNDEF:
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("undefined variable \"%s\"", ref->ident),
					 errhint("Set it with \\set, \\gset or \\aset before the command that reads it, or give it a value for the whole run.")));
			break;
		case BK_VAL_NULL:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("identifier variable \"%s\" is null", ref->ident),
					 errhint(BK_IDENT_HINT)));
			break;
		case BK_VAL_INT:
			bk_value_format(v, buf);
			text = buf;
			if (v->i < 0)
				why = "It is a negative number.";
			break;
		case BK_VAL_STRING:
			text = v->s;
			break;
		default:
			/* booleans and doubles name nothing: 1.5 would put a dot in */
			bk_value_format(v, buf);
			text = buf;
			why = v->kind == BK_VAL_BOOL ? "It is a boolean." : "It is a double.";
			break;
	}
	len = strlen(text);
	if (why == NULL)
	{
		if (len == 0)
			why = "It is empty.";
		else if (len > BK_IDENT_MAX_LEN)
			why = "It is longer than 63 bytes.";
		else
		{
			for (size_t i = 0; i < len; i++)
			{
				char		c = text[i];

				if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
					  (c >= '0' && c <= '9') || c == '_'))
				{
					why = "It holds a character other than an ASCII letter, a digit or an underscore.";
					break;
				}
			}
		}
	}
	if (why != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value for identifier variable \"%s\": %s",
						ref->ident, bk_ident_quote(text)),
				 errdetail("%s", why),
				 errhint(BK_IDENT_HINT)));
	return text;
}

/*
 * bk_sql_with_idents
 *		Statement STMT for the extended and prepared protocols: sql_params
 *		with the values of its identifier variables, :{name}, put in (each
 *		checked by bk_ident_text).  sql_params itself when it has none,
 *		otherwise a palloc'd string.
 */
const char *
bk_sql_with_idents(const BkStatement *stmt, const BkValue *vars)
{
	const BkSqlSubst *subst = stmt->subst;
	StringInfoData buf;
	int			done = 0;

	if (stmt->nidents == 0)
		return stmt->sql_params;

	initStringInfo(&buf);
	for (int i = 0; i < subst->nrefs; i++)
	{
		const BkSqlRef *ref = &subst->refs[i];
		char		text[BK_VALUE_TEXT_LEN];

		appendBinaryStringInfo(&buf, stmt->sql + done, ref->off - done);
		if (ref->ident != NULL)
			appendStringInfoString(&buf, bk_ident_text(ref, vars, text));
		else
			appendStringInfo(&buf, "$%d", ref->param);
		done = ref->off + ref->len;
	}
	appendBinaryStringInfo(&buf, stmt->sql + done, subst->sqllen - done);
	return buf.data;
}

/*
 * bk_quote_literal
 *		TEXT as one SQL literal onto BUF, as quote_literal writes it: its
 *		quotes doubled and, when it has a backslash, as E'...' with the
 *		backslashes doubled, so that it reads the same whatever
 *		standard_conforming_strings says.
 */
static void
bk_quote_literal(StringInfo buf, const char *text)
{
	if (strchr(text, '\\') != NULL)
		appendStringInfoChar(buf, 'E');
	appendStringInfoChar(buf, '\'');
	for (const char *p = text; *p; p++)
	{
		if (*p == '\'' || *p == '\\')
			appendStringInfoChar(buf, *p);
		appendStringInfoChar(buf, *p);
	}
	appendStringInfoChar(buf, '\'');
}

/*
 * bk_sql_substitute
 *		Statement STMT for the simple protocol: the values of its identifier
 *		variables, :{name}, put in (bk_sql_with_idents), and each :name whose
 *		variable is set replaced by its value as text, the others left as
 *		written (pgbench's assignVariables).  A palloc'd string, built from
 *		the references found at parse time.
 */
char *
bk_sql_substitute(const BkStatement *stmt, const BkValue *vars)
{
	const BkSqlSubst *subst = stmt->subst;
	StringInfoData buf;
	int			done = 0;

	if (subst == NULL || subst->nrefs == 0)
		return pstrdup(stmt->sql);

	initStringInfo(&buf);
	enlargeStringInfo(&buf, subst->sqllen + subst->nrefs * BK_VALUE_TEXT_LEN);
	for (int i = 0; i < subst->nrefs; i++)
	{
		const BkSqlRef *ref = &subst->refs[i];
		const BkValue *v = &vars[ref->var];

		appendBinaryStringInfo(&buf, stmt->sql + done, ref->off - done);
		if (ref->ident != NULL)
		{
			char		text[BK_VALUE_TEXT_LEN];

			appendStringInfoString(&buf, bk_ident_text(ref, vars, text));
		}
		else if (v->kind == BK_VAL_UNDEF)
			appendBinaryStringInfo(&buf, stmt->sql + ref->off, ref->len);
		else if (ref->quoted)
		{
			/* :'name': the text a parameter would carry, as one literal */
			char		text[BK_VALUE_TEXT_LEN];

			if (v->kind != BK_VAL_STRING)
				text[bk_value_format(v, text)] = '\0';
			bk_quote_literal(&buf, v->kind == BK_VAL_STRING ? v->s : text);
		}
		else if (v->kind == BK_VAL_STRING)
			appendStringInfoString(&buf, v->s);
		else
		{
			char		text[BK_VALUE_TEXT_LEN];

			appendBinaryStringInfo(&buf, text, bk_value_format(v, text));
		}
		done = ref->off + ref->len;
	}
	appendBinaryStringInfo(&buf, stmt->sql + done, subst->sqllen - done);
	return buf.data;
}

/*
 * bk_sleep_usec
 *		How long the \sleep CMD of SCRIPT sleeps, in microseconds, with
 *		variables VARS: pgbench's evaluateSleep.  Errors do not say where
 *		the command is: the client adds that.  A variable's value is read
 *		as text as atoi() reads it (blanks, a sign, digits, and whatever
 *		follows ignored), and must not read as 0 unless it starts with a
 *		digit; so 2.7 sleeps 2 units and "true" is an error.  A negative
 *		time sleeps no time, and none sleeps longer than BK_SLEEP_MAX_USEC
 *		(292 years), so that its nanoseconds fit in an int64.
 */
int64
bk_sleep_usec(const BkScript *script, const BkCommand *cmd, const BkValue *vars)
{
	int64		value = cmd->sleep_value;
	int64		usec;

	if (cmd->sleep_var >= 0)
	{
		const BkValue *v = &vars[cmd->sleep_var];
		const char *name = script->vt->names[cmd->sleep_var];
		char		buf[BK_VALUE_TEXT_LEN];
		const char *text;
		const char *p;
		bool		negative = false;

		if (v->kind == BK_VAL_UNDEF)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("undefined variable \"%s\" in command \"sleep\"", name),
					 errhint("Set it with \\set or \\gset before the \\sleep.")));
		text = (v->kind == BK_VAL_STRING) ? v->s : bk_value_text(v, buf, sizeof(buf));

		p = text;
		while (isspace((unsigned char) *p))
			p++;
		if (*p == '+' || *p == '-')
			negative = (*p++ == '-');
		value = 0;
		for (; isdigit((unsigned char) *p); p++)
		{
			int			digit = *p - '0';

			if (pg_mul_s64_overflow(value, 10, &value) ||
				pg_add_s64_overflow(value, negative ? -digit : digit, &value))
				ereport(ERROR,
						(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
						 errmsg("sleep time \"%s\" for variable \"%s\" out of range in command \"sleep\"",
								text, name)));
		}
		if (value == 0 && !isdigit((unsigned char) *text))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid sleep time \"%s\" for variable \"%s\" in command \"sleep\"",
							text, name),
					 errhint("The variable of a \\sleep must hold an integer.")));
	}

	if (pg_mul_s64_overflow(value, cmd->sleep_unit_us, &usec))
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("sleep time out of range in command \"sleep\""),
				 errdetail("It is " INT64_FORMAT " times " INT64_FORMAT " microseconds.",
						   value, cmd->sleep_unit_us)));
	return Min(Max(usec, 0), BK_SLEEP_MAX_USEC);
}

/* ------------------------------------------------------------------------
 * The texts of a statement with identifier variables
 * ------------------------------------------------------------------------
 */

/* the place of SQL in VS: where it is, or where it goes (*FOUND says which) */
static int
bk_variant_pos(const BkVariants *vs, const char *sql, bool *found)
{
	int			lo = 0;
	int			hi = vs->n;

	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;
		int			c = strcmp(vs->v[mid]->sql, sql);

		if (c == 0)
		{
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

/*
 * bk_variant_find
 *		The variant of text SQL in VS, or NULL: a binary search (a statement
 *		takes at most BK_IDENT_MAX_VARIANTS texts in a session).
 */
BkVariant *
bk_variant_find(BkVariants *vs, const char *sql)
{
	bool		found;
	int			pos = bk_variant_pos(vs, sql, &found);

	return found ? vs->v[pos] : NULL;
}

/*
 * bk_variant_add
 *		Add text SQL, not in VS yet, to VS (allocating in CXT), its ordinal
 *		the number of variants before it; its state 0 and no data.  The
 *		caller keeps the count under BK_IDENT_MAX_VARIANTS.
 */
BkVariant *
bk_variant_add(BkVariants *vs, const char *sql, MemoryContext cxt)
{
	bool		found;
	int			pos = bk_variant_pos(vs, sql, &found);
	BkVariant  *var;

	Assert(!found);
	if (vs->n == vs->max)
	{
		vs->max = Max(8, vs->max * 2);
		vs->v = vs->v == NULL ?
			MemoryContextAlloc(cxt, sizeof(BkVariant *) * vs->max) :
			repalloc(vs->v, sizeof(BkVariant *) * vs->max);
	}
	var = MemoryContextAllocZero(cxt, sizeof(BkVariant));
	var->sql = MemoryContextStrdup(cxt, sql);
	var->ordinal = vs->n;
	memmove(&vs->v[pos + 1], &vs->v[pos], sizeof(BkVariant *) * (vs->n - pos));
	vs->v[pos] = var;
	vs->n++;
	return var;
}
