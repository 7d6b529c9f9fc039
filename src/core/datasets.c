/*-------------------------------------------------------------------------
 *
 * datasets.c
 *		The kinds of dataset by name (datasets.h): the one list that
 *		\dataset, bench.define_workload, a run's look for its dataset and
 *		their messages read.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"

#include "core/datasets.h"

const BkDatasetInfo bk_dataset_infos[] = {
	{"tpcb", "a", "pgbench's tables", "pgbench_accounts", NULL, BK_SIZED_BY_RECORD,
	"Load one first with bench.init('tpcb', scale => N).", NULL, NULL},
	{"sysbench", "a", "sysbench's sbtest tables", "sbtest1", "sbtest", BK_SIZED_BY_TABLES,
	"Load one first with bench.init('sysbench', tables => N, table_size => M), or sysbench prepare.", NULL, NULL},
	{"ibench", "an", "the Insert Benchmark's pi tables", "pi1", "pi", BK_SIZED_BY_TABLES,
	"Make one first with bench.init('ibench', tables => N).", NULL, NULL},
	{"tpcc", "a", "TPC-C's nine tables", "warehouse", NULL, BK_SIZED_BY_WAREHOUSES,
	"Load one first with bench.init('tpcc', warehouses => W), or go-tpc tpcc prepare.",
	"(SELECT pg_catalog.jsonb_build_object('d_next_o_id', pg_catalog.sum(d.d_next_o_id))"
	" FROM %sdistrict d)",
	"{warehouse,district,customer,history,new_order,orders,order_line,item,stock}"},
};

const int	bk_ndataset_infos = lengthof(bk_dataset_infos);

/* the kind NAME, or NULL */
const BkDatasetInfo *
bk_dataset_info(const char *name)
{
	for (int i = 0; i < bk_ndataset_infos; i++)
		if (strcmp(bk_dataset_infos[i].name, name) == 0)
			return &bk_dataset_infos[i];
	return NULL;
}

/* "a" or "an" before NAME */
const char *
bk_dataset_article(const char *name)
{
	const BkDatasetInfo *info = bk_dataset_info(name);

	return info ? info->article : "a";
}

/* the names: "tpcb, sysbench, ibench or tpcc" */
char *
bk_dataset_names_text(void)
{
	StringInfoData s;

	initStringInfo(&s);
	for (int i = 0; i < bk_ndataset_infos; i++)
		appendStringInfo(&s, "%s%s", i == 0 ? "" : i == bk_ndataset_infos - 1 ? " or " : ", ",
						 bk_dataset_infos[i].name);
	return s.data;
}

/* the names and their tables: "\"tpcb\" (pgbench's tables), ... and \"tpcc\" (...)" */
char *
bk_dataset_kinds_text(void)
{
	StringInfoData s;

	initStringInfo(&s);
	for (int i = 0; i < bk_ndataset_infos; i++)
		appendStringInfo(&s, "%s\"%s\" (%s)", i == 0 ? "" : i == bk_ndataset_infos - 1 ? " and " : ", ",
						 bk_dataset_infos[i].name, bk_dataset_infos[i].tables);
	return s.data;
}
