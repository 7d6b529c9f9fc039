/*-------------------------------------------------------------------------
 *
 * suite_spec.c
 *		Checking a suite's arguments: those of a sweep (bench.sweep,
 *		bench.start_sweep, bench.schedule) as fully as a single run's,
 *		made into the suite as jsonb text, and each step of a suite of
 *		steps (bench.ibench) as bench.run checks its arguments, before
 *		anything starts.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "foreign/foreign.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "meta/catalog.h"
#include "core/pgbenchkit.h"
#include "runner/segment.h"
#include "api/run.h"
#include "api/runargs.h"
#include "api/suite_spec.h"
#include "meta/workload.h"
#include "target/target.h"

#define SWEEP_MAX_CLIENT_COUNTS	1000
#define SWEEP_MAX_REPEAT		1000
#define SWEEP_MAX_RUNS			100000
#define SWEEP_MAX_TARGETS		100

/* the name that stands for this server in a list of targets */
#define SWEEP_LOCAL				"local"

#define STEPS_MAX				1000

/*
 * sweep_targets
 *		The list of targets ARR (bench.sweep's targets) checked: one
 *		dimension, not empty, no null, each named once, "local" (this
 *		server) not also the name of a target.  Returns their number and
 *		their names in *NAMES.  Whether each target exists and may be used
 *		is the run arguments' check (sweep_spec, target by target).
 */
static int
sweep_targets(const char *fn, ArrayType *arr, char ***names)
{
	Datum	   *elems;
	bool	   *enulls;
	int			ntargets;

	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("targets must be a one-dimensional array"),
				 errhint("For example targets => '{small,large,local}'.")));
	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, &enulls, &ntargets);
	if (ntargets == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("targets must not be empty"),
				 errhint("Name the targets to compare, for example targets => '{small,large,local}'; leave targets out to run on this server.")));
	if (ntargets > SWEEP_MAX_TARGETS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("targets may list at most %d targets, not %d", SWEEP_MAX_TARGETS, ntargets),
				 errhint("Compare fewer targets in one suite.")));
	*names = palloc(sizeof(char *) * ntargets);
	for (int i = 0; i < ntargets; i++)
	{
		if (enulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("targets must not contain null"),
					 errhint("Each element names a target of bench.targets, or is local for this server.")));
		(*names)[i] = TextDatumGetCString(elems[i]);
		for (int j = 0; j < i; j++)
			if (strcmp((*names)[j], (*names)[i]) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("targets lists \"%s\" twice", bk_shown((*names)[i])),
						 errhint("List each target once; repeat => N runs each of them N times.")));
		if (strcmp((*names)[i], SWEEP_LOCAL) == 0)
		{
			ForeignServer *server = GetForeignServerByName(SWEEP_LOCAL, true);

			if (server != NULL &&
				strcmp(GetForeignDataWrapper(server->fdwid)->fdwname, BK_TARGET_FDW) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("target \"%s\" in targets is ambiguous", SWEEP_LOCAL),
						 errdetail("In targets, %s stands for this server (in-server clients), and a target of that name exists too.",
								   SWEEP_LOCAL),
						 errhint("Rename the target, with ALTER SERVER %s RENAME TO another name, to compare it with this server.",
								 SWEEP_LOCAL)));
		}
	}
	return ntargets;
}

/* whether F, a function of sweep_spec, is a sweep's (takes every) */
static bool
sweep_takes_every(const BkArgFunction *f)
{
	return f->nown > SWEEP_EVERY && strcmp(f->own[SWEEP_EVERY].name, "every") == 0;
}

/*
 * sweep_check_instants
 *		at =>, every => and part_of => of a sweep of RUNS runs: run k (from
 *		0, in the sweep's order, the same on every driver given the same
 *		arguments) starts its measured part at at + k * every, as the part
 *		"part_of/k+1" of a distributed run.  So the runs need a duration
 *		(an instant after an end no one knows is no instant), every longer
 *		than it, and room in part_of for the run's number.
 */
static void
sweep_check_instants(const char *fn, const BkArgFunction *f, const Datum *v, const bool *n,
					 const Datum *rv, const bool *rn, int64 runs)
{
	bool		every = sweep_takes_every(f) && !n[SWEEP_EVERY];
	int			digits = (int) strlen(psprintf("%lld", (long long) runs));
	bool		too_big;
	int64		every_ns;
	int64		duration_ns;

	if (rn[RA_AT])
	{
		if (every)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("every needs at"),
					 errhint("every is the time between the instants of consecutive runs, the first at at => timestamptz.")));
		return;
	}
	if (!rn[RA_TRANSACTIONS])
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s with at needs a duration, not transactions", fn),
				 errhint("Each run starts at its own instant, the one after the other's end: give the runs a duration.")));
	if (!every)
	{
		if (runs > 1)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s of %lld runs with at needs every", fn, (long long) runs),
					 errhint("Run k starts its measured part at at + k * every: give every => longer than the duration, for example every => '5 min' for runs of 3 min.")));
		return;
	}
	every_ns = bk_interval_ns(DatumGetIntervalP(v[SWEEP_EVERY]), &too_big);
	duration_ns = rn[RA_DURATION] ? 60 * INT64CONST(1000000000) :
		bk_interval_ns(DatumGetIntervalP(rv[RA_DURATION]), &too_big);
	if (every_ns <= duration_ns)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("every (%s) must be longer than the duration (%s)",
						bk_interval_text(DatumGetIntervalP(v[SWEEP_EVERY])),
						rn[RA_DURATION] ? "60 s" : bk_interval_text(DatumGetIntervalP(rv[RA_DURATION]))),
				 errhint("Between two instants a run ends and the next gets its clients connected and its relations prewarmed; a run not ready by its instant fails the sweep.")));
	if (!rn[RA_PART_OF] && strlen(TextDatumGetCString(rv[RA_PART_OF])) + 1 + digits >= NAMEDATALEN)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("part_of must leave room for the number of the run: at most %d bytes here",
						NAMEDATALEN - 2 - digits),
				 errhint("Each run of the sweep is the part \"part_of/k\" of its own distributed run.")));
}

/*
 * sweep_spec
 *		Check the arguments V and N of F (bench.sweep, or one of its
 *		siblings: slots as runargs.h has them) as fully as a single run's,
 *		before anything starts, and return the suite as jsonb text:
 *		workload, clients, repeat, run_order, tag, targets (when given:
 *		each checked as a run on it would be, their datasets alike) and
 *		the run arguments
 *		each run gets ("args", keyed by the names of the table of run
 *		arguments).  FN names the function in messages.  NOW: the workers
 *		must be free now (a sweep about to start), rather than merely exist
 *		(a schedule).
 */
char *
sweep_spec(const char *fn, const BkArgFunction *f, const Datum *v, const bool *n, bool now)
{
	ArrayType  *arr;
	Datum	   *elems;
	bool	   *enulls;
	int			nclients;
	int			repeat;
	int			maxclients = 0;
	char	   *run_order;
	int			ntargets = 1;
	char	  **targets = NULL;
	Datum		rv[RUN_NARGS];
	bool		rn[RUN_NARGS];
	Oid			types[8 + RUN_NARGS];
	Datum		values[8 + RUN_NARGS];
	char		nulls[8 + RUN_NARGS];
	int			nparams = 0;
	StringInfoData sql;
	char	   *spec;
	MemoryContext callercxt = CurrentMemoryContext;

	if (!n[BK_RUN_SLOT(f, RA_GROUPS)])
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s does not take groups", fn),
				 errdetail("A sweep varies the number of clients; groups fix each group's."),
				 errhint("Run groups with bench.run or bench.start.")));
	bk_arg_not_null(n[BK_RUN_SLOT(f, RA_WORKLOAD)] && n[BK_RUN_SLOT(f, RA_SCRIPT)], fn, "workload");
	bk_arg_not_null(n[SWEEP_CLIENTS], fn, "clients");
	bk_arg_not_null(n[SWEEP_REPEAT], fn, "repeat");
	bk_arg_not_null(n[SWEEP_RUN_ORDER], fn, "run_order");

	/* clients: a non-empty list of distinct counts, each as bench.run takes */
	arr = DatumGetArrayTypeP(v[SWEEP_CLIENTS]);
	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("clients must be a one-dimensional array"),
				 errhint("For example clients => '{1,16,32,64}'.")));
	deconstruct_array(arr, INT4OID, sizeof(int32), true, TYPALIGN_INT,
					  &elems, &enulls, &nclients);
	if (nclients == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("clients must not be empty"),
				 errhint("Give the client counts to run, for example clients => '{1,16,32,64}'.")));
	if (nclients > SWEEP_MAX_CLIENT_COUNTS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("clients may list at most %d client counts, not %d",
						SWEEP_MAX_CLIENT_COUNTS, nclients)));
	for (int i = 0; i < nclients; i++)
	{
		int			c;

		if (enulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("clients must not contain null"),
					 errhint("Each element is a number of concurrent sessions, as pgbench -c.")));
		c = DatumGetInt32(elems[i]);
		if (c < 1 || c > RUN_MAX_CLIENTS)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("clients must be between 1 and %d, not %d", RUN_MAX_CLIENTS, c),
					 errhint("Each element is a number of concurrent sessions, as pgbench -c.")));
		for (int j = 0; j < i; j++)
			if (DatumGetInt32(elems[j]) == c)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("clients lists %d twice", c),
						 errhint("List each client count once; repeat => N runs each of them N times.")));
		maxclients = Max(maxclients, c);
	}

	repeat = DatumGetInt32(v[SWEEP_REPEAT]);
	if (repeat < 1 || repeat > SWEEP_MAX_REPEAT)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("repeat must be between 1 and %d, not %d", SWEEP_MAX_REPEAT, repeat),
				 errhint("repeat is how many times each client count is run; the summary takes the median.")));
	if (!n[SWEEP_TARGETS])
	{
		if (!n[BK_RUN_SLOT(f, RA_TARGET)])
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s takes target or targets, not both", fn),
					 errhint("List every target in targets, for example targets => '{small,large,local}'.")));
		ntargets = sweep_targets(fn, DatumGetArrayTypeP(v[SWEEP_TARGETS]), &targets);
	}
	if ((int64) repeat * nclients * ntargets > SWEEP_MAX_RUNS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a suite may have at most %d runs, not %lld",
						SWEEP_MAX_RUNS, (long long) repeat * nclients * ntargets)));

	run_order = TextDatumGetCString(v[SWEEP_RUN_ORDER]);
	if (strcmp(run_order, "interleaved") != 0 && strcmp(run_order, "blocks") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown run_order \"%s\"", run_order),
				 errhint("Use \"interleaved\" (every client count once, then again: drift spreads over all of them) or \"blocks\" (all repeats of one client count, then the next).")));

	/* the run arguments, checked as bench.run checks them, at the largest count */
	for (int ra = 0; ra < RUN_NARGS; ra++)
	{
		rv[ra] = v[BK_RUN_SLOT(f, ra)];
		rn[ra] = n[BK_RUN_SLOT(f, ra)];
	}
	rv[RA_CLIENTS] = Int32GetDatum(maxclients);
	rn[RA_CLIENTS] = false;
	if (targets == NULL)
		bk_run_check_argv(fn, rv, rn, now ? 1 : -1);
	else
	{
		/*
		 * Each target as a run on it would be checked, and its dataset:
		 * the same on every target, or the comparison is not one
		 */
		char	   *first_shape = NULL;

		for (int t = 0; t < ntargets; t++)
		{
			char	   *shape;

			rn[RA_TARGET] = strcmp(targets[t], SWEEP_LOCAL) == 0;
			rv[RA_TARGET] = rn[RA_TARGET] ? (Datum) 0 : CStringGetTextDatum(targets[t]);
			bk_run_check_argv(fn, rv, rn, now ? 1 : -1);
			shape = bk_run_dataset_shape(fn, rv, rn);
			if (t == 0)
				first_shape = shape;
			else if ((shape == NULL) != (first_shape == NULL) ||
					 (shape != NULL && strcmp(shape, first_shape) != 0))
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("targets \"%s\" and \"%s\" have different datasets: %s on \"%s\", %s on \"%s\"",
								targets[0], targets[t], first_shape, targets[0], shape, targets[t]),
						 errhint("A comparison of targets runs the same dataset on each: load the same one everywhere, for example with bench.init(..., target => 'name').")));
		}
		rn[RA_TARGET] = true;
		rv[RA_TARGET] = (Datum) 0;
	}
	sweep_check_instants(fn, f, v, n, rv, rn, (int64) repeat * nclients * ntargets);

	/*
	 * The suite as jsonb, built by the server's own jsonb functions: every
	 * run argument but workload, clients and tag goes into "args" (at and
	 * part_of only when given, with every).
	 */
#define SPEC_PARAM(type_, value_, null_) \
	(types[nparams] = (type_), values[nparams] = (null_) ? (Datum) 0 : (value_), \
	 nulls[nparams] = (null_) ? 'n' : ' ', ++nparams)
	SPEC_PARAM(TEXTOID, rn[RA_WORKLOAD] ? CStringGetTextDatum(BK_UNNAMED_WORKLOAD) : rv[RA_WORKLOAD],
			   false);
	SPEC_PARAM(INT4ARRAYOID, v[SWEEP_CLIENTS], false);
	SPEC_PARAM(INT4OID, v[SWEEP_REPEAT], false);
	SPEC_PARAM(TEXTOID, v[SWEEP_RUN_ORDER], false);
	SPEC_PARAM(TEXTOID, rv[RA_TAG], rn[RA_TAG]);
	/* the caller's (read here: in the SPI session below it is pinned) */
	SPEC_PARAM(TEXTOID, CStringGetTextDatum(GetConfigOption("search_path", false, false)), false);
	initStringInfo(&sql);
	appendStringInfoString(&sql,
						   "SELECT pg_catalog.jsonb_build_object("
						   "  'workload', $1, 'clients', pg_catalog.to_jsonb($2),"
						   "  'repeat', $3, 'run_order', $4, 'tag', $5,"
						   "  'search_path', $6,");
	/* targets only when given: a suite without has none, as before them */
	if (targets != NULL)
	{
		SPEC_PARAM(TEXTARRAYOID, v[SWEEP_TARGETS], false);
		appendStringInfo(&sql, "  'targets', pg_catalog.to_jsonb($%d),", nparams);
	}
	appendStringInfoString(&sql, "  'args', pg_catalog.jsonb_build_object(");
	for (int ra = 0, first = 1; ra < RUN_NARGS; ra++)
	{
		/* at and part_of only when given (suite_worker.c gives each run its own) */
		if (ra == RA_WORKLOAD || ra == RA_CLIENTS || ra == RA_TAG ||
			((ra == RA_AT || ra == RA_PART_OF) && rn[ra]))
			continue;
		SPEC_PARAM(bk_run_args[ra].type, rv[ra], rn[ra]);
		appendStringInfo(&sql, "%s%s, $%d", first ? "" : ", ",
						 quote_literal_cstr(bk_run_args[ra].name), nparams);
		first = 0;
	}
	if (!rn[RA_AT] && sweep_takes_every(f) && !n[SWEEP_EVERY])
	{
		SPEC_PARAM(INTERVALOID, v[SWEEP_EVERY], false);
		appendStringInfo(&sql, ", 'every', $%d", nparams);
	}
#undef SPEC_PARAM
	appendStringInfoString(&sql, "))::text");

	bk_spi_connect();
	if (SPI_execute_with_args(sql.data, nparams, types, values, nulls, true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not build the suite's arguments");
	spec = MemoryContextStrdup(callercxt,
							   SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1));
	bk_spi_finish();
	return spec;
}

/*
 * steps_check
 *		Check each step of the suite of steps SPEC (jsonb text) as bench.run
 *		checks its arguments, before anything starts: the arguments of step
 *		I are its "args", a run argument missing from them taking its
 *		default.  With "init" (the suite makes its dataset first), the
 *		steps' dataset is not looked for; else it is, under the spec's
 *		"search_path" (the caller's, which the runs will use: bench.ibench
 *		pins its own).
 */
void
steps_check(const char *fn, const char *spec)
{
	Oid			types[2] = {JSONBOID, INT4OID};
	Datum		values[2];
	StringInfoData sql;
	int			nsteps;
	bool		init;
	bool		isnull;
	char	   *search_path;
	int			level;
	MemoryContext cxt = CurrentMemoryContext;

	values[0] = DirectFunctionCall1(jsonb_in, CStringGetDatum(spec));
	bk_spi_connect();
	if (SPI_execute_with_args("SELECT pg_catalog.jsonb_array_length($1 OPERATOR(pg_catalog.->) 'steps'),"
							  " $1 OPERATOR(pg_catalog.?) 'init', $1 OPERATOR(pg_catalog.->>) 'search_path'",
							  1, types, values, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read the steps");
	nsteps = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	init = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull));
	search_path = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3);
	if (search_path != NULL)
		search_path = MemoryContextStrdup(cxt, search_path);
	if (nsteps < 1 || nsteps > STEPS_MAX)
		elog(ERROR, "a suite of steps has from 1 to %d steps, not %d", STEPS_MAX, nsteps);

	/* each run argument of a step, as its type, or its default */
	MemoryContextSwitchTo(cxt);
	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT ");
	for (int ra = 0; ra < RUN_NARGS; ra++)
	{
		const BkArgDef *d = &bk_run_args[ra];

		appendStringInfo(&sql, "%sCOALESCE(a OPERATOR(pg_catalog.->>) %s, %s)::%s", ra > 0 ? ", " : "",
						 quote_literal_cstr(d->name),
						 d->default_value ? quote_literal_cstr(d->default_value) : "NULL",
						 format_type_be_qualified(d->type));
	}
	appendStringInfoString(&sql, " FROM (SELECT $1 OPERATOR(pg_catalog.->) 'steps' OPERATOR(pg_catalog.->) $2"
						   " OPERATOR(pg_catalog.->) 'args' AS a) x");
	bk_spi_finish();

	/* the caller's search_path, as the worker will set it for the runs */
	level = search_path != NULL ? bk_search_path_push(search_path) : -1;
	bk_run_check_skip_dataset = init;
	PG_TRY();
	{
		for (int i = 0; i < nsteps; i++)
		{
			Datum		rv[RUN_NARGS];
			bool		rn[RUN_NARGS];

			values[1] = Int32GetDatum(i);
			bk_spi_connect();
			if (SPI_execute_with_args(sql.data, 2, types, values, NULL, true, 1) != SPI_OK_SELECT)
				elog(ERROR, "could not read step %d", i + 1);
			for (int ra = 0; ra < RUN_NARGS; ra++)
			{
				Form_pg_attribute att = TupleDescAttr(SPI_tuptable->tupdesc, ra);
				Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, ra + 1, &rn[ra]);

				/* out of SPI's memory, which bk_spi_finish frees */
				if (rn[ra])
					rv[ra] = (Datum) 0;
				else
				{
					MemoryContext old = MemoryContextSwitchTo(cxt);

					rv[ra] = datumCopy(d, att->attbyval, att->attlen);
					MemoryContextSwitchTo(old);
				}
			}
			bk_spi_finish();
			bk_run_check_argv(fn, rv, rn, 1);
		}
	}
	PG_FINALLY();
	{
		bk_run_check_skip_dataset = false;
	}
	PG_END_TRY();
	if (level >= 0)
		bk_search_path_pop(level);
}
