/*-------------------------------------------------------------------------
 *
 * sleep.h
 *		\sleep: its argument parsed, the time it sleeps (sleep.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_SCRIPT_SLEEP_H
#define PGBENCHKIT_SCRIPT_SLEEP_H

#include "script/parse_state.h"

extern void bk_parse_sleep(BkScriptParser *sp, BkCommand *cmd, BkWord *words, int nwords);
extern int64 bk_sleep_usec(const BkScript *script, const BkCommand *cmd,
						   const BkValue *vars);

#endif							/* PGBENCHKIT_SCRIPT_SLEEP_H */
