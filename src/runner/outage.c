/*-------------------------------------------------------------------------
 *
 * outage.c
 *		on_disconnect 'reconnect': what a run's clients measured of their
 *		outages, summed up for bench.runs and bench.outages; and the
 *		run's check_query, read on the target before and after the run, to
 *		find the committed transactions the target lacks.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <stdlib.h>

#include "libpq-fe.h"
#include "utils/builtins.h"

#include "runner/outage.h"
#include "target/target.h"

/* a moment of the run's clock as a timestamp, the run having started at START_TS */
static TimestampTz
outage_timestamp(RunShared *sh, TimestampTz start_ts, int64 ns)
{
	return start_ts + (ns - sh->start_ns) / 1000;
}

static int
outage_cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a;
	double		y = *(const double *) b;

	return x < y ? -1 : x > y ? 1 : 0;
}

/*
 * bk_run_outages
 *		on_disconnect 'reconnect': the clients' outages in SUM, their times
 *		as timestamps of a run that started at START_TS.  A client's
 *		downtime is the time of its outages in all, each from its last
 *		success before the loss to its first success after it; one still
 *		open at END_NS counts until then.
 */
void
bk_run_outages(RunShared *sh, TimestampTz start_ts, RunSummary *sum, int64 end_ns)
{
	double	   *down;
	int			n = 0;
	int64		first_from = PG_INT64_MAX;
	int64		first_lost = PG_INT64_MAX;
	int64		first_back = PG_INT64_MAX;
	int64		last_back = 0;

	sum->reconnects = -1;
	sum->recovery_ms = -1;
	if (!sh->on_disconnect_reconnect)
		return;
	down = palloc(sizeof(double) * sh->clients);
	sum->reconnects = 0;
	sum->outages = sum->outages_open = 0;
	sum->downtime_median_ms = sum->downtime_max_ms = sum->detection_max_ms = 0;
	sum->client_outages = palloc0(sizeof(RunClientOutage) * sh->clients);
	pg_read_barrier();
	for (int i = 0; i < sh->clients; i++)
	{
		RunClient  *cl = &RUN_CLIENTS(sh)[i];
		int64		ns = cl->downtime_ns;
		RunClientOutage *o;

		sum->reconnects += cl->reconnects;
		sum->outages += cl->outages;
		sum->unknown_outcome += cl->unknown;
		if (cl->outage_from_ns != 0)
		{
			sum->outages++;
			sum->outages_open++;
			ns += Max(end_ns - cl->outage_from_ns, 0);
		}
		sum->detection_max_ms = Max(sum->detection_max_ms, cl->detect_max_ns / 1e6);
		if (cl->first_lost_ns == 0)
			continue;
		/* the run's: its first outage's start, its last's end, its recovery */
		first_from = Min(first_from, cl->first_from_ns);
		first_lost = Min(first_lost, cl->first_lost_ns);
		if (cl->first_back_ns > 0)
			first_back = Min(first_back, cl->first_back_ns);
		last_back = Max(last_back, cl->last_back_ns);
		down[n++] = ns / 1e6;

		o = &sum->client_outages[sum->nclient_outages++];
		o->client = i;
		o->outages = cl->outages + (cl->outage_from_ns != 0);
		o->open = cl->outage_from_ns != 0;
		o->downtime_ms = ns / 1e6;
		o->detection_max_ms = cl->detect_max_ns / 1e6;
		o->reconnects = cl->reconnects;
		o->attempts = cl->reconnect_attempts;
		o->last_error = cl->last_error;
		o->unknown = cl->unknown;
		o->committed = pg_atomic_read_u64(&cl->phase[PHASE_WARMUP].xacts) +
			pg_atomic_read_u64(&cl->phase[PHASE_MEASURED].xacts);
		o->first_failure = outage_timestamp(sh, start_ts, cl->first_lost_ns);
		o->first_from = outage_timestamp(sh, start_ts, cl->first_from_ns);
		o->last_to = cl->last_back_ns > 0 ? outage_timestamp(sh, start_ts, cl->last_back_ns) : 0;
	}
	if (n > 0)
	{
		sum->outage_started = outage_timestamp(sh, start_ts, first_from);
		sum->outage_ended = sum->outages_open == 0 ? outage_timestamp(sh, start_ts, last_back) : 0;
		sum->recovery_ms = first_back < PG_INT64_MAX ? (first_back - first_lost) / 1e6 : -1;
	}
	if (n > 0)
	{
		qsort(down, n, sizeof(double), outage_cmp_double);
		sum->downtime_median_ms = n % 2 ? down[n / 2] : (down[n / 2 - 1] + down[n / 2]) / 2;
		sum->downtime_max_ms = down[n - 1];
	}
	pfree(down);
}

/*
 * bk_run_check
 *		The run's check_query on the target over CONN (the coordinator's
 *		connection): its one value, an integer, into *VALUE.  Before the run
 *		(BEFORE) a failure is the run's error, and the run does not start;
 *		after it, the function returns false and *WHY says why.
 */
bool
bk_run_check(RunShared *sh, PGconn *conn, bool before, int64 *value, char **why_out)
{
	const char *why = NULL;
	int			code = ERRCODE_INVALID_PARAMETER_VALUE;
	PGresult   *r;

	if (conn == NULL)
		why = "the coordinator has no connection to the target";
	else if ((r = bk_target_exec(conn, RUN_TEXT(sh, sh->check_query_off))) == NULL)
		why = "the connection to the target broke";
	else
	{
		char	   *end;

		if (PQresultStatus(r) != PGRES_TUPLES_OK)
		{
			const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);

			why = psprintf("the target answered: %s", pchomp(PQresultErrorMessage(r)));
			if (state != NULL && strlen(state) == 5)
				code = MAKE_SQLSTATE(state[0], state[1], state[2], state[3], state[4]);
		}
		else if (PQntuples(r) != 1 || PQnfields(r) != 1 || PQgetisnull(r, 0, 0))
			why = psprintf("it returned %d rows of %d columns, not one integer",
						   PQntuples(r), PQnfields(r));
		else
		{
			errno = 0;
			*value = strtoi64(PQgetvalue(r, 0, 0), &end, 10);
			if (errno != 0 || *end != '\0' || end == PQgetvalue(r, 0, 0))
				why = psprintf("its value \"%s\" is not an integer", PQgetvalue(r, 0, 0));
		}
		PQclear(r);
	}
	if (why == NULL)
		return true;
	if (before)
		ereport(ERROR,
				(errcode(code),
				 errmsg("check_query failed on target \"%s\" before the run: %s", sh->target, why),
				 errhint("check_query must return one integer that each committed transaction of the run adds one to, as SELECT count(*) FROM pgbench_history.")));
	*why_out = pstrdup(why);
	return false;
}

