/*-------------------------------------------------------------------------
 *
 * capacity.c
 *		Capacity under a latency objective: bench.capacity and
 *		bench.start_capacity, a suite whose runs are rate-limited and whose
 *		rates are chosen one after the other, as the results come in,
 *		until the highest rate the server sustains within the objective is
 *		bracketed to the precision asked for.
 *
 * The arguments are checked here before anything starts: the run
 * arguments as a sweep of one client count checks them (suite_spec.c),
 * the search's own by bench._capacity_spec (SQL: the objective's text
 * read, the budget and the precision).  The search itself is SQL too
 * (bench._capacity_next, over the runs the suite has so far), which the
 * suite's worker (suite_worker.c) asks before each run; so a search that
 * was interrupted can be read, judged and charted from its runs alone.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "meta/catalog.h"
#include "api/capacity.h"
#include "api/runargs.h"
#include "api/suite_caller.h"
#include "api/suite_spec.h"

PG_FUNCTION_INFO_V1(bench_capacity);
PG_FUNCTION_INFO_V1(bench_start_capacity);

/*
 * capacity_args
 *		The search's own arguments (the objective, its precision and budget)
 *		checked by bench._capacity_spec; with SWEEP (the suite as jsonb text,
 *		its run arguments checked), the checks that join them to it and the
 *		suite with "capacity" added, else NULL.  FN names the function.
 */
static char *
capacity_args(const char *fn, const Datum *v, const bool *n, const char *sweep)
{
	Oid			types[9] = {JSONBOID, TEXTOID, FLOAT8OID, FLOAT8OID, INT4OID, INTERVALOID,
	FLOAT8OID, INT4OID, TEXTOID};
	Datum		values[9];
	char		nulls[9];
	char	   *result;
	MemoryContext callercxt = CurrentMemoryContext;

	values[0] = sweep ? DirectFunctionCall1(jsonb_in, CStringGetDatum(sweep)) : (Datum) 0;
	nulls[0] = sweep ? ' ' : 'n';
	for (int slot = CAPACITY_SLO; slot <= CAPACITY_MAX_REPEATS; slot++)
	{
		values[slot] = n[slot] ? (Datum) 0 : v[slot];
		nulls[slot] = n[slot] ? 'n' : ' ';
	}
	values[8] = CStringGetTextDatum(fn);
	nulls[8] = ' ';
	bk_spi_connect();
	if (SPI_execute_with_args("SELECT bench._capacity_spec($1, $2, $3, $4, $5, $6, $7, $8, $9)::pg_catalog.text",
							  9, types, values, nulls, true, 1) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "could not check the capacity search's arguments");
	result = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
	if (result != NULL)
		result = MemoryContextStrdup(callercxt, result);
	bk_spi_finish();
	return result;
}

/*
 * capacity_spec
 *		Check the arguments V and N of F (bench.capacity, its siblings and
 *		bench.schedule_capacity: its own arguments in the slots CAPACITY_*)
 *		before anything starts and return the suite as jsonb text: a sweep
 *		of the one client count, repeat 1, with "capacity", the search's
 *		objective and budget.  NOW: the workers must be free now (a search
 *		about to start), rather than merely exist (a schedule).
 */
char *
capacity_spec(const char *fn, const BkArgFunction *f, const Datum *v, const bool *n, bool now)
{
	Datum		sv[BK_MAX_ARG_SLOTS];
	bool		sn[BK_MAX_ARG_SLOTS];
	Datum		one;
	char	   *sweep;
	char	   *spec;

	bk_arg_not_null(n[CAPACITY_CLIENTS], fn, "clients");
	if (n[CAPACITY_SLO])
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s needs an slo", fn),
				 errhint("Give the latency objective as a percentile, <= and a limit with its unit, for example slo => 'p99 <= 10 ms'.")));

	/* the search's own arguments first: they need nothing of the suite */
	capacity_args(fn, v, n, NULL);

	/* the run arguments, checked as a sweep of the one client count checks them */
	for (int s = 0; s < BK_ARG_SLOTS(&bk_fn_sweep); s++)
	{
		sv[s] = (Datum) 0;
		sn[s] = true;
	}
	for (int ra = 0; ra < RUN_NARGS; ra++)
	{
		sv[BK_RUN_SLOT(&bk_fn_sweep, ra)] = v[BK_RUN_SLOT(f, ra)];
		sn[BK_RUN_SLOT(&bk_fn_sweep, ra)] = n[BK_RUN_SLOT(f, ra)];
	}
	one = v[CAPACITY_CLIENTS];
	sv[SWEEP_CLIENTS] = PointerGetDatum(construct_array(&one, 1, INT4OID, sizeof(int32), true,
														TYPALIGN_INT));
	sn[SWEEP_CLIENTS] = false;
	sv[SWEEP_REPEAT] = Int32GetDatum(1);
	sn[SWEEP_REPEAT] = false;
	sv[SWEEP_RUN_ORDER] = CStringGetTextDatum("interleaved");
	sn[SWEEP_RUN_ORDER] = false;
	sweep = sweep_spec(fn, &bk_fn_sweep, sv, sn, now);

	/* the search's own arguments again, with the suite, which they join */
	spec = capacity_args(fn, v, n, sweep);
	if (spec == NULL)
		elog(ERROR, "could not build the capacity search's arguments");
	return spec;
}

/*
 * bench_capacity
 *		SQL function bench.capacity(workload, slo, clients, ...) returns
 *		setof bench.capacity_results: the search as one suite; waits for it,
 *		printing each run, and returns its answer.
 */
Datum
bench_capacity(PG_FUNCTION_ARGS)
{
	Datum		v[BK_MAX_ARG_SLOTS];
	bool		n[BK_MAX_ARG_SLOTS];
	char	   *spec;

	bk_call_args(fcinfo, &bk_fn_capacity, v, n);
	spec = capacity_spec("bench.capacity", &bk_fn_capacity, v, n, true);
	return suite_run_returning(fcinfo, "bench.capacity", spec,
							   "SELECT * FROM bench.capacity_results WHERE suite_id = $1");
}

/*
 * bench_start_capacity
 *		SQL function bench.start_capacity(...): the suite's id, once its row
 *		is committed; the search goes on without the caller
 *		(bench.wait_suite, bench.cancel_suite, bench.capacity_results).
 */
Datum
bench_start_capacity(PG_FUNCTION_ARGS)
{
	Datum		v[BK_MAX_ARG_SLOTS];
	bool		n[BK_MAX_ARG_SLOTS];
	char	   *spec;

	bk_call_args(fcinfo, &bk_fn_start_capacity, v, n);
	spec = capacity_spec("bench.start_capacity", &bk_fn_start_capacity, v, n, true);
	return suite_start(fcinfo, "bench.start_capacity", spec);
}
