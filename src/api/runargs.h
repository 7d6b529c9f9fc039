/*-------------------------------------------------------------------------
 *
 * runargs.h
 *		The run arguments: one table of them (name, type, default, check)
 *		that every function starting runs takes them from.
 *
 * bench.run and bench.start take the run arguments, in the table's order;
 * bench.sweep, bench.start_sweep and bench.schedule take them too, around
 * arguments of their own (a list of client counts, repeats, a name).  The
 * SQL signatures are made from the table (bench._create_run_function, in
 * the install script, reads it through bench._arguments_of), and the C
 * functions read their arguments by name (bk_call_args), so that a new run
 * argument is one entry here, and the SQL of an older version, whose
 * functions lack the newest arguments, still calls this library.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_RUNARGS_H
#define PGBENCHKIT_RUNARGS_H

#include "datatype/timestamp.h"
#include "fmgr.h"

/* the run arguments, in the order of bench.run's signature */
typedef enum BkRunArgNo
{
	RA_WORKLOAD,
	RA_CLIENTS,
	RA_DURATION,
	RA_TRANSACTIONS,
	RA_PROTOCOL,
	RA_WARMUP,
	RA_PROGRESS,
	RA_MAX_TRIES,
	RA_TAG,
	RA_PREWARM,
	RA_SAMPLE_INTERVAL,
	RA_SCRIPT,
	RA_RATE,
	RA_LATENCY_LIMIT,
	RA_RANDOM_SEED,
	RA_VARIABLES,
	RA_TARGET,
	RA_JOBS,
	RA_CONNECT,
	RA_ON_DISCONNECT,
	RA_GROUPS,
	RA_WAREHOUSE_CHOICE,
	RA_KEYING_AND_THINKING,
	RA_MODE,
	RA_RECONNECT_DELAY,
	RA_RECONNECT_MAX_DELAY,
	RA_CHECK_QUERY,
	RA_RESPONSE_TIMEOUT,
	RA_AT,
	RA_PART_OF,
	RUN_NARGS
} BkRunArgNo;

/* one group of groups => */
typedef struct RunGroupArg
{
	char	   *name;
	char	   *workload;		/* NULL with script */
	char	   *script;
	int			clients;
	double		rate;			/* 0: none */
} RunGroupArg;

/* the arguments of a run, checked */
typedef struct RunArgs
{
	char	   *workload;		/* NULL with script */
	char	   *script;			/* an unnamed script, or NULL */
	int			clients;
	Interval	duration;
	bool		duration_set;
	int64		duration_ns;
	int64		transactions;
	int			protocol;
	char	   *protocol_name;
	Interval	warmup;
	int64		warmup_ns;
	Interval	progress;
	int64		progress_ns;
	int			max_tries;
	char	   *tag;
	bool		prewarm;
	Interval	sample_interval;
	int64		sample_ns;
	double		rate;			/* 0: none */
	Interval	latency_limit;
	int64		latency_limit_ns;	/* 0: none */
	bool		seed_given;
	uint64		seed;
	char	   *variables_json; /* NULL: none */
	int			nvariables;
	char	  **var_names;
	char	  **var_values;		/* NULL: the variable is NULL */
	char	   *target;			/* NULL: in-server clients */
	int			jobs;			/* client workers */
	bool		connect_per_transaction;
	bool		on_disconnect_continue;
	bool		on_disconnect_reconnect;
	int64		reconnect_delay_ns; /* the first wait before a new connection */
	int64		reconnect_max_delay_ns; /* the longest */
	char	   *check_query;	/* NULL: none (run.c may default it) */
	Interval	response_timeout;
	int64		response_timeout_ns;	/* 0: none */
	TimestampTz at;				/* when the measured part starts; 0: when
								 * ready */
	char	   *part_of;		/* the distributed run it is a part of, or
								 * NULL */
	int			ngroups;		/* 0: no groups => */
	RunGroupArg *groups;
	bool		random_warehouse;	/* TPC-C: warehouse_choice => 'random' */
	bool		keying_and_thinking;	/* TPC-C: keying and think times */
	bool		statements;		/* TPC-C: mode => 'statements' */
} RunArgs;

/*
 * Reads the argument's value V[I] (null when N[I]) into A, refusing a bad
 * one; it may look at the arguments before it in the table, which are read
 * already.
 */
typedef void (*BkArgCheck) (const char *fn, const Datum *v, const bool *n, RunArgs *a);

typedef struct BkArgDef
{
	const char *name;
	Oid			type;
	const char *default_value;	/* as the type's input function takes it;
								 * NULL: null */
	bool		not_null;		/* a null value is refused (with no default:
								 * the argument is required) */
	BkArgCheck	check;			/* NULL: the caller reads it */
	const char *description;
} BkArgDef;

extern const BkArgDef bk_run_args[RUN_NARGS];

/*
 * A SQL function that takes the run arguments: its own arguments (an own
 * argument named as a run argument replaces it; one of type InvalidOid is
 * a run argument it does not take) and the order of its signature, by
 * name, where "*" stands for the run arguments not named in it.
 * Its arguments are read into slots: its own first, then the run
 * arguments (BK_RUN_SLOT).
 */
typedef struct BkArgFunction
{
	const char *name;			/* as SQL calls it: bench.sweep */
	const BkArgDef *own;
	int			nown;
	const char *const *order;
	int			norder;
} BkArgFunction;

#define BK_RUN_SLOT(f, ra)		((f)->nown + (ra))
#define BK_ARG_SLOTS(f)			((f)->nown + RUN_NARGS)
/* own arguments of a function at most (those it does not take count) */
#define BK_MAX_OWN_ARGS			32
#define BK_MAX_ARG_SLOTS		(RUN_NARGS + BK_MAX_OWN_ARGS)

extern const BkArgFunction bk_fn_run;
extern const BkArgFunction bk_fn_start;
extern const BkArgFunction bk_fn_sweep;
extern const BkArgFunction bk_fn_start_sweep;
extern const BkArgFunction bk_fn_sweep_spec;
extern const BkArgFunction bk_fn_schedule;
extern const BkArgFunction bk_fn_capacity;
extern const BkArgFunction bk_fn_start_capacity;
extern const BkArgFunction bk_fn_schedule_capacity;

/* the own arguments of sweeps and schedules, as slots */
#define SWEEP_CLIENTS			0
#define SWEEP_REPEAT			1
#define SWEEP_RUN_ORDER			2
#define SWEEP_TARGETS			3
#define SWEEP_EVERY				4	/* the sweeps' only, not schedules' */
#define SCHEDULE_NAME			4
#define SCHEDULE_SCHEDULE		5
#define SCHEDULE_BASELINE_RUNS	6
#define SCHEDULE_THRESHOLD		7

/* the own arguments of bench.capacity and bench.start_capacity, as slots */
#define CAPACITY_CLIENTS		0
#define CAPACITY_SLO			1
#define CAPACITY_MAX_FAILURE_RATE 2
#define CAPACITY_PRECISION		3
#define CAPACITY_MAX_RUNS		4
#define CAPACITY_MAX_TIME		5
#define CAPACITY_START_RATE		6
#define CAPACITY_MAX_REPEATS	7
/* and those of bench.schedule_capacity after them */
#define SCHEDCAP_NAME			8
#define SCHEDCAP_SCHEDULE		9
#define SCHEDCAP_BASELINE_RUNS	10
#define SCHEDCAP_THRESHOLD		11

extern void bk_call_args(FunctionCallInfo fcinfo, const BkArgFunction *f, Datum *v, bool *n);
extern void bk_run_args_read(const char *fn, const Datum *v, const bool *n, RunArgs *a);
extern int64 bk_interval_ns(const Interval *iv, bool *too_big);
extern char *bk_interval_text(const Interval *iv);

#endif							/* PGBENCHKIT_RUNARGS_H */
