/*-------------------------------------------------------------------------
 *
 * tpcc_functions.c
 *		The server-side functions of a TPC-C dataset (tpcc_functions.h):
 *		the five transactions of TPC-C v5.11 (clauses 2.4 to 2.8), one call
 *		each, as HammerDB's TPROC-C calls them on PostgreSQL.
 *
 * The inputs a terminal draws (warehouse, district, customer, amounts,
 * carrier, threshold) are the callers' arguments, drawn by the workload's
 * script, so that a run's seed repeats a run's inputs.  New-order's lines
 * are the exception: a call carries scalars (one call per transaction,
 * as HammerDB's procedure draws its lines itself), so the script draws a
 * seed and the function draws the lines from it (items by
 * NURand(8191, 1, 100000) with the run's C, all different; 1% from another
 * warehouse when there are others; quantities 1 to 10), deterministically.
 * Its rollback (clause 2.4.1.4, an unused item number in the last line) is
 * real: tpcc_new_order does the work and raises SQLSTATE TPC01 ("item
 * number is not valid") when it meets the item, as HammerDB's procedure
 * raises; the transaction is rolled back, d_next_o_id's increment with it,
 * and the script that calls it declares the error (\rollback_errors
 * TPC01), so the run counts it as a rollback, not a failure.  One round
 * trip, no subtransaction, and the server counts it in
 * pg_stat_database.xact_rollback as HammerDB's TPM expects.
 *
 * Every table and function is qualified with the dataset's schema or
 * pg_catalog, so the functions do not depend on the caller's search_path
 * (none is pinned: SET search_path would cost a GUC save and restore per
 * call).  The text is valid on PostgreSQL 14 to 18.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "core/pgbenchkit.h"
#include "meta/catalog.h"
#include "dataset/tpcc_functions.h"

PG_FUNCTION_INFO_V1(bench_tpcc_functions);

/* the statements, with @S@ for the dataset's schema */
static const char *const tpcc_function_texts[] = {
	"CREATE OR REPLACE FUNCTION @S@.tpcc_new_order(\n"
	"    w_id integer, d_id integer, c_id integer, ol_cnt integer, unused_item boolean,\n"
	"    seed bigint, c_ol_i_id integer, warehouses integer,\n"
	"    OUT o_id integer, OUT total numeric)\n"
	"LANGUAGE plpgsql VOLATILE\n"
	"AS $fn$\n"
	"DECLARE\n"
	"    d_tax       numeric;\n"
	"    w_tax       numeric;\n"
	"    c_discount  numeric;\n"
	"    items       integer[] := '{}';\n"
	"    supply      integer[] := '{}';\n"
	"    qty         integer[] := '{}';\n"
	"    all_local   integer := 1;\n"
	"    item        integer;\n"
	"    sw          integer;\n"
	"    k           integer := 0;\n"
	"    n           integer;\n"
	"BEGIN\n"
	"    -- the lines, drawn from the seed: NURand(8191, 1, 100000) items, all\n"
	"    -- different; 1% of them from another warehouse when there are others;\n"
	"    -- quantities 1 to 10 (clause 2.4.1.5)\n"
	"    FOR i IN 1 .. ol_cnt LOOP\n"
	"        IF unused_item AND i = ol_cnt THEN\n"
	"            item := 100001;\n"
	"        ELSE\n"
	"            LOOP\n"
	"                k := k + 2;\n"
	"                item := ((((pg_catalog.hashint8extended(k, seed) & 9223372036854775807) % 8192)\n"
	"                          | ((pg_catalog.hashint8extended(k + 1, seed) & 9223372036854775807) % 100000 + 1))\n"
	"                         + c_ol_i_id) % 100000 + 1;\n"
	"                EXIT WHEN item <> ALL (items);\n"
	"            END LOOP;\n"
	"        END IF;\n"
	"        k := k + 2;\n"
	"        sw := w_id;\n"
	"        IF warehouses > 1 AND (pg_catalog.hashint8extended(k, seed) & 9223372036854775807) % 100 = 0 THEN\n"
	"            sw := ((pg_catalog.hashint8extended(k + 1, seed) & 9223372036854775807) % (warehouses - 1) + w_id) % warehouses + 1;\n"
	"            all_local := 0;\n"
	"        END IF;\n"
	"        items := items || item;\n"
	"        supply := supply || sw;\n"
	"        k := k + 1;\n"
	"        qty := qty || ((pg_catalog.hashint8extended(k, seed) & 9223372036854775807) % 10 + 1)::integer;\n"
	"    END LOOP;\n"
	"\n"
	"    UPDATE @S@.district SET d_next_o_id = d_next_o_id + 1\n"
	"     WHERE district.d_w_id = tpcc_new_order.w_id AND district.d_id = tpcc_new_order.d_id\n"
	"    RETURNING d_next_o_id - 1, district.d_tax INTO o_id, d_tax;\n"
	"    SELECT c.c_discount, w.w_tax INTO c_discount, w_tax\n"
	"      FROM @S@.customer c, @S@.warehouse w\n"
	"     WHERE w.w_id = tpcc_new_order.w_id AND c.c_w_id = tpcc_new_order.w_id\n"
	"       AND c.c_d_id = tpcc_new_order.d_id AND c.c_id = tpcc_new_order.c_id;\n"
	"    INSERT INTO @S@.orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)\n"
	"    VALUES (o_id, d_id, w_id, c_id, LOCALTIMESTAMP, NULL, ol_cnt, all_local);\n"
	"    INSERT INTO @S@.new_order (no_o_id, no_d_id, no_w_id) VALUES (o_id, d_id, w_id);\n"
	"\n"
	"    -- the stock of every line, then the lines, in the order of their items\n"
	"    -- (so that concurrent orders lock stock rows in one order)\n"
	"    WITH l AS (\n"
	"        SELECT l.i_id, l.w_id, l.q, pg_catalog.row_number() OVER (ORDER BY l.i_id) AS n\n"
	"          FROM ROWS FROM (pg_catalog.unnest(items), pg_catalog.unnest(supply), pg_catalog.unnest(qty)) AS l (i_id, w_id, q)),\n"
	"    s AS (\n"
	"        UPDATE @S@.stock s\n"
	"           SET s_quantity = CASE WHEN s.s_quantity - l.q >= 10 THEN s.s_quantity - l.q\n"
	"                                 ELSE s.s_quantity - l.q + 91 END,\n"
	"               s_ytd = s.s_ytd + l.q,\n"
	"               s_order_cnt = s.s_order_cnt + 1,\n"
	"               s_remote_cnt = s.s_remote_cnt + CASE WHEN l.w_id <> tpcc_new_order.w_id THEN 1 ELSE 0 END\n"
	"          FROM l\n"
	"         WHERE s.s_i_id = l.i_id AND s.s_w_id = l.w_id\n"
	"        RETURNING s.s_i_id, CASE tpcc_new_order.d_id\n"
	"                              WHEN 1 THEN s.s_dist_01 WHEN 2 THEN s.s_dist_02 WHEN 3 THEN s.s_dist_03\n"
	"                              WHEN 4 THEN s.s_dist_04 WHEN 5 THEN s.s_dist_05 WHEN 6 THEN s.s_dist_06\n"
	"                              WHEN 7 THEN s.s_dist_07 WHEN 8 THEN s.s_dist_08 WHEN 9 THEN s.s_dist_09\n"
	"                              ELSE s.s_dist_10 END AS dist),\n"
	"    ins AS (\n"
	"        INSERT INTO @S@.order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,\n"
	"                                    ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)\n"
	"        SELECT tpcc_new_order.o_id, tpcc_new_order.d_id, tpcc_new_order.w_id, l.n,\n"
	"               l.i_id, l.w_id, NULL, l.q, l.q * i.i_price, s.dist\n"
	"          FROM l JOIN @S@.item i ON i.i_id = l.i_id JOIN s ON s.s_i_id = l.i_id\n"
	"        RETURNING ol_amount)\n"
	"    SELECT pg_catalog.count(*), pg_catalog.sum(ol_amount) INTO n, total FROM ins;\n"
	"    IF n < ol_cnt THEN\n"
	"        -- an unused item (clause 2.4.2.3): the caller rolls all of it back\n"
	"        RAISE EXCEPTION 'item number is not valid' USING ERRCODE = 'TPC01';\n"
	"    END IF;\n"
	"    total := pg_catalog.round(total * (1 - c_discount) * (1 + w_tax + d_tax), 2);\n"
	"END\n"
	"$fn$\n",



	"CREATE OR REPLACE FUNCTION @S@.tpcc_payment(\n"
	"    w_id integer, d_id integer, c_w_id integer, c_d_id integer, c_id integer,\n"
	"    c_last integer, by_name boolean, h_amount numeric,\n"
	"    OUT customer integer, OUT c_balance numeric, OUT c_credit text)\n"
	"LANGUAGE plpgsql VOLATILE\n"
	"AS $fn$\n"
	"DECLARE\n"
	"    syl     constant text[] := '{BAR,OUGHT,ABLE,PRI,PRES,ESE,ANTI,CALLY,ATION,EING}';\n"
	"    w_name  text;\n"
	"    d_name  text;\n"
	"    ids     integer[];\n"
	"BEGIN\n"
	"    UPDATE @S@.warehouse w SET w_ytd = w.w_ytd + h_amount\n"
	"     WHERE w.w_id = tpcc_payment.w_id\n"
	"    RETURNING w.w_name INTO w_name;\n"
	"    UPDATE @S@.district d SET d_ytd = d.d_ytd + h_amount\n"
	"     WHERE d.d_w_id = tpcc_payment.w_id AND d.d_id = tpcc_payment.d_id\n"
	"    RETURNING d.d_name INTO d_name;\n"
	"    IF by_name THEN\n"
	"        -- the one at position ceil(n / 2) of those named so, by first name\n"
	"        -- (clause 2.5.2.2)\n"
	"        SELECT pg_catalog.array_agg(c.c_id ORDER BY c.c_first) INTO ids\n"
	"          FROM @S@.customer c\n"
	"         WHERE c.c_w_id = tpcc_payment.c_w_id AND c.c_d_id = tpcc_payment.c_d_id\n"
	"           AND c.c_last = syl[tpcc_payment.c_last / 100 % 10 + 1] || syl[tpcc_payment.c_last / 10 % 10 + 1]\n"
	"                          || syl[tpcc_payment.c_last % 10 + 1];\n"
	"        customer := ids[(pg_catalog.cardinality(ids) + 1) / 2];\n"
	"    ELSE\n"
	"        customer := c_id;\n"
	"    END IF;\n"
	"    UPDATE @S@.customer c\n"
	"       SET c_balance = c.c_balance - h_amount,\n"
	"           c_ytd_payment = c.c_ytd_payment + h_amount,\n"
	"           c_payment_cnt = c.c_payment_cnt + 1,\n"
	"           c_data = CASE WHEN c.c_credit = 'BC'\n"
	"                         THEN pg_catalog.left(pg_catalog.format('%s %s %s %s %s %s | ', c.c_id, c.c_d_id, c.c_w_id,\n"
	"                                                                tpcc_payment.d_id, tpcc_payment.w_id, h_amount)\n"
	"                                              || c.c_data, 500)\n"
	"                         ELSE c.c_data END\n"
	"     WHERE c.c_w_id = tpcc_payment.c_w_id AND c.c_d_id = tpcc_payment.c_d_id AND c.c_id = customer\n"
	"    RETURNING c.c_balance, c.c_credit INTO c_balance, c_credit;\n"
	"    INSERT INTO @S@.history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)\n"
	"    VALUES (customer, c_d_id, c_w_id, d_id, w_id, LOCALTIMESTAMP, h_amount,\n"
	"            w_name || '    ' || d_name);\n"
	"END\n"
	"$fn$\n",

	"CREATE OR REPLACE FUNCTION @S@.tpcc_order_status(\n"
	"    w_id integer, d_id integer, c_id integer, c_last integer, by_name boolean,\n"
	"    OUT customer integer, OUT c_balance numeric, OUT o_id integer, OUT o_carrier_id integer,\n"
	"    OUT lines integer)\n"
	"LANGUAGE plpgsql VOLATILE\n"
	"AS $fn$\n"
	"DECLARE\n"
	"    syl     constant text[] := '{BAR,OUGHT,ABLE,PRI,PRES,ESE,ANTI,CALLY,ATION,EING}';\n"
	"    ids     integer[];\n"
	"BEGIN\n"
	"    IF by_name THEN\n"
	"        SELECT pg_catalog.array_agg(c.c_id ORDER BY c.c_first) INTO ids\n"
	"          FROM @S@.customer c\n"
	"         WHERE c.c_w_id = tpcc_order_status.w_id AND c.c_d_id = tpcc_order_status.d_id\n"
	"           AND c.c_last = syl[tpcc_order_status.c_last / 100 % 10 + 1] || syl[tpcc_order_status.c_last / 10 % 10 + 1]\n"
	"                          || syl[tpcc_order_status.c_last % 10 + 1];\n"
	"        customer := ids[(pg_catalog.cardinality(ids) + 1) / 2];\n"
	"    ELSE\n"
	"        customer := c_id;\n"
	"    END IF;\n"
	"    SELECT c.c_balance INTO c_balance\n"
	"      FROM @S@.customer c\n"
	"     WHERE c.c_w_id = tpcc_order_status.w_id AND c.c_d_id = tpcc_order_status.d_id AND c.c_id = customer;\n"
	"    -- the customer's last order, and its lines\n"
	"    SELECT o.o_id, o.o_carrier_id INTO o_id, o_carrier_id\n"
	"      FROM @S@.orders o\n"
	"     WHERE o.o_w_id = tpcc_order_status.w_id AND o.o_d_id = tpcc_order_status.d_id AND o.o_c_id = customer\n"
	"     ORDER BY o.o_id DESC LIMIT 1;\n"
	"    SELECT pg_catalog.count(*) INTO lines\n"
	"      FROM (SELECT ol.ol_i_id, ol.ol_supply_w_id, ol.ol_quantity, ol.ol_amount, ol.ol_delivery_d\n"
	"              FROM @S@.order_line ol\n"
	"             WHERE ol.ol_w_id = tpcc_order_status.w_id AND ol.ol_d_id = tpcc_order_status.d_id\n"
	"               AND ol.ol_o_id = tpcc_order_status.o_id) l;\n"
	"END\n"
	"$fn$\n",

	"CREATE OR REPLACE FUNCTION @S@.tpcc_delivery(w_id integer, carrier_id integer, OUT delivered integer)\n"
	"LANGUAGE plpgsql VOLATILE\n"
	"AS $fn$\n"
	"DECLARE\n"
	"    no_o_id  integer;\n"
	"    customer integer;\n"
	"    amount   numeric;\n"
	"BEGIN\n"
	"    delivered := 0;\n"
	"    -- the ten districts in one transaction (clause 2.7.4.2); a district\n"
	"    -- without an undelivered order is skipped\n"
	"    FOR d IN 1 .. 10 LOOP\n"
	"        -- the oldest; if a concurrent delivery took it first, the next\n"
	"        LOOP\n"
	"            DELETE FROM @S@.new_order n\n"
	"             WHERE n.no_w_id = tpcc_delivery.w_id AND n.no_d_id = d\n"
	"               AND n.no_o_id = (SELECT pg_catalog.min(m.no_o_id) FROM @S@.new_order m\n"
	"                                 WHERE m.no_w_id = tpcc_delivery.w_id AND m.no_d_id = d)\n"
	"            RETURNING n.no_o_id INTO no_o_id;\n"
	"            EXIT WHEN no_o_id IS NOT NULL\n"
	"                   OR NOT EXISTS (SELECT FROM @S@.new_order m\n"
	"                                   WHERE m.no_w_id = tpcc_delivery.w_id AND m.no_d_id = d);\n"
	"        END LOOP;\n"
	"        CONTINUE WHEN no_o_id IS NULL;\n"
	"        UPDATE @S@.orders o SET o_carrier_id = carrier_id\n"
	"         WHERE o.o_w_id = tpcc_delivery.w_id AND o.o_d_id = d AND o.o_id = no_o_id\n"
	"        RETURNING o.o_c_id INTO customer;\n"
	"        WITH u AS (\n"
	"            UPDATE @S@.order_line ol SET ol_delivery_d = LOCALTIMESTAMP\n"
	"             WHERE ol.ol_w_id = tpcc_delivery.w_id AND ol.ol_d_id = d AND ol.ol_o_id = no_o_id\n"
	"            RETURNING ol.ol_amount)\n"
	"        SELECT pg_catalog.sum(u.ol_amount) INTO amount FROM u;\n"
	"        UPDATE @S@.customer c\n"
	"           SET c_balance = c.c_balance + amount, c_delivery_cnt = c.c_delivery_cnt + 1\n"
	"         WHERE c.c_w_id = tpcc_delivery.w_id AND c.c_d_id = d AND c.c_id = customer;\n"
	"        delivered := delivered + 1;\n"
	"    END LOOP;\n"
	"END\n"
	"$fn$\n",

	"CREATE OR REPLACE FUNCTION @S@.tpcc_stock_level(w_id integer, d_id integer, threshold integer,\n"
	"                                                OUT low_stock integer)\n"
	"LANGUAGE plpgsql VOLATILE\n"
	"AS $fn$\n"
	"DECLARE\n"
	"    next_o_id integer;\n"
	"BEGIN\n"
	"    SELECT d.d_next_o_id INTO next_o_id\n"
	"      FROM @S@.district d\n"
	"     WHERE d.d_w_id = tpcc_stock_level.w_id AND d.d_id = tpcc_stock_level.d_id;\n"
	"    -- the items of the district's last 20 orders whose stock is below the\n"
	"    -- threshold (clause 2.8.2.2)\n"
	"    SELECT pg_catalog.count(DISTINCT s.s_i_id) INTO low_stock\n"
	"      FROM @S@.order_line ol JOIN @S@.stock s ON s.s_i_id = ol.ol_i_id\n"
	"     WHERE ol.ol_w_id = tpcc_stock_level.w_id AND ol.ol_d_id = tpcc_stock_level.d_id\n"
	"       AND ol.ol_o_id >= next_o_id - 20 AND ol.ol_o_id < next_o_id\n"
	"       AND s.s_w_id = tpcc_stock_level.w_id AND s.s_quantity < threshold;\n"
	"END\n"
	"$fn$\n"
};

/*
 * bk_tpcc_functions_sql
 *		The CREATE OR REPLACE FUNCTION statements of the transactions in
 *		schema NSPNAME.  VERSION (the server's server_version_num) selects
 *		nothing yet: the same text runs on 14 to 18.
 */
List *
bk_tpcc_functions_sql(const char *nspname, int version)
{
	const char *schema = quote_identifier(nspname);
	List	   *result = NIL;

	(void) version;
	for (int i = 0; i < lengthof(tpcc_function_texts); i++)
	{
		const char *p = tpcc_function_texts[i];
		StringInfoData buf;

		initStringInfo(&buf);
		for (const char *at; (at = strstr(p, "@S@")) != NULL; p = at + 3)
		{
			appendBinaryStringInfo(&buf, p, at - p);
			appendStringInfoString(&buf, schema);
		}
		appendStringInfoString(&buf, p);
		result = lappend(result, buf.data);
	}
	return result;
}

/*
 * bench_tpcc_functions
 *		SQL function bench.tpcc_functions(schema, version) returns text[]:
 *		the statements that make the transactions' functions in SCHEMA, for
 *		a server of server_version_num VERSION (null: this one), for
 *		tables that another tool loaded (go-tpc prepare) or to send to a
 *		target (psql's \gexec).  bench.init('tpcc') makes them itself.
 */
Datum
bench_tpcc_functions(PG_FUNCTION_ARGS)
{
	const char *fn = "bench.tpcc_functions";
	char	   *schema;
	int			version;
	List	   *stmts;
	Datum	   *elems;
	int			i = 0;
	ListCell   *lc;

	bk_check_call(fcinfo, 2, fn);
	bk_arg_not_null(PG_ARGISNULL(0), fn, "schema");
	schema = text_to_cstring(PG_GETARG_TEXT_PP(0));
	if (schema[0] == '\0' || strlen(schema) >= NAMEDATALEN)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("schema must be 1 to %d bytes long", NAMEDATALEN - 1),
				 errhint("Name the schema that holds the TPC-C tables, as public.")));
	version = PG_ARGISNULL(1) ? PG_VERSION_NUM : PG_GETARG_INT32(1);
	if (version < 140000 || version >= 190000)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("version must be a server_version_num of PostgreSQL 14 to 18, not %d", version),
				 errhint("Give the target's server_version_num, as 170004, or null for this server.")));
	stmts = bk_tpcc_functions_sql(schema, version);
	elems = palloc(sizeof(Datum) * list_length(stmts));
	foreach(lc, stmts)
		elems[i++] = CStringGetTextDatum((char *) lfirst(lc));
	PG_RETURN_ARRAYTYPE_P(construct_array(elems, i, TEXTOID, -1, false, TYPALIGN_INT));
}
