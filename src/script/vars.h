/*-------------------------------------------------------------------------
 *
 * vars.h
 *		The variables of pgbench's script language: the table of variable
 *		names, setting a variable (vars.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_SCRIPT_VARS_H
#define PGBENCHKIT_SCRIPT_VARS_H

#include "script/script.h"

extern BkVarTable *bk_vartable_create(void);
extern int	bk_var_lookup(BkVarTable *vt, const char *name, bool create);
extern bool bk_valid_var_name(const char *name);
extern void bk_var_assign(BkValue *var, const BkValue *value, MemoryContext cxt);
extern void bk_var_set_string(BkValue *var, const char *text, MemoryContext cxt);
extern void bk_var_unset(BkValue *var);
extern void bk_var_make_array(BkValue *var, int n, MemoryContext cxt);
extern void bk_var_set_element(BkValue *var, const char *name, int64 index,
							   const BkValue *value, MemoryContext cxt);
extern const BkValue *bk_var_element(const BkValue *var, const char *name, int64 index);
extern int	bk_var_array_length(const BkValue *var, const char *name);
extern BK_NORETURN void bk_var_not_array(const char *name);

#endif							/* PGBENCHKIT_SCRIPT_VARS_H */
