/*-------------------------------------------------------------------------
 *
 * script.c
 *		Workload scripts in pgbench's script language: splitting a script
 *		into commands, the table of variable names, substituting variables
 *		into statements.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <float.h>
#include <math.h>

#include "common/int.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "utils/memutils.h"

#include "script.h"

/* first size of BkVarTable.names, which doubles whenever it is full */
#define BK_VARNAMES_INIT		8

/* one :name in a statement: where it is in BkCommand.sql, which variable */
typedef struct BkSqlRef
{
	int			off;			/* offset of the colon */
	int			len;			/* length of ":name" */
	int			var;
} BkSqlRef;

/* every :name of a statement, for bk_sql_substitute */
struct BkSqlSubst
{
	int			sqllen;			/* strlen(BkCommand.sql) */
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
 *		copied into CXT.
 */
void
bk_var_assign(BkValue *var, const BkValue *value, MemoryContext cxt)
{
	char	   *old = var->kind == BK_VAL_STRING ? var->s : NULL;

	*var = *value;
	if (value->kind == BK_VAL_STRING)
		var->s = MemoryContextStrdup(cxt, value->s);
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

/* the state of parsing a script */
typedef struct BkScriptParser
{
	BkScript   *script;
	int			maxcommands;	/* allocated length of script->commands */

	/* the SQL statement being collected */
	const char *sql_start;		/* its first significant character, or NULL */
	const char *sql_end;		/* just past its last significant character */
	int			sql_line;		/* line of sql_start */
} BkScriptParser;

/* whether C is blank within a line, as pgbench's {space} */
static inline bool
bk_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
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
	return cmd;
}

/*
 * bk_unterminated
 *		Report a quoted string, dollar-quoted string or comment (WHAT) that
 *		starts at LINE and never ends.
 */
static BK_NORETURN void
bk_unterminated(BkScriptParser *sp, const char *what, int line)
{
	ereport(ERROR,
			(errcode(ERRCODE_SYNTAX_ERROR),
			 errmsg("unterminated %s in script \"%s\" at line %d",
					what, sp->script->name, line),
			 errhint("Close it before the end of the script.")));
}

/*
 * bk_skip_quoted
 *		Past the string or quoted identifier opened by the quote at P; with
 *		ESCAPES (an E'' string) a backslash escapes the next character.
 */
static const char *
bk_skip_quoted(BkScriptParser *sp, const char *p, bool escapes, int *line)
{
	char		quote = *p;
	int			start_line = *line;

	for (p++;; p++)
	{
		if (*p == '\0')
			bk_unterminated(sp, quote == '"' ? "quoted identifier" : "quoted string",
							start_line);
		if (*p == '\n')
			(*line)++;
		else if (escapes && *p == '\\' && p[1] != '\0')
		{
			p++;
			if (*p == '\n')
				(*line)++;
		}
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
bk_skip_comment(BkScriptParser *sp, const char *p, int *line)
{
	int			start_line = *line;
	int			depth = 1;

	p += 2;
	while (depth > 0)
	{
		if (*p == '\0')
			bk_unterminated(sp, "comment", start_line);
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
		{
			if (*p == '\n')
				(*line)++;
			p++;
		}
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
bk_skip_dollar(BkScriptParser *sp, const char *p, int *line)
{
	const char *q = p + 1;
	int			start_line = *line;
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
			bk_unterminated(sp, "dollar-quoted string", start_line);
		if (*q == '\n')
			(*line)++;
		else if (*q == '$' && strncmp(q, p, delimlen) == 0)
			return q + delimlen;
	}
}

/*
 * bk_sql_words
 *		The first words of statement SQL, lower-cased, skipping blanks and
 *		comments, up to MAXWORDS; *MORE tells whether anything else follows
 *		them.  A longer word is kept as "" (it is no keyword we look for).
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
		if (bk_is_blank(*p) || *p == '\n')
			p++;
		else if (p[0] == '-' && p[1] == '-')
		{
			while (*p && *p != '\n')
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
		else if (n < maxwords &&
				 ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		{
			int			len = 0;

			while (bk_is_name_char((unsigned char) p[len]))
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

/*
 * bk_sql_kind
 *		Whether statement SQL (at LINE) is transaction control, which the
 *		client runs itself: BEGIN [WORK | TRANSACTION], START TRANSACTION,
 *		END and COMMIT, ROLLBACK and ABORT (with an optional WORK or
 *		TRANSACTION and AND NO CHAIN).  BEGIN with options is refused for
 *		now; anything else (COMMIT PREPARED, ROLLBACK TO ...) is plain SQL.
 */
static BkCommandKind
bk_sql_kind(BkScriptParser *sp, const char *sql, int line)
{
	char		w[5][BK_WORD_LEN];
	bool		more;
	int			n = bk_sql_words(sql, w, lengthof(w), &more);
	int			i;
	BkCommandKind kind;

	if (n == 0)
		return BK_CMD_SQL;

	if (strcmp(w[0], "begin") == 0 ||
		(strcmp(w[0], "start") == 0 && n >= 2 && strcmp(w[1], "transaction") == 0))
	{
		i = (w[0][0] == 's') ? 2 : 1;
		if (i == 1 && n >= 2 && (strcmp(w[1], "work") == 0 || strcmp(w[1], "transaction") == 0))
			i = 2;
		if (i == n && !more)
			return BK_CMD_BEGIN;
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("unsupported transaction options in \"%s\" in script \"%s\" at line %d",
						sql, sp->script->name, line),
				 errhint("Write a plain BEGIN: transaction modes such as ISOLATION LEVEL or READ ONLY are not supported in scripts yet; SET TRANSACTION after the BEGIN sets them.")));
	}

	if (strcmp(w[0], "commit") == 0 || strcmp(w[0], "end") == 0)
		kind = BK_CMD_COMMIT;
	else if (strcmp(w[0], "rollback") == 0 || strcmp(w[0], "abort") == 0)
		kind = BK_CMD_ROLLBACK;
	else
		return BK_CMD_SQL;

	i = 1;
	if (i < n && (strcmp(w[i], "work") == 0 || strcmp(w[i], "transaction") == 0))
		i++;
	if (i == n && !more)
		return kind;
	if (i + 2 == n && !more && strcmp(w[i], "and") == 0 && strcmp(w[i + 1], "chain") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("unsupported AND CHAIN in \"%s\" in script \"%s\" at line %d",
						sql, sp->script->name, line),
				 errhint("End the transaction with a plain %s and start the next one with BEGIN.",
						 kind == BK_CMD_COMMIT ? "COMMIT" : "ROLLBACK")));
	if (i + 3 == n && !more && strcmp(w[i], "and") == 0 &&
		strcmp(w[i + 1], "no") == 0 && strcmp(w[i + 2], "chain") == 0)
		return kind;
	return BK_CMD_SQL;
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
 * bk_sql_params
 *		Find the :names of statement CMD, as pgbench's parseQuery: fill
 *		sql_params (each :name turned into $n, one n per variable),
 *		param_vars, nparams, and subst for bk_sql_substitute.  Quotes do not
 *		matter, and colons not followed by a name (as in ::int) are skipped
 *		all together.
 */
static void
bk_sql_params(BkScript *script, BkStatement *cmd)
{
	const char *sql = cmd->sql;
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
	cmd->param_vars = palloc(sizeof(int) * Max(maxrefs, 1));
	cmd->nparams = 0;
	initStringInfo(&buf);

	p = sql;
	while ((p = strchr(p, ':')) != NULL)
	{
		int			namelen = bk_sql_name_len(p);
		char	   *name;
		int			var;
		int			n;
		BkSqlRef   *ref;

		if (namelen == 0)
		{
			while (*p == ':')
				p++;
			continue;
		}
		name = pnstrdup(p + 1, namelen);
		var = bk_var_lookup(script->vt, name, true);
		pfree(name);

		for (n = 0; n < cmd->nparams; n++)
		{
			if (cmd->param_vars[n] == var)
				break;
		}
		if (n == cmd->nparams)
			cmd->param_vars[cmd->nparams++] = var;

		appendBinaryStringInfo(&buf, copied, (int) (p - copied));
		appendStringInfo(&buf, "$%d", n + 1);

		ref = &subst->refs[subst->nrefs++];
		ref->off = (int) (p - sql);
		ref->len = namelen + 1;
		ref->var = var;

		p += namelen + 1;
		copied = p;
	}
	appendStringInfoString(&buf, copied);
	cmd->sql_params = buf.data;
	cmd->subst = subst;
}

/*
 * bk_first_line
 *		The first line of TEXT, without blanks around it, as pgbench -r
 *		shows a command.
 */
static char *
bk_first_line(const char *text)
{
	const char *end = strchr(text, '\n');
	int			len = end ? (int) (end - text) : (int) strlen(text);

	while (len > 0 && (bk_is_blank(text[len - 1])))
		len--;
	return pnstrdup(text, len);
}

/*
 * bk_flush_sql
 *		End the statement being collected, if any, as a command.
 */
static void
bk_flush_sql(BkScriptParser *sp)
{
	char	   *sql;
	BkCommandKind kind;
	BkCommand  *cmd;

	if (sp->sql_start == NULL)
		return;
	sql = pnstrdup(sp->sql_start, sp->sql_end - sp->sql_start);
	kind = bk_sql_kind(sp, sql, sp->sql_line);
	cmd = bk_new_command(sp, kind, sp->sql_line);
	cmd->text = bk_first_line(sql);
	cmd->nstmts = 1;
	cmd->stmts = palloc0(sizeof(BkStatement));
	cmd->stmts[0].sql = sql;
	cmd->gset_prefix = "";
	if (kind == BK_CMD_SQL)
		bk_sql_params(sp->script, &cmd->stmts[0]);
	else
		cmd->stmts[0].sql_params = pstrdup(sql);
	sp->sql_start = NULL;
}

/*
 * bk_parse_set
 *		The arguments ARGS of the \set at LINE: a variable name, then an
 *		expression.
 */
static void
bk_parse_set(BkScriptParser *sp, const char *args, int line)
{
	const char *p = args;
	const char *name_end;
	const char *expr_end;
	char	   *name;
	BkExpr	   *expr;
	BkCommand  *cmd;

	while (bk_is_blank(*p))
		p++;
	for (name_end = p; *name_end && !bk_is_blank(*name_end); name_end++)
		;
	if (name_end == p)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("missing variable name in \\set in script \"%s\" at line %d",
						sp->script->name, line),
				 errhint("Write \\set followed by a variable name and an expression, as in \\set aid random(1, 100000 * :scale).")));
	name = pnstrdup(p, name_end - p);
	if (!bk_valid_var_name(name))
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("invalid variable name \"%s\" in \\set in script \"%s\" at line %d",
						name, sp->script->name, line),
				 errhint("A variable name is made of letters, digits and underscores, and does not start with a digit.")));

	/* the expression, without the blanks around it */
	for (p = name_end; bk_is_blank(*p); p++)
		;
	for (expr_end = p + strlen(p); expr_end > p && bk_is_blank(expr_end[-1]); expr_end--)
		;
	expr = bk_expr_parse(sp->script, pnstrdup(p, expr_end - p), line, 0, "set");
	cmd = bk_new_command(sp, BK_CMD_SET, line);
	cmd->var = bk_var_lookup(sp->script->vt, name, true);
	cmd->expr = expr;
}

/*
 * bk_parse_meta
 *		The meta-command whose backslash is at BS, on line *LINE: read it to
 *		the end of its line, joining lines that end with a backslash, and
 *		parse it.  Returns where the next line starts; *LINE follows.
 */
static const char *
bk_parse_meta(BkScriptParser *sp, const char *bs, int *line)
{
	int			cmdline = *line;
	const char *p = bs + 1;
	const char *name;
	const char *name_end;
	StringInfoData text;
	int			ncommands;

	/* a continuation separates words, as a blank would */
	initStringInfo(&text);
	while (*p != '\0')
	{
		if (*p == '\n')
		{
			(*line)++;
			p++;
			break;
		}
		if (p[0] == '\\' && (p[1] == '\n' || (p[1] == '\r' && p[2] == '\n')))
		{
			appendStringInfoChar(&text, ' ');
			(*line)++;
			p += (p[1] == '\n') ? 2 : 3;
			continue;
		}
		appendStringInfoChar(&text, *p);
		p++;
	}

	for (name = text.data; bk_is_blank(*name); name++)
		;
	for (name_end = name; *name_end && !bk_is_blank(*name_end); name_end++)
		;

	/* a lone backslash is nothing, as in pgbench */
	ncommands = sp->script->ncommands;
	if (name_end == name)
		;
	else if (name_end - name == 3 && pg_strncasecmp(name, "set", 3) == 0)
		bk_parse_set(sp, name_end, cmdline);
	else
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("unsupported meta-command \"\\%.*s\" in script \"%s\" at line %d",
						(int) (name_end - name), name, sp->script->name, cmdline),
				 errhint("Only \\set is supported in scripts for now.")));

	if (sp->script->ncommands > ncommands)
		sp->script->commands[ncommands].text = psprintf("\\%s", bk_first_line(name));
	pfree(text.data);
	return p;
}

/*
 * bk_script_parse
 *		Parse script TEXT, called NAME in messages, into its commands.
 *
 * A line whose first non-blank character is a backslash is a meta-command.
 * Everything else is SQL: a statement ends at a semicolon outside quotes,
 * dollar quotes, comments and parentheses, or at a meta-command, or at the
 * end of the script; one that is only blanks and comments is no command.
 */
BkScript *
bk_script_parse(const char *text, const char *name, BkVarTable *vt)
{
	BkScriptParser sp;
	BkScript   *script = palloc0(sizeof(BkScript));
	const char *p = text;
	int			line = 1;
	int			depth = 0;		/* of parentheses */
	bool		line_start = true;

	script->name = pstrdup(name);
	script->vt = vt;

	sp.script = script;
	sp.maxcommands = 16;
	script->commands = palloc(sizeof(BkCommand) * sp.maxcommands);
	sp.sql_start = NULL;
	sp.sql_end = NULL;
	sp.sql_line = 0;

	while (*p != '\0')
	{
		const char *tok = p;
		int			tok_line = line;

		if (line_start)
		{
			const char *q = p;

			while (bk_is_blank(*q))
				q++;
			line_start = false;
			if (*q == '\\')
			{
				bk_flush_sql(&sp);
				depth = 0;
				p = bk_parse_meta(&sp, q, &line);
				line_start = true;
			}
			else
				p = q;
			continue;
		}

		switch (*p)
		{
			case '\n':
				line++;
				p++;
				line_start = true;
				continue;
			case ' ':
			case '\t':
			case '\r':
			case '\f':
			case '\v':
				p++;
				continue;
			case ';':
				p++;
				if (depth == 0)
				{
					bk_flush_sql(&sp);
					continue;
				}
				break;
			case '-':
				if (p[1] == '-')
				{
					while (*p != '\0' && *p != '\n')
						p++;
					continue;
				}
				p++;
				break;
			case '/':
				if (p[1] == '*')
				{
					p = bk_skip_comment(&sp, p, &line);
					continue;
				}
				p++;
				break;
			case '\'':
			case '"':
				p = bk_skip_quoted(&sp, p, false, &line);
				break;
			case '$':
				p = bk_skip_dollar(&sp, p, &line);
				break;
			case '(':
				depth++;
				p++;
				break;
			case ')':
				if (depth > 0)
					depth--;
				p++;
				break;
			default:
				if (bk_is_name_char((unsigned char) *p))
				{
					/* a word; E'...' is a string with backslash escapes */
					while (bk_is_name_char((unsigned char) *p) || *p == '$')
						p++;
					if (p - tok == 1 && (*tok == 'E' || *tok == 'e') && *p == '\'')
						p = bk_skip_quoted(&sp, p, true, &line);
				}
				else
					p++;
				break;
		}

		/* [tok, p) belongs to the statement being collected */
		if (sp.sql_start == NULL)
		{
			sp.sql_start = tok;
			sp.sql_line = tok_line;
		}
		sp.sql_end = p;
	}
	bk_flush_sql(&sp);

	if (script->ncommands == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("script \"%s\" contains no command", name),
				 errhint("A script needs at least one SQL statement or \\set command.")));
	return script;
}

/* ------------------------------------------------------------------------
 * Variables substituted into statements
 * ------------------------------------------------------------------------
 */

/*
 * bk_sql_substitute
 *		Statement STMT for the simple protocol: each :name whose variable is
 *		set replaced by its value as text, the others left as written
 *		(pgbench's assignVariables).  A palloc'd string, built from the
 *		references found at parse time.
 */
char *
bk_sql_substitute(const BkScript *script, const BkStatement *stmt,
				  const BkValue *vars)
{
	const BkSqlSubst *subst = stmt->subst;
	StringInfoData buf;
	int			done = 0;

	(void) script;
	if (subst == NULL || subst->nrefs == 0)
		return pstrdup(stmt->sql);

	initStringInfo(&buf);
	enlargeStringInfo(&buf, subst->sqllen + subst->nrefs * BK_VALUE_TEXT_LEN);
	for (int i = 0; i < subst->nrefs; i++)
	{
		const BkSqlRef *ref = &subst->refs[i];
		const BkValue *v = &vars[ref->var];

		appendBinaryStringInfo(&buf, stmt->sql + done, ref->off - done);
		if (v->kind == BK_VAL_UNDEF)
			appendBinaryStringInfo(&buf, stmt->sql + ref->off, ref->len);
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
 *		How long the \sleep CMD sleeps, in microseconds.
 */
int64
bk_sleep_usec(const BkScript *script, const BkCommand *cmd, const BkValue *vars)
{
	(void) script;
	(void) vars;
	return cmd->sleep_value * cmd->sleep_unit_us;
}
