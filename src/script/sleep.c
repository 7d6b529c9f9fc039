/*-------------------------------------------------------------------------
 *
 * sleep.c
 *		\sleep: its argument, read when the script is parsed as pgbench
 *		reads it (an integer or a :variable, and a unit), and how long it
 *		sleeps when a client runs it (pgbench's evaluateSleep).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>

#include "common/int.h"

#include "script/sleep.h"
#include "script/value.h"
#include "script/vars.h"

/* the longest \sleep, in microseconds: its nanoseconds fit in an int64 */
#define BK_SLEEP_MAX_USEC		(PG_INT64_MAX / 1000)

/*
 * bk_parse_sleep
 *		\sleep n [us | ms | s], as pgbench's process_backslash_command reads
 *		it: n is an integer constant (optionally signed, its unit possibly
 *		glued to it, as in 10ms) or a :variable; seconds by default.
 */
void
bk_parse_sleep(BkScriptParser *sp, BkCommand *cmd, BkWord *words, int nwords)
{
	const char *hint = "Write \\sleep followed by an integer or a :variable and a unit, us, ms or s (the default), as in \\sleep 10 ms.";
	BkWord		arg;
	BkWord		unit = {0};
	bool		have_unit = false;

	if (nwords < 2)
		bk_syntax_error(sp, cmd->line, 0, "sleep", hint, "missing argument");
	if (nwords > 3)
		bk_syntax_error(sp, words[3].line, words[3].column, "sleep", hint,
						"too many arguments");
	arg = words[1];
	if (nwords == 3)
	{
		unit = words[2];
		have_unit = true;
	}

	if (arg.start[0] == ':')
	{
		char	   *name = pnstrdup(arg.start + 1, arg.len - 1);

		if (!bk_valid_var_name(name))
			bk_syntax_error(sp, arg.line, arg.column, "sleep",
							"A variable name is made of letters, digits and underscores, and does not start with a digit.",
							"invalid variable name \"%s\"", name);
		cmd->sleep_var = bk_var_lookup(sp->script->vt, name, true);
	}
	else
	{
		int			i = 0;
		bool		negative = false;
		bool		have_digit = false;
		int64		value = 0;

		if (arg.start[i] == '+' || arg.start[i] == '-')
			negative = (arg.start[i++] == '-');
		while (i < arg.len && isdigit((unsigned char) arg.start[i]))
		{
			int			digit = arg.start[i++] - '0';

			have_digit = true;
			if (pg_mul_s64_overflow(value, 10, &value) ||
				pg_add_s64_overflow(value, negative ? -digit : digit, &value))
				bk_syntax_error(sp, arg.line, arg.column, "sleep", hint,
								"sleep time out of range (%s)", bk_word(&arg));
		}
		if (i < arg.len)
		{
			/* "10ms": the unit glued to the number */
			if (nwords == 2 && have_digit)
			{
				unit.start = arg.start + i;
				unit.len = arg.len - i;
				unit.line = arg.line;
				unit.column = arg.column + i;
				have_unit = true;
			}
			else
				bk_syntax_error(sp, arg.line, arg.column, "sleep", hint,
								"invalid sleep time, must be an integer (%s)",
								bk_word(&arg));
		}
		cmd->sleep_value = value;
	}

	cmd->sleep_unit_us = 1000000;
	if (have_unit)
	{
		if (unit.len == 2 && pg_strncasecmp(unit.start, "us", 2) == 0)
			cmd->sleep_unit_us = 1;
		else if (unit.len == 2 && pg_strncasecmp(unit.start, "ms", 2) == 0)
			cmd->sleep_unit_us = 1000;
		else if (unit.len == 1 && pg_strncasecmp(unit.start, "s", 1) == 0)
			cmd->sleep_unit_us = 1000000;
		else
			bk_syntax_error(sp, unit.line, unit.column, "sleep", hint,
							"unrecognized time unit, must be us, ms or s (%s)",
							bk_word(&unit));
	}
	if (cmd->sleep_var < 0)
	{
		int64		usec;

		if (pg_mul_s64_overflow(cmd->sleep_value, cmd->sleep_unit_us, &usec))
			bk_syntax_error(sp, arg.line, arg.column, "sleep", hint,
							"sleep time out of range (%s)", bk_word(&arg));
	}
}

/*
 * bk_sleep_usec
 *		How long the \sleep CMD of SCRIPT sleeps, in microseconds, with
 *		variables VARS: pgbench's evaluateSleep.  Errors do not say where
 *		the command is: the client adds that.  A variable's value is read
 *		as text as atoi() reads it (blanks, a sign, digits, and whatever
 *		follows ignored), and must not read as 0 unless it starts with a
 *		digit; so 2.7 sleeps 2 units and "true" is an error.  A negative
 *		time sleeps no time, and none sleeps longer than BK_SLEEP_MAX_USEC
 *		(292 years), so that its nanoseconds fit in an int64.
 */
int64
bk_sleep_usec(const BkScript *script, const BkCommand *cmd, const BkValue *vars)
{
	int64		value = cmd->sleep_value;
	int64		usec;

	if (cmd->sleep_var >= 0)
	{
		const BkValue *v = &vars[cmd->sleep_var];
		const char *name = script->vt->names[cmd->sleep_var];
		char		buf[BK_VALUE_TEXT_LEN];
		const char *text;
		const char *p;
		bool		negative = false;

		if (v->kind == BK_VAL_UNDEF)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("undefined variable \"%s\" in command \"sleep\"", name),
					 errhint("Set it with \\set or \\gset before the \\sleep.")));
		text = (v->kind == BK_VAL_STRING) ? v->s : bk_value_text(v, buf, sizeof(buf));

		p = text;
		while (isspace((unsigned char) *p))
			p++;
		if (*p == '+' || *p == '-')
			negative = (*p++ == '-');
		value = 0;
		for (; isdigit((unsigned char) *p); p++)
		{
			int			digit = *p - '0';

			if (pg_mul_s64_overflow(value, 10, &value) ||
				pg_add_s64_overflow(value, negative ? -digit : digit, &value))
				ereport(ERROR,
						(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
						 errmsg("sleep time \"%s\" for variable \"%s\" out of range in command \"sleep\"",
								text, name)));
		}
		if (value == 0 && !isdigit((unsigned char) *text))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid sleep time \"%s\" for variable \"%s\" in command \"sleep\"",
							text, name),
					 errhint("The variable of a \\sleep must hold an integer.")));
	}

	if (pg_mul_s64_overflow(value, cmd->sleep_unit_us, &usec))
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("sleep time out of range in command \"sleep\""),
				 errdetail("It is " INT64_FORMAT " times " INT64_FORMAT " microseconds.",
						   value, cmd->sleep_unit_us)));
	return Min(Max(usec, 0), BK_SLEEP_MAX_USEC);
}
