/*-------------------------------------------------------------------------
 *
 * tpcb.h
 *		The TPC-B-like dataset of pgbench: its tables, how they are created,
 *		and the in-server loader that fills them.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_TPCB_H
#define PGBENCHKIT_TPCB_H

#include "nodes/pg_list.h"
#include "port/atomics.h"

#include "dataset/dataset.h"

/* rows per unit of scale, as in pgbench */
#define TPCB_NBRANCHES	1
#define TPCB_NTELLERS	10
#define TPCB_NACCOUNTS	100000

/* from this scale on, account ids are bigint (pgbench's SCALE_32BIT_THRESHOLD) */
#define TPCB_SCALE_32BIT_THRESHOLD 20000

/* the tables, in the order pgbench creates them */
#define TPCB_NTABLES	4
#define TPCB_HISTORY	0
#define TPCB_TELLERS	1
#define TPCB_ACCOUNTS	2
#define TPCB_BRANCHES	3

typedef enum TpcbPartMethod
{
	TPCB_PART_NONE,
	TPCB_PART_RANGE,
	TPCB_PART_HASH
} TpcbPartMethod;

typedef struct TpcbOptions
{
	int			scale;
	int			fillfactor;
	int			partitions;
	TpcbPartMethod method;
	bool		method_given;	/* partition_method => was given */
	bool		unlogged;
	bool		foreign_keys;
} TpcbOptions;

extern const char *const tpcb_table_suffix[TPCB_NTABLES];

/* the tables that hold the accounts: the table itself, or its partitions */
static inline int
tpcb_nleaves(const TpcbOptions *opts)
{
	return opts->method == TPCB_PART_NONE ? 1 : opts->partitions;
}

extern int64 tpcb_naccounts(const TpcbOptions *opts);
extern uint64 tpcb_estimate_bytes(const TpcbOptions *opts);
extern const char *tpcb_part_method_name(TpcbPartMethod method);

extern char *tpcb_table_name(const char *prefix, int table);
extern char *tpcb_partition_name(const char *prefix, int partno);

extern char *tpcb_table_sql(const TpcbOptions *opts, int version, const char *nspname,
							const char *prefix, int table);
extern char *tpcb_partition_sql(const TpcbOptions *opts, const char *nspname,
								const char *prefix, int partno);
extern List *tpcb_foreign_keys_sql(const char *nspname);
extern void tpcb_create_tables(const TpcbOptions *opts, const char *nspname,
							   const char *prefix);
extern void tpcb_add_accounts_key(const char *nspname, const char *prefix);
extern void tpcb_add_primary_keys(const char *nspname);
extern void tpcb_add_foreign_keys(const char *nspname);

extern int64 tpcb_load_branches_tellers(const TpcbOptions *opts,
										Oid branches, Oid tellers);
extern void tpcb_prepare_accounts(const TpcbOptions *opts, const Oid *leaves, int nloaders);
extern int64 tpcb_load_accounts(const TpcbOptions *opts, const Oid *leaves,
								int64 *leaf_rows, int loader, int nloaders,
								pg_atomic_uint64 *progress,
								pg_atomic_uint32 *cancel);

extern void tpcb_build_account_keys(const TpcbOptions *opts, const Oid *leaves,
									pg_atomic_uint32 *cancel);
extern void tpcb_set_account_stats(const TpcbOptions *opts, const Oid *leaves,
								   const int64 *hash_rows);

/* the kind "tpcb" (init.c's list of kinds) */
extern const BkDatasetKind bk_dataset_tpcb;

#endif							/* PGBENCHKIT_TPCB_H */
