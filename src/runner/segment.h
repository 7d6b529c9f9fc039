/*-------------------------------------------------------------------------
 *
 * segment.h
 *		The shared memory of one benchmark run, as the caller (api/run.c),
 *		the coordinator (coordinator.c), the clients (client.c, runner.c)
 *		and the rows of its results (results.c) see it.
 *
 * One dynamic shared memory segment per run holds, in this order:
 *
 *		RunShared			parameters, control flags, the run's error and
 *							the progress lines the caller prints
 *		text				the workload's scripts, the tag, the search_path,
 *							the run's variables
 *		RunClient[clients]	each client's counters, written by it alone
 *		BkSharedHist[2][nshards]	latency histograms: warm-up, measured
 *		RunScriptStat[clients][nscripts]	per client and script
 *		BkSharedHist[nscripts][script_shards]	measured latencies per script
 *		RunCommandStat[clients][ncommands]	per client and command (of all
 *							scripts, script by script)
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_SEGMENT_H
#define PGBENCHKIT_SEGMENT_H

#include "datatype/timestamp.h"
#include "port/atomics.h"

#include "core/histogram.h"
#include "core/pgbenchkit.h"
#include "core/worker.h"

#define RUN_MAGIC				BK_SEGMENT_MAGIC('R')

/* bgw_type of the workers, as pg_stat_activity.backend_type shows them */
#define RUN_COORDINATOR_TYPE	"pgbenchkit run"
#define RUN_CLIENT_TYPE			"pgbenchkit client"

#define RUN_MAX_CLIENTS			10000
/* pgbench's limit on the scripts of one run (-f, -b) */
#define RUN_MAX_SCRIPTS			128

#define RUN_MAX_SHARDS			64	/* histograms shared by clients beyond */

/* groups => : at most so many groups of clients in one run */
#define RUN_MAX_GROUPS			16

/* protocol => */
#define RUN_PROTO_SIMPLE		0
#define RUN_PROTO_EXTENDED		1
#define RUN_PROTO_PREPARED		2

/* driver: who plays the clients */
#define RUN_DRIVER_SERVER		0	/* in-server sessions (SPI), one worker each */
#define RUN_DRIVER_LIBPQ		1	/* libpq connections to a target */

/* RunShared.state, set by the coordinator */
#define RUN_STARTING			0	/* reserving and starting clients */
#define RUN_RUNNING				1	/* the row is committed, clients go */
#define RUN_ENDED				2	/* the final row is committed */
#define RUN_NOT_STARTED			3	/* failed before there was a row: error */
#define RUN_WAITING				4	/* the row is committed, the run waits for
									 * its instant (at =>) */

/* RunClient.state */
#define CLIENT_STARTING			0
#define CLIENT_READY			1	/* connected, statements prepared */
#define CLIENT_DONE				2	/* finished, counters final */

/* failure kinds */
#define FAIL_SERIALIZATION		0
#define FAIL_DEADLOCK			1
#define FAIL_OTHER				2
#define FAIL_KINDS				3

/* phases of a run */
#define PHASE_WARMUP			0
#define PHASE_MEASURED			1

/* counters of one client in one phase; only that client writes them */
typedef struct RunCounters
{
	pg_atomic_uint64 xacts;		/* transactions that committed */
	pg_atomic_uint64 lat_sum_ns;
	pg_atomic_uint64 failures[FAIL_KINDS];
	pg_atomic_uint64 retried;	/* transactions that needed a retry */
	pg_atomic_uint64 retries;	/* retries in all */
	pg_atomic_uint64 ignored;	/* errors of a script's \\ignore_errors: restarts */
	pg_atomic_uint64 skipped;	/* rate and latency_limit: never started */
	pg_atomic_uint64 late;		/* latency_limit: took longer */
	pg_atomic_uint64 lag_sum_ns;	/* rate: start behind schedule */
	pg_atomic_uint64 lost;		/* failures: the connection was lost, and
								 * the client reconnects */
	pg_atomic_uint64 reconnects;	/* connections made again after a loss */
	int64		lag_max_ns;
	double		lat_sumsq;		/* sum of squared latencies, ms^2 */
} RunCounters;

/*
 * What one client measured of one command, or of one script, in the
 * measured phase: written by that client alone, read when it is done.
 */
typedef struct RunCommandStat
{
	uint64		count;
	uint64		sum_ns;
	uint64		failures;		/* transactions that failed for good in it */
	uint64		retries;		/* tries that failed in it and were retried */
	uint64		phase_ns[4];	/* in-server: parse, rewrite, plan, execute
								 * (BK_PHASE_*), summed over count */
} RunCommandStat;

typedef struct RunScriptStat
{
	uint64		xacts;
	uint64		lat_sum_ns;
	uint64		failures;
	uint64		skipped;
	uint64		rollbacks;		/* of xacts: the script's transaction rolled
								 * back (its ROLLBACK, a \rollback_errors
								 * error) */
	int64		min_ns;			/* of xacts; INT64_MAX before the first */
	int64		max_ns;
} RunScriptStat;

typedef struct RunClient
{
	pg_atomic_uint32 state;
	int			pid;
	RunCounters phase[2];
	int64		min_ns;			/* measured phase */
	int64		max_ns;
	int64		end_ns;			/* when the client finished its last try */
	int64		conn_ns;		/* time spent connecting (and, per
								 * transaction, disconnecting) */
	int64		connections;	/* connections made during the run */

	/*
	 * on_disconnect 'reconnect': the client's outages, each from its last
	 * success before a lost connection to its first success after
	 */
	int64		last_ok_ns;		/* its last committed transaction; 0: none */
	int64		outage_from_ns; /* the open outage's start; 0: none open */
	int64		downtime_ns;	/* of its outages that ended */
	int64		detect_max_ns;	/* the longest from a last success to the
								 * failure that began an outage */
	int			outages;		/* that ended */
	int64		reconnects;		/* connections made again after a loss */
	int64		first_lost_ns;	/* the failure that showed it its first loss */
	int64		first_from_ns;	/* the start of its first outage */
	int64		first_back_ns;	/* the end of its first outage */
	int64		last_back_ns;	/* the end of its last outage that ended */
	int64		unknown;		/* transactions whose COMMIT (or statement
								 * outside a transaction block) was sent and
								 * whose answer the lost connection took:
								 * committed or not, the client cannot tell */
	int64		reconnect_attempts; /* new connections tried, made or not */
	int			last_error;		/* the SQLSTATE of its last loss or failed
								 * attempt; 0: none */
} RunClient;

/*
 * A group of a run's clients (groups =>): clients FIRST_CLIENT on, with
 * their own scripts (FIRST_SCRIPT on, of the run's scripts), their own rate
 * and their own histogram shards.  A run without groups has one, of every
 * client and script, and RunShared.grouped false.
 */
typedef struct RunGroup
{
	char		name[NAMEDATALEN];
	char		workload[NAMEDATALEN];	/* BK_UNNAMED_WORKLOAD for a script */
	int			first_client;
	int			nclients;
	int			first_script;
	int			nscripts;
	int64		total_weight;
	double		rate;			/* transactions per second of the group; 0: none */
	int			first_shard;
	int			nshards;
} RunGroup;

/* progress lines kept for the caller to print */
#define RUN_PROGRESS_RING		16
#define RUN_PROGRESS_LEN		256

typedef struct RunShared
{
	uint32		magic;

	/* set by the caller */
	Oid			dboid;
	Oid			roleid;
	int			caller_pid;
	char		workload[NAMEDATALEN];
	int64		dataset_id;		/* 0: the workload needs no dataset, or runs
								 * against a target */
	bool		needs_dataset;	/* the workload's scripts need pgbench's tables */
	int			target_tables;	/* against a target: the dataset's tables there
								 * (sysbench's, ibench's), if any */
	char		target_prefix[8];	/* their names' prefix: "sbtest", "pi" */
	char		dataset_kind[16];	/* the workload's kind of dataset; "" none */
	char		dataset_schema[NAMEDATALEN];	/* its schema in this server; ""
												 * on a target (its role's
												 * search_path finds it) */
	int			scale;
	int			clients;
	int			nworkers;		/* client workers: jobs, or one per client */
	int			driver;			/* RUN_DRIVER_* */
	char		target[NAMEDATALEN];	/* RUN_DRIVER_LIBPQ: the target's name */
	bool		target_checks_client;	/* its sessions may set
										 * client_connection_check_interval */
	bool		connect_per_transaction;	/* pgbench -C */
	bool		on_disconnect_continue; /* a lost connection ends its client only */
	bool		on_disconnect_reconnect;	/* a client reconnects and goes on */
	int64		reconnect_min_ns;	/* its first wait, doubled after each failed
									 * attempt ... */
	int64		reconnect_max_ns;	/* ... up to this */
	int64		response_timeout_ns;	/* a statement not answered within it
										 * counts as a lost connection; 0: none */
	Interval	response_timeout;
	int			nshards;
	int			protocol;
	char		protocol_name[16];
	bool		time_phases;	/* in-server clients time their statements' phases */
	int64		duration_ns;	/* 0 with transactions */
	int64		transactions;	/* per client; 0 with duration */
	int64		warmup_ns;
	int64		progress_ns;	/* 0: no progress lines */
	int64		tick_ns;		/* interval of the progress rows */
	Interval	duration;		/* as recorded in bench.runs */
	bool		duration_set;
	Interval	warmup;
	Interval	progress;
	int			max_tries;		/* 0: no limit */
	bool		prewarm;		/* pg_prewarm the relations before the start */
	int64		sample_ns;		/* 0: samples only before and after */
	Interval	sample_interval;
	uint64		seed;			/* every client's generators come from it */
	bool		seed_given;		/* random_seed => was given */
	double		rate;			/* transactions per second in all; 0: none */
	int64		latency_limit_ns;	/* 0: none */
	Interval	latency_limit;
	int64		suite_id;		/* 0: not part of a suite */
	TimestampTz start_at;		/* the instant the measured part starts (at
								 * =>); 0: once ready */
	char		part_of[NAMEDATALEN];	/* the distributed run it is a part
										 * of; "" for none */
	char		step[NAMEDATALEN];	/* the suite's name for it (bench.ibench's
									 * steps); "" for none */
	/* the price per hour of the server it runs on (a decimal), "" if unknown */
	char		price_per_hour[BK_PRICE_MAX_LEN + 1];
	char		currency[BK_CURRENCY_LEN + 1];	/* of the price; "" with none */
	int			nscripts;
	int			weights[RUN_MAX_SCRIPTS];
	int			ncommands;		/* of all scripts */
	bool		grouped;		/* groups => was given */
	int			ngroups;		/* 1 without groups */
	RunGroup	groups[RUN_MAX_GROUPS];
	Size		scripts_off;	/* nscripts texts, each ended by a NUL */
	int			nvariables;
	Size		variables_off;	/* name NUL, then 's' value NUL or 'n' NUL */
	Size		variables_json_off; /* 0: none; as given, for bench.runs */
	Size		script_stats_off;
	Size		command_stats_off;
	int			script_shards;	/* histograms per script */
	Size		script_hists_off;
	Size		tag_off;		/* 0: no tag */
	Size		search_path_off;
	Size		check_query_off;	/* 0: none (check_query) */
	Size		clients_off;
	Size		hists_off;

	/* set by the coordinator */
	int			coordinator_pid;
	pg_atomic_uint32 state;
	pg_atomic_uint32 go;		/* clients may start */
	pg_atomic_uint32 stop;		/* clients end after their transaction */
	pg_atomic_uint32 cancel;	/* the caller asks the run to stop */
	int64		run_id;
	int64		start_ns;		/* monotonic clock, see bk_now_ns */
	int64		measure_ns;		/* start_ns + warm-up */
	char		final_status[16];
	BkError		error;			/* why the run failed, or did not start */

	/* clients whose connection broke, with on_disconnect 'continue' */
	pg_atomic_uint32 clients_lost;
	pg_atomic_uint32 lost_error_claimed;
	BkError		lost_error;		/* the first of them */

	/* the first client error wins this slot */
	pg_atomic_uint32 client_error_claimed;
	int			client_error_index;
	BkError		client_error;

	/* progress lines: the coordinator writes, the caller prints */
	pg_atomic_uint32 progress_seq;
	char		progress_lines[RUN_PROGRESS_RING][RUN_PROGRESS_LEN];
} RunShared;

#define RUN_TEXT(sh, off)		((char *) (sh) + (off))
#define RUN_CLIENTS(sh)			((RunClient *) ((char *) (sh) + (sh)->clients_off))
#define RUN_SCRIPT_STATS(sh, client) \
	((RunScriptStat *) ((char *) (sh) + (sh)->script_stats_off) + (client) * (sh)->nscripts)
#define RUN_COMMAND_STATS(sh, client) \
	((RunCommandStat *) ((char *) (sh) + (sh)->command_stats_off) + (client) * (sh)->ncommands)
#define RUN_SCRIPT_HIST(sh, script, shard) \
	((BkSharedHist *) ((char *) (sh) + (sh)->script_hists_off) + (script) * (sh)->script_shards + (shard))
#define RUN_HIST(sh, phase, shard) \
	((BkSharedHist *) ((char *) (sh) + (sh)->hists_off) + (phase) * (sh)->nshards + (shard))


/* the group of script I (of the run's scripts) */
static inline int
bk_run_script_group(const RunShared *sh, int i)
{
	int			g = sh->ngroups - 1;

	while (g > 0 && i < sh->groups[g].first_script)
		g--;
	return g;
}

/* the group of client INDEX */
static inline int
bk_run_client_group(const RunShared *sh, int index)
{
	int			g = sh->ngroups - 1;

	while (g > 0 && index < sh->groups[g].first_client)
		g--;
	return g;
}

/*
 * bk_run_worker_clients
 *		The clients worker W (from 0) of SH plays: *N of them from *FIRST,
 *		dealt as pgbench deals clients to its threads.
 */
static inline void
bk_run_worker_clients(const RunShared *sh, int w, int *first, int *n)
{
	int			dealt = 0;

	for (int i = 0;; i++)
	{
		int			k = (sh->clients - dealt + sh->nworkers - i - 1) / (sh->nworkers - i);

		if (i == w)
		{
			*first = dealt;
			*n = k;
			return;
		}
		dealt += k;
	}
}

/*
 * bk_run_shared_workload (segment.c): the run's workload as the segment
 * holds it (its scripts' texts and weights), to parse again
 */
struct BkWorkload;
extern struct BkWorkload *bk_run_shared_workload(const RunShared *sh);

#endif							/* PGBENCHKIT_SEGMENT_H */
