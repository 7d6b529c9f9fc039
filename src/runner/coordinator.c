/*-------------------------------------------------------------------------
 *
 * coordinator.c
 *		The coordinator of a benchmark run: one background worker that owns
 *		the run from its first client to its last row.
 *
 * The coordinator
 *
 *	1. takes the run's dataset (a session advisory lock: one run at a time
 *	   per dataset) and draws the run's id;
 *	2. starts one client worker per client and waits until every one is
 *	   connected and has prepared its statements — if a worker slot, a
 *	   connection or a statement fails, nothing has been recorded and the
 *	   caller gets the error;
 *	3. commits the run's row ('running') and lets the clients go together;
 *	4. at the end of every interval, reads the clients' counters and
 *	   histograms, commits a progress row and hands the caller its
 *	   progress line;
 *	5. when the run ends — its duration or transaction count reached, a
 *	   cancel (the caller's, or bench.cancel's SIGINT), a client's error,
 *	   its own termination — stops the clients, merges what they measured
 *	   and commits the summary, the latency histogram and the final status
 *	   in one transaction.
 *
 * Everything is written in the coordinator's own transactions, so it stays
 * whatever happens to the caller; if the coordinator itself vanishes (a
 * crash), the next bench function marks the run 'aborted' from its
 * progress rows (bk_recover_runs).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <signal.h>

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"
#include "utils/varlena.h"

#include "meta/catalog.h"
#include "observe/observe.h"
#include "observe/prewarm.h"
#include "observe/record.h"
#include "observe/sample.h"
#include "core/pgbenchkit.h"
#include "target/target.h"
#include "core/clock.h"
#include "core/datasets.h"
#include "runner/segment.h"
#include "runner/outage.h"
#include "runner/results.h"
#include "runner/start_at.h"
#include "meta/runstate.h"
#include "core/worker.h"

PGDLLEXPORT void bench_run_coordinator_main(Datum main_arg);

/* how the run ended */
typedef enum CoordEnd
{
	END_COMPLETE,				/* duration or transactions reached */
	END_CANCELED,
	END_CLIENT_ERROR,
	END_TERMINATED
} CoordEnd;

/* sums over every client of the counters of one phase */
typedef struct CoordTotals
{
	int64		xacts;
	int64		lat_sum_ns;
	double		lat_sumsq;
	int64		failures;
	int64		retried;
	int64		retries;
	int64		ignored;
	int64		lost;
	int64		reconnects;
} CoordTotals;

/* what the intervals of one group need of the last tick (groups =>) */
typedef struct CoordGroupTrack
{
	CoordTotals prev[2];
	BkHist	   *prev_hist[2];
	BkHist	   *cur_hist[2];
} CoordGroupTrack;

typedef struct Coord
{
	RunShared  *sh;
	BackgroundWorkerHandle **workers;	/* the client workers */
	int		   *worker_of;		/* each client's worker */
	int			nstarted;
	bool		row_inserted;
	bool		locked;			/* the dataset's lock (runstate.c) */
	bool		progress_hist;	/* bench.progress keeps histograms (not 0.1.0's) */
	TimestampTz start_ts;
	int64		last_tick_ns;
	CoordTotals prev[2];		/* per phase, at the last tick */
	BkHist	   *prev_hist[2];
	BkHist	   *cur_hist[2];
	BkHist	   *delta_hist;
	CoordGroupTrack *groups;	/* groups =>: each group's, or NULL */
	const char *cancel_source;
	BkObserver	obs;			/* samples, sizes, settings (observe.c) */
	bool		observing;
	/* a run against a target: what the target said of itself before it */
	char	   *target_host;
	char	   *target_version;
	char	   *target_settings;	/* jsonb */
	double		target_rtt_ms;
	PGconn	   *target_conn;	/* the coordinator's own, for the samples */
	bool		start_recorded; /* bench.runs.started_at is the go */
	int64		next_sample_ns;
	int			connect_wait_ms;	/* its next connection's longest wait; 0:
									 * the target's connect_timeout */
	bool		checked_before; /* check_query: read before the go */
	int64		check_before;
} Coord;

static volatile sig_atomic_t coord_terminated = false;
static volatile sig_atomic_t coord_canceled = false;

/* SIGTERM: end the run as 'aborted', keeping what was measured */
static void
coord_sigterm(SIGNAL_ARGS)
{
	int			save_errno = errno;

	coord_terminated = true;
	SetLatch(MyLatch);
	errno = save_errno;
}

/* SIGINT (bench.cancel, pg_cancel_backend): end the run as 'canceled' */
static void
coord_sigint(SIGNAL_ARGS)
{
	int			save_errno = errno;

	coord_canceled = true;
	SetLatch(MyLatch);
	errno = save_errno;
}

static void
coord_xact_begin(const char *activity)
{
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	PushActiveSnapshot(GetTransactionSnapshot());
	pgstat_report_activity(STATE_RUNNING, activity);
}

static void
coord_xact_commit(void)
{
	PopActiveSnapshot();
	CommitTransactionCommand();
	pgstat_report_activity(STATE_IDLE, NULL);
	pgstat_report_stat(false);
}

/*
 * coord_flush_stats
 *		This process's statistics, WAL included, into the shared ones now
 *		(out of a transaction).  On 14, whose pgstat_report_stat(true)
 *		reports the session's end, at most every half second instead.
 */
static void
coord_flush_stats(void)
{
#if PG_VERSION_NUM >= 150000
	pgstat_report_stat(true);
#else
	pgstat_report_stat(false);
#endif
}

/* whether the run should stop, and why */
static bool
coord_stop_requested(Coord *co, CoordEnd *why)
{
	RunShared  *sh = co->sh;

	if (coord_terminated)
		*why = END_TERMINATED;
	else if (coord_canceled || pg_atomic_read_u32(&sh->cancel) != 0)
	{
		*why = END_CANCELED;
		co->cancel_source = coord_canceled ? "canceled with bench.cancel or pg_cancel_backend"
			: "canceled: the caller of bench.run was canceled or went away";
	}
	else if (sh->client_error.set)
		*why = END_CLIENT_ERROR;
	else
		return false;
	return true;
}

/* whether the worker of client I is still there */
static inline bool
coord_client_alive(Coord *co, int i)
{
	return co->worker_of[i] < co->nstarted &&
		bk_worker_alive(co->workers[co->worker_of[i]]);
}

/*
 * coord_test_pause
 *		pgbenchkit.test_pause names MOMENT (tests only): wait there, showing
 *		so in pg_stat_activity, until a signal (a cancel, a termination), a
 *		client's error or exit, or ten minutes (or MOMENT=ms: that long),
 *		so that a test can hit the run at that moment without racing it.
 */
static void
coord_test_pause(Coord *co, const char *moment)
{
	List	   *moments;
	ListCell   *lc;
	bool		named = false;
	char	   *copy;
	int64		until;
	int64		pause_ms = 600 * 1000;

	if (bk_test_pause == NULL || bk_test_pause[0] == '\0')
		return;
	copy = pstrdup(bk_test_pause);
	if (!SplitIdentifierString(copy, ',', &moments))
		return;
	foreach(lc, moments)
	{
		const char *m = (const char *) lfirst(lc);
		size_t		len = strlen(moment);

		if (strncmp(m, moment, len) == 0 && (m[len] == '\0' || m[len] == '='))
		{
			named = true;
			if (m[len] == '=')
				pause_ms = strtol(m + len + 1, NULL, 10);
		}
	}
	if (!named)
		return;
	pgstat_report_activity(STATE_RUNNING, psprintf("pgbenchkit: paused before %s (pgbenchkit.test_pause)",
												   moment));
	until = bk_now_ns() + pause_ms * INT64CONST(1000000);
	while (!coord_terminated && !coord_canceled && !co->sh->client_error.set &&
		   pg_atomic_read_u32(&co->sh->cancel) == 0 && bk_now_ns() < until)
	{
		bool		clients_alive = true;

		for (int i = 0; i < co->sh->clients; i++)
			clients_alive &= pg_atomic_read_u32(&RUN_CLIENTS(co->sh)[i].state) == CLIENT_DONE ||
				coord_client_alive(co, i);
		if (!clients_alive)
			break;				/* a client vanished: the run goes on to its end */
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/* ------------------------------------------------------------------------
 * Starting
 * ------------------------------------------------------------------------
 */

static void coord_finish(Coord *co, CoordEnd why);

/* at =>: whether the run should not go, and why (bk_run_wait_for_start) */
static bool
coord_stop_before_go(void *arg, int *why)
{
	CoordEnd	w = END_COMPLETE;
	bool		stop = coord_stop_requested((Coord *) arg, &w);

	*why = (int) w;
	return stop;
}

/* at =>: a run stopped while it waited ends here, its clients never gone */
static void
coord_finish_before_go(Coord *co, int why)
{
	co->start_ts = GetCurrentTimestamp();
	co->sh->start_ns = co->sh->measure_ns = bk_now_ns();
	co->last_tick_ns = PG_INT64_MAX;	/* no interval, no progress row */
	coord_finish(co, (CoordEnd) why);
}

/*
 * coord_start_clients
 *		The client workers: one per client in the server, `jobs` against a
 *		target.  All of them or none: when a slot is missing, the ones
 *		started are stopped and the run does not start.
 */
static void
coord_start_clients(Coord *co, dsm_segment *seg)
{
	RunShared  *sh = co->sh;
	const char *needed_by = psprintf("A run with %d clients", sh->clients);

	for (int w = 0; w < sh->nworkers; w++)
	{
		int			first;
		int			n;

		bk_run_worker_clients(sh, w, &first, &n);
		for (int i = first; i < first + n; i++)
			co->worker_of[i] = w;
	}
	for (int w = 0; w < sh->nworkers; w++)
	{
		co->workers[w] = bk_start_worker(RUN_CLIENT_TYPE, "bench_run_client_main", seg, w,
										 sh->driver == RUN_DRIVER_LIBPQ ?
										 psprintf("client worker %d of %d", w + 1, sh->nworkers) :
										 psprintf("client %d of %d", w + 1, sh->clients),
										 needed_by, BK_RUN_WORKERS(sh->nworkers));
		co->nstarted = w + 1;
	}
}

/* a cancel, a termination or a client's error before the run started */
static void
coord_refuse_stop_before_start(Coord *co)
{
	CoordEnd	why;

	if (!coord_stop_requested(co, &why))
		return;
	if (why == END_CLIENT_ERROR)
	{
		pg_read_barrier();
		bk_error_raise(&co->sh->client_error);
	}
	ereport(ERROR,
			(errcode(why == END_TERMINATED ? ERRCODE_ADMIN_SHUTDOWN : ERRCODE_QUERY_CANCELED),
			 errmsg("the run was %s before it started",
					why == END_TERMINATED ? "terminated" : "canceled")));
}

/*
 * coord_wait_ready
 *		Wait until every client is connected and has prepared its
 *		statements.  A client that failed, or vanished, or a cancel, stops
 *		the run before it starts.
 */
static void
coord_wait_ready(Coord *co)
{
	RunShared  *sh = co->sh;

	for (;;)
	{
		int			ready = 0;

		for (int i = 0; i < sh->clients; i++)
		{
			uint32		state = pg_atomic_read_u32(&RUN_CLIENTS(sh)[i].state);

			if (state == CLIENT_READY)
				ready++;
			else if (state == CLIENT_STARTING && !coord_client_alive(co, i))
			{
				pg_read_barrier();
				if (pg_atomic_read_u32(&RUN_CLIENTS(sh)[i].state) == CLIENT_STARTING &&
					!sh->client_error.set)
					ereport(ERROR,
							(errcode(ERRCODE_CONNECTION_FAILURE),
							 errmsg("client %d of the run exited before the run started", i),
							 errhint("The server log may say why.")));
			}
		}
		coord_refuse_stop_before_start(co);
		if (ready == sh->clients)
			return;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/* ------------------------------------------------------------------------
 * Measuring
 * ------------------------------------------------------------------------
 */

/* the clients and histogram shards of group G, or of the whole run (G NULL) */
static RunGroup
coord_range(Coord *co, const RunGroup *g)
{
	RunGroup	r;

	if (g != NULL)
		return *g;
	memset(&r, 0, sizeof(r));
	r.nclients = co->sh->clients;
	r.nshards = co->sh->nshards;
	return r;
}

/*
 * coord_collect_group
 *		The sums of the counters and histograms of group G's clients (all
 *		clients, G NULL), per phase.
 */
static void
coord_collect_group(Coord *co, const RunGroup *g, CoordTotals *t, BkHist **hist)
{
	RunShared  *sh = co->sh;
	RunGroup	r = coord_range(co, g);
	int			first = r.first_client;
	int			last = r.first_client + r.nclients;
	int			first_shard = r.first_shard;
	int			last_shard = r.first_shard + r.nshards;

	memset(t, 0, sizeof(CoordTotals) * 2);
	for (int i = first; i < last; i++)
	{
		RunClient  *cl = &RUN_CLIENTS(sh)[i];

		for (int ph = 0; ph < 2; ph++)
		{
			RunCounters *ctr = &cl->phase[ph];

			t[ph].xacts += pg_atomic_read_u64(&ctr->xacts);
			pg_read_barrier();
			t[ph].lat_sum_ns += pg_atomic_read_u64(&ctr->lat_sum_ns);
			t[ph].lat_sumsq += ctr->lat_sumsq;
			for (int k = 0; k < FAIL_KINDS; k++)
				t[ph].failures += pg_atomic_read_u64(&ctr->failures[k]);
			t[ph].retried += pg_atomic_read_u64(&ctr->retried);
			t[ph].retries += pg_atomic_read_u64(&ctr->retries);
			t[ph].ignored += pg_atomic_read_u64(&ctr->ignored);
			t[ph].lost += pg_atomic_read_u64(&ctr->lost);
			t[ph].reconnects += pg_atomic_read_u64(&ctr->reconnects);
		}
	}
	for (int ph = 0; ph < 2; ph++)
	{
		memset(hist[ph], 0, sizeof(BkHist));
		for (int s = first_shard; s < last_shard; s++)
			bk_hist_add_shared(hist[ph], RUN_HIST(sh, ph, s));
	}
}

/* the sums of every client's counters and histograms, per phase */
static void
coord_collect(Coord *co, CoordTotals *t, BkHist **hist)
{
	coord_collect_group(co, NULL, t, hist);
}

/*
 * coord_interval_values
 *		An interval's counts and latencies in IV, from the totals of its
 *		phase at its end (CUR) and start (PREV), the histogram of its
 *		transactions (DELTA) and its length in seconds.
 */
static void
coord_interval_values(RunInterval *iv, const CoordTotals *cur, const CoordTotals *prev,
					  const BkHist *delta, double secs)
{
	int64		n = cur->xacts - prev->xacts;

	iv->transactions = n;
	iv->tps = n / secs;
	iv->failures = cur->failures - prev->failures;
	iv->retries = cur->retries - prev->retries;
	iv->ignored_errors = cur->ignored - prev->ignored;
	iv->connection_failures = cur->lost - prev->lost;
	iv->reconnects = cur->reconnects - prev->reconnects;
	if (n > 0)
	{
		double		avg = (cur->lat_sum_ns - prev->lat_sum_ns) / 1e6 / n;
		double		var = (cur->lat_sumsq - prev->lat_sumsq) / n - avg * avg;

		iv->lat_avg_ms = avg;
		iv->lat_stddev_ms = var > 0 ? sqrt(var) : 0;
		iv->lat_p99_ms = bk_hist_percentile(delta, 0.99, 0, -1) / 1e6;
		iv->lat_max_ms = bk_hist_max(delta) / 1e6;
	}
	else
		iv->lat_avg_ms = iv->lat_stddev_ms = iv->lat_p99_ms = iv->lat_max_ms = -1;
}

/*
 * coord_group_intervals
 *		The rows of each group for the interval of IV (its bounds and
 *		phase PH), in the transaction of the run's row.
 */
static void
coord_group_intervals(Coord *co, const RunInterval *run_iv, int ph, double secs)
{
	RunShared  *sh = co->sh;

	for (int g = 0; g < sh->ngroups; g++)
	{
		CoordGroupTrack *tr = &co->groups[g];
		CoordTotals now[2];
		RunInterval iv = *run_iv;
		BkHist	   *swap;

		coord_collect_group(co, &sh->groups[g], now, tr->cur_hist);
		bk_hist_sub(co->delta_hist, tr->cur_hist[ph], tr->prev_hist[ph]);
		coord_interval_values(&iv, &now[ph], &tr->prev[ph], co->delta_hist, secs);
		bk_run_group_progress(sh->run_id, g + 1, &iv);
		tr->prev[ph] = now[ph];
		swap = tr->prev_hist[ph];
		tr->prev_hist[ph] = tr->cur_hist[ph];
		tr->cur_hist[ph] = swap;
	}
}

/* every transaction the clients ended so far: committed or failed, any phase */
static int64
coord_all_xacts(Coord *co)
{
	int64		n = 0;

	for (int i = 0; i < co->sh->clients; i++)
	{
		RunClient  *cl = &RUN_CLIENTS(co->sh)[i];

		for (int ph = 0; ph < 2; ph++)
		{
			n += pg_atomic_read_u64(&cl->phase[ph].xacts);
			for (int k = 0; k < FAIL_KINDS; k++)
				n += pg_atomic_read_u64(&cl->phase[ph].failures[k]);
		}
	}
	return n;
}

static void coord_resample(Coord *co);

/* one sample of the server's counters while the clients run */
static void
coord_sample(Coord *co, int64 now)
{
	coord_flush_stats();
	coord_xact_begin("pgbenchkit: sampling");
	if (co->sh->on_disconnect_reconnect && co->sh->driver == RUN_DRIVER_LIBPQ &&
		!bk_obs_sampling(&co->obs))
		coord_resample(co);
	bk_obs_sample(&co->obs, "during", GetCurrentTimestamp(),
				  (now - co->sh->start_ns) / 1e9, coord_all_xacts(co));
	coord_xact_commit();
}

/* in the first transaction after the go: the run's true start */
static void
coord_record_start(Coord *co)
{
	if (co->start_recorded || !co->row_inserted)
		return;
	bk_run_set_started(co->sh->run_id, co->start_ts);
	co->start_recorded = true;
}

static TimestampTz
coord_timestamp(Coord *co, int64 ns)
{
	return co->start_ts + (ns - co->sh->start_ns) / 1000;
}

/*
 * coord_interval
 *		The interval from the last tick to END_NS: its progress row, and
 *		its line for the caller.  An interval is all warm-up or all
 *		measured (the end of the warm-up is a tick), and counts only the
 *		transactions of its phase, so that the measured intervals add up
 *		to the summary exactly.
 */
static void
coord_interval(Coord *co, int64 end_ns)
{
	RunShared  *sh = co->sh;
	CoordTotals now[2];
	CoordTotals *cur;
	CoordTotals *prev;
	RunInterval iv;
	double		secs = (end_ns - co->last_tick_ns) / 1e9;
	int			ph;

	if (end_ns <= co->last_tick_ns)
		return;
	coord_collect(co, now, co->cur_hist);
	iv.in_warmup = end_ns <= sh->measure_ns;
	ph = iv.in_warmup ? PHASE_WARMUP : PHASE_MEASURED;
	cur = &now[ph];
	prev = &co->prev[ph];
	bk_hist_sub(co->delta_hist, co->cur_hist[ph], co->prev_hist[ph]);

	iv.start = coord_timestamp(co, co->last_tick_ns);
	iv.end = coord_timestamp(co, end_ns);
	iv.elapsed_s = (end_ns - sh->start_ns) / 1e9;
	coord_interval_values(&iv, cur, prev, co->delta_hist, secs);
	iv.reconnecting = sh->on_disconnect_reconnect;

	coord_xact_begin("pgbenchkit: recording progress");
	coord_record_start(co);
	bk_run_progress(sh->run_id, &iv, co->progress_hist ? co->delta_hist : NULL);
	if (co->groups)
		coord_group_intervals(co, &iv, ph, secs);
	coord_xact_commit();

	if (sh->progress_ns > 0)
	{
		uint32		seq = pg_atomic_read_u32(&sh->progress_seq) + 1;
		char	   *line = sh->progress_lines[seq % RUN_PROGRESS_RING];
		int			len;

		len = snprintf(line, RUN_PROGRESS_LEN,
					   "progress: %.1f s, %.1f tps, lat %.3f ms stddev %.3f, %lld failed",
					   iv.elapsed_s, iv.tps, Max(iv.lat_avg_ms, 0), Max(iv.lat_stddev_ms, 0),
					   (long long) iv.failures);
		if (sh->max_tries != 1 && len < RUN_PROGRESS_LEN)
			snprintf(line + len, RUN_PROGRESS_LEN - len, ", %lld retried, %lld retries",
					 (long long) (cur->retried - prev->retried), (long long) iv.retries);
		/* sysbench's restarts: only where a script has \ignore_errors */
		len = strlen(line);
		if (iv.ignored_errors > 0 && len < RUN_PROGRESS_LEN)
			snprintf(line + len, RUN_PROGRESS_LEN - len, ", %lld ignored errors",
					 (long long) iv.ignored_errors);
		if (iv.in_warmup)
			strlcat(line, " (warm-up)", RUN_PROGRESS_LEN);
		pg_write_barrier();
		pg_atomic_write_u32(&sh->progress_seq, seq);
		bk_set_latch_of(sh->caller_pid);
	}

	/* the other phase's counts since its last interval stay to be reported */
	{
		BkHist	   *swap = co->prev_hist[ph];

		co->prev[ph] = now[ph];
		co->prev_hist[ph] = co->cur_hist[ph];
		co->cur_hist[ph] = swap;
	}
	co->last_tick_ns = end_ns;
}

/* the next interval boundary after the last: a tick, or the end of warm-up */
static int64
coord_next_tick(Coord *co)
{
	RunShared  *sh = co->sh;
	int64		k = (co->last_tick_ns - sh->start_ns) / sh->tick_ns + 1;
	int64		next = sh->start_ns + k * sh->tick_ns;

	if (sh->measure_ns > co->last_tick_ns && sh->measure_ns < next)
		next = sh->measure_ns;
	return next;
}

static bool
coord_all_done(Coord *co)
{
	for (int i = 0; i < co->sh->clients; i++)
		if (pg_atomic_read_u32(&RUN_CLIENTS(co->sh)[i].state) != CLIENT_DONE)
			return false;
	return true;
}

/*
 * coord_lost_client
 *		A client that stopped without saying it was done (it cannot have
 *		recorded an error either): record that, so the run fails.
 */
static void
coord_lost_client(Coord *co)
{
	RunShared  *sh = co->sh;

	for (int i = 0; i < sh->clients; i++)
	{
		if (pg_atomic_read_u32(&RUN_CLIENTS(sh)[i].state) == CLIENT_DONE ||
			coord_client_alive(co, i))
			continue;
		pg_read_barrier();
		if (pg_atomic_read_u32(&RUN_CLIENTS(sh)[i].state) == CLIENT_DONE)
			continue;
		if (pg_atomic_exchange_u32(&sh->client_error_claimed, 1) == 0)
		{
			sh->client_error_index = i;
			bk_error_set(&sh->client_error, ERRCODE_CONNECTION_FAILURE,
						 "the client exited unexpectedly",
						 "The server log may say why.");
		}
		return;
	}
}

/*
 * coord_stop_clients
 *		Tell the clients to stop after their transaction; those still busy
 *		after GRACE_MS are terminated.  Returns when all have exited.
 */
static void
coord_stop_clients(Coord *co, int grace_ms)
{
	RunShared  *sh = co->sh;
	int64		deadline = bk_now_ns() + (int64) grace_ms * 1000000;

	pg_atomic_write_u32(&sh->stop, 1);
	for (int i = 0; i < sh->clients; i++)
		if (co->worker_of[i] < co->nstarted)
			bk_set_latch_of(RUN_CLIENTS(sh)[i].pid);
	while (bk_now_ns() < deadline)
	{
		bool		alive = false;

		for (int i = 0; i < sh->clients && !alive; i++)
			alive = coord_client_alive(co, i) &&
				pg_atomic_read_u32(&RUN_CLIENTS(sh)[i].state) != CLIENT_DONE;
		if (!alive)
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 10L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
	for (int w = 0; w < co->nstarted; w++)
		if (bk_worker_alive(co->workers[w]))
			TerminateBackgroundWorker(co->workers[w]);
	for (int w = 0; w < co->nstarted; w++)
		(void) WaitForBackgroundWorkerShutdown(co->workers[w]);
}

/*
 * coord_summary_group
 *		The summary of the measured phase (warm-up excluded) of group G's
 *		clients (all clients, G NULL) and its merged histogram.  A group's
 *		measured time is the run's (MEASURED_S), so that the groups' tps add
 *		up to the run's.
 */
static void
coord_summary_group(Coord *co, const RunGroup *g, double measured_s, RunSummary *sum,
					BkHist *hist)
{
	RunShared  *sh = co->sh;
	int64		lat_sum = 0;
	int64		lag_sum = 0;
	int64		lag_max = 0;
	double		sumsq = 0;
	int64		min_ns = PG_INT64_MAX;
	int64		max_ns = -1;
	int64		end_ns = sh->measure_ns;
	RunGroup	r = coord_range(co, g);
	int			first = r.first_client;
	int			last = r.first_client + r.nclients;
	int			first_shard = r.first_shard;
	int			last_shard = r.first_shard + r.nshards;

	memset(sum, 0, sizeof(*sum));
	for (int i = first; i < last; i++)
	{
		RunClient  *cl = &RUN_CLIENTS(sh)[i];
		RunCounters *m = &cl->phase[PHASE_MEASURED];

		sum->transactions += pg_atomic_read_u64(&m->xacts);
		sum->warmup_transactions += pg_atomic_read_u64(&cl->phase[PHASE_WARMUP].xacts);
		lat_sum += pg_atomic_read_u64(&m->lat_sum_ns);
		sumsq += m->lat_sumsq;
		for (int k = 0; k < FAIL_KINDS; k++)
			sum->failures[k] += pg_atomic_read_u64(&m->failures[k]) +
				pg_atomic_read_u64(&cl->phase[PHASE_WARMUP].failures[k]);
		sum->retried += pg_atomic_read_u64(&m->retried);
		sum->retries += pg_atomic_read_u64(&m->retries);
		sum->ignored_errors += pg_atomic_read_u64(&m->ignored);
		sum->skipped += pg_atomic_read_u64(&m->skipped);
		sum->late += pg_atomic_read_u64(&m->late);
		lag_sum += pg_atomic_read_u64(&m->lag_sum_ns);
		lag_max = Max(lag_max, m->lag_max_ns);
		if (pg_atomic_read_u64(&m->xacts) > 0)
		{
			min_ns = Min(min_ns, cl->min_ns);
			max_ns = Max(max_ns, cl->max_ns);
		}
		end_ns = Max(end_ns, cl->end_ns);
	}
	memset(hist, 0, sizeof(BkHist));
	for (int s = first_shard; s < last_shard; s++)
		bk_hist_add_shared(hist, RUN_HIST(sh, PHASE_MEASURED, s));

	sum->measured_s = g ? measured_s : (end_ns - sh->measure_ns) / 1e9;
	sum->lag_avg_ms = sum->transactions > 0 ? lag_sum / 1e6 / sum->transactions : -1;
	sum->lag_max_ms = sum->transactions > 0 ? lag_max / 1e6 : -1;
	sum->tps = sum->measured_s > 0 ? sum->transactions / sum->measured_s : -1;
	if (sum->transactions > 0)
	{
		double		avg = lat_sum / 1e6 / sum->transactions;
		double		var = sumsq / sum->transactions - avg * avg;

		sum->lat_avg_ms = avg;
		sum->lat_stddev_ms = var > 0 ? sqrt(var) : 0;
		sum->lat_min_ms = min_ns / 1e6;
		sum->lat_max_ms = max_ns / 1e6;
		sum->lat_p50_ms = bk_hist_percentile(hist, 0.50, min_ns, max_ns) / 1e6;
		sum->lat_p90_ms = bk_hist_percentile(hist, 0.90, min_ns, max_ns) / 1e6;
		sum->lat_p95_ms = bk_hist_percentile(hist, 0.95, min_ns, max_ns) / 1e6;
		sum->lat_p99_ms = bk_hist_percentile(hist, 0.99, min_ns, max_ns) / 1e6;
		sum->lat_p999_ms = bk_hist_percentile(hist, 0.999, min_ns, max_ns) / 1e6;
	}
	else
	{
		sum->lat_avg_ms = sum->lat_stddev_ms = sum->lat_min_ms = sum->lat_max_ms = -1;
		sum->lat_p50_ms = sum->lat_p90_ms = sum->lat_p95_ms = -1;
		sum->lat_p99_ms = sum->lat_p999_ms = -1;
	}
	if (g != NULL)
	{
		sum->connection_time_ms = -1;
		sum->clients_lost = -1;
		return;
	}
	sum->connection_time_ms = bk_run_connection_time_ms(co->sh, sum);
	sum->clients_lost = sh->driver == RUN_DRIVER_LIBPQ ?
		(int) pg_atomic_read_u32(&sh->clients_lost) : -1;
	bk_run_outages(sh, co->start_ts, sum, sh->duration_ns > 0 ?
				   Max(end_ns, Min(bk_now_ns(), sh->start_ns + sh->duration_ns)) : end_ns);
}

/*
 * coord_summary
 *		The run's summary and histogram, and with groups each group's
 *		(*GSUM and *GHIST, palloc'd; NULL without groups).
 */
static void
coord_summary(Coord *co, RunSummary *sum, BkHist *hist, RunSummary **gsum, BkHist ***ghist)
{
	RunShared  *sh = co->sh;

	coord_summary_group(co, NULL, 0, sum, hist);
	*gsum = NULL;
	*ghist = NULL;
	if (!sh->grouped)
		return;
	*gsum = palloc(sizeof(RunSummary) * sh->ngroups);
	*ghist = palloc(sizeof(BkHist *) * sh->ngroups);
	for (int g = 0; g < sh->ngroups; g++)
	{
		(*ghist)[g] = palloc(sizeof(BkHist));
		coord_summary_group(co, &sh->groups[g], sum->measured_s, &(*gsum)[g], (*ghist)[g]);
	}
}

/* the coordinator's connection to the target, if open, closed */
static void
coord_close_target(Coord *co)
{
	if (co->target_conn != NULL)
		bk_target_finish(co->target_conn);
	co->target_conn = NULL;
}

/*
 * coord_revive_target
 *		on_disconnect 'reconnect', at the run's end: the coordinator's
 *		connection, lost with the clients' when the target restarted or
 *		failed over, made again for the last sample and the sizes after;
 *		if it cannot be, the observer does without them (and says why).
 *		Counters read across a restart or a failover are not those of one
 *		server's run: the observer says that too.
 */
/* a new connection of the coordinator to its target, into *ARG (obs_try) */
static void
coord_connect_target(void *arg)
{
	Coord	   *co = *(Coord **) arg;
	char		appname[NAMEDATALEN];

	BkTarget   *t;

	snprintf(appname, sizeof(appname), "pgbenchkit run %lld", (long long) co->sh->run_id);
	t = bk_target_open(co->sh->target, co->sh->roleid, appname);
	t->params->connect_wait_ms = co->connect_wait_ms;
	co->target_conn = bk_target_open_conn(t);
}

static void
coord_revive_target(Coord *co, const RunSummary *sum)
{
	PGresult   *r;

	if (!co->sh->on_disconnect_reconnect || co->sh->driver != RUN_DRIVER_LIBPQ || !co->observing)
		return;
	if (sum->outages > 0)
		obs_unavailable(&co->obs, "counters",
						psprintf("the clients lost their connections to the target (%d outages): the samples of another server, or of one restarted, are not subtracted from those before (bench.run_counters, bench.interval_counters)",
								 sum->outages));
	if (co->target_conn != NULL)
	{
		r = bk_target_exec(co->target_conn, "");
		if (r != NULL && PQresultStatus(r) == PGRES_EMPTY_QUERY)
		{
			PQclear(r);
			return;
		}
		PQclear(r);
		bk_target_finish(co->target_conn);
		co->target_conn = NULL;
	}
	/* in a subtransaction: connecting reads the catalogs (the password rules) */
	co->connect_wait_ms = 0;
	if (obs_try(coord_connect_target, &co) != NULL)
		co->target_conn = NULL;
	bk_obs_set_remote(&co->obs, co->target_conn);
}

/*
 * coord_resample
 *		on_disconnect 'reconnect', while the clients run: the samples of the
 *		target stopped because the coordinator's connection was lost (or
 *		left without an answer by response_timeout); a new one is tried at
 *		each sample's time, waiting at most a second, and the samples go on
 *		over it.  Their server may be another one (a failover) or have
 *		restarted: each sample names its server's start, and the views do
 *		not subtract across a change.
 */
static void
coord_resample(Coord *co)
{
	PGconn	   *old = co->target_conn;

	if (old != NULL && PQstatus(old) == CONNECTION_OK &&
		PQtransactionStatus(old) != PQTRANS_ACTIVE)
		return;					/* stopped for another reason: stays so */
	if (old != NULL)
		bk_target_finish(old);
	co->target_conn = NULL;
	co->connect_wait_ms = 1000;
	if (obs_try(coord_connect_target, &co) != NULL)
		co->target_conn = NULL;
	bk_obs_resume(&co->obs, co->target_conn);
}

/*
 * coord_finish
 *		Stop the clients, record the last interval, the summary and the
 *		final status in one transaction.
 */
static void
coord_finish(Coord *co, CoordEnd why)
{
	RunShared  *sh = co->sh;
	RunSummary	sum;
	BkHist	   *hist = palloc(sizeof(BkHist));
	RunSummary *gsum;
	BkHist	  **ghist;
	const char *status;
	int			code = 0;
	char	   *message = NULL;
	int64		end_ns;

	/* the server is going down hard (a caller's cancel may come of it) */
	if (!bk_postmaster_alive())
		proc_exit(1);
	coord_stop_clients(co, why == END_COMPLETE ? 60000 : 500);
	bk_target_set_exec_timeout(0);	/* the last sample, the check: as long as they take */
	if (why == END_COMPLETE && sh->client_error.set)
		why = END_CLIENT_ERROR;
	/* on_disconnect 'continue': a run whose every client lost its connection failed */
	if (why == END_COMPLETE &&
		pg_atomic_read_u32(&sh->clients_lost) == (uint32) sh->clients)
	{
		pg_read_barrier();
		if (pg_atomic_exchange_u32(&sh->client_error_claimed, 1) == 0)
		{
			sh->client_error = sh->lost_error;
			sh->client_error_index = -1;
			sh->client_error.set = true;
		}
		why = END_CLIENT_ERROR;
	}

	coord_summary(co, &sum, hist, &gsum, &ghist);
	end_ns = Max(co->last_tick_ns, sh->measure_ns);
	for (int i = 0; i < sh->clients; i++)
		end_ns = Max(end_ns, RUN_CLIENTS(sh)[i].end_ns);
	if (why != END_COMPLETE)
		end_ns = Max(end_ns, bk_now_ns());
	coord_interval(co, end_ns);
	coord_test_pause(co, "final_write");

	switch (why)
	{
		case END_COMPLETE:
			status = "done";
			if (sum.reconnects >= 0 && sum.outages_open > 0)
			{
				/* on_disconnect 'reconnect': the target did not come back */
				status = "failed";
				code = ERRCODE_CONNECTION_FAILURE;
				message = psprintf("the target had not come back when the run ended: %d of %d clients were still without a connection",
								   sum.outages_open, sh->clients);
				bk_error_set(&sh->error, code, message,
							 "bench.runs has the outage: downtime_max_ms counts the open one until the run's end.");
			}
			break;
		case END_CANCELED:
			status = "canceled";
			code = ERRCODE_QUERY_CANCELED;
			message = pstrdup(co->cancel_source);
			bk_error_set(&sh->error, code, message, NULL);
			break;
		case END_CLIENT_ERROR:
			status = "failed";
			pg_read_barrier();
			code = sh->client_error.sqlerrcode;
			message = sh->client_error_index < 0 ?
				psprintf("every client lost its connection; the first: %s", sh->client_error.message) :
				psprintf("client %d: %s", sh->client_error_index, sh->client_error.message);
			sh->error = sh->client_error;
			bk_text_copy(sh->error.message, message, sizeof(sh->error.message));
			break;
		default:
			status = "aborted";
			code = ERRCODE_ADMIN_SHUTDOWN;
			message = pstrdup("the run's coordinator was terminated (server shutdown or pg_terminate_backend)");
			bk_error_set(&sh->error, code, message, NULL);
			break;
	}

	coord_flush_stats();		/* the WAL it wrote during the run: above */
	coord_xact_begin("pgbenchkit: recording the run's results");
	coord_record_start(co);
	coord_revive_target(co, &sum);
	if (co->checked_before)
	{
		char	   *why = NULL;

		sum.committed = sum.transactions + sum.warmup_transactions;
		sum.check_before = co->check_before;
		sum.checked = bk_run_check(sh, co->target_conn, false, &sum.check_after, &why);
		if (!sum.checked && co->observing)
			obs_unavailable(&co->obs, "check_query", psprintf("after the run: %s", why));
	}
	if (co->observing)
		bk_obs_end(&co->obs, GetCurrentTimestamp(), (bk_now_ns() - sh->start_ns) / 1e9,
				   coord_all_xacts(co));
	bk_run_finish(sh, status, &sum, hist, gsum, ghist, code, message);
	coord_xact_commit();
	coord_close_target(co);
	strlcpy(sh->final_status, status, sizeof(sh->final_status));
}

/*
 * coord_read_target
 *		Before a run against a target, over a connection of the
 *		coordinator's own: the target's version and settings, the scale of
 *		its pgbench tables when the workload needs them (as pgbench counts
 *		pgbench_branches), and the network's round-trip time to it, the
 *		median of empty queries (bk_target_rtt_ms).
 */
static void
coord_read_target(Coord *co)
{
	RunShared  *sh = co->sh;
	char		appname[NAMEDATALEN];
	BkTarget   *target;
	PGconn	   *conn;

	snprintf(appname, sizeof(appname), "pgbenchkit run %lld", (long long) sh->run_id);
	target = bk_target_open(sh->target, sh->roleid, appname);
	conn = bk_target_open_conn(target);
	co->target_conn = conn;
	PG_TRY();
	{
		const char *host = PQhost(conn);
		MemoryContext old;

		/* what the run's row gets, kept past the transaction that reads it */
		old = MemoryContextSwitchTo(TopMemoryContext);
		co->target_host = pstrdup(host ? host : "");
		co->target_version = bk_target_value(conn, sh->target, "the server version",
											 "SELECT pg_catalog.current_setting('server_version')",
											 -1, NULL, NULL);
		co->target_settings = bk_target_value(conn, sh->target, "the settings",
											  bk_obs_settings_sql(), -1, NULL, NULL);
		MemoryContextSwitchTo(old);

		/*
		 * Whether the clients' sessions can have the target notice a driver
		 * that died while their query runs (PostgreSQL 14+, on a platform
		 * that has the check): this connection tries.
		 */
		{
			PGresult   *r = bk_target_exec(conn, "SET client_connection_check_interval = '"
												 BK_TARGET_CHECK_EVERY "'");

			sh->target_checks_client = r != NULL && PQresultStatus(r) == PGRES_COMMAND_OK;
			PQclear(r);
		}
		if (sh->needs_dataset)
		{
			PGresult   *r = bk_target_exec(conn, "select count(*) from pgbench_branches");

			if (r == NULL || PQresultStatus(r) != PGRES_TUPLES_OK ||
				atoi(PQgetvalue(r, 0, 0)) < 1)
			{
				bool		empty = r != NULL && PQresultStatus(r) == PGRES_TUPLES_OK;

				PQclear(r);
				ereport(ERROR,
						(errcode(ERRCODE_UNDEFINED_TABLE),
						 errmsg("workload \"%s\" needs a %s dataset, and target \"%s\" has %s",
								sh->workload, "tpcb", sh->target,
								empty ? "an empty pgbench_branches" : "no pgbench_branches its role can read"),
						 errhint("Load one there with pgbench -i, as the target's role finds it in its search_path.")));
			}
			sh->scale = atoi(PQgetvalue(r, 0, 0));
			PQclear(r);
		}
		co->target_rtt_ms = bk_target_rtt_ms(conn);
	}
	PG_CATCH();
	{
		co->target_conn = NULL;
		bk_target_finish(conn);
		PG_RE_THROW();
	}
	PG_END_TRY();
}


/* what the run row says of its target, once it is inserted */
static void
coord_record_target(Coord *co)
{
	Oid			types[5] = {INT8OID, TEXTOID, TEXTOID, TEXTOID, FLOAT8OID};
	Datum		values[5];
	char		nulls[5] = {' ', ' ', ' ', ' ', ' '};
	BkOwnerSwitch sw;

	values[0] = Int64GetDatum(co->sh->run_id);
	values[1] = CStringGetTextDatum(co->target_host);
	values[2] = CStringGetTextDatum(co->target_version ? co->target_version : "");
	if (co->target_settings)
		values[3] = CStringGetTextDatum(co->target_settings);
	else
		nulls[3] = 'n';
	if (co->target_rtt_ms >= 0)
		values[4] = Float8GetDatum(co->target_rtt_ms);
	else
		nulls[4] = 'n';
	bk_become_owner(&sw);
	bk_spi_exec(psprintf("UPDATE %s SET target_host = $2, server_version = $3,"
						 " settings = $4::pg_catalog.jsonb, target_rtt_ms = $5 WHERE id = $1",
						 bk_runs_table()),
				5, types, values, nulls, SPI_OK_UPDATE);
	bk_restore_user(&sw);
}

/*
 * coord_run
 *		The whole run, from taking the dataset to the final row.
 */
static void
coord_run(Coord *co, dsm_segment *seg)
{
	RunShared  *sh = co->sh;
	int64		end_ns;
	CoordEnd	why = END_COMPLETE;
	char		appname[NAMEDATALEN];
	const BkDatasetInfo *info;
	char	   *counters = NULL;
	int			stop_why;

	/*
	 * 1: the dataset and the run's id; first, what a crash left behind
	 * (here, not in the caller, whose transaction would hold an xid for the
	 * whole run if it wrote anything)
	 */
	coord_xact_begin("pgbenchkit: starting a run");
	bk_recover_orphans();
	bk_recover_runs();
	if (sh->dataset_id > 0)
	{
		bk_take_dataset(sh->dataset_id, true);
		co->locked = true;
	}
	sh->run_id = bk_run_next_id();
	bk_run_hold(sh->run_id);
	co->progress_hist = bk_spi_int64("SELECT count(*) FROM pg_catalog.pg_attribute"
									 " WHERE attrelid = 'bench.progress'::pg_catalog.regclass"
									 "   AND attname = 'histogram_count' AND NOT attisdropped",
									 0, NULL, NULL) > 0;
	coord_xact_commit();
	snprintf(appname, sizeof(appname), "pgbenchkit run %lld", (long long) sh->run_id);
	pgstat_report_appname(appname);

	/* a target: what it says of itself, and its scale */
	if (sh->driver == RUN_DRIVER_LIBPQ)
	{
		coord_xact_begin("pgbenchkit: reading the target");
		coord_read_target(co);
		coord_xact_commit();
	}

	/* 2: the clients, all ready */
	coord_start_clients(co, seg);
	coord_wait_ready(co);

	/*
	 * 3: prewarm; the row, the settings, the sizes and the first sample (of
	 * this server, or of the target over the coordinator's connection)
	 */
	coord_xact_begin(sh->prewarm ? "pgbenchkit: prewarming" : "pgbenchkit: starting a run");
	info = sh->dataset_kind[0] != '\0' ? bk_dataset_info(sh->dataset_kind) : NULL;
	if (info != NULL && info->counters != NULL)
		counters = psprintf(info->counters, sh->dataset_schema[0] == '\0' ? "" :
							psprintf("%s.", quote_identifier(sh->dataset_schema)));
	if (sh->driver == RUN_DRIVER_SERVER)
		bk_obs_init(&co->obs, sh->run_id, sh->dataset_id, sh->roleid, counters);
	else
	{
		/* the dataset's tables on the target: prewarmed, measured */
		StringInfoData names;

		initStringInfo(&names);
		if (sh->needs_dataset)
			appendStringInfoString(&names, "{pgbench_accounts,pgbench_branches,pgbench_tellers,pgbench_history}");
		else if (sh->target_tables > 0)
		{
			appendStringInfoChar(&names, '{');
			for (int i = 1; i <= sh->target_tables; i++)
				appendStringInfo(&names, "%s%s%d", i > 1 ? "," : "", sh->target_prefix, i);
			appendStringInfoChar(&names, '}');
		}
		else if (info != NULL && info->table_names != NULL)
			appendStringInfoString(&names, info->table_names);
		bk_obs_init_remote(&co->obs, sh->run_id, sh->roleid, co->target_conn, sh->target,
						   names.len > 0 ? names.data : NULL, counters);
	}
	if (sh->prewarm)
	{
		coord_test_pause(co, "prewarm");
		bk_obs_prewarm(&co->obs);
	}
	coord_xact_commit();
	coord_refuse_stop_before_start(co);
	if (sh->check_query_off != 0)
		co->checked_before = bk_run_check(sh, co->target_conn, true, &co->check_before, NULL);

	/*
	 * The samples read pg_stat_wal and the WAL's insert position: what this
	 * process writes is in both only if its WAL statistics are flushed
	 * before each reading (pgstat_report_stat flushes at most once a second
	 * otherwise, and whether it did inside a short run was a matter of
	 * timing).  So before the first sample's transaction, after it (its
	 * row, written after its reading), before each sample while the
	 * clients run, and before the last.  What that transaction writes
	 * before the first reading (the run's row, the sizes before) is then
	 * in the run's pg_stat_wal and not in its insert positions, less than
	 * the pages' headers that only the positions count.
	 */
	if (sh->start_at != 0)
		bk_run_check_in_time(sh);
	coord_flush_stats();
	coord_xact_begin("pgbenchkit: recording the run");
	bk_run_insert(sh, GetUserNameFromId(sh->roleid, false),
				  sh->start_at != 0 ? bk_run_go_at(sh) : GetCurrentTimestamp());
	if (sh->driver == RUN_DRIVER_LIBPQ)
		coord_record_target(co);
	if (sh->start_at != 0)
	{
		/* at =>: the row is there; wait for the instant, then the first sample */
		coord_xact_commit();
		co->row_inserted = true;
		if (!bk_run_wait_for_start(sh, BK_RUN_SAMPLE_LEAD_NS, coord_stop_before_go, co, &stop_why))
		{
			coord_finish_before_go(co, stop_why);
			return;
		}
		coord_flush_stats();
		coord_xact_begin("pgbenchkit: the run's first sample");
	}
	bk_obs_begin(&co->obs, GetCurrentTimestamp(), 0, 0);
	co->observing = true;
	coord_xact_commit();
	coord_flush_stats();
	co->row_inserted = true;
	if (sh->start_at != 0 && !bk_run_wait_for_start(sh, 0, coord_stop_before_go, co, &stop_why))
	{
		coord_finish_before_go(co, stop_why);
		return;
	}

	/* then go; the run's clock starts now */
	co->start_ts = GetCurrentTimestamp();
	sh->start_ns = bk_now_ns();
	sh->measure_ns = sh->start_ns + sh->warmup_ns;
	co->last_tick_ns = sh->start_ns;
	co->next_sample_ns = sh->sample_ns > 0 ? sh->start_ns + sh->sample_ns : PG_INT64_MAX;
	pg_write_barrier();
	pg_atomic_write_u32(&sh->state, RUN_RUNNING);
	pg_atomic_write_u32(&sh->go, 1);
	/* the samples of a target that stops answering wait no longer than its clients */
	if (sh->response_timeout_ns > 0 && sh->driver == RUN_DRIVER_LIBPQ)
		bk_target_set_exec_timeout((int) Max(sh->response_timeout_ns / 1000000, 1));
	for (int i = 0; i < sh->clients; i++)
		bk_set_latch_of(RUN_CLIENTS(sh)[i].pid);
	bk_set_latch_of(sh->caller_pid);
	pgstat_report_activity(STATE_RUNNING, "pgbenchkit: running");

	/* 4: intervals until the end */
	end_ns = sh->duration_ns > 0 ? sh->start_ns + sh->duration_ns : PG_INT64_MAX;
	for (;;)
	{
		int64		now = bk_now_ns();
		int64		next = coord_next_tick(co);
		int64		wake;

		if (coord_stop_requested(co, &why))
			break;
		if (coord_all_done(co))
			break;
		coord_lost_client(co);
		if (now >= end_ns && pg_atomic_read_u32(&sh->stop) == 0)
		{
			pg_atomic_write_u32(&sh->stop, 1);
			for (int i = 0; i < sh->clients; i++)
				bk_set_latch_of(RUN_CLIENTS(sh)[i].pid);
		}
		if (now >= next && next < end_ns)
		{
			coord_interval(co, next);
			continue;
		}
		if (now >= co->next_sample_ns && now < end_ns)
		{
			coord_sample(co, now);
			while (co->next_sample_ns <= bk_now_ns())
				co->next_sample_ns += sh->sample_ns;
			continue;
		}
		/* sleep until the next tick, sample or the end; look around every 250 ms */
		wake = Min(next, co->next_sample_ns);
		wake = Min(wake, end_ns);
		if (wake <= now || wake > now + 250 * INT64CONST(1000000))
			wake = now + 250 * INT64CONST(1000000);
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 Max(1L, (long) ((wake - now + 999999) / 1000000)),
						 PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}

	/* 5: the end */
	coord_finish(co, why);
}

/*
 * bench_run_coordinator_main
 *		Entry point of a run's coordinator.
 */
void
bench_run_coordinator_main(Datum main_arg)
{
	dsm_segment *seg;
	RunShared  *sh;
	Coord		co;
	MemoryContext topcxt;

	pqsignal(SIGTERM, coord_sigterm);
	pqsignal(SIGINT, coord_sigint);
	BackgroundWorkerUnblockSignals();
	seg = dsm_attach(DatumGetUInt32(main_arg));
	if (seg == NULL)
		return;					/* the caller is gone already */
	sh = (RunShared *) dsm_segment_address(seg);
	if (!bk_segment_ours(seg, RUN_MAGIC, RUN_COORDINATOR_TYPE))
		return;
	sh->coordinator_pid = MyProcPid;
	bk_worker_connect(sh->dboid, sh->roleid, "pgbenchkit run");

	topcxt = AllocSetContextCreate(TopMemoryContext, "pgbenchkit run", ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(topcxt);
	memset(&co, 0, sizeof(co));
	co.sh = sh;
	co.workers = palloc0(sizeof(BackgroundWorkerHandle *) * sh->nworkers);
	co.worker_of = palloc0(sizeof(int) * sh->clients);
	for (int ph = 0; ph < 2; ph++)
	{
		co.prev_hist[ph] = palloc0(sizeof(BkHist));
		co.cur_hist[ph] = palloc0(sizeof(BkHist));
	}
	co.delta_hist = palloc0(sizeof(BkHist));
	if (sh->grouped)
	{
		co.groups = palloc0(sizeof(CoordGroupTrack) * sh->ngroups);
		for (int g = 0; g < sh->ngroups; g++)
			for (int ph = 0; ph < 2; ph++)
			{
				co.groups[g].prev_hist[ph] = palloc0(sizeof(BkHist));
				co.groups[g].cur_hist[ph] = palloc0(sizeof(BkHist));
			}
	}

	PG_TRY();
	{
		coord_run(&co, seg);
		pg_write_barrier();
		pg_atomic_write_u32(&sh->state, RUN_ENDED);
	}
	PG_CATCH();
	{
		/* the server is going down hard: the next bench call marks the run */
		if (!bk_postmaster_alive())
			proc_exit(1);
		MemoryContextSwitchTo(topcxt);
		bk_error_capture(&sh->error);
		AbortOutOfAnyTransaction();
		PG_TRY();
		{
			if (co.row_inserted)
			{
				/* keep what was measured; the error is the run's */
				RunSummary	sum;
				BkHist	   *hist = palloc(sizeof(BkHist));
				RunSummary *gsum;
				BkHist	  **ghist;

				coord_stop_clients(&co, 500);
				coord_summary(&co, &sum, hist, &gsum, &ghist);
				coord_xact_begin("pgbenchkit: recording the run's results");
				bk_run_finish(sh, "failed", &sum, hist, gsum, ghist, sh->error.sqlerrcode,
							  sh->error.message);
				coord_xact_commit();
				strlcpy(sh->final_status, "failed", sizeof(sh->final_status));
			}
			else
				coord_stop_clients(&co, 0);
		}
		PG_CATCH();
		{
			/* the next bench call marks the run; keep the first error */
			EmitErrorReport();
			FlushErrorState();
			AbortOutOfAnyTransaction();
		}
		PG_END_TRY();
		pg_write_barrier();
		pg_atomic_write_u32(&sh->state, co.row_inserted ? RUN_ENDED : RUN_NOT_STARTED);
	}
	PG_END_TRY();

	coord_close_target(&co);
	bk_run_release(sh->run_id);
	if (co.locked)
		bk_release_dataset(sh->dataset_id);
	bk_set_latch_of(sh->caller_pid);
}
