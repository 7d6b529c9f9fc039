/*-------------------------------------------------------------------------
 *
 * results.h
 *		The rows a run leaves in bench.runs, bench.progress and
 *		bench.histograms (results.c), written by its coordinator.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_RESULTS_H
#define PGBENCHKIT_RESULTS_H

#include "core/histogram.h"
#include "runner/segment.h"

typedef struct RunSummary
{
	double		measured_s;
	int64		transactions;
	double		tps;
	double		lat_avg_ms;
	double		lat_stddev_ms;
	double		lat_min_ms;
	double		lat_p50_ms;
	double		lat_p90_ms;
	double		lat_p95_ms;
	double		lat_p99_ms;
	double		lat_p999_ms;
	double		lat_max_ms;
	int64		failures[FAIL_KINDS];
	int64		retried;
	int64		retries;
	int64		ignored_errors; /* measured phase */
	int64		warmup_transactions;
	int64		skipped;
	int64		late;
	double		lag_avg_ms;		/* < 0: no rate limit */
	double		lag_max_ms;
	double		connection_time_ms; /* pgbench's: initial, or average per
									 * connection with per_transaction;
									 * < 0: none (in-server) */
	int			clients_lost;	/* on_disconnect 'continue'; < 0: in-server */
	/* on_disconnect 'reconnect' (else reconnects < 0) */
	int64		reconnects;		/* connections made again after a loss */
	int			outages;		/* clients' outages, ended or not */
	int			outages_open;	/* clients whose outage had not ended */
	double		downtime_median_ms; /* over the clients with an outage, each
									 * client's downtime in all */
	double		downtime_max_ms;
	double		detection_max_ms;	/* the longest from a last success to the
									 * failure that showed the loss */
	int64		unknown_outcome;	/* transactions whose commit's answer was
									 * lost */
	TimestampTz outage_started; /* the first outage's start; 0: none */
	TimestampTz outage_ended;	/* the last outage's end; 0: none, or open */
	double		recovery_ms;	/* from the first lost connection to the
								 * first commit after it; < 0: none */
	int			nclient_outages;	/* clients with an outage, each a row */
	struct RunClientOutage *client_outages;

	/* check_query: its value before the run and after it */
	bool		checked;		/* both read */
	int64		check_before;
	int64		check_after;
	int64		committed;		/* the transactions counted committed, warm-up
								 * included */
} RunSummary;

/* a client's outages, a row of bench.outages */
typedef struct RunClientOutage
{
	int			client;
	int			outages;		/* ended or not */
	bool		open;
	double		downtime_ms;
	double		detection_max_ms;
	int64		reconnects;
	int64		unknown;
	int64		committed;
	int64		attempts;		/* new connections tried */
	int			last_error;		/* SQLSTATE; 0: none */
	TimestampTz first_failure;
	TimestampTz first_from;
	TimestampTz last_to;		/* 0: none ended */
} RunClientOutage;

typedef struct RunInterval
{
	TimestampTz start;
	TimestampTz end;
	double		elapsed_s;
	int64		transactions;
	double		tps;
	double		lat_avg_ms;		/* < 0: no transaction */
	double		lat_stddev_ms;
	double		lat_p99_ms;
	double		lat_max_ms;
	int64		failures;
	int64		retries;
	int64		ignored_errors;
	bool		reconnecting;	/* on_disconnect 'reconnect': the two below */
	int64		connection_failures;
	int64		reconnects;
	bool		in_warmup;
} RunInterval;

extern int64 bk_run_next_id(void);
extern void bk_run_insert(RunShared *sh, const char *rolename, TimestampTz started_at);
extern double bk_run_connection_time_ms(const RunShared *sh, const RunSummary *sum);
extern void bk_run_set_started(int64 run_id, TimestampTz started_at);
extern void bk_run_progress(int64 run_id, const RunInterval *iv, const BkHist *hist);
extern void bk_run_group_progress(int64 run_id, int group_no, const RunInterval *iv);
extern void bk_run_finish(RunShared *sh, const char *status, const RunSummary *sum,
						  const BkHist *hist, const RunSummary *gsum, BkHist *const *ghist,
						  int sqlerrcode, const char *error);

#endif							/* PGBENCHKIT_RESULTS_H */
