/*-------------------------------------------------------------------------
 *
 * tpcc_check.c
 *		bench.tpcc_check: the consistency conditions 1 to 12 of the TPC-C
 *		specification (v5.11, clause 3.3.2) on a TPC-C dataset, in this
 *		server or on a target, whoever loaded it (bench.init, go-tpc,
 *		HammerDB: the specification's table and column names).
 *
 * Each condition is one query over all the warehouses at once, aggregates
 * joined on the tables' keys (no loop per warehouse or per row), returning
 * one row: how many warehouses, districts, customers, orders or order lines
 * it checked, how many of them violate the condition, and a third count
 * some conditions explain themselves with.  The same text runs in the
 * server (SPI, in the caller's snapshot) and on a target (libpq, all twelve
 * in one REPEATABLE READ READ ONLY transaction), so both see one consistent
 * state of the dataset even while a run writes to it.  Both run as the
 * calling role: the tables are the user's, not pgbenchkit's.
 *
 * Where the specification and go-tpc's check (tpcc/check.go) differ, the
 * specification wins: every customer is checked by conditions 10 and 12
 * (a customer without a delivered order line has a sum of zero, not a
 * NULL that no comparison flags), an order without order lines fails
 * condition 6, the orders part of condition 2 applies to districts without
 * new orders, and condition 11 is checked only in districts that have had
 * no delivery yet: it holds only before the first one (clause 3.3.2.11).
 * A district has had a delivery when one of its customers has a
 * C_DELIVERY_CNT above 0: the initial population sets it to 0 (clause
 * 4.3.3.1) and each delivery adds 1 to the customer of the order it
 * delivers (clause 2.7.4.2), independently of the ORDER and NEW-ORDER rows
 * the condition counts.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/tuplestore.h"

#include "core/compat.h"
#include "core/pgbenchkit.h"
#include "meta/catalog.h"
#include "target/target.h"

PG_FUNCTION_INFO_V1(bench_tpcc_check);

/* the columns of bench.tpcc_check's rows */
#define TPCC_CHECK_COLS 6

/*
 * The conditions.  Each query reads the tables of schema %1$s (quoted) and
 * returns one row: checked, violations, and a third count (NULL when the
 * condition has none) its note explains.  They run with search_path set to
 * BK_PINNED_SEARCH_PATH, here and on a target, so that their functions and
 * operators are pg_catalog's whatever the role's search_path holds.
 */
typedef struct TpccCondition
{
	int			number;
	const char *description;
	const char *sql;
} TpccCondition;

static const TpccCondition conditions[] = {
	{1, "W_YTD = sum(D_YTD), for each warehouse",
		"SELECT count(*), count(*) FILTER (WHERE w.w_ytd IS DISTINCT FROM d.ytd), NULL::int8"
		" FROM %1$s.warehouse w"
		" LEFT JOIN (SELECT d_w_id, sum(d_ytd) AS ytd FROM %1$s.district GROUP BY d_w_id) d"
		" ON d.d_w_id = w.w_id"},
	{2, "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID), for each district",
		"SELECT count(*),"
		" count(*) FILTER (WHERE o.mx IS DISTINCT FROM d.d_next_o_id - 1"
		"   OR n.mx IS NOT NULL AND n.mx IS DISTINCT FROM d.d_next_o_id - 1),"
		" count(*) FILTER (WHERE n.mx IS NULL)"
		" FROM %1$s.district d"
		" LEFT JOIN (SELECT o_w_id, o_d_id, max(o_id) AS mx FROM %1$s.orders GROUP BY o_w_id, o_d_id) o"
		" ON (o.o_w_id, o.o_d_id) = (d.d_w_id, d.d_id)"
		" LEFT JOIN (SELECT no_w_id, no_d_id, max(no_o_id) AS mx FROM %1$s.new_order GROUP BY no_w_id, no_d_id) n"
		" ON (n.no_w_id, n.no_d_id) = (d.d_w_id, d.d_id)"},
	{3, "max(NO_O_ID) - min(NO_O_ID) + 1 = the number of NEW-ORDER rows, for each district",
		"SELECT count(n.cnt), count(*) FILTER (WHERE n.mx - n.mn + 1 <> n.cnt),"
		" count(*) FILTER (WHERE n.cnt IS NULL)"
		" FROM %1$s.district d"
		" LEFT JOIN (SELECT no_w_id, no_d_id, max(no_o_id) AS mx, min(no_o_id) AS mn, count(*) AS cnt"
		"   FROM %1$s.new_order GROUP BY no_w_id, no_d_id) n"
		" ON (n.no_w_id, n.no_d_id) = (d.d_w_id, d.d_id)"},
	{4, "sum(O_OL_CNT) = the number of ORDER-LINE rows, for each district",
		"SELECT count(*), count(*) FILTER (WHERE coalesce(o.cnt, 0) <> coalesce(l.cnt, 0)), NULL::int8"
		" FROM %1$s.district d"
		" LEFT JOIN (SELECT o_w_id, o_d_id, sum(o_ol_cnt) AS cnt FROM %1$s.orders GROUP BY o_w_id, o_d_id) o"
		" ON (o.o_w_id, o.o_d_id) = (d.d_w_id, d.d_id)"
		" LEFT JOIN (SELECT ol_w_id, ol_d_id, count(*) AS cnt FROM %1$s.order_line GROUP BY ol_w_id, ol_d_id) l"
		" ON (l.ol_w_id, l.ol_d_id) = (d.d_w_id, d.d_id)"},
	{5, "O_CARRIER_ID is null if and only if a NEW-ORDER row has the order, for each order",
		"SELECT count(*), count(*) FILTER (WHERE (o.o_carrier_id IS NULL) <> (n.no_o_id IS NOT NULL)), NULL::int8"
		" FROM %1$s.orders o"
		" LEFT JOIN %1$s.new_order n ON (n.no_w_id, n.no_d_id, n.no_o_id) = (o.o_w_id, o.o_d_id, o.o_id)"},
	{6, "O_OL_CNT = the number of ORDER-LINE rows of the order, for each order",
		"SELECT count(*), count(*) FILTER (WHERE o.o_ol_cnt IS DISTINCT FROM coalesce(l.cnt, 0)), NULL::int8"
		" FROM %1$s.orders o"
		" LEFT JOIN (SELECT ol_w_id, ol_d_id, ol_o_id, count(*) AS cnt FROM %1$s.order_line"
		"   GROUP BY ol_w_id, ol_d_id, ol_o_id) l"
		" ON (l.ol_w_id, l.ol_d_id, l.ol_o_id) = (o.o_w_id, o.o_d_id, o.o_id)"},
	{7, "OL_DELIVERY_D is null if and only if the order's O_CARRIER_ID is null, for each order line",
		"SELECT count(*),"
		" count(*) FILTER (WHERE o.o_id IS NULL OR (l.ol_delivery_d IS NULL) <> (o.o_carrier_id IS NULL)),"
		" NULL::int8"
		" FROM %1$s.order_line l"
		" LEFT JOIN %1$s.orders o ON (o.o_w_id, o.o_d_id, o.o_id) = (l.ol_w_id, l.ol_d_id, l.ol_o_id)"},
	{8, "W_YTD = sum(H_AMOUNT) of the warehouse's HISTORY rows, for each warehouse",
		"SELECT count(*), count(*) FILTER (WHERE w.w_ytd IS DISTINCT FROM coalesce(h.amount, 0)), NULL::int8"
		" FROM %1$s.warehouse w"
		" LEFT JOIN (SELECT h_w_id, sum(h_amount) AS amount FROM %1$s.history GROUP BY h_w_id) h"
		" ON h.h_w_id = w.w_id"},
	{9, "D_YTD = sum(H_AMOUNT) of the district's HISTORY rows, for each district",
		"SELECT count(*), count(*) FILTER (WHERE d.d_ytd IS DISTINCT FROM coalesce(h.amount, 0)), NULL::int8"
		" FROM %1$s.district d"
		" LEFT JOIN (SELECT h_w_id, h_d_id, sum(h_amount) AS amount FROM %1$s.history GROUP BY h_w_id, h_d_id) h"
		" ON (h.h_w_id, h.h_d_id) = (d.d_w_id, d.d_id)"},
	{10, "C_BALANCE = sum(OL_AMOUNT) of the customer's delivered order lines - sum(H_AMOUNT) of its HISTORY rows, for each customer",
		"SELECT count(*),"
		" count(*) FILTER (WHERE c.c_balance IS DISTINCT FROM coalesce(l.amount, 0) - coalesce(h.amount, 0)),"
		" NULL::int8"
		" FROM %1$s.customer c"
		" LEFT JOIN (SELECT o.o_w_id, o.o_d_id, o.o_c_id, sum(ol.ol_amount) AS amount"
		"   FROM %1$s.orders o JOIN %1$s.order_line ol"
		"   ON (ol.ol_w_id, ol.ol_d_id, ol.ol_o_id) = (o.o_w_id, o.o_d_id, o.o_id)"
		"   WHERE ol.ol_delivery_d IS NOT NULL GROUP BY o.o_w_id, o.o_d_id, o.o_c_id) l"
		" ON (l.o_w_id, l.o_d_id, l.o_c_id) = (c.c_w_id, c.c_d_id, c.c_id)"
		" LEFT JOIN (SELECT h_c_w_id, h_c_d_id, h_c_id, sum(h_amount) AS amount FROM %1$s.history"
		"   GROUP BY h_c_w_id, h_c_d_id, h_c_id) h"
		" ON (h.h_c_w_id, h.h_c_d_id, h.h_c_id) = (c.c_w_id, c.c_d_id, c.c_id)"},
	{11, "count(ORDER) - count(NEW-ORDER) = 2100, for each district that has had no delivery",
		"SELECT count(*) FILTER (WHERE NOT x.delivered),"
		" count(*) FILTER (WHERE NOT x.delivered AND x.orders - x.new_orders <> 2100),"
		" count(*) FILTER (WHERE x.delivered)"
		" FROM (SELECT coalesce(c.deliveries, 0) > 0 AS delivered,"
		"   coalesce(o.cnt, 0) AS orders, coalesce(n.cnt, 0) AS new_orders"
		"   FROM %1$s.district d"
		"   LEFT JOIN (SELECT c_w_id, c_d_id, sum(c_delivery_cnt) AS deliveries FROM %1$s.customer"
		"     GROUP BY c_w_id, c_d_id) c"
		"   ON (c.c_w_id, c.c_d_id) = (d.d_w_id, d.d_id)"
		"   LEFT JOIN (SELECT o_w_id, o_d_id, count(*) AS cnt FROM %1$s.orders GROUP BY o_w_id, o_d_id) o"
		"   ON (o.o_w_id, o.o_d_id) = (d.d_w_id, d.d_id)"
		"   LEFT JOIN (SELECT no_w_id, no_d_id, count(*) AS cnt FROM %1$s.new_order GROUP BY no_w_id, no_d_id) n"
		"   ON (n.no_w_id, n.no_d_id) = (d.d_w_id, d.d_id)) x"},
	{12, "C_BALANCE + C_YTD_PAYMENT = sum(OL_AMOUNT) of the customer's delivered order lines, for each customer",
		"SELECT count(*),"
		" count(*) FILTER (WHERE c.c_balance + c.c_ytd_payment IS DISTINCT FROM coalesce(l.amount, 0)),"
		" NULL::int8"
		" FROM %1$s.customer c"
		" LEFT JOIN (SELECT o.o_w_id, o.o_d_id, o.o_c_id, sum(ol.ol_amount) AS amount"
		"   FROM %1$s.orders o JOIN %1$s.order_line ol"
		"   ON (ol.ol_w_id, ol.ol_d_id, ol.ol_o_id) = (o.o_w_id, o.o_d_id, o.o_id)"
		"   WHERE ol.ol_delivery_d IS NOT NULL GROUP BY o.o_w_id, o.o_d_id, o.o_c_id) l"
		" ON (l.o_w_id, l.o_d_id, l.o_c_id) = (c.c_w_id, c.c_d_id, c.c_id)"},
};

#define NCONDITIONS lengthof(conditions)

/*
 * The tables the conditions read (item and stock are in none), and the
 * query that says which of them schema $1 lacks: NULL when it has them
 * all, the schema's own name missing when there is no such schema.
 */
#define TPCC_CHECK_TABLES "warehouse, district, customer, history, new_order, orders, order_line"
static const char *const tables_sql =
"SELECT n.oid IS NOT NULL,"
" (SELECT string_agg(t.name, ', ' ORDER BY t.ord)"
"   FROM unnest('{warehouse,district,customer,history,new_order,orders,order_line}'::text[])"
"   WITH ORDINALITY AS t(name, ord)"
"   WHERE NOT EXISTS (SELECT FROM pg_class c WHERE c.relnamespace = n.oid AND c.relname = t.name"
"     AND c.relkind IN ('r', 'p', 'v', 'm', 'f')))"
" FROM (SELECT $1::name AS want) w LEFT JOIN pg_namespace n ON n.nspname = w.want";

/* the schema of the warehouse the session's search_path finds, on a target */
static const char *const default_schema_sql =
"SELECT n.nspname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n"
" ON n.oid OPERATOR(pg_catalog.=) c.relnamespace"
" WHERE c.oid OPERATOR(pg_catalog.=) pg_catalog.to_regclass('warehouse')";

/* a connection to a target, as far as the checks need it */
typedef struct CheckConn
{
	const char *target;			/* NULL: this server, through SPI */
	BkTarget   *t;
	PGconn	   *conn;
} CheckConn;

/* three counts of a condition's row; null ones are -1 */
typedef struct CheckCounts
{
	int64		v[3];
} CheckCounts;

static int64
count_of(const char *text)
{
	return text == NULL ? -1 : pg_strtoint64(text);
}

/*
 * target_error
 *		Raise the error of RES (or of the connection) from the target, with
 *		the target's SQLSTATE when it sent one, redacted of secrets.
 */
static void
target_error(CheckConn *cc, PGresult *res, const char *what)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *hint = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_HINT) : NULL;
	char	   *msg = bk_target_redact(pchomp(res && PQresultErrorMessage(res)[0] ?
											 PQresultErrorMessage(res) :
											 PQerrorMessage(cc->conn)),
									   cc->t->params);
	int			code = ERRCODE_CONNECTION_FAILURE;

	if (state != NULL && strlen(state) == 5)
		code = MAKE_SQLSTATE(state[0], state[1], state[2], state[3], state[4]);
	ereport(ERROR,
			(errcode(code),
			 errmsg("could not check %s on target \"%s\"", what, cc->target),
			 errdetail_internal("%s", msg),
			 hint ? errhint("%s", hint) : 0));
}

/*
 * check_query
 *		Run SQL (one row of NCOLS text columns expected) with the text
 *		parameter PARAM (NULL: none) in this server or on the target, and
 *		put its values in VALUES (NULL for a null); false when it returned
 *		no row.  WHAT names the query in a target's error.
 */
static bool
check_query(CheckConn *cc, const char *sql, const char *param, int ncols, char **values,
			const char *what)
{
	if (cc->target == NULL)
	{
		Oid			types[1] = {TEXTOID};
		Datum		vals[1];
		int			rc;

		if (param != NULL)
		{
			vals[0] = CStringGetTextDatum(param);
			rc = SPI_execute_with_args(sql, 1, types, vals, NULL, true, 1);
		}
		else
			rc = SPI_execute(sql, true, 1);
		if (rc != SPI_OK_SELECT || SPI_tuptable->tupdesc->natts != ncols)
			elog(ERROR, "unexpected result of a TPC-C check: %d", rc);
		if (SPI_processed == 0)
			return false;
		for (int i = 0; i < ncols; i++)
			values[i] = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, i + 1);
		return true;
	}
	else
	{
		Oid			types[1] = {TEXTOID};
		const char *vals[1] = {param};
		PGresult   *res = bk_target_exec_params(cc->conn, sql, param ? 1 : 0, types, vals);
		bool		found;

		if (res == NULL || PQresultStatus(res) != PGRES_TUPLES_OK)
			target_error(cc, res, what);
		if (PQnfields(res) != ncols)
			elog(ERROR, "unexpected result of a TPC-C check on target \"%s\"", cc->target);
		found = PQntuples(res) > 0;
		for (int i = 0; found && i < ncols; i++)
			values[i] = PQgetisnull(res, 0, i) ? NULL : pstrdup(PQgetvalue(res, 0, i));
		PQclear(res);
		return found;
	}
}

/* send a command that returns no rows to the target */
static void
target_command(CheckConn *cc, const char *sql)
{
	PGresult   *res = bk_target_exec(cc->conn, sql);

	if (res == NULL || PQresultStatus(res) != PGRES_COMMAND_OK)
		target_error(cc, res, "its TPC-C tables");
	PQclear(res);
}

/*
 * check_schema
 *		The schema whose tables to check: SCHEMA, or the one where the
 *		search_path of this session (or the target's) finds warehouse; an
 *		error when it lacks one of the tables the conditions read.
 */
static const char *
check_schema(CheckConn *cc, const char *schema)
{
	char	   *v[2];
	const char *where = cc->target ? psprintf(" of target \"%s\"", cc->target) : "";

	if (schema == NULL)
	{
		if (cc->target == NULL)
		{
			/* the caller's search_path, before SPI pins it */
			Oid			rel = RangeVarGetRelid(makeRangeVar(NULL, "warehouse", -1), NoLock, true);

			if (OidIsValid(rel))
				schema = get_namespace_name(get_rel_namespace(rel));
		}
		else if (check_query(cc, default_schema_sql, NULL, 1, v, "its TPC-C tables"))
			schema = v[0];
		if (schema == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("no TPC-C tables in the search_path%s", where),
					 errdetail("No schema of the search_path has a table named warehouse."),
					 errhint("Load a TPC-C dataset with bench.init('tpcc', warehouses => N%s), or name the schema of its tables with schema => '...'.",
							 cc->target ? psprintf(", target => '%s'", cc->target) : "")));
	}
	return schema;
}

/* refuse SCHEMA when it does not exist or lacks one of the tables */
static void
check_tables(CheckConn *cc, const char *schema)
{
	char	   *v[2];
	const char *where = cc->target ? psprintf(" of target \"%s\"", cc->target) : "";

	if (!check_query(cc, tables_sql, schema, 2, v, "its TPC-C tables"))
		elog(ERROR, "no row from the query of the TPC-C tables");
	if (strcmp(v[0], "t") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_SCHEMA_NAME),
				 errmsg("schema \"%s\"%s does not exist", bk_shown(schema), where),
				 errhint("Name the schema of a TPC-C dataset's tables, or omit schema to check the one the search_path finds.")));
	if (v[1] != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("schema \"%s\"%s has no TPC-C dataset", schema, where),
				 errdetail("Missing: %s.  The conditions read the tables %s.", v[1], TPCC_CHECK_TABLES),
				 errhint("Load one with bench.init('tpcc', warehouses => N%s), or name the schema where another tool made them.",
						 cc->target ? psprintf(", target => '%s'", cc->target) : "")));
}

/* the note of condition C with COUNTS, or NULL */
static char *
condition_note(const TpccCondition *c, const CheckCounts *counts)
{
	int64		checked = counts->v[0];
	int64		extra = counts->v[2];

	switch (c->number)
	{
		case 2:
			if (extra > 0)
				return psprintf("districts without new orders, where only D_NEXT_O_ID - 1 = max(O_ID) applies: " INT64_FORMAT, extra);
			break;
		case 3:
			if (checked == 0)
				return pstrdup("not applicable: no district has new orders");
			if (extra > 0)
				return psprintf("districts without new orders, where it does not apply: " INT64_FORMAT, extra);
			break;
		case 11:
			if (checked == 0 && extra > 0)
				return pstrdup("not applicable after deliveries: it holds only before a district's first delivery, and every district has had one (a customer's C_DELIVERY_CNT above 0)");
			if (extra > 0)
				return psprintf("holds only before a district's first delivery; districts that have had one (a customer's C_DELIVERY_CNT above 0), not checked: " INT64_FORMAT, extra);
			if (checked > 0)
				return pstrdup("holds only before a district's first delivery: no district has had one (every C_DELIVERY_CNT is 0)");
			break;
		default:
			break;
	}
	if (checked == 0)
		return pstrdup("nothing to check: the tables are empty");
	return NULL;
}

/*
 * run_checks
 *		Run every condition on the tables of SCHEMA and put a row per
 *		condition into RSINFO's tuplestore.
 */
static void
run_checks(CheckConn *cc, const char *schema, ReturnSetInfo *rsinfo)
{
	const char *qschema = quote_identifier(schema);

	for (int i = 0; i < (int) NCONDITIONS; i++)
	{
		const TpccCondition *c = &conditions[i];
		char	   *v[3];
		CheckCounts counts;
		Datum		values[TPCC_CHECK_COLS];
		bool		nulls[TPCC_CHECK_COLS] = {0};
		char	   *note;

		CHECK_FOR_INTERRUPTS();
		if (!check_query(cc, psprintf(c->sql, qschema), NULL, 3, v,
						 psprintf("TPC-C condition %d", c->number)))
			elog(ERROR, "no row from TPC-C condition %d", c->number);
		for (int k = 0; k < 3; k++)
			counts.v[k] = count_of(v[k]);
		note = condition_note(c, &counts);

		values[0] = Int32GetDatum(c->number);
		values[1] = CStringGetTextDatum(c->description);
		/* nothing to check: neither passed nor failed */
		nulls[2] = counts.v[0] == 0;
		values[2] = BoolGetDatum(counts.v[1] == 0);
		values[3] = Int64GetDatum(counts.v[0]);
		values[4] = Int64GetDatum(counts.v[1]);
		nulls[5] = note == NULL;
		values[5] = note ? CStringGetTextDatum(note) : (Datum) 0;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
}

/*
 * bench_tpcc_check
 *		SQL function bench.tpcc_check(target text, schema text): one row per
 *		consistency condition of TPC-C (clause 3.3.2), checked on the tables
 *		of SCHEMA in this server (target NULL) or on the target.
 */
Datum
bench_tpcc_check(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	CheckConn	cc = {0};
	const char *schema;

	bk_check_call(fcinfo, 2, "bench.tpcc_check");
	cc.target = PG_ARGISNULL(0) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(0));
	schema = PG_ARGISNULL(1) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(1));
	bk_init_materialized_srf(fcinfo);

	if (cc.target == NULL)
	{
		schema = check_schema(&cc, schema);
		bk_spi_connect();
		check_tables(&cc, schema);
		run_checks(&cc, schema, rsinfo);
		bk_spi_finish();
		return (Datum) 0;
	}

	cc.t = bk_target_open(cc.target, GetUserId(), "pgbenchkit tpcc_check");
	/* a query whose caller went away ends on the target too */
	bk_target_add_setting(cc.t, BK_TARGET_CHECK_INTERVAL);
	cc.conn = bk_target_open_conn(cc.t);
	PG_TRY();
	{
		/* one snapshot for all twelve, whatever runs there meanwhile */
		target_command(&cc, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
		schema = check_schema(&cc, schema);
		target_command(&cc, "SET LOCAL search_path = " BK_PINNED_SEARCH_PATH);
		check_tables(&cc, schema);
		run_checks(&cc, schema, rsinfo);
		target_command(&cc, "COMMIT");
	}
	PG_CATCH();
	{
		/* stop what still runs there (a cancel of ours, say) */
		if (PQtransactionStatus(cc.conn) == PQTRANS_ACTIVE)
		{
			PGcancel   *cancel = PQgetCancel(cc.conn);
			char		errbuf[256];

			if (cancel != NULL)
			{
				(void) PQcancel(cancel, errbuf, sizeof(errbuf));
				PQfreeCancel(cancel);
			}
		}
		bk_target_close_conn(cc.t, cc.conn);
		PG_RE_THROW();
	}
	PG_END_TRY();
	bk_target_close_conn(cc.t, cc.conn);
	return (Datum) 0;
}
