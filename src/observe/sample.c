/*-------------------------------------------------------------------------
 *
 * sample.c
 *		The samples of a run: the server's counters before the clients
 *		start, every sample_interval while they run and after they stopped
 *		(bench.samples), from one list of sources (the statistics views,
 *		pg_stat_statements, the WAL insert position, CPU time); which of
 *		them the sampled server and the run's role can read, decided when
 *		the observer starts (bk_obs_init, bk_obs_init_remote).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_authid.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "meta/catalog.h"
#include "observe/observe.h"
#include "observe/cpu.h"
#include "observe/prewarm.h"
#include "observe/sample.h"
#include "target/target.h"
#include "core/clock.h"

/*
 * Statements kept per sample: the run's role's busiest, and others'; the
 * sample after the run (from which bench.run_statements reckons, with the
 * one before) keeps more, with their texts.  The sample before keeps every
 * statement, without texts: the busiest after the run may have been far
 * from the busiest before it (a cheap workload's statements, beside the
 * role's history, which pg_stat_statements keeps across runs and
 * restarts), and their counts over the run are the counts after minus
 * the counts before.
 */
#define OBS_OWN_STATEMENTS				50
#define OBS_OTHER_STATEMENTS			20
#define OBS_OWN_STATEMENTS_DURING		10
#define OBS_OTHER_STATEMENTS_DURING		5

/*
 * The sources one sample reads, one entry each, in the order of the
 * sample's keys ($1 database, $2 the leaf tables, $3 CPU as jsonb text or
 * NULL, $4 the clients' transactions so far, $5 the run's role).  A source
 * that needs a statistics view is read only where the sampled server has
 * that view (pg_stat_io from 16, pg_stat_checkpointer from 17): decided
 * when the run starts, from what that server exposes, not from the version
 * pgbenchkit was built for.  A new view joins with one entry here (and a
 * view over bench.samples that reads its key).  pg_stat_statements, whose
 * schema and privileges vary, is added by obs_sample_sql.
 */
typedef struct ObsSource
{
	const char *key;			/* its key in bench.samples.data */
	const char *view;			/* the pg_catalog view it needs, or NULL */
	const char *expr;			/* its value */
} ObsSource;

static const ObsSource obs_sources[] = {
	{"transactions", NULL,
		"$4::pg_catalog.int8"},
	{"wal_insert_lsn", NULL,
		"pg_catalog.pg_current_wal_insert_lsn() OPERATOR(pg_catalog.-) '0/0'::pg_catalog.pg_lsn"},
	{"wal", "pg_stat_wal",
		"(SELECT pg_catalog.to_jsonb(w) OPERATOR(pg_catalog.-) 'stats_reset'"
		" FROM pg_catalog.pg_stat_wal w)"},
	{"bgwriter", "pg_stat_bgwriter",
		"(SELECT pg_catalog.to_jsonb(b) OPERATOR(pg_catalog.-) 'stats_reset'"
		" FROM pg_catalog.pg_stat_bgwriter b)"},
	{"checkpointer", "pg_stat_checkpointer",
		"(SELECT pg_catalog.to_jsonb(c) OPERATOR(pg_catalog.-) 'stats_reset'"
		" FROM pg_catalog.pg_stat_checkpointer c)"},
	{"io", "pg_stat_io",
		"(SELECT pg_catalog.jsonb_agg(pg_catalog.to_jsonb(i) OPERATOR(pg_catalog.-) 'stats_reset')"
		" FROM pg_catalog.pg_stat_io i WHERE COALESCE(i.reads, 0) + COALESCE(i.writes, 0)"
		" + COALESCE(i.extends, 0) + COALESCE(i.hits, 0) + COALESCE(i.evictions, 0)"
		" + COALESCE(i.fsyncs, 0) OPERATOR(pg_catalog.>) 0)"},
	{"database", NULL,
		"(SELECT pg_catalog.to_jsonb(d) OPERATOR(pg_catalog.-) 'stats_reset'"
		" FROM pg_catalog.pg_stat_database d WHERE d.datid = $1)"},
	{"tables", NULL,
		"(SELECT pg_catalog.jsonb_agg(pg_catalog.to_jsonb(t) OPERATOR(pg_catalog.||) pg_catalog.to_jsonb(io))"
		" FROM pg_catalog.pg_stat_all_tables t"
		" JOIN pg_catalog.pg_statio_all_tables io ON io.relid = t.relid"
		" WHERE t.relid = ANY ($2))"},
	{"indexes", NULL,
		"(SELECT pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) OPERATOR(pg_catalog.||) pg_catalog.to_jsonb(io))"
		" FROM pg_catalog.pg_stat_all_indexes x"
		" JOIN pg_catalog.pg_statio_all_indexes io ON io.indexrelid = x.indexrelid"
		" WHERE x.relid = ANY ($2))"},
	{"cpu", NULL,
		"$3::pg_catalog.jsonb"},
	/* the server's start: a sample after a restart or a failover is another server's */
	{"server_started", NULL,
		"pg_catalog.pg_postmaster_start_time()"},
};

#define OBS_NSOURCES lengthof(obs_sources)

/* the kind of sample of PHASE ('before', 'during', 'after') */
static int
obs_sample_kind(const char *phase)
{
	if (strcmp(phase, "during") == 0)
		return OBS_SAMPLE_DURING;
	return strcmp(phase, "before") == 0 ? OBS_SAMPLE_BEFORE : OBS_SAMPLE_AFTER;
}

/*
 * obs_view_exists
 *		Whether the sampled server has the statistics view pg_catalog.NAME.
 */
static bool
obs_view_exists(BkObserver *o, const char *name)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {CStringGetTextDatum(name)};

	return strcmp(obs_text(o, "SELECT pg_catalog.count(*) FROM pg_catalog.pg_class c"
						   " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
						   " WHERE n.nspname = 'pg_catalog' AND c.relname OPERATOR(pg_catalog.=) $1",
						   1, types, values), "0") != 0;
}

/*
 * obs_sample_sql
 *		The query that reads one sample of kind KIND (OBS_SAMPLE_DURING,
 *		_AFTER, _BEFORE), as a jsonb object with one key per source that
 *		READ says to read (see obs_sources), then the statements of
 *		pg_stat_statements in schema PGSS_SCHEMA, if given: the busiest
 *		during and after the run, every one before it.  After the run, the
 *		texts of the run's role's statements, redacted (redact.c) once the
 *		busiest are chosen, not every text of the view; without REDACT (a
 *		target, which has no bench._redact_statement) as they are, to be
 *		redacted here before they are stored.
 */
static char *
obs_sample_sql(const bool *read, const char *pgss_schema, int kind, bool redact,
			   const char *counters)
{
	bool		texts = kind == OBS_SAMPLE_AFTER;
	StringInfoData q;
	const char *sep = "";

	initStringInfo(&q);
	appendStringInfoString(&q, "SELECT pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(");
	for (int i = 0; i < OBS_NSOURCES; i++)
	{
		if (!read[i])
			continue;
		appendStringInfo(&q, "%s'%s', %s", sep, obs_sources[i].key, obs_sources[i].expr);
		sep = ", ";
	}
	/* the dataset's own counters (core/datasets.h), when its kind has some */
	if (counters != NULL)
		appendStringInfo(&q, "%s'dataset', %s", sep, counters);
	if (pgss_schema != NULL)
	{
		bool		every = kind == OBS_SAMPLE_BEFORE;

		appendStringInfo(&q,
						 ", 'statements', (SELECT pg_catalog.jsonb_agg(pg_catalog.to_jsonb(s) OPERATOR(pg_catalog.-) 'rank'%s) FROM ("
						 " SELECT s.queryid, s.userid, s.toplevel,%s s.userid = $5 AS own, s.calls,"
						 " s.total_exec_time, s.plans, s.total_plan_time, s.rows, s.shared_blks_hit, s.shared_blks_read,"
						 " s.shared_blks_dirtied, s.shared_blks_written, s.temp_blks_written,"
						 " s.wal_records, s.wal_fpi, s.wal_bytes%s"
						 " FROM %s.pg_stat_statements(%s) s WHERE s.dbid = $1 AND s.queryid IS NOT NULL) s",
						 texts && redact ? " OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object('query', bench._redact_statement(s.query))" : "",
						 texts ? " CASE WHEN s.userid = $5 THEN s.query END AS query," : "",
						 every ? "" : ", pg_catalog.row_number() OVER (PARTITION BY s.userid = $5 ORDER BY s.total_exec_time DESC) AS rank",
						 quote_identifier(pgss_schema),
						 texts ? "true" : "false");
		/* the busiest only, but before the run every one */
		if (!every)
			appendStringInfo(&q, " WHERE s.rank <= CASE WHEN s.own THEN %d ELSE %d END",
							 texts ? OBS_OWN_STATEMENTS : OBS_OWN_STATEMENTS_DURING,
							 texts ? OBS_OTHER_STATEMENTS : OBS_OTHER_STATEMENTS_DURING);
		appendStringInfoChar(&q, ')');
	}
	appendStringInfoString(&q, "))");
	return q.data;
}

static void
obs_pgss_probe(void *arg)
{
	const char *schema = arg;

	bk_spi_connect();
	if (SPI_execute(psprintf("SELECT 1 FROM %s.pg_stat_statements(false) LIMIT 1",
							 quote_identifier(schema)), true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read pg_stat_statements");
	bk_spi_finish();
}

static void
obs_counters_probe(void *arg)
{
	const char *counters = arg;

	bk_spi_connect();
	if (SPI_execute(psprintf("SELECT %s", counters), true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read the dataset's counters");
	bk_spi_finish();
}

/*
 * The dataset's counters (core/datasets.h), when they can be read: a table
 * of them missing, or not readable by the run's role (another tool made
 * the dataset), leaves them out of the samples, said in unavailable, and
 * the run goes on.
 */
static const char *
obs_counters_usable(BkObserver *o, const char *counters)
{
	ErrorData  *edata;

	if (counters == NULL)
		return NULL;
	if (o->remote != NULL)
	{
		PGresult   *r = bk_target_exec(o->remote, psprintf("SELECT %s", counters));
		bool		ok = r != NULL && PQresultStatus(r) == PGRES_TUPLES_OK;

		if (!ok)
			obs_unavailable(o, "dataset",
							psprintf("the dataset's counters could not be read on the target: %s",
									 pchomp(r ? PQresultErrorMessage(r) : PQerrorMessage(o->remote))));
		PQclear(r);
		return ok ? counters : NULL;
	}
	edata = obs_try(obs_counters_probe, (void *) counters);
	if (edata == NULL)
		return counters;
	obs_unavailable(o, "dataset", psprintf("the dataset's counters could not be read: %s", edata->message));
	return NULL;
}

/* whether pg_stat_statements can be read here; the reason why not in *WHY */
static bool
obs_pgss_usable(const char *schema, char **why)
{
	ErrorData  *edata = obs_try(obs_pgss_probe, (void *) schema);

	if (edata == NULL)
		return true;
	*why = psprintf("pg_stat_statements could not be read: %s", edata->message);
	return false;
}

/*
 * bk_obs_init
 *		Find the workload's tables and which sources this server and this
 *		role can read; prepare the sample queries.
 */
void
bk_obs_init(BkObserver *o, int64 run_id, int64 dataset_id, Oid roleid, const char *counters)
{
	MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);
	char	   *pgss;
	char	   *why = NULL;
	bool		read[OBS_NSOURCES];

	memset(o, 0, sizeof(*o));
	o->run_id = run_id;
	o->dboid = MyDatabaseId;
	o->roleid = roleid;
	o->stats_priv = has_privs_of_role(roleid, ROLE_PG_READ_ALL_STATS);
	initStringInfo(&o->unavailable);
	appendStringInfoChar(&o->unavailable, '{');
	MemoryContextSwitchTo(old);

	{
		MemoryContext cur = MemoryContextSwitchTo(TopMemoryContext);

		obs_dataset_tables(dataset_id, &o->tables, &o->ntables);
		MemoryContextSwitchTo(cur);
	}

	/* the coordinator's own queries are not the workload's */
	if (GetConfigOption("pg_stat_statements.track", true, false) != NULL)
		SetConfigOption("pg_stat_statements.track", "none", PGC_SUSET, PGC_S_OVERRIDE);

	pgss = obs_extension_schema(o, "pg_stat_statements");
	if (pgss == NULL)
		obs_unavailable(o, "statements", "pg_stat_statements is not installed in this database");
	else if (!obs_pgss_usable(pgss, &why))
	{
		obs_unavailable(o, "statements", why);
		pgss = NULL;
	}
	else if (!o->stats_priv)
		obs_unavailable(o, "statements of other roles",
						"the run's role is not a member of pg_read_all_stats (pg_monitor)");
	if (!o->stats_priv)
	{
		obs_unavailable(o, "cpu", "the run's role is not a member of pg_read_all_stats (pg_monitor)");
		obs_unavailable(o, "host", "the run's role is not a member of pg_read_all_stats (pg_monitor)");
	}
	else
	{
		double		a;

		if (!obs_server_cpu(&a))
			obs_unavailable(o, "cpu", "/proc is not readable: the CPU time of the server's processes is unknown");
		else if (obs_host_cpu(NULL) == NULL)
			obs_unavailable(o, "host cpu", "/proc/stat is not readable");
	}

	for (int i = 0; i < OBS_NSOURCES; i++)
		read[i] = obs_sources[i].view == NULL || obs_view_exists(o, obs_sources[i].view);
	counters = obs_counters_usable(o, counters);
	for (int kind = 0; kind < OBS_SAMPLE_KINDS; kind++)
	{
		Oid			types[5] = {OIDOID, OIDARRAYOID, TEXTOID, INT8OID, OIDOID};
		char	   *sql = obs_sample_sql(read, pgss, kind, true, counters);

		bk_spi_connect();
		o->sample_plan[kind] = SPI_prepare(sql, 5, types);
		if (o->sample_plan[kind] == NULL)
			elog(ERROR, "could not prepare the sample query: %s", SPI_result_code_string(SPI_result));
		if (SPI_keepplan(o->sample_plan[kind]) != 0)
			elog(ERROR, "could not keep the sample query");
		bk_spi_finish();
	}
	o->sampling = true;
}

/*
 * bk_obs_set_remote
 *		The observer of a run against a target reads over CONN from now on,
 *		a new connection to the same target (the run's clients reconnect);
 *		NULL: there is none, and the observer reads nothing more there.
 */
void
bk_obs_set_remote(BkObserver *o, PGconn *conn)
{
	if (o->remote == NULL && !o->remote_lost)
		return;					/* not a remote observer */
	o->remote = conn;
	if (conn == NULL)
	{
		o->remote_lost = true;
		o->sampling = false;
		obs_unavailable(o, "samples", "the target could not be reached at the run's end: no sample after");
	}
	else
		PQclear(bk_target_exec(conn, "SET pg_stat_statements.track = 'none'"));
}

/*
 * bk_obs_resume
 *		The observer of a run against a target whose samples stopped (its
 *		connection was lost) samples again over CONN, a new connection to
 *		the same target made while the clients run; NULL: none could be
 *		made yet, and the samples stay stopped.
 */
void
bk_obs_resume(BkObserver *o, PGconn *conn)
{
	MemoryContext old;

	if (o->remote == NULL && !o->remote_lost && conn == NULL)
		return;
	o->remote = conn;
	if (conn == NULL)
		return;
	PQclear(bk_target_exec(conn, "SET pg_stat_statements.track = 'none'"));
	o->sampling = true;
	old = MemoryContextSwitchTo(TopMemoryContext);
	obs_unavailable(o, "samples",
					psprintf("the connection to the target was lost during the run; sampled again over a new one from sample %d",
							 o->sample_no));
	MemoryContextSwitchTo(old);
}

/* whether the observer samples (no sample failed, or it samples again) */
bool
bk_obs_sampling(const BkObserver *o)
{
	return o->sampling;
}

/*
 * bk_obs_init_remote
 *		An observer of a run against a target, reading its statistics over
 *		CONN (the coordinator's connection, as the target's role): which
 *		sources that server and that role can read, the workload's tables
 *		there (pgbench's, with PGBENCH_TABLES), and the sample queries.  The
 *		CPU time and host of a target cannot be read from here.
 */
void
bk_obs_init_remote(BkObserver *o, int64 run_id, Oid roleid, PGconn *conn,
				   const char *name, const char *table_names, const char *counters)
{
	MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);
	bool		read[OBS_NSOURCES];
	char	   *pgss;
	char	   *tables;
	PGresult   *r;

	memset(o, 0, sizeof(*o));
	o->run_id = run_id;
	o->roleid = roleid;
	o->remote = conn;
	o->remote_name = pstrdup(name);
	initStringInfo(&o->unavailable);
	appendStringInfoChar(&o->unavailable, '{');

	/* the role's own statements are the workload's: keep ours out, if it may */
	PQclear(bk_target_exec(conn, "SET pg_stat_statements.track = 'none'"));

	o->remote_dboid = obs_remote_text(o, "SELECT d.oid FROM pg_catalog.pg_database d"
									  " WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database()",
									  0, NULL, NULL);
	o->remote_roleid = obs_remote_text(o, "SELECT r.oid FROM pg_catalog.pg_roles r"
									   " WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER",
									   0, NULL, NULL);
	o->stats_priv = strcmp(obs_remote_text(o, "SELECT pg_catalog.pg_has_role('pg_read_all_stats', 'member')",
										   0, NULL, NULL), "t") == 0;
	if (table_names != NULL)
	{
		Oid			ntypes[1] = {TEXTOID};
		const char *nvalues[1] = {table_names};

		tables = obs_remote_text(o, "SELECT pg_catalog.array_agg(c.oid ORDER BY c.relname) FROM pg_catalog.pg_class c"
								 " WHERE c.relname OPERATOR(pg_catalog.=) ANY ($1::pg_catalog.name[])"
								 " AND c.relkind IN ('r', 'p') AND pg_catalog.pg_table_is_visible(c.oid)",
								 1, ntypes, nvalues);
	}
	else
		tables = NULL;
	o->remote_tables = tables ? tables : pstrdup("{}");
	if (tables != NULL)
	{
		Datum		arr = OidFunctionCall3(F_ARRAY_IN, CStringGetDatum(tables),
										   ObjectIdGetDatum(OIDOID), Int32GetDatum(-1));
		Datum	   *elems;
		bool	   *enulls;

		deconstruct_array(DatumGetArrayTypeP(arr), OIDOID, sizeof(Oid), true, TYPALIGN_INT,
						  &elems, &enulls, &o->ntables);
		o->tables = palloc(sizeof(Oid) * Max(o->ntables, 1));
		for (int i = 0; i < o->ntables; i++)
			o->tables[i] = DatumGetObjectId(elems[i]);
	}

	pgss = obs_extension_schema(o, "pg_stat_statements");
	if (pgss == NULL)
		obs_unavailable(o, "statements", "pg_stat_statements is not installed in the target's database");
	else
	{
		r = bk_target_exec(conn, psprintf("SELECT 1 FROM %s.pg_stat_statements(false) LIMIT 1",
										  quote_identifier(pgss)));
		if (r == NULL || PQresultStatus(r) != PGRES_TUPLES_OK)
		{
			obs_unavailable(o, "statements",
							psprintf("pg_stat_statements could not be read on the target: %s",
									 pchomp(r ? PQresultErrorMessage(r) : PQerrorMessage(conn))));
			pgss = NULL;
		}
		PQclear(r);
	}
	if (pgss != NULL && !o->stats_priv)
		obs_unavailable(o, "statements of other roles",
						"the target's role is not a member of pg_read_all_stats (pg_monitor)");
	obs_unavailable(o, "cpu", "the CPU time of a target's processes cannot be read from here");
	obs_unavailable(o, "host", "the host of a target cannot be read from here");

	for (int i = 0; i < OBS_NSOURCES; i++)
		read[i] = obs_sources[i].view == NULL || obs_view_exists(o, obs_sources[i].view);
	counters = obs_counters_usable(o, counters);
	for (int kind = 0; kind < OBS_SAMPLE_KINDS; kind++)
		o->remote_sample_sql[kind] = obs_sample_sql(read, pgss, kind, false, counters);
	o->sampling = true;
	MemoryContextSwitchTo(old);
}

/*
 * A target's sample as it is stored: its statements' texts (the run's
 * role's, as the target's pg_stat_statements kept them) redacted here, as
 * the sample query redacts them on this server.
 */
static const char *const obs_redact_statements_sql =
"(SELECT CASE WHEN pg_catalog.jsonb_typeof(x.d OPERATOR(pg_catalog.->) 'statements') = 'array'"
" THEN pg_catalog.jsonb_set(x.d, '{statements}', (SELECT pg_catalog.jsonb_agg("
" CASE WHEN pg_catalog.jsonb_typeof(e.st OPERATOR(pg_catalog.->) 'query') = 'string'"
" THEN pg_catalog.jsonb_set(e.st, '{query}', pg_catalog.to_jsonb(bench._redact_statement(e.st OPERATOR(pg_catalog.->>) 'query')))"
" ELSE e.st END ORDER BY e.n)"
" FROM pg_catalog.jsonb_array_elements(x.d OPERATOR(pg_catalog.->) 'statements') WITH ORDINALITY AS e (st, n)))"
" ELSE x.d END FROM (SELECT $6::pg_catalog.jsonb AS d) x)";

/* read one sample as the run's role, and store it */
static void
obs_sample_store(BkObserver *o, const char *phase, TimestampTz at, double elapsed_s,
				 int64 xacts)
{
	Datum		values[8];
	char		nulls[8] = {' ', ' ', ' ', ' ', ' ', ' ', ' ', ' '};
	Oid			types[8] = {INT8OID, INT4OID, TEXTOID, TIMESTAMPTZOID, FLOAT8OID, TEXTOID,
	FLOAT8OID, FLOAT8OID};
	int64		t0 = bk_now_ns();
	int64		cpu0 = obs_process_cpu_ns();
	char	   *cpu = obs_cpu_json(o);
	char	   *json;
	MemoryContext cxt = CurrentMemoryContext;
	BkOwnerSwitch sw;

	values[0] = ObjectIdGetDatum(o->dboid);
	values[1] = obs_oid_array(o->tables, o->ntables);
	if (cpu != NULL)
		values[2] = CStringGetTextDatum(cpu);
	else
		nulls[2] = 'n';
	values[3] = Int64GetDatum(xacts);
	values[4] = ObjectIdGetDatum(o->roleid);

	if (o->remote != NULL)
	{
		Oid			rtypes[5] = {OIDOID, OIDARRAYOID, TEXTOID, INT8OID, OIDOID};
		const char *params[5] = {o->remote_dboid, o->remote_tables, NULL,
		psprintf(INT64_FORMAT, xacts), o->remote_roleid};

		json = obs_remote_text(o, o->remote_sample_sql[obs_sample_kind(phase)],
							   5, rtypes, params);
		if (json == NULL)
			elog(ERROR, "could not read a sample of the target");
	}
	else
	{
		bk_spi_connect();
		if (SPI_execute_plan(o->sample_plan[obs_sample_kind(phase)],
							 values, nulls, true, 1) != SPI_OK_SELECT || SPI_processed != 1)
			elog(ERROR, "could not read a sample");
		json = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
		json = MemoryContextStrdup(cxt, json);
		bk_spi_finish();
	}

	memset(nulls, ' ', sizeof(nulls));
	values[0] = Int64GetDatum(o->run_id);
	values[1] = Int32GetDatum(o->sample_no);
	values[2] = CStringGetTextDatum(phase);
	values[3] = TimestampTzGetDatum(at);
	values[4] = Float8GetDatum(elapsed_s);
	values[5] = CStringGetTextDatum(json);
	/*
	 * What reading it cost the coordinator, the sampling's own price: wall
	 * time (longer when the clients keep the CPUs busy) and CPU time.
	 */
	values[6] = Float8GetDatum((bk_now_ns() - t0) / 1e6);
	values[7] = Float8GetDatum((obs_process_cpu_ns() - cpu0) / 1e6);
	bk_become_owner(&sw);
	bk_spi_exec(psprintf("INSERT INTO bench.samples (run_id, sample_no, phase, taken_at, elapsed_s, data)"
						 " VALUES ($1, $2, $3, $4, $5, %s OPERATOR(pg_catalog.||)"
						 " pg_catalog.jsonb_build_object('read_ms', pg_catalog.round($7::pg_catalog.numeric, 3),"
						 " 'read_cpu_ms', pg_catalog.round($8::pg_catalog.numeric, 3)))",
						 o->remote ? obs_redact_statements_sql : "$6::pg_catalog.jsonb"),
				8, types, values, nulls, SPI_OK_INSERT);
	bk_restore_user(&sw);
	o->sample_no++;
}

typedef struct ObsSampleCall
{
	BkObserver *o;
	const char *phase;
	TimestampTz at;
	double		elapsed_s;
	int64		xacts;
} ObsSampleCall;

static void
obs_sample_one(void *arg)
{
	ObsSampleCall *c = arg;

	obs_sample_store(c->o, c->phase, c->at, c->elapsed_s, c->xacts);
}

/*
 * bk_obs_sample
 *		One sample, in a subtransaction: if it fails, sampling stops, the
 *		failure is named in bench.runs.unavailable, and the run goes on.
 */
void
bk_obs_sample(BkObserver *o, const char *phase, TimestampTz at, double elapsed_s,
			  int64 xacts)
{
	ObsSampleCall call = {o, phase, at, elapsed_s, xacts};
	ErrorData  *edata;
	MemoryContext old;

	if (!o->sampling)
		return;
	edata = obs_try(obs_sample_one, &call);
	if (edata == NULL)
		return;
	/* a cancel or a shutdown is the run's business, not the sample's */
	if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED ||
		edata->sqlerrcode == ERRCODE_ADMIN_SHUTDOWN)
		ReThrowError(edata);
	o->sampling = false;
	old = MemoryContextSwitchTo(TopMemoryContext);
	obs_unavailable(o, "samples",
					psprintf("sampling stopped at sample %d (%s): %s",
							 o->sample_no, phase, edata->message));
	MemoryContextSwitchTo(old);
	ereport(WARNING,
			(errmsg("run %lld: sampling stopped: %s", (long long) o->run_id, edata->message)));
}
