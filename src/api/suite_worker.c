/*-------------------------------------------------------------------------
 *
 * suite_worker.c
 *		The suite's worker: the background worker that carries out a suite
 *		(suite.c), every run of it a transaction of its own.
 *
 * The suite's row is committed before the first run, each run commits its
 * results as bench.run does.  The worker:
 *
 *		1. in one transaction, refuses to start while another run or suite
 *		   is running in the database (a scheduled suite must not pile up on
 *		   a still-running one), and inserts the suite's row, 'running' or
 *		   'refused';
 *		2. calls bench.run for each step, in the suite's order, as the
 *		   calling role (on the step's target, for a suite over several);
 *		   the runs carry the suite's id (bk_run_suite_id); a capacity
 *		   search asks bench._capacity_next before each run for the rate
 *		   to offer, and stops when it says the search is over;
 *		3. records how the suite ended: 'done', 'failed' (a run failed; the
 *		   suite stops there), 'canceled' (bench.cancel_suite, the caller's
 *		   cancel, or a run canceled on its own) or 'aborted' (the worker was
 *		   terminated); for a scheduled suite where a client count
 *		   regressed it then notifies channel bench_regression with the
 *		   suite's id.
 *
 * A cancel (SIGINT: bench.cancel_suite, or the caller canceled or gone,
 * suite_caller.c) reaches the worker's bench.run, which cancels the run in
 * progress; the finished runs stay in the suite.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <signal.h>

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "meta/catalog.h"
#include "api/run.h"
#include "meta/runstate.h"
#include "api/runargs.h"
#include "api/suite_worker.h"
#include "core/worker.h"
#include "core/pgbenchkit.h"

PGDLLEXPORT void bench_suite_worker_main(Datum main_arg);

/* advisory lock (classid, objid) that serializes the start of suites */
#define SUITE_LOCK_KEY1			19266	/* 0x4b42, "KB" */
#define SUITE_LOCK_KEY2			21333	/* 0x5355, "SU" */

static volatile sig_atomic_t suite_terminated = false;

/* in the worker: the client count of each step, in the suite's order */
static int *suite_steps = NULL;

/*
 * in the worker, for a suite over several targets: each step's target
 * (NULL: this server), in the suite's order; NULL for a suite without
 */
static char **suite_step_targets = NULL;

/* in the worker: the caller's search_path, which its runs use */
static char *suite_search_path = NULL;

/* in the worker: the query that runs a step (suite_step_sql) */
static char *suite_run_sql = NULL;

/* in the worker, for a suite of steps: each step's name and query */
static char **suite_step_names = NULL;
static char **suite_step_sqls = NULL;

/* in the worker: the suite is a capacity search (bench.capacity) */
static bool suite_capacity = false;


/*
 * SIGTERM (pg_terminate_backend, server shutdown): stop as a cancel does,
 * so that the run in progress is canceled and the suite is recorded as
 * 'aborted' before the worker exits.
 */
static void
suite_sigterm(SIGNAL_ARGS)
{
	int			save_errno = errno;

	suite_terminated = true;
	InterruptPending = true;
	QueryCancelPending = true;
	SetLatch(MyLatch);
	errno = save_errno;
}

/* begin and end a transaction of the worker, with SPI and a snapshot */
static void
suite_xact_begin(const char *activity)
{
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	bk_spi_connect();
	PushActiveSnapshot(GetTransactionSnapshot());
	pgstat_report_activity(STATE_RUNNING, activity);
}

static void
suite_xact_end(void)
{
	PopActiveSnapshot();
	bk_spi_finish();
	CommitTransactionCommand();
	pgstat_report_stat(true);
	pgstat_report_activity(STATE_IDLE, NULL);
}

/*
 * suite_arg_at_default
 *		Whether VALUE (as text, NULL for a null) is run argument RA's
 *		default: as a value of its type, so that an interval the suite kept
 *		as "@ 0.01 secs" is the default "10 ms".
 */
static bool
suite_arg_at_default(int ra, const char *value)
{
	const char *dflt = bk_run_args[ra].default_value;
	Oid			input;
	Oid			ioparam;
	int16		typlen;
	bool		typbyval;

	if (value == NULL || dflt == NULL)
		return value == NULL && dflt == NULL;
	if (strcmp(value, dflt) == 0)
		return true;
	getTypeInputInfo(bk_run_args[ra].type, &input, &ioparam);
	get_typlenbyval(bk_run_args[ra].type, &typlen, &typbyval);
	return datumIsEqual(OidInputFunctionCall(input, (char *) value, ioparam, -1),
						OidInputFunctionCall(input, (char *) dflt, ioparam, -1),
						typbyval, typlen);
}

/*
 * suite_append_run_args
 *		Append to SQL, a call of bench.run being written, ", name => value"
 *		for each run argument the jsonb ARGS (an expression over bench.suites
 *		s, the row of SUITE_ID) has, read as its type; an argument at its
 *		default is left to bench.run's default, so that the SQL of an older
 *		version, whose bench.run lacks the newer arguments, still runs the
 *		suites that do not use them.  A sweep's args (STEP < 0) leave
 *		workload and clients to the sweep; a step's args (step STEP of a
 *		suite of steps) hold them.  tag is always the suite's.
 */
static void
suite_append_run_args(StringInfo sql, int64 suite_id, const char *args, int step)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(suite_id)};
	char	   *what = step < 0 ? psprintf("suite %lld", (long long) suite_id) :
		psprintf("step %d of suite %lld", step + 1, (long long) suite_id);

	if (SPI_execute_with_args(psprintf("SELECT a.key, a.value FROM bench.suites s,"
									   " pg_catalog.jsonb_each_text(%s) a"
									   " WHERE s.id = $1 ORDER BY a.key", args),
							  1, types, values, NULL, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the run arguments of %s", what);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		char	   *key = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);
		char	   *value = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2);
		int			ra = -1;

		/*
		 * A sweep given at: run k ($5, from 0) starts its measured part at
		 * at + k * every, the part "part_of/k+1" of a distributed run
		 */
		if (step < 0 && strcmp(key, "every") == 0)
			continue;
		if (step < 0 && strcmp(key, "at") == 0)
		{
			appendStringInfo(sql, ", at => (%s OPERATOR(pg_catalog.->>) 'at')::pg_catalog.timestamptz"
							 " OPERATOR(pg_catalog.+) ($5 OPERATOR(pg_catalog.*)"
							 " COALESCE((%s OPERATOR(pg_catalog.->>) 'every')::pg_catalog.interval, '0'))",
							 args, args);
			continue;
		}
		if (step < 0 && strcmp(key, "part_of") == 0)
		{
			appendStringInfo(sql, ", part_of => (%s OPERATOR(pg_catalog.->>) 'part_of')"
							 " OPERATOR(pg_catalog.||) '/' OPERATOR(pg_catalog.||) ($5 OPERATOR(pg_catalog.+) 1)",
							 args);
			continue;
		}
		for (int j = 0; j < RUN_NARGS; j++)
			if (strcmp(bk_run_args[j].name, key) == 0 && j != RA_TAG &&
				(step >= 0 || (j != RA_WORKLOAD && j != RA_CLIENTS)))
				ra = j;
		if (ra < 0)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("%s has a run argument \"%s\" that the pgbenchkit library of version %s does not know",
							what, key, BK_VERSION)));
		if (suite_arg_at_default(ra, value))
			continue;
		appendStringInfo(sql, ", %s => (%s OPERATOR(pg_catalog.->>) %s)::%s",
						 quote_identifier(key), args, quote_literal_cstr(key),
						 format_type_be_qualified(bk_run_args[ra].type));
	}
}

/*
 * suite_steps_sql
 *		For a suite of steps: each step's name and the query that runs it,
 *		bench.run with the run arguments of the step ("args" of its element
 *		of bench.suites.steps; one at its default left to bench.run's) and
 *		the suite's tag.  In the worker's first transaction.
 */
static void
suite_steps_sql(SuiteShared *sh)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(sh->suite_id)};
	SPITupleTable *steps;

	if (SPI_execute_with_args("SELECT e.s OPERATOR(pg_catalog.->>) 'step'"
							  "  FROM bench.suites s,"
							  "       pg_catalog.jsonb_array_elements(s.steps) WITH ORDINALITY AS e(s, i)"
							  " WHERE s.id = $1 ORDER BY e.i",
							  1, types, values, NULL, false, 0) != SPI_OK_SELECT ||
		SPI_processed != (uint64) sh->runs_planned)
		elog(ERROR, "could not read the steps of suite %lld", (long long) sh->suite_id);
	steps = SPI_tuptable;
	suite_step_names = MemoryContextAllocZero(TopMemoryContext, sizeof(char *) * sh->runs_planned);
	suite_step_sqls = MemoryContextAllocZero(TopMemoryContext, sizeof(char *) * sh->runs_planned);
	for (int i = 0; i < sh->runs_planned; i++)
	{
		StringInfoData sql;

		suite_step_names[i] = MemoryContextStrdup(TopMemoryContext,
												  SPI_getvalue(steps->vals[i], steps->tupdesc, 1));
		initStringInfo(&sql);
		appendStringInfoString(&sql, "SELECT (bench.run(tag => COALESCE(s.tag, s.schedule)");
		suite_append_run_args(&sql, sh->suite_id,
							  psprintf("(s.steps OPERATOR(pg_catalog.->) %d OPERATOR(pg_catalog.->) 'args')", i),
							  i);
		appendStringInfoString(&sql, ")).id FROM bench.suites s WHERE s.id OPERATOR(pg_catalog.=) $1");
		suite_step_sqls[i] = MemoryContextStrdup(TopMemoryContext, sql.data);
	}
}

/*
 * suite_init
 *		A suite of steps whose spec has "init": its dataset made first, by
 *		bench.init as the calling role, with the caller's search_path.
 */
static void
suite_init(SuiteShared *sh)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {CStringGetTextDatum(SUITE_SPEC(sh))};
	bool		isnull;
	bool		init;
	int			level;

	suite_xact_begin("pgbenchkit: making a suite's dataset");
	if (SPI_execute_with_args("SELECT $1::pg_catalog.jsonb OPERATOR(pg_catalog.?) 'init'",
							  1, types, values, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read the suite");
	init = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	if (init)
	{
		level = bk_search_path_push(suite_search_path);
		if (SPI_execute_with_args("SELECT (bench.init(i OPERATOR(pg_catalog.->>) 'workload',"
								  "   tables => (i OPERATOR(pg_catalog.->>) 'tables')::integer,"
								  "   target => i OPERATOR(pg_catalog.->>) 'target',"
								  "   force => true)).workload"
								  "  FROM (SELECT $1::pg_catalog.jsonb OPERATOR(pg_catalog.->) 'init' AS i) x",
								  1, types, values, NULL, false, 1) != SPI_OK_SELECT)
			elog(ERROR, "could not make the dataset of suite %lld", (long long) sh->suite_id);
		bk_search_path_pop(level);
	}
	suite_xact_end();
}

/*
 * suite_take_settings
 *		The caller's settings its runs take from the session (the price of
 *		this server: "settings" of SPEC, suite_caller.c), set in this
 *		worker's session for the runs it starts.
 */
static void
suite_take_settings(const char *spec)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {CStringGetTextDatum(spec)};

	if (SPI_execute_with_args("SELECT s.key, s.value"
							  "  FROM pg_catalog.jsonb_each_text(COALESCE($1::pg_catalog.jsonb"
							  "        OPERATOR(pg_catalog.->) 'settings', '{}')) s"
							  " WHERE s.key IN ('pgbenchkit.price_per_hour', 'pgbenchkit.currency')",
							  1, types, values, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the suite's settings");
	for (uint64 i = 0; i < SPI_processed; i++)
		SetConfigOption(SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1),
						SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2),
						PGC_USERSET, PGC_S_SESSION);
}

/*
 * suite_begin
 *		The suite's row: 'running', or 'refused' when another run or suite
 *		is running in the database.  Starts of suites are serialized by an
 *		advisory lock, so that two scheduled at the same minute cannot both
 *		pass the check.  Returns false when refused.
 */
static bool
suite_begin(SuiteShared *sh, int **clients)
{
	Oid			types[4] = {TEXTOID, TEXTOID, TEXTOID, INT4OID};
	Datum		values[4];
	char		nulls[4] = {' ', ' ', ' ', ' '};
	char	   *busy = NULL;
	char	   *search_path;
	bool		isnull;
	bool		steps;
	bool		targets;
	bool		capacity;
	BkOwnerSwitch sw;

	suite_xact_begin("pgbenchkit: starting a suite");
	{
		Oid			t1[1] = {TEXTOID};
		Datum		v1[1] = {CStringGetTextDatum(SUITE_SPEC(sh))};

		if (SPI_execute_with_args("SELECT $1::pg_catalog.jsonb OPERATOR(pg_catalog.?) 'steps',"
								  " $1::pg_catalog.jsonb OPERATOR(pg_catalog.?) 'targets',"
								  " $1::pg_catalog.jsonb OPERATOR(pg_catalog.?) 'capacity'",
								  1, t1, v1, NULL, true, 1) != SPI_OK_SELECT)
			elog(ERROR, "could not read the suite");
		steps = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
		targets = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull));
		capacity = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3, &isnull));
	}
	suite_take_settings(SUITE_SPEC(sh));
	if (SPI_execute("SELECT pg_catalog.pg_advisory_xact_lock(" CppAsString2(SUITE_LOCK_KEY1) ", "
					CppAsString2(SUITE_LOCK_KEY2) ")", false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not lock the start of suites");
	/*
	 * Under the lock, the runs and suites whose process is gone are
	 * recorded as such: what still says 'running' is alive (its
	 * coordinator or worker holds its lock, runstate.c).
	 */
	bk_recover_runs();
	if (SPI_execute("SELECT * FROM ("
					" SELECT pg_catalog.format('run %s is still running', r.id), r.started_at"
					"   FROM bench.runs r WHERE r.status = 'running'"
					" UNION ALL"
					" SELECT pg_catalog.format('suite %s%s is still running', s.id,"
					"        ' (schedule ' || pg_catalog.quote_literal(s.schedule) || ')'), s.started_at"
					"   FROM bench.suites s WHERE s.status = 'running') x ORDER BY 2 LIMIT 1",
					true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not look for running suites");
	if (SPI_processed > 0)
		busy = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);

	values[0] = CStringGetTextDatum(SUITE_SPEC(sh));
	values[1] = busy ? CStringGetTextDatum(busy) : (Datum) 0;
	nulls[1] = busy ? ' ' : 'n';
	values[2] = CStringGetTextDatum(GetUserNameFromId(sh->roleid, false));
	values[3] = Int32GetDatum(MyProcPid);
	bk_become_owner(&sw);
	if (SPI_execute_with_args(psprintf("INSERT INTO %s (workload, clients, repeat, run_order,"
							  "   args, search_path, tag, schedule, runs_planned, status, sqlstate, error,"
							  "   created_by, worker_pid, ended_at%s%s)"
							  " SELECT j->>'workload',"
							  "        ARRAY(SELECT c::integer FROM pg_catalog.jsonb_array_elements_text(j->'clients')"
							  "                WITH ORDINALITY AS e(c, pos) ORDER BY pos),"
							  "        (j->>'repeat')::integer, j->>'run_order', j->'args',"
							  "        j->>'search_path', j->>'tag',"
							  "        j->>'schedule',"
							  "        COALESCE((j->'capacity'->>'max_runs')::integer,"
							  "                 pg_catalog.jsonb_array_length(j->'clients') * (j->>'repeat')::integer%s),"
							  "        CASE WHEN $2 IS NULL THEN 'running' ELSE 'refused' END,"
							  "        CASE WHEN $2 IS NULL THEN NULL ELSE '55006' END, $2, $3::name,"
							  "        CASE WHEN $2 IS NULL THEN $4 END,"
							  "        CASE WHEN $2 IS NULL THEN NULL ELSE pg_catalog.clock_timestamp() END%s%s"
							  "   FROM (SELECT $1::pg_catalog.jsonb AS j) x"
							  " RETURNING id, runs_planned, search_path",
							  bk_suites_table(),
							  /*
							   * steps only for a suite of steps, capacity for a
							   * capacity search, targets for a suite over
							   * several: the SQL of 0.1.0 has none of them
							   */
							  steps ? ", steps" : capacity ? ", capacity" : "", targets ? ", targets" : "",
							  targets ? " * pg_catalog.jsonb_array_length(j->'targets')" : "",
							  steps ? ", j->'steps'" : capacity ? ", j->'capacity'" : "",
							  targets ? ", ARRAY(SELECT t FROM pg_catalog.jsonb_array_elements_text(j->'targets')"
							  " WITH ORDINALITY AS e(t, pos) ORDER BY pos)" : ""),
							  4, types, values, nulls, false, 1) != SPI_OK_INSERT_RETURNING)
		elog(ERROR, "could not record the suite");
	sh->suite_id = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	/* alive while this worker holds the suite's lock: taken before the row is seen */
	if (busy == NULL)
		bk_suite_hold(sh->suite_id);
	sh->runs_planned = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull));
	search_path = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3);
	bk_restore_user(&sw);

	/* the runs see the tables the caller saw (suite_step) */
	suite_search_path = MemoryContextStrdup(TopMemoryContext, search_path);

	/* a capacity search: one client count, the rates decided run by run */
	suite_capacity = capacity;
	if (busy == NULL && capacity)
	{
		Oid			t1[1] = {INT8OID};
		Datum		v1[1] = {Int64GetDatum(sh->suite_id)};
		int			c;

		if (SPI_execute_with_args("SELECT s.clients[1] FROM bench.suites s WHERE s.id = $1",
								  1, t1, v1, NULL, false, 1) != SPI_OK_SELECT || SPI_processed != 1)
			elog(ERROR, "could not read the clients of suite %lld", (long long) sh->suite_id);
		c = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
		*clients = MemoryContextAlloc(TopMemoryContext, sizeof(int) * sh->runs_planned);
		for (int i = 0; i < sh->runs_planned; i++)
			(*clients)[i] = c;
	}
	/*
	 * Else the client count (and target) of every step, in the suite's
	 * order: repetitions and client counts as run_order says; in each,
	 * every target in turn, repetition r (from 0) starting at target r mod n
	 */
	else if (busy == NULL)
	{
		Oid			t1[1] = {INT8OID};
		Datum		v1[1] = {Int64GetDatum(sh->suite_id)};

		if (SPI_execute_with_args(psprintf("SELECT c.clients, %s"
										   "  FROM bench.suites s,"
										   "       pg_catalog.unnest(s.clients) WITH ORDINALITY AS c(clients, pos),"
										   "       pg_catalog.generate_series(1, s.repeat) AS rep%s"
										   " WHERE s.id = $1"
										   " ORDER BY CASE s.run_order WHEN 'interleaved' THEN rep ELSE c.pos END,"
										   "          CASE s.run_order WHEN 'interleaved' THEN c.pos ELSE rep END%s",
										   targets ? "t.target" : "NULL::pg_catalog.text",
										   targets ? ", pg_catalog.unnest(s.targets) WITH ORDINALITY AS t(target, pos)" : "",
										   targets ? ", ((t.pos - rep) % pg_catalog.cardinality(s.targets)"
										   " + pg_catalog.cardinality(s.targets)) % pg_catalog.cardinality(s.targets)" : ""),
								  1, t1, v1, NULL, false, 0) != SPI_OK_SELECT ||
			SPI_processed != (uint64) sh->runs_planned)
			elog(ERROR, "could not plan the suite's runs");
		*clients = MemoryContextAlloc(TopMemoryContext, sizeof(int) * sh->runs_planned);
		if (targets)
			suite_step_targets = MemoryContextAllocZero(TopMemoryContext,
														sizeof(char *) * sh->runs_planned);
		for (int i = 0; i < sh->runs_planned; i++)
		{
			(*clients)[i] = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[i],
														SPI_tuptable->tupdesc, 1, &isnull));
			if (targets)
			{
				char	   *t = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2);

				/* local: this server, in-server clients (bench.run without a target) */
				if (strcmp(t, "local") != 0)
					suite_step_targets[i] = MemoryContextStrdup(TopMemoryContext, t);
			}
		}
		if (steps)
			suite_steps_sql(sh);
	}
	suite_xact_end();

	if (busy != NULL)
	{
		strlcpy(sh->final_status, "refused", sizeof(sh->final_status));
		bk_error_set(&sh->error, ERRCODE_OBJECT_IN_USE, busy, NULL);
	}
	return busy == NULL;
}

/*
 * suite_step_sql
 *		The query that runs one step of the suite: bench.run with the
 *		suite's run arguments, each one its "args" has (a suite recorded by
 *		an older version lacks the newer ones, which take bench.run's
 *		defaults), the step's client count ($2), its target for a suite
 *		over several ($3), a capacity search's rate ($4), the run's number
 *		from 0 ($5: a sweep given at), and the suite's tag or schedule.
 *		Made once, in the worker's first transaction.
 */
static char *
suite_step_sql(int64 suite_id)
{
	StringInfoData sql;

	initStringInfo(&sql);
	appendStringInfoString(&sql,
						   "SELECT (bench.run(clients => $2, tag => COALESCE(s.tag, s.schedule),"
						   " workload => CASE WHEN s.args OPERATOR(pg_catalog.->>) 'script' IS NULL"
						   " THEN s.workload END");
	/* a suite over several targets: the step's ($3; NULL: this server) */
	if (suite_step_targets != NULL)
		appendStringInfoString(&sql, ", target => $3");
	/* a capacity search's rate, run by run ($4; the probe's is NULL) */
	if (suite_capacity)
		appendStringInfoString(&sql, ", rate => $4");
	suite_append_run_args(&sql, suite_id, "s.args", -1);
	appendStringInfoString(&sql, ")).id FROM bench.suites s WHERE s.id OPERATOR(pg_catalog.=) $1");
	return MemoryContextStrdup(TopMemoryContext, sql.data);
}

/*
 * suite_step
 *		One run of the suite, by bench.run itself as the calling role; the
 *		run's row carries the suite's id.
 */
static void
suite_step(SuiteShared *sh, int step, int clients, double rate)
{
	Oid			types[5] = {INT8OID, INT4OID, TEXTOID, FLOAT8OID, INT4OID};
	Datum		values[5] = {Int64GetDatum(sh->suite_id), Int32GetDatum(clients), (Datum) 0,
	Float8GetDatum(rate), Int32GetDatum(step)};
	char		nulls[5] = {' ', ' ', 'n', rate > 0 ? ' ' : 'n', ' '};
	const char *target = suite_step_targets ? suite_step_targets[step] : NULL;
	char		activity[192];
	int			level;

	if (target != NULL)
	{
		values[2] = CStringGetTextDatum(target);
		nulls[2] = ' ';
	}
	snprintf(activity, sizeof(activity), "pgbenchkit: suite %lld, run %d of %d (%s%s%s%s%d clients)",
			 (long long) sh->suite_id, step + 1, sh->runs_planned,
			 suite_step_names ? suite_step_names[step] : "", suite_step_names ? ", " : "",
			 suite_step_targets ? (target ? target : "local") : "", suite_step_targets ? ", " : "",
			 clients);
	suite_xact_begin(activity);
	if (suite_run_sql == NULL && suite_step_sqls == NULL)
		suite_run_sql = suite_step_sql(sh->suite_id);
	bk_run_suite_id = sh->suite_id;
	bk_run_suite_step = suite_step_names ? suite_step_names[step] : NULL;
	/* bench.run as the caller would call it: with the caller's search_path */
	level = bk_search_path_push(suite_search_path);
	if (SPI_execute_with_args(suite_step_sqls ? suite_step_sqls[step] : suite_run_sql,
							  suite_step_sqls ? 1 : 5, types, values, nulls,
							  false, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not run step %d of suite %lld", step + 1, (long long) sh->suite_id);
	bk_search_path_pop(level);
	bk_run_suite_id = 0;
	bk_run_suite_step = NULL;
	suite_xact_end();
}

/*
 * suite_capacity_next
 *		A capacity search's next run, as bench._capacity_next decides it
 *		from the runs so far (as the calling role, in a transaction of its
 *		own): false when the search is over; else the rate to offer into
 *		RATE, 0 for the unthrottled probe.
 */
static bool
suite_capacity_next(SuiteShared *sh, double *rate)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(sh->suite_id)};
	bool		isnull;
	bool		more;
	Datum		d;

	suite_xact_begin("pgbenchkit: choosing a capacity search's next rate");
	if (SPI_execute_with_args("SELECT n.action OPERATOR(pg_catalog.=) 'run', n.rate"
							  "  FROM bench._capacity_next($1) n",
							  1, types, values, NULL, false, 1) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "could not choose the next rate of suite %lld", (long long) sh->suite_id);
	more = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull);
	*rate = isnull ? 0 : DatumGetFloat8(d);
	suite_xact_end();
	return more;
}

/*
 * suite_finish
 *		Record how the suite ended; for a scheduled suite that is done,
 *		notify channel bench_regression if a client count fell below its
 *		baseline (bench.regressions).  The payload is the suite's id and
 *		nothing else: any role may LISTEN on any channel, so the details
 *		are read in bench.regressions, under its row level security.
 *		Cancels are held off: this is the last word on the suite.
 */
static void
suite_finish(SuiteShared *sh, const char *status)
{
	Oid			types[4] = {INT8OID, TEXTOID, TEXTOID, TEXTOID};
	Datum		values[4];
	char		nulls[4] = {' ', ' ', ' ', ' '};
	BkOwnerSwitch sw;

	HOLD_CANCEL_INTERRUPTS();
	suite_xact_begin("pgbenchkit: ending a suite");
	values[0] = Int64GetDatum(sh->suite_id);
	values[1] = CStringGetTextDatum(status);
	if (sh->error.set)
	{
		values[2] = CStringGetTextDatum(unpack_sql_state(sh->error.sqlerrcode));
		values[3] = CStringGetTextDatum(sh->error.message);
	}
	else
		nulls[2] = nulls[3] = 'n';
	bk_become_owner(&sw);
	/*
	 * Its server_version is its runs' when they all ran on one: a suite on a
	 * target ran on the target's (the row was written with this server's,
	 * before the first run connected)
	 */
	if (SPI_execute_with_args(psprintf("UPDATE %s s SET status = $2, sqlstate = $3, error = $4,"
									   "   ended_at = pg_catalog.clock_timestamp(), worker_pid = NULL,"
									   "   server_version = COALESCE((SELECT pg_catalog.min(r.server_version)"
									   "        FROM %s r WHERE r.suite_id = s.id"
									   "      HAVING pg_catalog.count(DISTINCT r.server_version) = 1), s.server_version)"
									   " WHERE s.id = $1", bk_suites_table(), bk_runs_table()),
							  4, types, values, nulls, false, 0) != SPI_OK_UPDATE)
		elog(ERROR, "could not record the end of suite %lld", (long long) sh->suite_id);
	bk_restore_user(&sw);
	if (strcmp(status, "done") == 0 &&
		SPI_execute_with_args("SELECT pg_catalog.pg_notify('bench_regression', $1::pg_catalog.text)"
							  " WHERE EXISTS (SELECT FROM bench.regressions WHERE suite_id = $1)",
							  1, types, values, NULL, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not check suite %lld for regressions", (long long) sh->suite_id);
	suite_xact_end();
	RESUME_CANCEL_INTERRUPTS();
}

/*
 * bench_suite_worker_main
 *		Entry point of a suite's worker.
 */
void
bench_suite_worker_main(Datum main_arg)
{
	dsm_segment *seg;
	SuiteShared *sh;
	const char *volatile status = "done";
	MemoryContext topcxt;

	pqsignal(SIGTERM, suite_sigterm);
	BackgroundWorkerUnblockSignals();
	seg = dsm_attach(DatumGetUInt32(main_arg));
	if (seg == NULL)
		return;					/* the caller is gone already */
	sh = (SuiteShared *) dsm_segment_address(seg);
	if (!bk_segment_ours(seg, SUITE_MAGIC, SUITE_WORKER_TYPE))
		return;
	sh->worker_pid = MyProcPid;
	bk_worker_connect(sh->dboid, sh->roleid, "pgbenchkit suite");
	/* a run lasts as long as it lasts: no statement_timeout of the role's */
	SetConfigOption("statement_timeout", "0", PGC_SUSET, PGC_S_OVERRIDE);

	topcxt = AllocSetContextCreate(TopMemoryContext, "pgbenchkit suite", ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(topcxt);

	/* 1. the suite's row */
	PG_TRY();
	{
		HOLD_CANCEL_INTERRUPTS();
		if (!suite_begin(sh, &suite_steps))
			status = "refused";
		RESUME_CANCEL_INTERRUPTS();
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(topcxt);
		bk_error_capture(&sh->error);
		AbortCurrentTransaction();
		pg_write_barrier();
		pg_atomic_write_u32(&sh->state, SUITE_NOT_STARTED);
		bk_set_latch_of(sh->caller_pid);
		proc_exit(0);
	}
	PG_END_TRY();
	if (strcmp(status, "refused") == 0)
	{
		pg_write_barrier();
		pg_atomic_write_u32(&sh->state, SUITE_ENDED);
		bk_set_latch_of(sh->caller_pid);
		proc_exit(0);
	}
	pg_write_barrier();
	pg_atomic_write_u32(&sh->state, SUITE_RUNNING);
	bk_set_latch_of(sh->caller_pid);

	/* 2. the runs, one transaction each */
	PG_TRY();
	{
		if (suite_step_sqls != NULL)
			suite_init(sh);
		for (int i = 0; i < sh->runs_planned; i++)
		{
			double		rate = 0;

			CHECK_FOR_INTERRUPTS();
			if (suite_capacity && !suite_capacity_next(sh, &rate))
				break;
			suite_step(sh, i, suite_steps[i], rate);
		}
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(topcxt);
		bk_run_suite_id = 0;
		bk_run_suite_step = NULL;
		bk_error_capture(&sh->error);
		AbortCurrentTransaction();
		if (suite_terminated)
		{
			status = "aborted";
			memset(&sh->error, 0, sizeof(sh->error));
			bk_error_set(&sh->error, ERRCODE_ADMIN_SHUTDOWN,
						 "the suite's worker was terminated", NULL);
		}
		else if (sh->error.sqlerrcode == ERRCODE_QUERY_CANCELED)
		{
			status = "canceled";
			if (strncmp(sh->error.message, "canceling statement", 19) == 0)
				bk_text_copy(sh->error.message,
						"the suite was canceled (bench.cancel_suite, pg_cancel_backend, or its caller was canceled)",
						sizeof(sh->error.message));
		}
		else
			status = "failed";
	}
	PG_END_TRY();

	/* 3. its end, then the suite's lock goes */
	PG_TRY();
	{
		suite_finish(sh, status);
		bk_suite_release(sh->suite_id);
		strlcpy(sh->final_status, status, sizeof(sh->final_status));
	}
	PG_CATCH();
	{
		/* the next call of a bench function marks the suite aborted */
		EmitErrorReport();
		FlushErrorState();
		AbortCurrentTransaction();
		strlcpy(sh->final_status, "aborted", sizeof(sh->final_status));
	}
	PG_END_TRY();
	pg_write_barrier();
	pg_atomic_write_u32(&sh->state, SUITE_ENDED);
	bk_set_latch_of(sh->caller_pid);
	proc_exit(0);
}
