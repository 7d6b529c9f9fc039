/*-------------------------------------------------------------------------
 *
 * results.c
 *		The rows a run leaves in bench.runs, bench.progress and
 *		bench.histograms.
 *
 * Only the run's coordinator writes them, each in a transaction of its
 * own, as the owner of schema bench (catalog.c): the row of a run is
 * committed before its clients start, a progress row at the end of every
 * interval (with the interval's latency histogram), and the summary when
 * the run ends, however it ends.  Runs whose coordinator vanished (crash,
 * restart) are finished by runstate.c, from the progress rows they left.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <unistd.h>

#include <math.h>

#include "access/xlog.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "pgstat.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "meta/catalog.h"
#include "runner/results.h"
#include "meta/workload.h"
#include "script/vars.h"

static bool bench_has_column(const char *rel, const char *col);

/* SPI argument helpers: a double that may be missing (< 0 or NaN) */
static void
set_float(Datum *values, char *nulls, int i, double v)
{
	if (isnan(v) || v < 0)
		nulls[i] = 'n';
	else
		values[i] = Float8GetDatum(v);
}

/*
 * bk_run_next_id
 *		A new run id, drawn before the clients start so that they can show
 *		it in their application_name.
 */
int64
bk_run_next_id(void)
{
	BkOwnerSwitch sw;
	int64		id;

	bk_become_owner(&sw);
	id = bk_spi_int64("SELECT pg_catalog.nextval('bench.runs_id_seq')", 0, NULL, NULL);
	bk_restore_user(&sw);
	return id;
}

/*
 * bk_run_connection_time_ms
 *		Connection time as pgbench reports it: with a connection per
 *		transaction, the average per transaction (every connection's time,
 *		closing included, over the transactions and failures); otherwise
 *		the initial connection time, the longest any worker took to connect
 *		its clients.  -1 for in-server clients.
 */
double
bk_run_connection_time_ms(const RunShared *sh, const RunSummary *sum)
{
	int64		total = 0;
	int64		longest = 0;

	if (sh->driver != RUN_DRIVER_LIBPQ)
		return -1;
	for (int w = 0; w < sh->nworkers; w++)
	{
		int			first;
		int			n;
		int64		worker = 0;

		bk_run_worker_clients(sh, w, &first, &n);
		for (int i = first; i < first + n; i++)
			worker += RUN_CLIENTS(sh)[i].conn_ns;
		total += worker;
		longest = Max(longest, worker);
	}
	if (sh->connect_per_transaction)
	{
		int64		n = sum->transactions + sum->warmup_transactions +
			sum->failures[FAIL_SERIALIZATION] + sum->failures[FAIL_DEADLOCK] +
			sum->failures[FAIL_OTHER];

		return n > 0 ? total / 1e6 / n : -1;
	}
	return longest / 1e6;
}

/*
 * bk_run_insert
 *		The row of a run whose clients are ready, status 'running'; the
 *		run starts at STARTED_AT.
 */
void
bk_run_insert(RunShared *sh, const char *rolename, TimestampTz started_at)
{
	BkOwnerSwitch sw;
	Oid			types[27] = {INT8OID, TEXTOID, INT8OID, INT4OID, INT4OID, INTERVALOID,
		INT8OID, TEXTOID, INTERVALOID, INTERVALOID, INT4OID, TEXTOID, TEXTOID, INT4OID,
		TIMESTAMPTZOID, BOOLOID, INTERVALOID, INT8OID, FLOAT8OID, INTERVALOID, INT8OID,
	TEXTOID, TEXTOID, TEXTOID, INT4OID, TEXTOID, TEXTOID};
	Datum		values[27];
	char		nulls[27];

	memset(nulls, ' ', sizeof(nulls));
	values[0] = Int64GetDatum(sh->run_id);
	values[1] = CStringGetTextDatum(sh->workload);
	if (sh->dataset_id > 0)
		values[2] = Int64GetDatum(sh->dataset_id);
	else
		nulls[2] = 'n';
	/* a target's pgbench tables count their branches, as pgbench -c counts them */
	if (sh->scale > 0 && (sh->dataset_id > 0 || sh->driver == RUN_DRIVER_LIBPQ))
		values[3] = Int32GetDatum(sh->scale);
	else
		nulls[3] = 'n';
	values[4] = Int32GetDatum(sh->clients);
	if (sh->duration_set)
		values[5] = IntervalPGetDatum(&sh->duration);
	else
		nulls[5] = 'n';
	if (sh->transactions > 0)
		values[6] = Int64GetDatum(sh->transactions);
	else
		nulls[6] = 'n';
	values[7] = CStringGetTextDatum(sh->protocol_name);
	values[8] = IntervalPGetDatum(&sh->warmup);
	values[9] = IntervalPGetDatum(&sh->progress);
	values[10] = Int32GetDatum(sh->max_tries);
	if (sh->tag_off != 0)
		values[11] = CStringGetTextDatum(RUN_TEXT(sh, sh->tag_off));
	else
		nulls[11] = 'n';
	values[12] = CStringGetTextDatum(rolename);
	values[13] = Int32GetDatum(MyProcPid);
	values[14] = TimestampTzGetDatum(started_at);
	values[15] = BoolGetDatum(sh->prewarm);
	values[16] = IntervalPGetDatum(&sh->sample_interval);
	values[17] = Int64GetDatum(sh->suite_id);
	if (sh->suite_id <= 0)
		nulls[17] = 'n';

	if (sh->rate > 0)
		values[18] = Float8GetDatum(sh->rate);
	else
		nulls[18] = 'n';
	if (sh->latency_limit_ns > 0)
		values[19] = IntervalPGetDatum(&sh->latency_limit);
	else
		nulls[19] = 'n';
	values[20] = Int64GetDatum((int64) sh->seed);
	if (sh->variables_json_off != 0)
		values[21] = CStringGetTextDatum(RUN_TEXT(sh, sh->variables_json_off));
	else
		nulls[21] = 'n';
	if (sh->driver == RUN_DRIVER_LIBPQ)
	{
		values[22] = CStringGetTextDatum(sh->target);
		values[23] = CStringGetTextDatum("libpq");
		values[24] = Int32GetDatum(sh->nworkers);
		values[25] = CStringGetTextDatum(sh->connect_per_transaction ? "per_transaction" : "per_run");
		values[26] = CStringGetTextDatum(sh->on_disconnect_continue ? "continue" :
										 sh->on_disconnect_reconnect ? "reconnect" : "fail");
	}
	else
	{
		nulls[22] = nulls[24] = nulls[25] = nulls[26] = 'n';
		values[23] = CStringGetTextDatum("server");
	}

	/*
	 * The columns of a run against a target only for such a run: an
	 * in-server run leaves them at their defaults, so that the SQL of 0.1.0,
	 * whose bench.runs lacks them, still records runs until ALTER EXTENSION
	 * pgbenchkit UPDATE.
	 */
	bk_become_owner(&sw);
	bk_spi_exec(psprintf("INSERT INTO %s (id, workload, dataset_id, scale, clients, duration,"
						 " transactions_per_client, protocol, warmup, progress, max_tries, tag,"
						 " status, created_by, coordinator_pid, started_at, prewarm, sample_interval,"
						 " suite_id, rate, latency_limit, random_seed, variables%s)"
						 " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,"
						 " 'running', $13::name, $14, $15, $16, $17, $18, $19, $20, $21, $22::jsonb%s)",
						 bk_runs_table(),
						 sh->driver == RUN_DRIVER_LIBPQ ? ", target, driver, jobs, connect, on_disconnect" : "",
						 sh->driver == RUN_DRIVER_LIBPQ ? ", $23, $24, $25, $26, $27" : ""),
				sh->driver == RUN_DRIVER_LIBPQ ? 27 : 22, types, values, nulls, SPI_OK_INSERT);

	/* its step of a suite of steps, which the SQL of 0.1.0 cannot start */
	if (sh->step[0] != '\0')
	{
		Oid			ttypes[2] = {INT8OID, TEXTOID};
		Datum		tvalues[2] = {Int64GetDatum(sh->run_id), CStringGetTextDatum(sh->step)};

		bk_spi_exec(psprintf("UPDATE %s SET step = $2 WHERE id = $1", bk_runs_table()),
					2, ttypes, tvalues, NULL, SPI_OK_UPDATE);
	}

	/*
	 * The price it runs at, when known: kept with the run, since a price
	 * changes.  Only where bench.runs has the columns (not the SQL of 0.2.0
	 * and before, until ALTER EXTENSION pgbenchkit UPDATE).
	 */
	if (sh->price_per_hour[0] != '\0' && bench_has_column("runs", "price_per_hour"))
	{
		Oid			ptypes[3] = {INT8OID, TEXTOID, TEXTOID};
		Datum		pvalues[3] = {Int64GetDatum(sh->run_id), CStringGetTextDatum(sh->price_per_hour),
		CStringGetTextDatum(sh->currency)};

		bk_spi_exec(psprintf("UPDATE %s SET price_per_hour = $2::pg_catalog.numeric, currency = $3"
							 " WHERE id = $1", bk_runs_table()),
					3, ptypes, pvalues, NULL, SPI_OK_UPDATE);
	}

	/*
	 * at => and part_of =>: the instant its measured part starts, and the
	 * distributed run it is a part of (the SQL of 0.2.0 and before cannot
	 * pass them).
	 */
	if (sh->start_at != 0)
	{
		Oid			atypes[3] = {INT8OID, TIMESTAMPTZOID, TEXTOID};
		Datum		avalues[3] = {Int64GetDatum(sh->run_id), TimestampTzGetDatum(sh->start_at),
		CStringGetTextDatum(sh->part_of)};
		char		anulls[3] = {' ', ' ', sh->part_of[0] == '\0' ? 'n' : ' '};

		bk_spi_exec(psprintf("UPDATE %s SET start_at = $2, part_of = $3 WHERE id = $1",
							 bk_runs_table()),
					3, atypes, avalues, anulls, SPI_OK_UPDATE);
	}

	/*
	 * The server that runs it: its host's name and its cluster's system
	 * identifier, for a fleet's central database (the node's name and
	 * number are the columns' defaults).  Not in the SQL of 0.2.0 and
	 * before.
	 */
	if (bench_has_column("runs", "node_host"))
	{
		Oid			ntypes[3] = {INT8OID, TEXTOID, TEXTOID};
		Datum		nvalues[3];
		char		nnulls[3] = {' ', ' ', ' '};
		char		host[256];

		nvalues[0] = Int64GetDatum(sh->run_id);
		if (gethostname(host, sizeof(host)) == 0)
		{
			host[sizeof(host) - 1] = '\0';
			nvalues[1] = CStringGetTextDatum(host);
		}
		else
			nnulls[1] = 'n';
		nvalues[2] = CStringGetTextDatum(psprintf(UINT64_FORMAT, GetSystemIdentifier()));
		bk_spi_exec(psprintf("UPDATE %s SET node_host = $2, node_system_identifier = $3 WHERE id = $1",
							 bk_runs_table()),
					3, ntypes, nvalues, nnulls, SPI_OK_UPDATE);
	}

	/*
	 * check_query and response_timeout, when given (not in the SQL of 0.2.0
	 * and before, whose bench.run cannot take them)
	 */
	if (sh->check_query_off != 0 || sh->response_timeout_ns > 0)
	{
		Oid			ctypes[3] = {INT8OID, TEXTOID, INTERVALOID};
		Datum		cvalues[3];
		char		cnulls[3] = {' ', ' ', ' '};

		cvalues[0] = Int64GetDatum(sh->run_id);
		if (sh->check_query_off != 0)
			cvalues[1] = CStringGetTextDatum(RUN_TEXT(sh, sh->check_query_off));
		else
			cnulls[1] = 'n';
		if (sh->response_timeout_ns > 0)
			cvalues[2] = IntervalPGetDatum(&sh->response_timeout);
		else
			cnulls[2] = 'n';
		bk_spi_exec(psprintf("UPDATE %s SET check_query = $2, response_timeout = $3 WHERE id = $1",
							 bk_runs_table()),
					3, ctypes, cvalues, cnulls, SPI_OK_UPDATE);
	}

	/* the scripts it runs */
	{
		BkWorkload *w = bk_run_shared_workload(sh);
		Oid			stypes[3] = {INT8OID, INT4OID, TEXTOID};
		Datum		svalues[3];

		svalues[0] = Int64GetDatum(sh->run_id);
		for (int i = 0; i < w->nscripts; i++)
		{
			svalues[1] = Int32GetDatum(w->weights[i]);
			svalues[2] = CStringGetTextDatum(w->scripts[i]);
			/* group_no only with groups, which the SQL of 0.1.0 cannot ask for */
			bk_spi_exec(psprintf("INSERT INTO bench.run_scripts (run_id, script_no, weight, script%s)"
								 " VALUES ($1, %d, $2, $3%s)",
								 sh->grouped ? ", group_no" : "", i + 1,
								 sh->grouped ? psprintf(", %d", bk_run_script_group(sh, i) + 1) : ""),
						3, stypes, svalues, NULL, SPI_OK_INSERT);
		}
	}

	/* its groups, as asked for */
	for (int g = 0; sh->grouped && g < sh->ngroups; g++)
	{
		const RunGroup *grp = &sh->groups[g];
		Oid			gtypes[6] = {INT8OID, INT4OID, TEXTOID, TEXTOID, INT4OID, FLOAT8OID};
		Datum		gvalues[6];
		char		gnulls[6] = {' ', ' ', ' ', ' ', ' ', ' '};

		gvalues[0] = Int64GetDatum(sh->run_id);
		gvalues[1] = Int32GetDatum(g + 1);
		gvalues[2] = CStringGetTextDatum(grp->name);
		gvalues[3] = CStringGetTextDatum(grp->workload);
		gvalues[4] = Int32GetDatum(grp->nclients);
		set_float(gvalues, gnulls, 5, grp->rate > 0 ? grp->rate : -1);
		bk_spi_exec("INSERT INTO bench.run_groups (run_id, group_no, name, workload, clients, rate)"
					" VALUES ($1, $2, $3, $4, $5, $6)",
					6, gtypes, gvalues, gnulls, SPI_OK_INSERT);
	}
	bk_restore_user(&sw);
}

/*
 * bench_has_column
 *		Whether table bench.REL has column COL: what a newer library asks of
 *		the SQL objects of an older version, until ALTER EXTENSION UPDATE.
 */
static bool
bench_has_column(const char *rel, const char *col)
{
	Oid			types[2] = {TEXTOID, TEXTOID};
	Datum		values[2] = {CStringGetTextDatum(rel), CStringGetTextDatum(col)};

	return bk_spi_int64("SELECT count(*) FROM pg_catalog.pg_attribute a"
						" JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) a.attrelid"
						" WHERE c.relnamespace OPERATOR(pg_catalog.=) 'bench'::pg_catalog.regnamespace"
						"   AND c.relname OPERATOR(pg_catalog.=) $1 AND a.attname OPERATOR(pg_catalog.=) $2"
						"   AND NOT a.attisdropped",
						2, types, values) > 0;
}

/*
 * run_finish_scripts
 *		What each script and each command of a run measured (its clients
 *		are done): bench.run_scripts and bench.command_latencies.  Runs as
 *		the owner of schema bench (the caller switched).
 */
static void
run_finish_scripts(RunShared *sh)
{
	BkWorkload *w = bk_run_shared_workload(sh);
	BkScript  **scripts = bk_workload_parse(w, bk_vartable_create());
	int			base = 0;
	/* not in the SQL of 0.1.0 (before ALTER EXTENSION UPDATE) */
	bool		phases_kept = bench_has_column("command_latencies", "parse_ms");
	bool		script_percentiles_kept = bench_has_column("run_scripts", "rollbacks");

	for (int s = 0; s < w->nscripts; s++)
	{
		BkScript   *script = scripts[s];
		RunScriptStat tot = {0, 0, 0, 0, 0, PG_INT64_MAX, -1};
		Oid			stypes[12] = {INT8OID, INT4OID, INT8OID, FLOAT8OID, INT8OID, INT8OID,
			INT8OID, FLOAT8OID, FLOAT8OID, FLOAT8OID, FLOAT8OID, FLOAT8OID};
		Datum		svalues[12];
		char		snulls[12];

		memset(snulls, ' ', sizeof(snulls));
		for (int c = 0; c < sh->clients; c++)
		{
			RunScriptStat *st = &RUN_SCRIPT_STATS(sh, c)[s];

			tot.xacts += st->xacts;
			tot.lat_sum_ns += st->lat_sum_ns;
			tot.failures += st->failures;
			tot.skipped += st->skipped;
			tot.rollbacks += st->rollbacks;
			if (st->xacts > 0)
			{
				tot.min_ns = Min(tot.min_ns, st->min_ns);
				tot.max_ns = Max(tot.max_ns, st->max_ns);
			}
		}
		svalues[0] = Int64GetDatum(sh->run_id);
		svalues[1] = Int32GetDatum(s + 1);
		svalues[2] = Int64GetDatum((int64) tot.xacts);
		set_float(svalues, snulls, 3, tot.xacts > 0 ? tot.lat_sum_ns / 1e6 / tot.xacts : -1);
		svalues[4] = Int64GetDatum((int64) tot.failures);
		svalues[5] = Int64GetDatum((int64) tot.skipped);
		svalues[6] = Int64GetDatum((int64) tot.rollbacks);
		/* the script's latency percentiles, from its histograms' sum */
		{
			BkHist	   *h = palloc0(sizeof(BkHist));
			static const double fractions[4] = {0.50, 0.90, 0.95, 0.99};

			for (int k = 0; k < sh->script_shards; k++)
				bk_hist_add_shared(h, RUN_SCRIPT_HIST(sh, s, k));
			for (int k = 0; k < 4; k++)
				set_float(svalues, snulls, 7 + k, tot.xacts > 0 ?
						  bk_hist_percentile(h, fractions[k], tot.min_ns, tot.max_ns) / 1e6 : -1);
			set_float(svalues, snulls, 11, tot.xacts > 0 ? tot.max_ns / 1e6 : -1);
			pfree(h);
		}
		/* not in the SQL of 0.2.0 (before ALTER EXTENSION UPDATE) */
		bk_spi_exec(script_percentiles_kept ?
					"UPDATE bench.run_scripts SET transactions = $3, latency_avg_ms = $4,"
					" failures = $5, skipped = $6, rollbacks = $7, latency_p50_ms = $8,"
					" latency_p90_ms = $9, latency_p95_ms = $10, latency_p99_ms = $11,"
					" latency_max_ms = $12 WHERE run_id = $1 AND script_no = $2" :
					"UPDATE bench.run_scripts SET transactions = $3, latency_avg_ms = $4,"
					" failures = $5, skipped = $6 WHERE run_id = $1 AND script_no = $2",
					script_percentiles_kept ? 12 : 6, stypes, svalues, snulls, SPI_OK_UPDATE);

		for (int i = 0; i < script->ncommands; i++)
		{
			RunCommandStat tc;
			Oid			ctypes[13] = {INT8OID, INT4OID, INT4OID, INT4OID, TEXTOID, INT8OID,
				FLOAT8OID, INT8OID, INT8OID, FLOAT8OID, FLOAT8OID, FLOAT8OID, FLOAT8OID};
			Datum		cvalues[13];
			char		cnulls[13];
			BkCommandKind kind = script->commands[i].kind;
			bool		sql = kind == BK_CMD_SQL || kind == BK_CMD_BEGIN ||
				kind == BK_CMD_COMMIT || kind == BK_CMD_ROLLBACK;

			memset(&tc, 0, sizeof(tc));
			memset(cnulls, ' ', sizeof(cnulls));
			for (int c = 0; c < sh->clients; c++)
			{
				RunCommandStat *st = &RUN_COMMAND_STATS(sh, c)[base + i];

				tc.count += st->count;
				tc.sum_ns += st->sum_ns;
				tc.failures += st->failures;
				tc.retries += st->retries;
				for (int k = 0; k < lengthof(tc.phase_ns); k++)
					tc.phase_ns[k] += st->phase_ns[k];
			}
			/* the phases of a SQL command's statements, when timed */
			for (int k = 0; k < lengthof(tc.phase_ns); k++)
			{
				if (sh->time_phases && sql && tc.count > 0)
					cvalues[9 + k] = Float8GetDatum(tc.phase_ns[k] / 1e6 / tc.count);
				else
					cnulls[9 + k] = 'n';
			}
			cvalues[0] = Int64GetDatum(sh->run_id);
			cvalues[1] = Int32GetDatum(s + 1);
			cvalues[2] = Int32GetDatum(i + 1);
			cvalues[3] = Int32GetDatum(script->commands[i].line);
			cvalues[4] = CStringGetTextDatum(script->commands[i].text ? script->commands[i].text : "");
			cvalues[5] = Int64GetDatum((int64) tc.count);
			set_float(cvalues, cnulls, 6, tc.count > 0 ? tc.sum_ns / 1e6 / tc.count : -1);
			cvalues[7] = Int64GetDatum((int64) tc.failures);
			cvalues[8] = Int64GetDatum((int64) tc.retries);
			bk_spi_exec(phases_kept ?
						"INSERT INTO bench.command_latencies (run_id, script_no, command_no, line,"
						" command, executions, latency_avg_ms, failures, retries,"
						" parse_ms, rewrite_ms, plan_ms, execute_ms)"
						" VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)" :
						"INSERT INTO bench.command_latencies (run_id, script_no, command_no, line,"
						" command, executions, latency_avg_ms, failures, retries)"
						" VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
						phases_kept ? 13 : 9, ctypes, cvalues, cnulls, SPI_OK_INSERT);
		}
		base += script->ncommands;
	}
}

/*
 * bk_run_set_started
 *		The moment the clients went, once it is known (the row is written
 *		just before).
 */
void
bk_run_set_started(int64 run_id, TimestampTz started_at)
{
	BkOwnerSwitch sw;
	Oid			types[2] = {INT8OID, TIMESTAMPTZOID};
	Datum		values[2] = {Int64GetDatum(run_id), TimestampTzGetDatum(started_at)};

	bk_become_owner(&sw);
	bk_spi_exec(psprintf("UPDATE %s SET started_at = $2 WHERE id = $1", bk_runs_table()),
				2, types, values, NULL, SPI_OK_UPDATE);
	bk_restore_user(&sw);
}

/*
 * run_hist_arrays
 *		The non-empty buckets of HIST as three arrays: lower and upper
 *		bounds in milliseconds, counts (bench.histograms' columns).
 */
static void
run_hist_arrays(const BkHist *hist, Datum *lower_ms, Datum *upper_ms, Datum *counts)
{
	Datum	   *lower = palloc(sizeof(Datum) * BK_HIST_BUCKETS);
	Datum	   *upper = palloc(sizeof(Datum) * BK_HIST_BUCKETS);
	Datum	   *count = palloc(sizeof(Datum) * BK_HIST_BUCKETS);
	int			n = 0;

	for (int b = 0; b < BK_HIST_BUCKETS; b++)
	{
		if (hist->counts[b] == 0)
			continue;
		lower[n] = Float8GetDatum(bk_hist_lower(b) / 1e6);
		upper[n] = Float8GetDatum(bk_hist_upper(b) / 1e6);
		count[n] = Int64GetDatum((int64) hist->counts[b]);
		n++;
	}
	*lower_ms = PointerGetDatum(construct_array(lower, n, FLOAT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
	*upper_ms = PointerGetDatum(construct_array(upper, n, FLOAT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
	*counts = PointerGetDatum(construct_array(count, n, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}

/*
 * Whether bench.progress has the columns of lost connections (not the SQL
 * of a version before them), asked once per process: a run's coordinator
 * writes a row every interval.
 */
static bool
progress_has_reconnects(void)
{
	static int	has = -1;

	if (has < 0)
		has = bench_has_column("progress", "reconnects") ? 1 : 0;
	return has == 1;
}

/*
 * bk_run_progress
 *		One progress row, with the latency histogram of its interval's
 *		transactions when HIST is given (NULL: the SQL of 0.1.0, whose
 *		bench.progress has no histogram).  The histograms of the measured
 *		intervals add up to the run's: what a run whose coordinator
 *		vanished keeps of it (runstate.c).
 */
void
bk_run_progress(int64 run_id, const RunInterval *iv, const BkHist *hist)
{
	BkOwnerSwitch sw;
	Oid			types[17] = {INT8OID, TIMESTAMPTZOID, TIMESTAMPTZOID, FLOAT8OID, INT8OID,
		FLOAT8OID, FLOAT8OID, FLOAT8OID, FLOAT8OID, FLOAT8OID, INT8OID, INT8OID, BOOLOID,
	INT8OID, FLOAT8ARRAYOID, FLOAT8ARRAYOID, INT8ARRAYOID};
	Datum		values[17];
	char		nulls[17];

	memset(nulls, ' ', sizeof(nulls));
	values[0] = Int64GetDatum(run_id);
	values[1] = TimestampTzGetDatum(iv->start);
	values[2] = TimestampTzGetDatum(iv->end);
	values[3] = Float8GetDatum(iv->elapsed_s);
	values[4] = Int64GetDatum(iv->transactions);
	values[5] = Float8GetDatum(iv->tps);
	set_float(values, nulls, 6, iv->lat_avg_ms);
	set_float(values, nulls, 7, iv->lat_stddev_ms);
	set_float(values, nulls, 8, iv->lat_p99_ms);
	set_float(values, nulls, 9, iv->lat_max_ms);
	values[10] = Int64GetDatum(iv->failures);
	values[11] = Int64GetDatum(iv->retries);
	values[12] = BoolGetDatum(iv->in_warmup);
	values[13] = Int64GetDatum(iv->ignored_errors);
	/* the SQL of 0.1.0 (no HIST) has neither histograms nor ignored_errors */
	if (hist != NULL)
		run_hist_arrays(hist, &values[14], &values[15], &values[16]);

	bk_become_owner(&sw);
	bk_spi_exec(psprintf("INSERT INTO bench.progress (run_id, interval_start, interval_end, elapsed_s,"
						 " transactions, tps, latency_avg_ms, latency_stddev_ms, latency_p99_ms,"
						 " latency_max_ms, failures, retries, in_warmup%s)"
						 " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13%s)",
						 hist ? ", ignored_errors, histogram_lower_ms, histogram_upper_ms, histogram_count" : "",
						 hist ? ", $14, $15, $16, $17" : ""),
				hist ? 17 : 13, types, values, nulls, SPI_OK_INSERT);
	/* on_disconnect 'reconnect': the lost connections, where the table has them */
	if (iv->reconnecting && progress_has_reconnects())
	{
		Oid			rtypes[4] = {INT8OID, TIMESTAMPTZOID, INT8OID, INT8OID};
		Datum		rvalues[4];

		rvalues[0] = Int64GetDatum(run_id);
		rvalues[1] = TimestampTzGetDatum(iv->start);
		rvalues[2] = Int64GetDatum(iv->connection_failures);
		rvalues[3] = Int64GetDatum(iv->reconnects);
		bk_spi_exec("UPDATE bench.progress SET connection_failures = $3, reconnects = $4"
					" WHERE run_id = $1 AND interval_start = $2",
					4, rtypes, rvalues, NULL, SPI_OK_UPDATE);
	}
	bk_restore_user(&sw);
}

/*
 * bk_run_group_progress
 *		One group's row of a progress interval (groups =>).
 */
void
bk_run_group_progress(int64 run_id, int group_no, const RunInterval *iv)
{
	BkOwnerSwitch sw;
	Oid			types[14] = {INT8OID, INT4OID, TIMESTAMPTZOID, TIMESTAMPTZOID, FLOAT8OID,
		INT8OID, FLOAT8OID, FLOAT8OID, FLOAT8OID, FLOAT8OID, INT8OID, INT8OID, INT8OID, BOOLOID};
	Datum		values[14];
	char		nulls[14];

	memset(nulls, ' ', sizeof(nulls));
	values[0] = Int64GetDatum(run_id);
	values[1] = Int32GetDatum(group_no);
	values[2] = TimestampTzGetDatum(iv->start);
	values[3] = TimestampTzGetDatum(iv->end);
	values[4] = Float8GetDatum(iv->elapsed_s);
	values[5] = Int64GetDatum(iv->transactions);
	values[6] = Float8GetDatum(iv->tps);
	set_float(values, nulls, 7, iv->lat_avg_ms);
	set_float(values, nulls, 8, iv->lat_p99_ms);
	set_float(values, nulls, 9, iv->lat_max_ms);
	values[10] = Int64GetDatum(iv->failures);
	values[11] = Int64GetDatum(iv->retries);
	values[12] = Int64GetDatum(iv->ignored_errors);
	values[13] = BoolGetDatum(iv->in_warmup);

	bk_become_owner(&sw);
	bk_spi_exec("INSERT INTO bench.group_progress (run_id, group_no, interval_start, interval_end,"
				" elapsed_s, transactions, tps, latency_avg_ms, latency_p99_ms, latency_max_ms,"
				" failures, retries, ignored_errors, in_warmup)"
				" VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
				14, types, values, nulls, SPI_OK_INSERT);
	bk_restore_user(&sw);
}

/*
 * run_finish_groups
 *		What each group of a run measured (groups =>): its row of
 *		bench.run_groups, with its latency histogram.  Runs as the owner of
 *		schema bench (the caller switched).
 */
static void
run_finish_groups(RunShared *sh, const RunSummary *gsum, BkHist *const *ghist)
{
	for (int g = 0; g < sh->ngroups; g++)
	{
		const RunSummary *sum = &gsum[g];
		Oid			types[17] = {INT8OID, INT4OID, INT8OID, FLOAT8OID, FLOAT8OID, FLOAT8OID,
			FLOAT8OID, FLOAT8OID, FLOAT8OID, FLOAT8OID, INT8OID, INT8OID, INT8OID, FLOAT8OID,
		FLOAT8ARRAYOID, FLOAT8ARRAYOID, INT8ARRAYOID};
		Datum		values[17];
		char		nulls[17];

		memset(nulls, ' ', sizeof(nulls));
		values[0] = Int64GetDatum(sh->run_id);
		values[1] = Int32GetDatum(g + 1);
		values[2] = Int64GetDatum(sum->transactions);
		set_float(values, nulls, 3, sum->tps);
		set_float(values, nulls, 4, sum->lat_avg_ms);
		set_float(values, nulls, 5, sum->lat_stddev_ms);
		set_float(values, nulls, 6, sum->lat_p50_ms);
		set_float(values, nulls, 7, sum->lat_p95_ms);
		set_float(values, nulls, 8, sum->lat_p99_ms);
		set_float(values, nulls, 9, sum->lat_max_ms);
		values[10] = Int64GetDatum(sum->failures[FAIL_SERIALIZATION] +
								   sum->failures[FAIL_DEADLOCK] + sum->failures[FAIL_OTHER]);
		values[11] = Int64GetDatum(sum->ignored_errors);
		values[12] = Int64GetDatum(sum->skipped);
		set_float(values, nulls, 13, sh->groups[g].rate > 0 ? sum->lag_avg_ms : -1);
		run_hist_arrays(ghist[g], &values[14], &values[15], &values[16]);
		bk_spi_exec("UPDATE bench.run_groups SET transactions = $3, tps = $4,"
					" latency_avg_ms = $5, latency_stddev_ms = $6, latency_p50_ms = $7,"
					" latency_p95_ms = $8, latency_p99_ms = $9, latency_max_ms = $10,"
					" failures = $11, ignored_errors = $12, skipped = $13, lag_avg_ms = $14,"
					" histogram_lower_ms = $15, histogram_upper_ms = $16, histogram_count = $17"
					" WHERE run_id = $1 AND group_no = $2",
					17, types, values, nulls, SPI_OK_UPDATE);
	}
}

/*
 * run_finish_outages
 *		on_disconnect 'reconnect': the run's outage in bench.runs (its first
 *		start, its last end, the recovery, the transactions of unknown
 *		outcome) and each client's in bench.outages.
 */
static void
run_finish_outages(RunShared *sh, const RunSummary *sum)
{
	Oid			types[5] = {INT8OID, INT8OID, TIMESTAMPTZOID, TIMESTAMPTZOID, FLOAT8OID};
	Datum		values[5];
	char		nulls[5] = {' ', ' ', 'n', 'n', 'n'};
	Oid			ctypes[14] = {INT8OID, INT4OID, INT4OID, BOOLOID, FLOAT8OID, FLOAT8OID,
		INT8OID, INT8OID, INT8OID, TIMESTAMPTZOID, TIMESTAMPTZOID, TIMESTAMPTZOID,
	INT8OID, TEXTOID};

	values[0] = Int64GetDatum(sh->run_id);
	values[1] = Int64GetDatum(sum->unknown_outcome);
	if (sum->outage_started != 0)
	{
		values[2] = TimestampTzGetDatum(sum->outage_started);
		nulls[2] = ' ';
	}
	if (sum->outage_ended != 0)
	{
		values[3] = TimestampTzGetDatum(sum->outage_ended);
		nulls[3] = ' ';
	}
	if (sum->recovery_ms >= 0)
	{
		values[4] = Float8GetDatum(sum->recovery_ms);
		nulls[4] = ' ';
	}
	bk_spi_exec(psprintf("UPDATE %s SET unknown_outcome = $2, outage_started = $3,"
						 " outage_ended = $4, recovery_ms = $5 WHERE id = $1", bk_runs_table()),
				5, types, values, nulls, SPI_OK_UPDATE);

	if (sum->nclient_outages == 0)
		return;
	for (int i = 0; i < sum->nclient_outages; i++)
	{
		const RunClientOutage *o = &sum->client_outages[i];
		Datum		cv[14];
		char		cn[14];

		memset(cn, ' ', sizeof(cn));
		cv[0] = Int64GetDatum(sh->run_id);
		cv[1] = Int32GetDatum(o->client);
		cv[2] = Int32GetDatum(o->outages);
		cv[3] = BoolGetDatum(o->open);
		cv[4] = Float8GetDatum(o->downtime_ms);
		cv[5] = Float8GetDatum(o->detection_max_ms);
		cv[6] = Int64GetDatum(o->reconnects);
		cv[7] = Int64GetDatum(o->unknown);
		cv[8] = Int64GetDatum(o->committed);
		cv[9] = TimestampTzGetDatum(o->first_failure);
		cv[10] = TimestampTzGetDatum(o->first_from);
		cv[11] = TimestampTzGetDatum(o->last_to);
		if (o->last_to == 0)
			cn[11] = 'n';
		cv[12] = Int64GetDatum(o->attempts);
		if (o->last_error != 0)
			cv[13] = CStringGetTextDatum(unpack_sql_state(o->last_error));
		else
			cn[13] = 'n';
		bk_spi_exec("INSERT INTO bench.outages (run_id, client, outages, open, downtime_ms,"
					" detection_max_ms, reconnects, unknown_outcome, committed,"
					" first_failure, outage_started, outage_ended, reconnect_attempts,"
					" last_sqlstate)"
					" VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
					14, ctypes, cv, cn, SPI_OK_INSERT);
	}
}

/*
 * run_finish_check
 *		check_query, read before the run and after it: the transactions the
 *		run counted committed that the target lacks, and of those whose
 *		commit's answer was lost, how many did commit.  The growth of the
 *		check's value is what committed; the counted ones must all be in
 *		it, the unknown ones may be.
 */
static void
run_finish_check(RunShared *sh, const RunSummary *sum)
{
	Oid			types[5] = {INT8OID, INT8OID, INT8OID, INT8OID, INT8OID};
	Datum		values[5];
	int64		growth = sum->check_after - sum->check_before;
	int64		missing = Max(sum->committed - growth, 0);
	int64		found = Min(Max(growth - sum->committed, 0), sum->unknown_outcome);

	values[0] = Int64GetDatum(sh->run_id);
	values[1] = Int64GetDatum(sum->check_before);
	values[2] = Int64GetDatum(sum->check_after);
	values[3] = Int64GetDatum(missing);
	values[4] = Int64GetDatum(found);
	bk_spi_exec(psprintf("UPDATE %s SET check_before = $2, check_after = $3,"
						 " committed_missing = $4, unknown_committed = $5 WHERE id = $1",
						 bk_runs_table()),
				5, types, values, NULL, SPI_OK_UPDATE);
}

/*
 * bk_run_finish
 *		The final status of a run, its summary (NULL: nothing measured),
 *		its latency histogram (NULL: none), with groups each group's (GSUM
 *		and GHIST; NULL without), its error, if any, and what its scripts
 *		and their commands measured.
 */
void
bk_run_finish(RunShared *sh, const char *status, const RunSummary *sum,
			  const BkHist *hist, const RunSummary *gsum, BkHist *const *ghist,
			  int sqlerrcode, const char *error)
{
	int64		run_id = sh->run_id;
	BkOwnerSwitch sw;
	Oid			types[30];
	Datum		values[30];
	char		nulls[30];

	/* $1 id, $2 status, $3 sqlstate, $4 error, $5 .. $30 the summary */
	memset(nulls, ' ', sizeof(nulls));
	for (int i = 0; i < 30; i++)
		types[i] = (i == 5 || (i >= 16 && i <= 24) || i == 27) ? INT8OID : FLOAT8OID;
	types[0] = INT8OID;
	types[1] = types[2] = types[3] = TEXTOID;
	values[0] = Int64GetDatum(run_id);
	values[1] = CStringGetTextDatum(status);
	if (sqlerrcode != 0)
	{
		values[2] = CStringGetTextDatum(unpack_sql_state(sqlerrcode));
		values[3] = CStringGetTextDatum(error ? error : "");
	}
	else
		nulls[2] = nulls[3] = 'n';

	types[29] = INT4OID;
	if (sum == NULL)
		memset(nulls + 4, 'n', 26);
	else
	{
		set_float(values, nulls, 4, sum->measured_s);
		values[5] = Int64GetDatum(sum->transactions);
		set_float(values, nulls, 6, sum->tps);
		set_float(values, nulls, 7, sum->lat_avg_ms);
		set_float(values, nulls, 8, sum->lat_stddev_ms);
		set_float(values, nulls, 9, sum->lat_min_ms);
		set_float(values, nulls, 10, sum->lat_p50_ms);
		set_float(values, nulls, 11, sum->lat_p90_ms);
		set_float(values, nulls, 12, sum->lat_p95_ms);
		set_float(values, nulls, 13, sum->lat_p99_ms);
		set_float(values, nulls, 14, sum->lat_p999_ms);
		set_float(values, nulls, 15, sum->lat_max_ms);
		values[16] = Int64GetDatum(sum->failures[FAIL_SERIALIZATION] +
								   sum->failures[FAIL_DEADLOCK] +
								   sum->failures[FAIL_OTHER]);
		values[17] = Int64GetDatum(sum->failures[FAIL_SERIALIZATION]);
		values[18] = Int64GetDatum(sum->failures[FAIL_DEADLOCK]);
		values[19] = Int64GetDatum(sum->failures[FAIL_OTHER]);
		values[20] = Int64GetDatum(sum->retried);
		values[21] = Int64GetDatum(sum->retries);
		values[22] = Int64GetDatum(sum->warmup_transactions);
		values[23] = Int64GetDatum(sum->skipped);
		values[24] = Int64GetDatum(sum->late);
		set_float(values, nulls, 25, sum->lag_avg_ms);
		set_float(values, nulls, 26, sum->lag_max_ms);
		values[27] = Int64GetDatum(sum->ignored_errors);
		set_float(values, nulls, 28, sum->connection_time_ms);
		if (sum->clients_lost >= 0)
			values[29] = Int32GetDatum(sum->clients_lost);
		else
			nulls[29] = 'n';
	}

	/*
	 * connection_time_ms only for a run against a target (see
	 * bk_run_insert); ignored_errors only where bench.runs has it (not the
	 * SQL of 0.1.0, before ALTER EXTENSION UPDATE)
	 */
	if (!bench_has_column("runs", "ignored_errors"))
		nulls[27] = 'n';
	bk_become_owner(&sw);
	bk_spi_exec(psprintf("UPDATE %s SET status = $2, sqlstate = $3, error = $4,"
				" ended_at = pg_catalog.clock_timestamp(), coordinator_pid = NULL,"
				" measured_s = $5, transactions = $6, tps = $7,"
				" latency_avg_ms = $8, latency_stddev_ms = $9, latency_min_ms = $10,"
				" latency_p50_ms = $11, latency_p90_ms = $12, latency_p95_ms = $13,"
				" latency_p99_ms = $14, latency_p999_ms = $15, latency_max_ms = $16,"
				" failures = $17, serialization_failures = $18, deadlock_failures = $19,"
				" other_failures = $20, retried = $21, retries = $22,"
				" warmup_transactions = $23,"
				" skipped = CASE WHEN rate IS NOT NULL AND latency_limit IS NOT NULL THEN $24 END,"
				" late = CASE WHEN latency_limit IS NOT NULL THEN $25 END,"
				" lag_avg_ms = CASE WHEN rate IS NOT NULL THEN $26 END,"
				" lag_max_ms = CASE WHEN rate IS NOT NULL THEN $27 END%s%s"
				" WHERE id = $1",
						 bk_runs_table(),
						 nulls[27] == 'n' ? "" : ", ignored_errors = $28",
						 sh->driver == RUN_DRIVER_LIBPQ ?
						 ", connection_time_ms = $29, clients_lost = $30" : ""),
				sh->driver == RUN_DRIVER_LIBPQ ? 30 : 28, types, values, nulls, SPI_OK_UPDATE);

	/* on_disconnect 'reconnect': the outages, where bench.runs has them */
	if (sum != NULL && sum->reconnects >= 0 && bench_has_column("runs", "reconnects"))
	{
		Oid			otypes[7] = {INT8OID, INT8OID, INT4OID, INT4OID, FLOAT8OID, FLOAT8OID, FLOAT8OID};
		Datum		ovalues[7];

		ovalues[0] = Int64GetDatum(run_id);
		ovalues[1] = Int64GetDatum(sum->reconnects);
		ovalues[2] = Int32GetDatum(sum->outages);
		ovalues[3] = Int32GetDatum(sum->outages_open);
		ovalues[4] = Float8GetDatum(sum->downtime_median_ms);
		ovalues[5] = Float8GetDatum(sum->downtime_max_ms);
		ovalues[6] = Float8GetDatum(sum->detection_max_ms);
		bk_spi_exec(psprintf("UPDATE %s SET reconnects = $2, outages = $3, outages_open = $4,"
							 " downtime_median_ms = $5, downtime_max_ms = $6, detection_max_ms = $7"
							 " WHERE id = $1", bk_runs_table()),
					7, otypes, ovalues, NULL, SPI_OK_UPDATE);
	}
	if (sum != NULL && sum->reconnects >= 0 && bench_has_column("runs", "unknown_outcome"))
		run_finish_outages(sh, sum);
	if (sum != NULL && sum->checked && bench_has_column("runs", "check_after"))
		run_finish_check(sh, sum);

	if (hist != NULL)
	{
		Oid			htypes[4] = {INT8OID, FLOAT8ARRAYOID, FLOAT8ARRAYOID, INT8ARRAYOID};
		Datum		hvalues[4];

		hvalues[0] = Int64GetDatum(run_id);
		run_hist_arrays(hist, &hvalues[1], &hvalues[2], &hvalues[3]);
		bk_spi_exec("INSERT INTO bench.histograms (run_id, lower_ms, upper_ms, count)"
					" SELECT $1, l, u, c FROM ROWS FROM (pg_catalog.unnest($2), pg_catalog.unnest($3), pg_catalog.unnest($4)) AS h (l, u, c)",
					4, htypes, hvalues, NULL, SPI_OK_INSERT);
	}
	if (sum != NULL && gsum != NULL)
		run_finish_groups(sh, gsum, ghist);
	run_finish_scripts(sh);
	bk_restore_user(&sw);
}
