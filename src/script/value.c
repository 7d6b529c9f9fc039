/*-------------------------------------------------------------------------
 *
 * value.c
 *		The values of variables and expressions (BkValue), as pgbench treats
 *		them: a variable's text read as a value (pgbench's makeVariableValue,
 *		with its strtoint64 and strtodouble, which the tokenizer reads
 *		numbers with too), the coercions of a value to a boolean, an integer
 *		or a double, its truth, and a value as the text that goes into SQL.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <float.h>
#include <math.h>

#include "common/int.h"

#include "script/value.h"

/* ------------------------------------------------------------------------
 * Text as a value
 * ------------------------------------------------------------------------
 */

/*
 * bk_strtoint64
 *		pgbench's strtoint64: STR, blanks around allowed, as a bigint into
 *		*RESULT; false if it is not one (*OUT_OF_RANGE tells why).
 */
bool
bk_strtoint64(const char *str, int64 *result, bool *out_of_range)
{
	const char *p = str;
	int64		tmp = 0;
	bool		neg = false;

	*out_of_range = false;
	while (bk_is_space(*p) || *p == '\n')
		p++;
	if (*p == '-')
	{
		p++;
		neg = true;
	}
	else if (*p == '+')
		p++;
	if (!bk_is_digit(*p))
		return false;

	/* accumulate as a negative number, the larger range */
	while (bk_is_digit(*p))
	{
		int			digit = *p++ - '0';

		if (pg_mul_s64_overflow(tmp, 10, &tmp) ||
			pg_sub_s64_overflow(tmp, digit, &tmp))
		{
			*out_of_range = true;
			return false;
		}
	}
	while (bk_is_space(*p) || *p == '\n')
		p++;
	if (*p != '\0')
		return false;
	if (!neg)
	{
		if (tmp == PG_INT64_MIN)
		{
			*out_of_range = true;
			return false;
		}
		tmp = -tmp;
	}
	*result = tmp;
	return true;
}

/*
 * bk_strtodouble
 *		pgbench's strtodouble: the whole of STR as a double into *RESULT;
 *		false if it is not one or is out of range (overflow or underflow).
 */
bool
bk_strtodouble(const char *str, double *result)
{
	char	   *end;

	errno = 0;
	*result = strtod(str, &end);
	return errno == 0 && end != str && *end == '\0';
}

/* the name of V's type, for messages (pgbench's valueTypeName) */
static const char *
bk_type_name(const BkValue *v)
{
	switch (v->kind)
	{
		case BK_VAL_NULL:
			return "null";
		case BK_VAL_BOOL:
			return "boolean";
		case BK_VAL_INT:
			return "int";
		case BK_VAL_DOUBLE:
			return "double";
		default:
			return "none";
	}
}

/*
 * bk_is_an_int
 *		pgbench's is_an_int: whether STR looks like an integer, blanks
 *		first and a sign allowed ("-" alone does, as in pgbench).
 */
static bool
bk_is_an_int(const char *str)
{
	const char *p = str;

	while (bk_is_space(*p) || *p == '\n')
		p++;
	if (*p == '+' || *p == '-')
		p++;
	if (*p != '\0' && !bk_is_digit(*p))
		return false;
	while (bk_is_digit(*p))
		p++;
	return *p == '\0';
}

/*
 * bk_string_value
 *		The value of variable NAME holding the string S, read as pgbench's
 *		makeVariableValue reads one: null, a boolean (prefixes of true, yes,
 *		false and no; on, off, of), an integer, else a double.
 */
void
bk_string_value(const char *name, const char *s, BkValue *ret)
{
	size_t		slen = strlen(s);

	if (slen == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("malformed variable \"%s\" value: \"%s\"", name, s),
				 errhint("An empty string is no value an expression can read.")));

	if (pg_strcasecmp(s, "null") == 0)
		bk_set_null(ret);
	else if (pg_strncasecmp(s, "true", slen) == 0 ||
			 pg_strncasecmp(s, "yes", slen) == 0 ||
			 pg_strcasecmp(s, "on") == 0)
		bk_set_bool(ret, true);
	else if (pg_strncasecmp(s, "false", slen) == 0 ||
			 pg_strncasecmp(s, "no", slen) == 0 ||
			 pg_strcasecmp(s, "off") == 0 ||
			 pg_strcasecmp(s, "of") == 0)
		bk_set_bool(ret, false);
	else if (bk_is_an_int(s))
	{
		int64		i;
		bool		out_of_range;

		if (!bk_strtoint64(s, &i, &out_of_range))
		{
			if (out_of_range)
				ereport(ERROR,
						(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
						 errmsg("value \"%s\" is out of range for type bigint", s),
						 errhint("Variable \"%s\" holds an integer beyond the range of bigint.", name)));
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type bigint: \"%s\"", s),
					 errhint("Variable \"%s\" holds a sign without digits.", name)));
		}
		bk_set_int(ret, i);
	}
	else
	{
		double		d;

		if (!bk_strtodouble(s, &d))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("malformed variable \"%s\" value: \"%s\"", name, s),
					 errhint("An expression reads a variable's text as NULL, a boolean, an integer or a double.")));
		bk_set_double(ret, d);
	}
}

/* ------------------------------------------------------------------------
 * Coercions
 * ------------------------------------------------------------------------
 */

/*
 * bk_to_bool
 *		V as a boolean; only a boolean is one.
 */
bool
bk_to_bool(const BkValue *v)
{
	if (v->kind != BK_VAL_BOOL)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("cannot coerce %s to boolean", bk_type_name(v)),
				 errhint("AND, OR and NOT take booleans; compare numbers, as in :x <> 0, to make one.")));
	return v->b;
}

/*
 * bk_to_int
 *		V as an integer: doubles are rounded to the nearest.
 */
int64
bk_to_int(const BkValue *v)
{
	if (v->kind == BK_VAL_INT)
		return v->i;
	if (v->kind == BK_VAL_DOUBLE)
	{
		double		d = rint(v->d);

		if (isnan(d) || !FLOAT8_FITS_IN_INT64(d))
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("double to int overflow for %f", d),
					 errhint("A double used as an integer must lie within the range of bigint.")));
		return (int64) d;
	}
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("cannot coerce %s to int", bk_type_name(v)),
			 errhint("Use a CASE expression to turn a boolean into a number.")));
	return 0;					/* keep the compiler quiet */
}

/*
 * bk_to_double
 *		V as a double.
 */
double
bk_to_double(const BkValue *v)
{
	if (v->kind == BK_VAL_DOUBLE)
		return v->d;
	if (v->kind == BK_VAL_INT)
		return (double) v->i;
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("cannot coerce %s to double", bk_type_name(v)),
			 errhint("Use a CASE expression to turn a boolean into a number.")));
	return 0.0;					/* keep the compiler quiet */
}

/*
 * bk_truth
 *		Whether V counts as true for CASE, \if and \elif (pgbench's
 *		valueTruth): true, or a number other than zero; null is false.
 */
bool
bk_truth(const BkValue *v)
{
	switch (v->kind)
	{
		case BK_VAL_BOOL:
			return v->b;
		case BK_VAL_INT:
			return v->i != 0;
		case BK_VAL_DOUBLE:
			return v->d != 0.0;
		default:
			return false;
	}
}

/* ------------------------------------------------------------------------
 * Values as text
 * ------------------------------------------------------------------------
 */

/*
 * bk_value_format
 *		Write V at OUT (BK_VALUE_TEXT_LEN bytes) as pgbench's getVariable
 *		makes the text of a variable, which is what pgbench puts into SQL:
 *		integers in decimal, doubles with %.15g (so "Infinity", "NaN"), true
 *		and false, NULL (the four letters, not SQL's null).  An unset
 *		variable is the empty string; a string is cut to the room there is
 *		(callers substitute strings themselves).  Returns the length.
 */
int
bk_value_format(const BkValue *v, char *out)
{
	switch (v->kind)
	{
		case BK_VAL_INT:
			return snprintf(out, BK_VALUE_TEXT_LEN, INT64_FORMAT, v->i);
		case BK_VAL_DOUBLE:
			return snprintf(out, BK_VALUE_TEXT_LEN, "%.*g", DBL_DIG, v->d);
		case BK_VAL_BOOL:
			return snprintf(out, BK_VALUE_TEXT_LEN, "%s", v->b ? "true" : "false");
		case BK_VAL_NULL:
			return snprintf(out, BK_VALUE_TEXT_LEN, "NULL");
		case BK_VAL_STRING:
			strlcpy(out, v->s, BK_VALUE_TEXT_LEN);
			return (int) strlen(out);
		case BK_VAL_UNDEF:
		case BK_VAL_ARRAY:		/* never read as one value (bk_var_not_array) */
			break;
	}
	out[0] = '\0';
	return 0;
}

/*
 * bk_value_text
 *		VALUE as text, as pgbench puts it into a query, in BUF of LEN bytes
 *		(cut if too short: BK_VALUE_TEXT_LEN is always enough but for a
 *		string).  Returns BUF.
 */
char *
bk_value_text(const BkValue *value, char *buf, size_t len)
{
	char		text[BK_VALUE_TEXT_LEN];

	if (value->kind == BK_VAL_STRING)
	{
		strlcpy(buf, value->s, len);
		return buf;
	}
	bk_value_format(value, text);
	strlcpy(buf, text, len);
	return buf;
}

