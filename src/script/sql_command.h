/*-------------------------------------------------------------------------
 *
 * sql_command.h
 *		The SQL commands of a script (sql_command.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_SCRIPT_SQL_COMMAND_H
#define PGBENCHKIT_SCRIPT_SQL_COMMAND_H

#include "script/parse_state.h"

extern void bk_flush_sql(BkScriptParser *sp, bool terminated);

#endif							/* PGBENCHKIT_SCRIPT_SQL_COMMAND_H */
