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

/* the search_path of pgbenchkit's own queries (catalog.c) */
#define BK_PINNED_SEARCH_PATH	"pg_catalog, pg_temp"

extern int	bk_search_path_push(const char *path);
extern void bk_search_path_pop(int level);
extern void bk_spi_connect(void);
extern void bk_spi_finish(void);

extern void bk_arg_not_null(bool isnull, const char *fn, const char *name);

/*
 * Limits on the texts pgbenchkit stores (docs/functions.md, "Limits"):
 * characters for labels, bytes for scripts and documents.
 */
#define BK_MAX_TAG_CHARS		256		/* a run's or a suite's tag */
#define BK_MAX_DESCRIPTION_CHARS 1024	/* a workload's description */
#define BK_MAX_SCRIPT_BYTES		(1024 * 1024)	/* one script */
#define BK_MAX_VARIABLES_BYTES	(1024 * 1024)	/* a run's variables, as JSON */
#define BK_MAX_VARIABLES		1000	/* variables of a run */

extern void bk_check_chars(const char *what, const char *value, int max_chars,
						   const char *hint);
extern void bk_check_bytes(const char *what, const char *value, int max_bytes,
						   const char *hint);

extern const char *bk_runs_table(void);
extern const char *bk_suites_table(void);
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
extern Oid *bk_dataset_other_tables(const Oid *relids, int n, int *nout);
extern void bk_recover_orphans(void);

#endif							/* PGBENCHKIT_CATALOG_H */
