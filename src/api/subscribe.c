/*-------------------------------------------------------------------------
 *
 * subscribe.c
 *		A fleet's central database and its drivers (docs/fleet.md):
 *		bench.subscribe, a subscription to a driver's publication made only
 *		when the driver is a node whose number no other node here has, and
 *		bench.unsubscribe, which drops it and its slot on the driver.
 *
 * A node's number is what keeps the ids of its runs, suites and datasets
 * apart from every other node's (bench.set_node).  Two drivers given the
 * same number by mistake would both send runs of the same ids, and the
 * central database would apply one over the other.  So before subscribing,
 * bench.subscribe connects to the driver with libpq, as postgres_fdw and
 * dblink connect, reads its node (bench.node) and its pgbenchkit version,
 * and refuses a number that is this database's own, another subscribed
 * node's, or that the results here already carry under another node name.
 *
 * CREATE SUBSCRIPTION cannot make its slot inside a transaction block, and
 * a function always runs in one.  So the slot is made first, on the driver
 * over that connection (pg_create_logical_replication_slot), and the
 * subscription then with create_slot = false and that slot; if the
 * subscription fails, the slot is dropped again.  Tables are still copied
 * first (copy_data): the table synchronization workers make slots of their
 * own.  A node subscribed before (then unsubscribed, or subscribed by hand)
 * has its rows here: they are deleted in the same transaction, and the
 * copy brings them again as the driver has them, none lost, none twice.
 * The subscription is made through ProcessUtility with the statement
 * built as a node and a statement text whose connection string is
 * replaced by ********: run through SPI, the text with the password would
 * be in the context of any error, and in pg_stat_statements with
 * track = all.  Its connection string is then kept where PostgreSQL keeps
 * it, in pg_subscription, which only superusers read; bench.subscriptions
 * records the node, never the connection string.
 *
 * DROP SUBSCRIPTION cannot drop a slot inside a transaction block either.
 * bench.unsubscribe disables the subscription, detaches its slot
 * (slot_name = NONE), drops it, and then drops the slot on the driver with
 * the subscription's own connection string, waiting while the driver's
 * walsender lets go of it.  An error there undoes the whole: no slot is
 * ever left behind on the driver without an error saying so.
 *
 * Both refuse transaction blocks: the slot on the driver is made or
 * dropped at once, while the subscription here would follow the caller's
 * transaction, which could still roll back.  PostgreSQL 15 or later, as
 * bench.publish.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_database.h"
#include "catalog/pg_subscription.h"
#include "catalog/pg_type.h"
#include "commands/dbcommands.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "libpq-fe.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/parsenodes.h"
#include "nodes/plannodes.h"
#include "pgstat.h"
#include "storage/fd.h"
#include "storage/latch.h"
#include "tcop/dest.h"
#include "tcop/utility.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"

#include "core/compat.h"
#include "core/pgbenchkit.h"
#include "meta/catalog.h"
#include "target/target.h"

PG_FUNCTION_INFO_V1(bench_subscribe);
PG_FUNCTION_INFO_V1(bench_unsubscribe);

/* how long a connection to a driver may take when its string does not say */
#define FLEET_CONNECT_TIMEOUT_S 10

/*
 * How long bench.unsubscribe waits for the driver to let go of the slot
 * (its walsender ends once the subscription's worker is gone; one whose
 * client vanished silently ends within wal_sender_timeout, 60 s by default).
 */
#define FLEET_SLOT_WAIT_MS		60000

/* how long the cleanup after a failed subscription waits for the driver */
#define FLEET_CLEANUP_WAIT_MS	5000

/* what libpq's messages must never show: the secrets of the connection string */
typedef struct FleetConninfo
{
	const char *conninfo;
	List	   *secrets;		/* the values of the options libpq hides (*) */
	bool		has_password;	/* a non-empty password */
	int			connect_timeout_s;	/* its connect_timeout, else ours */
} FleetConninfo;

/*
 * fleet_check_version
 *		Refuse PostgreSQL 14, as bench.publish does: a central database
 *		subscribes to what a driver of 15 or later publishes.
 */
static void
fleet_check_version(const char *fn)
{
	if (PG_VERSION_NUM < 150000)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s needs PostgreSQL 15 or later", fn),
				 errdetail("A fleet's drivers publish their results with column lists and row filters, which came with PostgreSQL 15.")));
}

#if PG_VERSION_NUM >= 150000

/*
 * fleet_check_caller
 *		No transaction block: the slot on the driver is made or dropped at
 *		once, and a rollback of the caller's transaction would leave it so
 *		while undoing the subscription here.
 */
static void
fleet_check_caller(const char *fn)
{
	if (IsTransactionBlock())
		ereport(ERROR,
				(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				 errmsg("%s cannot run inside a transaction block", fn),
				 errhint("The replication slot on the driver is made or dropped at once, which a rollback here would not undo; call it on its own, outside BEGIN ... COMMIT.")));
}

/* MESSAGE with every secret of CI replaced by ******** */
static char *
redact(const char *message, const FleetConninfo *ci)
{
	char	   *result = pstrdup(message ? message : "");
	ListCell   *lc;

	foreach(lc, ci->secrets)
		result = bk_mask_secret(result, (const char *) lfirst(lc));
	return result;
}

/*
 * may_quote
 *		May libpq's message about CONNINFO, which it could not read, be
 *		shown?  It may quote a piece of the string: not when the string
 *		names a password, nor when it is a URI (user:password@host).
 */
static bool
may_quote(const char *conninfo)
{
	const char *s;

	if (strstr(conninfo, "://") != NULL)
		return false;
	for (s = conninfo; *s; s++)
		if (pg_strncasecmp(s, "password", 8) == 0)
			return false;
	return true;
}

/*
 * fleet_conninfo
 *		CONNINFO read as libpq reads it: refused if it cannot be, with
 *		libpq's reason only when it cannot quote a password; its secrets,
 *		whether it has a password, its connect_timeout.
 */
static FleetConninfo *
fleet_conninfo(const char *conninfo)
{
	FleetConninfo *ci = palloc0(sizeof(FleetConninfo));
	PQconninfoOption *opts;
	PQconninfoOption *o;
	char	   *err = NULL;

	ci->conninfo = conninfo;
	ci->connect_timeout_s = FLEET_CONNECT_TIMEOUT_S;
	opts = PQconninfoParse(conninfo, &err);
	if (opts == NULL)
	{
		char	   *detail = NULL;

		if (err && may_quote(conninfo))
			detail = pchomp(err);
		if (err)
			PQfreemem(err);
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid connection string for the driver"),
				 detail ? errdetail_internal("%s", detail) :
				 errdetail("libpq's message is left out: it could quote the password."),
				 errhint("Write keyword=value pairs separated by spaces, or a postgresql:// URI, as for CREATE SUBSCRIPTION.")));
	}
	for (o = opts; o->keyword; o++)
	{
		if (o->val == NULL)
			continue;
		if (o->dispchar && o->dispchar[0] == '*')
			ci->secrets = lappend(ci->secrets, pstrdup(o->val));
		if (strcmp(o->keyword, "password") == 0 && o->val[0] != '\0')
			ci->has_password = true;
		if (strcmp(o->keyword, "connect_timeout") == 0)
			ci->connect_timeout_s = atoi(o->val);
	}
	PQconninfoFree(opts);
	return ci;
}

/*
 * check_password_rule
 *		A role that is not a superuser reaches the driver with a password
 *		of its own, never with this server's OS identity (trust, peer, its
 *		~/.pgpass): before connecting, the string must hold one (as CREATE
 *		SUBSCRIPTION's password_required and postgres_fdw require).
 */
static void
check_password_rule(Oid roleid, bool password_required, const FleetConninfo *ci)
{
	if (superuser_arg(roleid) || !password_required || ci->has_password)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
			 errmsg("password is required"),
			 errdetail("Non-superusers must provide a password in the connection string.")));
}

/* close CONN, made by driver_connect */
static void
driver_finish(PGconn *conn)
{
	PQfinish(conn);
	ReleaseExternalFD();
}

/*
 * connect_poll
 *		Complete the connection CONN started: the wait can be canceled, and
 *		lasts at most CI's connect_timeout in all, whatever the number of
 *		hosts (bk_libpq_connect_poll).
 */
static void
connect_poll(PGconn *conn, const FleetConninfo *ci)
{
	if (!bk_libpq_connect_poll(conn, (int64) ci->connect_timeout_s * 1000))
		ereport(ERROR,
				(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
				 errmsg("could not connect to the driver"),
				 errdetail("No connection within connect_timeout, %d seconds.",
						   ci->connect_timeout_s),
				 errhint("Set connect_timeout in the connection string for a longer wait.")));
}

/*
 * driver_connect
 *		Connect to the driver with CI, as ROLEID under the password rule
 *		(PASSWORD_REQUIRED): the wait can be canceled and lasts at most
 *		connect_timeout (10 s when the string does not say), and libpq's
 *		error is shown with every secret replaced.  Close with
 *		driver_finish.
 */
static PGconn *
driver_connect(const FleetConninfo *ci, Oid roleid, bool password_required)
{
	const char *keywords[] = {"dbname", "fallback_application_name", NULL};
	const char *values[] = {ci->conninfo, "pgbenchkit subscribe", NULL};
	PGconn	   *conn;

	check_password_rule(roleid, password_required, ci);
	if (!AcquireExternalFD())
		ereport(ERROR,
				(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
				 errmsg("could not connect to the driver"),
				 errdetail("There are too many open files on the local server."),
				 errhint("Raise max_files_per_process or the limit of open files of the server.")));
	conn = PQconnectStartParams(keywords, values, true);
	if (conn == NULL)
	{
		ReleaseExternalFD();
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errdetail("libpq could not allocate a connection to the driver.")));
	}

	PG_TRY();
	{
		connect_poll(conn, ci);
		if (PQstatus(conn) != CONNECTION_OK)
			ereport(ERROR,
					(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
					 errmsg("could not connect to the driver"),
					 errdetail_internal("%s", redact(pchomp(PQerrorMessage(conn)), ci))));
		if (!superuser_arg(roleid) && password_required && !PQconnectionUsedPassword(conn))
			ereport(ERROR,
					(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
					 errmsg("password is required"),
					 errdetail("Non-superusers must provide a password in the connection string, and the driver must ask for it.")));
	}
	PG_CATCH();
	{
		driver_finish(conn);
		PG_RE_THROW();
	}
	PG_END_TRY();
	return conn;
}

/* the SQLSTATE of the driver's error RES, or FALLBACK when it has none */
static int
driver_sqlstate(PGresult *res, int fallback)
{
	const char *s = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;

	if (s == NULL || strlen(s) != 5)
		return fallback;
	return MAKE_SQLSTATE(s[0], s[1], s[2], s[3], s[4]);
}

/* the driver's message of RES (or of CONN, when the connection broke) */
static char *
driver_message(PGconn *conn, PGresult *res, const FleetConninfo *ci)
{
	const char *m = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;

	if (m == NULL)
		m = res ? PQresultErrorMessage(res) : PQerrorMessage(conn);
	return redact(pchomp(m), ci);
}

/*
 * driver_query
 *		SQL on the driver with NPARAMS text parameters, its rows; an error
 *		of the driver is raised with its SQLSTATE (08006 for a broken
 *		connection): could not WHAT on the driver.
 */
static PGresult *
driver_query(PGconn *conn, const FleetConninfo *ci, const char *what, const char *sql,
			 int nparams, const char *const *values)
{
	PGresult   *res = bk_target_exec_params(conn, sql, nparams, NULL, values);

	if (res == NULL || (PQresultStatus(res) != PGRES_TUPLES_OK &&
						PQresultStatus(res) != PGRES_COMMAND_OK))
	{
		int			code = driver_sqlstate(res, ERRCODE_CONNECTION_FAILURE);
		char	   *msg = driver_message(conn, res, ci);

		PQclear(res);
		ereport(ERROR,
				(errcode(code),
				 errmsg("could not %s on the driver: %s", what, msg)));
	}
	return res;
}

/* the value of row 0, column COL of RES (NULL: a null), palloc'd */
static char *
value_of(PGresult *res, int col)
{
	if (PQntuples(res) < 1 || PQgetisnull(res, 0, col))
		return NULL;
	return pstrdup(PQgetvalue(res, 0, col));
}

/*
 * drop_slot
 *		Drop replication slot SLOT on the driver, waiting at most WAIT_MS
 *		while it is active (the walsender of a subscription just dropped
 *		lets go of it when it notices its client gone).  Returns true when
 *		dropped, false when there was no such slot.  QUIET: never raise,
 *		nor serve interrupts (the cleanup after an error); an error is then
 *		as no slot.
 */
static bool
drop_slot(PGconn *conn, const FleetConninfo *ci, const char *slot, int wait_ms, bool quiet)
{
	const char *values[1] = {slot};
	TimestampTz deadline = GetCurrentTimestamp() + (TimestampTz) wait_ms * 1000;

	if (quiet)
	{
		HOLD_INTERRUPTS();
		bk_target_set_exec_timeout(wait_ms);
	}
	for (;;)
	{
		PGresult   *res = bk_target_exec_params(conn, "SELECT pg_catalog.pg_drop_replication_slot($1)",
												1, NULL, values);
		int			code;

		if (res != NULL && PQresultStatus(res) == PGRES_TUPLES_OK)
		{
			PQclear(res);
			break;
		}
		code = driver_sqlstate(res, ERRCODE_CONNECTION_FAILURE);
		if (quiet)
		{
			PQclear(res);
			bk_target_set_exec_timeout(0);
			RESUME_INTERRUPTS();
			return false;
		}
		if (code == ERRCODE_UNDEFINED_OBJECT)
		{
			PQclear(res);
			return false;
		}
		if (code != ERRCODE_OBJECT_IN_USE ||
			TimestampDifferenceMilliseconds(GetCurrentTimestamp(), deadline) <= 0)
		{
			char	   *msg = driver_message(conn, res, ci);

			PQclear(res);
			ereport(ERROR,
					(errcode(code),
					 errmsg("could not drop replication slot \"%s\" on the driver: %s", slot, msg),
					 code == ERRCODE_OBJECT_IN_USE ?
					 errdetail("It was still in use after %d seconds.", wait_ms / 1000) : 0,
					 errhint("Nothing was changed here: the subscription is as it was.")));
		}
		PQclear(res);
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 100,
						 PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	if (quiet)
	{
		bk_target_set_exec_timeout(0);
		RESUME_INTERRUPTS();
	}
	return true;
}

/*
 * check_slot_name
 *		The subscription's slot on the driver takes its name: refuse a name
 *		a replication slot cannot have (lower-case letters, digits and
 *		underscores), before anything is made.
 */
static void
check_slot_name(const char *name)
{
	const char *s;

	for (s = name; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			break;
	if (*name == '\0' || *s != '\0')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid subscription name \"%s\"", bk_shown(name)),
				 errdetail("The subscription's replication slot on the driver takes its name, and a slot's name is lower-case letters, digits and underscores."),
				 errhint("Name it like aws_1.")));
}

/*
 * check_may_create_subscription
 *		CREATE SUBSCRIPTION's own rule, checked before the driver is
 *		reached: a superuser, or from 16 on a role with the privileges of
 *		pg_create_subscription and CREATE on the database.
 */
static void
check_may_create_subscription(void)
{
	Oid			roleid = GetUserId();

	if (superuser_arg(roleid))
		return;
#if PG_VERSION_NUM >= 160000
	if (!has_privs_of_role(roleid, ROLE_PG_CREATE_SUBSCRIPTION))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to create subscription"),
				 errdetail("Only roles with privileges of the \"%s\" role may create subscriptions.",
						   "pg_create_subscription")));
	if (bk_database_aclcheck(MyDatabaseId, roleid, ACL_CREATE) != ACLCHECK_OK)
		aclcheck_error(ACLCHECK_NO_PRIV, OBJECT_DATABASE, get_database_name(MyDatabaseId));
#else
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("must be superuser to create subscriptions")));
#endif
}

/* this database's node and pgbenchkit's version here */
typedef struct CentralNode
{
	char	   *name;
	int			number;
	char	   *version;
} CentralNode;

/* the driver's node, as its bench.node says */
typedef struct DriverNode
{
	char	   *name;
	int			number;
	char	   *system_identifier;
	char	   *version;
	List	   *tables;			/* the tables of schema bench it publishes */
} DriverNode;

/*
 * central_node
 *		This database's node (bench.node: everyone may read it), refused
 *		when there is none yet, and pgbenchkit's version here.
 */
static CentralNode *
central_node(void)
{
	CentralNode *c = palloc0(sizeof(CentralNode));
	bool		isnull;

	bk_spi_connect();
	if (SPI_execute("SELECT n.name, n.number, e.extversion FROM bench.node n,"
					" pg_catalog.pg_extension e WHERE e.extname = 'pgbenchkit'",
					true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read bench.node");
	if (SPI_processed == 1)
	{
		c->name = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
		c->number = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc,
												2, &isnull));
		c->version = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3);
	}
	bk_spi_finish();
	if (c->name == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("this database is not a node yet"),
				 errdetail("A central database is a node of the fleet too, so that its own runs do not clash with its drivers'."),
				 errhint("Set its node first, bench.set_node(name, number), with a number no driver has.")));
	return c;
}

/*
 * driver_node
 *		The driver's pgbenchkit version and node, and whether it has
 *		PUBLICATION: refused when it has no pgbenchkit, another version, no
 *		node, or not that publication.
 */
static DriverNode *
driver_node(PGconn *conn, const FleetConninfo *ci, const CentralNode *central,
			const char *publication)
{
	DriverNode *d = palloc0(sizeof(DriverNode));
	const char *values[1] = {publication};
	PGresult   *res;
	bool		published;

	res = driver_query(conn, ci, "read pgbenchkit's version",
					   "SELECT (SELECT e.extversion FROM pg_catalog.pg_extension e"
					   "         WHERE e.extname = 'pgbenchkit'),"
					   "       EXISTS (SELECT FROM pg_catalog.pg_publication p WHERE p.pubname = $1)",
					   1, values);
	d->version = value_of(res, 0);
	published = PQntuples(res) == 1 && strcmp(PQgetvalue(res, 0, 1), "t") == 0;
	PQclear(res);
	if (d->version == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the driver has no pgbenchkit"),
				 errhint("On the driver: CREATE EXTENSION pgbenchkit CASCADE, then bench.set_node(name, number) and bench.publish().")));
	if (strcmp(d->version, central->version) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the driver has pgbenchkit %s, this database %s", d->version, central->version),
				 errdetail("A central database receives the tables of its own version of pgbenchkit."),
				 errhint("Bring both to the same version with ALTER EXTENSION pgbenchkit UPDATE: the central database first, then each driver, so that the central database has every column a driver publishes.")));

	res = driver_query(conn, ci, "read bench.node",
					   "SELECT n.name, n.number, n.system_identifier FROM bench.node n", 0, NULL);
	d->name = value_of(res, 0);
	if (d->name != NULL)
	{
		d->number = pg_strtoint32(PQgetvalue(res, 0, 1));
		d->system_identifier = value_of(res, 2);
	}
	PQclear(res);
	if (d->name == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the driver is not a node yet"),
				 errhint("On the driver: bench.set_node(name, number), with a number no other node has, then bench.publish().")));
	if (!published)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("the driver, node \"%s\", has no publication \"%s\"", d->name, publication),
				 errhint("On the driver: SELECT bench.publish(%s).",
						 strcmp(publication, "pgbenchkit") == 0 ? "" :
						 quote_literal_cstr(publication))));

	res = driver_query(conn, ci, "read the tables of the publication",
					   "SELECT t.tablename FROM pg_catalog.pg_publication_tables t"
					   " WHERE t.pubname = $1 AND t.schemaname = 'bench' ORDER BY t.tablename",
					   1, values);
	for (int i = 0; i < PQntuples(res); i++)
		d->tables = lappend(d->tables, pstrdup(PQgetvalue(res, i, 0)));
	PQclear(res);
	return d;
}

/*
 * replace_node_rows
 *		Delete the rows of the number's range, LO to HI, from each table the
 *		driver publishes (its key: run_id, else id), in an order the foreign
 *		keys allow (the runs before their suites and datasets).  A node
 *		subscribed again (or first subscribed by hand) has its rows here
 *		already; the new subscription's initial copy brings every row the
 *		driver has, which would otherwise clash with them.  Refused unless
 *		REPLACE (replace_rows => true): results are not deleted unasked.  So after the
 *		copy this database has the node's rows as the driver has them, as
 *		a subscription that never stopped would: none lost, none twice.
 *		Runs in check_and_record's SPI session, as the owner.
 */
static void
replace_node_rows(const DriverNode *d, int64 lo, int64 hi, bool replace)
{
	Oid			types[2] = {INT8OID, INT8OID};
	Datum		values[2] = {Int64GetDatum(lo), Int64GetDatum(hi)};
	int64		runs = 0;
	int64		suites = 0;
	bool		isnull;

	/* results are kept: deleted only when the caller says so */
	if (SPI_execute_with_args("SELECT (SELECT count(*) FROM bench._runs WHERE id BETWEEN $1 AND $2),"
							  " (SELECT count(*) FROM bench._suites WHERE id BETWEEN $1 AND $2)",
							  2, types, values, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not count the rows of node %d", d->number);
	runs = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	suites = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull));
	if ((runs > 0 || suites > 0) && !replace)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("node \"%s\" has %lld runs and %lld suites here already",
						d->name, (long long) runs, (long long) suites),
				 errdetail("The subscription's initial copy brings every row of the node the driver has, which would clash with them."),
				 errhint("bench.subscribe(..., replace_rows => true) deletes them here first, and the copy brings them again as the driver has them now: a run the driver no longer has is then gone here too.")));
	runs = suites = 0;

	for (int pass = 0; pass < 3; pass++)
	{
		ListCell   *lc;

		foreach(lc, d->tables)
		{
			const char *table = (const char *) lfirst(lc);
			bool		last = strcmp(table, "_suites") == 0 || strcmp(table, "datasets") == 0;
			Oid			relid = get_relname_relid(table, get_namespace_oid("bench", false));
			const char *key;

			/* pass 0: the runs and their rows; 1: suites; 2: datasets */
			if ((pass == 0 && last) || (pass == 1 && strcmp(table, "_suites") != 0) ||
				(pass == 2 && strcmp(table, "datasets") != 0) || !OidIsValid(relid))
				continue;
			key = get_attnum(relid, "run_id") != InvalidAttrNumber ? "run_id" : "id";
			if (SPI_execute_with_args(psprintf("DELETE FROM bench.%s WHERE %s BETWEEN $1 AND $2",
											   quote_identifier(table), key),
									  2, types, values, NULL, false, 0) != SPI_OK_DELETE)
				elog(ERROR, "could not delete the rows of node %d from bench.%s", d->number, table);
			if (strcmp(table, "_runs") == 0)
				runs = SPI_processed;
			else if (strcmp(table, "_suites") == 0)
				suites = SPI_processed;
		}
	}
	if (runs > 0 || suites > 0)
		ereport(NOTICE,
				(errmsg("the %lld runs and %lld suites of node \"%s\" here are replaced by the driver's",
						(long long) runs, (long long) suites, d->name),
				 errdetail("The subscription's initial copy brings every row of the node the driver has.")));
}

/* the error of a node number taken: DETAIL says by what */
static void
number_taken(const DriverNode *d, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_UNIQUE_VIOLATION),
			 errmsg("node number %d is taken: the driver is node \"%s\", %s",
					d->number, d->name, detail),
			 errdetail("Two nodes of one number draw their ids from the same range: their runs, suites and datasets would clash here."),
			 errhint("Give each driver its own number with bench.set_node: a node's number is set once, so make the driver's node in a database of its own.")));
}

/*
 * check_and_record
 *		As the owner of schema bench, with bench.subscriptions locked until
 *		the end of the transaction (one subscribing call at a time): refuse
 *		a node number that is this database's own, another subscription's
 *		node, or carried by the results here under another node name; then
 *		replace the node's rows here, if any (replace_node_rows), and
 *		record the subscription's node.  The rows of subscriptions dropped
 *		since by hand are forgotten first.
 */
static void
check_and_record(const char *subname, const char *publication, const CentralNode *central,
				 const DriverNode *d, bool replace)
{
	BkOwnerSwitch sw;
	Oid			types[7] = {NAMEOID, TEXTOID, INT4OID, TEXTOID, NAMEOID, NAMEOID, NAMEOID};
	Datum		values[7];
	int64		lo = (int64) d->number << 40;
	int64		hi = lo + ((int64) 1 << 40) - 1;
	Oid			number_type = INT4OID;
	Datum		number;
	Oid			range_types[3] = {INT8OID, INT8OID, TEXTOID};
	Datum		range_values[3];
	char	   *caller = GetUserNameFromId(GetUserId(), false);

	if (d->number == central->number)
		number_taken(d, psprintf("and this database is node \"%s\"", central->name));

	bk_become_owner(&sw);
	bk_spi_connect();
	bk_spi_utility("LOCK TABLE bench.subscriptions IN EXCLUSIVE MODE");
	if (SPI_execute("DELETE FROM bench.subscriptions s WHERE NOT EXISTS"
					" (SELECT FROM pg_catalog.pg_subscription p, pg_catalog.pg_database b"
					"   WHERE p.subname = s.subscription AND p.subdbid = b.oid"
					"     AND b.datname = pg_catalog.current_database())",
					false, 0) != SPI_OK_DELETE)
		elog(ERROR, "could not read bench.subscriptions");

	number = Int32GetDatum(d->number);
	if (SPI_execute_with_args("SELECT s.subscription, s.node_name FROM bench.subscriptions s"
							  " WHERE s.node_number = $1",
							  1, &number_type, &number, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read bench.subscriptions");
	if (SPI_processed == 1)
	{
		char	   *other_sub = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
		char	   *other_node = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2);

		if (strcmp(other_node, d->name) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_UNIQUE_VIOLATION),
					 errmsg("node \"%s\" (number %d) is subscribed already, by subscription \"%s\"",
							d->name, d->number, other_sub),
					 errdetail("Two subscriptions of one node would apply each of its rows twice."),
					 errhint("To subscribe it under another name, bench.unsubscribe(%s) first.",
							 quote_literal_cstr(other_sub))));
		number_taken(d, psprintf("and subscription \"%s\" receives node \"%s\"",
								 other_sub, other_node));
	}

	/* ids of the number's range (the primary keys) under another node name */
	range_values[0] = Int64GetDatum(lo);
	range_values[1] = Int64GetDatum(hi);
	range_values[2] = CStringGetTextDatum(d->name);
	if (SPI_execute_with_args("SELECT node_name FROM bench._runs"
							  " WHERE id BETWEEN $1 AND $2 AND node_name <> $3"
							  " UNION ALL "
							  "SELECT node_name FROM bench._suites"
							  " WHERE id BETWEEN $1 AND $2 AND node_name <> $3"
							  " LIMIT 1",
							  3, range_types, range_values, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read bench.runs");
	if (SPI_processed == 1)
		number_taken(d, psprintf("and the results here are of node \"%s\"",
								 SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1)));

	replace_node_rows(d, lo, hi, replace);

	values[0] = DirectFunctionCall1(namein, CStringGetDatum(subname));
	values[1] = CStringGetTextDatum(d->name);
	values[2] = Int32GetDatum(d->number);
	values[3] = CStringGetTextDatum(d->system_identifier);
	values[4] = DirectFunctionCall1(namein, CStringGetDatum(publication));
	values[5] = values[0];		/* the slot takes the subscription's name */
	values[6] = DirectFunctionCall1(namein, CStringGetDatum(caller));
	if (SPI_execute_with_args("INSERT INTO bench.subscriptions (subscription, node_name, node_number,"
							  " node_system_identifier, publication, slot_name, subscribed_by)"
							  " VALUES ($1, $2, $3, $4, $5, $6, $7)",
							  7, types, values, NULL, false, 0) != SPI_OK_INSERT)
		elog(ERROR, "could not write bench.subscriptions");
	bk_spi_finish();
	bk_restore_user(&sw);
}

/*
 * create_subscription
 *		CREATE SUBSCRIPTION SUBNAME CONNECTION ... PUBLICATION PUBLICATION
 *		WITH (create_slot = false, slot_name = SLOT), as the calling role
 *		(its owner): its own checks apply.  The statement is a node; its
 *		text, which errors, event triggers and pg_stat_statements may show,
 *		has ******** for the connection string.
 */
static void
create_subscription(const char *subname, const char *conninfo, const char *publication,
					const char *slot)
{
	CreateSubscriptionStmt *stmt = makeNode(CreateSubscriptionStmt);
	PlannedStmt *pstmt = makeNode(PlannedStmt);
	QueryCompletion qc;
	char	   *shown;

	stmt->subname = pstrdup(subname);
	stmt->conninfo = pstrdup(conninfo);
	stmt->publication = list_make1(makeString(pstrdup(publication)));
	stmt->options = list_make2(makeDefElem("create_slot", (Node *) makeString(pstrdup("false")), -1),
							   makeDefElem("slot_name", (Node *) makeString(pstrdup(slot)), -1));
	pstmt->commandType = CMD_UTILITY;
	pstmt->canSetTag = true;
	pstmt->utilityStmt = (Node *) stmt;
	pstmt->stmt_location = -1;
	pstmt->stmt_len = 0;
	shown = psprintf("CREATE SUBSCRIPTION %s CONNECTION '********' PUBLICATION %s"
					" WITH (create_slot = false, slot_name = %s)",
					quote_identifier(subname), quote_identifier(publication),
					quote_literal_cstr(slot));

	InitializeQueryCompletion(&qc);
	ProcessUtility(pstmt, shown, false, PROCESS_UTILITY_QUERY, NULL, NULL, None_Receiver, &qc);
	CommandCounterIncrement();
}

/* the row of bench.subscriptions of SUBNAME, as TUPDESC, SQL given (owner's) */
static Datum
subscription_row(const char *sql, const char *subname, TupleDesc tupdesc)
{
	BkOwnerSwitch sw;
	Oid			type = NAMEOID;
	Datum		value = DirectFunctionCall1(namein, CStringGetDatum(subname));
	Datum		row;

	bk_become_owner(&sw);
	bk_spi_connect();
	if (SPI_execute_with_args(sql, 1, &type, &value, NULL, false, 0) < 0 || SPI_processed != 1)
		elog(ERROR, "could not read the row of subscription \"%s\" in bench.subscriptions", subname);
	row = PointerGetDatum(SPI_returntuple(SPI_tuptable->vals[0], tupdesc));
	bk_spi_finish();
	bk_restore_user(&sw);
	return row;
}

/*
 * drop_subscription
 *		Disable subscription SUBNAME, detach it from its slot and drop it
 *		(as the caller, its owner: the commands' own checks apply), delete
 *		its row of bench.subscriptions (returned, as TUPDESC), then drop
 *		its slot SLOT over CONN to the driver, if CONN: *DROPPED says
 *		whether there was one.  DROP SUBSCRIPTION stops the subscription's
 *		workers, and with them the driver's hold on the slot.
 */
static Datum
drop_subscription(const char *subname, TupleDesc tupdesc, PGconn *conn,
				  const FleetConninfo *ci, const char *slot, bool *dropped)
{
	char	   *q = pstrdup(quote_identifier(subname));
	Datum		row;

	bk_spi_connect();
	bk_spi_utility(psprintf("ALTER SUBSCRIPTION %s DISABLE", q));
	bk_spi_utility(psprintf("ALTER SUBSCRIPTION %s SET (slot_name = NONE)", q));
	bk_spi_utility(psprintf("DROP SUBSCRIPTION %s", q));
	bk_spi_finish();

	row = subscription_row("DELETE FROM bench.subscriptions s WHERE s.subscription = $1 RETURNING *",
						   subname, tupdesc);
	*dropped = conn != NULL && drop_slot(conn, ci, slot, FLEET_SLOT_WAIT_MS, false);
	return row;
}

#endif							/* PG_VERSION_NUM >= 150000 */

/*
 * bench_subscribe
 *		SQL function bench.subscribe(subscription, connection, publication)
 *		returns bench.subscriptions: on the central database, a
 *		subscription to a driver's publication, made only when the driver
 *		is a node of this version whose number no other node here has.
 */
Datum
bench_subscribe(PG_FUNCTION_ARGS)
{
#if PG_VERSION_NUM >= 150000
	char	   *subname;
	char	   *conninfo;
	char	   *publication;
	TupleDesc	tupdesc;
	FleetConninfo *ci;
	CentralNode *central;
	PGconn	   *conn;
	volatile bool slot_made = false;
	Datum		row = (Datum) 0;
	bool		replace;
#endif

	bk_check_call(fcinfo, 4, "bench.subscribe");
	for (int i = 0; i < 4; i++)
		if (PG_ARGISNULL(i))
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("argument \"%s\" of bench.subscribe must not be null",
							i == 0 ? "subscription" : i == 1 ? "connection" : i == 2 ? "publication" : "replace_rows"),
					 errhint(i == 3 ? "Leave it out, false: a node whose rows are here already is refused." :
							 i == 2 ? "Leave it out for the publication pgbenchkit, which bench.publish makes." :
							 "Name the subscription and give the driver's connection string: bench.subscribe('aws_1', 'host=... dbname=... user=...').")));
	if (VARSIZE_ANY_EXHDR(PG_GETARG_TEXT_PP(1)) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"connection\" of bench.subscribe must not be empty"),
				 errhint("Give the driver's connection string, as for CREATE SUBSCRIPTION: 'host=... port=... dbname=... user=...'.")));
	fleet_check_version("bench.subscribe");
#if PG_VERSION_NUM >= 150000
	subname = pstrdup(NameStr(*PG_GETARG_NAME(0)));
	conninfo = text_to_cstring(PG_GETARG_TEXT_PP(1));
	publication = pstrdup(NameStr(*PG_GETARG_NAME(2)));
	replace = PG_GETARG_BOOL(3);
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "bench.subscribe must return a row");
	check_slot_name(subname);
	ci = fleet_conninfo(conninfo);

	fleet_check_caller("bench.subscribe");
	central = central_node();
	check_may_create_subscription();
	if (OidIsValid(get_subscription_oid(subname, true)))
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg("subscription \"%s\" already exists", subname),
				 errhint("Give another name, or bench.unsubscribe(%s) first.",
						 quote_literal_cstr(subname))));

	/* a subscription's password_required is true unless a superuser says */
	conn = driver_connect(ci, GetUserId(), true);
	PG_TRY();
	{
		const char *values[1] = {subname};
		DriverNode *driver = driver_node(conn, ci, central, publication);

		check_and_record(subname, publication, central, driver, replace);
		PQclear(driver_query(conn, ci, psprintf("create replication slot \"%s\"", subname),
							 "SELECT pg_catalog.pg_create_logical_replication_slot($1, 'pgoutput')",
							 1, values));
		slot_made = true;
		create_subscription(subname, conninfo, publication, subname);
		row = subscription_row("SELECT * FROM bench.subscriptions s WHERE s.subscription = $1",
							   subname, tupdesc);
	}
	PG_CATCH();
	{
		/* the slot made for a subscription that is not: dropped again */
		if (slot_made)
			(void) drop_slot(conn, ci, subname, FLEET_CLEANUP_WAIT_MS, true);
		driver_finish(conn);
		PG_RE_THROW();
	}
	PG_END_TRY();
	driver_finish(conn);
	PG_RETURN_DATUM(row);
#else
	PG_RETURN_NULL();
#endif
}

/*
 * bench_unsubscribe
 *		SQL function bench.unsubscribe(subscription) returns
 *		bench.subscriptions: drops a subscription bench.subscribe made, and
 *		its replication slot on the driver; the node's rows stay here.
 */
Datum
bench_unsubscribe(PG_FUNCTION_ARGS)
{
#if PG_VERSION_NUM >= 150000
	char	   *subname;
	TupleDesc	tupdesc;
	Oid			subid;
	Subscription *sub;
	bool		password_required = true;
	Datum		row;
	bool		dropped = false;
#endif

	bk_check_call(fcinfo, 1, "bench.unsubscribe");
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument \"subscription\" of bench.unsubscribe must not be null"),
				 errhint("Name a subscription of bench.subscriptions.")));
	fleet_check_version("bench.unsubscribe");
#if PG_VERSION_NUM >= 150000
	subname = pstrdup(NameStr(*PG_GETARG_NAME(0)));
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "bench.unsubscribe must return a row");
	fleet_check_caller("bench.unsubscribe");

	subid = get_subscription_oid(subname, true);
	if (!OidIsValid(subid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("subscription \"%s\" does not exist", subname),
				 errhint("bench.subscriptions lists the subscriptions of this database's drivers.")));
#if PG_VERSION_NUM >= 160000
	if (!object_ownercheck(SubscriptionRelationId, subid, GetUserId()))
#else
	if (!pg_subscription_ownercheck(subid, GetUserId()))
#endif
		aclcheck_error(ACLCHECK_NOT_OWNER, OBJECT_SUBSCRIPTION, subname);
	{
		Oid			type = NAMEOID;
		Datum		value = DirectFunctionCall1(namein, CStringGetDatum(subname));

		if (bk_spi_int64("SELECT count(*) FROM bench.subscriptions s WHERE s.subscription = $1",
						 1, &type, &value) != 1)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("subscription \"%s\" was not made by bench.subscribe", subname),
					 errhint("DROP SUBSCRIPTION %s, on its own, drops it and its slot on the driver.",
							 quote_identifier(subname))));
	}

	/*
	 * The subscription's own connection string, which the catalog keeps
	 * (pg_subscription.subconninfo: superusers only), used for the one
	 * thing DROP SUBSCRIPTION would use it for, as the subscription's
	 * owner, which the caller is: its slot.  The driver is reached first,
	 * so that nothing changes when it cannot be.
	 */
	sub = GetSubscription(subid, false);
#if PG_VERSION_NUM >= 160000
	password_required = sub->passwordrequired;
#endif
	if (sub->slotname != NULL)
	{
		FleetConninfo *ci = fleet_conninfo(sub->conninfo);
		PGconn	   *conn = driver_connect(ci, sub->owner, password_required);

		PG_TRY();
		{
			row = drop_subscription(subname, tupdesc, conn, ci, sub->slotname, &dropped);
		}
		PG_CATCH();
		{
			driver_finish(conn);
			PG_RE_THROW();
		}
		PG_END_TRY();
		driver_finish(conn);
	}
	else
		row = drop_subscription(subname, tupdesc, NULL, NULL, NULL, &dropped);
	if (sub->slotname != NULL && !dropped)
		ereport(NOTICE,
				(errmsg("the driver had no replication slot \"%s\" any more", sub->slotname)));
	PG_RETURN_DATUM(row);
#else
	PG_RETURN_NULL();
#endif
}
