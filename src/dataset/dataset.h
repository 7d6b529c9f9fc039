/*-------------------------------------------------------------------------
 *
 * dataset.h
 *		The kinds of dataset bench.init loads, as the generic machinery of
 *		init.c sees them.
 *
 * init.c owns everything a load has whatever it loads: the checks of the
 * caller, the coordinator and its loader workers, the staging names, the
 * transactions, VACUUM ANALYZE, the swap under the final names, the
 * bookkeeping in bench.datasets and the cleanup after a failure or a
 * crash.  A kind of dataset (tpcb.c: pgbench's) says only what is its own:
 * its options, its tables and how to fill them, through the callbacks
 * below.  A new kind is one BkDatasetKind and an entry in bk_dataset_kinds
 * (init.c).
 *
 * Names: a kind's tables are named final_prefix + a suffix of its own
 * ("pgbench_" + "accounts", "sbtest" + "3"), and how many tables there are
 * may depend on the options; while they load, the staging prefix
 * (bench_load_<id>_) replaces final_prefix, on the tables, their indexes
 * and constraints alike, and the swap puts final_prefix back.
 *
 * The work is split in the order init.c calls the callbacks:
 *
 *	create			(coordinator, first transaction) its tables under the
 *					staging names, and whatever else loading needs (an
 *					index the loaders fill)
 *	prepare			(coordinator) before the loaders go: LEAVES, the
 *					relations the loaders fill, made ready for them
 *	load_share		(each of the jobs loaders, in a transaction of its own)
 *					its share of the leaves: a fixed share (LOADER of
 *					NLOADERS), or units taken one at a time from NEXT_UNIT,
 *					a counter the loaders share (from 0), so that none
 *					waits on another's larger share
 *	load_rest		(coordinator, while the loaders run) the small tables,
 *					and anything that need not wait for the loaders
 *	after_load		(or NULL; coordinator, once every loader has committed)
 *					what the loaded tables need before anyone reads them
 *	after_vacuum	(coordinator) after VACUUM ANALYZE of every table
 *	finish_tasks	(or NULL: the loaders, once all have loaded, side by
 *					side, each task in a transaction of its own, staged
 *					names) the keys and VACUUM ANALYZE of each table, a
 *					key either a statement or built by build_key
 *	add_keys		(coordinator, in the swap's transaction, final names;
 *					NULL for a kind with finish_tasks)
 *	add_foreign_keys	(same; only when the options ask for them)
 *	functions_sql	(same, last: statements such as server-side functions)
 *
 * A load into a target (another server, over libpq: init_remote.c) runs
 * none of these: it sends what pgbench -i sends, which a kind gives as SQL
 * and COPY text, below ("A load into a target").  The in-server callbacks
 * make the same tables from the same SQL (table_sql, child_sql, the keys).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_DATASET_H
#define PGBENCHKIT_DATASET_H

#include "lib/stringinfo.h"
#include "nodes/pg_list.h"
#include "port/atomics.h"

/* room for the options of any kind, in the segment of a load */
#define BK_DATASET_OPTIONS_SIZE	128

/* bench.init's arguments, before a kind reads its options from them */
typedef struct BkInitArgs
{
	int			scale;
	int			fillfactor;
	int			partitions;
	const char *partition_method;	/* NULL: not given */
	bool		unlogged;
	bool		foreign_keys;
	int			tables;			/* sysbench's */
	bool		tables_given;
	int			table_size;		/* sysbench's */
	bool		table_size_given;	/* not NULL: a value of the caller's */
	int			warehouses;		/* tpcc's */
	bool		warehouses_given;
} BkInitArgs;

/* a task of the loaders once all of them have loaded (finish_tasks) */
typedef struct BkFinishTask
{
	const char *sql;			/* a statement (VACUUM runs outside a
								 * transaction), or NULL: */
	int			table;			/* the table whose key build_key fills */
	const char *what;			/* the activity the loader shows */
} BkFinishTask;

typedef struct BkDatasetKind
{
	const char *name;			/* bench.init's workload, bench.datasets.workload */
	const char *serves;			/* the workloads it serves, for a hint */
	const char *final_prefix;	/* its tables' names start with it */

	/* the caller: OPTS (BK_DATASET_OPTIONS_SIZE bytes) from ARGS, checked */
	void		(*read_options) (const BkInitArgs *args, void *opts);
	void		(*options_json) (const void *opts, StringInfo out);
	uint64		(*estimate_bytes) (const void *opts);
	int			(*scale) (const void *opts);
	/* what sizes it, in its options' words ("scale 100"), for a message */
	char	   *(*size_words) (const void *opts);
	const char *smaller_hint;	/* how to ask for less, a sentence */

	/*
	 * Its relations: the tables a dataset is (replaced together, in this
	 * order), the children of those (partitions: they go with their
	 * parent, and must not clash with other tables), and the number of
	 * leaves the loaders fill.
	 */
	int			(*ntables) (const void *opts);
	const char *(*table_suffix) (const void *opts, int table);
	int			(*vacuum_table) (const void *opts, int i);	/* the i-th vacuumed */
	int			(*nchildren) (const void *opts);
	int			main_table;		/* the table (index) the loaders fill, whose
								 * children the partitions are */
	bool		random_pages;	/* its pages are mostly random text, which
								 * wal_compression cannot shrink */
	const char *(*child_suffix) (const void *opts, int child);
	int			(*nleaves) (const void *opts);

	/* the load, in the order above */
	void		(*create) (const void *opts, const char *nspname, const char *prefix);
	void		(*prepare) (const void *opts, const char *nspname, const char *prefix,
							Oid *leaves, int nloaders);
	int64		(*load_share) (const void *opts, const Oid *leaves, int64 *leaf_rows,
							   int loader, int nloaders, pg_atomic_uint64 *next_unit,
							   pg_atomic_uint64 *progress, pg_atomic_uint32 *cancel);
	int64		(*load_rest) (const void *opts, const Oid *tables, const Oid *leaves,
							  pg_atomic_uint32 *cancel);
	void		(*after_load) (const void *opts, const Oid *leaves);
	void		(*after_vacuum) (const void *opts, const Oid *leaves, const int64 *leaf_rows);
	void		(*add_keys) (const void *opts, const char *nspname);

	/*
	 * Or NULL: the keys on the staged tables (NSPNAME.<PREFIX><suffix>, an
	 * index named <PREFIX><name>) and VACUUM ANALYZE of every table
	 * (bk_init_vacuum_sql), as BkFinishTasks, each independent of the
	 * others, the longest first.  The loaders take them in turn when all
	 * of them have loaded their share; the swap renames the keys with the
	 * tables.  A task without a statement is build_key's: the key of table
	 * TABLE (made empty by create) filled from the loaded rows.
	 */
	List	   *(*finish_tasks) (const void *opts, const char *nspname, const char *prefix);
	void		(*build_key) (const void *opts, const Oid *leaves, int table,
							  pg_atomic_uint32 *cancel);
	void		(*add_foreign_keys) (const void *opts, const char *nspname);
	bool		(*wants_foreign_keys) (const void *opts);

	/*
	 * Or NULL: statements to send once the tables are there under their
	 * final names, keys and all (CREATE OR REPLACE FUNCTION, names
	 * qualified by NSPNAME), for a server whose server_version_num is
	 * VERSION: in the server, in the swap's transaction after the keys; on
	 * a target, after the foreign keys.
	 */
	List	   *(*functions_sql) (const void *opts, int version, const char *nspname);

	/*
	 * A load into a target: the statements pgbench -i would send, for a
	 * server whose server_version_num is VERSION, naming the tables
	 * NSPNAME.<prefix><suffix> (a target's: final_prefix).  The machinery (init_remote.c) sends
	 * them in pgbench's order: the tables (table_sql, in table order) and
	 * their children (child_sql); then, in one transaction, the rows of the
	 * FILLED tables in their order, as COPY text (copy_row: row ROW, from
	 * 0, one line with its newline) or generated by the target
	 * (insert_sql); VACUUM ANALYZE in vacuum_order; the primary keys; the
	 * foreign keys when wants_foreign_keys.
	 */
	char	   *(*table_sql) (const void *opts, int version, const char *nspname,
							  const char *prefix, int table);
	char	   *(*child_sql) (const void *opts, int version, const char *nspname,
							  const char *prefix, int child);
	int			(*nfilled) (const void *opts);
	int			(*filled) (const void *opts, int f);	/* the f-th filled table */
	int64		(*rows) (const void *opts, int table);
	void		(*copy_row) (const void *opts, int table, int64 row, StringInfo out);
	char	   *(*insert_sql) (const void *opts, int table, const char *nspname);
	List	   *(*primary_keys_sql) (const void *opts, const char *nspname);
	List	   *(*foreign_keys_sql) (const void *opts, const char *nspname);
} BkDatasetKind;

#endif							/* PGBENCHKIT_DATASET_H */
