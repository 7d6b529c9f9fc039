/*-------------------------------------------------------------------------
 *
 * observe.c
 *		What the server did during a run, recorded by its coordinator:
 *
 *		prewarm		the workload's tables and indexes loaded into shared
 *					buffers with pg_prewarm before the clients start, blocks
 *					and seconds per relation (bench.prewarms);
 *		samples		the server's counters before the clients start, every
 *					sample_interval while they run and after they stopped
 *					(bench.samples): pg_stat_wal, pg_stat_bgwriter,
 *					pg_stat_checkpointer (17+), pg_stat_io (16+),
 *					pg_stat_database, the workload's table and index
 *					statistics, pg_stat_statements when it is installed
 *					(the texts of the run's role's statements redacted of
 *					what could be a password: redact.c),
 *					the WAL insert position, and the CPU time of the
 *					server's processes and of the host from /proc;
 *		sizes		the workload's tables and indexes before and after
 *					(bench.relation_sizes);
 *		settings	non-default and notable settings, and the host facts
 *					the server can see (bench.runs.settings, .host).
 *
 * Everything is read as the run's role, so a role without pg_read_all_stats
 * sees what it may see and no more; what could not be read is named in
 * bench.runs.unavailable.  The rows are written as the owner of schema
 * bench (catalog.c).  Each source is stored as the server's own view
 * returns it (to_jsonb of its rows): the column sets differ between
 * versions, and the views of the install script give them stable names.
 *
 * A sample that fails (it should not) is rolled back alone, sampling stops,
 * and the run goes on.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dirent.h>
#include <math.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "access/xact.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/timestamp.h"

#include "meta/catalog.h"
#include "core/compat.h"
#include "observe/observe.h"
#include "target/target.h"
#include "dataset/lookup.h"
#include "core/clock.h"
#include "meta/workload.h"
#include "core/pgbenchkit.h"

PG_FUNCTION_INFO_V1(bench_prewarm);
PG_FUNCTION_INFO_V1(bench_host_cpu_sample);

/*
 * Statements kept per sample: the run's role's busiest, and others'; the
 * samples before and after (from which bench.run_statements reckons) keep
 * more, with their texts.
 */
#define OBS_OWN_STATEMENTS				50
#define OBS_OTHER_STATEMENTS			20
#define OBS_OWN_STATEMENTS_DURING		10
#define OBS_OTHER_STATEMENTS_DURING		5

/* settings every run records, default or not (those that exist) */
static const char *const notable_settings =
"{server_version,server_version_num,wal_level,shared_buffers,max_wal_size,"
"min_wal_size,checkpoint_timeout,checkpoint_completion_target,"
"synchronous_commit,wal_compression,wal_buffers,data_checksums,huge_pages,"
"huge_pages_status,fsync,full_page_writes,io_method,effective_io_concurrency,"
"work_mem,max_connections,autovacuum,block_size,wal_segment_size}";

/* the workload's leaf tables: a dataset's tables and their partitions */
static const char *const leaf_tables_cte =
"WITH t AS (SELECT b.relid FROM pg_catalog.unnest($1::pg_catalog.oid[]) AS b (relid)"
" JOIN pg_catalog.pg_class c ON c.oid = b.relid WHERE c.relkind <> 'p'"
" UNION SELECT p.relid FROM pg_catalog.unnest($1::pg_catalog.oid[]) AS b (relid),"
" pg_catalog.pg_partition_tree(b.relid) AS p WHERE p.isleaf)";

/* an oid[] datum */
static Datum
obs_oid_array(const Oid *oids, int n)
{
	Datum	   *elems = palloc(sizeof(Datum) * Max(n, 1));

	for (int i = 0; i < n; i++)
		elems[i] = ObjectIdGetDatum(oids[i]);
	return PointerGetDatum(construct_array(elems, n, OIDOID, sizeof(Oid), true, TYPALIGN_INT));
}

/* the single text value of a query run as the current user; NULL if none */
static char *
obs_query_text(const char *sql, int nargs, Oid *types, Datum *values)
{
	MemoryContext cxt = CurrentMemoryContext;
	char	   *result = NULL;

	bk_spi_connect();
	if (SPI_execute_with_args(sql, nargs, types, values, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "unexpected SPI result for: %s", sql);
	if (SPI_processed > 0)
	{
		char	   *v = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);

		if (v != NULL)
			result = MemoryContextStrdup(cxt, v);
	}
	bk_spi_finish();
	return result;
}

/* the single text value of SQL on the observer's target: bk_target_value */
static inline char *
obs_remote_text(BkObserver *o, const char *sql, int nparams, const Oid *types,
				const char *const *values)
{
	return bk_target_value(o->remote, o->remote_name, "its statistics", sql,
						   nparams, types, values);
}

/*
 * obs_text
 *		The single text value of a query on the server observer O samples:
 *		this one (obs_query_text; also with O NULL), or its target, the
 *		parameters sent as text.
 */
static char *
obs_text(BkObserver *o, const char *sql, int nargs, Oid *types, Datum *values)
{
	const char **texts;

	if (o == NULL || o->remote == NULL)
		return obs_query_text(sql, nargs, types, values);
	texts = palloc(sizeof(char *) * Max(nargs, 1));
	for (int i = 0; i < nargs; i++)
	{
		Oid			out;
		bool		varlena;

		getTypeOutputInfo(types[i], &out, &varlena);
		texts[i] = OidOutputFunctionCall(out, values[i]);
	}
	return obs_remote_text(o, sql, nargs, types, texts);
}

/* the schema an extension is installed in on the observed server, or NULL */
static char *
obs_extension_schema(BkObserver *o, const char *extname)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {CStringGetTextDatum(extname)};

	return obs_text(o, "SELECT n.nspname FROM pg_catalog.pg_extension e"
					" JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace"
					" WHERE e.extname OPERATOR(pg_catalog.=) $1",
					1, types, values);
}

static void
obs_unavailable(BkObserver *o, const char *source, const char *why)
{
	if (o->unavailable.len > 1)
		appendStringInfoString(&o->unavailable, ", ");
	escape_json(&o->unavailable, source);
	appendStringInfoString(&o->unavailable, ": ");
	escape_json(&o->unavailable, why);
	o->unavailable_changed = true;
}

static char *
obs_unavailable_json(BkObserver *o)
{
	return psprintf("%s}", o->unavailable.data);
}

/*
 * obs_try
 *		FN(ARG) in a subtransaction of its own.  NULL if it succeeded; else
 *		its error, rolled back and copied into the caller's memory context.
 */
static ErrorData *
obs_try(void (*fn) (void *), void *arg)
{
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	ErrorData  *volatile edata = NULL;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		fn(arg);
		ReleaseCurrentSubTransaction();
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
	}
	PG_END_TRY();
	MemoryContextSwitchTo(cxt);
	CurrentResourceOwner = owner;
	return edata;
}

/* ------------------------------------------------------------------------
 * CPU and host facts, from the operating system
 * ------------------------------------------------------------------------
 */

/* the CPU time (user + system) of this process so far, in ns */
static int64
obs_process_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
		return 0;
	return (int64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * The host's CPUs: the first line of /proc/stat, busy and idle ticks of all
 * CPUs (busy: user, nice, system, irq, softirq, steal; idle: idle and
 * iowait).
 *
 * The kernel's documentation warns that iowait may decrease, and idle goes
 * back too (the idle time of a CPU that is idle is estimated as it is read),
 * as do the counters of virtualized /proc files; then a run's busy time
 * could come out larger than its total.  So each counter is held at the
 * largest value the run's samples have shown: a sample's busy and idle are
 * at least those of the run's sample before it, whichever process read
 * that one (the observer keeps what it wrote; one that has not written yet
 * reads the run's last sample from bench.samples).  Over any two samples
 * of a run, busy then grows by at most total.  bench._host_cpu_sample runs
 * the same code on given text, for the tests.
 */

/* the busy and idle ticks of the text of /proc/stat; false: not there */
static bool
obs_host_cpu_parse(const char *text, uint64 *busy, uint64 *idle)
{
	unsigned long long v[8] = {0};

	if (sscanf(text, "cpu %llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) < 4)
		return false;
	/* user nice system idle iowait irq softirq steal */
	*busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	*idle = v[3] + v[4];
	return true;
}

/*
 * obs_host_cpu_hold
 *		BUSY and IDLE read, each held at the value of the sample before
 *		(PREVIOUS, a cpu object of a sample as jsonb text: host_busy_s,
 *		host_total_s; NULL: none), into the cpu object of this sample.
 */
static char *
obs_host_cpu_hold(uint64 busy, uint64 idle, const char *previous_busy_s,
				  const char *previous_total_s, uint64 *held_busy, uint64 *held_idle)
{
	long		hz = sysconf(_SC_CLK_TCK);

	if (hz <= 0)
		return NULL;
	if (previous_busy_s != NULL && previous_total_s != NULL)
	{
		double		b = strtod(previous_busy_s, NULL);
		double		t = strtod(previous_total_s, NULL);
		/* seconds with three decimals: whole ticks again */
		uint64		pb = (uint64) Max(0, llround(b * hz));
		uint64		pi = (uint64) Max(0, llround(t * hz) - llround(b * hz));

		busy = Max(busy, pb);
		idle = Max(idle, pi);
	}
	*held_busy = busy;
	*held_idle = idle;
	return psprintf("\"host_busy_s\": %.3f, \"host_total_s\": %.3f",
					(double) busy / hz, (double) (busy + idle) / hz);
}

/* the run's last sample's host CPU figures, for an observer that has none */
static void
obs_host_cpu_last(BkObserver *o)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(o->run_id)};
	bool		isnull;

	o->host_held = true;
	if (o->run_id <= 0)
		return;
	bk_spi_connect();
	if (SPI_execute_with_args("SELECT s.data->'cpu'->>'host_busy_s', s.data->'cpu'->>'host_total_s'"
							  "  FROM bench.samples s WHERE s.run_id = $1"
							  "   AND s.data->'cpu' ? 'host_busy_s'"
							  " ORDER BY s.sample_no DESC LIMIT 1",
							  1, types, values, NULL, true, 1) == SPI_OK_SELECT &&
		SPI_processed == 1)
	{
		long		hz = sysconf(_SC_CLK_TCK);
		Datum		b = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
		Datum		t = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull);
		double		bs = strtod(TextDatumGetCString(b), NULL);
		double		ts = strtod(TextDatumGetCString(t), NULL);

		if (hz > 0)
		{
			o->host_busy_ticks = (uint64) Max(0, llround(bs * hz));
			o->host_idle_ticks = (uint64) Max(0, llround(ts * hz) - llround(bs * hz));
		}
	}
	bk_spi_finish();
}

/*
 * obs_host_cpu
 *		The host's CPU figures now, as the keys of a sample's cpu object
 *		(NULL: /proc/stat not readable); with an observer, held at the
 *		run's sample before.
 */
static char *
obs_host_cpu(BkObserver *o)
{
	FILE	   *f = AllocateFile("/proc/stat", "r");
	char		line[512];
	uint64		busy,
				idle;
	char	   *result = NULL;

	if (f == NULL)
		return NULL;
	if (fgets(line, sizeof(line), f) != NULL && obs_host_cpu_parse(line, &busy, &idle))
	{
		if (o == NULL)
			result = obs_host_cpu_hold(busy, idle, NULL, NULL, &busy, &idle);
		else
		{
			if (!o->host_held)
				obs_host_cpu_last(o);
			result = obs_host_cpu_hold(Max(busy, o->host_busy_ticks),
									   Max(idle, o->host_idle_ticks), NULL, NULL,
									   &o->host_busy_ticks, &o->host_idle_ticks);
		}
	}
	FreeFile(f);
	return result;
}

/*
 * bench_host_cpu_sample
 *		SQL function bench._host_cpu_sample(stat text, previous jsonb):
 *		the host CPU figures of a sample whose /proc/stat read STAT, held
 *		at PREVIOUS (the cpu object of the sample before, or NULL), as a
 *		sample's cpu object would have them.  The tests feed it counters
 *		that go back.
 */
Datum
bench_host_cpu_sample(PG_FUNCTION_ARGS)
{
	uint64		busy,
				idle;
	char	   *prev_busy = NULL;
	char	   *prev_total = NULL;
	char	   *keys;

	bk_check_call(fcinfo, 2, "bench._host_cpu_sample");
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (!obs_host_cpu_parse(text_to_cstring(PG_GETARG_TEXT_PP(0)), &busy, &idle))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("the text does not start with the cpu line of /proc/stat"),
				 errhint("Give a line such as \"cpu 100 0 50 1000 200 0 0 0\": user, nice, system, idle, iowait, irq, softirq, steal.")));
	if (!PG_ARGISNULL(1))
	{
		Jsonb	   *prev = PG_GETARG_JSONB_P(1);
		JsonbValue *b = getKeyJsonValueFromContainer(&prev->root, "host_busy_s", 11, NULL);
		JsonbValue *t = getKeyJsonValueFromContainer(&prev->root, "host_total_s", 12, NULL);

		if (b != NULL && t != NULL && b->type == jbvNumeric && t->type == jbvNumeric)
		{
			prev_busy = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(b->val.numeric)));
			prev_total = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(t->val.numeric)));
		}
	}
	keys = obs_host_cpu_hold(busy, idle, prev_busy, prev_total, &busy, &idle);
	if (keys == NULL)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(psprintf("{%s}", keys))));
}

/*
 * The user and system time of /proc/PID/stat, with that of its children
 * it has waited for; the parent's process id in *PPID.
 */
static bool
obs_proc_ticks(const char *pid, int *ppid, unsigned long long *ticks)
{
	char		path[64];
	char		buf[1024];
	FILE	   *f;
	size_t		n;
	char	   *p;
	unsigned long long ut,
				st,
				cut,
				cst;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	f = AllocateFile(path, "r");
	if (f == NULL)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	FreeFile(f);
	buf[n] = '\0';
	/* the command may hold anything: the fields start after its last ')' */
	p = strrchr(buf, ')');
	if (p == NULL ||
		sscanf(p + 2, "%*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu",
			   ppid, &ut, &st, &cut, &cst) != 5)
		return false;
	*ticks = ut + st + cut + cst;
	return true;
}

/*
 * The CPU seconds of the whole server: the postmaster, with every process
 * of the server that has exited (it waited for them), and every process
 * still running.
 */
static bool
obs_server_cpu(double *secs)
{
	pid_t		pm = getppid();
	char		pmstr[32];
	int			ppid;
	unsigned long long ticks;
	unsigned long long sum = 0;
	long		hz = sysconf(_SC_CLK_TCK);
	DIR		   *dir;
	struct dirent *de;

	snprintf(pmstr, sizeof(pmstr), "%d", (int) pm);
	if (hz <= 0 || !obs_proc_ticks(pmstr, &ppid, &sum))
		return false;
	dir = AllocateDir("/proc");
	if (dir == NULL)
		return false;
	while ((de = ReadDirExtended(dir, "/proc", LOG)) != NULL)
	{
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		if (obs_proc_ticks(de->d_name, &ppid, &ticks) && ppid == (int) pm)
			sum += ticks;
	}
	FreeDir(dir);
	*secs = (double) sum / hz;
	return true;
}

/* the CPU figures of one sample, as a jsonb object's text; NULL: none */
static char *
obs_cpu_json(BkObserver *o)
{
	double		server;
	char	   *host;
	StringInfoData buf;

	if (!o->stats_priv)
		return NULL;
	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	if (obs_server_cpu(&server))
		appendStringInfo(&buf, "\"server_s\": %.3f", server);
	if ((host = obs_host_cpu(o)) != NULL)
		appendStringInfo(&buf, "%s%s", buf.len > 1 ? ", " : "", host);
	appendStringInfoChar(&buf, '}');
	return buf.len > 2 ? buf.data : NULL;
}

/* the host facts the server can see, as a jsonb object's text */
static char *
obs_host_json(void)
{
	StringInfoData buf;
	struct statvfs fs;
	struct utsname un;
	long		cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long		pages = sysconf(_SC_PHYS_PAGES);
	long		pagesize = sysconf(_SC_PAGESIZE);
	FILE	   *f;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	if (cpus > 0)
		appendStringInfo(&buf, "\"cpus\": %ld", cpus);
	if (pages > 0 && pagesize > 0)
		appendStringInfo(&buf, "%s\"memory_bytes\": %lld", buf.len > 1 ? ", " : "",
						 (long long) pages * pagesize);
	if (statvfs(DataDir, &fs) == 0)
		appendStringInfo(&buf, "%s\"data_directory_fs_bytes\": %llu, \"data_directory_fs_free_bytes\": %llu",
						 buf.len > 1 ? ", " : "",
						 (unsigned long long) fs.f_blocks * fs.f_frsize,
						 (unsigned long long) fs.f_bavail * fs.f_frsize);
	if (uname(&un) == 0)
	{
		appendStringInfo(&buf, "%s\"kernel\": ", buf.len > 1 ? ", " : "");
		escape_json(&buf, psprintf("%s %s", un.sysname, un.release));
		appendStringInfoString(&buf, ", \"machine\": ");
		escape_json(&buf, un.machine);
	}
	f = AllocateFile("/proc/cpuinfo", "r");
	if (f != NULL)
	{
		char		line[512];

		while (fgets(line, sizeof(line), f) != NULL)
		{
			char	   *colon = strchr(line, ':');

			if (strncmp(line, "model name", 10) != 0 || colon == NULL)
				continue;
			colon++;
			while (*colon == ' ' || *colon == '\t')
				colon++;
			colon[strcspn(colon, "\n")] = '\0';
			appendStringInfo(&buf, "%s\"cpu_model\": ", buf.len > 1 ? ", " : "");
			escape_json(&buf, colon);
			break;
		}
		FreeFile(f);
	}
	appendStringInfoChar(&buf, '}');
	return buf.data;
}

/* ------------------------------------------------------------------------
 * The workload's relations and prewarm
 * ------------------------------------------------------------------------
 */

/* the dataset's tables as bench.datasets recorded them */
static void
obs_dataset_tables(int64 dataset_id, Oid **tables, int *ntables)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(dataset_id)};
	MemoryContext cxt = CurrentMemoryContext;

	*tables = NULL;
	*ntables = 0;
	if (dataset_id <= 0)
		return;
	bk_spi_connect();
	if (SPI_execute_with_args("SELECT t::pg_catalog.oid FROM bench.datasets d, pg_catalog.unnest(d.tables) AS t"
							  " WHERE d.id = $1",
							  1, types, values, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read bench.datasets");
	*tables = MemoryContextAlloc(cxt, sizeof(Oid) * Max(SPI_processed, 1));
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		bool		isnull;

		(*tables)[i] = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[i],
													  SPI_tuptable->tupdesc, 1, &isnull));
	}
	*ntables = (int) SPI_processed;
	bk_spi_finish();
}

typedef struct ObsPrewarmed
{
	Oid			relid;
	char	   *relation;
	char	   *kind;
	int64		blocks;
	double		seconds;
	bool		skipped;		/* the role may not read it */
} ObsPrewarmed;

/* one pg_prewarm call, for obs_try */
typedef struct ObsPrewarmCall
{
	SPIPlanPtr	plan;
	Datum	   *values;
	int64		blocks;
} ObsPrewarmCall;

static void
obs_prewarm_one(void *arg)
{
	ObsPrewarmCall *call = arg;
	bool		isnull;

	if (SPI_execute_plan(call->plan, call->values, NULL, false, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not prewarm a relation");
	call->blocks = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0],
											   SPI_tuptable->tupdesc, 1, &isnull));
}

/*
 * obs_prewarm_list
 *		pg_prewarm every relation with storage of the tables: the tables,
 *		their indexes, their toast tables and toast indexes.  Returns the
 *		number of relations; *OUT their results, in the current context.
 */
static int
obs_prewarm_list(const Oid *tables, int ntables, ObsPrewarmed **out)
{
	MemoryContext cxt = CurrentMemoryContext;
	char	   *schema;
	char	   *call_sql;
	Oid			types[1] = {OIDOID};
	Datum		values[1];
	SPIPlanPtr	plan;
	ObsPrewarmCall call;
	int			n;

	*out = NULL;
	if (ntables == 0)
		return 0;
	schema = obs_extension_schema(NULL, "pg_prewarm");
	if (schema == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("extension \"pg_prewarm\" is not installed in this database"),
				 errhint("pgbenchkit requires it: CREATE EXTENSION pg_prewarm.")));
	call_sql = psprintf("SELECT %s.pg_prewarm($1::pg_catalog.regclass, 'buffer')",
					quote_identifier(schema));

	bk_spi_connect();
	values[0] = obs_oid_array(tables, ntables);
	types[0] = OIDARRAYOID;
	if (SPI_execute_with_args(psprintf("%s, r AS ("
									   " SELECT c.oid, 'table' AS kind, 1 AS ord FROM t JOIN pg_catalog.pg_class c ON c.oid = t.relid"
									   " UNION ALL SELECT i.indexrelid, 'index', 2 FROM t JOIN pg_catalog.pg_index i ON i.indrelid = t.relid"
									   " UNION ALL SELECT c.reltoastrelid, 'toast table', 3 FROM t JOIN pg_catalog.pg_class c ON c.oid = t.relid"
									   "  WHERE c.reltoastrelid <> 0"
									   " UNION ALL SELECT i.indexrelid, 'toast index', 4 FROM t JOIN pg_catalog.pg_class c ON c.oid = t.relid"
									   "  JOIN pg_catalog.pg_index i ON i.indrelid = c.reltoastrelid)"
									   " SELECT r.oid, pg_catalog.format('%%I.%%I', n.nspname, k.relname), r.kind FROM r"
									   " JOIN pg_catalog.pg_class k ON k.oid = r.oid"
									   " JOIN pg_catalog.pg_namespace n ON n.oid = k.relnamespace"
									   " WHERE k.relkind IN ('r', 'i', 't', 'm')"
									   " ORDER BY r.ord, 2",
									   leaf_tables_cte),
							  1, types, values, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not list the workload's relations");
	n = (int) SPI_processed;
	*out = MemoryContextAllocZero(cxt, sizeof(ObsPrewarmed) * Max(n, 1));
	for (int i = 0; i < n; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		bool		isnull;

		(*out)[i].relid = DatumGetObjectId(SPI_getbinval(tup, SPI_tuptable->tupdesc, 1, &isnull));
		(*out)[i].relation = MemoryContextStrdup(cxt, SPI_getvalue(tup, SPI_tuptable->tupdesc, 2));
		(*out)[i].kind = MemoryContextStrdup(cxt, SPI_getvalue(tup, SPI_tuptable->tupdesc, 3));
	}

	types[0] = OIDOID;
	plan = SPI_prepare(call_sql, 1, types);
	if (plan == NULL)
		elog(ERROR, "could not prepare: %s", call_sql);
	for (int i = 0; i < n; i++)
	{
		int64		t0 = bk_now_ns();
		ErrorData  *edata;

		CHECK_FOR_INTERRUPTS();
		values[0] = ObjectIdGetDatum((*out)[i].relid);

		/*
		 * A role may run a workload without SELECT on every relation (tpcb
		 * only inserts into pgbench_history): what it may not read is
		 * skipped, not an error.
		 */
		call.plan = plan;
		call.values = values;
		call.blocks = 0;
		edata = obs_try(obs_prewarm_one, &call);
		if (edata != NULL && edata->sqlerrcode != ERRCODE_INSUFFICIENT_PRIVILEGE)
			ReThrowError(edata);
		(*out)[i].skipped = edata != NULL;
		(*out)[i].blocks = call.blocks;
		(*out)[i].seconds = (bk_now_ns() - t0) / 1e9;
	}
	bk_spi_finish();
	return n;
}

/* the relations prewarm skipped, for a message; NULL if none */
static char *
obs_prewarm_skipped(const ObsPrewarmed *done, int n)
{
	StringInfoData buf;
	int			k = 0;

	initStringInfo(&buf);
	for (int i = 0; i < n; i++)
	{
		if (!done[i].skipped)
			continue;
		if (k++ < 10)
			appendStringInfo(&buf, "%s%s", buf.len > 0 ? ", " : "", done[i].relation);
	}
	if (k == 0)
		return NULL;
	if (k > 10)
		appendStringInfo(&buf, " and %d more", k - 10);
	return psprintf("no SELECT privilege on %d relation%s: %s", k, k > 1 ? "s" : "", buf.data);
}

/*
 * bench_prewarm
 *		SQL function bench.prewarm(workload): load the tables and indexes of
 *		the workload's dataset into shared buffers; a row per relation.
 */
Datum
bench_prewarm(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *workload;
	char	   *dataset;
	int64		dataset_id = 0;
	int			scale;
	Oid		   *tables;
	int			ntables;
	ObsPrewarmed *done = NULL;
	int			n = 0;

	bk_check_call(fcinfo, 1, "bench.prewarm");
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("workload must not be null"),
				 errhint("Give the name of a workload, as bench.workloads lists them.")));
	workload = text_to_cstring(PG_GETARG_TEXT_PP(0));
	bk_init_materialized_srf(fcinfo);

	dataset = bk_workload_load(workload)->dataset;
	if (dataset != NULL)
		dataset_id = bk_find_dataset(workload, dataset, &scale);
	obs_dataset_tables(dataset_id, &tables, &ntables);
	n = obs_prewarm_list(tables, ntables, &done);

	{
		char	   *skipped = obs_prewarm_skipped(done, n);

		if (skipped != NULL)
			ereport(WARNING,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("prewarm skipped what this role may not read: %s", skipped),
					 errhint("pg_prewarm needs SELECT on a relation; an index's is its owner's.")));
	}
	for (int i = 0; i < n; i++)
	{
		Datum		values[4];
		bool		nulls[4] = {false, false, false, false};

		if (done[i].skipped)
			continue;

		values[0] = CStringGetTextDatum(done[i].relation);
		values[1] = CStringGetTextDatum(done[i].kind);
		values[2] = Int64GetDatum(done[i].blocks);
		values[3] = Float8GetDatum(done[i].seconds);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/* ------------------------------------------------------------------------
 * A run's observer
 * ------------------------------------------------------------------------
 */

/*
 * The sources one sample reads, one entry each, in the order of the
 * sample's keys ($1 database, $2 the leaf tables, $3 CPU as jsonb text or
 * NULL, $4 the clients' transactions so far, $5 the run's role).  A source
 * that needs a statistics view is read only where the sampled server has
 * that view (pg_stat_io from 16, pg_stat_checkpointer from 17): decided
 * when the run starts, from what that server exposes, not from the version
 * pgbenchkit was built for.  A new view joins with one entry here (and a
 * view over bench.samples that reads its key).  pg_stat_statements, whose
 * schema and privileges vary, is added by obs_sample_sql.
 */
typedef struct ObsSource
{
	const char *key;			/* its key in bench.samples.data */
	const char *view;			/* the pg_catalog view it needs, or NULL */
	const char *expr;			/* its value */
} ObsSource;

static const ObsSource obs_sources[] = {
	{"transactions", NULL,
		"$4::pg_catalog.int8"},
	{"wal_insert_lsn", NULL,
		"pg_catalog.pg_current_wal_insert_lsn() OPERATOR(pg_catalog.-) '0/0'::pg_catalog.pg_lsn"},
	{"wal", "pg_stat_wal",
		"(SELECT pg_catalog.to_jsonb(w) OPERATOR(pg_catalog.-) 'stats_reset'"
		" FROM pg_catalog.pg_stat_wal w)"},
	{"bgwriter", "pg_stat_bgwriter",
		"(SELECT pg_catalog.to_jsonb(b) OPERATOR(pg_catalog.-) 'stats_reset'"
		" FROM pg_catalog.pg_stat_bgwriter b)"},
	{"checkpointer", "pg_stat_checkpointer",
		"(SELECT pg_catalog.to_jsonb(c) OPERATOR(pg_catalog.-) 'stats_reset'"
		" FROM pg_catalog.pg_stat_checkpointer c)"},
	{"io", "pg_stat_io",
		"(SELECT pg_catalog.jsonb_agg(pg_catalog.to_jsonb(i) OPERATOR(pg_catalog.-) 'stats_reset')"
		" FROM pg_catalog.pg_stat_io i WHERE COALESCE(i.reads, 0) + COALESCE(i.writes, 0)"
		" + COALESCE(i.extends, 0) + COALESCE(i.hits, 0) + COALESCE(i.evictions, 0)"
		" + COALESCE(i.fsyncs, 0) OPERATOR(pg_catalog.>) 0)"},
	{"database", NULL,
		"(SELECT pg_catalog.to_jsonb(d) OPERATOR(pg_catalog.-) 'stats_reset'"
		" FROM pg_catalog.pg_stat_database d WHERE d.datid = $1)"},
	{"tables", NULL,
		"(SELECT pg_catalog.jsonb_agg(pg_catalog.to_jsonb(t) OPERATOR(pg_catalog.||) pg_catalog.to_jsonb(io))"
		" FROM pg_catalog.pg_stat_all_tables t"
		" JOIN pg_catalog.pg_statio_all_tables io ON io.relid = t.relid"
		" WHERE t.relid = ANY ($2))"},
	{"indexes", NULL,
		"(SELECT pg_catalog.jsonb_agg(pg_catalog.to_jsonb(x) OPERATOR(pg_catalog.||) pg_catalog.to_jsonb(io))"
		" FROM pg_catalog.pg_stat_all_indexes x"
		" JOIN pg_catalog.pg_statio_all_indexes io ON io.indexrelid = x.indexrelid"
		" WHERE x.relid = ANY ($2))"},
	{"cpu", NULL,
		"$3::pg_catalog.jsonb"},
};

#define OBS_NSOURCES lengthof(obs_sources)

/*
 * obs_view_exists
 *		Whether the sampled server has the statistics view pg_catalog.NAME.
 */
static bool
obs_view_exists(BkObserver *o, const char *name)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {CStringGetTextDatum(name)};

	return strcmp(obs_text(o, "SELECT pg_catalog.count(*) FROM pg_catalog.pg_class c"
						   " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
						   " WHERE n.nspname = 'pg_catalog' AND c.relname OPERATOR(pg_catalog.=) $1",
						   1, types, values), "0") != 0;
}

/*
 * obs_sample_sql
 *		The query that reads one sample, as a jsonb object with one key per
 *		source that READ says to read (see obs_sources), then the
 *		statements of pg_stat_statements in schema PGSS_SCHEMA, if given.
 *		With TEXTS, the texts of the run's role's statements, redacted
 *		(redact.c) once the busiest are chosen, not every text of the view;
 *		without REDACT (a target, which has no bench._redact_statement) as
 *		they are, to be redacted here before they are stored.
 */
static char *
obs_sample_sql(const bool *read, const char *pgss_schema, bool texts, bool redact)
{
	StringInfoData q;
	const char *sep = "";

	initStringInfo(&q);
	appendStringInfoString(&q, "SELECT pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(");
	for (int i = 0; i < OBS_NSOURCES; i++)
	{
		if (!read[i])
			continue;
		appendStringInfo(&q, "%s'%s', %s", sep, obs_sources[i].key, obs_sources[i].expr);
		sep = ", ";
	}
	if (pgss_schema != NULL)
		appendStringInfo(&q,
						 ", 'statements', (SELECT pg_catalog.jsonb_agg(pg_catalog.to_jsonb(s) OPERATOR(pg_catalog.-) 'rank'%s) FROM ("
						 " SELECT s.queryid, s.userid, s.toplevel,%s s.userid = $5 AS own, s.calls,"
						 " s.total_exec_time, s.plans, s.total_plan_time, s.rows, s.shared_blks_hit, s.shared_blks_read,"
						 " s.shared_blks_dirtied, s.shared_blks_written, s.temp_blks_written,"
						 " s.wal_records, s.wal_fpi, s.wal_bytes,"
						 " pg_catalog.row_number() OVER (PARTITION BY s.userid = $5 ORDER BY s.total_exec_time DESC) AS rank"
						 " FROM %s.pg_stat_statements(%s) s WHERE s.dbid = $1 AND s.queryid IS NOT NULL) s"
						 " WHERE s.rank <= CASE WHEN s.own THEN %d ELSE %d END)",
						 texts && redact ? " OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object('query', bench._redact_statement(s.query))" : "",
						 texts ? " CASE WHEN s.userid = $5 THEN s.query END AS query," : "",
						 quote_identifier(pgss_schema),
						 texts ? "true" : "false",
						 texts ? OBS_OWN_STATEMENTS : OBS_OWN_STATEMENTS_DURING,
						 texts ? OBS_OTHER_STATEMENTS : OBS_OTHER_STATEMENTS_DURING);
	appendStringInfoString(&q, "))");
	return q.data;
}

static void
obs_pgss_probe(void *arg)
{
	const char *schema = arg;

	bk_spi_connect();
	if (SPI_execute(psprintf("SELECT 1 FROM %s.pg_stat_statements(false) LIMIT 1",
							 quote_identifier(schema)), true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read pg_stat_statements");
	bk_spi_finish();
}

/* whether pg_stat_statements can be read here; the reason why not in *WHY */
static bool
obs_pgss_usable(const char *schema, char **why)
{
	ErrorData  *edata = obs_try(obs_pgss_probe, (void *) schema);

	if (edata == NULL)
		return true;
	*why = psprintf("pg_stat_statements could not be read: %s", edata->message);
	return false;
}

/*
 * bk_obs_init
 *		Find the workload's tables and which sources this server and this
 *		role can read; prepare the sample queries.
 */
void
bk_obs_init(BkObserver *o, int64 run_id, int64 dataset_id, Oid roleid)
{
	MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);
	char	   *pgss;
	char	   *why = NULL;
	bool		read[OBS_NSOURCES];

	memset(o, 0, sizeof(*o));
	o->run_id = run_id;
	o->dboid = MyDatabaseId;
	o->roleid = roleid;
	o->stats_priv = has_privs_of_role(roleid, ROLE_PG_READ_ALL_STATS);
	initStringInfo(&o->unavailable);
	appendStringInfoChar(&o->unavailable, '{');
	MemoryContextSwitchTo(old);

	{
		MemoryContext cur = MemoryContextSwitchTo(TopMemoryContext);

		obs_dataset_tables(dataset_id, &o->tables, &o->ntables);
		MemoryContextSwitchTo(cur);
	}

	/* the coordinator's own queries are not the workload's */
	if (GetConfigOption("pg_stat_statements.track", true, false) != NULL)
		SetConfigOption("pg_stat_statements.track", "none", PGC_SUSET, PGC_S_OVERRIDE);

	pgss = obs_extension_schema(o, "pg_stat_statements");
	if (pgss == NULL)
		obs_unavailable(o, "statements", "pg_stat_statements is not installed in this database");
	else if (!obs_pgss_usable(pgss, &why))
	{
		obs_unavailable(o, "statements", why);
		pgss = NULL;
	}
	else if (!o->stats_priv)
		obs_unavailable(o, "statements of other roles",
						"the run's role is not a member of pg_read_all_stats (pg_monitor)");
	if (!o->stats_priv)
	{
		obs_unavailable(o, "cpu", "the run's role is not a member of pg_read_all_stats (pg_monitor)");
		obs_unavailable(o, "host", "the run's role is not a member of pg_read_all_stats (pg_monitor)");
	}
	else
	{
		double		a;

		if (!obs_server_cpu(&a))
			obs_unavailable(o, "cpu", "/proc is not readable: the CPU time of the server's processes is unknown");
		else if (obs_host_cpu(NULL) == NULL)
			obs_unavailable(o, "host cpu", "/proc/stat is not readable");
	}

	for (int i = 0; i < OBS_NSOURCES; i++)
		read[i] = obs_sources[i].view == NULL || obs_view_exists(o, obs_sources[i].view);
	for (int texts = 0; texts < 2; texts++)
	{
		Oid			types[5] = {OIDOID, OIDARRAYOID, TEXTOID, INT8OID, OIDOID};
		char	   *sql = obs_sample_sql(read, pgss, texts == 1, true);

		bk_spi_connect();
		o->sample_plan[texts] = SPI_prepare(sql, 5, types);
		if (o->sample_plan[texts] == NULL)
			elog(ERROR, "could not prepare the sample query: %s", SPI_result_code_string(SPI_result));
		if (SPI_keepplan(o->sample_plan[texts]) != 0)
			elog(ERROR, "could not keep the sample query");
		bk_spi_finish();
	}
	o->sampling = true;
}

/*
 * obs_prewarm_remote
 *		Prewarm the workload's tables and their indexes on the target with
 *		its pg_prewarm, where it has it, timing each on the target's clock.
 */
static void
obs_prewarm_remote(BkObserver *o)
{
	const char *schema;
	char	   *sql;
	PGresult   *r;
	MemoryContext old;

	if (o->ntables == 0)
		return;
	schema = obs_extension_schema(o, "pg_prewarm");
	old = MemoryContextSwitchTo(TopMemoryContext);
	if (schema == NULL)
	{
		obs_unavailable(o, "prewarm", "pg_prewarm is not installed in the target's database");
		MemoryContextSwitchTo(old);
		return;
	}
	MemoryContextSwitchTo(old);
	/* the relations first (materialized), then one pg_prewarm each */
	sql = psprintf("%s, r AS MATERIALIZED ("
				   " SELECT x.oid, pg_catalog.format('%%I.%%I', n.nspname, x.relname) AS relation,"
				   " CASE WHEN x.relkind = 'i' THEN 'index' ELSE 'table' END AS kind"
				   " FROM (SELECT t.relid AS oid FROM t UNION ALL"
				   "       SELECT i.indexrelid FROM t JOIN pg_catalog.pg_index i ON i.indrelid = t.relid) o"
				   " JOIN pg_catalog.pg_class x ON x.oid = o.oid"
				   " JOIN pg_catalog.pg_namespace n ON n.oid = x.relnamespace)"
				   " SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object("
				   " 'relid', r.oid, 'relation', r.relation, 'kind', r.kind,"
				   " 'blocks', p.blocks, 'seconds', EXTRACT(epoch FROM p.t1 OPERATOR(pg_catalog.-) p.t0))"
				   " ORDER BY r.relation)"
				   " FROM r CROSS JOIN LATERAL (SELECT pg_catalog.clock_timestamp() AS t0, %s.pg_prewarm(r.oid) AS blocks) p0"
				   " CROSS JOIN LATERAL (SELECT p0.t0, p0.blocks, pg_catalog.clock_timestamp() AS t1) p",
				   leaf_tables_cte, quote_identifier(schema));
	r = bk_target_exec_params(o->remote, sql, 1, (Oid[]) {OIDARRAYOID},
							  (const char *[]) {o->remote_tables});
	old = MemoryContextSwitchTo(TopMemoryContext);
	if (r != NULL && PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 &&
		!PQgetisnull(r, 0, 0))
		o->prewarm_json = pstrdup(PQgetvalue(r, 0, 0));
	else
		obs_unavailable(o, "prewarm",
						psprintf("pg_prewarm on the target failed: %s",
								 pchomp(r ? PQresultErrorMessage(r) : PQerrorMessage(o->remote))));
	MemoryContextSwitchTo(old);
	PQclear(r);
}

/*
 * bk_obs_init_remote
 *		An observer of a run against a target, reading its statistics over
 *		CONN (the coordinator's connection, as the target's role): which
 *		sources that server and that role can read, the workload's tables
 *		there (pgbench's, with PGBENCH_TABLES), and the sample queries.  The
 *		CPU time and host of a target cannot be read from here.
 */
void
bk_obs_init_remote(BkObserver *o, int64 run_id, Oid roleid, PGconn *conn,
				   const char *name, const char *table_names)
{
	MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);
	bool		read[OBS_NSOURCES];
	char	   *pgss;
	char	   *tables;
	PGresult   *r;

	memset(o, 0, sizeof(*o));
	o->run_id = run_id;
	o->roleid = roleid;
	o->remote = conn;
	o->remote_name = pstrdup(name);
	initStringInfo(&o->unavailable);
	appendStringInfoChar(&o->unavailable, '{');

	/* the role's own statements are the workload's: keep ours out, if it may */
	PQclear(bk_target_exec(conn, "SET pg_stat_statements.track = 'none'"));

	o->remote_dboid = obs_remote_text(o, "SELECT d.oid FROM pg_catalog.pg_database d"
									  " WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database()",
									  0, NULL, NULL);
	o->remote_roleid = obs_remote_text(o, "SELECT r.oid FROM pg_catalog.pg_roles r"
									   " WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER",
									   0, NULL, NULL);
	o->stats_priv = strcmp(obs_remote_text(o, "SELECT pg_catalog.pg_has_role('pg_read_all_stats', 'member')",
										   0, NULL, NULL), "t") == 0;
	if (table_names != NULL)
	{
		Oid			ntypes[1] = {TEXTOID};
		const char *nvalues[1] = {table_names};

		tables = obs_remote_text(o, "SELECT pg_catalog.array_agg(c.oid ORDER BY c.relname) FROM pg_catalog.pg_class c"
								 " WHERE c.relname OPERATOR(pg_catalog.=) ANY ($1::pg_catalog.name[])"
								 " AND c.relkind IN ('r', 'p') AND pg_catalog.pg_table_is_visible(c.oid)",
								 1, ntypes, nvalues);
	}
	else
		tables = NULL;
	o->remote_tables = tables ? tables : pstrdup("{}");
	if (tables != NULL)
	{
		Datum		arr = OidFunctionCall3(F_ARRAY_IN, CStringGetDatum(tables),
										   ObjectIdGetDatum(OIDOID), Int32GetDatum(-1));
		Datum	   *elems;
		bool	   *enulls;

		deconstruct_array(DatumGetArrayTypeP(arr), OIDOID, sizeof(Oid), true, TYPALIGN_INT,
						  &elems, &enulls, &o->ntables);
		o->tables = palloc(sizeof(Oid) * Max(o->ntables, 1));
		for (int i = 0; i < o->ntables; i++)
			o->tables[i] = DatumGetObjectId(elems[i]);
	}

	pgss = obs_extension_schema(o, "pg_stat_statements");
	if (pgss == NULL)
		obs_unavailable(o, "statements", "pg_stat_statements is not installed in the target's database");
	else
	{
		r = bk_target_exec(conn, psprintf("SELECT 1 FROM %s.pg_stat_statements(false) LIMIT 1",
										  quote_identifier(pgss)));
		if (r == NULL || PQresultStatus(r) != PGRES_TUPLES_OK)
		{
			obs_unavailable(o, "statements",
							psprintf("pg_stat_statements could not be read on the target: %s",
									 pchomp(r ? PQresultErrorMessage(r) : PQerrorMessage(conn))));
			pgss = NULL;
		}
		PQclear(r);
	}
	if (pgss != NULL && !o->stats_priv)
		obs_unavailable(o, "statements of other roles",
						"the target's role is not a member of pg_read_all_stats (pg_monitor)");
	obs_unavailable(o, "cpu", "the CPU time of a target's processes cannot be read from here");
	obs_unavailable(o, "host", "the host of a target cannot be read from here");

	for (int i = 0; i < OBS_NSOURCES; i++)
		read[i] = obs_sources[i].view == NULL || obs_view_exists(o, obs_sources[i].view);
	for (int texts = 0; texts < 2; texts++)
		o->remote_sample_sql[texts] = obs_sample_sql(read, pgss, texts == 1, false);
	o->sampling = true;
	MemoryContextSwitchTo(old);
}

/*
 * bk_obs_prewarm
 *		Prewarm the workload's relations; the rows for bench.prewarms are
 *		written by bk_obs_begin, with the run's row.
 */
void
bk_obs_prewarm(BkObserver *o)
{
	ObsPrewarmed *done;
	int			n;
	char	   *skipped;
	StringInfoData buf;

	if (o->remote != NULL)
	{
		obs_prewarm_remote(o);
		return;
	}
	n = obs_prewarm_list(o->tables, o->ntables, &done);
	skipped = obs_prewarm_skipped(done, n);

	initStringInfo(&buf);
	if (skipped != NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

		obs_unavailable(o, "prewarm", skipped);
		MemoryContextSwitchTo(old);
	}
	appendStringInfoChar(&buf, '[');
	for (int i = 0; i < n; i++)
	{
		if (done[i].skipped)
			continue;
		appendStringInfo(&buf, "%s{\"relid\": %u, \"relation\": ", buf.len > 1 ? ", " : "", done[i].relid);
		escape_json(&buf, done[i].relation);
		appendStringInfoString(&buf, ", \"kind\": ");
		escape_json(&buf, done[i].kind);
		appendStringInfo(&buf, ", \"blocks\": %lld, \"seconds\": %.9f}",
						 (long long) done[i].blocks, done[i].seconds);
	}
	appendStringInfoChar(&buf, ']');
	o->prewarm_json = MemoryContextStrdup(TopMemoryContext, buf.data);
}

/* sizes of the workload's tables and indexes into bench.relation_sizes */
static void
obs_sizes(BkObserver *o, const char *phase)
{
	Oid			types[3] = {OIDARRAYOID, TEXTOID, TEXTOID};
	Datum		values[3];
	char	   *json;
	BkOwnerSwitch sw;

	if (o->ntables == 0)
		return;
	values[0] = obs_oid_array(o->tables, o->ntables);
	json = obs_text(o, psprintf("%s SELECT pg_catalog.jsonb_agg(x) FROM ("
								   " SELECT c.oid AS relid, pg_catalog.format('%%I.%%I', n.nspname, c.relname) AS relation,"
								   " 'table' AS kind, pg_catalog.format('%%I.%%I', n.nspname, c.relname) AS table_name,"
								   " pg_catalog.pg_relation_size(c.oid) AS main_bytes,"
								   " CASE WHEN c.reltoastrelid <> 0 THEN pg_catalog.pg_total_relation_size(c.reltoastrelid)"
								   " ELSE 0 END AS toast_bytes,"
								   " pg_catalog.pg_indexes_size(c.oid) AS indexes_bytes,"
								   " pg_catalog.pg_total_relation_size(c.oid) AS total_bytes"
								   " FROM t JOIN pg_catalog.pg_class c ON c.oid = t.relid"
								   " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
								   " UNION ALL"
								   " SELECT i.indexrelid, pg_catalog.format('%%I.%%I', n.nspname, x.relname), 'index',"
								   " pg_catalog.format('%%I.%%I', n.nspname, c.relname), pg_catalog.pg_relation_size(i.indexrelid),"
								   " NULL, NULL, pg_catalog.pg_total_relation_size(i.indexrelid)"
								   " FROM t JOIN pg_catalog.pg_index i ON i.indrelid = t.relid"
								   " JOIN pg_catalog.pg_class c ON c.oid = i.indrelid"
								   " JOIN pg_catalog.pg_class x ON x.oid = i.indexrelid"
								   " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace) x",
								   leaf_tables_cte),
					1, types, values);
	if (json == NULL)
		return;
	values[0] = Int64GetDatum(o->run_id);
	values[1] = CStringGetTextDatum(phase);
	values[2] = CStringGetTextDatum(json);
	types[0] = INT8OID;
	types[1] = TEXTOID;
	bk_become_owner(&sw);
	bk_spi_exec("INSERT INTO bench.relation_sizes"
				" SELECT $1, $2, x.relid, x.relation, x.kind, x.table_name, x.main_bytes,"
				" x.toast_bytes, x.indexes_bytes, x.total_bytes"
				" FROM pg_catalog.jsonb_to_recordset($3::pg_catalog.jsonb) AS x (relid oid,"
				" relation text, kind text, table_name text, main_bytes bigint,"
				" toast_bytes bigint, indexes_bytes bigint, total_bytes bigint)",
				3, types, values, NULL, SPI_OK_INSERT);
	bk_restore_user(&sw);
}

/*
 * A target's sample as it is stored: its statements' texts (the run's
 * role's, as the target's pg_stat_statements kept them) redacted here, as
 * the sample query redacts them on this server.
 */
static const char *const obs_redact_statements_sql =
"(SELECT CASE WHEN pg_catalog.jsonb_typeof(x.d OPERATOR(pg_catalog.->) 'statements') = 'array'"
" THEN pg_catalog.jsonb_set(x.d, '{statements}', (SELECT pg_catalog.jsonb_agg("
" CASE WHEN pg_catalog.jsonb_typeof(e.st OPERATOR(pg_catalog.->) 'query') = 'string'"
" THEN pg_catalog.jsonb_set(e.st, '{query}', pg_catalog.to_jsonb(bench._redact_statement(e.st OPERATOR(pg_catalog.->>) 'query')))"
" ELSE e.st END ORDER BY e.n)"
" FROM pg_catalog.jsonb_array_elements(x.d OPERATOR(pg_catalog.->) 'statements') WITH ORDINALITY AS e (st, n)))"
" ELSE x.d END FROM (SELECT $6::pg_catalog.jsonb AS d) x)";

/* read one sample as the run's role, and store it */
static void
obs_sample_store(BkObserver *o, const char *phase, TimestampTz at, double elapsed_s,
				 int64 xacts)
{
	Datum		values[8];
	char		nulls[8] = {' ', ' ', ' ', ' ', ' ', ' ', ' ', ' '};
	Oid			types[8] = {INT8OID, INT4OID, TEXTOID, TIMESTAMPTZOID, FLOAT8OID, TEXTOID,
	FLOAT8OID, FLOAT8OID};
	int64		t0 = bk_now_ns();
	int64		cpu0 = obs_process_cpu_ns();
	char	   *cpu = obs_cpu_json(o);
	char	   *json;
	MemoryContext cxt = CurrentMemoryContext;
	BkOwnerSwitch sw;

	values[0] = ObjectIdGetDatum(o->dboid);
	values[1] = obs_oid_array(o->tables, o->ntables);
	if (cpu != NULL)
		values[2] = CStringGetTextDatum(cpu);
	else
		nulls[2] = 'n';
	values[3] = Int64GetDatum(xacts);
	values[4] = ObjectIdGetDatum(o->roleid);

	if (o->remote != NULL)
	{
		Oid			rtypes[5] = {OIDOID, OIDARRAYOID, TEXTOID, INT8OID, OIDOID};
		const char *params[5] = {o->remote_dboid, o->remote_tables, NULL,
		psprintf(INT64_FORMAT, xacts), o->remote_roleid};

		json = obs_remote_text(o, o->remote_sample_sql[strcmp(phase, "during") == 0 ? 0 : 1],
							   5, rtypes, params);
		if (json == NULL)
			elog(ERROR, "could not read a sample of the target");
	}
	else
	{
		bk_spi_connect();
		if (SPI_execute_plan(o->sample_plan[strcmp(phase, "during") == 0 ? 0 : 1],
							 values, nulls, true, 1) != SPI_OK_SELECT || SPI_processed != 1)
			elog(ERROR, "could not read a sample");
		json = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
		json = MemoryContextStrdup(cxt, json);
		bk_spi_finish();
	}

	memset(nulls, ' ', sizeof(nulls));
	values[0] = Int64GetDatum(o->run_id);
	values[1] = Int32GetDatum(o->sample_no);
	values[2] = CStringGetTextDatum(phase);
	values[3] = TimestampTzGetDatum(at);
	values[4] = Float8GetDatum(elapsed_s);
	values[5] = CStringGetTextDatum(json);
	/*
	 * What reading it cost the coordinator, the sampling's own price: wall
	 * time (longer when the clients keep the CPUs busy) and CPU time.
	 */
	values[6] = Float8GetDatum((bk_now_ns() - t0) / 1e6);
	values[7] = Float8GetDatum((obs_process_cpu_ns() - cpu0) / 1e6);
	bk_become_owner(&sw);
	bk_spi_exec(psprintf("INSERT INTO bench.samples (run_id, sample_no, phase, taken_at, elapsed_s, data)"
						 " VALUES ($1, $2, $3, $4, $5, %s OPERATOR(pg_catalog.||)"
						 " pg_catalog.jsonb_build_object('read_ms', pg_catalog.round($7::pg_catalog.numeric, 3),"
						 " 'read_cpu_ms', pg_catalog.round($8::pg_catalog.numeric, 3)))",
						 o->remote ? obs_redact_statements_sql : "$6::pg_catalog.jsonb"),
				8, types, values, nulls, SPI_OK_INSERT);
	bk_restore_user(&sw);
	o->sample_no++;
}

typedef struct ObsSampleCall
{
	BkObserver *o;
	const char *phase;
	TimestampTz at;
	double		elapsed_s;
	int64		xacts;
} ObsSampleCall;

static void
obs_sample_one(void *arg)
{
	ObsSampleCall *c = arg;

	obs_sample_store(c->o, c->phase, c->at, c->elapsed_s, c->xacts);
}

/*
 * bk_obs_sample
 *		One sample, in a subtransaction: if it fails, sampling stops, the
 *		failure is named in bench.runs.unavailable, and the run goes on.
 */
void
bk_obs_sample(BkObserver *o, const char *phase, TimestampTz at, double elapsed_s,
			  int64 xacts)
{
	ObsSampleCall call = {o, phase, at, elapsed_s, xacts};
	ErrorData  *edata;
	MemoryContext old;

	if (!o->sampling)
		return;
	edata = obs_try(obs_sample_one, &call);
	if (edata == NULL)
		return;
	/* a cancel or a shutdown is the run's business, not the sample's */
	if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED ||
		edata->sqlerrcode == ERRCODE_ADMIN_SHUTDOWN)
		ReThrowError(edata);
	o->sampling = false;
	old = MemoryContextSwitchTo(TopMemoryContext);
	obs_unavailable(o, "samples",
					psprintf("sampling stopped at sample %d (%s): %s",
							 o->sample_no, phase, edata->message));
	MemoryContextSwitchTo(old);
	ereport(WARNING,
			(errmsg("run %lld: sampling stopped: %s", (long long) o->run_id, edata->message)));
}

/*
 * The settings only superusers and pg_read_all_settings may read (paths,
 * primary_conninfo, ssl_passphrase_command ...), as a text[] literal: they
 * are not recorded, since everyone may read bench.runs.
 */
static char *
obs_hidden_settings(void)
{
	StringInfoData buf;
	int			nvars;
	struct config_generic **vars = get_guc_variables_compat(&nvars);

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	for (int i = 0; i < nvars; i++)
	{
		if ((vars[i]->flags & GUC_SUPERUSER_ONLY) == 0)
			continue;
		if (buf.len > 1)
			appendStringInfoChar(&buf, ',');
		appendStringInfo(&buf, "\"%s\"", vars[i]->name);
	}
	appendStringInfoChar(&buf, '}');
	return buf.data;
}

/* bench.runs.unavailable, when it changed */
static void
obs_write_unavailable(BkObserver *o)
{
	Oid			types[2] = {INT8OID, TEXTOID};
	Datum		values[2];
	BkOwnerSwitch sw;

	if (!o->unavailable_changed)
		return;
	values[0] = Int64GetDatum(o->run_id);
	values[1] = CStringGetTextDatum(obs_unavailable_json(o));
	bk_become_owner(&sw);
	bk_spi_exec(psprintf("UPDATE %s SET unavailable = $2::pg_catalog.jsonb WHERE id = $1",
						 bk_runs_table()),
				2, types, values, NULL, SPI_OK_UPDATE);
	bk_restore_user(&sw);
	o->unavailable_changed = false;
}

/*
 * bk_obs_begin
 *		With the run's row, before the clients go: what was prewarmed, the
 *		settings and host facts, the sizes before, and the first sample.
 */
void
bk_obs_begin(BkObserver *o, TimestampTz at, double elapsed_s, int64 xacts)
{
	Oid			types[4] = {INT8OID, TEXTOID, TEXTOID, TEXTOID};
	Datum		values[4];
	char		nulls[4] = {' ', ' ', ' ', ' '};
	char	   *settings = NULL;
	BkOwnerSwitch sw;

	if (o->remote == NULL)
	{
		Oid			t[2] = {TEXTOID, TEXTOID};
		Datum		v[2] = {CStringGetTextDatum(notable_settings),
		CStringGetTextDatum(obs_hidden_settings())};

		settings = obs_query_text("SELECT pg_catalog.jsonb_object_agg(s.name, pg_catalog.current_setting(s.name))"
								  " FROM pg_catalog.pg_settings s"
								  " WHERE (s.source NOT IN ('default', 'override', 'client', 'session', 'interactive')"
								  " OR s.name = ANY ($1::pg_catalog.text[]))"
								  " AND s.name <> ALL ($2::pg_catalog.text[])",
								  2, t, v);
	}
	values[0] = Int64GetDatum(o->run_id);
	if (settings != NULL)
		values[1] = CStringGetTextDatum(settings);
	else
		nulls[1] = 'n';
	if (o->stats_priv && o->remote == NULL)
		values[2] = CStringGetTextDatum(obs_host_json());
	else
		nulls[2] = 'n';
	values[3] = CStringGetTextDatum(obs_unavailable_json(o));
	bk_become_owner(&sw);
	/* a target's settings were read by the coordinator; its host is not here */
	bk_spi_exec(psprintf(o->remote ?
						 "UPDATE %s SET unavailable = $4::pg_catalog.jsonb WHERE id = $1" :
						 "UPDATE %s SET settings = $2::pg_catalog.jsonb, host = $3::pg_catalog.jsonb,"
						 " unavailable = $4::pg_catalog.jsonb WHERE id = $1",
						 bk_runs_table()),
				4, types, values, nulls, SPI_OK_UPDATE);
	if (o->prewarm_json != NULL)
	{
		types[1] = TEXTOID;
		values[1] = CStringGetTextDatum(o->prewarm_json);
		bk_spi_exec("INSERT INTO bench.prewarms (run_id, relid, relation, kind, blocks, seconds)"
					" SELECT $1, p.relid, p.relation, p.kind, p.blocks, p.seconds"
					" FROM pg_catalog.jsonb_to_recordset($2::pg_catalog.jsonb) AS p (relid oid,"
					" relation text, kind text, blocks bigint, seconds double precision)",
					2, types, values, NULL, SPI_OK_INSERT);
	}
	bk_restore_user(&sw);
	o->unavailable_changed = false;

	obs_sizes(o, "before");
	bk_obs_sample(o, "before", at, elapsed_s, xacts);
	obs_write_unavailable(o);
}

/*
 * bk_obs_end
 *		After the clients stopped: the last sample and the sizes after.
 */
void
bk_obs_end(BkObserver *o, TimestampTz at, double elapsed_s, int64 xacts)
{
	/* one more try after a sample that failed: the run needs this one */
	o->sampling = true;
	bk_obs_sample(o, "after", at, elapsed_s, xacts);
	obs_sizes(o, "after");
	obs_write_unavailable(o);
}

/*
 * bk_obs_settings_sql
 *		The query that reads a server's settings as runs record them (those
 *		set other than by default, and the notable ones), for a target: the
 *		same as bk_obs_begin's, the values inlined.  Settings only
 *		superusers may read are left out there too.
 */
char *
bk_obs_settings_sql(void)
{
	return psprintf("SELECT pg_catalog.jsonb_object_agg(s.name, pg_catalog.current_setting(s.name))"
					" FROM pg_catalog.pg_settings s"
					" WHERE (s.source NOT IN ('default', 'override', 'client', 'session', 'interactive')"
					" OR s.name OPERATOR(pg_catalog.=) ANY (%s::pg_catalog.text[]))"
					" AND s.name OPERATOR(pg_catalog.<>) ALL (%s::pg_catalog.text[])",
					quote_literal_cstr(notable_settings),
					quote_literal_cstr(obs_hidden_settings()));
}
