/*-------------------------------------------------------------------------
 *
 * datasets.h
 *		The kinds of dataset, by name, as every part that names them sees
 *		them: what a script's \dataset, a workload's dataset, a run's look
 *		for its tables and the messages about them need to know of each
 *		(datasets.c).  The kinds themselves (how bench.init loads them)
 *		are dataset/'s; a new kind is one entry here and its file there.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_DATASETS_H
#define PGBENCHKIT_DATASETS_H

/* how a run finds the size of a dataset that bench.init did not record */
typedef enum BkDatasetSizing
{
	BK_SIZED_BY_RECORD,			/* only bench.datasets knows it (tpcb: the scale) */
	BK_SIZED_BY_TABLES,			/* numbered tables, counted (sysbench, ibench) */
	BK_SIZED_BY_WAREHOUSES		/* rows of the key table, counted (tpcc) */
} BkDatasetSizing;

typedef struct BkDatasetInfo
{
	const char *name;			/* "tpcb", a workload's dataset, \dataset's word */
	const char *article;		/* "a" or "an", before the name */
	const char *tables;			/* what its tables are, for hints */
	const char *key_table;		/* the table a run looks for in search_path */
	const char *prefix;			/* BK_SIZED_BY_TABLES: the tables' prefix */
	BkDatasetSizing sizing;
	const char *load_hint;		/* how to load one, a sentence */

	/*
	 * What every sample of a run on it reads of its tables (the key
	 * "dataset" of bench.samples.data), or NULL: a SQL expression of a
	 * jsonb object, with %s for the tables' schema and a dot (or "", where
	 * the role's search_path finds them), as TPC-C's d_next_o_id, whose
	 * sum counts the new orders committed
	 */
	const char *counters;
	/* its tables, as an array literal, where a run on a target measures them ({a,b}), or NULL */
	const char *table_names;
} BkDatasetInfo;

/* the kinds, in the order messages list them */
extern const BkDatasetInfo bk_dataset_infos[];
extern const int bk_ndataset_infos;

extern const BkDatasetInfo *bk_dataset_info(const char *name);
extern const char *bk_dataset_article(const char *name);
extern char *bk_dataset_names_text(void);
extern char *bk_dataset_kinds_text(void);

#endif							/* PGBENCHKIT_DATASETS_H */
