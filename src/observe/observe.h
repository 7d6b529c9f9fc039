/*-------------------------------------------------------------------------
 *
 * observe.h
 *		What the server did during a run (observe.c): the observer of a run,
 *		and what its parts (prewarm.c, sample.c, cpu.c, record.c) share.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_OBSERVE_H
#define PGBENCHKIT_OBSERVE_H

#include "datatype/timestamp.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "libpq-fe.h"

/*
 * The kinds of sample (sample.c): during the run, the busiest statements
 * without texts; after it, more of them with the run's role's texts;
 * before it, every statement without texts, to subtract from after.
 */
#define OBS_SAMPLE_DURING	0
#define OBS_SAMPLE_AFTER	1
#define OBS_SAMPLE_BEFORE	2
#define OBS_SAMPLE_KINDS	3

typedef struct BkObserver
{
	int64		run_id;
	Oid			dboid;
	Oid			roleid;
	bool		stats_priv;		/* the role may read host facts and CPU */
	int			ntables;		/* the workload's leaf tables */
	Oid		   *tables;
	SPIPlanPtr	sample_plan[OBS_SAMPLE_KINDS];	/* by kind of sample */
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
	bool		remote_lost;	/* it was lost and could not be made again */
	char	   *remote_name;	/* the target's, for messages */
	char	   *remote_dboid;	/* the target's ids of its database and role */
	char	   *remote_roleid;
	char	   *remote_tables;	/* the workload's tables there, an oid[] literal */
	char	   *remote_sample_sql[OBS_SAMPLE_KINDS];
} BkObserver;

/* the workload's leaf tables: a dataset's tables and their partitions */
extern const char *const leaf_tables_cte;

extern Datum obs_oid_array(const Oid *oids, int n);
extern char *obs_query_text(const char *sql, int nargs, Oid *types, Datum *values);
extern char *obs_remote_text(BkObserver *o, const char *sql, int nparams, const Oid *types,
							 const char *const *values);
extern char *obs_text(BkObserver *o, const char *sql, int nargs, Oid *types, Datum *values);
extern char *obs_extension_schema(BkObserver *o, const char *extname);
extern void obs_unavailable(BkObserver *o, const char *source, const char *why);
extern ErrorData *obs_try(void (*fn) (void *), void *arg);

#endif							/* PGBENCHKIT_OBSERVE_H */
