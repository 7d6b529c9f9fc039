/*-------------------------------------------------------------------------
 *
 * workload.c
 *		bench.define_workload and bench.drop_workload, and reading a
 *		workload's scripts for a run.
 *
 * A workload is one or more scripts in pgbench's script language, each
 * with a weight (pgbench -f a.sql@5 -f b.sql@1): a client draws the script
 * of each transaction with probability weight / total.  Every script is
 * parsed when the workload is defined, so that a broken one is refused
 * with its line and column then, not when a run starts.  The built-in
 * workloads (pgbench's scripts) live in the same table and cannot be
 * changed or dropped.  Runs keep the scripts they ran (bench.run_scripts):
 * dropping or redefining a workload loses nothing measured.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "meta/catalog.h"
#include "meta/workload.h"
#include "core/pgbenchkit.h"
#include "meta/privilege.h"
#include "script/parse.h"
#include "script/vars.h"

PG_FUNCTION_INFO_V1(bench_define_workload);
PG_FUNCTION_INFO_V1(bench_drop_workload);

/* the kinds of dataset bench.init loads, which a workload may need */
static const char *const bk_dataset_kinds[] = {"tpcb", "sysbench", "ibench", "tpcc", NULL};

/*
 * bk_workload_load
 *		The workload NAME of bench.workloads; an unknown one is an error
 *		that names the known ones.
 */
BkWorkload *
bk_workload_load(const char *name)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {CStringGetTextDatum(name)};
	MemoryContext cxt = CurrentMemoryContext;
	BkWorkload *w = palloc0(sizeof(BkWorkload));
	HeapTuple	tup;
	TupleDesc	desc;
	bool		isnull;
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	char	   *dataset;

	bk_spi_connect();
	if (SPI_execute_with_args("SELECT scripts, weights, dataset FROM bench.workloads WHERE name = $1",
							  1, types, values, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read bench.workloads");
	if (SPI_processed == 0)
	{
		char	   *names;

		if (SPI_execute("SELECT pg_catalog.string_agg(name, ', ' ORDER BY name) FROM bench.workloads",
						true, 0) != SPI_OK_SELECT)
			elog(ERROR, "could not read bench.workloads");
		names = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown workload \"%s\"", bk_shown(name)),
				 errhint("The workloads are: %s; bench.define_workload adds one.", names ? names : "none")));
	}
	tup = SPI_tuptable->vals[0];
	desc = SPI_tuptable->tupdesc;

	w->name = MemoryContextStrdup(cxt, name);
	deconstruct_array(DatumGetArrayTypeP(SPI_getbinval(tup, desc, 1, &isnull)),
					  TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
	w->nscripts = n;
	w->scripts = MemoryContextAlloc(cxt, sizeof(char *) * Max(n, 1));
	for (int i = 0; i < n; i++)
		w->scripts[i] = MemoryContextStrdup(cxt, TextDatumGetCString(elems[i]));
	deconstruct_array(DatumGetArrayTypeP(SPI_getbinval(tup, desc, 2, &isnull)),
					  INT4OID, sizeof(int32), true, TYPALIGN_INT, &elems, &nulls, &n);
	if (n != w->nscripts || n < 1 || n > BK_MAX_SCRIPTS)
		elog(ERROR, "workload \"%s\" has %d scripts and %d weights", name, w->nscripts, n);
	w->weights = MemoryContextAlloc(cxt, sizeof(int) * n);
	for (int i = 0; i < n; i++)
	{
		w->weights[i] = DatumGetInt32(elems[i]);
		w->total_weight += w->weights[i];
	}
	dataset = SPI_getvalue(tup, desc, 3);
	w->dataset = dataset ? MemoryContextStrdup(cxt, dataset) : NULL;
	bk_spi_finish();

	if (w->total_weight <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("total script weight of workload \"%s\" must not be zero", name),
				 errhint("Give at least one script a positive weight with bench.define_workload(..., replace => true).")));
	return w;
}

/*
 * bk_workload_unnamed
 *		The workload of bench.run(script => ...): that one script.
 */
BkWorkload *
bk_workload_unnamed(const char *script)
{
	BkWorkload *w = palloc0(sizeof(BkWorkload));

	w->name = pstrdup(BK_UNNAMED_WORKLOAD);
	w->nscripts = 1;
	w->scripts = palloc(sizeof(char *));
	w->scripts[0] = pstrdup(script);
	w->weights = palloc(sizeof(int));
	w->weights[0] = 1;
	w->total_weight = 1;
	return w;
}

/*
 * bk_workload_declare_dataset
 *		The kind of dataset W's SCRIPTS declare (\dataset) becomes W's when
 *		it has none (an unnamed script's); scripts that declare another
 *		kind than W's, or than each other, are refused.
 */
void
bk_workload_declare_dataset(BkWorkload *w, BkScript **scripts)
{
	for (int i = 0; i < w->nscripts; i++)
	{
		const char *kind = scripts[i]->dataset;

		if (kind[0] == '\0')
			continue;
		if (w->dataset == NULL)
			w->dataset = pstrdup(kind);
		else if (strcmp(w->dataset, kind) != 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("script \"%s\" declares %s %s dataset, and workload \"%s\" needs %s %s dataset",
							scripts[i]->name, strcmp(kind, "ibench") == 0 ? "an" : "a", kind,
							w->name, strcmp(w->dataset, "ibench") == 0 ? "an" : "a", w->dataset),
					 errhint("A workload's scripts run on one kind of dataset.")));
	}
}

/*
 * bk_workload_parse
 *		Parse every script of W, with one table of variables VT for all.
 *		Messages name a script by the workload's name, and by its number
 *		too when there are several.
 */
BkScript  **
bk_workload_parse(const BkWorkload *w, BkVarTable *vt)
{
	BkScript  **scripts = palloc(sizeof(BkScript *) * w->nscripts);

	for (int i = 0; i < w->nscripts; i++)
	{
		char	   *name = w->nscripts == 1 ? w->name : psprintf("%s script %d", w->name, i + 1);

		scripts[i] = bk_script_parse(w->scripts[i], name, vt);
		scripts[i]->number = i;
	}
	return scripts;
}

/*
 * bk_workload_check_protocol
 *		Refuse what pgbench cannot run in the run's protocol, before the
 *		run starts (pgbench finds it when a client gets there): a pipeline
 *		with the simple protocol; with 'extended' and 'prepared', a command
 *		of several statements joined by \; (the server prepares one
 *		statement at a time) or a statement that names variables more than
 *		255 times (pgbench makes a parameter of each).
 */
void
bk_workload_check_protocol(BkScript **scripts, int nscripts, bool simple)
{
	for (int s = 0; s < nscripts; s++)
	{
		for (int i = 0; i < scripts[s]->ncommands; i++)
		{
			BkCommand  *cmd = &scripts[s]->commands[i];

			if (simple && cmd->kind == BK_CMD_START_PIPELINE)
				ereport(ERROR,
						(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						 errmsg("cannot use pipeline mode with the simple query protocol"),
						 errdetail("Script \"%s\" starts a pipeline at line %d.",
								   scripts[s]->name, cmd->line),
						 errhint("Run it with protocol => 'extended' or 'prepared', as pgbench requires.")));
			if (simple || cmd->kind != BK_CMD_SQL)
				continue;
			if (cmd->nstmts > 1)
				ereport(ERROR,
						(errcode(ERRCODE_SYNTAX_ERROR),
						 errmsg("cannot insert multiple commands into a prepared statement"),
						 errdetail("The command at line %d of script \"%s\" joins %d statements with \\;.",
								   cmd->line, scripts[s]->name, cmd->nstmts),
						 errhint("Run it with protocol => 'simple', as pgbench needs for such commands.")));
			for (int j = 0; j < cmd->nstmts; j++)
				if (cmd->stmts[j].nrefs > 255)
					ereport(ERROR,
							(errcode(ERRCODE_TOO_MANY_ARGUMENTS),
							 errmsg("statement has too many arguments (maximum is 255)"),
							 errdetail("The statement at line %d of script \"%s\" names variables %d times.",
									   cmd->line, scripts[s]->name, cmd->stmts[j].nrefs),
							 errhint("Use fewer variables in one statement, or protocol => 'simple', as with pgbench.")));
		}
	}
}

/* ------------------------------------------------------------------------
 * bench.define_workload and bench.drop_workload
 * ------------------------------------------------------------------------
 */

/*
 * workload_check_name
 *		A name bench.workloads accepts: letters, digits, _ . - (so that it
 *		reads well in reports and file names), under 64 bytes.
 */
static void
workload_check_name(const char *name)
{
	bool		ok = name[0] != '\0' && name[0] != '.' && name[0] != '-' && strlen(name) < 64;

	for (const char *p = name; ok && *p; p++)
		ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			(*p >= '0' && *p <= '9') || *p == '_' || *p == '.' || *p == '-';
	if (!ok)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_NAME),
				 errmsg("invalid workload name \"%s\"", bk_shown(name)),
				 errhint("A workload name is 1 to 63 letters, digits, underscores, dots and dashes, and starts with a letter, a digit or an underscore.")));
}

/*
 * workload_existing
 *		Whether workload NAME exists; if so *BUILTIN and *DEFINED_BY say
 *		whose it is.  Locks the row (FOR UPDATE) so that two definitions
 *		do not race.
 */
static bool
workload_existing(const char *name, bool *builtin, char **defined_by)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {CStringGetTextDatum(name)};
	MemoryContext cxt = CurrentMemoryContext;
	bool		found;
	BkOwnerSwitch sw;

	bk_become_owner(&sw);
	bk_spi_connect();
	if (SPI_execute_with_args("SELECT builtin, defined_by FROM bench.workloads WHERE name = $1 FOR UPDATE",
							  1, types, values, NULL, false, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read bench.workloads");
	found = SPI_processed == 1;
	if (found)
	{
		bool		isnull;

		*builtin = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
		*defined_by = MemoryContextStrdup(cxt, SPI_getvalue(SPI_tuptable->vals[0],
															SPI_tuptable->tupdesc, 2));
	}
	bk_spi_finish();
	bk_restore_user(&sw);
	return found;
}

/*
 * workload_check_owner
 *		Changing a workload another role defined takes that role's
 *		privileges (or a superuser's).  A role refused here may not see
 *		the workload either (bench._visible is the same rule): the name is
 *		the database's, so its existence shows, but not whose it is.
 */
static void
workload_check_owner(const char *name, bool builtin, const char *defined_by)
{

	if (builtin)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("workload \"%s\" is built in", name),
				 errhint("Built-in workloads are pgbench's own scripts and cannot be changed or dropped; define a workload of another name.")));
	if (!bk_may_steer(defined_by))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for workload \"%s\"", name),
				 errdetail("It was defined by another role."),
				 errhint("Only roles with the privileges of the role that defined it, members of " BK_ADMIN_ROLE " and superusers can change or drop it.")));
}

/*
 * workload_check_unscheduled
 *		A workload a schedule runs is neither replaced nor dropped: the
 *		schedule's role would run scripts it never saw (as owner).
 */
static void
workload_check_unscheduled(const char *name, bool replacing)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {CStringGetTextDatum(name)};
	int64		schedules;
	BkOwnerSwitch sw;

	bk_become_owner(&sw);
	schedules = bk_spi_int64("SELECT count(*) FROM bench.schedules WHERE workload = $1",
							 1, types, values);
	bk_restore_user(&sw);
	if (schedules > 0)
		ereport(ERROR,
				(errcode(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST),
				 errmsg("workload \"%s\" is run by %lld schedule%s", name,
						(long long) schedules, schedules == 1 ? "" : "s"),
				 errdetail("%s", replacing ?
						   "A schedule runs a workload's scripts as the role that made the schedule, which agreed to these scripts." :
						   "A schedule would fail without it."),
				 errhint("Remove the schedules with bench.unschedule first; bench.schedules lists them.")));
}

/*
 * bench_define_workload
 *		SQL function bench.define_workload(name, scripts, weights,
 *		description, dataset, replace) returns bench.workloads.
 */
Datum
bench_define_workload(PG_FUNCTION_ARGS)
{
	const char *fn = "bench.define_workload";
	char	   *name;
	ArrayType  *arr;
	Datum	   *elems;
	bool	   *enulls;
	int			nscripts;
	int			nweights;
	BkWorkload	w;
	char	   *description = NULL;
	char	   *dataset = NULL;
	bool		replace;
	bool		exists;
	bool		builtin = false;
	char	   *defined_by = NULL;
	BkOwnerSwitch sw;
	Oid			types[6] = {TEXTOID, TEXTARRAYOID, INT4ARRAYOID, TEXTOID, TEXTOID, NAMEOID};
	Datum		values[6];
	char		nulls[6] = {' ', ' ', ' ', ' ', ' ', ' '};
	Datum		result;
	TupleDesc	tupdesc;
	Datum	   *wdatums;

	bk_check_call(fcinfo, 6, "bench.define_workload");
	bk_arg_not_null(PG_ARGISNULL(0), fn, "name");
	bk_arg_not_null(PG_ARGISNULL(1), fn, "scripts");
	bk_arg_not_null(PG_ARGISNULL(5), fn, "replace");
	name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	workload_check_name(name);
	replace = PG_GETARG_BOOL(5);

	/* the scripts */
	arr = PG_GETARG_ARRAYTYPE_P(1);
	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("scripts must be a one-dimensional array"),
				 errhint("Give one script per element, as pgbench takes one -f per script.")));
	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, &enulls, &nscripts);
	if (nscripts < 1 || nscripts > BK_MAX_SCRIPTS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a workload has 1 to %d scripts, not %d", BK_MAX_SCRIPTS, nscripts),
				 errhint("pgbench takes at most %d scripts too.", BK_MAX_SCRIPTS)));
	memset(&w, 0, sizeof(w));
	w.name = name;
	w.nscripts = nscripts;
	w.scripts = palloc(sizeof(char *) * nscripts);
	w.weights = palloc(sizeof(int) * nscripts);
	for (int i = 0; i < nscripts; i++)
	{
		if (enulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("script %d of workload \"%s\" is null", i + 1, name),
					 errhint("Every element of scripts is the text of a script.")));
		w.scripts[i] = TextDatumGetCString(elems[i]);
		w.weights[i] = 1;
		bk_check_bytes(psprintf("script %d of workload \"%s\"", i + 1, name), w.scripts[i],
					   BK_MAX_SCRIPT_BYTES, "A script is at most 1 MB (1048576 bytes).");
	}

	/* the weights: one per script, none negative, not all zero (pgbench's rules) */
	if (!PG_ARGISNULL(2))
	{
		arr = PG_GETARG_ARRAYTYPE_P(2);
		if (ARR_NDIM(arr) > 1)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("weights must be a one-dimensional array"),
					 errhint("Give one weight per script, as pgbench's -f script@weight.")));
		deconstruct_array(arr, INT4OID, sizeof(int32), true, TYPALIGN_INT, &elems, &enulls, &nweights);
		if (nweights != nscripts)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("workload \"%s\" has %d scripts but %d weights", name, nscripts, nweights),
					 errhint("Give one weight per script, or none for equal weights.")));
		for (int i = 0; i < nweights; i++)
		{
			if (enulls[i] || DatumGetInt32(elems[i]) < 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("invalid weight for script %d of workload \"%s\"", i + 1, name),
						 errhint("A weight is an integer of 0 or more, as pgbench's -f script@weight.")));
			w.weights[i] = DatumGetInt32(elems[i]);
		}
	}
	for (int i = 0; i < nscripts; i++)
		w.total_weight += w.weights[i];
	if (w.total_weight == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("total script weight must not be zero"),
				 errhint("Give at least one script a positive weight.")));

	if (!PG_ARGISNULL(3))
	{
		description = text_to_cstring(PG_GETARG_TEXT_PP(3));
		bk_check_chars("description", description, BK_MAX_DESCRIPTION_CHARS,
					   "A workload's description is at most 1024 characters.");
	}
	if (!PG_ARGISNULL(4))
	{
		bool		known = false;

		dataset = text_to_cstring(PG_GETARG_TEXT_PP(4));
		for (int i = 0; bk_dataset_kinds[i] != NULL; i++)
			known |= strcmp(dataset, bk_dataset_kinds[i]) == 0;
		if (!known)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("unknown dataset \"%s\"", dataset),
					 errhint("The datasets bench.init loads are \"tpcb\" (pgbench's tables), \"sysbench\" (sysbench's sbtest tables) and \"ibench\" (the Insert Benchmark's pi tables); leave dataset null for a workload that needs none.")));
	}

	/* every script parses, with the variables they share; \dataset gives the dataset */
	w.dataset = dataset;
	bk_workload_declare_dataset(&w, bk_workload_parse(&w, bk_vartable_create()));
	dataset = w.dataset;

	/* then the row, as the owner of schema bench */
	exists = workload_existing(name, &builtin, &defined_by);
	if (exists && !replace && !builtin && !bk_may_steer(defined_by))
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg("workload \"%s\" already exists", name),
				 errdetail("It was defined by another role."),
				 errhint("Workload names are the database's, whichever role defined them; choose another name.")));
	if (exists && !replace)
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg("workload \"%s\" already exists", name),
				 errhint("Pass replace => true to redefine it, or drop it first with bench.drop_workload('%s').", name)));
	if (exists)
	{
		workload_check_owner(name, builtin, defined_by);
		workload_check_unscheduled(name, true);
	}

	values[0] = CStringGetTextDatum(name);
	wdatums = palloc(sizeof(Datum) * nscripts);
	for (int i = 0; i < nscripts; i++)
		wdatums[i] = CStringGetTextDatum(w.scripts[i]);
	values[1] = PointerGetDatum(construct_array(wdatums, nscripts, TEXTOID, -1, false, TYPALIGN_INT));
	for (int i = 0; i < nscripts; i++)
		wdatums[i] = Int32GetDatum(w.weights[i]);
	values[2] = PointerGetDatum(construct_array(wdatums, nscripts, INT4OID, sizeof(int32), true, TYPALIGN_INT));
	if (description)
		values[3] = CStringGetTextDatum(description);
	else
		values[3] = CStringGetTextDatum(nscripts == 1 ? "custom script" :
										psprintf("custom mix of %d scripts", nscripts));
	if (dataset)
		values[4] = CStringGetTextDatum(dataset);
	else
		nulls[4] = 'n';
	values[5] = DirectFunctionCall1(namein, CStringGetDatum(GetUserNameFromId(GetUserId(), false)));

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "bench.define_workload must return a row");

	bk_become_owner(&sw);
	bk_spi_connect();
	if (SPI_execute_with_args(exists ?
							  "UPDATE bench.workloads SET scripts = $2, weights = $3, description = $4,"
							  " dataset = $5, defined_by = $6, defined_at = pg_catalog.now()"
							  " WHERE name = $1 RETURNING *" :
							  "INSERT INTO bench.workloads (name, scripts, weights, description, dataset, defined_by)"
							  " VALUES ($1, $2, $3, $4, $5, $6) RETURNING *",
							  6, types, values, nulls, false, 1) < 0 || SPI_processed != 1)
		elog(ERROR, "could not write bench.workloads");
	result = PointerGetDatum(SPI_returntuple(SPI_tuptable->vals[0], tupdesc));
	bk_spi_finish();
	bk_restore_user(&sw);
	PG_RETURN_DATUM(result);
}

/*
 * bench_drop_workload
 *		SQL function bench.drop_workload(name, if_exists) returns whether
 *		it dropped one.  A workload a schedule runs is kept.
 */
Datum
bench_drop_workload(PG_FUNCTION_ARGS)
{
	const char *fn = "bench.drop_workload";
	char	   *name;
	bool		builtin = false;
	char	   *defined_by = NULL;
	Oid			types[1] = {TEXTOID};
	Datum		values[1];
	BkOwnerSwitch sw;

	bk_check_call(fcinfo, 2, "bench.drop_workload");
	bk_arg_not_null(PG_ARGISNULL(0), fn, "name");
	bk_arg_not_null(PG_ARGISNULL(1), fn, "if_exists");
	name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	values[0] = CStringGetTextDatum(name);

	if (!workload_existing(name, &builtin, &defined_by))
	{
		if (PG_GETARG_BOOL(1))
		{
			ereport(NOTICE,
					(errmsg("workload \"%s\" does not exist, skipping", bk_shown(name))));
			PG_RETURN_BOOL(false);
		}
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("workload \"%s\" does not exist", bk_shown(name)),
				 errhint("bench.workloads lists the workloads; pass if_exists => true to ignore a missing one.")));
	}
	workload_check_owner(name, builtin, defined_by);
	workload_check_unscheduled(name, false);

	bk_become_owner(&sw);
	bk_spi_exec("DELETE FROM bench.workloads WHERE name = $1", 1, types, values, NULL, SPI_OK_DELETE);
	bk_restore_user(&sw);
	PG_RETURN_BOOL(true);
}
