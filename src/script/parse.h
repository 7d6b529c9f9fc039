/*-------------------------------------------------------------------------
 *
 * parse.h
 *		A script split into its commands (parse.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_SCRIPT_PARSE_H
#define PGBENCHKIT_SCRIPT_PARSE_H

#include "script/script.h"

extern BkScript *bk_script_parse(const char *text, const char *name, BkVarTable *vt);

#endif							/* PGBENCHKIT_SCRIPT_PARSE_H */
