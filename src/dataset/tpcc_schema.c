/*-------------------------------------------------------------------------
 *
 * tpcc_schema.c
 *		TPC-C's tables as go-tpc v1.0.12 makes them for PostgreSQL, their
 *		primary keys, go-tpc's two indexes and its foreign keys, and the
 *		tasks that build the keys and the statistics of a load in the
 *		server once its loaders have loaded (the kind's finish_tasks).
 *
 * The three largest tables are written unit by unit, each unit on pages
 * of its own (tpcc.c, heapfill.c): their primary keys are made empty with
 * the tables and filled from the pages without a sort (bk_tpcc_build_key).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/multixact.h"
#include "access/table.h"
#include "commands/vacuum.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/rel.h"

#include "core/compat.h"
#include "dataset/btbuild.h"
#include "dataset/dataset.h"
#include "dataset/init_steps.h"
#include "dataset/pagewriter.h"
#include "dataset/tpcc_schema.h"
#include "meta/catalog.h"

const char *const bk_tpcc_names[TC_NTABLES] = {
	"warehouse", "district", "customer", "history", "new_order", "orders",
	"order_line", "item", "stock"
};

/* go-tpc's CREATE TABLEs for PostgreSQL, the primary keys apart (tc_pkeys) */
static const char *const tc_columns[TC_NTABLES] = {
	"w_id INT NOT NULL,\n"
	"\tw_name VARCHAR(10),\n"
	"\tw_street_1 VARCHAR(20),\n"
	"\tw_street_2 VARCHAR(20),\n"
	"\tw_city VARCHAR(20),\n"
	"\tw_state CHAR(2),\n"
	"\tw_zip CHAR(9),\n"
	"\tw_tax DECIMAL(4, 4),\n"
	"\tw_ytd DECIMAL(12, 2)",

	"d_id INT NOT NULL,\n"
	"\td_w_id INT NOT NULL,\n"
	"\td_name VARCHAR(10),\n"
	"\td_street_1 VARCHAR(20),\n"
	"\td_street_2 VARCHAR(20),\n"
	"\td_city VARCHAR(20),\n"
	"\td_state CHAR(2),\n"
	"\td_zip CHAR(9),\n"
	"\td_tax DECIMAL(4, 4),\n"
	"\td_ytd DECIMAL(12, 2),\n"
	"\td_next_o_id INT",

	"c_id INT NOT NULL,\n"
	"\tc_d_id INT NOT NULL,\n"
	"\tc_w_id INT NOT NULL,\n"
	"\tc_first VARCHAR(16),\n"
	"\tc_middle CHAR(2),\n"
	"\tc_last VARCHAR(16),\n"
	"\tc_street_1 VARCHAR(20),\n"
	"\tc_street_2 VARCHAR(20),\n"
	"\tc_city VARCHAR(20),\n"
	"\tc_state CHAR(2),\n"
	"\tc_zip CHAR(9),\n"
	"\tc_phone CHAR(16),\n"
	"\tc_since TIMESTAMP,\n"
	"\tc_credit CHAR(2),\n"
	"\tc_credit_lim DECIMAL(12, 2),\n"
	"\tc_discount DECIMAL(4,4),\n"
	"\tc_balance DECIMAL(12,2),\n"
	"\tc_ytd_payment DECIMAL(12,2),\n"
	"\tc_payment_cnt INT,\n"
	"\tc_delivery_cnt INT,\n"
	"\tc_data VARCHAR(500)",

	"h_c_id INT NOT NULL,\n"
	"\th_c_d_id INT NOT NULL,\n"
	"\th_c_w_id INT NOT NULL,\n"
	"\th_d_id INT NOT NULL,\n"
	"\th_w_id INT NOT NULL,\n"
	"\th_date TIMESTAMP,\n"
	"\th_amount DECIMAL(6, 2),\n"
	"\th_data VARCHAR(24)",

	"no_o_id INT NOT NULL,\n"
	"\tno_d_id INT NOT NULL,\n"
	"\tno_w_id INT NOT NULL",

	"o_id INT NOT NULL,\n"
	"\to_d_id INT NOT NULL,\n"
	"\to_w_id INT NOT NULL,\n"
	"\to_c_id INT,\n"
	"\to_entry_d TIMESTAMP,\n"
	"\to_carrier_id INT,\n"
	"\to_ol_cnt INT,\n"
	"\to_all_local INT",

	"ol_o_id INT NOT NULL,\n"
	"\tol_d_id INT NOT NULL,\n"
	"\tol_w_id INT NOT NULL,\n"
	"\tol_number INT NOT NULL,\n"
	"\tol_i_id INT NOT NULL,\n"
	"\tol_supply_w_id INT,\n"
	"\tol_delivery_d TIMESTAMP,\n"
	"\tol_quantity INT,\n"
	"\tol_amount DECIMAL(6, 2),\n"
	"\tol_dist_info CHAR(24)",

	"i_id INT NOT NULL,\n"
	"\ti_im_id INT,\n"
	"\ti_name VARCHAR(24),\n"
	"\ti_price DECIMAL(5, 2),\n"
	"\ti_data VARCHAR(50)",

	"s_i_id INT NOT NULL,\n"
	"\ts_w_id INT NOT NULL,\n"
	"\ts_quantity INT,\n"
	"\ts_dist_01 CHAR(24),\n"
	"\ts_dist_02 CHAR(24),\n"
	"\ts_dist_03 CHAR(24),\n"
	"\ts_dist_04 CHAR(24),\n"
	"\ts_dist_05 CHAR(24),\n"
	"\ts_dist_06 CHAR(24),\n"
	"\ts_dist_07 CHAR(24),\n"
	"\ts_dist_08 CHAR(24),\n"
	"\ts_dist_09 CHAR(24),\n"
	"\ts_dist_10 CHAR(24),\n"
	"\ts_ytd INT,\n"
	"\ts_order_cnt INT,\n"
	"\ts_remote_cnt INT,\n"
	"\ts_data VARCHAR(50)",
};

/* the primary keys (none for history) */
static const char *const tc_pkeys[TC_NTABLES] = {
	"w_id", "d_w_id, d_id", "c_w_id, c_d_id, c_id", NULL,
	"no_w_id, no_d_id, no_o_id", "o_w_id, o_d_id, o_id",
	"ol_w_id, ol_d_id, ol_o_id, ol_number", "i_id", "s_w_id, s_i_id"
};

/* go-tpc's foreign keys: name, table, columns, referenced table and columns */
static const char *const tc_fkeys[][5] = {
	{"d_warehouse_fkey", "district", "d_w_id", "warehouse", "w_id"},
	{"c_district_fkey", "customer", "c_w_id, c_d_id", "district", "d_w_id, d_id"},
	{"h_customer_fkey", "history", "h_c_w_id, h_c_d_id, h_c_id", "customer", "c_w_id, c_d_id, c_id"},
	{"h_district_fkey", "history", "h_w_id, h_d_id", "district", "d_w_id, d_id"},
	{"no_order_fkey", "new_order", "no_w_id, no_d_id, no_o_id", "orders", "o_w_id, o_d_id, o_id"},
	{"o_customer_fkey", "orders", "o_w_id, o_d_id, o_c_id", "customer", "c_w_id, c_d_id, c_id"},
	{"ol_order_fkey", "order_line", "ol_w_id, ol_d_id, ol_o_id", "orders", "o_w_id, o_d_id, o_id"},
	{"ol_stock_fkey", "order_line", "ol_supply_w_id, ol_i_id", "stock", "s_w_id, s_i_id"},
	{"s_warehouse_fkey", "stock", "s_w_id", "warehouse", "w_id"},
	{"s_item_fkey", "stock", "s_i_id", "item", "i_id"},
};

char *
bk_tpcc_create_sql(const char *qualified, int t)
{
	return psprintf("CREATE TABLE %s (\n\t%s\n)", qualified, tc_columns[t]);
}


/* the tables, and the primary keys that bk_tpcc_build_key fills, empty */
void
bk_tpcc_create(const void *opts, const char *nspname, const char *prefix)
{
	for (int t = 0; t < TC_NTABLES; t++)
	{
		const char *table = quote_qualified_identifier(nspname,
													   psprintf("%s%s", prefix, bk_tpcc_names[t]));

		bk_spi_utility(bk_tpcc_create_sql(table, t));
		if (tc_by_units(t))
			bk_spi_utility(psprintf("ALTER TABLE %s ADD PRIMARY KEY (%s)", table, tc_pkeys[t]));
	}
}

/*
 * Every loader done: the visibility map of each table written by units,
 * every page all-visible and all-frozen, as the table AM leaves the others'
 * (before VACUUM, which would otherwise visit every page to set it)
 */
void
bk_tpcc_after_load(const void *opts, const Oid *leaves)
{
	for (int t = 0; t < TC_NTABLES; t++)
		if (tc_by_units(t))
		{
			Relation	rel = table_open(leaves[t], ShareLock);

			bk_write_vm_all_frozen(rel, RelationGetNumberOfBlocks(rel));
			table_close(rel, NoLock);
		}
}

/*
 * The keys and the statistics, one statement each: a table's primary key,
 * go-tpc's two indexes (idx_customer, idx_order), VACUUM ANALYZE
 */
typedef enum TcTaskKind
{
	TK_PKEY,					/* ALTER TABLE ... ADD PRIMARY KEY */
	TK_BUILD,					/* the key of a table written by units
								 * (tc_by_units), made empty with the table */
	TK_IDX_CUSTOMER,
	TK_IDX_ORDER,
	TK_VACUUM
} TcTaskKind;

typedef struct TcTask
{
	TcTaskKind	kind;
	TcTable		table;
} TcTask;

/*
 * Every task, the longest first, in the order the loaders take them.  The
 * times are of each one alone at 10 warehouses, with one process (VACUUM
 * ANALYZE of a table written by units skips its pages, which are frozen
 * and marked so in the map, and is then its ANALYZE).  A table's VACUUM and
 * its index builds wait for each other's lock.
 */
static const TcTask tc_finish_order[] = {
	{TK_BUILD, TT_ORDER_LINE},
	{TK_IDX_CUSTOMER, TT_CUSTOMER},
	{TK_VACUUM, TT_STOCK},
	{TK_VACUUM, TT_CUSTOMER},
	{TK_BUILD, TT_STOCK},
	{TK_IDX_ORDER, TT_ORDERS},
	{TK_VACUUM, TT_ORDER_LINE},
	{TK_PKEY, TT_ORDERS},
	{TK_BUILD, TT_CUSTOMER},
	{TK_VACUUM, TT_ITEM},
	{TK_VACUUM, TT_HISTORY},
	{TK_VACUUM, TT_ORDERS},
	{TK_PKEY, TT_NEW_ORDER},
	{TK_PKEY, TT_ITEM},
	{TK_VACUUM, TT_NEW_ORDER},
	{TK_PKEY, TT_DISTRICT},
	{TK_PKEY, TT_WAREHOUSE},
	{TK_VACUUM, TT_DISTRICT},
	{TK_VACUUM, TT_WAREHOUSE},
};

/*
 * The statement of TASK on the table NSPNAME.<PREFIX><table> (an index
 * named <PREFIX>idx_customer or <PREFIX>idx_order)
 */
static char *
tc_task_sql(const char *nspname, const char *prefix, TcTask task)
{
	const char *relname = psprintf("%s%s", prefix, bk_tpcc_names[task.table]);
	const char *table = quote_qualified_identifier(nspname, relname);

	switch (task.kind)
	{
		case TK_PKEY:
		case TK_BUILD:
			return psprintf("ALTER TABLE %s ADD PRIMARY KEY (%s)", table, tc_pkeys[task.table]);
		case TK_IDX_CUSTOMER:
			return psprintf("CREATE INDEX %s ON %s (c_w_id, c_d_id, c_last, c_first)",
							quote_identifier(psprintf("%sidx_customer", prefix)), table);
		case TK_IDX_ORDER:
			return psprintf("CREATE INDEX %s ON %s (o_w_id, o_d_id, o_c_id, o_id)",
							quote_identifier(psprintf("%sidx_order", prefix)), table);
		case TK_VACUUM:
			return bk_init_vacuum_sql(nspname, relname);
	}
	elog(ERROR, "unknown tpcc task %d", (int) task.kind);
	return NULL;
}

/*
 * The primary keys and go-tpc's two indexes, with final names (PREFIX
 * "") on a target, or with staged names among the loaders' tasks
 */
List *
bk_tpcc_keys_sql(const char *nspname, const char *prefix)
{
	List	   *stmts = NIL;

	for (int i = 0; i < lengthof(tc_finish_order); i++)
		if (tc_finish_order[i].kind != TK_VACUUM)
			stmts = lappend(stmts, tc_task_sql(nspname, prefix, tc_finish_order[i]));
	return stmts;
}

List *
bk_tpcc_foreign_keys_sql(const void *opts, const char *nspname)
{
	List	   *stmts = NIL;

	for (int i = 0; i < lengthof(tc_fkeys); i++)
		stmts = lappend(stmts, psprintf("ALTER TABLE %s ADD CONSTRAINT %s FOREIGN KEY (%s) REFERENCES %s (%s)",
										quote_qualified_identifier(nspname, tc_fkeys[i][1]),
										tc_fkeys[i][0], tc_fkeys[i][2],
										quote_qualified_identifier(nspname, tc_fkeys[i][3]),
										tc_fkeys[i][4]));
	return stmts;
}

void
bk_tpcc_run_all(List *stmts)
{
	ListCell   *lc;

	foreach(lc, stmts)
		bk_spi_utility((const char *) lfirst(lc));
}

List *
bk_tpcc_finish_tasks(const void *opts, const char *nspname, const char *prefix)
{
	List	   *tasks = NIL;

	for (int i = 0; i < lengthof(tc_finish_order); i++)
	{
		BkFinishTask *task = palloc0(sizeof(BkFinishTask));
		TcTask		t = tc_finish_order[i];

		task->table = t.table;
		if (t.kind == TK_BUILD)
			task->what = psprintf("bench.init: building the primary key of %s", bk_tpcc_names[t.table]);
		else
			task->sql = task->what = tc_task_sql(nspname, prefix, t);
		tasks = lappend(tasks, task);
	}
	return tasks;
}

/* the primary key of a table written by units, from its pages */
void
bk_tpcc_build_key(const void *opts, const Oid *leaves, int table, pg_atomic_uint32 *cancel)
{
	/* as CREATE INDEX: no writer, no VACUUM meanwhile */
	Relation	heap = table_open(leaves[table], ShareLock);
	List	   *indexes = RelationGetIndexList(heap);
	ListCell   *lc;
	Relation	key = NULL;
	int64		rows;

	foreach(lc, indexes)
	{
		Relation	index = index_open(lfirst_oid(lc), RowExclusiveLock);

		if (index->rd_index->indisprimary)
		{
			key = index;
			break;
		}
		index_close(index, RowExclusiveLock);
	}
	if (key == NULL)
		elog(ERROR, "table \"%s\" has no primary key", RelationGetRelationName(heap));
	rows = bk_bt_build_from_pages(heap, key, cancel);
	bk_update_relstats(key, RelationGetNumberOfBlocks(key), (double) rows, 0, false);
	index_close(key, NoLock);
	table_close(heap, NoLock);
}
