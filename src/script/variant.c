/*-------------------------------------------------------------------------
 *
 * variant.c
 *		The texts that a statement with identifier variables or lists takes
 *		in one session (BkVariants): kept sorted by text, each with what an
 *		executor keeps for it (a plan, a prepared statement's state).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/memutils.h"

#include "script/variant.h"

/* the place of SQL in VS: where it is, or where it goes (*FOUND says which) */
static int
bk_variant_pos(const BkVariants *vs, const char *sql, bool *found)
{
	int			lo = 0;
	int			hi = vs->n;

	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;
		int			c = strcmp(vs->v[mid]->sql, sql);

		if (c == 0)
		{
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

/*
 * bk_variant_find
 *		The variant of text SQL in VS, or NULL: a binary search (a statement
 *		takes at most BK_IDENT_MAX_VARIANTS texts in a session).
 */
BkVariant *
bk_variant_find(BkVariants *vs, const char *sql)
{
	bool		found;
	int			pos = bk_variant_pos(vs, sql, &found);

	return found ? vs->v[pos] : NULL;
}

/*
 * bk_variant_add
 *		Add text SQL, not in VS yet, to VS (allocating in CXT), its ordinal
 *		the number of variants before it; its state 0 and no data.  The
 *		caller keeps the count under BK_IDENT_MAX_VARIANTS.
 */
BkVariant *
bk_variant_add(BkVariants *vs, const char *sql, MemoryContext cxt)
{
	bool		found;
	int			pos = bk_variant_pos(vs, sql, &found);
	BkVariant  *var;

	Assert(!found);
	if (vs->n == vs->max)
	{
		vs->max = Max(8, vs->max * 2);
		vs->v = vs->v == NULL ?
			MemoryContextAlloc(cxt, sizeof(BkVariant *) * vs->max) :
			repalloc(vs->v, sizeof(BkVariant *) * vs->max);
	}
	var = MemoryContextAllocZero(cxt, sizeof(BkVariant));
	var->sql = MemoryContextStrdup(cxt, sql);
	var->ordinal = vs->n;
	memmove(&vs->v[pos + 1], &vs->v[pos], sizeof(BkVariant *) * (vs->n - pos));
	vs->v[pos] = var;
	vs->n++;
	return var;
}
