/*-------------------------------------------------------------------------
 *
 * sql_command.c
 *		The SQL commands of a script: the text collected up to a semicolon
 *		or a backslash cut into its statements at each \;, a lone statement
 *		of transaction control made a command of its own kind (BEGIN with
 *		its transaction modes, COMMIT, ROLLBACK), the transaction control a
 *		client inside the server cannot run refused, and the command
 *		appended to the script with the text pgbench -r shows of it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"

#include "script/sql_command.h"
#include "script/sql_scan.h"
#include "script/subst.h"

/* pgbench -r shows at most this many bytes of a SQL command */
#define BK_SQL_TEXT_MAX			127

/* what a statement is, as far as transactions go */
typedef enum BkXactKind
{
	BK_XACT_NONE,				/* not transaction control */
	BK_XACT_BEGIN,				/* BEGIN, START TRANSACTION */
	BK_XACT_COMMIT,				/* COMMIT, END */
	BK_XACT_ROLLBACK,			/* ROLLBACK, ABORT */
	BK_XACT_OTHER				/* SAVEPOINT, PREPARE TRANSACTION ... */
} BkXactKind;

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
void
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
