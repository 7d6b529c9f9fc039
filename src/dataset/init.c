/*-------------------------------------------------------------------------
 *
 * init.c
 *		bench.init: create and load a workload's dataset inside the server,
 *		or on a target.
 *
 * This is the machinery every kind of dataset shares (dataset.h); what is
 * pgbench's own (its tables, options and loader) is in tpcb.c.  The steps
 * below name pgbench's tables for the example.
 *
 * The calling backend checks every argument, privilege and precondition,
 * then hands the work to an init coordinator (a dynamic background worker
 * connected as the calling role) and waits for it.  The coordinator:
 *
 *	1. reserves its loader workers (jobs => J) before changing anything;
 *	2. creates the tables under staging names (bench_load_<id>_<table>) and
 *	   records the dataset as 'loading', in one transaction;
 *	3. gives pgbench_accounts (or each range partition) its visibility map
 *	   (and, for J > 1, its final length), then fills pgbench_branches and
 *	   pgbench_tellers and writes the accounts' primary key itself while the
 *	   J loaders write their shares of the accounts pages (tpcb.c: a block
 *	   range of each leaf, or whole hash partitions with their keys);
 *	4. runs VACUUM ANALYZE on each table, as top-level commands;
 *	5. in one last transaction drops the dataset it replaces (force), gives
 *	   the tables their pgbench names, adds primary and foreign keys and
 *	   records the dataset as 'ready'.
 *
 * Until step 5 commits, the previous dataset is untouched and the new one
 * is invisible under its pgbench names, so a failure or cancel at any point
 * leaves things as they were: the coordinator drops the staging tables and
 * records the error, and if the coordinator itself is killed the next call
 * of a bench function does the same (bk_recover_orphans).
 *
 * With a target, the caller checks the target as well (it connects, and
 * looks at what is there), and the coordinator alone makes the dataset
 * there over libpq, as pgbench -i makes it (init_remote.c); it leaves
 * pgbench's messages in the segment, which the caller prints as NOTICEs
 * while it waits.  Records, cancel and cleanup are shared with the load
 * into this database.
 *
 * Rows are written frozen, as COPY FREEZE writes them.  The loaders run
 * in transactions of their own (they cannot share the coordinator's), which
 * is safe here because the tables still carry their staging names: nobody
 * reads them until they are complete, and they are dropped if the load
 * does not complete.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/namespace.h"
#include "catalog/partition.h"
#include "catalog/pg_authid.h"
#include "commands/vacuum.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "parser/parse_node.h"
#include "parser/parser.h"
#include "pgstat.h"
#include "portability/instr_time.h"
#include "postmaster/bgworker.h"
#include "storage/bufmgr.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "meta/catalog.h"
#include "core/compat.h"
#include "dataset/pagewriter.h"
#include "meta/runstate.h"
#include "dataset/dataset.h"
#include "dataset/ibench.h"
#include "dataset/sysbench.h"
#include "dataset/tpcb.h"
#include "dataset/tpcc.h"
#include "dataset/init_remote.h"
#include "dataset/init_steps.h"
#include "core/worker.h"
#include "core/pgbenchkit.h"
#include "meta/privilege.h"

PG_FUNCTION_INFO_V1(bench_init);
PGDLLEXPORT void bench_init_coordinator_main(Datum main_arg);
PGDLLEXPORT void bench_init_loader_main(Datum main_arg);

/* bgw_type of the workers, as pg_stat_activity.backend_type shows them */
#define INIT_COORDINATOR_TYPE	"pgbenchkit init"
#define INIT_LOADER_TYPE		"pgbenchkit loader"
#define INIT_MAGIC				BK_SEGMENT_MAGIC('I')

/* upper bound of jobs, whatever max_worker_processes allows */
#define INIT_MAX_JOBS			64

/* phases timed, in the order of bench.init_result (init_remote.h) */
#define PH_CREATE	BK_INIT_PH_CREATE
#define PH_LOAD		BK_INIT_PH_LOAD
#define PH_VACUUM	BK_INIT_PH_VACUUM
#define PH_PKEYS	BK_INIT_PH_PKEYS
#define PH_FKEYS	BK_INIT_PH_FKEYS
#define PH_COUNT	BK_INIT_PH_COUNT

/* NOTICEs the coordinator leaves for the caller: room for the last ones */
#define INIT_NOTICES	32
#define INIT_NOTICE_LEN	384

/* coordinator states, in order */
#define INIT_STARTING	0		/* loaders wait */
#define INIT_LOADING	1		/* loaders go */
#define INIT_DONE		2
#define INIT_FAILED		3
#define INIT_FINISHING	4		/* loaders build the keys (finish_tasks) */

/* one loader worker's share of the main table (pgbench_accounts) */
typedef struct InitLoader
{
	pg_atomic_uint64 rows;
	pg_atomic_uint32 done;		/* its transaction committed */
	pg_atomic_uint32 finished;	/* its share of the keys too */
	BkError		error;
} InitLoader;

/* the kinds of dataset bench.init loads */
static const BkDatasetKind *const dataset_kinds[] = {&bk_dataset_tpcb, &bk_dataset_sysbench, &bk_dataset_ibench, &bk_dataset_tpcc};

/* the shared segment of one bench.init call */
typedef struct InitShared
{
	uint32		magic;			/* INIT_MAGIC */

	/* set by the caller */
	char		kind[NAMEDATALEN];	/* BkDatasetKind.name */
	union
	{
		char		bytes[BK_DATASET_OPTIONS_SIZE];
		int64		align;
	}			opts;			/* the kind's options */
	Oid			dboid;
	Oid			roleid;
	Oid			nspid;
	char		nspname[NAMEDATALEN];
	char		rolename[NAMEDATALEN];
	char		options_json[512];
	bool		force;
	int			jobs;
	bool		direct_writes;	/* the caller's pgbenchkit.init_direct_writes */
	char		target[NAMEDATALEN];	/* the target's name; "" for this database */
	bool		server_side;	/* a target's rows made there (generate => 'server') */
	int			caller_pid;
	uint64		notices_printed;	/* read by the caller only */

	/* set by the coordinator */
	int			coordinator_pid;
	pg_atomic_uint32 state;
	pg_atomic_uint32 cancel;	/* set by the caller: stop and clean up */
	int64		dataset_id;
	int64		rows_loaded;
	double		secs[PH_COUNT];
	pg_atomic_uint64 next_unit;	/* the loaders' next unit (load_share) */
	pg_atomic_uint32 next_task;	/* the loaders' next key or VACUUM */
	pg_atomic_uint64 task_us[2];	/* their time in VACUUM ANALYZE, in keys */
	BkError		error;
	pg_atomic_uint64 notices_written;	/* NOTICEs written so far, the last in */
	char		notices[INIT_NOTICES][INIT_NOTICE_LEN];	/* a ring */
	int			nleaves;
	Oid			leaves[FLEXIBLE_ARRAY_MEMBER];	/* what the loaders fill */
} InitShared;

#define INIT_NLEAVES(sh) ((sh)->nleaves)
#define INIT_OPTS(sh) ((const void *) (sh)->opts.bytes)
/* after the leaves: the rows of each (hash leaves: counted by their loader) */
#define INIT_LEAF_ROWS(sh) \
	((int64 *) ((char *) (sh) + MAXALIGN(offsetof(InitShared, leaves) + \
										 sizeof(Oid) * INIT_NLEAVES(sh))))
/* then the loaders */
#define INIT_LOADERS(sh) \
	((InitLoader *) ((char *) INIT_LEAF_ROWS(sh) + MAXALIGN(sizeof(int64) * INIT_NLEAVES(sh))))

static Size
init_shared_size(int nleaves, int jobs)
{
	return MAXALIGN(offsetof(InitShared, leaves) + sizeof(Oid) * nleaves) +
		MAXALIGN(sizeof(int64) * nleaves) + sizeof(InitLoader) * jobs;
}

/* the kind named NAME, or NULL */
static const BkDatasetKind *
init_find_kind(const char *name)
{
	for (int i = 0; i < lengthof(dataset_kinds); i++)
		if (strcmp(dataset_kinds[i]->name, name) == 0)
			return dataset_kinds[i];
	return NULL;
}

/* the kind of the load in SH */
static const BkDatasetKind *
init_kind(const InitShared *sh)
{
	const BkDatasetKind *kind = init_find_kind(sh->kind);

	if (kind == NULL)
		elog(ERROR, "unknown dataset kind \"%s\"", sh->kind);
	return kind;
}

/* a table's name: PREFIX (the final or the staging one) and its suffix */
static char *
init_table_name(const BkDatasetKind *kind, const void *opts, const char *prefix, int t)
{
	return psprintf("%s%s", prefix, kind->table_suffix(opts, t));
}

/* the final name of the kind's main table (pgbench_accounts) */
static char *
init_main_table(const BkDatasetKind *kind, const void *opts)
{
	return init_table_name(kind, opts, kind->final_prefix, kind->main_table);
}

static double
elapsed_since(instr_time start)
{
	instr_time	now;

	INSTR_TIME_SET_CURRENT(now);
	INSTR_TIME_SUBTRACT(now, start);
	return INSTR_TIME_GET_DOUBLE(now);
}

/*
 * init_notice
 *		Leave MESSAGE for the caller, who prints it as a NOTICE (a load into
 *		a target says what pgbench -i prints).  The coordinator is the one
 *		writer.
 */
static void
init_notice(void *arg, const char *message)
{
	InitShared *sh = (InitShared *) arg;
	uint64		n = pg_atomic_read_u64(&sh->notices_written);

	bk_text_copy(sh->notices[n % INIT_NOTICES], message, INIT_NOTICE_LEN);
	pg_write_barrier();
	pg_atomic_write_u64(&sh->notices_written, n + 1);
	bk_set_latch_of(sh->caller_pid);
}

/*
 * init_print_notices
 *		In the caller, while it waits and once the wait is over: the
 *		coordinator's messages not printed yet, as NOTICEs.  Should the
 *		coordinator have written more than the ring holds since the last
 *		look, the oldest are skipped.
 */
static void
init_print_notices(void *arg)
{
	InitShared *sh = (InitShared *) arg;
	uint64		written = pg_atomic_read_u64(&sh->notices_written);

	pg_read_barrier();
	if (written - sh->notices_printed > INIT_NOTICES)
		sh->notices_printed = written - INIT_NOTICES;
	while (sh->notices_printed < written)
	{
		uint64		i = sh->notices_printed++;
		char		line[INIT_NOTICE_LEN];

		memcpy(line, sh->notices[i % INIT_NOTICES], INIT_NOTICE_LEN);
		line[INIT_NOTICE_LEN - 1] = '\0';
		pg_read_barrier();
		/* overwritten while it was copied */
		if (pg_atomic_read_u64(&sh->notices_written) - i > INIT_NOTICES)
			continue;
		ereport(NOTICE, (errmsg_internal("%s", line)));
	}
}

/* ------------------------------------------------------------------------
 * Checks shared by the caller (before anything starts) and the coordinator
 * (again, under its own snapshot, right before it drops anything).
 * ------------------------------------------------------------------------
 */

/*
 * init_existing_tables
 *		The tables of KIND that already exist in NSPID under their final
 *		names.  Refuses unless FORCE is set and every one of them was created
 *		by bench.init and is owned by ROLEID.  Returns their OIDs (the ones
 *		to drop), with the other tables of the datasets they belong to (a
 *		dataset is replaced whole), palloc'd in *relids_out.
 */
static int
init_existing_tables(const BkDatasetKind *kind, const void *opts, Oid nspid,
					 const char *nspname, Oid roleid, bool force, Oid **relids_out)
{
	int			n = 0;
	int			nchildren = kind->nchildren(opts);
	Oid		   *relids = palloc(sizeof(Oid) * kind->ntables(opts));
	Oid		   *others;
	int			nothers;

	*relids_out = relids;

	for (int t = 0; t < kind->ntables(opts); t++)
	{
		char	   *name = init_table_name(kind, opts, kind->final_prefix, t);
		Oid			relid = get_relname_relid(name, nspid);

		if (!OidIsValid(relid))
			continue;
		if (!force)
			ereport(ERROR,
					(errcode(ERRCODE_DUPLICATE_TABLE),
					 errmsg("table \"%s.%s\" already exists", nspname, name),
					 errhint("Call bench.init with force => true to replace a dataset it made before.")));
		if (!bk_dataset_owns_table(relid))
			ereport(ERROR,
					(errcode(ERRCODE_DUPLICATE_TABLE),
					 errmsg("table \"%s.%s\" was not created by bench.init", nspname, name),
					 errdetail("With force => true, bench.init drops only tables it created itself."),
					 errhint("Drop the table yourself, or load into another schema by putting it first in search_path.")));
		if (!bk_rel_ownercheck(relid, roleid))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("must be owner of table \"%s.%s\" to replace it", nspname, name),
					 errhint("Call bench.init as the role that loaded the dataset.")));
		relids[n++] = relid;
	}

	/* the new tables' children (partitions) must not clash with other tables */
	for (int c = 0; c < nchildren; c++)
	{
		char	   *name = psprintf("%s%s", kind->final_prefix, kind->child_suffix(opts, c));
		Oid			relid = get_relname_relid(name, nspid);
		Oid			parent;

		if (!OidIsValid(relid))
			continue;
		parent = get_rel_relispartition(relid) ? get_partition_parent(relid, true) : InvalidOid;
		for (int i = 0; i < n; i++)
			if (relids[i] == parent)
				goto dropped_with_parent;
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_TABLE),
				 errmsg("table \"%s.%s\" already exists", nspname, name),
				 errdetail("It would clash with partition %d of the new %s.", c + 1,
						   init_main_table(kind, opts)),
				 errhint("Drop or rename that table, or choose fewer partitions.")));
dropped_with_parent:
		;
	}

	/* the rest of the datasets replaced (their tables this one does not make) */
	if (n == 0)
		return 0;
	others = bk_dataset_other_tables(relids, n, &nothers);
	if (nothers == 0)
		return n;
	relids = repalloc(relids, sizeof(Oid) * (n + nothers));
	*relids_out = relids;
	for (int i = 0; i < nothers; i++)
	{
		if (!bk_rel_ownercheck(others[i], roleid))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("must be owner of table \"%s.%s\" to replace the dataset it belongs to",
							nspname, get_rel_name(others[i])),
					 errhint("Call bench.init as the role that loaded the dataset.")));
		relids[n++] = others[i];
	}
	return n;
}

/* ------------------------------------------------------------------------
 * The calling backend
 * ------------------------------------------------------------------------
 */

#define ARG_NOT_NULL(n, name)	bk_arg_not_null(PG_ARGISNULL(n), "bench.init", (name))

/*
 * init_check_disk
 *		Refuse a dataset that cannot fit in the free space of the data
 *		directory's file system (when that can be read at all), saying
 *		what sized it in the words of its kind's options.
 */
static void
init_check_disk(const BkDatasetKind *kind, const void *opts)
{
	struct statvfs fs;
	uint64		need = kind->estimate_bytes(opts);
	uint64		avail;

	if (statvfs(DataDir, &fs) != 0)
		return;
	avail = (uint64) fs.f_bavail * fs.f_frsize;
	if (need > avail)
		ereport(ERROR,
				(errcode(ERRCODE_DISK_FULL),
				 errmsg("%s needs about %llu MB of disk, but only %llu MB are free",
						kind->size_words(opts),
						(unsigned long long) (need / (1024 * 1024)),
						(unsigned long long) (avail / (1024 * 1024))),
				 errhint("%s", kind->smaller_hint)));
}

/*
 * init_direct_writes
 *		Whether the load writes its pages around the page cache: as
 *		pgbenchkit.init_direct_writes says, or with 'auto' when the dataset
 *		is larger than a quarter of the machine's memory.
 *
 * A dataset that fits in the page cache is better written through it:
 * VACUUM ANALYZE, which samples up to 30000 blocks of each table right
 * after the load, and the prewarm of the first run read it back from
 * memory instead of disk (at scales 10 to 50 that was most of the
 * difference, docs/performance.md).  A larger one would push everything
 * else out of the cache and be written out by the kernel anyway, and
 * copying it into fresh memory costs more than the write where memory is
 * slow to come by.
 */
static bool
init_direct_writes(const BkDatasetKind *kind, const void *opts)
{
	long		pages;
	long		pagesize;

	if (bk_init_direct_writes != BK_DIRECT_WRITES_AUTO)
		return bk_init_direct_writes == BK_DIRECT_WRITES_ON;
	pages = sysconf(_SC_PHYS_PAGES);
	pagesize = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || pagesize <= 0)
		return false;
	return kind->estimate_bytes(opts) > (uint64) pages * (uint64) pagesize / 4;
}

/*
 * init_request_cancel
 *		Error or exit of the caller while it waits: tell the coordinator to
 *		stop and clean up.
 */
static void
init_request_cancel(int code, Datum arg)
{
	InitShared *sh = (InitShared *) DatumGetPointer(arg);

	/* a dead postmaster ends every process; the next call cleans up */
	if (!bk_postmaster_alive())
		return;
	pg_atomic_write_u32(&sh->cancel, 1);
	bk_set_latch_of(sh->coordinator_pid);
}

/* whether the coordinator has finished, one way or the other */
static bool
init_finished(void *arg)
{
	uint32		state = pg_atomic_read_u32(&((InitShared *) arg)->state);

	return state == INIT_DONE || state == INIT_FAILED;
}

/*
 * init_result
 *		The row bench.init returns, from what the coordinator reported.
 */
static Datum
init_result(FunctionCallInfo fcinfo, InitShared *sh, const char *workload)
{
	TupleDesc	tupdesc;
	Datum		values[10];
	bool		nulls[10] = {0};
	double		total = 0;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	values[0] = Int64GetDatum(sh->dataset_id);
	values[1] = CStringGetTextDatum(workload);
	values[2] = Int32GetDatum(init_kind(sh)->scale(INIT_OPTS(sh)));
	values[3] = Int64GetDatum(sh->rows_loaded);
	for (int i = 0; i < PH_COUNT; i++)
	{
		values[4 + i] = Float8GetDatum(sh->secs[i]);
		total += sh->secs[i];
	}
	values[9] = Float8GetDatum(round(total * 1000.0) / 1000.0);
	return HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, nulls));
}

/*
 * The coordinator of a load, started by bench_init.  One that could not
 * start, or was killed before it could say why, leaves staging tables that
 * cannot be dropped here (the caller's transaction ends in the error); the
 * next bench.init drops them (bk_recover_orphans).
 */
static const BkLaunch init_coordinator_launch = {
	.type = INIT_COORDINATOR_TYPE,
	.function = "bench_init_coordinator_main",
	.what = "the init worker",
	.ready = init_finished,
	.cancel = init_request_cancel,
	.interval_ms = 1000,
	.stopped = "the init worker stopped before it finished",
	.stopped_hint = "It may have been terminated; the server log says more. The tables it left under staging names are dropped by the next bench.init.",
	.each = init_print_notices,
};

/*
 * bench_init
 *		SQL function bench.init(workload, scale, fillfactor, partitions,
 *		partition_method, unlogged, foreign_keys, jobs, force, target,
 *		generate, tables, table_size): the kind of dataset the workload
 *		names reads its options from them.  With a target, the dataset is made there over libpq
 *		(init_remote.c); its connection and what is there are checked here
 *		first.  (0.1.0's SQL function has no target and generate.)
 */
Datum
bench_init(PG_FUNCTION_ARGS)
{
	BkInitArgs	args;
	const BkDatasetKind *kind;
	char		opts[BK_DATASET_OPTIONS_SIZE] pg_attribute_aligned(MAXIMUM_ALIGNOF);
	char	   *workload;
	int			jobs;
	bool		force;
	Oid			nspid;
	char	   *nspname;
	Oid		   *existing;
	int			nleaves;
	StringInfoData json;
	bool		direct_writes;
	char	   *target = NULL;
	char	   *generate = NULL;
	BkRemoteLoad remote;
	dsm_segment *seg;
	InitShared *sh;

	/* 0.1.0's SQL function has 9 arguments, 0.2.0's 13 (no warehouses) */
	if (PG_NARGS() != 9 && PG_NARGS() != 13)
		bk_check_call(fcinfo, 14, "bench.init");
	/* --- arguments, all before anything happens --- */
	ARG_NOT_NULL(0, "workload");
	ARG_NOT_NULL(1, "scale");
	ARG_NOT_NULL(2, "fillfactor");
	ARG_NOT_NULL(3, "partitions");
	ARG_NOT_NULL(5, "unlogged");
	ARG_NOT_NULL(6, "foreign_keys");
	ARG_NOT_NULL(7, "jobs");
	ARG_NOT_NULL(8, "force");

	workload = text_to_cstring(PG_GETARG_TEXT_PP(0));
	memset(&args, 0, sizeof(args));
	args.scale = PG_GETARG_INT32(1);
	args.fillfactor = PG_GETARG_INT32(2);
	args.partitions = PG_GETARG_INT32(3);
	args.partition_method = PG_ARGISNULL(4) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(4));
	args.unlogged = PG_GETARG_BOOL(5);
	args.foreign_keys = PG_GETARG_BOOL(6);
	jobs = PG_GETARG_INT32(7);
	force = PG_GETARG_BOOL(8);
	if (PG_NARGS() >= 13 && !PG_ARGISNULL(9))
		target = text_to_cstring(PG_GETARG_TEXT_PP(9));
	if (PG_NARGS() >= 13 && !PG_ARGISNULL(10))
		generate = text_to_cstring(PG_GETARG_TEXT_PP(10));
	args.tables = (PG_NARGS() >= 13 && !PG_ARGISNULL(11)) ? PG_GETARG_INT32(11) : 0;
	args.table_size = (PG_NARGS() >= 13 && !PG_ARGISNULL(12)) ? PG_GETARG_INT32(12) : 0;
	args.tables_given = PG_NARGS() >= 13 && !PG_ARGISNULL(11);
	args.table_size_given = PG_NARGS() >= 13 && !PG_ARGISNULL(12);
	args.warehouses = (PG_NARGS() >= 14 && !PG_ARGISNULL(13)) ? PG_GETARG_INT32(13) : 0;
	args.warehouses_given = PG_NARGS() >= 14 && !PG_ARGISNULL(13);

	kind = init_find_kind(workload);
	if (kind == NULL)
	{
		StringInfoData kinds;

		initStringInfo(&kinds);
		for (int i = 0; i < lengthof(dataset_kinds); i++)
			appendStringInfo(&kinds, "%s\"%s\" (%s)", i == 0 ? "" : ", ",
							 dataset_kinds[i]->name, dataset_kinds[i]->serves);
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown workload \"%s\"", workload),
				 lengthof(dataset_kinds) == 1 ?
				 errhint("The workload with a dataset to load is %s.", kinds.data) :
				 errhint("The workloads with a dataset to load are %s.", kinds.data)));
	}
	memset(opts, 0, sizeof(opts));
	kind->read_options(&args, opts);
	if (generate != NULL && strcmp(generate, "client") != 0 && strcmp(generate, "server") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown generate method \"%s\"", generate),
				 errhint("Use \"client\" (the rows are sent with COPY, as pgbench -I dtgvp) or \"server\" (the target makes them with INSERT ... SELECT, as pgbench -I dtGvp).")));
	if (generate != NULL && target == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("generate => '%s' needs a target", generate),
				 errdetail("Without a target, bench.init writes the rows inside this server itself."),
				 errhint("Give target => 'name' to load into a target, or leave generate out.")));
	if (target != NULL && kind->table_sql == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("workload \"%s\" cannot be loaded into a target", workload),
				 errhint("Load it into this database: leave target out.")));
	if (generate != NULL && strcmp(generate, "server") == 0 && kind->insert_sql == NULL &&
		kind->nfilled(opts) > 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("workload \"%s\" cannot be generated by the target", workload),
				 errdetail("Its rows are made here and sent with COPY."),
				 errhint("Leave generate out, or use generate => 'client'.")));
	if (target != NULL && jobs > 1)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("jobs => %d cannot load into a target", jobs),
				 errdetail("A target is loaded over one connection, one table after another with COPY."),
				 errhint("Leave jobs out (1) with a target.")));
	if (jobs < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("jobs must be at least 1, not %d", jobs),
				 errhint("jobs is the number of background workers that load %s.",
						 init_main_table(kind, opts))));
	if (jobs > INIT_MAX_JOBS || BK_INIT_WORKERS(jobs) > max_worker_processes)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("jobs => %d needs %lld background workers, but max_worker_processes is %d",
						jobs, (long long) BK_INIT_WORKERS(jobs), max_worker_processes),
				 errhint("Use at most %d jobs here, or raise max_worker_processes and restart the server.",
						 Max(0, Min(INIT_MAX_JOBS, max_worker_processes - 1)))));
	bk_check_role_workers("bench.init", target ? 1 : BK_INIT_WORKERS(jobs), true);
	if (target == NULL)
		init_check_disk(kind, opts);

	/* --- where, and whether this role may --- */
	nspid = InvalidOid;
	nspname = NULL;
	if (target == NULL)
	{
		nspid = RangeVarGetCreationNamespace(makeRangeVar(NULL, init_main_table(kind, opts), -1));
		nspname = get_namespace_name(nspid);
		if (bk_namespace_aclcheck(nspid, GetUserId(), ACL_CREATE) != ACLCHECK_OK)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("permission denied to create tables in schema \"%s\"", nspname),
					 errhint("GRANT CREATE ON SCHEMA %s to this role, or put a schema it may create in first in search_path.",
							 quote_identifier(nspname))));
	}
#if BK_NEEDS_LOGIN_ROLE
	{
		HeapTuple	tup = SearchSysCache1(AUTHOID, ObjectIdGetDatum(GetUserId()));
		bool		canlogin = HeapTupleIsValid(tup) && ((Form_pg_authid) GETSTRUCT(tup))->rolcanlogin;

		if (HeapTupleIsValid(tup))
			ReleaseSysCache(tup);
		if (!canlogin)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("role \"%s\" cannot start background workers because it cannot log in",
							GetUserNameFromId(GetUserId(), false)),
					 errhint("Call bench.init as a role with LOGIN; the workers connect as the calling role.")));
	}
#endif
	if (IsTransactionBlock())
		ereport(ERROR,
				(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				 errmsg("bench.init cannot run inside a transaction block"),
				 errhint("It commits its work in background workers; call it on its own, outside BEGIN ... COMMIT.")));
	if (target == NULL)
	{
		int			nexisting = init_existing_tables(kind, opts, nspid, nspname, GetUserId(),
														 force, &existing);

		/* a run on the dataset to replace: refused now, not deadlocked at the swap */
		bk_refuse_busy_tables(existing, nexisting);
	}
	else
	{
		/* the target: USAGE, user mapping, password, connection, what is there */
		memset(&remote, 0, sizeof(remote));
		remote.kind = kind;
		remote.opts = opts;
		remote.target = target;
		remote.force = force;
		bk_remote_open(&remote, INIT_COORDINATOR_TYPE);
		bk_remote_close(&remote);
		nspname = remote.schema;
	}

	/* --- hand the work to the coordinator and wait --- */
	nleaves = kind->nleaves(opts);
	seg = dsm_create(init_shared_size(nleaves, jobs), 0);
	sh = (InitShared *) dsm_segment_address(seg);
	memset(sh, 0, init_shared_size(nleaves, jobs));
	sh->magic = INIT_MAGIC;
	strlcpy(sh->kind, kind->name, NAMEDATALEN);
	memcpy(sh->opts.bytes, opts, BK_DATASET_OPTIONS_SIZE);
	sh->nleaves = nleaves;
	sh->dboid = MyDatabaseId;
	sh->roleid = GetUserId();
	sh->nspid = nspid;
	strlcpy(sh->nspname, nspname, NAMEDATALEN);
	strlcpy(sh->rolename, GetUserNameFromId(GetUserId(), false), NAMEDATALEN);
	initStringInfo(&json);
	appendStringInfoChar(&json, '{');
	kind->options_json(opts, &json);
	direct_writes = target == NULL && init_direct_writes(kind, opts);
	if (target == NULL)
		appendStringInfo(&json, ", \"jobs\": %d, \"force\": %s, \"direct_writes\": %s}",
						 jobs, force ? "true" : "false", direct_writes ? "true" : "false");
	else
	{
		/* the tables on the target (their partitions go with them) */
		appendStringInfo(&json, ", \"jobs\": %d, \"force\": %s, \"generate\": \"%s\", \"target_tables\": [",
						 jobs, force ? "true" : "false", generate ? generate : "client");
		for (int t = 0; t < kind->ntables(opts); t++)
		{
			if (t > 0)
				appendStringInfoString(&json, ", ");
			escape_json(&json, quote_qualified_identifier(nspname,
														  init_table_name(kind, opts, kind->final_prefix, t)));
		}
		appendStringInfoString(&json, "]}");
	}
	if (json.len >= sizeof(sh->options_json))
		elog(ERROR, "the options of the dataset are too long");
	strlcpy(sh->options_json, json.data, sizeof(sh->options_json));
	sh->direct_writes = direct_writes;
	if (target != NULL)
		strlcpy(sh->target, target, NAMEDATALEN);
	sh->server_side = generate != NULL && strcmp(generate, "server") == 0;
	sh->force = force;
	sh->jobs = jobs;
	sh->caller_pid = MyProcPid;
	pg_atomic_init_u32(&sh->state, INIT_STARTING);
	pg_atomic_init_u32(&sh->cancel, 0);
	pg_atomic_init_u64(&sh->notices_written, 0);
	pg_atomic_init_u64(&sh->next_unit, 0);
	pg_atomic_init_u32(&sh->next_task, 0);
	pg_atomic_init_u64(&sh->task_us[0], 0);
	pg_atomic_init_u64(&sh->task_us[1], 0);
	for (int i = 0; i < jobs; i++)
	{
		pg_atomic_init_u64(&INIT_LOADERS(sh)[i].rows, 0);
		pg_atomic_init_u32(&INIT_LOADERS(sh)[i].done, 0);
		pg_atomic_init_u32(&INIT_LOADERS(sh)[i].finished, 0);
	}

	/* a load into a target is the coordinator's alone */
	(void) bk_launch(&init_coordinator_launch, seg, sh,
					 target ? "bench.init with a target" : psprintf("bench.init with jobs => %d", jobs),
					 target ? 1 : BK_INIT_WORKERS(jobs));
	init_print_notices(sh);

	if (pg_atomic_read_u32(&sh->state) == INIT_FAILED)
		bk_error_raise(&sh->error);

	{
		Datum		result = init_result(fcinfo, sh, workload);

		dsm_detach(seg);
		PG_RETURN_DATUM(result);
	}
}

/* ------------------------------------------------------------------------
 * The coordinator
 * ------------------------------------------------------------------------
 */

/* stop with an error if the caller asked us to */
static void
init_check_cancel(InitShared *sh)
{
	CHECK_FOR_INTERRUPTS();
	if (pg_atomic_read_u32(&sh->cancel) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_QUERY_CANCELED),
				 errmsg("bench.init was canceled")));
}

/* the staging prefix of the load's tables, in PREFIX (NAMEDATALEN) */
static void
init_prefix(const InitShared *sh, char *prefix)
{
	snprintf(prefix, NAMEDATALEN, "bench_load_" INT64_FORMAT "_", sh->dataset_id);
}

/* this worker's page images compressed with lz4 (init_worker_settings) */
static void
init_compress_wal(void)
{
#if PG_VERSION_NUM >= 150000 && defined(USE_LZ4)
	if (wal_compression == WAL_COMPRESSION_NONE)
		SetConfigOption("wal_compression", "lz4", PGC_SUSET, PGC_S_SESSION);
#endif
}

/*
 * init_finish_share
 *		A loader, its rows committed, for a kind whose keys the loaders
 *		build: wait until every loader has loaded (the coordinator then says
 *		INIT_FINISHING), then take the next of the tasks until none is left,
 *		each in a transaction of its own (or VACUUM's own), and say so.
 *		Stops without a word if the load fails or is canceled meanwhile.
 */
static void
init_finish_share(InitShared *sh, const BkDatasetKind *kind, InitLoader *ld)
{
	char		prefix[NAMEDATALEN];
	List	   *tasks;
	uint32		state;

	while ((state = pg_atomic_read_u32(&sh->state)) == INIT_LOADING)
	{
		if (pg_atomic_read_u32(&sh->cancel))
			return;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 10L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	if (state != INIT_FINISHING)
		return;
	pg_read_barrier();
	if (kind->random_pages)
		init_compress_wal();
	init_prefix(sh, prefix);
	tasks = kind->finish_tasks(INIT_OPTS(sh), sh->nspname, prefix);
	for (;;)
	{
		uint32		i = pg_atomic_fetch_add_u32(&sh->next_task, 1);
		const BkFinishTask *task;
		instr_time	start;
		instr_time	duration;
		bool		vacuum;

		if (i >= (uint32) list_length(tasks) || pg_atomic_read_u32(&sh->cancel))
			break;
		task = (const BkFinishTask *) list_nth(tasks, (int) i);
		vacuum = task->sql != NULL && strncmp(task->sql, "vacuum ", 7) == 0;
		INSTR_TIME_SET_CURRENT(start);
		if (vacuum)
			bk_init_vacuum(task->sql);
		else
		{
			bk_init_xact_begin(task->what);
			if (task->sql != NULL)
				bk_spi_utility(task->sql);
			else
				kind->build_key(INIT_OPTS(sh), sh->leaves, task->table, &sh->cancel);
			bk_init_xact_commit();
		}
		INSTR_TIME_SET_CURRENT(duration);
		INSTR_TIME_SUBTRACT(duration, start);
		pg_atomic_fetch_add_u64(&sh->task_us[vacuum ? 0 : 1], INSTR_TIME_GET_MICROSEC(duration));
	}
	pg_write_barrier();
	pg_atomic_write_u32(&ld->finished, 1);
}

/*
 * init_wait_loaders
 *		Wait until every loader committed its rows (or, FINISHED, its share
 *		of the keys too); raise the first loader error, or an error for a
 *		loader that vanished, or for a cancel.
 */
static void
init_wait_loaders(InitShared *sh, BackgroundWorkerHandle **loaders, bool finished)
{
	for (;;)
	{
		int			done = 0;

		init_check_cancel(sh);
		for (int i = 0; i < sh->jobs; i++)
		{
			InitLoader *ld = &INIT_LOADERS(sh)[i];

			pg_atomic_uint32 *flag = finished ? &ld->finished : &ld->done;

			if (ld->error.set)
				bk_error_raise(&ld->error);
			if (pg_atomic_read_u32(flag))
				done++;
			else if (!bk_worker_alive(loaders[i]))
			{
				pg_read_barrier();
				if (ld->error.set)
					bk_error_raise(&ld->error);
				if (!pg_atomic_read_u32(flag))
					ereport(ERROR,
							(errcode(ERRCODE_ADMIN_SHUTDOWN),
							 errmsg("loader worker %d exited before it finished", i),
							 errhint("It may have been terminated; the server log says more.")));
				done++;
			}
		}
		if (done == sh->jobs)
			return;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/*
 * init_worker_settings
 *		This worker's settings: pgbenchkit.init_direct_writes on or off, as
 *		the caller chose for this load;
 *		the page images it logs compressed with lz4, when the server has lz4
 *		and wal_compression is off; deeper prefetching for ANALYZE, when
 *		maintenance_io_concurrency is at its default.
 *
 * Nearly all of bench.init's WAL is whole pages of new rows (the loaders')
 * and of the new primary keys, and pgbench's rows are mostly blank
 * fillers: lz4 makes that WAL about six times smaller for little CPU, and
 * on most machines writing WAL is what loading waits for.  TPC-C's rows
 * are mostly random text (random_pages): lz4 took 13% of a load's CPU and
 * left its WAL as large (749 MB at 10 warehouses either way), so its
 * loaders compress only the pages of the keys they build after the load
 * (init_finish_share).  Tables written
 * around the page cache are not in it when VACUUM ANALYZE samples them (up
 * to 30000 blocks, scattered): with 256 reads ahead instead of 10, that
 * took 0.44 s instead of 0.73 s at scale 50.  The settings are this
 * worker's own; values the administrator chose are kept.
 */
static void
init_worker_settings(InitShared *sh)
{
	const BkDatasetKind *kind = init_kind(sh);

	SetConfigOption("pgbenchkit.init_direct_writes", sh->direct_writes ? "on" : "off",
					PGC_USERSET, PGC_S_SESSION);
#ifdef USE_PREFETCH
	if (maintenance_io_concurrency == DEFAULT_MAINTENANCE_IO_CONCURRENCY)
		SetConfigOption("maintenance_io_concurrency", "256", PGC_USERSET, PGC_S_SESSION);
#endif
	if (!kind->random_pages)
		init_compress_wal();
}

/*
 * init_unlock
 *		Let go of the load's locks (one load per schema, or per target) once
 *		its end is settled and before the caller hears of it: a caller that
 *		starts the next bench.init at once must not find them still held
 *		by this worker, which exits a moment later.
 */
static void
init_unlock(void)
{
	LockReleaseAll(USER_LOCKMETHOD, true);
}

/*
 * init_coordinate
 *		Everything the coordinator does on the way to success.  Errors are
 *		raised; bench_init_coordinator_main cleans up after them.  TABLES
 *		(the kind's, in its order) are filled as they are created.
 */
static void
init_coordinate(InitShared *sh, dsm_segment *seg, BackgroundWorkerHandle **loaders,
				char *prefix, Oid *tables)
{
	const BkDatasetKind *kind = init_kind(sh);
	const void *opts = INIT_OPTS(sh);
	LOCKTAG		tag;
	instr_time	start;
	Oid		   *existing;
	int			nexisting;
	int			nchildren = kind->nchildren(opts);
	int64		rest_rows;
	char	   *needed_by;

	/* one load per schema at a time; held until this worker exits */
	SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, 0x62656e63, sh->nspid, 2);
	if (LockAcquire(&tag, ExclusiveLock, true, true) == LOCKACQUIRE_NOT_AVAIL)
		ereport(ERROR,
				(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
				 errmsg("another bench.init is loading into schema \"%s\"", sh->nspname),
				 errhint("Wait for it to finish, then try again.")));

	/* reserve every loader before changing anything */
	needed_by = psprintf("bench.init with jobs => %d", sh->jobs);
	for (int i = 0; i < sh->jobs; i++)
		loaders[i] = bk_start_worker(INIT_LOADER_TYPE, "bench_init_loader_main", seg, i,
									 psprintf("loader %d of %d", i + 1, sh->jobs),
									 needed_by, BK_INIT_WORKERS(sh->jobs));

	/* 1. record the dataset and create its tables under staging names */
	INSTR_TIME_SET_CURRENT(start);
	bk_init_xact_begin("bench.init: creating tables");
	bk_recover_orphans();
	bk_recover_runs();
	(void) init_existing_tables(kind, opts, sh->nspid, sh->nspname, sh->roleid, sh->force,
								&existing);
	sh->dataset_id = bk_dataset_begin(kind->name, kind->scale(opts), sh->options_json,
									  sh->nspname, sh->rolename);
	init_prefix(sh, prefix);
	kind->create(opts, sh->nspname, prefix);
	for (int t = 0; t < kind->ntables(opts); t++)
		tables[t] = get_relname_relid(init_table_name(kind, opts, prefix, t), sh->nspid);
	bk_dataset_set_tables(sh->dataset_id, tables, kind->ntables(opts));
	bk_init_xact_commit();
	sh->secs[PH_CREATE] = elapsed_since(start);

	/* 2. load: the leaves split among the loaders, the rest here */
	INSTR_TIME_SET_CURRENT(start);
	bk_init_xact_begin(psprintf("bench.init: preparing %s",
							 init_main_table(kind, opts)));
	kind->prepare(opts, sh->nspname, prefix, sh->leaves, sh->jobs);
	bk_init_xact_commit();
	pg_write_barrier();
	pg_atomic_write_u32(&sh->state, INIT_LOADING);

	bk_init_xact_begin("bench.init: loading the other tables");
	rest_rows = kind->load_rest(opts, tables, sh->leaves, &sh->cancel);
	bk_init_xact_commit();

	init_wait_loaders(sh, loaders, false);
	if (kind->after_load != NULL)
	{
		bk_init_xact_begin("bench.init: after the load");
		kind->after_load(opts, sh->leaves);
		bk_init_xact_commit();
	}
	sh->rows_loaded = rest_rows;
	for (int i = 0; i < sh->jobs; i++)
		sh->rows_loaded += pg_atomic_read_u64(&INIT_LOADERS(sh)[i].rows);
	sh->secs[PH_LOAD] = elapsed_since(start);

	/*
	 * 3. vacuum analyze, in the kind's order; or, for a kind whose keys the
	 * loaders build, the loaders do that and the keys side by side: the
	 * time they take together is shared between the two phases in
	 * proportion to the loaders' time in each
	 */
	INSTR_TIME_SET_CURRENT(start);
	if (kind->finish_tasks != NULL)
	{
		double		wall;
		double		vac_us;
		double		keys_us;

		pgstat_report_activity(STATE_RUNNING, "bench.init: keys and vacuum analyze, by the loaders");
		pg_write_barrier();
		pg_atomic_write_u32(&sh->state, INIT_FINISHING);
		init_wait_loaders(sh, loaders, true);
		pgstat_report_activity(STATE_IDLE, NULL);
		wall = elapsed_since(start);
		vac_us = (double) pg_atomic_read_u64(&sh->task_us[0]);
		keys_us = (double) pg_atomic_read_u64(&sh->task_us[1]);
		sh->secs[PH_VACUUM] = vac_us + keys_us > 0 ? wall * vac_us / (vac_us + keys_us) : 0;
		sh->secs[PH_PKEYS] = wall - sh->secs[PH_VACUUM];
		INSTR_TIME_SET_CURRENT(start);
	}
	else
		for (int i = 0; i < kind->ntables(opts); i++)
		{
			init_check_cancel(sh);
			bk_init_vacuum(bk_init_vacuum_sql(sh->nspname, init_table_name(kind, opts, prefix, kind->vacuum_table(opts, i))));
		}
	if (kind->after_vacuum != NULL)
	{
		bk_init_xact_begin("bench.init: statistics");
		kind->after_vacuum(opts, sh->leaves, INIT_LEAF_ROWS(sh));
		bk_init_xact_commit();
	}
	sh->secs[PH_VACUUM] += elapsed_since(start);
	init_check_cancel(sh);

	/* 4. swap in, keys, record: all or nothing */
	bk_init_xact_begin("bench.init: primary keys");
	nexisting = init_existing_tables(kind, opts, sh->nspid, sh->nspname, sh->roleid, sh->force,
									 &existing);
	if (nexisting > 0)
	{
		StringInfoData sql;

		/* no run may use them now, nor start to until this commits */
		bk_take_tables(existing, nexisting);
		initStringInfo(&sql);
		appendStringInfoString(&sql, "drop table ");
		for (int i = 0; i < nexisting; i++)
			appendStringInfo(&sql, "%s%s", i ? ", " : "",
							 quote_qualified_identifier(sh->nspname, get_rel_name(existing[i])));
		bk_spi_utility(sql.data);
		bk_dataset_mark_replaced(existing, nexisting);
	}
	for (int t = 0; t < kind->ntables(opts); t++)
		bk_spi_utility(psprintf("alter table %s rename to %s",
								quote_qualified_identifier(sh->nspname, init_table_name(kind, opts, prefix, t)),
								quote_identifier(init_table_name(kind, opts, kind->final_prefix, t))));
	for (int c = 0; c < nchildren; c++)
		bk_spi_utility(psprintf("alter table %s rename to %s",
								quote_qualified_identifier(sh->nspname,
														   psprintf("%s%s", prefix, kind->child_suffix(opts, c))),
								quote_identifier(psprintf("%s%s", kind->final_prefix,
														  kind->child_suffix(opts, c)))));

	bk_init_rename_staged(sh->nspid, prefix, kind->final_prefix);

	if (kind->finish_tasks == NULL)
	{
		INSTR_TIME_SET_CURRENT(start);
		kind->add_keys(opts, sh->nspname);
		sh->secs[PH_PKEYS] = elapsed_since(start);
	}
	init_check_cancel(sh);

	/* a phase that does not run takes no time (not the moment it took to skip it) */
	sh->secs[PH_FKEYS] = 0;
	if (kind->add_foreign_keys != NULL && kind->wants_foreign_keys(opts))
	{
		INSTR_TIME_SET_CURRENT(start);
		pgstat_report_activity(STATE_RUNNING, "bench.init: foreign keys");
		kind->add_foreign_keys(opts, sh->nspname);
		sh->secs[PH_FKEYS] = elapsed_since(start);
	}
	if (kind->functions_sql != NULL)
	{
		ListCell   *lc;

		pgstat_report_activity(STATE_RUNNING, "bench.init: functions");
		foreach(lc, kind->functions_sql(opts, PG_VERSION_NUM, sh->nspname))
			bk_spi_utility((const char *) lfirst(lc));
	}

	for (int i = 0; i < PH_COUNT; i++)
		sh->secs[i] = round(sh->secs[i] * 1000.0) / 1000.0;
	bk_dataset_finish(sh->dataset_id, "ready", sh->rows_loaded, sh->secs, NULL, NULL);
	init_check_cancel(sh);
	bk_init_xact_commit();
}

/*
 * init_coordinate_remote
 *		A load into a target, on the way to success: connect and check
 *		again, record the dataset, make it there (init_remote.c), record
 *		it as ready.  Errors are raised; bench_init_coordinator_main cleans
 *		up after them (bk_remote_abort).  LOAD lives as long as the worker.
 */
static void
init_coordinate_remote(InitShared *sh, BkRemoteLoad *load)
{
	const BkDatasetKind *kind = init_kind(sh);
	MemoryContext cxt = CurrentMemoryContext;
	MemoryContext oldcxt;
	LOCKTAG		tag;

	load->kind = kind;
	load->opts = INIT_OPTS(sh);
	load->target = sh->target;
	load->force = sh->force;
	load->server_side = sh->server_side;
	load->cancel = &sh->cancel;
	load->notice = init_notice;
	load->notice_arg = sh;

	/* 1. connect, check, record: what is there is checked again */
	bk_init_xact_begin(psprintf("bench.init: connecting to target \"%s\"", sh->target));
	oldcxt = MemoryContextSwitchTo(cxt);
	load->server = bk_target_lookup(sh->target);

	/* one load per target at a time; held until this worker exits */
	SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, 0x62656e63, load->server->serverid, 3);
	if (LockAcquire(&tag, ExclusiveLock, true, true) == LOCKACQUIRE_NOT_AVAIL)
		ereport(ERROR,
				(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
				 errmsg("another bench.init is loading into target \"%s\"", sh->target),
				 errhint("Wait for it to finish, then try again.")));
	bk_remote_open(load, INIT_COORDINATOR_TYPE);
	MemoryContextSwitchTo(oldcxt);

	bk_recover_orphans();
	bk_recover_runs();
	sh->dataset_id = bk_dataset_begin(kind->name, kind->scale(load->opts), sh->options_json,
									  load->schema, sh->rolename);
	bk_dataset_set_target(sh->dataset_id, sh->target, load->server_version);
	bk_init_xact_commit();

	/* 2. pgbench -i's steps, there */
	oldcxt = MemoryContextSwitchTo(cxt);
	bk_remote_load(load);
	MemoryContextSwitchTo(oldcxt);
	sh->rows_loaded = load->rows;
	for (int i = 0; i < PH_COUNT; i++)
		sh->secs[i] = round(load->secs[i] * 1000.0) / 1000.0;

	/* 3. ready; the datasets it replaced there are no more */
	bk_init_xact_begin("bench.init: recording the dataset");
	bk_dataset_mark_replaced_on_target(sh->dataset_id);
	bk_dataset_finish(sh->dataset_id, "ready", sh->rows_loaded, sh->secs, NULL, NULL);
	bk_init_xact_commit();
	bk_remote_close(load);
}

/*
 * init_cleanup
 *		After a failure: stop the loaders, drop the staging tables, record
 *		the error.  Runs in a transaction of its own.  A load into a target
 *		(REMOTE) first stops what it runs there and undoes what it did
 *		(bk_remote_abort); what could not be undone is said in the error.
 */
static void
init_cleanup(InitShared *sh, BackgroundWorkerHandle **loaders, const char *prefix,
			 const Oid *tables, BkRemoteLoad *remote)
{
	char	   *note = NULL;

	pg_atomic_write_u32(&sh->cancel, 1);
	for (int i = 0; i < sh->jobs; i++)
		if (loaders[i] != NULL)
			TerminateBackgroundWorker(loaders[i]);
	for (int i = 0; i < sh->jobs; i++)
		if (loaders[i] != NULL)
			(void) WaitForBackgroundWorkerShutdown(loaders[i]);
	if (remote != NULL)
	{
		note = bk_remote_abort(remote);
		if (note != NULL && sh->error.detail[0] == '\0')
			bk_text_copy(sh->error.detail, note, sizeof(sh->error.detail));
	}

	if (sh->dataset_id == 0)
		return;					/* nothing was created */

	bk_init_xact_begin("bench.init: cleaning up");
	/* the tables of the datasets it replaced on the target were dropped */
	if (remote != NULL && remote->committed)
		bk_dataset_mark_replaced_on_target(sh->dataset_id);
	for (int t = 0; remote == NULL && t < init_kind(sh)->ntables(INIT_OPTS(sh)); t++)
	{
		char	   *name = OidIsValid(tables[t]) ? get_rel_name(tables[t]) : NULL;

		/* only what still has the staging name this load gave it */
		if (name != NULL && strncmp(name, prefix, strlen(prefix)) == 0)
			bk_spi_utility(psprintf("drop table if exists %s",
									quote_qualified_identifier(sh->nspname, name)));
	}
	{
		char		sqlstate[6];
		char	   *code = unpack_sql_state(sh->error.sqlerrcode);

		strlcpy(sqlstate, code, sizeof(sqlstate));
		bk_dataset_finish(sh->dataset_id,
						  (sh->error.sqlerrcode == ERRCODE_QUERY_CANCELED ||
						   sh->error.sqlerrcode == ERRCODE_ADMIN_SHUTDOWN) ? "aborted" : "failed",
						  -1, NULL, sqlstate,
						  note ? psprintf("%s (%s)", sh->error.message, note) : sh->error.message);
	}
	bk_init_xact_commit();
}

/* set by SIGTERM in the coordinator */
static volatile sig_atomic_t init_terminated = false;

/*
 * init_sigterm
 *		SIGTERM (pg_terminate_backend, server shutdown) in the coordinator:
 *		turn it into a query cancel, so that the current step stops at its
 *		next CHECK_FOR_INTERRUPTS with an error and the coordinator's usual
 *		cleanup runs (drop the staging tables, record the dataset as
 *		aborted) before it exits.
 */
static void
init_sigterm(SIGNAL_ARGS)
{
	int			save_errno = errno;

	init_terminated = true;
	QueryCancelPending = true;
	InterruptPending = true;
	SetLatch(MyLatch);
	errno = save_errno;
}

/*
 * bench_init_coordinator_main
 *		Entry point of the init coordinator worker.
 */
void
bench_init_coordinator_main(Datum main_arg)
{
	dsm_segment *seg = bk_worker_attach(main_arg);
	InitShared *sh;
	BackgroundWorkerHandle **loaders;
	char		prefix[NAMEDATALEN] = "";
	Oid		   *tables;
	BkRemoteLoad *remote;
	MemoryContext topcxt;

	if (seg == NULL)
		return;					/* the caller is gone already */
	if (!bk_segment_ours(seg, INIT_MAGIC, INIT_COORDINATOR_TYPE))
		return;
	sh = (InitShared *) dsm_segment_address(seg);
	sh->coordinator_pid = MyProcPid;
	pqsignal(SIGTERM, init_sigterm);
	bk_worker_connect(sh->dboid, sh->roleid, "pgbenchkit init");
	init_worker_settings(sh);

	topcxt = AllocSetContextCreate(TopMemoryContext, "pgbenchkit init",
								   ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(topcxt);
	loaders = palloc0(sizeof(BackgroundWorkerHandle *) * sh->jobs);
	tables = palloc0(sizeof(Oid) * init_kind(sh)->ntables(INIT_OPTS(sh)));
	remote = sh->target[0] != '\0' ? palloc0(sizeof(BkRemoteLoad)) : NULL;

	PG_TRY();
	{
		if (remote != NULL)
			init_coordinate_remote(sh, remote);
		else
			init_coordinate(sh, seg, loaders, prefix, tables);
		init_unlock();
		pg_write_barrier();
		pg_atomic_write_u32(&sh->state, INIT_DONE);
	}
	PG_CATCH();
	{
		/*
		 * The server is going down hard: leave the cleanup to the next
		 * bench call (bk_recover_orphans), as after any crash.
		 */
		if (!bk_postmaster_alive())
			proc_exit(1);
		MemoryContextSwitchTo(topcxt);
		if (init_terminated)
			bk_error_set(&sh->error, ERRCODE_ADMIN_SHUTDOWN,
						 "the init worker was terminated",
						 remote != NULL ?
						 "Its statement on the target was canceled, and nothing it made there was kept." :
						 "Nothing was left half-loaded; the previous dataset, if any, is unchanged.");
		bk_error_capture(&sh->error);
		AbortOutOfAnyTransaction();
		PortalContext = NULL;
		PG_TRY();
		{
			init_cleanup(sh, loaders, prefix, tables, remote);
		}
		PG_CATCH();
		{
			/* the next bench call cleans up; keep the first error */
			EmitErrorReport();
			FlushErrorState();
			AbortOutOfAnyTransaction();
		}
		PG_END_TRY();
		init_unlock();
		pg_write_barrier();
		pg_atomic_write_u32(&sh->state, INIT_FAILED);
	}
	PG_END_TRY();

	bk_set_latch_of(sh->caller_pid);
}

/* ------------------------------------------------------------------------
 * The loaders
 * ------------------------------------------------------------------------
 */

/*
 * bench_init_loader_main
 *		Entry point of a loader worker: wait for the coordinator's go, fill
 *		this loader's share of the leaves in one transaction.
 */
void
bench_init_loader_main(Datum main_arg)
{
	dsm_segment *seg = bk_worker_attach(main_arg);
	InitShared *sh;
	InitLoader *ld;
	const BkDatasetKind *kind;
	int			index = bk_worker_index();

	if (seg == NULL || !bk_segment_ours(seg, INIT_MAGIC, INIT_LOADER_TYPE))
		return;
	sh = (InitShared *) dsm_segment_address(seg);
	ld = &INIT_LOADERS(sh)[index];
	kind = init_kind(sh);
	bk_worker_connect(sh->dboid, sh->roleid, "pgbenchkit loader");
	init_worker_settings(sh);

	PG_TRY();
	{
		while (pg_atomic_read_u32(&sh->state) == INIT_STARTING)
		{
			if (pg_atomic_read_u32(&sh->cancel))
				proc_exit(0);
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
							 10L, PG_WAIT_EXTENSION);
			ResetLatch(MyLatch);
			CHECK_FOR_INTERRUPTS();
		}
		pg_read_barrier();
		if (pg_atomic_read_u32(&sh->state) == INIT_LOADING)
		{
			SetCurrentStatementStartTimestamp();
			StartTransactionCommand();
			PushActiveSnapshot(GetTransactionSnapshot());
			pgstat_report_activity(STATE_RUNNING,
								   psprintf("bench.init: loading %s", init_main_table(kind, INIT_OPTS(sh))));
			(void) kind->load_share(INIT_OPTS(sh), sh->leaves, INIT_LEAF_ROWS(sh),
											 index, sh->jobs, &sh->next_unit, &ld->rows,
											 &sh->cancel);
			PopActiveSnapshot();
			CommitTransactionCommand();
			pgstat_report_activity(STATE_IDLE, NULL);
			pg_write_barrier();
			pg_atomic_write_u32(&ld->done, 1);
			bk_set_latch_of(sh->coordinator_pid);
			if (kind->finish_tasks != NULL)
				init_finish_share(sh, kind, ld);
		}
	}
	PG_CATCH();
	{
		bk_error_capture(&ld->error);
		AbortOutOfAnyTransaction();
	}
	PG_END_TRY();

	bk_set_latch_of(sh->coordinator_pid);
}
