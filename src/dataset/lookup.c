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

#include "core/datasets.h"
#include "dataset/lookup.h"
#include "meta/catalog.h"

/*
 * bk_find_dataset
 *		The ready dataset whose tables the workload's statements will find
 *		through search_path: the one that made the first key table of its
 *		kind there (core/datasets.c: pgbench_accounts, sbtest1, pi1,
 *		warehouse).
 */
int64
bk_find_dataset(const char *workload, const char *dataset, int *scale)
{
	BkFoundDataset found;

	bk_find_dataset_found(workload, dataset, &found);
	*scale = found.scale;
	return found.id;
}

/* column COL of the first row SPI read, or DFLT when NULL */
static int
lookup_int(int col, int dflt)
{
	bool		isnull;
	Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, col, &isnull);

	return isnull ? dflt : DatumGetInt32(d);
}

/*
 * bk_find_dataset_found
 *		The dataset whose key table (core/datasets.c) the workload's
 *		statements find first in search_path, into *FOUND.  Tables made by
 *		their own tool (sysbench prepare, the Insert Benchmark, go-tpc
 *		prepare: no record in bench.datasets) are taken as they are: their
 *		number is that of sbtest1, sbtest2, ... (pi1, pi2, ...) in the
 *		schema, sysbench's size sbtest1's largest id, TPC-C's warehouses the
 *		rows of warehouse (its NURand constants unknown), and the dataset's
 *		id is 0.  pgbench's must have been loaded by bench.init.
 */
void
bk_find_dataset_found(const char *workload, const char *dataset, BkFoundDataset *found)
{
	const BkDatasetInfo *info = bk_dataset_info(dataset);
	Oid			relid;
	Oid			types[2] = {TEXTOID, OIDOID};
	Datum		values[2];

	if (info == NULL)
		elog(ERROR, "unknown kind of dataset \"%s\"", dataset);
	memset(found, 0, sizeof(*found));
	relid = RangeVarGetRelid(makeRangeVar(NULL, pstrdup(info->key_table), -1), NoLock, true);
	if (!OidIsValid(relid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("workload \"%s\" needs %s %s dataset, and there is no %s in search_path",
						workload, info->article, dataset, info->key_table),
				 errhint("%s", info->load_hint)));
	strlcpy(found->nspname, get_namespace_name(get_rel_namespace(relid)), NAMEDATALEN);
	values[0] = CStringGetTextDatum(dataset);
	values[1] = ObjectIdGetDatum(relid);
	bk_spi_connect();
	if (SPI_execute_with_args("SELECT id, scale, (options->>'tables')::int4, (options->>'table_size')::int4,"
							  "       (options->>'warehouses')::int4, (options->>'c_last')::int4,"
							  "       (options->>'c_id')::int4, (options->>'ol_i_id')::int4"
							  "  FROM bench.datasets"
							  " WHERE status = 'ready' AND workload = $1"
							  "   AND $2 OPERATOR(pg_catalog.=) ANY (tables::pg_catalog.oid[])"
							  " ORDER BY id DESC LIMIT 1",
							  2, types, values, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read bench.datasets");
	if (SPI_processed == 1)
	{
		bool		isnull;

		found->id = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
		found->scale = lookup_int(2, 1);
		found->tables = lookup_int(3, 0);
		found->table_size = lookup_int(4, 0);
		found->warehouses = lookup_int(5, 0);
		found->c_last = lookup_int(6, -1);
		found->c_id = lookup_int(7, -1);
		found->ol_i_id = lookup_int(8, -1);
		found->constants = found->c_last >= 0 && found->c_id >= 0 && found->ol_i_id >= 0;
		bk_spi_finish();
		return;
	}
	if (info->sizing == BK_SIZED_BY_TABLES)
	{
		/* sysbench prepare's (the Insert Benchmark's) own tables: counted, measured */
		Oid			nsp = get_rel_namespace(relid);
		char	   *nspname = get_namespace_name(nsp);
		Oid			ntypes[2] = {OIDOID, TEXTOID};
		Datum		nvalues[2] = {ObjectIdGetDatum(nsp), CStringGetTextDatum(info->prefix)};

		if (SPI_execute_with_args("SELECT count(*)::int4 FROM pg_catalog.generate_series(1, 10000) AS i"
								  " WHERE EXISTS (SELECT 1 FROM pg_catalog.pg_class c"
								  "                WHERE c.relnamespace OPERATOR(pg_catalog.=) $1"
								  "                  AND c.relname OPERATOR(pg_catalog.=) ($2 OPERATOR(pg_catalog.||) i)"
								  "                  AND c.relkind OPERATOR(pg_catalog.=) ANY ('{r,p}'))",
								  2, ntypes, nvalues, NULL, true, 1) != SPI_OK_SELECT)
			elog(ERROR, "could not count the dataset's tables");
		found->tables = lookup_int(1, 0);
		if (strcmp(dataset, "sysbench") == 0)
		{
			if (SPI_execute(psprintf("SELECT coalesce(max(id), 0)::int4 FROM %s",
									 quote_qualified_identifier(nspname, info->key_table)),
							true, 1) != SPI_OK_SELECT)
				elog(ERROR, "could not read the size of sysbench's tables");
			found->table_size = lookup_int(1, 0);
		}
		found->scale = 1;
		bk_spi_finish();
		return;
	}
	if (info->sizing == BK_SIZED_BY_WAREHOUSES)
	{
		/* go-tpc prepare's own tables: its warehouses counted */
		char	   *nspname = get_namespace_name(get_rel_namespace(relid));

		if (SPI_execute(psprintf("SELECT count(*)::int4 FROM %s",
								 quote_qualified_identifier(nspname, info->key_table)),
						true, 1) != SPI_OK_SELECT)
			elog(ERROR, "could not count the dataset's warehouses");
		found->warehouses = lookup_int(1, 0);
		bk_spi_finish();
		if (found->warehouses < 1)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("workload \"%s\" needs %s %s dataset, and table \"%s.%s\" is empty",
							workload, info->article, dataset, nspname, info->key_table),
					 errhint("%s", info->load_hint)));
		found->scale = found->warehouses;
		return;
	}
	bk_spi_finish();
	ereport(ERROR,
			(errcode(ERRCODE_UNDEFINED_TABLE),
			 errmsg("table \"%s.%s\" was not loaded by bench.init",
					get_namespace_name(get_rel_namespace(relid)), info->key_table),
			 errdetail("bench.run reads the scale and the dataset's identity from bench.datasets."),
			 errhint("Load the dataset with bench.init('%s', scale => N).", dataset)));
}
