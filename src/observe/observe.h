/*-------------------------------------------------------------------------
 *
 * observe.h
 *		What the server did during a run: prewarm, samples of its counters,
 *		relation sizes, settings and host facts (observe.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_OBSERVE_H
#define PGBENCHKIT_OBSERVE_H

#include "datatype/timestamp.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "libpq-fe.h"

typedef struct BkObserver
{
	int64		run_id;
	Oid			dboid;
	Oid			roleid;
	bool		stats_priv;		/* the role may read host facts and CPU */
	int			ntables;		/* the workload's leaf tables */
	Oid		   *tables;
	SPIPlanPtr	sample_plan[2];	/* during (no statement texts); before/after */
	bool		sampling;		/* false once a sample failed */
	int			sample_no;
	StringInfoData unavailable; /* jsonb object: source -> why */
	bool		unavailable_changed;
	char	   *prewarm_json;	/* jsonb array of what was prewarmed */
	uint64		host_busy_ticks;	/* /proc/stat as last sampled, each held */
	uint64		host_idle_ticks;	/* from going back (see obs_host_cpu) */
	bool		host_held;		/* they hold the run's sample before */

	/* a run against a target: its statistics, read over this connection */
	PGconn	   *remote;
	char	   *remote_name;	/* the target's, for messages */
	char	   *remote_dboid;	/* the target's ids of its database and role */
	char	   *remote_roleid;
	char	   *remote_tables;	/* the workload's tables there, an oid[] literal */
	char	   *remote_sample_sql[2];
} BkObserver;

/* in a transaction, as the run's role */
extern void bk_obs_init(BkObserver *o, int64 run_id, int64 dataset_id, Oid roleid);
extern void bk_obs_init_remote(BkObserver *o, int64 run_id, Oid roleid, PGconn *conn,
							   const char *name, const char *table_names);
extern void bk_obs_prewarm(BkObserver *o);
extern void bk_obs_begin(BkObserver *o, TimestampTz at, double elapsed_s, int64 xacts);
extern void bk_obs_sample(BkObserver *o, const char *phase, TimestampTz at,
						  double elapsed_s, int64 xacts);
extern void bk_obs_end(BkObserver *o, TimestampTz at, double elapsed_s, int64 xacts);
extern char *bk_obs_settings_sql(void);

#endif							/* PGBENCHKIT_OBSERVE_H */
