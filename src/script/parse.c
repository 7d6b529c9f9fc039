/*-------------------------------------------------------------------------
 *
 * parse.c
 *		Workload scripts in pgbench's script language split into commands:
 *		the walk over the text of a script, which hands SQL to sql_scan.c
 *		and sql_command.c and meta-commands to meta.c, and what is checked
 *		once the whole script is read.
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

#include "lib/stringinfo.h"

#include "script/meta.h"
#include "script/parse.h"
#include "script/parse_state.h"
#include "script/sql_command.h"
#include "script/sql_scan.h"

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
	if (sp.nifs > 0 && sp.ifs[sp.nifs - 1].loop)
		bk_syntax_error(&sp, script->commands[sp.ifs[sp.nifs - 1].cmd].line, 0, NULL,
						"End each \\while with \\endwhile.",
						"\\while without matching \\endwhile");
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
