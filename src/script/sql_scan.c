/*-------------------------------------------------------------------------
 *
 * sql_scan.c
 *		The SQL of a script as psql's lexer reads it, for the script parser
 *		(parse.c): quoted strings and identifiers, comments, dollar-quoted
 *		strings, the identifiers that open and close the BEGIN ... END body
 *		of CREATE FUNCTION and CREATE PROCEDURE, and the SQL command being
 *		collected; and the first words of a statement, which tell what it
 *		is (sql_command.c, subst.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"

#include "script/sql_scan.h"

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
 * bk_sql_append
 *		Add LEN bytes at P to the SQL command being collected, counting the
 *		lines they end.  The command starts at its first byte that is not
 *		white space: psql's lexer drops white space and "--" comments at the
 *		start of its query buffer.
 */
void
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
const char *
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
const char *
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
const char *
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
void
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

/*
 * bk_sql_words
 *		The first words of statement SQL, lower-cased, skipping blanks and
 *		comments, up to MAXWORDS; a comma counts as the word ",".  *MORE
 *		tells whether anything else follows them.  A longer word is kept as
 *		"" (it is no keyword we look for).
 */
int
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
