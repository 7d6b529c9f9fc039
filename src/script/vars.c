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
	char	   *old;

	Assert(value->kind != BK_VAL_ARRAY);
	if (var->kind == BK_VAL_ARRAY)
		bk_var_unset(var);
	old = var->kind == BK_VAL_STRING ? var->s : NULL;

	*var = *value;
	var->a = NULL;
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

/*
 * bk_var_unset
 *		Make variable VAR not set (\unset), freeing what it holds: an
 *		array's elements and their strings too.
 */
void
bk_var_unset(BkValue *var)
{
	if (var->kind == BK_VAL_STRING)
		pfree(var->s);
	else if (var->kind == BK_VAL_ARRAY)
	{
		BkArray    *a = var->a;

		for (int i = 0; i < a->n; i++)
		{
			if (a->elems[i].kind == BK_VAL_STRING)
				pfree(a->elems[i].s);
		}
		if (a->elems != NULL)
			pfree(a->elems);
		pfree(a);
	}
	memset(var, 0, sizeof(*var));
}

/*
 * bk_var_make_array
 *		Make variable VAR an empty array (in CXT), with room for N elements;
 *		what it held is freed.
 */
void
bk_var_make_array(BkValue *var, int n, MemoryContext cxt)
{
	BkArray    *a;

	bk_var_unset(var);
	a = MemoryContextAllocZero(cxt, sizeof(BkArray));
	a->max = Max(n, 4);
	a->elems = MemoryContextAllocZero(cxt, sizeof(BkValue) * a->max);
	var->kind = BK_VAL_ARRAY;
	var->a = a;
}

/*
 * bk_var_set_element
 *		Set element INDEX (from 1) of array variable VAR, called NAME, to
 *		VALUE (a string copied into CXT): INDEX from 1 to its length + 1,
 *		the last appending.  A variable not set becomes an array of one; a
 *		scalar variable is no array, an error.
 */
void
bk_var_set_element(BkValue *var, const char *name, int64 index,
				   const BkValue *value, MemoryContext cxt)
{
	BkArray    *a;

	Assert(value->kind != BK_VAL_ARRAY && value->kind != BK_VAL_UNDEF);
	if (var->kind == BK_VAL_UNDEF)
		bk_var_make_array(var, 4, cxt);
	else if (var->kind != BK_VAL_ARRAY)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("variable \"%s\" is not an array", name),
				 errhint("\\unset the variable before it becomes an array with \\set %s[1] ...", name)));
	a = var->a;
	if (index < 1 || index > (int64) a->n + 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("index " INT64_FORMAT " out of range for array variable \"%s\" of %d elements",
						index, name, a->n),
				 errhint("An element is set at an index from 1 to the array's length + 1, which appends one.")));
	if (index == (int64) a->n + 1)
	{
		if (a->n >= BK_ARRAY_MAX_LEN)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("array variable \"%s\" cannot hold more than %d elements",
							name, BK_ARRAY_MAX_LEN)));
		if (a->n == a->max)
		{
			a->max *= 2;
			a->elems = repalloc(a->elems, sizeof(BkValue) * a->max);
		}
		memset(&a->elems[a->n], 0, sizeof(BkValue));
		a->n++;
	}
	bk_var_assign(&a->elems[index - 1], value, cxt);
}

/*
 * bk_var_element
 *		Element INDEX (from 1) of array variable VAR, called NAME; an error
 *		when VAR is not an array or INDEX is out of its range.
 */
const BkValue *
bk_var_element(const BkValue *var, const char *name, int64 index)
{
	if (var->kind == BK_VAL_UNDEF)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("undefined variable \"%s\"", name),
				 errhint("Set its elements with \\set %s[i] or a query ending with \\garray before the command that reads it.", name)));
	if (var->kind != BK_VAL_ARRAY)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("variable \"%s\" is not an array", name),
				 errhint("Read a variable that is no array as :%s.", name)));
	if (index < 1 || index > var->a->n)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("index " INT64_FORMAT " out of range for array variable \"%s\" of %d elements",
						index, name, var->a->n),
				 errhint("Elements are numbered from 1 to array_length(:%s).", name)));
	return &var->a->elems[index - 1];
}

/*
 * bk_var_array_length
 *		The number of elements of array variable VAR, called NAME: 0 when it
 *		is not set; an error when it is a scalar.
 */
int
bk_var_array_length(const BkValue *var, const char *name)
{
	if (var->kind == BK_VAL_UNDEF)
		return 0;
	if (var->kind != BK_VAL_ARRAY)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("variable \"%s\" is not an array", name),
				 errhint("array_length() and array_position() read array variables, set with \\set %s[i] or \\garray.", name)));
	return var->a->n;
}

/*
 * bk_var_not_array
 *		An error for array variable NAME read where a single value belongs.
 */
void
bk_var_not_array(const char *name)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("array variable \"%s\" used as a single value", name),
			 errhint("Read an element as :%s[i], or all of them in a statement as :%s[*].",
					 name, name)));
}
