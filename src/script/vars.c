/*-------------------------------------------------------------------------
 *
 * vars.c
 *		The variables of pgbench's script language: the table of variable
 *		names that the scripts of a workload share (BkVarTable), which names
 *		\set may set, and setting a client's variable to a value.
 *
 * A variable is an index into the table; each client keeps its own values,
 * one BkValue per name.  What a value is, and its text, is value.c's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/memutils.h"

#include "script/vars.h"

/* first size of BkVarTable.names, which doubles whenever it is full */
#define BK_VARNAMES_INIT		8

/*
 * bk_valid_var_name
 *		Whether NAME may be set by \set: pgbench's valid_variable_name.
 */
bool
bk_valid_var_name(const char *name)
{
	const unsigned char *p = (const unsigned char *) name;

	if (!bk_is_name_start(*p))
		return false;
	for (p++; *p; p++)
	{
		if (!bk_is_name_char(*p))
			return false;
	}
	return true;
}

/*
 * bk_vartable_create
 *		A table of variable names with the variables every client has.
 */
BkVarTable *
bk_vartable_create(void)
{
	BkVarTable *vt = palloc0(sizeof(BkVarTable));

	vt->maxvars = BK_VARNAMES_INIT;
	vt->names = palloc(sizeof(char *) * vt->maxvars);
	if (bk_var_lookup(vt, "scale", true) != BK_VAR_SCALE ||
		bk_var_lookup(vt, "client_id", true) != BK_VAR_CLIENT_ID ||
		bk_var_lookup(vt, "random_seed", true) != BK_VAR_RANDOM_SEED ||
		bk_var_lookup(vt, "default_seed", true) != BK_VAR_DEFAULT_SEED)
		elog(ERROR, "predefined script variables out of order");
	return vt;
}

/*
 * bk_var_lookup
 *		The index of variable NAME in VT; with CREATE, a variable not known
 *		yet is added (in the memory context of the table), otherwise the
 *		answer is -1.  Scripts name few variables: a linear search it is.
 */
int
bk_var_lookup(BkVarTable *vt, const char *name, bool create)
{
	for (int i = 0; i < vt->nvars; i++)
	{
		if (strcmp(vt->names[i], name) == 0)
			return i;
	}
	if (!create)
		return -1;
	if (vt->nvars == vt->maxvars)
	{
		vt->maxvars *= 2;
		vt->names = repalloc(vt->names, sizeof(char *) * vt->maxvars);
	}
	vt->names[vt->nvars] = MemoryContextStrdup(GetMemoryChunkContext(vt->names), name);
	return vt->nvars++;
}

/*
 * bk_var_assign
 *		Set variable VAR to VALUE, freeing its old string; a string value is
 *		copied into CXT (or over the old string, when that is long enough).
 */
void
bk_var_assign(BkValue *var, const BkValue *value, MemoryContext cxt)
{
	char	   *old = var->kind == BK_VAL_STRING ? var->s : NULL;

	*var = *value;
	if (value->kind == BK_VAL_STRING)
	{
		size_t		len = strlen(value->s);

		/* a string as long as the old one or shorter takes its place */
		if (old != NULL && len <= strlen(old))
		{
			memmove(old, value->s, len + 1);
			var->s = old;
			return;
		}
		var->s = MemoryContextStrdup(cxt, value->s);
	}
	else
		var->s = NULL;
	if (old != NULL)
		pfree(old);
}

/*
 * bk_var_set_string
 *		Set variable VAR to the string TEXT (copied into CXT).
 */
void
bk_var_set_string(BkValue *var, const char *text, MemoryContext cxt)
{
	BkValue		v;

	memset(&v, 0, sizeof(v));
	v.kind = BK_VAL_STRING;
	v.s = unconstify(char *, text);
	bk_var_assign(var, &v, cxt);
}
