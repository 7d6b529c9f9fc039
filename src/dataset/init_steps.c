/*-------------------------------------------------------------------------
 *
 * init_steps.c
 *		The SQL steps of an in-server load that are the same for every kind
 *		and every worker: VACUUM ANALYZE as a top-level command, a
 *		transaction with SPI and a snapshot, and the renaming of what the
 *		staging names named when the tables are swapped in.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "commands/vacuum.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "parser/parse_node.h"
#include "parser/parser.h"
#include "pgstat.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "meta/catalog.h"
#include "dataset/init_steps.h"

/*
 * bk_init_vacuum_sql, bk_init_vacuum
 *		VACUUM ANALYZE of one table, run as a top-level command, the way
 *		pgbench runs it: VACUUM cannot run inside a function, but this
 *		worker's transactions are its own.
 */
char *
bk_init_vacuum_sql(const char *nspname, const char *relname)
{
	return psprintf("vacuum analyze %s.%s", quote_identifier(nspname), quote_identifier(relname));
}

void
bk_init_vacuum(const char *sql)
{
	RawStmt    *raw = linitial_node(RawStmt, raw_parser(sql, RAW_PARSE_DEFAULT));
	ParseState *pstate;
	MemoryContext portalcxt;

	portalcxt = AllocSetContextCreate(TopMemoryContext, "pgbenchkit vacuum",
									  ALLOCSET_DEFAULT_SIZES);
	PortalContext = portalcxt;
	StartTransactionCommand();
	pgstat_report_activity(STATE_RUNNING, sql);
	pstate = make_parsestate(NULL);
	pstate->p_sourcetext = sql;
	ExecVacuum(pstate, (VacuumStmt *) raw->stmt, true);
	CommitTransactionCommand();
	PortalContext = NULL;
	MemoryContextDelete(portalcxt);
}

/* begin a transaction with SPI and a snapshot, as worker_spi does */
void
bk_init_xact_begin(const char *activity)
{
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	bk_spi_connect();
	PushActiveSnapshot(GetTransactionSnapshot());
	pgstat_report_activity(STATE_RUNNING, activity);
}

void
bk_init_xact_commit(void)
{
	bk_spi_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();
	pgstat_report_activity(STATE_IDLE, NULL);
}

/*
 * init_run_generated
 *		Run every statement that QUERY (a SELECT of one text column)
 *		generates; WHAT names them in the error if the query fails.
 */
static void
init_run_generated(const char *query, const char *what)
{
	int			n;
	char	  **sql;

	if (SPI_execute(query, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not list the %s", what);
	n = (int) SPI_processed;
	sql = palloc(sizeof(char *) * (n + 1));
	for (int i = 0; i < n; i++)
		sql[i] = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);
	for (int i = 0; i < n; i++)
		bk_spi_utility(sql[i]);
}

/*
 * bk_init_rename_staged
 *		What is named after the staging tables gets its final name (the
 *		staging prefix replaced by FINAL_PREFIX): the indexes (for tpcb,
 *		the primary key of the accounts and of its partitions;
 *		renaming an index renames its constraint too), the sequences (a
 *		serial column's: sysbench's id), then the remaining
 *		constraints (from PostgreSQL 18 on, NOT NULL constraints have names
 *		made from the table's; renaming the parent's renames its
 *		partitions' inherited ones too).
 */
void
bk_init_rename_staged(Oid nspid, const char *prefix, const char *final_prefix)
{
	int			skip = (int) strlen(prefix) + 1;
	const char *like = quote_literal_cstr(psprintf("%s%%", prefix));
	const char *final = quote_literal_cstr(final_prefix);

	init_run_generated(psprintf("SELECT pg_catalog.format('alter index %%s rename to %%I',"
								" c.oid::pg_catalog.regclass,"
								" %s || pg_catalog.substr(c.relname, %d))"
								"  FROM pg_catalog.pg_class c"
								" WHERE c.relnamespace = %u AND c.relkind IN ('i', 'I')"
								"   AND c.relname LIKE %s"
								" ORDER BY c.oid", final, skip, nspid, like),
					   "indexes to rename");
	init_run_generated(psprintf("SELECT pg_catalog.format('alter sequence %%s rename to %%I',"
								" c.oid::pg_catalog.regclass,"
								" %s || pg_catalog.substr(c.relname, %d))"
								"  FROM pg_catalog.pg_class c"
								" WHERE c.relnamespace = %u AND c.relkind = 'S'"
								"   AND c.relname LIKE %s"
								" ORDER BY c.oid", final, skip, nspid, like),
					   "sequences to rename");
	init_run_generated(psprintf("SELECT pg_catalog.format('alter table %%s rename constraint %%I to %%I',"
								" c.conrelid::pg_catalog.regclass, c.conname,"
								" %s || pg_catalog.substr(c.conname, %d))"
								"  FROM pg_catalog.pg_constraint c"
								" WHERE c.conname LIKE %s AND c.conislocal"
								" ORDER BY c.oid", final, skip, like),
					   "constraints to rename");
}

