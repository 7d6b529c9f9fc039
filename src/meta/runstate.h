/*-------------------------------------------------------------------------
 *
 * runstate.h
 *		Whether a run or a suite is alive (its process holds its lock), a
 *		run's hold on its dataset and tables, and the runs and suites whose
 *		process is gone recorded as aborted (runstate.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_RUNSTATE_H
#define PGBENCHKIT_RUNSTATE_H

extern void bk_run_hold(int64 run_id);
extern void bk_run_release(int64 run_id);
/* the ids of node N lie from N * BK_NODE_RANGE on (bench.set_node) */
#define BK_NODE_RANGE	(INT64CONST(1) << 40)

extern bool bk_of_this_node(int64 id);
extern bool bk_run_alive(int64 run_id);
extern void bk_suite_hold(int64 suite_id);
extern void bk_suite_release(int64 suite_id);
extern bool bk_suite_alive(int64 suite_id);
extern int64 bk_dataset_busy_run(int64 dataset_id);
extern void bk_refuse_busy_dataset(int64 dataset_id);
extern void bk_take_dataset(int64 dataset_id, bool session);
extern void bk_release_dataset(int64 dataset_id);
extern void bk_refuse_busy_tables(const Oid *relids, int nrels);
extern void bk_take_tables(const Oid *relids, int nrels);
extern void bk_recover_runs(void);

#endif							/* PGBENCHKIT_RUNSTATE_H */
