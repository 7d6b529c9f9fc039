/*-------------------------------------------------------------------------
 *
 * runargs.c
 *		The run arguments: their table (name, type, default, check), the
 *		reading of a call's arguments by name, and the checks every run
 *		gets before anything starts.
 *
 * The table is the one place a run argument is defined.  The SQL
 * functions that start runs are made from it (bench._create_run_function
 * reads it through bench._arguments_of), suites keep the arguments of
 * their runs as jsonb keyed by its names (suite_spec.c), and bk_call_args
 * reads a call's arguments by their names, filling in the table's defaults, so
 * that SQL of an older version, whose functions lack the newest arguments,
 * still works with this library; a call with an argument the library does
 * not know is refused with 55000, naming the update to run.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "meta/catalog.h"
#include "core/compat.h"
#include "runner/segment.h"
#include "api/runargs.h"
#include "script/script.h"
#include "script/vars.h"
#include "target/target.h"
#include "core/pgbenchkit.h"

PG_FUNCTION_INFO_V1(bench_arguments_of);

/* the longest run accepted: a year */
#define RUN_MAX_NS		(INT64CONST(366) * 24 * 3600 * 1000000000)

/*
 * bk_interval_ns
 *		An interval in nanoseconds (a month is 30 days, a day 24 hours), or
 *		-1 when it is beyond RUN_MAX_NS either way.
 */
int64
bk_interval_ns(const Interval *iv, bool *too_big)
{
	double		us = (double) iv->time +
		((double) iv->day + (double) iv->month * DAYS_PER_MONTH) * USECS_PER_DAY;

	*too_big = fabs(us) * 1000.0 > (double) RUN_MAX_NS;
	if (*too_big)
		return us < 0 ? -1 : RUN_MAX_NS;
	return (int64) (us * 1000.0);
}

char *
bk_interval_text(const Interval *iv)
{
	return DatumGetCString(DirectFunctionCall1(interval_out, IntervalPGetDatum(iv)));
}

/* ------------------------------------------------------------------------
 * The checks of each argument, in the table's order
 * ------------------------------------------------------------------------
 */

/*
 * read_groups
 *		groups => '[{"name": ..., "workload": ... | "script": ...,
 *		"clients": n, "rate": tps}, ...]': each group's clients run its own
 *		workload or script at its own rate.  Their workloads are looked up
 *		with the run's (run.c); here each group's shape is checked.
 */
static void
read_groups(Datum json, RunArgs *a)
{
	Oid			types[1] = {JSONBOID};
	Datum		values[1] = {json};
	MemoryContext cxt = CurrentMemoryContext;
	char	   *type;
	int64		total = 0;

	bk_spi_connect();
	if (SPI_execute_with_args("SELECT pg_catalog.jsonb_typeof($1),"
							  " CASE pg_catalog.jsonb_typeof($1) WHEN 'array'"
							  " THEN pg_catalog.jsonb_array_length($1) END",
							  1, types, values, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read groups");
	type = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
	if (strcmp(type, "array") != 0 ||
		atoi(SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2)) < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg(strcmp(type, "array") != 0 ? "groups must be a JSON array, not %s" :
						"groups must list at least one group", type),
				 errhint("For example groups => '[{\"name\": \"writers\", \"workload\": \"tpcb\", \"clients\": 2, \"rate\": 50},"
						 " {\"name\": \"readers\", \"workload\": \"select-only\", \"clients\": 4}]'.")));
	if (SPI_execute_with_args("SELECT g.i, pg_catalog.jsonb_typeof(g.e),"
							  " (SELECT pg_catalog.string_agg(k, ', ' ORDER BY k)"
							  "    FROM pg_catalog.jsonb_object_keys(CASE pg_catalog.jsonb_typeof(g.e)"
							  "      WHEN 'object' THEN g.e ELSE '{}' END) k"
							  "   WHERE k <> ALL ('{name,workload,script,clients,rate}')),"
							  " pg_catalog.jsonb_typeof(g.e->'name'), g.e->>'name',"
							  " pg_catalog.jsonb_typeof(g.e->'workload'), g.e->>'workload',"
							  " pg_catalog.jsonb_typeof(g.e->'script'), g.e->>'script',"
							  " pg_catalog.jsonb_typeof(g.e->'clients'), g.e->>'clients',"
							  " pg_catalog.jsonb_typeof(g.e->'rate'), g.e->>'rate'"
							  " FROM pg_catalog.jsonb_array_elements($1) WITH ORDINALITY AS g (e, i)"
							  " ORDER BY g.i",
							  1, types, values, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read groups");
	if (SPI_processed > RUN_MAX_GROUPS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many groups: %llu, at most %d",
						(unsigned long long) SPI_processed, RUN_MAX_GROUPS),
				 errhint("Put clients that run the same scripts at the same rate in one group.")));
	a->ngroups = (int) SPI_processed;
	a->groups = MemoryContextAllocZero(cxt, sizeof(RunGroupArg) * a->ngroups);
	for (int i = 0; i < a->ngroups; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		RunGroupArg *g = &a->groups[i];
		char	   *t;
		char	   *unknown;
		char	   *name_type = SPI_getvalue(tup, desc, 4);
		char	   *wl_type = SPI_getvalue(tup, desc, 6);
		char	   *script_type = SPI_getvalue(tup, desc, 8);
		char	   *clients_type = SPI_getvalue(tup, desc, 10);
		char	   *rate_type = SPI_getvalue(tup, desc, 12);

		t = SPI_getvalue(tup, desc, 2);
		if (strcmp(t, "object") != 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("group %d must be a JSON object, not %s", i + 1, t),
					 errhint("A group is an object with %s.",
							 "clients, a workload or a script, and optionally a name and a rate")));
		unknown = SPI_getvalue(tup, desc, 3);
		if (unknown != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("group %d has unknown keys: %s", i + 1, bk_shown(unknown)),
					 errhint("A group's keys are name, workload, script, clients and rate.")));
		if ((wl_type == NULL) == (script_type == NULL))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg(wl_type == NULL ? "group %d needs a workload or a script" :
							"group %d takes a workload or a script, not both", i + 1),
					 errhint("Name a workload of bench.workloads as \"workload\", or give a script's text as \"script\".")));
		if ((wl_type && strcmp(wl_type, "string") != 0) ||
			(script_type && strcmp(script_type, "string") != 0) ||
			(name_type && strcmp(name_type, "string") != 0))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("group %d: %s must be a string", i + 1,
							name_type && strcmp(name_type, "string") != 0 ? "name" :
							wl_type ? "workload" : "script"),
					 errhint("A group's name, workload and script are JSON strings.")));
		if (wl_type)
			g->workload = MemoryContextStrdup(cxt, SPI_getvalue(tup, desc, 7));
		else
		{
			g->script = MemoryContextStrdup(cxt, SPI_getvalue(tup, desc, 9));
			bk_check_bytes("script", g->script, BK_MAX_SCRIPT_BYTES,
						   "A script is at most 1 MB (1048576 bytes).");
		}
		/* without a name, the workload's (if it can be one), or its number */
		if (name_type)
			g->name = MemoryContextStrdup(cxt, SPI_getvalue(tup, desc, 5));
		else if (g->workload && g->workload[0] != '\0' && strlen(g->workload) < NAMEDATALEN)
			g->name = g->workload;
		else
			g->name = MemoryContextStrdup(cxt, psprintf("group %d", i + 1));
		if (g->name[0] == '\0' || strlen(g->name) >= NAMEDATALEN)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("group %d: name must be 1 to %d bytes long", i + 1, NAMEDATALEN - 1),
					 errhint("A group's name labels its results.")));
		for (int j = 0; j < i; j++)
			if (strcmp(a->groups[j].name, g->name) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("groups %d and %d are both named \"%s\"", j + 1, i + 1,
								bk_shown(g->name)),
						 errhint("Give each group a name of its own: \"name\": \"...\".")));

		t = SPI_getvalue(tup, desc, 11);
		if (clients_type == NULL || strcmp(clients_type, "number") != 0 ||
			strspn(t, "0123456789") != strlen(t) || strlen(t) > 5 ||
			atoi(t) < 1 || atoi(t) > RUN_MAX_CLIENTS)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 clients_type == NULL ? errmsg("group %d needs clients", i + 1) :
					 errmsg("group %d: clients must be a whole number between 1 and %d, not %s",
							i + 1, RUN_MAX_CLIENTS, bk_shown(t)),
					 errhint("clients is the number of the group's concurrent sessions.")));
		g->clients = atoi(t);
		total += g->clients;

		if (rate_type != NULL)
		{
			t = SPI_getvalue(tup, desc, 13);
			g->rate = strcmp(rate_type, "number") == 0 ? strtod(t, NULL) : -1;
			if (!(g->rate > 0) || isinf(g->rate) || g->rate > 1e6 * g->clients)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("group %d: rate must be a positive number, at most 1000000 transactions per second per client, not %s",
								i + 1, bk_shown(t)),
						 errhint("A group's rate is the target throughput of its clients together, as pgbench -R; leave it out for no limit.")));
		}
	}
	if (total > RUN_MAX_CLIENTS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the groups have %lld clients, at most %d", (long long) total, RUN_MAX_CLIENTS),
				 errhint("clients of all groups together are at most %d.", RUN_MAX_CLIENTS)));
	a->clients = (int) total;
	bk_spi_finish();
}

static void
check_workload(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	/* groups => names each group's workload; it comes last in the table */
	if (!n[RA_GROUPS])
	{
		if (!n[RA_WORKLOAD] || !n[RA_SCRIPT])
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s takes groups or a %s, not both", fn,
							n[RA_WORKLOAD] ? "script" : "workload"),
					 errhint("Each group names its own workload or script.")));
		read_groups(v[RA_GROUPS], a);
		return;
	}
	/* a workload or a script: script comes later in the table, both now */
	if (n[RA_WORKLOAD] == n[RA_SCRIPT])
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg(n[RA_WORKLOAD] ? "%s needs a workload or a script" :
						"%s takes a workload or a script, not both", fn),
				 errhint("Name a workload of bench.workloads, or pass the text of a script in pgbench's script language as script => $$...$$.")));
	if (!n[RA_WORKLOAD])
		a->workload = text_to_cstring(DatumGetTextPP(v[RA_WORKLOAD]));
	else
	{
		a->script = text_to_cstring(DatumGetTextPP(v[RA_SCRIPT]));
		bk_check_bytes("script", a->script, BK_MAX_SCRIPT_BYTES,
					   "A script is at most 1 MB (1048576 bytes).");
	}
}

static void
check_clients(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	int			clients = DatumGetInt32(v[RA_CLIENTS]);

	/* with groups, theirs: clients may only repeat their sum */
	if (a->ngroups > 0)
	{
		if (clients != 1 && clients != a->clients)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("clients is %d, and the groups have %d", clients, a->clients),
					 errhint("With groups, each group gives its clients; leave clients out.")));
		return;
	}
	a->clients = clients;
	if (a->clients < 1 || a->clients > RUN_MAX_CLIENTS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("clients must be between 1 and %d, not %d", RUN_MAX_CLIENTS, a->clients),
				 errhint("clients is the number of concurrent sessions, as pgbench -c.")));
}

/* duration or transactions: the one given, or 60 s */
static void
check_duration(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	bool		too_big;

	if (!n[RA_DURATION] && !n[RA_TRANSACTIONS])
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("duration and transactions cannot both be given"),
				 errhint("A run lasts either a duration (pgbench -T) or a number of transactions per client (pgbench -t).")));
	if (!n[RA_TRANSACTIONS])
		return;
	if (n[RA_DURATION])
		a->duration = *DatumGetIntervalP(DirectFunctionCall3(interval_in,
															 CStringGetDatum("60 s"),
															 ObjectIdGetDatum(InvalidOid),
															 Int32GetDatum(-1)));
	else
		a->duration = *DatumGetIntervalP(v[RA_DURATION]);
	a->duration_set = true;
	a->duration_ns = bk_interval_ns(&a->duration, &too_big);
	if (a->duration_ns <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("duration must be positive, not %s", bk_interval_text(&a->duration)),
				 errhint("For example duration => '60 s'.")));
	if (too_big)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("duration must be at most a year, not %s", bk_interval_text(&a->duration)),
				 errhint("Schedule repeated runs instead of one endless run.")));
}

static void
check_transactions(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	if (n[RA_TRANSACTIONS])
		return;
	a->transactions = DatumGetInt64(v[RA_TRANSACTIONS]);
	if (a->transactions < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("transactions must be at least 1, not %lld", (long long) a->transactions),
				 errhint("transactions is the number of transactions each client runs, as pgbench -t.")));
}

static void
check_protocol(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	a->protocol_name = text_to_cstring(DatumGetTextPP(v[RA_PROTOCOL]));
	if (strcmp(a->protocol_name, "simple") == 0)
		a->protocol = RUN_PROTO_SIMPLE;
	else if (strcmp(a->protocol_name, "extended") == 0)
		a->protocol = RUN_PROTO_EXTENDED;
	else if (strcmp(a->protocol_name, "prepared") == 0)
		a->protocol = RUN_PROTO_PREPARED;
	else
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown protocol \"%s\"", a->protocol_name),
				 errhint("Use \"simple\", \"extended\" or \"prepared\", as pgbench -M.")));
}

static void
check_warmup(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	bool		too_big;

	a->warmup = *DatumGetIntervalP(v[RA_WARMUP]);
	a->warmup_ns = bk_interval_ns(&a->warmup, &too_big);
	if (a->warmup_ns < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("warmup must not be negative, not %s", bk_interval_text(&a->warmup)),
				 errhint("warmup is the time at the start of the run left out of the summary; '0' for none.")));
	if (a->duration_set && a->warmup_ns >= a->duration_ns)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("warmup (%s) must be shorter than duration (%s)",
						bk_interval_text(&a->warmup), bk_interval_text(&a->duration)),
				 errhint("The warm-up is part of the duration; what remains of it is measured.")));
	if (too_big)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("warmup must be at most a year, not %s", bk_interval_text(&a->warmup))));
}

static void
check_progress(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	bool		too_big;

	a->progress = *DatumGetIntervalP(v[RA_PROGRESS]);
	a->progress_ns = bk_interval_ns(&a->progress, &too_big);
	if (a->progress_ns < 0 || (a->progress_ns > 0 && a->progress_ns < 100 * INT64CONST(1000000)))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("progress must be 0 or at least 100 ms, not %s", bk_interval_text(&a->progress)),
				 errhint("progress is how often a progress line is printed and a progress row kept; '0' prints none (rows are kept every 5 s).")));
}

static void
check_max_tries(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	a->max_tries = DatumGetInt32(v[RA_MAX_TRIES]);
	if (a->max_tries < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("max_tries must not be negative, not %d", a->max_tries),
				 errhint("max_tries is how often a transaction that hit a serialization failure or deadlock is tried, as pgbench --max-tries; 0 means no limit.")));
}

static void
check_tag(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	a->tag = n[RA_TAG] ? NULL : text_to_cstring(DatumGetTextPP(v[RA_TAG]));
	if (a->tag)
		bk_check_chars("tag", a->tag, BK_MAX_TAG_CHARS,
					   "A tag is a label of at most 256 characters, kept with the run.");
}

static void
check_prewarm(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	a->prewarm = DatumGetBool(v[RA_PREWARM]);
}

static void
check_sample_interval(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	bool		too_big;

	a->sample_interval = *DatumGetIntervalP(v[RA_SAMPLE_INTERVAL]);
	a->sample_ns = bk_interval_ns(&a->sample_interval, &too_big);
	if (a->sample_ns < 0 || (a->sample_ns > 0 && a->sample_ns < 100 * INT64CONST(1000000)) || too_big)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("sample_interval must be 0 or between 100 ms and a year, not %s",
						bk_interval_text(&a->sample_interval)),
				 errhint("sample_interval is how often the server's counters are sampled while the run goes; '0' samples only before and after.")));
}

/* rate => tps, as pgbench -R: all clients together */
static void
check_rate(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	if (n[RA_RATE])
		return;
	if (a->ngroups > 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s takes groups or a rate, not both", fn),
				 errhint("Give each group its own rate: \"rate\": tps.")));
	a->rate = DatumGetFloat8(v[RA_RATE]);
	if (!(a->rate > 0) || isinf(a->rate) || a->rate > 1e6 * a->clients)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("rate must be positive and at most 1000000 transactions per second per client, not %.15g",
						a->rate),
				 a->rate > 0 ? errdetail("%d client%s can be asked for at most %.0f.", a->clients,
										 a->clients == 1 ? "" : "s", 1e6 * a->clients) : 0,
				 errhint("rate is the target throughput of all clients together, as pgbench -R, whose schedule counts in microseconds; leave it null for no limit.")));
}

/* latency_limit => interval, as pgbench -L */
static void
check_latency_limit(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	bool		too_big;

	if (!n[RA_LATENCY_LIMIT])
	{
		a->latency_limit = *DatumGetIntervalP(v[RA_LATENCY_LIMIT]);
		a->latency_limit_ns = bk_interval_ns(&a->latency_limit, &too_big);
		if (a->latency_limit_ns <= 0 || too_big)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("latency_limit must be positive and at most a year, not %s",
							bk_interval_text(&a->latency_limit)),
					 errhint("latency_limit counts the transactions that take longer (and, with rate, skips those already that late), as pgbench -L; for example latency_limit => '10 ms'.")));
	}
	/* max_tries, read before, may need the limit */
	if (a->max_tries == 0 && !a->duration_set && a->latency_limit_ns == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("max_tries => 0 (no limit) needs a duration or a latency_limit"),
				 errhint("Without a limit on tries, only the run's duration or the latency limit ends a transaction that keeps failing.")));
}

/* random_seed => n, as pgbench --random-seed=n */
static void
check_random_seed(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	if (n[RA_RANDOM_SEED])
		return;
	a->seed_given = true;
	a->seed = (uint64) DatumGetInt64(v[RA_RANDOM_SEED]);
}

/*
 * read_variables
 *		The run's variables, a jsonb object of scalars: each becomes a
 *		variable of every client, as pgbench -D name=value sets one (a
 *		string, read as a number or a boolean where an expression needs one;
 *		JSON null is NULL).
 */
static void
read_variables(Datum json, RunArgs *a)
{
	Oid			types[1] = {JSONBOID};
	Datum		values[1] = {json};
	MemoryContext cxt = CurrentMemoryContext;

	bk_spi_connect();
	if (SPI_execute_with_args("SELECT pg_catalog.jsonb_typeof($1), $1::text", 1, types, values,
							  NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read variables");
	if (strcmp(SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1), "object") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("variables must be a JSON object, not %s",
						SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1)),
				 errhint("For example variables => '{\"nrows\": 1000, \"label\": \"a\"}', as pgbench -D nrows=1000 -D label=a.")));
	a->variables_json = MemoryContextStrdup(cxt, SPI_getvalue(SPI_tuptable->vals[0],
															  SPI_tuptable->tupdesc, 2));
	bk_check_bytes("variables", a->variables_json, BK_MAX_VARIABLES_BYTES,
				   "The variables of a run are at most 1 MB (1048576 bytes) as JSON text.");
	if (SPI_execute_with_args("SELECT key, pg_catalog.jsonb_typeof(value), value #>> '{}'"
							  " FROM pg_catalog.jsonb_each($1) ORDER BY key",
							  1, types, values, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read variables");
	if (SPI_processed > BK_MAX_VARIABLES)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many variables: %llu, at most %d",
						(unsigned long long) SPI_processed, BK_MAX_VARIABLES),
				 errhint("A run starts with at most %d variables; a script can set more with \\set.",
						 BK_MAX_VARIABLES)));
	a->nvariables = (int) SPI_processed;
	a->var_names = MemoryContextAlloc(cxt, sizeof(char *) * Max(a->nvariables, 1));
	a->var_values = MemoryContextAlloc(cxt, sizeof(char *) * Max(a->nvariables, 1));
	for (int i = 0; i < a->nvariables; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		char	   *name = SPI_getvalue(tup, desc, 1);
		char	   *type = SPI_getvalue(tup, desc, 2);

		if (!bk_valid_var_name(name))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid variable name \"%s\" in variables", bk_shown(name)),
					 errhint("A variable name is made of letters, digits and underscores, and does not start with a digit.")));
		if (strcmp(type, "object") == 0 || strcmp(type, "array") == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("variable \"%s\" must be a string, a number, a boolean or null, not an %s",
							name, type),
					 errhint("A script variable holds one value, as pgbench -D name=value.")));
		a->var_names[i] = MemoryContextStrdup(cxt, name);
		a->var_values[i] = strcmp(type, "null") == 0 ? NULL :
			MemoryContextStrdup(cxt, SPI_getvalue(tup, desc, 3));
	}
	bk_spi_finish();
}

/* variables => '{"name": value, ...}', as pgbench -D name=value */
static void
check_variables(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	if (!n[RA_VARIABLES])
		read_variables(v[RA_VARIABLES], a);
}

static void
check_target(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	if (n[RA_TARGET])
		return;
	a->target = text_to_cstring(DatumGetTextPP(v[RA_TARGET]));
	/* it exists, the caller may use it, and has a user mapping that may connect */
	(void) bk_target_open(a->target, GetUserId(), NULL);
}

static void
check_jobs(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	if (n[RA_JOBS])
	{
		/* pgbench's default, -j 1, against a target; in the server, one per client */
		a->jobs = a->target ? 1 : a->clients;
		return;
	}
	a->jobs = DatumGetInt32(v[RA_JOBS]);
	if (a->jobs < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("jobs must be at least 1, not %d", a->jobs),
				 errhint("jobs is the number of client workers, each playing its share of the clients, as pgbench -j.")));
	if (a->target == NULL && a->jobs != a->clients)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("jobs needs a target"),
				 errdetail("In-server clients are one background worker each."),
				 errhint("Leave jobs out, or run against a target: target => 'name'.")));
	/* no more workers than clients, as pgbench has no more threads */
	if (a->jobs > a->clients)
		a->jobs = a->clients;
}

static void
check_connect(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	char	   *connect = text_to_cstring(DatumGetTextPP(v[RA_CONNECT]));

	if (strcmp(connect, "per_transaction") == 0)
		a->connect_per_transaction = true;
	else if (strcmp(connect, "per_run") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown connect \"%s\"", connect),
				 errhint("Use \"per_run\" (one connection per client for the run) or \"per_transaction\" (a new one for every transaction, as pgbench -C).")));
	if (a->connect_per_transaction && a->target == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("connect => 'per_transaction' needs a target"),
				 errdetail("In-server clients are sessions of this server, not connections."),
				 errhint("Run against a target (target => 'name'), which may be this server itself.")));
}

static void
check_on_disconnect(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	char	   *what = text_to_cstring(DatumGetTextPP(v[RA_ON_DISCONNECT]));

	if (strcmp(what, "continue") == 0)
		a->on_disconnect_continue = true;
	else if (strcmp(what, "reconnect") == 0)
		a->on_disconnect_reconnect = true;
	else if (strcmp(what, "fail") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown on_disconnect \"%s\"", what),
				 errhint("Use \"fail\" (a client's lost connection fails the run), \"continue\" (the client ends, the others go on) or \"reconnect\" (the client reconnects and goes on).")));
	if ((a->on_disconnect_continue || a->on_disconnect_reconnect) && a->target == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("on_disconnect => '%s' needs a target", what),
				 errdetail("In-server clients have no connection to lose: a restart of this server ends the run."),
				 errhint("Leave on_disconnect out, or run against a target: target => 'name'.")));
	if (a->on_disconnect_reconnect && !a->duration_set && a->transactions > 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("on_disconnect => 'reconnect' needs a duration"),
				 errdetail("A run of a number of transactions per client would never end if the target did not come back."),
				 errhint("Give duration instead of transactions.")));
}

/*
 * warehouse_choice => 'home' | 'random': each TPC-C terminal keeps its home
 * warehouse (client i's is i mod W + 1), or draws one per transaction as
 * go-tpc does.  Its dataset kind is checked with the workload (run.c).
 */
static void
check_warehouse_choice(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	char	   *what = text_to_cstring(DatumGetTextPP(v[RA_WAREHOUSE_CHOICE]));

	if (strcmp(what, "random") == 0)
		a->random_warehouse = true;
	else if (strcmp(what, "home") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown warehouse_choice \"%s\"", bk_shown(what)),
				 errhint("Use \"home\" (each client keeps its warehouse, as the TPC-C specification binds terminals) or \"random\" (one drawn per transaction, as go-tpc does).")));
}

/*
 * keying_and_thinking => true: TPC-C's keying and think times (clause
 * 5.2.5.7) between a terminal's transactions.  The limit of 10 clients
 * per warehouse it brings is checked once the dataset is known (run.c).
 */
static void
check_keying_and_thinking(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	a->keying_and_thinking = DatumGetBool(v[RA_KEYING_AND_THINKING]);
}

/*
 * mode => 'procedures' | 'statements': how a TPC-C workload sends its
 * transactions, one call of the dataset's function each (as HammerDB), or
 * each statement its own round trip (as go-tpc).  Its dataset kind is
 * checked with the workload (run.c).
 */
static void
check_mode(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	char	   *what = text_to_cstring(DatumGetTextPP(v[RA_MODE]));

	if (strcmp(what, "statements") == 0)
		a->statements = true;
	else if (strcmp(what, "procedures") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown mode \"%s\"", bk_shown(what)),
				 errhint("Use \"procedures\" (one call of the dataset's function per TPC-C transaction, as HammerDB sends them) or \"statements\" (each statement its own round trip, as go-tpc sends them).")));
}

/* ------------------------------------------------------------------------
 * The table
 * ------------------------------------------------------------------------
 */

/*
 * reconnect_delay, reconnect_max_delay: on_disconnect 'reconnect''s waits
 * before a new connection, the first and the longest (each drawn between
 * its half and itself)
 */
static int64
reconnect_wait(const Datum *v, int arg, const char *name)
{
	Interval   *iv = DatumGetIntervalP(v[arg]);
	bool		too_big;
	int64		ns = bk_interval_ns(iv, &too_big);

	if (ns < INT64CONST(1000000) || ns > INT64CONST(600) * 1000000000 || too_big)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be from 1 ms to 10 min, not %s", name, bk_interval_text(iv)),
				 errhint("With on_disconnect => 'reconnect', a client waits reconnect_delay before its first attempt, twice as long after each that fails, up to reconnect_max_delay.")));
	return ns;
}

static void
check_reconnect_delay(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	a->reconnect_delay_ns = reconnect_wait(v, RA_RECONNECT_DELAY, "reconnect_delay");
}

static void
check_reconnect_max_delay(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	a->reconnect_max_delay_ns = reconnect_wait(v, RA_RECONNECT_MAX_DELAY, "reconnect_max_delay");
	if (a->reconnect_max_delay_ns < a->reconnect_delay_ns)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("reconnect_max_delay (%s) must not be less than reconnect_delay (%s)",
						bk_interval_text(DatumGetIntervalP(v[RA_RECONNECT_MAX_DELAY])),
						bk_interval_text(DatumGetIntervalP(v[RA_RECONNECT_DELAY]))),
				 errhint("reconnect_max_delay bounds the waits, which start at reconnect_delay and double.")));
}

/*
 * check_query => 'SELECT count(*) FROM pgbench_history': a query of one
 * integer that each committed transaction of the run adds one to, read on
 * the target before the run and after it, so that the run can tell whether
 * every transaction it counted committed is there (and how many whose
 * commit's answer a lost connection took did commit).  Only against a
 * target; run.c gives the built-in tpcb and simple-update workloads one
 * with on_disconnect 'reconnect'.
 */
static void
check_check_query(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	if (n[RA_CHECK_QUERY])
		return;
	a->check_query = text_to_cstring(DatumGetTextPP(v[RA_CHECK_QUERY]));
	if (a->target == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("check_query needs a target"),
				 errdetail("It checks a target's rows against the transactions the run counted committed, after the connections were lost."),
				 errhint("Leave check_query out, or run against a target: target => 'name'.")));
	if (strspn(a->check_query, " \t\r\n") == strlen(a->check_query))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("check_query must not be empty"),
				 errhint("Give a query of one integer that each committed transaction adds one to, as SELECT count(*) FROM pgbench_history.")));
	bk_check_chars("check_query", a->check_query, 4096,
				   "A check query is one statement of at most 4096 characters.");
}

/*
 * response_timeout => '5 s': a statement whose answer has not come within
 * it counts as a lost connection (08006), so that a target that vanished
 * without a word (a host gone, its processes stopped) is found out within
 * it; a client of on_disconnect 'reconnect' then reconnects.  Only against
 * a target.
 */
static void
check_response_timeout(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	bool		too_big;

	if (n[RA_RESPONSE_TIMEOUT])
		return;
	a->response_timeout = *DatumGetIntervalP(v[RA_RESPONSE_TIMEOUT]);
	a->response_timeout_ns = bk_interval_ns(&a->response_timeout, &too_big);
	if (a->response_timeout_ns < INT64CONST(1000000) || too_big ||
		a->response_timeout_ns > INT64CONST(86400) * 1000000000)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("response_timeout must be from 1 ms to 1 day, not %s",
						bk_interval_text(&a->response_timeout)),
				 errhint("A statement not answered within response_timeout counts as a lost connection; for example response_timeout => '5 s'.")));
	if (a->target == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("response_timeout needs a target"),
				 errdetail("In-server clients have no connection to lose; statement_timeout bounds their statements."),
				 errhint("Leave response_timeout out, or run against a target: target => 'name'.")));
}

/*
 * at => '2026-12-01 12:00:00+00': the instant the measured part starts, so
 * that drivers given the same instant (their clocks synchronised) start
 * together; the clients start the warm-up before it.  The run waits for it
 * once its row is written, and fails (55000) if it was not ready in time.
 */
static void
check_at(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	TimestampTz now = GetCurrentTimestamp();

	if (n[RA_AT])
		return;
	a->at = DatumGetTimestampTz(v[RA_AT]);
	if (TIMESTAMP_NOT_FINITE(a->at) || a->at <= now)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("at must be in the future, not %s",
						TIMESTAMP_NOT_FINITE(a->at) ? "infinite" : timestamptz_to_str(a->at)),
				 errhint("at is the instant the measured part starts, the clients starting the warm-up before it: give every driver of a distributed run the same instant, far enough ahead for the connections and the prewarm.")));
	if (a->at - a->warmup_ns / 1000 <= now)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("at minus the warm-up (%s) must be in the future", bk_interval_text(&a->warmup)),
				 errhint("at is the instant the measured part starts, the clients starting the warm-up before it: give every driver of a distributed run the same instant, far enough ahead for the connections and the prewarm.")));
	if (a->at - now > RUN_MAX_NS / 1000)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("at must be within a year, not %s", timestamptz_to_str(a->at)),
				 errhint("Schedule the run with pg_cron instead (bench.schedule).")));
}

/*
 * part_of => 'clouds-2026-11': the distributed run this run is a part of,
 * named by the caller and the same on every driver; the central database
 * merges the parts of one name (bench.distributed_runs).  It needs at, the
 * instant the parts share.
 */
static void
check_part_of(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	if (n[RA_PART_OF])
		return;
	a->part_of = text_to_cstring(DatumGetTextPP(v[RA_PART_OF]));
	if (a->part_of[0] == '\0' || strlen(a->part_of) >= NAMEDATALEN)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("part_of must be 1 to %d bytes long", NAMEDATALEN - 1),
				 errhint("part_of names the distributed run, the same on every driver.")));
	if (a->at == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("part_of needs at"),
				 errdetail("The parts of a distributed run start their measured parts at one instant, and are merged from it."),
				 errhint("Give every part the same at => timestamptz.")));
	if (a->check_query != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("check_query cannot check a part of a distributed run"),
				 errdetail("The target's count grows with the transactions of every part, not of this one."),
				 errhint("Compare the count's growth with bench.distributed_runs' transactions and warmup_transactions, where the parts are merged.")));
}

/*
 * Every run argument, in the order of bench.run's signature.  A new one
 * goes at the end (positional calls keep working), with its check, and a
 * field of RunArgs; an upgrade script recreates the functions with
 * bench._create_run_function.
 */
const BkArgDef bk_run_args[RUN_NARGS] = {
	[RA_WORKLOAD] = {"workload", TEXTOID, NULL, false, check_workload,
	"a workload of bench.workloads (or script)"},
	[RA_CLIENTS] = {"clients", INT4OID, "1", true, check_clients,
	"concurrent sessions (pgbench -c)"},
	[RA_DURATION] = {"duration", INTERVALOID, NULL, false, check_duration,
	"how long the run lasts (pgbench -T); 60 s when neither it nor transactions is given"},
	[RA_TRANSACTIONS] = {"transactions", INT8OID, NULL, false, check_transactions,
	"transactions per client instead of a duration (pgbench -t)"},
	[RA_PROTOCOL] = {"protocol", TEXTOID, "prepared", true, check_protocol,
	"simple, extended or prepared (pgbench -M)"},
	[RA_WARMUP] = {"warmup", INTERVALOID, "0", true, check_warmup,
	"time at the start left out of the summary"},
	[RA_PROGRESS] = {"progress", INTERVALOID, "5 s", true, check_progress,
	"interval of the progress lines and rows (pgbench -P); 0 prints none"},
	[RA_MAX_TRIES] = {"max_tries", INT4OID, "1", true, check_max_tries,
	"tries of a transaction that hit a serialization failure or deadlock (pgbench --max-tries); 0: no limit"},
	[RA_TAG] = {"tag", TEXTOID, NULL, false, check_tag,
	"a label kept with the run"},
	[RA_PREWARM] = {"prewarm", BOOLOID, "true", true, check_prewarm,
	"load the dataset's relations into shared buffers first (pg_prewarm)"},
	[RA_SAMPLE_INTERVAL] = {"sample_interval", INTERVALOID, "1 s", true, check_sample_interval,
	"how often the server's counters are sampled; 0: before and after only"},
	[RA_SCRIPT] = {"script", TEXTOID, NULL, false, NULL,
	"a script in pgbench's script language, instead of a workload (pgbench -f)"},
	[RA_RATE] = {"rate", FLOAT8OID, NULL, false, check_rate,
	"target transactions per second of all clients (pgbench -R)"},
	[RA_LATENCY_LIMIT] = {"latency_limit", INTERVALOID, NULL, false, check_latency_limit,
	"transactions slower than this are counted late, or skipped with rate (pgbench -L)"},
	[RA_RANDOM_SEED] = {"random_seed", INT8OID, NULL, false, check_random_seed,
	"seed of the clients' random generators (pgbench --random-seed)"},
	[RA_VARIABLES] = {"variables", JSONBOID, NULL, false, check_variables,
	"variables every client starts with, as a jsonb object (pgbench -D)"},
	[RA_TARGET] = {"target", TEXTOID, NULL, false, check_target,
	"a target of bench.targets to run against over libpq; none: in-server clients"},
	[RA_JOBS] = {"jobs", INT4OID, NULL, false, check_jobs,
	"client workers against a target, each playing its share of the clients (pgbench -j; no more than clients); 1 when not given"},
	[RA_CONNECT] = {"connect", TEXTOID, "per_run", true, check_connect,
	"per_run, or per_transaction: a new connection for every transaction (pgbench -C)"},
	[RA_ON_DISCONNECT] = {"on_disconnect", TEXTOID, "fail", true, check_on_disconnect,
	"fail: a client whose connection to the target breaks fails the run; continue: it ends, the others go on; reconnect: it reconnects and goes on, its outage measured"},
	[RA_GROUPS] = {"groups", JSONBOID, NULL, false, NULL,
	"groups of clients, each with its own workload or script and rate, as a jsonb array of {name, workload | script, clients, rate}; instead of workload, script, clients and rate"},
	[RA_WAREHOUSE_CHOICE] = {"warehouse_choice", TEXTOID, "home", true, check_warehouse_choice,
	"TPC-C: home (client i keeps warehouse i mod W + 1, as the specification binds terminals) or random (a warehouse per transaction, as go-tpc draws it)"},
	[RA_KEYING_AND_THINKING] = {"keying_and_thinking", BOOLOID, "false", true, check_keying_and_thinking,
	"TPC-C: the specification's keying and think times between transactions (at most 10 clients per warehouse)"},
	[RA_MODE] = {"mode", TEXTOID, "procedures", true, check_mode,
	"TPC-C: procedures (one call of the dataset's function per transaction, as HammerDB) or statements (each statement its own round trip, as go-tpc)"},
	[RA_RECONNECT_DELAY] = {"reconnect_delay", INTERVALOID, "10 ms", true, check_reconnect_delay,
	"on_disconnect 'reconnect': the wait before a client's first attempt at a new connection, doubled after each that fails (each wait drawn between its half and itself)"},
	[RA_RECONNECT_MAX_DELAY] = {"reconnect_max_delay", INTERVALOID, "1 s", true, check_reconnect_max_delay,
	"on_disconnect 'reconnect': the longest wait between a client's attempts"},
	[RA_CHECK_QUERY] = {"check_query", TEXTOID, NULL, false, check_check_query,
	"a query of one integer on the target that each committed transaction adds one to, read before and after the run to find committed transactions missing; with on_disconnect 'reconnect', tpcb and simple-update count pgbench_history"},
	[RA_RESPONSE_TIMEOUT] = {"response_timeout", INTERVALOID, NULL, false, check_response_timeout,
	"against a target: a statement not answered within it counts as a lost connection (08006), so that a silent failure is found within it"},
	[RA_AT] = {"at", TIMESTAMPTZOID, NULL, false, check_at,
	"the instant the measured part starts (the warm-up before it), the same on every driver of a distributed run; the run waits for it"},
	[RA_PART_OF] = {"part_of", TEXTOID, NULL, false, check_part_of,
	"the name of the distributed run this run is a part of, the same on every driver; needs at"},
};

/*
 * bk_run_args_read
 *		The run arguments V and N (in the table's order), each checked, into
 *		A: the nulls refused first, then each argument's check in turn.
 */
void
bk_run_args_read(const char *fn, const Datum *v, const bool *n, RunArgs *a)
{
	memset(a, 0, sizeof(*a));
	for (int i = 0; i < RUN_NARGS; i++)
		if (bk_run_args[i].not_null)
			bk_arg_not_null(n[i], fn, bk_run_args[i].name);
	for (int i = 0; i < RUN_NARGS; i++)
		if (bk_run_args[i].check != NULL)
			bk_run_args[i].check(fn, v, n, a);
}

/*
 * The functions that take the run arguments, and their own arguments.  A
 * suite's runs all take its run arguments; clients is its list of client
 * counts instead.  A schedule's runs are tagged with its name.
 */
static const char *const run_order[] = {"*"};

static const BkArgDef sweep_own[] = {
	[SWEEP_CLIENTS] = {"clients", INT4ARRAYOID, "{1}", true, NULL,
	"client counts, each a run of its own"},
	[SWEEP_REPEAT] = {"repeat", INT4OID, "3", true, NULL,
	"runs of each client count (the summary takes their median)"},
	[SWEEP_RUN_ORDER] = {"run_order", TEXTOID, "interleaved", true, NULL,
	"interleaved (every client count, then again) or blocks (all repeats of one, then the next)"},
	[SWEEP_TARGETS] = {"targets", TEXTARRAYOID, NULL, false, NULL,
	"targets of bench.targets (local: this server, in-server clients), each run in turn at every client count and repetition, in an order that rotates from repetition to repetition; instead of target"},
	[SWEEP_EVERY] = {"every", INTERVALOID, NULL, false, NULL,
	"with at: the time from one run's instant to the next's (at, at + every, ...), more than the duration"},
};
/*
 * The run arguments of 0.1.0 keep their positions, and the own arguments
 * after them theirs; run arguments added since come last ("*").
 */
static const char *const sweep_order[] = {"workload", "clients", "repeat", "duration",
	"transactions", "protocol", "warmup", "progress", "max_tries", "tag", "prewarm",
"sample_interval", "run_order", "*", "targets", "every"};

static const BkArgDef schedule_own[] = {
	[SWEEP_CLIENTS] = {"clients", INT4ARRAYOID, "{1}", true, NULL,
	"client counts, each a run of its own"},
	[SWEEP_REPEAT] = {"repeat", INT4OID, "1", true, NULL,
	"runs of each client count (the summary takes their median)"},
	[SWEEP_RUN_ORDER] = {"run_order", TEXTOID, "interleaved", true, NULL,
	"interleaved (every client count, then again) or blocks (all repeats of one, then the next)"},
	[SWEEP_TARGETS] = {"targets", TEXTARRAYOID, NULL, false, NULL,
	"targets of bench.targets (local: this server, in-server clients), each run in turn, each judged against its own baseline; instead of target"},
	[SCHEDULE_NAME] = {"name", TEXTOID, NULL, true, NULL,
	"the schedule's name, which tags its runs"},
	[SCHEDULE_SCHEDULE] = {"schedule", TEXTOID, NULL, true, NULL,
	"when, as a cron expression pg_cron takes"},
	[SCHEDULE_BASELINE_RUNS] = {"baseline_runs", INT4OID, "5", false, NULL,
	"previous executions the median baseline is taken over"},
	[SCHEDULE_THRESHOLD] = {"threshold", FLOAT8OID, "0.05", false, NULL,
	"the fall in tps below the baseline that counts as a regression"},
	{"tag", InvalidOid, NULL, false, NULL, NULL},
	{"at", InvalidOid, NULL, false, NULL, NULL},
	{"part_of", InvalidOid, NULL, false, NULL, NULL},
};
static const char *const schedule_order[] = {"name", "schedule", "workload", "clients", "repeat",
	"duration", "transactions", "protocol", "warmup", "progress", "max_tries", "prewarm",
"sample_interval", "run_order", "baseline_runs", "threshold", "*", "targets"};

/*
 * A capacity search's runs take its run arguments but the rate, which the
 * search sets run by run, groups and transactions (a step is a duration).
 */
/*
 * The own arguments of a capacity search, which bench.schedule_capacity
 * takes too, in the same slots.
 */
#define CAPACITY_OWN_ARGS \
	[CAPACITY_CLIENTS] = {"clients", INT4OID, "1", true, NULL, \
	"concurrent sessions of every run"}, \
	[CAPACITY_SLO] = {"slo", TEXTOID, NULL, false, NULL, \
	"the latency objective: a percentile, <= and a limit with its unit, as 'p99 <= 10 ms'"}, \
	[CAPACITY_MAX_FAILURE_RATE] = {"max_failure_rate", FLOAT8OID, NULL, false, NULL, \
	"the share of failed transactions a passing rate may have (NULL: not judged)"}, \
	[CAPACITY_PRECISION] = {"precision", FLOAT8OID, "0.05", true, NULL, \
	"the search ends when the first failing rate is within this fraction of the last passing one"}, \
	[CAPACITY_MAX_RUNS] = {"max_runs", INT4OID, "20", true, NULL, \
	"the most runs the search makes, its probe and repeats included"}, \
	[CAPACITY_MAX_TIME] = {"max_time", INTERVALOID, NULL, false, NULL, \
	"no run starts that would end after this time from the suite's start (NULL: no limit)"}, \
	[CAPACITY_START_RATE] = {"start_rate", FLOAT8OID, NULL, false, NULL, \
	"the lowest rate, where the bracket starts (NULL: an eighth of an unthrottled probe run's tps)"}, \
	[CAPACITY_MAX_REPEATS] = {"max_repeats", INT4OID, "2", true, NULL, \
	"runs added at a rate whose percentile is within its confidence interval of the limit"},

static const BkArgDef capacity_own[] = {
	CAPACITY_OWN_ARGS
	{"rate", InvalidOid, NULL, false, NULL, NULL},
	{"transactions", InvalidOid, NULL, false, NULL, NULL},
	{"groups", InvalidOid, NULL, false, NULL, NULL},
	{"at", InvalidOid, NULL, false, NULL, NULL},
	{"part_of", InvalidOid, NULL, false, NULL, NULL},
};
static const char *const capacity_order[] = {"workload", "slo", "clients", "max_failure_rate",
	"precision", "max_runs", "max_time", "start_rate", "max_repeats", "*"};

static const BkArgDef schedule_capacity_own[] = {
	CAPACITY_OWN_ARGS
	[SCHEDCAP_NAME] = {"name", TEXTOID, NULL, true, NULL,
	"the schedule's name, which tags its runs"},
	[SCHEDCAP_SCHEDULE] = {"schedule", TEXTOID, NULL, true, NULL,
	"when, as a cron expression pg_cron takes"},
	[SCHEDCAP_BASELINE_RUNS] = {"baseline_runs", INT4OID, "5", false, NULL,
	"previous executions the median baseline is taken over"},
	[SCHEDCAP_THRESHOLD] = {"threshold", FLOAT8OID, "0.05", false, NULL,
	"the fall in capacity below the baseline that counts as a regression"},
	{"rate", InvalidOid, NULL, false, NULL, NULL},
	{"transactions", InvalidOid, NULL, false, NULL, NULL},
	{"groups", InvalidOid, NULL, false, NULL, NULL},
	{"tag", InvalidOid, NULL, false, NULL, NULL},
	{"at", InvalidOid, NULL, false, NULL, NULL},
	{"part_of", InvalidOid, NULL, false, NULL, NULL},
};
static const char *const schedule_capacity_order[] = {"name", "schedule", "workload", "slo", "clients",
	"max_failure_rate", "precision", "max_runs", "max_time", "start_rate", "max_repeats",
"baseline_runs", "threshold", "*"};

/* every function's slots fit the callers' arrays (BK_MAX_ARG_SLOTS) */
StaticAssertDecl(lengthof(sweep_own) <= BK_MAX_OWN_ARGS, "too many own arguments");
StaticAssertDecl(lengthof(schedule_own) <= BK_MAX_OWN_ARGS, "too many own arguments");
StaticAssertDecl(lengthof(capacity_own) <= BK_MAX_OWN_ARGS, "too many own arguments");
StaticAssertDecl(lengthof(schedule_capacity_own) <= BK_MAX_OWN_ARGS, "too many own arguments");

const BkArgFunction bk_fn_run = {"bench.run", NULL, 0, run_order, lengthof(run_order)};
const BkArgFunction bk_fn_start = {"bench.start", NULL, 0, run_order, lengthof(run_order)};
const BkArgFunction bk_fn_sweep = {"bench.sweep", sweep_own, lengthof(sweep_own),
sweep_order, lengthof(sweep_order)};
const BkArgFunction bk_fn_start_sweep = {"bench.start_sweep", sweep_own, lengthof(sweep_own),
sweep_order, lengthof(sweep_order)};
const BkArgFunction bk_fn_sweep_spec = {"bench._sweep_spec", sweep_own, lengthof(sweep_own),
sweep_order, lengthof(sweep_order)};
const BkArgFunction bk_fn_schedule = {"bench.schedule", schedule_own, lengthof(schedule_own),
schedule_order, lengthof(schedule_order)};

const BkArgFunction bk_fn_capacity = {"bench.capacity", capacity_own, lengthof(capacity_own),
capacity_order, lengthof(capacity_order)};
const BkArgFunction bk_fn_start_capacity = {"bench.start_capacity", capacity_own, lengthof(capacity_own),
capacity_order, lengthof(capacity_order)};
const BkArgFunction bk_fn_schedule_capacity = {"bench.schedule_capacity", schedule_capacity_own,
	lengthof(schedule_capacity_own), schedule_capacity_order, lengthof(schedule_capacity_order)};

static const BkArgFunction *const arg_functions[] = {
	&bk_fn_run, &bk_fn_start, &bk_fn_sweep, &bk_fn_start_sweep, &bk_fn_sweep_spec, &bk_fn_schedule,
	&bk_fn_capacity, &bk_fn_start_capacity, &bk_fn_schedule_capacity,
};

/* ------------------------------------------------------------------------
 * Reading a call's arguments by name
 * ------------------------------------------------------------------------
 */

/* where each argument of a function goes: cached in its FmgrInfo */
typedef struct CallMap
{
	int			nargs;
	int			slot[FLEXIBLE_ARRAY_MEMBER];
} CallMap;

static const BkArgDef *
arg_def(const BkArgFunction *f, int slot)
{
	return slot < f->nown ? &f->own[slot] : &bk_run_args[slot - f->nown];
}

/* the slot of the argument NAME: F's own first, then the run arguments' */
static int
arg_slot(const BkArgFunction *f, const char *name)
{
	for (int s = 0; s < BK_ARG_SLOTS(f); s++)
		if (strcmp(arg_def(f, s)->name, name) == 0)
			return s;
	return -1;
}

/* whether slot S is an argument of F's signature */
static bool
arg_taken(const BkArgFunction *f, int s)
{
	return OidIsValid(arg_def(f, s)->type) && arg_slot(f, arg_def(f, s)->name) == s;
}

/*
 * arg_signature
 *		F's arguments in the order of its signature, as slots, into SLOTS
 *		(BK_MAX_ARG_SLOTS of them); returns their number.
 */
static int
arg_signature(const BkArgFunction *f, int *slots)
{
	int			n = 0;
	bool		placed[BK_MAX_ARG_SLOTS] = {false};

	Assert(BK_ARG_SLOTS(f) <= BK_MAX_ARG_SLOTS);
	for (int i = 0; i < f->norder; i++)
		if (strcmp(f->order[i], "*") != 0)
			placed[arg_slot(f, f->order[i])] = true;
	for (int i = 0; i < f->norder; i++)
	{
		if (strcmp(f->order[i], "*") != 0)
			slots[n++] = arg_slot(f, f->order[i]);
		else
			for (int s = f->nown; s < BK_ARG_SLOTS(f); s++)
				if (arg_taken(f, s) && !placed[s])
					slots[n++] = s;
	}
	return n;
}

static int
sql_arity(const BkArgFunction *f)
{
	int			slots[BK_MAX_ARG_SLOTS];

	return arg_signature(f, slots);
}

/*
 * call_map
 *		Map each argument of the called function to its slot by its name,
 *		checking its type; refuse a function that is not of this library's
 *		version.
 */
static CallMap *
call_map(FunctionCallInfo fcinfo, const BkArgFunction *f)
{
	HeapTuple	tup;
	Oid		   *types;
	char	  **names;
	char	   *modes;
	int			nargs;
	CallMap    *map;
	bool		taken[BK_MAX_ARG_SLOTS] = {false};

	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(fcinfo->flinfo->fn_oid));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for function %u", fcinfo->flinfo->fn_oid);
	nargs = get_func_arg_info(tup, &types, &names, &modes);
	ReleaseSysCache(tup);

	/* the SQL of every version names its arguments: unnamed ones are not ours */
	if (nargs == 0 || names == NULL || nargs != PG_NARGS())
		bk_refuse_call_count(fcinfo, sql_arity(f), f->name);

	map = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt,
							 offsetof(CallMap, slot) + sizeof(int) * nargs);
	map->nargs = nargs;
	for (int k = 0; k < nargs; k++)
	{
		int			s;

		if (names[k] == NULL || names[k][0] == '\0')
			bk_refuse_call_count(fcinfo, sql_arity(f), f->name);
		s = arg_slot(f, names[k]);
		if (s < 0 || taken[s] || arg_def(f, s)->type != types[k] ||
			(modes != NULL && modes[k] != PROARGMODE_IN))
			bk_refuse_call(f->name, psprintf("%s was called with an argument \"%s\" of type %s that the pgbenchkit library of version %s does not take",
											 f->name, names[k], format_type_be(types[k]), BK_VERSION));
		taken[s] = true;
		map->slot[k] = s;
	}
	return map;
}

/*
 * bk_call_args
 *		The arguments of the call FCINFO of F, by name, into the slots V and
 *		N: F's own, then the run arguments, each with its table's default
 *		when the called function does not have it.
 */
void
bk_call_args(FunctionCallInfo fcinfo, const BkArgFunction *f, Datum *v, bool *n)
{
	CallMap    *map = (CallMap *) fcinfo->flinfo->fn_extra;

	if (map == NULL)
	{
		map = call_map(fcinfo, f);
		fcinfo->flinfo->fn_extra = map;
	}
	for (int s = 0; s < BK_ARG_SLOTS(f); s++)
	{
		const BkArgDef *d = arg_def(f, s);

		n[s] = d->default_value == NULL || !OidIsValid(d->type);
		if (!n[s])
		{
			Oid			typinput;
			Oid			typioparam;

			getTypeInputInfo(d->type, &typinput, &typioparam);
			v[s] = OidInputFunctionCall(typinput, unconstify(char *, d->default_value),
										typioparam, -1);
		}
		else
			v[s] = (Datum) 0;
	}
	for (int k = 0; k < map->nargs; k++)
	{
		int			s = map->slot[k];

		n[s] = PG_ARGISNULL(k);
		v[s] = n[s] ? (Datum) 0 : PG_GETARG_DATUM(k);
	}
}

/*
 * bench_arguments_of
 *		SQL function bench._arguments_of(function text): the arguments of
 *		bench.run (or bench.start, bench.sweep, bench.start_sweep,
 *		bench._sweep_spec, bench.schedule) in the order of its signature,
 *		with their types, defaults (required: none) and descriptions;
 *		bench._create_run_function makes the functions from it.
 */
Datum
bench_arguments_of(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	const BkArgFunction *f = NULL;
	char	   *name;
	int			slots[BK_MAX_ARG_SLOTS];
	int			nslots;

	bk_check_call(fcinfo, 1, "bench._arguments_of");
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument \"function\" of bench._arguments_of must not be null"),
				 errhint("Name a function that takes the run arguments, for example 'bench.sweep'.")));
	name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	for (int i = 0; i < lengthof(arg_functions); i++)
		if (strcmp(arg_functions[i]->name, name) == 0)
			f = arg_functions[i];
	if (f == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FUNCTION),
				 errmsg("%s does not take the run arguments", name),
				 errhint("Those that do are bench.run, bench.start, bench.sweep, bench.start_sweep, bench._sweep_spec, bench.schedule, bench.capacity, bench.start_capacity and bench.schedule_capacity.")));

	bk_init_materialized_srf(fcinfo);
	nslots = arg_signature(f, slots);
	for (int i = 0; i < nslots; i++)
	{
		const BkArgDef *d = arg_def(f, slots[i]);
		Datum		values[6];
		bool		nulls[6] = {false, false, false, false, false, false};

		values[0] = Int32GetDatum(i + 1);
		values[1] = CStringGetTextDatum(d->name);
		values[2] = ObjectIdGetDatum(d->type);
		nulls[3] = d->default_value == NULL;
		values[3] = nulls[3] ? (Datum) 0 : CStringGetTextDatum(d->default_value);
		/* no default at all: the first arguments of bench.schedule */
		values[4] = BoolGetDatum(d->not_null && d->default_value == NULL);
		values[5] = CStringGetTextDatum(d->description);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
