/*-------------------------------------------------------------------------
 *
 * redact.c
 *		Statement texts without the secrets they may hold.
 *
 * The samples before and after a run keep the texts of the run's role's
 * busiest statements from pg_stat_statements (sample.c), and every role
 * may read bench.samples.  pg_stat_statements writes the constants of
 * SELECT, INSERT, UPDATE, DELETE and MERGE as $1, $2 ..., but it keeps
 * utility statements as they were written (CREATE USER MAPPING ... OPTIONS
 * (password '...'), ALTER ROLE ... PASSWORD '...', CREATE SUBSCRIPTION ...
 * CONNECTION '... password=...', DO blocks), and it keeps any text as it was
 * written when its entry is made as the statement ends (a statement prepared
 * before pg_stat_statements_reset()).  So every text is redacted before it
 * is stored:
 *
 *	- A text is sensitive when one of its statements begins as a command
 *	  that carries credentials: CREATE or ALTER of USER (and USER MAPPING),
 *	  ROLE, GROUP, SERVER, SUBSCRIPTION, FOREIGN DATA WRAPPER or FOREIGN
 *	  TABLE; IMPORT FOREIGN SCHEMA; ALTER SYSTEM.  Or when a word, a quoted
 *	  identifier, a string constant or a comment of it names a password or
 *	  a secret ("password", "passwd" or "secret" in any case: password
 *	  '...', password => '...', 'host=... password=...', sslpassword), holds
 *	  a URI with a password (postgresql://user:pw@host), or names add_target
 *	  (bench.add_target takes the password as its third argument).
 *	- In a sensitive text every string constant becomes '<redacted>', every
 *	  comment a comment that says <redacted>, and a word or number assigned
 *	  to a password (SET x.password = word, password => word) <redacted>.
 *	  Keywords, names, operators and parameters stay, so that the statement
 *	  can still be told.
 *	- Other texts are kept as they are.
 *
 * The text is split into tokens as the server's lexer splits it:
 * whitespace, -- comments and nested block comments, '...' with '' inside,
 * E'...' with backslash escapes, U&'...', B'', X'' and N'', dollar quoting
 * ($$...$$, $tag$...$tag$, but not the parameter $1), quoted identifiers.
 * The escapes of E'' and U&'' are decoded before looking for the words (a
 * text with a UESCAPE clause, whose escape character is another, is taken
 * as sensitive).  A plain '...' reads differently when standard_conforming_strings is off
 * (a backslash escapes the quote, and others): a text with a backslash is
 * split both ways, and it is sensitive if either way finds it so; when the
 * two ways give different redacted texts, only its first word and
 * <redacted> are kept.
 *
 * Most texts are not split at all: a quick scan finds none of what could
 * make them sensitive (see rd_may_be_sensitive), and they are returned as
 * they are.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"

#include "core/pgbenchkit.h"
#include "observe/redact.h"

PG_FUNCTION_INFO_V1(bench_redact_statement);

typedef enum RdKind
{
	RD_SPACE,
	RD_COMMENT,
	RD_STRING,					/* any string constant, dollar-quoted too */
	RD_QIDENT,					/* "quoted identifier" */
	RD_WORD,					/* keyword or identifier */
	RD_NUMBER,
	RD_PARAM,					/* $1 */
	RD_SEMI,
	RD_OTHER					/* one character of anything else */
} RdKind;

typedef struct RdToken
{
	RdKind		kind;
	const char *start;			/* the token in the text */
	const char *end;
	const char *body;			/* a string's, identifier's or comment's content */
	const char *body_end;
	char		escapes;		/* its body's escapes: 'E' backslash, 'U' U&, or 0 */
} RdToken;

/* the words that make a text sensitive, anywhere in a token, in any case */
static const char *const rd_secret_words[] = {"password", "passwd", "secret"};

static bool
rd_letter(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c >= 0x80;
}

static bool
rd_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static bool
rd_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/*
 * The closing QUOTE of a body that starts at P: a doubled quote is one
 * character of it, and with BACKSLASH a backslash escapes the next one.
 * END when there is none (the rest of the text is the body).
 */
static const char *
rd_closing_quote(const char *p, const char *end, char quote, bool backslash)
{
	while (p < end)
	{
		if (backslash && *p == '\\' && p + 1 < end)
			p += 2;
		else if (*p != quote)
			p++;
		else if (p + 1 < end && p[1] == quote)
			p += 2;
		else
			return p;
	}
	return end;
}

/* a quoted token whose body starts at P; returns where the token ends */
static const char *
rd_quoted(RdToken *t, RdKind kind, const char *p, const char *end, char quote,
		  bool backslash, char escapes)
{
	const char *close = rd_closing_quote(p, end, quote, backslash);

	t->kind = kind;
	t->body = p;
	t->body_end = close;
	t->escapes = escapes;
	return close < end ? close + 1 : end;
}

/*
 * rd_next
 *		The token at P (P < END) into *T; returns where it ends.  With
 *		STD_STRINGS, a plain '...' has no backslash escapes (the default
 *		standard_conforming_strings = on).
 */
static const char *
rd_next(const char *p, const char *end, bool std_strings, RdToken *t)
{
	unsigned char c = *p;
	unsigned char c1 = p + 1 < end ? p[1] : '\0';
	unsigned char c2 = p + 2 < end ? p[2] : '\0';

	memset(t, 0, sizeof(*t));
	t->start = p;
	if (rd_space(c))
	{
		t->kind = RD_SPACE;
		while (p < end && rd_space(*p))
			p++;
	}
	else if (c == '-' && c1 == '-')
	{
		t->kind = RD_COMMENT;
		t->body = p += 2;
		while (p < end && *p != '\n' && *p != '\r')
			p++;
		t->body_end = p;
	}
	else if (c == '/' && c1 == '*')
	{
		int			depth = 1;

		t->kind = RD_COMMENT;
		t->body = p += 2;
		t->body_end = end;
		while (p < end)
		{
			if (*p == '/' && p + 1 < end && p[1] == '*')
			{
				depth++;
				p += 2;
			}
			else if (*p == '*' && p + 1 < end && p[1] == '/')
			{
				p += 2;
				if (--depth == 0)
				{
					t->body_end = p - 2;
					break;
				}
			}
			else
				p++;
		}
	}
	else if (c == '\'')
		p = rd_quoted(t, RD_STRING, p + 1, end, '\'', !std_strings, std_strings ? 0 : 'E');
	else if ((c == 'E' || c == 'e') && c1 == '\'')
		p = rd_quoted(t, RD_STRING, p + 2, end, '\'', true, 'E');
	else if ((c == 'N' || c == 'n') && c1 == '\'')
		p = rd_quoted(t, RD_STRING, p + 2, end, '\'', !std_strings, std_strings ? 0 : 'E');
	else if ((c == 'B' || c == 'b' || c == 'X' || c == 'x') && c1 == '\'')
		p = rd_quoted(t, RD_STRING, p + 2, end, '\'', false, 0);
	else if ((c == 'U' || c == 'u') && c1 == '&' && c2 == '\'')
		p = rd_quoted(t, RD_STRING, p + 3, end, '\'', false, 'U');
	else if ((c == 'U' || c == 'u') && c1 == '&' && c2 == '"')
		p = rd_quoted(t, RD_QIDENT, p + 3, end, '"', false, 'U');
	else if (c == '"')
		p = rd_quoted(t, RD_QIDENT, p + 1, end, '"', false, 0);
	else if (rd_letter(c))
	{
		t->kind = RD_WORD;
		while (p < end && (rd_letter(*p) || rd_digit(*p) || *p == '$'))
			p++;
	}
	else if (rd_digit(c))
	{
		t->kind = RD_NUMBER;
		while (p < end && (rd_letter(*p) || rd_digit(*p) || *p == '.'))
			p++;
	}
	else if (c == '$' && rd_digit(c1))
	{
		t->kind = RD_PARAM;
		for (p++; p < end && rd_digit(*p); p++)
			;
	}
	else if (c == '$' && (c1 == '$' || rd_letter(c1)))
	{
		/* $tag$: a dollar-quoted string, if the tag is closed */
		const char *q = p + 1;

		while (q < end && (rd_letter(*q) || rd_digit(*q)))
			q++;
		if (q < end && *q == '$')
		{
			size_t		taglen = q + 1 - p;
			const char *r;

			t->kind = RD_STRING;
			t->body = q + 1;
			t->body_end = end;
			for (r = q + 1; r + taglen <= end; r++)
			{
				if (*r == '$' && memcmp(r, p, taglen) == 0)
				{
					t->body_end = r;
					break;
				}
			}
			p = t->body_end == end ? end : t->body_end + taglen;
		}
		else
		{
			t->kind = RD_OTHER;
			p++;
		}
	}
	else
	{
		t->kind = c == ';' ? RD_SEMI : RD_OTHER;
		p++;
	}
	t->end = p;
	return p;
}

/* the value of the hexadecimal digits at P, N of them; -1 if not all are */
static long
rd_hex(const char *p, const char *end, int n)
{
	long		v = 0;

	if (end - p < n)
		return -1;
	for (int i = 0; i < n; i++)
	{
		char		c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v += c - '0';
		else if (c >= 'a' && c <= 'f')
			v += c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v += c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/*
 * rd_decode
 *		A body with its escapes decoded into OUT, as far as the words looked
 *		for go: a character an escape gives, '?' for one beyond ASCII.
 *		ESCAPES 'E': backslash escapes (\n, \101, \x41, \u0041, \U00000041,
 *		\ and any other character); 'U': U&'s (\0041, \+000041, \\).
 */
static void
rd_decode(const char *p, const char *end, char escapes, StringInfo out)
{
	resetStringInfo(out);
	while (p < end)
	{
		long		cp = -1;

		if (*p != '\\' || p + 1 >= end)
		{
			appendStringInfoChar(out, *p++);
			continue;
		}
		p++;
		if (escapes == 'U')
		{
			if (*p == '+' && (cp = rd_hex(p + 1, end, 6)) >= 0)
				p += 7;
			else if ((cp = rd_hex(p, end, 4)) >= 0)
				p += 4;
			else
				cp = (unsigned char) *p++;
		}
		else if (*p >= '0' && *p <= '7')
		{
			cp = 0;
			for (int i = 0; i < 3 && p < end && *p >= '0' && *p <= '7'; i++)
				cp = cp * 8 + (*p++ - '0');
		}
		else if (*p == 'x' && p + 1 < end && rd_hex(p + 1, end, 1) >= 0)
		{
			int			n = rd_hex(p + 2, end, 1) >= 0 ? 2 : 1;

			cp = rd_hex(p + 1, end, n);
			p += 1 + n;
		}
		else if (*p == 'u' && (cp = rd_hex(p + 1, end, 4)) >= 0)
			p += 5;
		else if (*p == 'U' && (cp = rd_hex(p + 1, end, 8)) >= 0)
			p += 9;
		else
		{
			switch (*p)
			{
				case 'b':
					cp = '\b';
					break;
				case 'f':
					cp = '\f';
					break;
				case 'n':
					cp = '\n';
					break;
				case 'r':
					cp = '\r';
					break;
				case 't':
					cp = '\t';
					break;
				default:
					cp = (unsigned char) *p;
			}
			p++;
		}
		appendStringInfoChar(out, cp > 0 && cp < 0x80 ? (char) cp : '?');
	}
}

/* does P..END name a password or a secret, or hold a URI with a password? */
static bool
rd_mentions_secret(const char *p, const char *end)
{
	for (const char *s = p; s < end; s++)
	{
		/* the words begin with p or s, a URI's :// with a colon */
		char		c = *s | 0x20;

		if (c != 'p' && c != 's' && *s != ':')
			continue;
		for (int i = 0; i < lengthof(rd_secret_words); i++)
		{
			size_t		len = strlen(rd_secret_words[i]);

			if (end - s >= len && pg_strncasecmp(s, rd_secret_words[i], len) == 0)
				return true;
		}
		/* scheme://user:password@host */
		if (end - s >= 3 && memcmp(s, "://", 3) == 0)
		{
			bool		colon = false;
			const char *u;

			for (u = s + 3; u < end && !rd_space(*u) && strchr("/?#@", *u) == NULL; u++)
				colon |= *u == ':';
			if (u < end && *u == '@' && colon)
				return true;
		}
	}
	return false;
}

/* does the body of T, decoded or not, name a secret?  BUF is scratch */
static bool
rd_body_mentions_secret(const RdToken *t, StringInfo buf)
{
	if (rd_mentions_secret(t->body, t->body_end))
		return true;
	if (t->escapes == 0 || memchr(t->body, '\\', t->body_end - t->body) == NULL)
		return false;
	rd_decode(t->body, t->body_end, t->escapes, buf);
	return rd_mentions_secret(buf->data, buf->data + buf->len);
}

/* is T the word W, in any case? */
static bool
rd_is_word(const RdToken *t, const char *w)
{
	size_t		len = strlen(w);

	return t->kind == RD_WORD && t->end - t->start == len &&
		pg_strncasecmp(t->start, w, len) == 0;
}

/*
 * A statement that begins with the words HEAD[0..N-1] carries credentials
 * (see the header).
 */
static bool
rd_head_carries_secret(const RdToken *head, int n)
{
	if (n >= 2 && (rd_is_word(&head[0], "create") || rd_is_word(&head[0], "alter")))
	{
		if (rd_is_word(&head[1], "user") || rd_is_word(&head[1], "role") ||
			rd_is_word(&head[1], "group") || rd_is_word(&head[1], "server") ||
			rd_is_word(&head[1], "subscription"))
			return true;
		if (rd_is_word(&head[0], "alter") && rd_is_word(&head[1], "system"))
			return true;
		if (n >= 3 && rd_is_word(&head[1], "foreign") &&
			(rd_is_word(&head[2], "data") || rd_is_word(&head[2], "table")))
			return true;
	}
	return n >= 2 && rd_is_word(&head[0], "import") && rd_is_word(&head[1], "foreign");
}

/* is TEXT sensitive (see the header), split with STD_STRINGS? */
static bool
rd_sensitive(const char *text, const char *end, bool std_strings)
{
	RdToken		head[3];
	int			nhead = 0;
	bool		in_head = true;
	StringInfoData buf;
	bool		found = false;

	initStringInfo(&buf);
	for (const char *p = text; p < end && !found;)
	{
		RdToken		t;

		p = rd_next(p, end, std_strings, &t);
		switch (t.kind)
		{
			case RD_SPACE:
				break;
			case RD_COMMENT:
				/* a comment between the words of a command is no end of it */
				found = rd_body_mentions_secret(&t, &buf);
				break;
			case RD_STRING:
			case RD_QIDENT:
				found = rd_body_mentions_secret(&t, &buf);
				in_head = false;
				break;
			case RD_WORD:
				found = rd_mentions_secret(t.start, t.end) ||
					rd_is_word(&t, "add_target") || rd_is_word(&t, "uescape");
				if (in_head && nhead < lengthof(head))
				{
					head[nhead++] = t;
					found |= rd_head_carries_secret(head, nhead);
				}
				break;
			case RD_SEMI:
				nhead = 0;
				in_head = true;
				break;
			default:
				in_head = false;
		}
	}
	pfree(buf.data);
	return found;
}

/*
 * rd_rewrite
 *		TEXT, split with STD_STRINGS, with every string constant, every
 *		comment and every word or number assigned to a password redacted.
 */
static char *
rd_rewrite(const char *text, const char *end, bool std_strings)
{
	StringInfoData out;
	StringInfoData buf;
	enum
	{
		NONE,					/* nothing to look for */
		NAMED,					/* a password was named: is it assigned? */
		ASSIGNED				/* the next value is the password's */
	}			state = NONE;

	initStringInfo(&out);
	initStringInfo(&buf);
	for (const char *p = text; p < end;)
	{
		RdToken		t;
		bool		secret_name;

		p = rd_next(p, end, std_strings, &t);
		if (t.kind == RD_SPACE)
		{
			appendBinaryStringInfo(&out, t.start, t.end - t.start);
			continue;
		}
		if (t.kind == RD_COMMENT)
		{
			appendStringInfoString(&out, "/* " BK_REDACTED " */");
			continue;
		}
		if (t.kind == RD_STRING)
		{
			appendStringInfoString(&out, "'" BK_REDACTED "'");
			state = NONE;
			continue;
		}
		secret_name = t.kind == RD_WORD ? rd_mentions_secret(t.start, t.end) :
			t.kind == RD_QIDENT ? rd_body_mentions_secret(&t, &buf) : false;
		if (state == ASSIGNED && !secret_name &&
			(t.kind == RD_WORD || t.kind == RD_QIDENT || t.kind == RD_NUMBER))
		{
			appendStringInfoString(&out, BK_REDACTED);
			state = NONE;
			continue;
		}
		appendBinaryStringInfo(&out, t.start, t.end - t.start);
		if (secret_name)
			state = NAMED;
		else if (state != NONE && t.kind == RD_OTHER && strchr("=:>", *t.start) != NULL)
			state = *t.start == '=' ? ASSIGNED : state;
		else if (state != NONE && rd_is_word(&t, "to"))
			state = ASSIGNED;
		else
			state = NONE;
	}
	pfree(buf.data);
	return out.data;
}

/* the first word of TEXT and <redacted>: when nothing more is certain */
static char *
rd_first_word(const char *text, const char *end)
{
	for (const char *p = text; p < end;)
	{
		RdToken		t;

		p = rd_next(p, end, true, &t);
		if (t.kind == RD_WORD)
			return psprintf("%.*s " BK_REDACTED, (int) (t.end - t.start), t.start);
		if (t.kind != RD_SPACE && t.kind != RD_COMMENT)
			break;
	}
	return pstrdup(BK_REDACTED);
}

/*
 * Can TEXT be sensitive at all?  A quick look for what rd_sensitive looks
 * for, without splitting the text: the words that begin a command that
 * carries credentials, the secret words (passw covers password and
 * passwd), ://, add_target, uescape, and a backslash, which may escape
 * any of them.
 */
static bool
rd_may_be_sensitive(const char *text, const char *end)
{
	static const char *const hints[] = {"create", "alter", "import", "passw", "secret",
	"add_target", "uescape"};

	for (const char *s = text; s < end; s++)
	{
		char		c = *s | 0x20;

		if (*s == '\\' || (*s == ':' && end - s >= 3 && memcmp(s, "://", 3) == 0))
			return true;
		if (c != 'c' && c != 'a' && c != 'i' && c != 'p' && c != 's' && c != 'u')
			continue;
		for (int i = 0; i < lengthof(hints); i++)
		{
			size_t		len = strlen(hints[i]);

			if (end - s >= len && pg_strncasecmp(s, hints[i], len) == 0)
				return true;
		}
	}
	return false;
}

/*
 * bk_redact_statement
 *		TEXT, a statement's text, with what could be a secret redacted (see
 *		the header); NULL if it has nothing to redact.
 */
char *
bk_redact_statement(const char *text)
{
	const char *end = text + strlen(text);
	bool		backslash = memchr(text, '\\', end - text) != NULL;
	char	   *std;
	char	   *esc;

	if (!rd_may_be_sensitive(text, end) ||
		(!rd_sensitive(text, end, true) && !(backslash && rd_sensitive(text, end, false))))
		return NULL;
	std = rd_rewrite(text, end, true);
	if (!backslash)
		return std;
	esc = rd_rewrite(text, end, false);
	if (strcmp(std, esc) == 0)
		return std;
	return rd_first_word(text, end);
}

/*
 * bench_redact_statement
 *		SQL function bench._redact_statement(query): the text of a statement
 *		with what could be a secret redacted, as samples keep it.
 */
Datum
bench_redact_statement(PG_FUNCTION_ARGS)
{
	char	   *redacted;

	bk_check_call(fcinfo, 1, "bench._redact_statement");
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	redacted = bk_redact_statement(text_to_cstring(PG_GETARG_TEXT_PP(0)));
	if (redacted == NULL)
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	PG_RETURN_TEXT_P(cstring_to_text(redacted));
}
