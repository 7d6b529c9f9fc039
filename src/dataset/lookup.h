/*-------------------------------------------------------------------------
 *
 * lookup.h
 *		The dataset a workload runs on, found in search_path (lookup.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_LOOKUP_H
#define PGBENCHKIT_LOOKUP_H

extern int64 bk_find_dataset(const char *workload, const char *dataset, int *scale);
extern int64 bk_find_dataset_sizes(const char *workload, const char *dataset, int *scale,
								   int *tables, int *table_size);

#endif							/* PGBENCHKIT_LOOKUP_H */
