/*-------------------------------------------------------------------------
 *
 * variant.h
 *		The texts of a statement with identifier variables in one session
 *		(variant.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_SCRIPT_VARIANT_H
#define PGBENCHKIT_SCRIPT_VARIANT_H

#include "script/script.h"

extern BkVariant *bk_variant_find(BkVariants *vs, const char *sql);
extern BkVariant *bk_variant_add(BkVariants *vs, const char *sql, MemoryContext cxt);

#endif							/* PGBENCHKIT_SCRIPT_VARIANT_H */
