/*-------------------------------------------------------------------------
 *
 * cpu.c
 *		CPU and host facts, from the operating system: the CPU time of the
 *		server's processes and of the host from /proc for each sample
 *		(sample.c), the host facts the server can see (bench.runs.host),
 *		and bench._host_cpu_sample, the host's figures of given text.
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

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"

#include "meta/catalog.h"
#include "observe/observe.h"
#include "observe/cpu.h"
#include "core/pgbenchkit.h"

PG_FUNCTION_INFO_V1(bench_host_cpu_sample);

/* the CPU time (user + system) of this process so far, in ns */
int64
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
char *
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
bool
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
char *
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
char *
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
