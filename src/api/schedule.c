/*-------------------------------------------------------------------------
 *
 * schedule.c
 *		Schedules: a sweep run by pg_cron at the times a schedule says
 *		(bench.schedule, bench.unschedule), and one execution of it
 *		(bench.run_schedule, what pg_cron calls), a suite (suite.c) tagged
 *		with the schedule's name.  pg_cron's job in another database is
 *		made by cron.c, through bench._schedule.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "meta/catalog.h"
#include "api/capacity.h"
#include "api/run.h"
#include "api/runargs.h"
#include "api/suite_caller.h"
#include "api/suite_spec.h"
#include "core/pgbenchkit.h"
#include "meta/privilege.h"

PG_FUNCTION_INFO_V1(bench_schedule);
PG_FUNCTION_INFO_V1(bench_schedule_capacity);
PG_FUNCTION_INFO_V1(bench_run_schedule);
PG_FUNCTION_INFO_V1(bench_unschedule);

/* the slots of name, schedule, (the spec), baseline_runs and threshold */
static const int schedule_slots[5] = {SCHEDULE_NAME, SCHEDULE_SCHEDULE, -1,
SCHEDULE_BASELINE_RUNS, SCHEDULE_THRESHOLD};
static const int schedule_capacity_slots[5] = {SCHEDCAP_NAME, SCHEDCAP_SCHEDULE, -1,
SCHEDCAP_BASELINE_RUNS, SCHEDCAP_THRESHOLD};

/*
 * schedule_call
 *		bench._schedule(name, schedule, SPEC, baseline_runs, threshold) with
 *		the arguments V and N of bench.schedule (or bench.schedule_capacity:
 *		SLOTS says where they are): its row, or with SPEC NULL (the
 *		schedule's own checks only) NULL.
 */
static Datum
schedule_call(const Datum *v, const bool *n, const int *slots, const char *spec, bool *isnull)
{
	Oid			types[6] = {TEXTOID, TEXTOID, TEXTOID, INT4OID, FLOAT8OID, NAMEOID};
	Datum		values[6];
	char		nulls[6];
	Datum		row;
	BkOwnerSwitch sw;

	for (int i = 0; i < 5; i++)
	{
		bool		null = slots[i] < 0 ? spec == NULL : n[slots[i]];

		values[i] = null ? (Datum) 0 : slots[i] < 0 ? CStringGetTextDatum(spec) : v[slots[i]];
		nulls[i] = null ? 'n' : ' ';
	}
	/* the schedule is the calling role's */
	values[5] = DirectFunctionCall1(namein, CStringGetDatum(GetUserNameFromId(GetUserId(), false)));
	nulls[5] = ' ';

	/*
	 * As the owner of schema bench: it writes bench.schedules, reads
	 * cron.database_name (a superuser's setting) and makes pg_cron's job for
	 * the calling role, which only a superuser may do.
	 */
	bk_become_owner(&sw);
	bk_spi_connect();
	if (SPI_execute_with_args("SELECT s FROM bench._schedule($1, $2, $3::pg_catalog.jsonb, $4, $5, $6) s",
							  6, types, values, nulls, false, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not create the schedule");
	row = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, isnull);
	if (!*isnull)
		row = SPI_datumTransfer(row, false, -1);
	bk_spi_finish();
	bk_restore_user(&sw);
	return row;
}

/*
 * bench_schedule
 *		SQL function bench.schedule(name, schedule, workload, clients,
 *		repeat, <the other run arguments but tag>, run_order,
 *		baseline_runs, threshold) returns bench.schedules: the schedule's
 *		own arguments checked by bench._schedule, then the sweep here (its
 *		workers need only exist), then the row and pg_cron's job by
 *		bench._schedule.
 */
Datum
bench_schedule(PG_FUNCTION_ARGS)
{
	Datum		v[BK_MAX_ARG_SLOTS];
	bool		n[BK_MAX_ARG_SLOTS];
	char	   *spec;
	Datum		row;
	bool		isnull;

	bk_call_args(fcinfo, &bk_fn_schedule, v, n);
	(void) schedule_call(v, n, schedule_slots, NULL, &isnull);
	spec = sweep_spec("bench.schedule", &bk_fn_schedule, v, n, false);
	row = schedule_call(v, n, schedule_slots, spec, &isnull);
	if (isnull)
		elog(ERROR, "bench._schedule returned no schedule");
	PG_RETURN_DATUM(row);
}

/*
 * bench_schedule_capacity
 *		SQL function bench.schedule_capacity(name, schedule, workload, slo,
 *		clients, <the search's own arguments>, baseline_runs, threshold,
 *		<the run arguments but rate, transactions, groups and tag>) returns
 *		bench.schedules: a capacity search (capacity.c) that pg_cron starts,
 *		each execution's capacity judged against the schedule's previous
 *		ones (bench.schedule_results).
 */
Datum
bench_schedule_capacity(PG_FUNCTION_ARGS)
{
	Datum		v[BK_MAX_ARG_SLOTS];
	bool		n[BK_MAX_ARG_SLOTS];
	char	   *spec;
	Datum		row;
	bool		isnull;

	bk_call_args(fcinfo, &bk_fn_schedule_capacity, v, n);
	(void) schedule_call(v, n, schedule_capacity_slots, NULL, &isnull);
	spec = capacity_spec("bench.schedule_capacity", &bk_fn_schedule_capacity, v, n, false);
	row = schedule_call(v, n, schedule_capacity_slots, spec, &isnull);
	if (isnull)
		elog(ERROR, "bench._schedule returned no schedule");
	PG_RETURN_DATUM(row);
}

/*
 * bench_unschedule
 *		SQL function bench.unschedule(name): remove a schedule and its
 *		pg_cron job, when the calling role may (bk_may_steer of the role
 *		that made it); bench._unschedule does it as the owner of schema
 *		bench.
 */
Datum
bench_unschedule(PG_FUNCTION_ARGS)
{
	Oid			types[2] = {TEXTOID, NAMEOID};
	Datum		values[2];
	char	   *name;
	char	   *owner = NULL;
	bool		found;
	BkOwnerSwitch sw;

	bk_check_call(fcinfo, 1, "bench.unschedule");
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument \"name\" of bench.unschedule must not be null"),
				 errhint("Pass the name of a schedule, as bench.schedules lists it.")));
	name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	values[0] = PG_GETARG_DATUM(0);

	bk_become_owner(&sw);
	bk_spi_connect();
	if (SPI_execute_with_args("SELECT created_by FROM bench.schedules WHERE name = $1",
							  1, types, values, NULL, false, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read bench.schedules");
	found = SPI_processed == 1;
	if (found)
	{
		char	   *o = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);

		owner = o ? MemoryContextStrdup(TopTransactionContext, o) : NULL;
	}
	bk_spi_finish();
	bk_restore_user(&sw);
	if (!found)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("schedule \"%s\" does not exist", name),
				 errhint("bench.schedules lists the schedules.")));
	if (!bk_may_steer(owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to unschedule schedule \"%s\"", name),
				 errdetail("Only the role that made it, members of %s and superusers may remove it.",
						   BK_ADMIN_ROLE)));

	/* the row, if it is still that role's, and pg_cron's job */
	values[1] = DirectFunctionCall1(namein, CStringGetDatum(owner ? owner : ""));
	bk_become_owner(&sw);
	bk_spi_connect();
	if (SPI_execute_with_args("SELECT bench._unschedule($1, $2)",
							  2, types, values, NULL, false, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not remove the schedule");
	bk_spi_finish();
	bk_restore_user(&sw);
	PG_RETURN_BOOL(true);
}

/*
 * bench_run_schedule
 *		SQL function bench.run_schedule(name): one execution of a schedule,
 *		what its pg_cron job calls.  A suite tagged with the schedule's
 *		name; refused while anything else runs; an error unless it ends
 *		'done', so that cron.job_run_details says 'failed' with the reason.
 */
Datum
bench_run_schedule(PG_FUNCTION_ARGS)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1];
	char	   *name;
	char	   *spec = NULL;
	char	   *owner = NULL;
	BkOwnerSwitch sw;

	bk_check_call(fcinfo, 1, "bench.run_schedule");
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument \"name\" of bench.run_schedule must not be null"),
				 errhint("Pass the name of a schedule, as bench.schedules lists it.")));
	values[0] = PG_GETARG_DATUM(0);
	name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	suite_result_cxt = CurrentMemoryContext;
	bk_run_check_caller("bench.run_schedule");

	/* the schedule, whoever made it: then whether this role may run it */
	bk_become_owner(&sw);
	bk_spi_connect();
	/* targets for a schedule over several (bench.schedules has them since 0.3.0) */
	bk_select_latest("SELECT (pg_catalog.jsonb_build_object("
					 "  'workload', workload, 'clients', pg_catalog.to_jsonb(clients),"
					 "  'repeat', repeat, 'run_order', run_order, 'tag', NULL,"
					 "  'search_path', search_path,"
					 "  'schedule', name, 'args', args)"
					 "  OPERATOR(pg_catalog.||) CASE WHEN pg_catalog.jsonb_typeof(pg_catalog.to_jsonb(sc)"
					 "    OPERATOR(pg_catalog.->) 'targets') OPERATOR(pg_catalog.=) 'array'"
					 "   THEN pg_catalog.jsonb_build_object('targets', pg_catalog.to_jsonb(sc) OPERATOR(pg_catalog.->) 'targets')"
					 "   ELSE '{}' END"
					 /* a capacity search's objective and budget (not in 0.2.0's SQL) */
					 "  OPERATOR(pg_catalog.||) CASE WHEN pg_catalog.jsonb_typeof(pg_catalog.to_jsonb(sc)"
					 "    OPERATOR(pg_catalog.->) 'capacity') OPERATOR(pg_catalog.=) 'object'"
					 "   THEN pg_catalog.jsonb_build_object('capacity', pg_catalog.to_jsonb(sc) OPERATOR(pg_catalog.->) 'capacity')"
					 "   ELSE '{}' END)::text, created_by"
					 "  FROM bench.schedules sc WHERE name = $1",
					 1, types, values, 0);
	if (SPI_processed == 1)
	{
		spec = suite_getvalue(0, 1);
		owner = suite_getvalue(0, 2);
	}
	bk_spi_finish();
	bk_restore_user(&sw);
	if (spec == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("schedule \"%s\" does not exist", bk_shown(name)),
				 errhint("bench.schedules lists the schedules; bench.schedule creates one.")));
	if (!bk_may_steer(owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to run schedule \"%s\"", bk_shown(name)),
				 errdetail("A schedule's executions are its baseline: only the role that made it, members of %s and superusers may run it.",
						   BK_ADMIN_ROLE)));
	return suite_run(fcinfo, "bench.run_schedule", spec);
}
