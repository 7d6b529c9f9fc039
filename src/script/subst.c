/*-------------------------------------------------------------------------
 *
 * subst.c
 *		The variables in the text of a statement: its :name, :'name',
 *		:{name} and lists, :name[*] and :(a, b, ...)[*], found when the
 *		script is parsed (each :name turned into $n for the extended and
 *		prepared protocols), and their values put in when a client runs
 *		it: identifier variables, :{name}, checked and put into the text
 *		itself; lists expanded into as many parameters as their arrays have
 *		elements (numbered after the statement's :names), or into literals
 *		for the simple protocol; for the simple protocol every :name too,
 *		as pgbench's assignVariables puts it in.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"

#include "script/sql_scan.h"
#include "script/subst.h"
#include "script/value.h"
#include "script/vars.h"

/*
 * one :name, :{name} or list in a statement: where it is in
 * BkStatement.sql, which variable
 */
typedef struct BkSqlRef
{
	int			off;			/* offset of the colon */
	int			len;			/* length of ":name", ":'name'", ":{name}",
								 * ":name[*]" or ":(a, b)[*]" */
	int			var;			/* a list's: its first */
	int			param;			/* :name, :'name': its $n; else 0 */
	bool		quoted;			/* :'name': a literal in the simple protocol */
	const char *ident;			/* :{name}: the name (for errors); NULL */
	const char *name;			/* :name, :'name': the name (for errors) */

	/* a list, :name[*] or :(a, b, ...)[*] (row): its variables */
	int			nlist;			/* 0: no list */
	bool		row;			/* :( ... )[*]: rows in parentheses */
	int		   *list_vars;
	char	  **list_names;		/* for errors */
} BkSqlRef;

/* every :name, :{name} and list of a statement, in the order of the text */
struct BkSqlSubst
{
	int			sqllen;			/* strlen(BkStatement.sql) */
	int			nrefs;
	BkSqlRef	refs[FLEXIBLE_ARRAY_MEMBER];
};

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
 * bk_sql_list_len
 *		The length of the list at the colon P, 0 if P is none: ":name[*]"
 *		(*NAMES gets the name) or ":(a, b, ...)[*]" (*ROW true, *NAMES the
 *		names, blanks allowed around them); *NNAMES how many.  pgbench reads
 *		":name" and leaves "[*]", which no SQL takes, and no ":(" at all,
 *		so its scripts keep their meaning.
 */
static int
bk_sql_list_len(const char *p, bool *row, char ***names, int *nnames)
{
	int			i = 1;

	*nnames = 0;
	if (p[1] == '(')
	{
		int			max = 4;

		*row = true;
		*names = palloc(sizeof(char *) * max);
		i = 2;
		for (;;)
		{
			int			start;

			while (bk_is_sql_space(p[i]))
				i++;
			if (!bk_is_name_start((unsigned char) p[i]))
				return 0;
			start = i;
			while (bk_is_name_char((unsigned char) p[i]))
				i++;
			if (*nnames == max)
			{
				max *= 2;
				*names = repalloc(*names, sizeof(char *) * max);
			}
			(*names)[(*nnames)++] = pnstrdup(p + start, i - start);
			while (bk_is_sql_space(p[i]))
				i++;
			if (p[i] == ')')
				break;
			if (p[i] != ',')
				return 0;
			i++;
		}
		i++;
	}
	else
	{
		int			len = bk_sql_name_len(p);

		/* the common case, :name alone, allocates nothing */
		if (len == 0 || p[1 + len] != '[' || p[2 + len] != '*' || p[3 + len] != ']')
			return 0;
		*row = false;
		*names = palloc(sizeof(char *));
		(*names)[0] = pnstrdup(p + 1, len);
		*nnames = 1;
		i = 1 + len;
	}
	if (p[i] != '[' || p[i + 1] != '*' || p[i + 2] != ']')
		return 0;
	return i + 3;
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
void
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
	stmt->nlists = 0;
	p = sql;
	while ((p = strchr(p, ':')) != NULL)
	{
		int			quotedlen = bk_sql_quoted_len(p);
		int			namelen = quotedlen > 0 ? quotedlen - 3 : bk_sql_name_len(p);
		int			identlen = bk_sql_ident_len(p);
		int			listlen = 0;
		bool		row = false;
		char	  **names = NULL;
		int			nnames = 0;
		char	   *name;
		int			var;
		int			n;
		BkSqlRef   *ref;

		if (quotedlen == 0 && identlen == 0 && (p == sql || p[-1] != ':'))
			listlen = bk_sql_list_len(p, &row, &names, &nnames);
		if (listlen > 0)
		{
			/* a list: left in sql_params, expanded when the statement runs */
			ref = &subst->refs[subst->nrefs++];
			memset(ref, 0, sizeof(*ref));
			ref->off = (int) (p - sql);
			ref->len = listlen;
			ref->nlist = nnames;
			ref->row = row;
			ref->list_names = names;
			ref->list_vars = palloc(sizeof(int) * nnames);
			for (int k = 0; k < nnames; k++)
				ref->list_vars[k] = bk_var_lookup(script->vt, names[k], true);
			ref->var = ref->list_vars[0];
			stmt->nlists++;
			p += listlen;
			continue;
		}
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
			ref->nlist = 0;
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
		ref->name = name;
		ref->quoted = quotedlen > 0;
		ref->nlist = 0;

		p += ref->len;
		copied = p;
	}
	appendStringInfoString(&buf, copied);
	stmt->sql_params = buf.data;
	stmt->subst = subst;
	stmt->nrefs = subst->nrefs - stmt->nidents - stmt->nlists;
	stmt->dynamic = stmt->nidents > 0 || stmt->nlists > 0;
	stmt->ident_utility = stmt->dynamic && bk_sql_may_be_utility(sql);
}

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

/* a list's element that is SQL's null: bound as a variable never set is */
static const BkValue bk_null_param = {BK_VAL_UNDEF};

/*
 * bk_list_rows
 *		The number of rows of list REF with variables VARS: the length of
 *		its arrays, which must all have it (a scalar variable repeats in
 *		every row; with no array, one row).  An error when there is none, a
 *		variable is not set, or two arrays differ in length.
 */
static int
bk_list_rows(const BkSqlRef *ref, const BkValue *vars)
{
	int			rows = -1;
	int			first = -1;

	for (int k = 0; k < ref->nlist; k++)
	{
		const BkValue *v = &vars[ref->list_vars[k]];

		if (v->kind == BK_VAL_UNDEF)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("undefined variable \"%s\"", ref->list_names[k]),
					 errhint("Set it with \\set, \\garray or \\gset before the command that reads it.")));
		if (v->kind != BK_VAL_ARRAY)
			continue;
		if (rows >= 0 && v->a->n != rows)
			ereport(ERROR,
					(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
					 errmsg("array variables \"%s\" and \"%s\" of a list differ in length: %d and %d",
							ref->list_names[first], ref->list_names[k], rows, v->a->n),
					 errhint("A list :(a, b, ...)[*] makes one row of each index of its arrays, which all have as many elements.")));
		if (rows < 0)
		{
			rows = v->a->n;
			first = k;
		}
	}
	if (rows == 0)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("array variable \"%s\" of a list is empty", ref->list_names[first]),
				 errhint("A list in a statement needs one element at least: test array_length() first.")));
	return rows < 0 ? 1 : rows;
}

/*
 * bk_list_value
 *		The value in ROW (from 0) of the K-th variable of list REF: an
 *		array's element, or a scalar variable itself.
 */
static inline const BkValue *
bk_list_value(const BkSqlRef *ref, const BkValue *vars, int k, int row)
{
	const BkValue *v = &vars[ref->list_vars[k]];

	return v->kind == BK_VAL_ARRAY ? &v->a->elems[row] : v;
}

/*
 * bk_list_append
 *		List REF with variables VARS onto BUF: with PARAMS, each value a
 *		parameter $n, numbered from *NPARAMS + 1 on and added to PARAMS
 *		(*NPARAMS counts them); without, each value written as a literal,
 *		as :'name' writes one, and NULL for a null.  Rows in parentheses
 *		for :( ... )[*]; values and rows separated by ", ".
 */
static void
bk_list_append(StringInfo buf, const BkSqlRef *ref, const BkValue *vars,
			   const BkValue **params, int *nparams)
{
	int			rows = bk_list_rows(ref, vars);

	for (int r = 0; r < rows; r++)
	{
		if (r > 0)
			appendStringInfoString(buf, ", ");
		if (ref->row)
			appendStringInfoChar(buf, '(');
		for (int k = 0; k < ref->nlist; k++)
		{
			const BkValue *v = bk_list_value(ref, vars, k, r);

			if (k > 0)
				appendStringInfoString(buf, ", ");
			if (params != NULL)
			{
				if (*nparams >= BK_MAX_PARAMS)
					ereport(ERROR,
							(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
							 errmsg("statement has more than %d parameters with its lists",
									BK_MAX_PARAMS),
							 errhint("Send fewer elements at a time.")));
				params[(*nparams)++] = v->kind == BK_VAL_NULL ? &bk_null_param : v;
				appendStringInfo(buf, "$%d", *nparams);
			}
			else if (v->kind == BK_VAL_NULL)
				appendStringInfoString(buf, "NULL");
			else if (v->kind == BK_VAL_STRING)
				bk_quote_literal(buf, v->s);
			else
			{
				char		text[BK_VALUE_TEXT_LEN];

				text[bk_value_format(v, text)] = '\0';
				bk_quote_literal(buf, text);
			}
		}
		if (ref->row)
			appendStringInfoChar(buf, ')');
	}
}

/*
 * bk_list_count
 *		How many values the lists of STMT hold with variables VARS.
 */
static int
bk_list_count(const BkSqlSubst *subst, const BkValue *vars)
{
	int64		n = 0;

	for (int i = 0; i < subst->nrefs; i++)
	{
		if (subst->refs[i].nlist > 0)
			n += (int64) bk_list_rows(&subst->refs[i], vars) * subst->refs[i].nlist;
	}
	return (int) Min(n, BK_MAX_PARAMS);
}

/*
 * bk_sql_dynamic
 *		Statement STMT, which has identifier variables or lists, for the
 *		extended and prepared protocols, with variables VARS: into OUT its
 *		text (sql_params with its :{name}s put in, each checked by
 *		bk_ident_text, and its lists expanded into parameters numbered
 *		after its variables') and the values of all its parameters, palloc'd.
 */
void
bk_sql_dynamic(const BkStatement *stmt, const BkValue *vars, BkSqlText *out)
{
	const BkSqlSubst *subst = stmt->subst;
	StringInfoData buf;
	int			done = 0;
	int			nparams = stmt->nparams;

	out->params = palloc(sizeof(BkValue *) *
						 Max(stmt->nparams + (stmt->nlists > 0 ? bk_list_count(subst, vars) : 0), 1));
	for (int p = 0; p < stmt->nparams; p++)
		out->params[p] = &vars[stmt->param_vars[p]];

	initStringInfo(&buf);
	for (int i = 0; i < subst->nrefs; i++)
	{
		const BkSqlRef *ref = &subst->refs[i];
		char		text[BK_VALUE_TEXT_LEN];

		appendBinaryStringInfo(&buf, stmt->sql + done, ref->off - done);
		if (ref->nlist > 0)
			bk_list_append(&buf, ref, vars, out->params, &nparams);
		else if (ref->ident != NULL)
			appendStringInfoString(&buf, bk_ident_text(ref, vars, text));
		else
		{
			if (vars[ref->var].kind == BK_VAL_ARRAY)
				bk_var_not_array(ref->name);
			appendStringInfo(&buf, "$%d", ref->param);
		}
		done = ref->off + ref->len;
	}
	appendBinaryStringInfo(&buf, stmt->sql + done, subst->sqllen - done);
	out->sql = buf.data;
	out->nparams = nparams;
}

/*
 * bk_sql_substitute
 *		Statement STMT for the simple protocol: the values of its identifier
 *		variables, :{name}, put in (checked by bk_ident_text), its lists
 *		expanded into literals, and each :name whose variable is set
 *		replaced by its value as text, the others left as written
 *		(pgbench's assignVariables).  A palloc'd string, built from
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
		if (ref->nlist > 0)
			bk_list_append(&buf, ref, vars, NULL, NULL);
		else if (ref->ident != NULL)
		{
			char		text[BK_VALUE_TEXT_LEN];

			appendStringInfoString(&buf, bk_ident_text(ref, vars, text));
		}
		else if (v->kind == BK_VAL_UNDEF)
			appendBinaryStringInfo(&buf, stmt->sql + ref->off, ref->len);
		else if (v->kind == BK_VAL_ARRAY)
			bk_var_not_array(ref->name);
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
