/*-------------------------------------------------------------------------
 *
 * parse_state.c
 *		What the parts of the script parser share (parse.c, sql_scan.c,
 *		sql_command.c, meta.c, sleep.c): the column of a byte of the script,
 *		a mistake reported where it is, in pgbench's words, and a command
 *		appended to the script.  The parser's state, BkScriptParser, is
 *		parse_state.h's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "script/parse_state.h"

/*
 * bk_column
 *		The column of P in its line of the script, from 1.
 */
int
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
void
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
 * bk_new_command
 *		A zeroed command of KIND at LINE, appended to the script.
 */
BkCommand *
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
