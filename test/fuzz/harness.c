/*-------------------------------------------------------------------------
 *
 * harness.c
 *		What one fuzzing input does, for each of the two targets (and for
 *		the replay of saved inputs, which prints the outcome):
 *
 *	script	the input is a script: bk_script_parse, then each command once,
 *			in order, as the runner would meet it: \set evaluates and
 *			assigns (an element of an array too), \unset unsets, \if,
 *			\elif and \while evaluate and take the truth, \sleep computes
 *			its time, SQL gets its variables substituted (and, with
 *			identifier variables or lists, its text for the extended
 *			protocol made).  An ERROR of one command does not stop the next.
 *	expr	the input is an expression, optionally followed by a newline
 *			and a text that variable :s holds (as \gset or a run's
 *			variables give text): bk_expr_parse, then bk_expr_eval.
 *
 * The input must be text a UTF8 database could hold (valid UTF8, no NUL):
 * anything else is not a script the server could be given, and is
 * skipped.  An ERROR is a normal outcome.  Memory is freed between
 * inputs.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"

#include "script/script.h"
#include "script/expr.h"
#include "script/expr_eval.h"
#include "script/expr_parse.h"
#include "script/parse.h"
#include "script/sleep.h"
#include "script/subst.h"
#include "script/value.h"
#include "script/vars.h"
#include "harness.h"
#include "pgstub.h"

/* the longest input read: scripts are small, and time is better spent */
#define BK_FUZZ_MAX_INPUT		(64 * 1024)

static StringInfoData bk_outcome;

static void
bk_outcome_error(const char *what)
{
	appendStringInfo(&bk_outcome, "%s: ERROR %s: %s\n", what,
					 bk_stub_sqlstate(bk_stub_error.sqlerrcode), bk_stub_error.message);
}

static void
bk_outcome_value(const char *what, const BkValue *v)
{
	char		text[BK_VALUE_TEXT_LEN];

	bk_value_format(v, text);
	appendStringInfo(&bk_outcome, "%s: %s\n", what, text);
}

/* the variables every client has, as a run of scale 1 sets them */
static BkValue *
bk_fuzz_vars(BkVarTable *vt)
{
	BkValue    *vars = palloc0(sizeof(BkValue) * vt->nvars);

	vars[BK_VAR_SCALE].kind = BK_VAL_INT;
	vars[BK_VAR_SCALE].i = 1;
	vars[BK_VAR_CLIENT_ID].kind = BK_VAL_INT;
	vars[BK_VAR_CLIENT_ID].i = 0;
	vars[BK_VAR_RANDOM_SEED].kind = BK_VAL_INT;
	vars[BK_VAR_RANDOM_SEED].i = 12345;
	vars[BK_VAR_DEFAULT_SEED].kind = BK_VAL_INT;
	vars[BK_VAR_DEFAULT_SEED].i = 67890;
	return vars;
}

/* \set of command I of SCRIPT: a variable, or an element of an array */
static void
bk_fuzz_set(BkScript *script, int i, BkValue *vars, BkPrng *prng, BkValue *v)
{
	BkCommand  *cmd = &script->commands[i];
	BkValue		ix;

	if (cmd->expr->kind == BK_EXPR_ELEM)
	{
		*v = *bk_expr_element(script, i, cmd->expr, vars, prng);
		if (v->kind == BK_VAL_STRING)
			v->s = pstrdup(v->s);
	}
	else
		bk_expr_eval(script, i, cmd->expr, vars, prng, v);
	if (cmd->index == NULL)
	{
		bk_var_assign(&vars[cmd->var], v, CurrentMemoryContext);
		return;
	}
	memset(&ix, 0, sizeof(ix));
	bk_expr_eval(script, i, cmd->index, vars, prng, &ix);
	if (ix.kind == BK_VAL_NULL)
		elog(ERROR, "null index");
	bk_var_set_element(&vars[cmd->var], script->vt->names[cmd->var], bk_to_int(&ix),
					   v, CurrentMemoryContext);
}

/* run every command of SCRIPT once, in order */
static void
bk_fuzz_commands(BkScript *script)
{
	BkValue    *vars = bk_fuzz_vars(script->vt);
	BkPrng		prng;

	bk_prng_seed(&prng, 42);
	for (int i = 0; i < script->ncommands; i++)
	{
		BkCommand  *cmd = &script->commands[i];
		char		what[32];
		BkValue		v;
		bool		truth = false;
		int64		usec = 0;
		char	   *volatile sql = NULL;

		snprintf(what, sizeof(what), "command %d", i + 1);
		memset(&v, 0, sizeof(v));
		switch (cmd->kind)
		{
			case BK_CMD_SET:
				if (BK_STUB_TRY(bk_fuzz_set(script, i, vars, &prng, &v)))
					bk_outcome_error(what);
				else
					bk_outcome_value(what, &v);
				break;
			case BK_CMD_UNSET:
				bk_var_unset(&vars[cmd->var]);
				appendStringInfo(&bk_outcome, "%s: unset\n", what);
				break;
			case BK_CMD_IF:
			case BK_CMD_ELIF:
			case BK_CMD_WHILE:
				if (BK_STUB_TRY(bk_expr_eval(script, i, cmd->expr, vars, &prng, &v);
								truth = bk_value_truth(script, i, &v)))
					bk_outcome_error(what);
				else
					appendStringInfo(&bk_outcome, "%s: %s\n", what, truth ? "true" : "false");
				break;
			case BK_CMD_SLEEP:
				if (BK_STUB_TRY(usec = bk_sleep_usec(script, cmd, vars)))
					bk_outcome_error(what);
				else
					appendStringInfo(&bk_outcome, "%s: sleep " INT64_FORMAT " us\n", what, usec);
				break;
			case BK_CMD_SQL:
			case BK_CMD_BEGIN:
			case BK_CMD_COMMIT:
			case BK_CMD_ROLLBACK:
				for (int j = 0; j < cmd->nstmts; j++)
				{
					if (BK_STUB_TRY(sql = bk_sql_substitute(&cmd->stmts[j], vars)))
						bk_outcome_error(what);
					else
					{
						/* the statement sent, on one line */
						appendStringInfo(&bk_outcome, "%s: SQL ", what);
						for (const char *c = sql; *c; c++)
						{
							if (*c == '\n')
								appendStringInfoString(&bk_outcome, "\\n");
							else if (*c == '\\')
								appendStringInfoString(&bk_outcome, "\\\\");
							else
								appendStringInfoChar(&bk_outcome, *c);
						}
						appendStringInfoChar(&bk_outcome, '\n');
					}
					if (cmd->stmts[j].dynamic)
					{
						BkSqlText	text;

						if (BK_STUB_TRY(bk_sql_dynamic(&cmd->stmts[j], vars, &text)))
							bk_outcome_error(what);
						else
							appendStringInfo(&bk_outcome, "%s: %d parameters\n", what,
											 text.nparams);
					}
				}
				break;
			default:
				appendStringInfo(&bk_outcome, "%s: meta-command\n", what);
				break;
		}
	}
}

static void
bk_fuzz_script_text(const char *text)
{
	BkVarTable *volatile vt = NULL;
	BkScript   *volatile script = NULL;

	if (BK_STUB_TRY(vt = bk_vartable_create();
					script = bk_script_parse(text, "fuzz", vt)))
	{
		bk_outcome_error("parse");
		return;
	}
	appendStringInfo(&bk_outcome, "parse: %d commands, %d variables\n",
					 script->ncommands, vt->nvars);
	bk_fuzz_commands(script);
}

static void
bk_fuzz_expr_text(char *text)
{
	char	   *nl = strchr(text, '\n');
	const char *svalue = NULL;
	BkVarTable *volatile vt = NULL;
	BkScript   *script;
	BkExpr	   *volatile expr = NULL;
	BkValue    *vars;
	BkValue		v;
	BkPrng		prng;
	int			s;

	if (nl != NULL)
	{
		*nl = '\0';
		svalue = nl + 1;
	}
	if (BK_STUB_TRY(vt = bk_vartable_create()))
	{
		bk_outcome_error("vartable");
		return;
	}
	/* a script of one \set, for the messages */
	script = palloc0(sizeof(BkScript));
	script->name = pstrdup("fuzz");
	script->vt = vt;
	script->ncommands = 1;
	script->commands = palloc0(sizeof(BkCommand));
	script->commands[0].kind = BK_CMD_SET;
	script->commands[0].line = 1;
	script->commands[0].text = psprintf("\\set x %s", text);
	script->commands[0].var = bk_var_lookup(vt, "x", true);
	if (BK_STUB_TRY(expr = bk_expr_parse(script, text, 1, 8, "set")))
	{
		bk_outcome_error("parse");
		return;
	}
	script->commands[0].expr = expr;
	vars = bk_fuzz_vars(vt);
	s = bk_var_lookup(vt, "s", false);
	if (s >= 0 && svalue != NULL)
		bk_var_set_string(&vars[s], svalue, CurrentMemoryContext);
	bk_prng_seed(&prng, 42);
	memset(&v, 0, sizeof(v));
	if (BK_STUB_TRY(bk_expr_eval(script, 0, expr, vars, &prng, &v)))
		bk_outcome_error("eval");
	else
		bk_outcome_value("eval", &v);
}

/*
 * bk_fuzz_one
 *		Run one input through the target; the outcome (one line per step)
 *		or NULL when the input is skipped.  Valid until the next call.
 */
const char *
bk_fuzz_one(BkFuzzTarget target, const uint8_t *data, size_t size)
{
	static char *outcome = NULL;
	char	   *text;

	free(outcome);
	outcome = NULL;
	if (size > BK_FUZZ_MAX_INPUT || !bk_stub_valid_text((const char *) data, size))
		return NULL;

	bk_stub_set_stack_base();
	text = palloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	initStringInfo(&bk_outcome);
	if (target == BK_FUZZ_SCRIPT)
		bk_fuzz_script_text(text);
	else
		bk_fuzz_expr_text(text);
	outcome = strdup(bk_outcome.data);
	bk_stub_reset();
	return outcome;
}
