/*-------------------------------------------------------------------------
 *
 * value.h
 *		The values of variables and expressions: text read as a value,
 *		coercions, truth, a value as text (value.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_SCRIPT_VALUE_H
#define PGBENCHKIT_SCRIPT_VALUE_H

#include "script/script.h"

/* set V to an integer */
static inline void
bk_set_int(BkValue *v, int64 i)
{
	v->kind = BK_VAL_INT;
	v->i = i;
}

/* set V to a double */
static inline void
bk_set_double(BkValue *v, double d)
{
	v->kind = BK_VAL_DOUBLE;
	v->d = d;
}

/* set V to a boolean */
static inline void
bk_set_bool(BkValue *v, bool b)
{
	v->kind = BK_VAL_BOOL;
	v->b = b;
}

/* set V to null */
static inline void
bk_set_null(BkValue *v)
{
	v->kind = BK_VAL_NULL;
}

extern bool bk_strtoint64(const char *str, int64 *result, bool *out_of_range);
extern bool bk_strtodouble(const char *str, double *result);
extern void bk_string_value(const char *name, const char *s, BkValue *ret);
extern bool bk_to_bool(const BkValue *v);
extern int64 bk_to_int(const BkValue *v);
extern double bk_to_double(const BkValue *v);
extern bool bk_truth(const BkValue *v);
extern int	bk_value_format(const BkValue *v, char *out);
extern char *bk_value_text(const BkValue *value, char *buf, size_t len);

#endif							/* PGBENCHKIT_SCRIPT_VALUE_H */
