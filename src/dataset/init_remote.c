/*-------------------------------------------------------------------------
 *
 * init_remote.c
 *		bench.init into a target: the dataset made on another server over
 *		libpq, as pgbench -i makes it.
 *
 * What is sent is what pgbench -i sends (its steps dtgvp, or dtGvp with
 * generate => 'server', and f with foreign keys), with the statements the
 * dataset kind gives (dataset.h: table_sql, child_sql, copy_row,
 * insert_sql, the keys), the tables named in the first schema of the
 * remote user's search_path (where pgbench's unqualified names go), and
 * pgbench's messages as NOTICEs.  Nothing else is created on the target.
 *
 * One difference in the order: the old tables are dropped (force), the new
 * ones created and filled in one transaction, so that an error or a cancel
 * before the rows are committed leaves the target as it was.  (COPY FREEZE
 * needs the table created or truncated in its transaction, which this one
 * is.)  VACUUM ANALYZE, the primary keys and the foreign keys follow, as
 * pgbench runs them; a failure there drops the tables this load made
 * (bk_remote_abort), so that no half-made dataset stays under pgbench's
 * names.
 *
 * The connection follows the rules of every target (target.c): the calling
 * role's user mapping, a password for a non-superuser.  It is non-blocking:
 * every wait serves interrupts and the load's cancel flag, and after an
 * error or a cancel bk_remote_abort sends the target a cancel request
 * (PQcancel) and waits for the query to end, so that nothing of ours keeps
 * running there.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "libpq-fe.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "portability/instr_time.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "dataset/init_remote.h"

/* COPY data is sent in pieces of about this size */
#define REMOTE_COPY_CHUNK	65536

/* seconds between progress messages, as pgbench -q (LOG_STEP_SECONDS) */
#define REMOTE_LOG_STEP		5

/* how long cleanup waits for the target (each step) */
#define REMOTE_CLEANUP_MS	10000

static double
seconds_since(instr_time start)
{
	instr_time	now;

	INSTR_TIME_SET_CURRENT(now);
	INSTR_TIME_SUBTRACT(now, start);
	return INSTR_TIME_GET_DOUBLE(now);
}

/* a NOTICE for whoever waits for the load */
static void
remote_notice(BkRemoteLoad *load, const char *fmt,...) pg_attribute_printf(2, 3);

static void
remote_notice(BkRemoteLoad *load, const char *fmt,...)
{
	StringInfoData buf;

	if (load->notice == NULL)
		return;
	initStringInfo(&buf);
	for (;;)
	{
		va_list		args;
		int			needed;

		va_start(args, fmt);
		needed = appendStringInfoVA(&buf, fmt, args);
		va_end(args);
		if (needed == 0)
			break;
		enlargeStringInfo(&buf, needed);
	}
	load->notice(load->notice_arg, buf.data);
	pfree(buf.data);
}

/* what the coordinator is doing, in pg_stat_activity */
static void
remote_activity(BkRemoteLoad *load, const char *what)
{
	pgstat_report_activity(STATE_RUNNING,
						   psprintf("bench.init: %s on target \"%s\"", what, load->target));
}

/* stop with an error on an interrupt or when the load is canceled */
static void
remote_check_cancel(BkRemoteLoad *load)
{
	CHECK_FOR_INTERRUPTS();
	if (load->cancel != NULL && pg_atomic_read_u32(load->cancel) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_QUERY_CANCELED),
				 errmsg("bench.init was canceled")));
}

/*
 * remote_error
 *		Raise the error of RES (or of the connection, when RES is NULL or
 *		holds none) after SQL, with the target's SQLSTATE, message, detail
 *		and hint, redacted of the secrets of the connection.  Clears RES.
 */
static void
remote_error(BkRemoteLoad *load, PGresult *res, const char *sql)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *primary = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	const char *detail = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL) : NULL;
	const char *hint = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_HINT) : NULL;
	int			code;
	char	   *message;
	char	   *rdetail = NULL;
	char	   *rhint = NULL;

	if (primary != NULL)
	{
		code = (state != NULL && strlen(state) == 5) ?
			MAKE_SQLSTATE(state[0], state[1], state[2], state[3], state[4]) :
			ERRCODE_CONNECTION_FAILURE;
		message = bk_target_redact(primary, load->params);
		if (detail)
			rdetail = bk_target_redact(detail, load->params);
		if (hint)
			rhint = bk_target_redact(hint, load->params);
	}
	else if (res != NULL && PQresultStatus(res) != PGRES_FATAL_ERROR &&
			 PQresultStatus(res) != PGRES_NONFATAL_ERROR &&
			 PQstatus(load->conn) == CONNECTION_OK)
	{
		code = ERRCODE_PROTOCOL_VIOLATION;
		message = psprintf("unexpected result from target \"%s\": %s", load->target,
						   PQresStatus(PQresultStatus(res)));
	}
	else
	{
		code = ERRCODE_CONNECTION_FAILURE;
		message = psprintf("lost the connection to target \"%s\"", load->target);
		rdetail = bk_target_redact(pchomp(PQerrorMessage(load->conn)), load->params);
	}
	PQclear(res);
	ereport(ERROR,
			(errcode(code),
			 errmsg_internal("%s", message),
			 rdetail ? errdetail_internal("%s", rdetail) : 0,
			 rhint ? errhint("%s", rhint) : 0,
			 errcontext("SQL sent to target \"%s\": %s", load->target, sql)));
}

/*
 * remote_wait
 *		Wait until the connection's socket is ready for IO_FLAGS, serving
 *		interrupts and the load's cancel.
 */
static int
remote_wait(BkRemoteLoad *load, int io_flags)
{
	int			rc;

	rc = WaitLatchOrSocket(MyLatch, WL_LATCH_SET | WL_EXIT_ON_PM_DEATH | io_flags,
						   PQsocket(load->conn), -1L, PG_WAIT_EXTENSION);
	if (rc & WL_LATCH_SET)
		ResetLatch(MyLatch);
	remote_check_cancel(load);
	return rc;
}

/* send everything queued (the connection is non-blocking) */
static void
remote_flush(BkRemoteLoad *load, const char *sql)
{
	int			r;

	while ((r = PQflush(load->conn)) == 1)
	{
		int			rc = remote_wait(load, WL_SOCKET_READABLE | WL_SOCKET_WRITEABLE);

		if ((rc & WL_SOCKET_READABLE) && !PQconsumeInput(load->conn))
			remote_error(load, NULL, sql);
	}
	if (r < 0)
		remote_error(load, NULL, sql);
}

/*
 * remote_result
 *		The result of the statement SQL, which must have status EXPECT: the
 *		last one, or the COPY IN one.  The caller clears it.
 */
static PGresult *
remote_result(BkRemoteLoad *load, const char *sql, ExecStatusType expect)
{
	PGresult   *last = NULL;

	for (;;)
	{
		PGresult   *res;

		while (PQisBusy(load->conn))
		{
			remote_wait(load, WL_SOCKET_READABLE);
			if (!PQconsumeInput(load->conn))
			{
				PQclear(last);
				remote_error(load, NULL, sql);
			}
		}
		res = PQgetResult(load->conn);
		if (res == NULL)
			break;
		if (last != NULL && PQresultStatus(last) == PGRES_FATAL_ERROR)
		{
			/* keep the first error */
			PQclear(res);
			continue;
		}
		PQclear(last);
		last = res;
		if (PQresultStatus(res) == PGRES_COPY_IN)
			break;
	}
	if (last == NULL || PQresultStatus(last) != expect)
		remote_error(load, last, sql);
	return last;
}

/* run SQL on the target; it must succeed with status EXPECT */
static PGresult *
remote_query(BkRemoteLoad *load, const char *sql, ExecStatusType expect)
{
	if (!PQsendQuery(load->conn, sql))
		remote_error(load, NULL, sql);
	remote_flush(load, sql);
	return remote_result(load, sql, expect);
}

/* run a statement that returns no rows */
static void
remote_exec(BkRemoteLoad *load, const char *sql)
{
	PQclear(remote_query(load, sql, PGRES_COMMAND_OK));
}

/*
 * bk_remote_table
 *		The qualified name of the kind's table TABLE on the target.
 */
char *
bk_remote_table(BkRemoteLoad *load, int table)
{
	return quote_qualified_identifier(load->schema,
									  psprintf("%s%s", load->kind->final_prefix,
											   load->kind->table_suffix(load->opts, table)));
}

/* is NAME among the kind's tables?  Returns its index, or -1 */
static int
remote_kind_table(BkRemoteLoad *load, const char *name)
{
	for (int t = 0; t < load->kind->ntables(load->opts); t++)
		if (strcmp(name, psprintf("%s%s", load->kind->final_prefix,
								  load->kind->table_suffix(load->opts, t))) == 0)
			return t;
	return -1;
}

/*
 * remote_check
 *		What is there, before anything is changed: the schema the tables go
 *		to and whether the user may create tables in it, and the kind's
 *		tables and their children already there.  Refuses tables without
 *		force, tables the user does not own, something else under a table's
 *		name, and a table with the name of a child to be made that is not
 *		one of the tables dropped.
 */
static void
remote_check(BkRemoteLoad *load)
{
	const BkDatasetKind *kind = load->kind;
	int			nchildren = kind->nchildren(load->opts);
	StringInfoData names;
	PGresult   *res;
	char	   *main_table = psprintf("%s%s", kind->final_prefix,
									  kind->table_suffix(load->opts, kind->main_table));

	res = remote_query(load, "select pg_catalog.current_schema(),"
					   " pg_catalog.has_schema_privilege(pg_catalog.current_schema(), 'CREATE'),"
					   " pg_catalog.current_database(), current_user",
					   PGRES_TUPLES_OK);
	if (PQntuples(res) != 1 || PQnfields(res) != 4)
		remote_error(load, res, "select pg_catalog.current_schema()");
	load->dbname = pstrdup(PQgetvalue(res, 0, 2));
	load->user = pstrdup(PQgetvalue(res, 0, 3));
	if (PQgetisnull(res, 0, 0))
	{
		PQclear(res);
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_SCHEMA_NAME),
				 errmsg("target \"%s\" has no schema to create the tables in", load->target),
				 errdetail("No schema of the search_path of user \"%s\" exists in database \"%s\" there.",
						   load->user, load->dbname),
				 errhint("pgbench -i creates its tables in the first schema of search_path: create it on the target, or set that user's search_path there.")));
	}
	load->schema = pstrdup(PQgetvalue(res, 0, 0));
	if (strcmp(PQgetvalue(res, 0, 1), "t") != 0)
	{
		PQclear(res);
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to create tables in schema \"%s\" of target \"%s\"",
						load->schema, load->target),
				 errhint("On the target, GRANT CREATE ON SCHEMA %s TO %s, or put a schema that user may create in first in its search_path.",
						 quote_identifier(load->schema), quote_identifier(load->user))));
	}
	PQclear(res);

	/* the kind's tables and the children to be made, if there */
	initStringInfo(&names);
	for (int t = 0; t < kind->ntables(load->opts); t++)
		appendStringInfo(&names, "%s%s", names.len ? ", " : "",
						 quote_literal_cstr(psprintf("%s%s", kind->final_prefix,
													 kind->table_suffix(load->opts, t))));
	for (int c = 0; c < nchildren; c++)
		appendStringInfo(&names, ", %s",
						 quote_literal_cstr(psprintf("%s%s", kind->final_prefix,
													 kind->child_suffix(load->opts, c))));
	res = remote_query(load,
					   psprintf("select c.relname, c.relkind,"
								" pg_catalog.pg_has_role(c.relowner, 'USAGE'),"
								" (select p.relname from pg_catalog.pg_inherits i"
								"    join pg_catalog.pg_class p on p.oid = i.inhparent"
								"   where i.inhrelid = c.oid limit 1)"
								"  from pg_catalog.pg_class c"
								" where c.relnamespace = (select n.oid from pg_catalog.pg_namespace n"
								"                          where n.nspname = pg_catalog.current_schema())"
								"   and c.relname = any (array[%s])"
								" order by c.relname", names.data),
					   PGRES_TUPLES_OK);

	load->existing = NIL;
	for (int i = 0; i < PQntuples(res); i++)
	{
		char	   *relname = pstrdup(PQgetvalue(res, i, 0));
		char		relkind = PQgetvalue(res, i, 1)[0];
		bool		owned = strcmp(PQgetvalue(res, i, 2), "t") == 0;
		int			t = remote_kind_table(load, relname);

		if (t < 0)
			continue;			/* a child: below */
		if (relkind != 'r' && relkind != 'p')
		{
			PQclear(res);
			ereport(ERROR,
					(errcode(ERRCODE_WRONG_OBJECT_TYPE),
					 errmsg("\"%s.%s\" of target \"%s\" is not a table", load->schema, relname,
							load->target),
					 errhint("bench.init drops and creates tables of that name there; drop or rename it on the target.")));
		}
		if (!load->force)
		{
			PQclear(res);
			ereport(ERROR,
					(errcode(ERRCODE_DUPLICATE_TABLE),
					 errmsg("table \"%s.%s\" already exists on target \"%s\"", load->schema, relname,
							load->target),
					 errhint("Call bench.init with force => true to drop the tables there and load them anew, as pgbench -i does.")));
		}
		if (!owned)
		{
			PQclear(res);
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("must be owner of table \"%s.%s\" of target \"%s\" to replace it",
							load->schema, relname, load->target),
					 errhint("Load with the user that owns the tables there (user \"%s\" does not), or drop them on the target.",
							 load->user)));
		}
		load->existing = lappend(load->existing, relname);
	}
	for (int i = 0; i < PQntuples(res); i++)
	{
		char	   *relname = PQgetvalue(res, i, 0);
		bool		dropped = false;
		ListCell   *lc;

		if (remote_kind_table(load, relname) >= 0)
			continue;
		if (!PQgetisnull(res, i, 3))
			foreach(lc, load->existing)
				if (strcmp((char *) lfirst(lc), PQgetvalue(res, i, 3)) == 0)
					dropped = true;
		if (!dropped)
		{
			char	   *name = pstrdup(relname);

			PQclear(res);
			ereport(ERROR,
					(errcode(ERRCODE_DUPLICATE_TABLE),
					 errmsg("table \"%s.%s\" already exists on target \"%s\"", load->schema, name,
							load->target),
					 errdetail("It would clash with a partition of the new %s.", main_table),
					 errhint("Drop or rename that table on the target, or choose fewer partitions.")));
		}
	}
	PQclear(res);
}

/*
 * bk_remote_open
 *		Connect to the load's target as the current role (its user mapping,
 *		under the password rules of every target), showing up there as
 *		APPNAME, and check what is there (remote_check).  Nothing is changed
 *		on the target.  Errors close the connection.
 */
void
bk_remote_open(BkRemoteLoad *load, const char *appname)
{
	UserMapping *um;

	load->server = bk_target_lookup(load->target);
	um = bk_target_user_mapping(load->server, GetUserId());
	load->params = bk_target_params(load->server, um);
	for (int i = 0; i < load->params->n; i++)
		if (strcmp(load->params->keywords[i], "fallback_application_name") == 0)
			load->params->values[i] = appname;
	load->conn = bk_target_connect(load->server, um, load->params);

	PG_TRY();
	{
		if (PQsetnonblocking(load->conn, 1) != 0)
			remote_error(load, NULL, "(non-blocking mode)");
		load->version = PQserverVersion(load->conn);
		load->server_version = pstrdup(PQparameterStatus(load->conn, "server_version") ?
									   PQparameterStatus(load->conn, "server_version") : "");
		remote_check(load);
	}
	PG_CATCH();
	{
		bk_target_finish(load->conn);
		load->conn = NULL;
		PG_RE_THROW();
	}
	PG_END_TRY();
}

/* close the connection of a load */
void
bk_remote_close(BkRemoteLoad *load)
{
	if (load->conn != NULL)
		bk_target_finish(load->conn);
	load->conn = NULL;
}

/*
 * remote_copy_failed
 *		libpq refused COPY data: the COPY is over, the target said why (or
 *		the connection broke).  Raise that.
 */
static void
remote_copy_failed(BkRemoteLoad *load, const char *sql)
{
	load->in_copy = false;
	PQclear(remote_result(load, sql, PGRES_COMMAND_OK));
	remote_error(load, NULL, sql);
}

/* send LEN bytes of COPY data */
static void
remote_put_copy(BkRemoteLoad *load, const char *data, int len, const char *sql)
{
	int			r;

	while ((r = PQputCopyData(load->conn, data, len)) == 0)
	{
		int			rc = remote_wait(load, WL_SOCKET_READABLE | WL_SOCKET_WRITEABLE);

		if ((rc & WL_SOCKET_READABLE) && !PQconsumeInput(load->conn))
			remote_error(load, NULL, sql);
	}
	if (r < 0)
		remote_copy_failed(load, sql);
	remote_flush(load, sql);
	/* the target may have said something (an error ends the COPY) */
	if (!PQconsumeInput(load->conn))
		remote_error(load, NULL, sql);
}

/* pgbench's progress line: J of TOTAL rows of TABLE, START when it began */
static void
remote_progress(BkRemoteLoad *load, int64 j, int64 total, const char *table,
				instr_time start)
{
	double		elapsed = seconds_since(start);

	remote_notice(load, INT64_FORMAT " of " INT64_FORMAT " tuples (%d%%) of %s done (elapsed %.2f s, remaining %.2f s)",
				  j, total, (int) ((j * 100) / total), table, elapsed,
				  (double) (total - j) * elapsed / j);
}

/*
 * remote_copy
 *		Fill table T with COPY FROM STDIN, its rows as the kind writes them
 *		(pgbench's initPopulateTable): WITH (FREEZE ON) from PostgreSQL 14
 *		on for an ordinary table, which this transaction created.  A
 *		progress line every REMOTE_LOG_STEP seconds and at the end, as
 *		pgbench -q prints them, for tables of 100000 rows or more.
 */
static void
remote_copy(BkRemoteLoad *load, int t)
{
	const BkDatasetKind *kind = load->kind;
	char	   *table = bk_remote_table(load, t);
	char	   *name = psprintf("%s%s", kind->final_prefix, kind->table_suffix(load->opts, t));
	int64		total = kind->rows(load->opts, t);
	PGresult   *res;
	char	   *sql;
	bool		freeze = false;
	StringInfoData buf;
	instr_time	start;
	int			next_log = REMOTE_LOG_STEP;

	if (load->version >= 140000)
	{
		char	   *q = psprintf("select c.relkind from pg_catalog.pg_class c where c.oid = %s::pg_catalog.regclass",
								 quote_literal_cstr(table));

		res = remote_query(load, q, PGRES_TUPLES_OK);
		freeze = PQntuples(res) == 1 && strcmp(PQgetvalue(res, 0, 0), "r") == 0;
		PQclear(res);
	}
	sql = psprintf("copy %s from stdin%s", table, freeze ? " with (freeze on)" : "");
	remote_activity(load, psprintf("copy into %s", name));
	res = remote_query(load, sql, PGRES_COPY_IN);
	PQclear(res);
	load->in_copy = true;

	INSTR_TIME_SET_CURRENT(start);
	initStringInfo(&buf);
	for (int64 row = 0; row < total; row++)
	{
		kind->copy_row(load->opts, t, row, &buf);
		if (buf.len >= REMOTE_COPY_CHUNK || row + 1 == total)
		{
			remote_put_copy(load, buf.data, buf.len, sql);
			resetStringInfo(&buf);
			remote_check_cancel(load);
			if (total >= 100000 &&
				(row + 1 == total || seconds_since(start) >= next_log))
			{
				remote_progress(load, row + 1, total, name, start);
				next_log = (int) (seconds_since(start) / REMOTE_LOG_STEP + 1) * REMOTE_LOG_STEP;
			}
		}
	}
	pfree(buf.data);

	{
		int			r;

		while ((r = PQputCopyEnd(load->conn, NULL)) == 0)
			(void) remote_wait(load, WL_SOCKET_WRITEABLE);
		if (r < 0)
			remote_copy_failed(load, sql);
	}
	remote_flush(load, sql);
	load->in_copy = false;
	PQclear(remote_result(load, sql, PGRES_COMMAND_OK));
}

/*
 * bk_remote_load
 *		Make the dataset on the target, opened and checked by
 *		bk_remote_open: pgbench -i's steps, its messages as NOTICEs, the
 *		seconds of each phase and the rows in LOAD.  Errors are raised;
 *		bk_remote_abort undoes what was done.
 */
void
bk_remote_load(BkRemoteLoad *load)
{
	const BkDatasetKind *kind = load->kind;
	const void *opts = load->opts;
	int			nchildren = kind->nchildren(opts);
	instr_time	start;
	instr_time	step;
	double		drop_s = 0;
	ListCell   *lc;
	StringInfoData done;

	remote_notice(load, "target \"%s\": PostgreSQL %s, database \"%s\", schema \"%s\", user \"%s\"",
				  load->target, load->server_version, load->dbname, load->schema, load->user);

	/* d, t: in the transaction of the rows */
	INSTR_TIME_SET_CURRENT(start);
	remote_exec(load, "begin");
	if (load->existing != NIL)
	{
		StringInfoData sql;

		remote_notice(load, "dropping old tables...");
		remote_activity(load, "dropping old tables");
		initStringInfo(&sql);
		appendStringInfoString(&sql, "drop table ");
		foreach(lc, load->existing)
			appendStringInfo(&sql, "%s%s", foreach_current_index(lc) ? ", " : "",
							 quote_qualified_identifier(load->schema, (char *) lfirst(lc)));
		remote_exec(load, sql.data);
		drop_s = seconds_since(start);
	}
	INSTR_TIME_SET_CURRENT(step);
	remote_notice(load, "creating tables...");
	remote_activity(load, "creating tables");
	for (int t = 0; t < kind->ntables(opts); t++)
		remote_exec(load, kind->table_sql(opts, load->version, load->schema,
										  kind->final_prefix, t));
	if (nchildren > 0)
	{
		remote_notice(load, "creating %d partitions...", nchildren);
		for (int c = 0; c < nchildren; c++)
			remote_exec(load, kind->child_sql(opts, load->version, load->schema,
											  kind->final_prefix, c));
	}
	load->secs[BK_INIT_PH_CREATE] = seconds_since(start);

	/* g or G, then commit */
	INSTR_TIME_SET_CURRENT(step);
	remote_notice(load, "generating data (%s-side)...", load->server_side ? "server" : "client");
	load->rows = 0;
	for (int f = 0; f < kind->nfilled(opts); f++)
	{
		int			t = kind->filled(opts, f);

		if (load->server_side)
		{
			remote_activity(load, psprintf("generating %s%s", kind->final_prefix,
										   kind->table_suffix(opts, t)));
			remote_exec(load, kind->insert_sql(opts, t, load->schema));
		}
		else
			remote_copy(load, t);
		load->rows += kind->rows(opts, t);
	}
	remote_activity(load, "committing the rows");
	remote_exec(load, "commit");
	load->committed = true;
	load->secs[BK_INIT_PH_LOAD] = seconds_since(step);

	/* v */
	INSTR_TIME_SET_CURRENT(step);
	remote_notice(load, "vacuuming...");
	for (int i = 0; i < kind->ntables(opts); i++)
	{
		char	   *sql = psprintf("vacuum analyze %s", bk_remote_table(load, kind->vacuum_table(opts, i)));

		remote_activity(load, sql);
		remote_exec(load, sql);
	}
	load->secs[BK_INIT_PH_VACUUM] = seconds_since(step);

	/* p */
	INSTR_TIME_SET_CURRENT(step);
	remote_notice(load, "creating primary keys...");
	remote_activity(load, "creating primary keys");
	foreach(lc, kind->primary_keys_sql(opts, load->schema))
		remote_exec(load, (char *) lfirst(lc));
	load->secs[BK_INIT_PH_PKEYS] = seconds_since(step);

	/* f */
	load->secs[BK_INIT_PH_FKEYS] = 0;
	if (kind->wants_foreign_keys(opts))
	{
		INSTR_TIME_SET_CURRENT(step);
		remote_notice(load, "creating foreign keys...");
		remote_activity(load, "creating foreign keys");
		foreach(lc, kind->foreign_keys_sql(opts, load->schema))
			remote_exec(load, (char *) lfirst(lc));
		load->secs[BK_INIT_PH_FKEYS] = seconds_since(step);
	}
	if (kind->functions_sql != NULL)
	{
		List	   *stmts = kind->functions_sql(opts, load->version, load->schema);

		if (stmts != NIL)
		{
			remote_notice(load, "creating functions...");
			remote_activity(load, "creating functions");
		}
		foreach(lc, stmts)
			remote_exec(load, (char *) lfirst(lc));
	}
	pgstat_report_activity(STATE_RUNNING, "bench.init: recording the dataset");

	/* pgbench's last line */
	initStringInfo(&done);
	if (load->existing != NIL)
		appendStringInfo(&done, "drop tables %.2f s, ", drop_s);
	appendStringInfo(&done, "create tables %.2f s, %s-side generate %.2f s, vacuum %.2f s, primary keys %.2f s",
					 load->secs[BK_INIT_PH_CREATE] - drop_s,
					 load->server_side ? "server" : "client", load->secs[BK_INIT_PH_LOAD],
					 load->secs[BK_INIT_PH_VACUUM], load->secs[BK_INIT_PH_PKEYS]);
	if (kind->wants_foreign_keys(opts))
		appendStringInfo(&done, ", foreign keys %.2f s", load->secs[BK_INIT_PH_FKEYS]);
	remote_notice(load, "done in %.2f s (%s).", seconds_since(start), done.data);
}

/* ------------------------------------------------------------------------
 * After an error or a cancel
 * ------------------------------------------------------------------------
 */

/*
 * cleanup_wait_idle
 *		Read and discard results until the connection has none left to give,
 *		for at most REMOTE_CLEANUP_MS.  No interrupt is served: this runs
 *		after the error.  Returns false if the target did not answer in time
 *		or the connection broke; *FAILED is set when a result was an error.
 */
static bool
cleanup_wait_idle(PGconn *conn, bool *failed)
{
	TimestampTz deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), REMOTE_CLEANUP_MS);

	for (;;)
	{
		PGresult   *res;

		while (PQflush(conn) == 1 || PQisBusy(conn))
		{
			long		left = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), deadline);
			int			rc;

			if (left <= 0)
				return false;
			rc = WaitLatchOrSocket(MyLatch,
								   WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH |
								   WL_SOCKET_READABLE,
								   PQsocket(conn), left, PG_WAIT_EXTENSION);
			if (rc & WL_LATCH_SET)
				ResetLatch(MyLatch);
			if ((rc & WL_SOCKET_READABLE) && !PQconsumeInput(conn))
				return false;
		}
		res = PQgetResult(conn);
		if (res == NULL)
			return true;
		if (PQresultStatus(res) == PGRES_FATAL_ERROR && failed)
			*failed = true;
		if (PQresultStatus(res) == PGRES_COPY_IN)
			(void) PQputCopyEnd(conn, "bench.init stopped");
		PQclear(res);
		if (PQstatus(conn) != CONNECTION_OK)
			return false;
	}
}

/* run SQL during cleanup; false if it did not succeed in time */
static bool
cleanup_exec(PGconn *conn, const char *sql)
{
	bool		failed = false;

	if (!PQsendQuery(conn, sql))
		return false;
	return cleanup_wait_idle(conn, &failed) && !failed;
}

/*
 * bk_remote_abort
 *		After an error or a cancel in the load: stop what runs on the target
 *		(a cancel request, as pgbench's Ctrl-C sends, then the end of the
 *		COPY) and wait until it ended, roll back the open transaction (the
 *		old tables and nothing new stay), drop the tables this load made and
 *		committed, and close the connection.  Raises nothing; returns NULL,
 *		or a sentence saying what could not be undone.
 */
char *
bk_remote_abort(BkRemoteLoad *load)
{
	PGconn	   *conn = load->conn;
	char	   *note = NULL;
	bool		idle;

	if (conn == NULL)
		return NULL;

	if (PQstatus(conn) == CONNECTION_OK && PQtransactionStatus(conn) == PQTRANS_ACTIVE)
	{
		PGcancel   *cancel = PQgetCancel(conn);
		char		errbuf[256];

		if (cancel != NULL)
		{
			if (!PQcancel(cancel, errbuf, sizeof(errbuf)))
				ereport(LOG,
						(errmsg("pgbenchkit could not send a cancel request to target \"%s\": %s",
								load->target, bk_target_redact(errbuf, load->params))));
			PQfreeCancel(cancel);
		}
		if (load->in_copy)
			(void) PQputCopyEnd(conn, "bench.init stopped");
	}
	load->in_copy = false;

	idle = PQstatus(conn) == CONNECTION_OK && cleanup_wait_idle(conn, NULL);
	if (idle && PQtransactionStatus(conn) != PQTRANS_IDLE)
		idle = cleanup_exec(conn, "rollback");
	if (idle && load->committed)
	{
		StringInfoData sql;

		initStringInfo(&sql);
		appendStringInfoString(&sql, "drop table if exists ");
		for (int t = 0; t < load->kind->ntables(load->opts); t++)
			appendStringInfo(&sql, "%s%s", t ? ", " : "", bk_remote_table(load, t));
		if (!cleanup_exec(conn, sql.data))
			note = psprintf("The tables it made on target \"%s\" could not be dropped: drop them there.",
							load->target);
	}
	else if (!idle)
	{
		/* the target rolls back what was not committed when we close */
		if (load->committed)
			note = psprintf("The connection to target \"%s\" was lost or did not answer within %d seconds: the tables it made there could not be dropped; drop them there.",
							load->target, REMOTE_CLEANUP_MS / 1000);
		else if (PQstatus(conn) == CONNECTION_OK)
			note = psprintf("Target \"%s\" did not confirm within %d seconds that the statement of bench.init ended after its cancel request; the connection was closed.",
							load->target, REMOTE_CLEANUP_MS / 1000);
	}
	bk_target_finish(conn);
	load->conn = NULL;
	return note;
}
