/*-------------------------------------------------------------------------
 *
 * catalog.h
 *		pgbenchkit's own tables in schema bench: writing them as their
 *		owner, and marking work whose worker is gone.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_CATALOG_H
#define PGBENCHKIT_CATALOG_H

/* saved identity while acting as the owner of schema bench */
typedef struct BkOwnerSwitch
{
	Oid			saved_userid;
	int			saved_sec_context;
	int			guc_nestlevel;
} BkOwnerSwitch;

extern void bk_become_owner(BkOwnerSwitch *sw);
extern void bk_restore_user(BkOwnerSwitch *sw);

extern void bk_arg_not_null(bool isnull, const char *fn, const char *name);

extern void bk_spi_exec(const char *sql, int nargs, Oid *argtypes,
						Datum *values, const char *nulls, int expected);
extern void bk_spi_utility(const char *sql);
extern int64 bk_spi_int64(const char *sql, int nargs, Oid *argtypes,
						  Datum *values);

extern int64 bk_dataset_begin(const char *workload, int scale,
							  const char *options_json, const char *nspname,
							  const char *rolename);
extern void bk_dataset_set_tables(int64 id, const Oid *relids, int n);
extern void bk_dataset_set_target(int64 id, const char *target, const char *server_version);
extern void bk_dataset_mark_replaced_on_target(int64 id);
extern void bk_dataset_finish(int64 id, const char *status, int64 rows,
							  const double *secs, const char *sqlstate,
							  const char *error);
extern void bk_dataset_mark_replaced(const Oid *relids, int n);
extern bool bk_dataset_owns_table(Oid relid);
extern void bk_recover_orphans(void);

/* privilege.c: who sees and steers whose work; workers per role */
#define BK_ADMIN_ROLE "pgbenchkit_admin"
extern int	bk_max_workers_per_role;
extern bool bk_may_steer(const char *owner);
extern void bk_check_role_workers(const char *fn, int64 needed, bool at_once);

#endif							/* PGBENCHKIT_CATALOG_H */
