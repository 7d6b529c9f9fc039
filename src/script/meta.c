/*-------------------------------------------------------------------------
 *
 * meta.c
 *		The meta-commands of a script: a backslash and the rest of its line
 *		(lines ending in a backslash continuing it), read into words as
 *		pgbench's lexer reads them, and parsed: \set, \if, \elif, \else
 *		and \endif (checked and linked to each other as pgbench's
 *		CheckConditional does), \gset and \aset (which go to the SQL
 *		command before them), \startpipeline, \syncpipeline and
 *		\endpipeline, and the declarations of the script, \ignore_errors and
 *		\dataset.  \sleep is sleep.c's, the expressions of \set, \if and
 *		\elif are expr_parse.c's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"

#include "script/expr_parse.h"
#include "script/meta.h"
#include "script/sleep.h"
#include "script/vars.h"

/* most words a meta-command may have (pgbench's MAX_ARGS) */
#define BK_MAX_WORDS			256

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
	if (strcmp(kind, "tpcb") != 0 && strcmp(kind, "sysbench") != 0 && strcmp(kind, "ibench") != 0 &&
		strcmp(kind, "tpcc") != 0)
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
const char *
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
