/*-------------------------------------------------------------------------
 *
 * meta.h
 *		The meta-commands of a script, and its declarations (meta.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_SCRIPT_META_H
#define PGBENCHKIT_SCRIPT_META_H

#include "script/parse_state.h"

extern const char *bk_parse_meta(BkScriptParser *sp, const char *bs, int *line);
extern bool bk_script_ignores(const BkScript *script, int sqlerrcode);
extern bool bk_script_rolls_back(const BkScript *script, int sqlerrcode);

#endif							/* PGBENCHKIT_SCRIPT_META_H */
