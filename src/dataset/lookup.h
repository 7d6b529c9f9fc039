/*-------------------------------------------------------------------------
 *
 * lookup.h
 *		The dataset a workload runs on, found in search_path (lookup.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_LOOKUP_H
#define PGBENCHKIT_LOOKUP_H

/* what a run needs of the dataset it found */
typedef struct BkFoundDataset
{
	int64		id;				/* bench.datasets.id; 0: tables it did not record */
	int			scale;			/* :scale (tpcc: the warehouses) */
	int			tables;			/* sysbench, ibench */
	int			table_size;		/* sysbench */
	int			warehouses;		/* tpcc */
	bool		constants;		/* tpcc: the load's NURand constants are known */
	int			c_last;			/* tpcc: the load's C for C_LAST */
	int			c_id;			/* for C_ID */
	int			ol_i_id;		/* for OL_I_ID */
	char		nspname[NAMEDATALEN];	/* the schema of its key table; "" on
										 * a target (its role's search_path) */
} BkFoundDataset;

extern int64 bk_find_dataset(const char *workload, const char *dataset, int *scale);
extern void bk_find_dataset_found(const char *workload, const char *dataset,
								  BkFoundDataset *found);

#endif							/* PGBENCHKIT_LOOKUP_H */
