/*-------------------------------------------------------------------------
 *
 * lookup.c
 *		The dataset a workload's statements will find: the one in
 *		search_path, ready, of the kind the workload needs.  bench.run and
 *		bench.start (api/run.c) refuse a run without one before anything
 *		starts; the samples (observe/) name it in bench.runs.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "nodes/makefuncs.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "dataset/lookup.h"
#include "meta/catalog.h"

/*
 * bk_find_dataset
 *		The ready dataset whose tables the workload's statements will find
 *		through search_path: for tpcb, the one that made the pgbench_accounts
 *		of the first schema that has one; for sysbench, the one that made
 *		that schema's sbtest1.
 */
int64
bk_find_dataset(const char *workload, const char *dataset, int *scale)
{
	return bk_find_dataset_sizes(workload, dataset, scale, NULL, NULL);
}

/*
 * bk_find_dataset_sizes
 *		bk_find_dataset, and for sysbench and ibench its tables (and
 *		sysbench's table_size) into *TABLES and *TABLE_SIZE (when not NULL).
 *		Tables made by sysbench prepare or the Insert Benchmark itself (no
 *		record in bench.datasets) are taken as they are: their number is
 *		that of sbtest1, sbtest2, ... (pi1, pi2, ...) in the schema,
 *		sysbench's size sbtest1's largest id, and the dataset's id is 0.
 */
int64
bk_find_dataset_sizes(const char *workload, const char *dataset, int *scale,
					  int *tables, int *table_size)
{
	bool		ibench = strcmp(dataset, "ibench") == 0;
	bool		sysbench = strcmp(dataset, "sysbench") == 0;
	bool		tpcc = strcmp(dataset, "tpcc") == 0;
	const char *prefix = ibench ? "pi" : "sbtest";
	const char *key = sysbench ? "sbtest1" : ibench ? "pi1" : tpcc ? "warehouse" : "pgbench_accounts";
	Oid			relid;
	Oid			types[2] = {TEXTOID, OIDOID};
	Datum		values[2];
	int64		id = 0;

	relid = RangeVarGetRelid(makeRangeVar(NULL, pstrdup(key), -1), NoLock, true);
	if (!OidIsValid(relid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("workload \"%s\" needs %s %s dataset, and there is no %s in search_path",
						workload, ibench ? "an" : "a", dataset, key),
				 sysbench ?
				 errhint("Load one first with bench.init('sysbench', tables => N, table_size => M), or sysbench prepare.") :
				 ibench ?
				 errhint("Make one first with bench.init('ibench', tables => N).") :
				 tpcc ?
				 errhint("Load one first with bench.init('tpcc', warehouses => N), or go-tpc prepare.") :
				 errhint("Load one first with bench.init('%s', scale => N).", dataset)));
	values[0] = CStringGetTextDatum(dataset);
	values[1] = ObjectIdGetDatum(relid);
	bk_spi_connect();
	if (SPI_execute_with_args("SELECT id, scale, (options->>'tables')::int4, (options->>'table_size')::int4"
							  "  FROM bench.datasets"
							  " WHERE status = 'ready' AND workload = $1"
							  "   AND $2 OPERATOR(pg_catalog.=) ANY (tables::pg_catalog.oid[])"
							  " ORDER BY id DESC LIMIT 1",
							  2, types, values, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read bench.datasets");
	if (SPI_processed == 1)
	{
		HeapTuple	tup = SPI_tuptable->vals[0];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;

		id = DatumGetInt64(SPI_getbinval(tup, desc, 1, &isnull));
		*scale = DatumGetInt32(SPI_getbinval(tup, desc, 2, &isnull));
		if (tables)
		{
			Datum		d = SPI_getbinval(tup, desc, 3, &isnull);

			*tables = isnull ? 0 : DatumGetInt32(d);
		}
		if (table_size)
		{
			Datum		d = SPI_getbinval(tup, desc, 4, &isnull);

			*table_size = isnull ? 0 : DatumGetInt32(d);
		}
	}
	else if (sysbench || ibench)
	{
		/* sysbench prepare's (the Insert Benchmark's) own tables: counted, measured */
		Oid			nsp = get_rel_namespace(relid);
		char	   *nspname = get_namespace_name(nsp);
		Oid			ntypes[2] = {OIDOID, TEXTOID};
		Datum		nvalues[2] = {ObjectIdGetDatum(nsp), CStringGetTextDatum(prefix)};
		bool		isnull;
		int			n;

		if (SPI_execute_with_args("SELECT count(*)::int4 FROM pg_catalog.generate_series(1, 10000) AS i"
								  " WHERE EXISTS (SELECT 1 FROM pg_catalog.pg_class c"
								  "                WHERE c.relnamespace OPERATOR(pg_catalog.=) $1"
								  "                  AND c.relname OPERATOR(pg_catalog.=) ($2 OPERATOR(pg_catalog.||) i)"
								  "                  AND c.relkind OPERATOR(pg_catalog.=) ANY ('{r,p}'))",
								  2, ntypes, nvalues, NULL, true, 1) != SPI_OK_SELECT)
			elog(ERROR, "could not count the dataset's tables");
		n = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
		if (tables)
			*tables = n;
		if (table_size && sysbench)
		{
			if (SPI_execute(psprintf("SELECT coalesce(max(id), 0)::int4 FROM %s",
									 quote_qualified_identifier(nspname, "sbtest1")),
							true, 1) != SPI_OK_SELECT)
				elog(ERROR, "could not read the size of sysbench's tables");
			*table_size = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
		}
		*scale = 1;
		bk_spi_finish();
		return 0;
	}
	else if (tpcc)
	{
		/* TPC-C tables another tool loaded: as many warehouses as they have */
		bool		isnull;

		if (SPI_execute(psprintf("SELECT pg_catalog.count(*)::int4 FROM %s",
								 quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
															"warehouse")),
						true, 1) != SPI_OK_SELECT)
			elog(ERROR, "could not count the warehouses");
		*scale = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
		bk_spi_finish();
		return 0;
	}
	bk_spi_finish();
	if (id == 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("table \"%s.%s\" was not loaded by bench.init",
						get_namespace_name(get_rel_namespace(relid)), key),
				 errdetail("bench.run reads the scale and the dataset's identity from bench.datasets."),
				 errhint("Load the dataset with bench.init('%s', scale => N).", dataset)));
	return id;
}
