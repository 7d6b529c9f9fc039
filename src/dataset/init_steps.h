/*-------------------------------------------------------------------------
 *
 * init_steps.h
 *		The SQL steps every in-server load takes (init_steps.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_INIT_STEPS_H
#define PGBENCHKIT_INIT_STEPS_H

extern char *bk_init_vacuum_sql(const char *nspname, const char *relname);
extern void bk_init_vacuum(const char *sql);
extern void bk_init_xact_begin(const char *activity);
extern void bk_init_xact_commit(void);
extern void bk_init_rename_staged(Oid nspid, const char *prefix, const char *final_prefix);

#endif							/* PGBENCHKIT_INIT_STEPS_H */
