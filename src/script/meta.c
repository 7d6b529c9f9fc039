/*-------------------------------------------------------------------------
 *
 * meta.c
 *		The meta-commands of a script: a backslash and the rest of its line
 *		(lines ending in a backslash continuing it), read into words as
 *		pgbench's lexer reads them, and parsed: \set (and \set name[i] of
 *		an array variable), \unset, \if, \elif, \else and \endif (checked
 *		and linked to each other as pgbench's CheckConditional does),
 *		\while and \endwhile (nested with them), \gset, \aset and \garray
 *		(which go to the SQL command before them), \startpipeline,
 *		\syncpipeline and \endpipeline, and the declarations of the script,
 *		\ignore_errors and \dataset.  \sleep is sleep.c's, the expressions
 *		of \set, \if, \elif and \while are expr_parse.c's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"

#include "core/datasets.h"
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
 * bk_parse_sqlstates
 *		The SQLSTATEs of a declaration \NAME SQLSTATE ... (\ignore_errors,
 *		\rollback_errors) into CODES, *NCODES of them.  Only errors may be
 *		named: not success, warnings or no data (classes 00 to 02), nor a
 *		lost connection or an operator's intervention (08, 57), which end
 *		the client or the run whatever a script says; and none that the
 *		other declaration (OTHER, NOTHER) names.
 */
static void
bk_parse_sqlstates(BkScriptParser *sp, BkWord *words, int nwords, int line,
				   const char *name, const char *hint, int *codes, int *ncodes,
				   const char *other_name, const int *other, int nother)
{
	if (nwords < 2)
		bk_syntax_error(sp, line, 0, name, hint, "missing argument");
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
			bk_syntax_error(sp, words[i].line, words[i].column, name,
							"A SQLSTATE is five digits or upper-case letters, as 23505 (unique_violation).",
							"invalid SQLSTATE \"%s\"", code);
		if (strncmp(code, "00", 2) == 0 || strncmp(code, "01", 2) == 0 ||
			strncmp(code, "02", 2) == 0)
			bk_syntax_error(sp, words[i].line, words[i].column, name,
							"Classes 00, 01 and 02 are success, warnings and no data: only errors can be named.",
							"SQLSTATE %s is not an error", code);
		if (strncmp(code, "08", 2) == 0 || strncmp(code, "57", 2) == 0)
			bk_syntax_error(sp, words[i].line, words[i].column, name,
							"A lost connection (class 08) or an operator's intervention (class 57: a cancel, a shutdown) ends the client, or the run, whatever the script declares.",
							"SQLSTATE %s cannot be declared", code);
		sqlerrcode = MAKE_SQLSTATE(code[0], code[1], code[2], code[3], code[4]);
		for (int k = 0; k < nother; k++)
		{
			if (other[k] == sqlerrcode)
				bk_syntax_error(sp, words[i].line, words[i].column, name,
								"An error either restarts the transaction (\\ignore_errors) or ends it as a rollback (\\rollback_errors), not both.",
								"SQLSTATE %s is in \\%s too", code, other_name);
		}
		for (int k = 0; k < *ncodes; k++)
			seen |= (codes[k] == sqlerrcode);
		if (seen)
			continue;
		if (*ncodes >= BK_MAX_IGNORED_ERRORS)
			bk_syntax_error(sp, words[i].line, words[i].column, name,
							psprintf("A script may name at most %d SQLSTATEs in \\%s.",
									 BK_MAX_IGNORED_ERRORS, name),
							"too many SQLSTATEs");
		codes[(*ncodes)++] = sqlerrcode;
	}
}

/*
 * bk_parse_ignore_errors
 *		\ignore_errors SQLSTATE ...: a declaration of the script, not a
 *		command that runs.  A statement that fails with one of them rolls
 *		the transaction back, which starts again from the script's first
 *		command with new random values (sysbench's ignored errors, its
 *		restarted event).
 */
static void
bk_parse_ignore_errors(BkScriptParser *sp, BkWord *words, int nwords, int line)
{
	BkScript   *script = sp->script;

	bk_parse_sqlstates(sp, words, nwords, line, "ignore_errors",
					   "Write \\ignore_errors followed by SQLSTATEs, as sysbench ignores them: \\ignore_errors 40P01 23505 40001.",
					   script->ignored, &script->nignored,
					   "rollback_errors", script->rollback, script->nrollback);
}

/*
 * bk_parse_rollback_errors
 *		\rollback_errors SQLSTATE ...: a declaration of the script.  A
 *		statement that fails with one of them ends its transaction as the
 *		script means it to end: rolled back, counted as a transaction and
 *		as a rollback, not as a failure (TPC-C's new-order with an unused
 *		item, which a server-side function raises).
 */
static void
bk_parse_rollback_errors(BkScriptParser *sp, BkWord *words, int nwords, int line)
{
	BkScript   *script = sp->script;

	bk_parse_sqlstates(sp, words, nwords, line, "rollback_errors",
					   "Write \\rollback_errors followed by the SQLSTATEs that end a transaction as the script means it to, as \\rollback_errors P0001.",
					   script->rollback, &script->nrollback,
					   "ignore_errors", script->ignored, script->nignored);
}

/*
 * bk_parse_dataset
 *		\dataset KIND: a declaration of the script, not a command: the kind
 *		of dataset its statements need (core/datasets.c's), which a
 *		run of the script alone, or in a group, finds as a named workload's
 *		(bench.ibench_script and bench.sysbench_script write it).
 */
static void
bk_parse_dataset(BkScriptParser *sp, BkWord *words, int nwords, int line)
{
	BkScript   *script = sp->script;
	const char *hint = psprintf("Write \\dataset followed by the kind of dataset the script needs: %s.",
								bk_dataset_names_text());
	char	   *kind;

	if (nwords < 2)
		bk_syntax_error(sp, line, 0, "dataset", hint, "missing argument");
	if (nwords > 2)
		bk_syntax_error(sp, words[2].line, words[2].column, "dataset", hint, "too many arguments");
	kind = bk_word(&words[1]);
	if (bk_dataset_info(kind) == NULL)
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
 * bk_script_rolls_back
 *		Whether SCRIPT's \rollback_errors names SQLERRCODE.
 */
bool
bk_script_rolls_back(const BkScript *script, int sqlerrcode)
{
	for (int i = 0; i < script->nrollback; i++)
	{
		if (script->rollback[i] == sqlerrcode)
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
bk_parse_gset(BkScriptParser *sp, BkWord *words, int nwords, BkGset kind, int line)
{
	bool		all = (kind == BK_GSET_ALL);
	const char *name = all ? "aset" : kind == BK_GSET_ARRAY ? "garray" : "gset";
	const char *hint = kind == BK_GSET_ARRAY ?
		"End a query with \\garray in place of its semicolon, as in SELECT aid, abalance FROM pgbench_accounts WHERE aid IN (:aids[*]) \\garray." :
		psprintf("End a query with \\%s in place of its semicolon, as in SELECT abalance FROM pgbench_accounts WHERE aid = :aid \\%s.",
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
						   prev->gset == BK_GSET_ALL ? "aset" :
						   prev->gset == BK_GSET_ARRAY ? "garray" : "gset"),
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
				 errmsg("\\%s after a statement that returns no row in script \"%s\" at line %d",
						name, script->name, line),
				 errdetail("\\%s expects %s, and \"%s\" returns none.",
						   name, kind == BK_GSET_ARRAY ? "rows" : "one row",
						   prev->stmts[0].sql),
				 errhint("%s", hint)));

	prev->gset = kind;
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
		(kind == BK_CMD_ELSE) ? "else" :
		(kind == BK_CMD_ENDWHILE) ? "endwhile" : "endif";

	if (kind == BK_CMD_IF || kind == BK_CMD_WHILE)
	{
		if (sp->nifs == sp->maxifs)
		{
			sp->maxifs *= 2;
			sp->ifs = repalloc(sp->ifs, sizeof(BkOpenIf) * sp->maxifs);
		}
		top = &sp->ifs[sp->nifs++];
		top->cmd = top->branch = cmdno;
		top->seen_else = false;
		top->loop = (kind == BK_CMD_WHILE);
		return;
	}

	if (kind == BK_CMD_ENDWHILE)
	{
		if (top == NULL || !top->loop)
			bk_syntax_error(sp, cmd->line, 0, NULL,
							top == NULL ? "Start the loop with \\while." :
							psprintf("The \\if at line %d ends first, with \\endif.",
									 script->commands[top->cmd].line),
							"\\endwhile without matching \\while");
	}
	else if (top == NULL || top->loop)
		bk_syntax_error(sp, cmd->line, 0, NULL,
						top == NULL ? "Start the conditional block with \\if." :
						psprintf("The \\while at line %d ends first, with \\endwhile.",
								 script->commands[top->cmd].line),
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
				 errdetail("The pipeline starts at line %d, in the %s that \\%s ends.",
						   sp->pipe_line, top->loop ? "loop" : "branch", name),
				 top->loop ?
				 errhint("End the pipeline with \\endpipeline in the loop it starts in.") :
				 errhint("End the pipeline with \\endpipeline in the branch of the \\if it starts in.")));

	if (kind == BK_CMD_ENDWHILE)
	{
		/* the \while goes past its \endwhile, which goes back to it */
		script->commands[top->cmd].next_branch = cmdno;
		cmd->next_branch = top->cmd;
		sp->nifs--;
		return;
	}
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
 * bk_parse_set_index
 *		The index of \set name[index] expression (command CMD), whose word
 *		W holds a '[': *VAR gets the name before it, CMD->index the
 *		expression between it and its ']' (brackets nest, as in
 *		\set a[:b[1]] 0), read from the command's text, which ends at END.
 *		Returns where the value's expression starts.
 */
static const char *
bk_parse_set_index(BkScriptParser *sp, BkCommand *cmd, const BkWord *w,
				   const char *end, char **var)
{
	const char *open = memchr(w->start, '[', w->len);
	const char *q = open + 1;
	int			depth = 1;

	*var = pnstrdup(w->start, open - w->start);
	for (; q < end && *q != '\n'; q++)
	{
		if (*q == '[')
			depth++;
		else if (*q == ']' && --depth == 0)
			break;
	}
	if (depth > 0)
		bk_syntax_error(sp, w->line, bk_column(sp, open), "set",
						"An element of an array variable is set with \\set name[index] expression, the index in brackets.",
						"unterminated index");
	cmd->index = bk_expr_parse(sp->script, pnstrdup(open + 1, q - open - 1),
							   w->line, bk_column(sp, open + 1), "set");
	return q + 1;
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
					 errmsg("\\endpipeline inside %s in script \"%s\" at line %d",
							sp->ifs[sp->nifs - 1].loop ? "a \\while" : "an \\if",
							sp->script->name, cmd->line),
					 errdetail("The pipeline starts at line %d, outside the \\%s at line %d.",
							   sp->pipe_line,
							   sp->ifs[sp->nifs - 1].loop ? "while" : "if",
							   sp->script->commands[sp->ifs[sp->nifs - 1].cmd].line),
					 sp->ifs[sp->nifs - 1].loop ?
					 errhint("End the pipeline with \\endpipeline in the loop it starts in.") :
					 errhint("End the pipeline with \\endpipeline in the branch of the \\if it starts in.")));
		sp->pipe_line = 0;
	}
}

/*
 * bk_meta_name
 *		The kind of the meta-command called NAME (in any case), as pgbench's
 *		getMetaCommand; *GSET (\gset, \aset) and *SHELL (\shell, \setshell)
 *		(\gset, \aset, \garray) and *SHELL (\shell, \setshell) tell those
 *		that are no command here.  False if there is none.
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
		{"endpipeline", BK_CMD_END_PIPELINE},
		{"while", BK_CMD_WHILE},
		{"endwhile", BK_CMD_ENDWHILE},
		{"unset", BK_CMD_UNSET}
	};

	*gset = (pg_strcasecmp(name, "gset") == 0 || pg_strcasecmp(name, "aset") == 0 ||
			 pg_strcasecmp(name, "garray") == 0);
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
	if (pg_strcasecmp(name, "ignore_errors") == 0 || pg_strcasecmp(name, "rollback_errors") == 0 ||
		pg_strcasecmp(name, "dataset") == 0)
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
		else if (pg_strcasecmp(name, "rollback_errors") == 0)
			bk_parse_rollback_errors(sp, words, nwords, cmdline);
		else
			bk_parse_ignore_errors(sp, words, nwords, cmdline);
		pfree(words);
		return (*end == '\n') ? end + 1 : end;
	}

	if (!bk_meta_name(name, &kind, &gset, &shell))
		bk_syntax_error(sp, cmdline, bk_column(sp, bs), NULL,
						"The meta-commands are \\set, \\unset, \\sleep, \\if, \\elif, \\else, \\endif, \\while, \\endwhile, \\gset, \\aset, \\garray, \\startpipeline, \\syncpipeline, \\endpipeline, and the declarations \\ignore_errors, \\rollback_errors and \\dataset.",
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
	if (kind != BK_CMD_IF && kind != BK_CMD_ELIF && kind != BK_CMD_WHILE)
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
		bk_parse_gset(sp, words, nwords,
					  pg_strcasecmp(name, "aset") == 0 ? BK_GSET_ALL :
					  pg_strcasecmp(name, "garray") == 0 ? BK_GSET_ARRAY : BK_GSET_ONE,
					  cmdline);
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
				if (memchr(words[1].start, '[', words[1].len) != NULL)
					p = bk_parse_set_index(sp, cmd, &words[1], end, &var);
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
		case BK_CMD_WHILE:
			{
				char	   *expr;
				int			ecol;

				expr = bk_meta_rest(sp, p, end, &wline, &ecol);
				cmd->expr = bk_expr_parse(script, expr, wline, ecol, "while");
				bk_parse_if(sp, kind, cmdno);
			}
			break;
		case BK_CMD_ELSE:
		case BK_CMD_ENDIF:
		case BK_CMD_ENDWHILE:
			bk_no_argument(sp, words, nwords);
			bk_parse_if(sp, kind, cmdno);
			break;
		case BK_CMD_UNSET:
			{
				char	   *var;

				if (nwords < 2)
					bk_syntax_error(sp, cmdline, 0, "unset",
									"Write \\unset followed by a variable name, as in \\unset items.",
									"missing argument");
				if (nwords > 2)
					bk_syntax_error(sp, words[2].line, words[2].column, "unset",
									"\\unset takes one variable name.",
									"too many arguments");
				var = bk_word(&words[1]);
				if (!bk_valid_var_name(var))
					bk_syntax_error(sp, words[1].line, words[1].column, "unset",
									"A variable name is made of letters, digits and underscores, and does not start with a digit.",
									"invalid variable name \"%s\"", var);
				cmd->var = bk_var_lookup(script->vt, var, true);
			}
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
