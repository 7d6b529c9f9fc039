/*-------------------------------------------------------------------------
 *
 * cron.c
 *		Reaching pg_cron when it lives in another database.
 *
 * pg_cron keeps its jobs in the database named by cron.database_name, and
 * its functions exist only there.  When pgbenchkit is installed in another
 * database, bench.schedule must create its job over there: a short-lived
 * background worker connects to that database as the calling role (so
 * pg_cron's own checks apply to that role), runs one of a few fixed
 * statements, and hands the result or the error back.  No other SQL can be
 * sent this way.
 *
 * The job is committed by the worker, in a transaction of its own, which a
 * rollback of the caller's transaction would not undo; so the caller must
 * not be in a transaction block, and bench.schedule creates the job last,
 * after everything that could fail.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_database.h"
#include "catalog/pg_type.h"
#include "commands/dbcommands.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "meta/catalog.h"
#include "core/compat.h"
#include "core/worker.h"
#include "core/pgbenchkit.h"

PG_FUNCTION_INFO_V1(bench_cron_call);

PGDLLEXPORT void bench_cron_worker_main(Datum main_arg);

#define CRON_MAGIC				BK_SEGMENT_MAGIC('C')
#define CRON_WORKER_TYPE		"pgbenchkit cron"
#define CRON_MAX_ARGS			5
#define CRON_ARG_LEN			8192

/* the statements the worker may run, by operation */
#define CRON_OP_VERSION			0	/* pg_cron's version in that database, or null */
#define CRON_OP_SCHEDULE		1	/* cron.schedule_in_database(name, schedule, command, db, user) */
#define CRON_OP_UNSCHEDULE		2	/* cron.unschedule(jobid); null: no such job */

typedef struct CronShared
{
	uint32		magic;
	char		dbname[NAMEDATALEN];
	Oid			dboid;
	Oid			roleid;
	int			caller_pid;
	int			op;
	int			nargs;
	char		args[CRON_MAX_ARGS][CRON_ARG_LEN];
	/* set by the worker */
	pg_atomic_uint32 done;
	bool		result_null;
	char		result[256];
	BkError		error;
} CronShared;

static bool
cron_done(void *arg)
{
	return pg_atomic_read_u32(&((CronShared *) arg)->done) != 0;
}

/*
 * bench_cron_call
 *		SQL function bench._cron_call(database, operation, args): run one of
 *		the fixed pg_cron statements in DATABASE as the calling role and
 *		return its result as text.  Internal to bench._schedule and
 *		bench._unschedule, which the library calls as the owner of schema
 *		bench: a job is made for the role that called bench.schedule (the
 *		fifth argument of 'schedule'), which only a superuser may do.
 */
Datum
bench_cron_call(PG_FUNCTION_ARGS)
{
	char	   *dbname;
	char	   *opname;
	int			op;
	int			nargs_expected;
	dsm_segment *seg;
	CronShared *sh;
	Datum	   *elems = NULL;
	bool	   *enulls = NULL;
	int			nelems = 0;
	Oid			dboid;

	bk_check_call(fcinfo, 3, "bench._cron_call");
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		elog(ERROR, "bench._cron_call: database and operation must not be null");
	dbname = NameStr(*PG_GETARG_NAME(0));
	opname = text_to_cstring(PG_GETARG_TEXT_PP(1));
	if (strcmp(opname, "version") == 0)
		op = CRON_OP_VERSION, nargs_expected = 0;
	else if (strcmp(opname, "schedule") == 0)
		op = CRON_OP_SCHEDULE, nargs_expected = 5;
	else if (strcmp(opname, "unschedule") == 0)
		op = CRON_OP_UNSCHEDULE, nargs_expected = 1;
	else
		elog(ERROR, "bench._cron_call: unknown operation \"%s\"", opname);

	if (!PG_ARGISNULL(2))
		deconstruct_array(PG_GETARG_ARRAYTYPE_P(2), TEXTOID, -1, false, TYPALIGN_INT,
						  &elems, &enulls, &nelems);
	/* the bench.schedule of 0.1.0 makes its job as the calling role: no user */
	if (op == CRON_OP_SCHEDULE && nelems == 4)
		nargs_expected = 4;
	if (nelems != nargs_expected)
		elog(ERROR, "bench._cron_call: %s takes %d arguments, not %d", opname, nargs_expected, nelems);

	if (op != CRON_OP_VERSION && IsTransactionBlock())
		ereport(ERROR,
				(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				 errmsg("pg_cron lives in database \"%s\": its job cannot be changed inside a transaction block", dbname),
				 errhint("The job is committed in that database at once, which a rollback here would not undo; call the function on its own, outside BEGIN ... COMMIT.")));

	dboid = get_database_oid(dbname, true);
	if (!OidIsValid(dboid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_DATABASE),
				 errmsg("database \"%s\" named by cron.database_name does not exist", dbname),
				 errhint("Set cron.database_name to the database where CREATE EXTENSION pg_cron was run.")));
	if (bk_database_aclcheck(dboid, GetUserId(), ACL_CONNECT) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to reach pg_cron in database \"%s\"", dbname),
				 errhint("Schedules are created there as the calling role, which needs CONNECT on it.")));

	seg = dsm_create(sizeof(CronShared), 0);
	sh = (CronShared *) dsm_segment_address(seg);
	memset(sh, 0, sizeof(CronShared));
	sh->magic = CRON_MAGIC;
	strlcpy(sh->dbname, dbname, NAMEDATALEN);
	sh->dboid = dboid;
	sh->roleid = GetUserId();
	sh->caller_pid = MyProcPid;
	sh->op = op;
	sh->nargs = nelems;
	for (int i = 0; i < nelems; i++)
	{
		char	   *a = enulls[i] ? "" : TextDatumGetCString(elems[i]);

		if (strlen(a) >= CRON_ARG_LEN)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("argument %d of the pg_cron call is longer than %d bytes", i + 1, CRON_ARG_LEN - 1)));
		strlcpy(sh->args[i], a, CRON_ARG_LEN);
	}
	pg_atomic_init_u32(&sh->done, 0);

	{
		BkLaunch	launch = {
			.type = CRON_WORKER_TYPE,
			.function = "bench_cron_worker_main",
			.what = psprintf("a worker to reach pg_cron in database \"%s\"", dbname),
			.ready = cron_done,
			.interval_ms = 100,
			.stopped = psprintf("the worker reaching pg_cron in database \"%s\" stopped before it answered", dbname),
			.stopped_hint = "The server log says more.",
		};

		(void) bk_launch(&launch, seg, sh, NULL, 0);
	}
	pg_read_barrier();
	if (sh->error.set)
		bk_error_raise(&sh->error);
	if (sh->result_null)
	{
		dsm_detach(seg);
		PG_RETURN_NULL();
	}
	{
		text	   *result = cstring_to_text(sh->result);

		dsm_detach(seg);
		PG_RETURN_TEXT_P(result);
	}
}

/*
 * bench_cron_worker_main
 *		Entry point of the worker: connect to pg_cron's database as the
 *		caller, run the one statement, report, exit.
 */
void
bench_cron_worker_main(Datum main_arg)
{
	dsm_segment *seg = bk_worker_attach(main_arg);
	CronShared *sh;
	static const char *const sql[] = {
		"SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'pg_cron'",
		"SELECT cron.schedule_in_database($1, $2, $3, $4, $5)::text",
		"SELECT cron.unschedule(jobid)::text FROM cron.job WHERE jobid = $1::bigint"
	};

	if (seg == NULL)
		return;
	sh = (CronShared *) dsm_segment_address(seg);
	if (!bk_segment_ours(seg, CRON_MAGIC, CRON_WORKER_TYPE))
		return;
	bk_worker_connect(sh->dboid, sh->roleid, CRON_WORKER_TYPE);

	PG_TRY();
	{
		Oid			types[CRON_MAX_ARGS];
		Datum		values[CRON_MAX_ARGS];
		int			rc;
		const char *statement = sql[sh->op];

		for (int i = 0; i < sh->nargs; i++)
		{
			types[i] = TEXTOID;
			values[i] = CStringGetTextDatum(sh->args[i]);
		}
		SetCurrentStatementStartTimestamp();
		StartTransactionCommand();
		bk_spi_connect();
		PushActiveSnapshot(GetTransactionSnapshot());
		if (sh->op == CRON_OP_SCHEDULE && sh->nargs == 4)
			statement = "SELECT cron.schedule_in_database($1, $2, $3, $4)::text";
		pgstat_report_activity(STATE_RUNNING, statement);
		rc = SPI_execute_with_args(statement, sh->nargs, types, values, NULL, false, 1);
		if (rc != SPI_OK_SELECT)
			elog(ERROR, "unexpected SPI result %d for: %s", rc, statement);
		if (SPI_processed == 0)
			sh->result_null = true;
		else
		{
			char	   *v = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);

			sh->result_null = (v == NULL);
			if (v)
				strlcpy(sh->result, v, sizeof(sh->result));
		}
		PopActiveSnapshot();
		bk_spi_finish();
		CommitTransactionCommand();
		pgstat_report_activity(STATE_IDLE, NULL);
	}
	PG_CATCH();
	{
		bk_error_capture(&sh->error);
		AbortCurrentTransaction();
	}
	PG_END_TRY();
	pg_write_barrier();
	pg_atomic_write_u32(&sh->done, 1);
	bk_set_latch_of(sh->caller_pid);
	proc_exit(0);
}
