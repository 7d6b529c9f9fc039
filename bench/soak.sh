#!/usr/bin/env bash
# The soak: hundreds of short runs and sweeps back to back on one cluster,
# then a search for anything they left behind.
#
#   bench/soak.sh [--runs 500] [--sweeps 20] [--port 5560] [--keep]
#
# Creates a throwaway cluster (initdb as the postgres OS user when run as
# root) in a temporary folder, port --port, listening on 127.0.0.1,
# max_worker_processes = 64, shared_buffers = 128MB,
# dynamic_shared_memory_type = mmap (its segments are files of its own
# data directory, pg_dynshmem, apart from other clusters'); PG_BIN names the
# directory of initdb, pg_ctl and psql (default: PostgreSQL 15's), whose
# server has pgbenchkit installed.  Loads bench.init('tpcb', scale => 1) and
# adds the target `self` (this server over TCP).  Then, from one psql
# session, --runs short runs in turn, each tagged with the status it must
# end with:
#   select-only, tpcb and simple-update, 1 to 4 clients, 50 to 200
#   transactions each (done); a script with \set, \if and a pipeline (done);
#   every 10th run against the target `self`, over libpq (done); every
#   25th a script that divides by zero (failed); every 50th started with
#   bench.start and canceled with bench.cancel (canceled).
# The summed proportional set size (Pss of /proc/PID/smaps_rollup) of the
# postmaster and its children is read after run 50 and after the last run.
# Then --sweeps sweeps of select-only over 1 and 2 clients, twice each.
# Last it checks, and prints:
#   - every run ended with the status its tag names, and every suite done;
#   - no row of bench.progress, bench.histograms, bench.command_latencies,
#     bench.run_scripts, bench.samples, bench.prewarms or
#     bench.relation_sizes without its run, and no run without its suite;
#   - no pgbenchkit worker left, no more dynamic shared memory segments
#     (files of pg_dynshmem) than after run 50, no prepared statement in
#     the session that ran everything, no prepared transaction, no lock
#     held by a client backend or a pgbenchkit worker, no advisory lock;
#   - the Pss after the last run within 5% or 20 MB (whichever is larger)
#     of its value after run 50 (and, for comparison, the processes'
#     private memory, which shared buffers touched by more processes do not
#     grow);
# with the wall time, the runs' mean measured time and the overhead of a
# run (wall time per run less its measured time).  The exit status is
# non-zero if a check failed.  Needs root (or the postgres OS user) to read
# the server's /proc/PID/smaps_rollup.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

# the summed Pss and private memory (kB) of the postmaster (of data
# directory $1) and of every process it started: "PSS PRIVATE"
pss_kb() {
	local pm pids p pss=0 priv=0 a b
	read -r pm <"$1/postmaster.pid"
	mapfile -t pids < <(ps -o pid= --ppid "$pm")
	for p in "$pm" "${pids[@]}"; do
		# shellcheck disable=SC2016  # awk's own $2
		read -r a b < <(as_root awk '/^Pss:/ { s = $2 } /^Private_(Clean|Dirty):/ { v += $2 }
			END { print s + 0, v + 0 }' "/proc/${p// /}/smaps_rollup" 2>/dev/null || echo "0 0")
		pss=$((pss + ${a:-0})) priv=$((priv + ${b:-0}))
	done
	echo "$pss $priv"
}
# the cluster's dynamic shared memory segments: files of pg_dynshmem, as
# the cluster keeps them there (dynamic_shared_memory_type = mmap), apart
# from every other cluster's in /dev/shm
dsm_count() { as_root find "$1/pg_dynshmem" -maxdepth 1 -type f -name 'mmap.*' 2>/dev/null | wc -l; }

# --mark NAME: what the psql session running the soak calls between its
# phases (\!), writing "Pss DSM-segments time" to a file of the soak's folder
if [[ ${1:-} == --mark ]]; then
	echo "$(pss_kb "$SOAK_DATA") $(dsm_count "$SOAK_DATA") $(date +%s.%N)" >"$SOAK_WORK/mark-$2"
	exit 0
fi

RUNS=500 SWEEPS=20 PORT=5560 KEEP=0
while (($#)); do
	case $1 in
	--runs) RUNS=$2; shift 2 ;;
	--sweeps) SWEEPS=$2; shift 2 ;;
	--port) PORT=$2; shift 2 ;;
	--keep) KEEP=1; shift ;;
	*) echo "usage: $0 [--runs N] [--sweeps N] [--port N] [--keep]" >&2; exit 2 ;;
	esac
done
for v in "$RUNS" "$SWEEPS" "$PORT"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || die "options take positive whole numbers, not '$v'"
done
((RUNS >= 50)) || die "--runs must be at least 50 (memory is compared with its value after run 50)"
BIN=${PG_BIN:-$(pg_bindir 15)}
[[ -x $BIN/psql && -x $BIN/initdb ]] || die "no psql or initdb in $BIN (set PG_BIN)"

# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() { bench_cluster_cleanup $? "$KEEP"; }
trap cleanup EXIT

bench_cluster_create soak "$PORT" <<EOF
listen_addresses = '127.0.0.1'
max_worker_processes = 64
shared_buffers = '128MB'
dynamic_shared_memory_type = mmap
EOF
PSQL=("$BIN/psql" -X -q -v ON_ERROR_STOP=1)
"${PSQL[@]}" -d postgres -c "CREATE DATABASE bench"
"${PSQL[@]}" -c "SET client_min_messages = warning" -c "CREATE EXTENSION pgbenchkit CASCADE"
"${PSQL[@]}" -At -c "SELECT rows_loaded FROM bench.init('tpcb', scale => 1)" >/dev/null
"${PSQL[@]}" -At -c "SELECT name FROM bench.add_target('self', 'host=127.0.0.1 port=$PORT dbname=bench')" >/dev/null
echo "soak: $RUNS runs, $SWEEPS sweeps, server $("${PSQL[@]}" -Atc 'show server_version'), $(nproc) cores," \
	"load average $(cut -d' ' -f1-3 /proc/loadavg)"

# the SQL of run I (1-based), tagged soak:I:<the status it must end with>
run_sql() {
	local i=$1 c=$((1 + $1 % 4)) t=$((50 + ($1 % 4) * 50))
	if ((i % 50 == 0)); then
		cat <<EOF
SELECT bench.start('select-only', clients => 2, duration => '10 min', progress => '0',
                    prewarm => false, tag => 'soak:$i:canceled') AS cid \gset
SELECT pg_sleep(0.2);
SELECT bench.cancel(:cid) AS canceled \gset
SELECT status FROM bench.wait(:cid) \gset
EOF
	elif ((i % 25 == 0)); then
		cat <<EOF
SELECT bench.run(script => E'\\\\set zero 0\\nSELECT 1 / :zero;', transactions => 5, progress => '0',
                 prewarm => false, tag => 'soak:$i:failed');
EOF
	elif ((i % 10 == 0)); then
		echo "SELECT status FROM bench.run('tpcb', clients => $c, transactions => $t, progress => '0', prewarm => false, target => 'self', tag => 'soak:$i:done') \\gset"
	elif ((i % 7 == 0)); then
		cat <<EOF
SELECT status FROM bench.run(script => E'\\\\set aid random(1, 100000)\\n\\\\if :aid % 2 = 0\\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\\n\\\\else\\n\\\\startpipeline\\nSELECT 1;\\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\\n\\\\endpipeline\\n\\\\endif\\n',
                             clients => $c, transactions => $t, progress => '0', prewarm => false, tag => 'soak:$i:done') \\gset
EOF
	else
		local w=(select-only tpcb simple-update)
		echo "SELECT status FROM bench.run('${w[$((i % 3))]}', clients => $c, transactions => $t, progress => '0', prewarm => false, tag => 'soak:$i:done') \\gset"
	fi
}

# everything from one session: run 1..50, note Pss and DSM segments,
# run 51..RUNS, note them again, then the sweeps; the session's prepared
# statements at the end
SQL=$WORK/soak.sql
SELF=$(readlink -f "${BASH_SOURCE[0]}")
{
	echo '\set ON_ERROR_STOP 0'
	echo '\set QUIET 1'
	echo 'SET client_min_messages = warning;'
	for ((i = 1; i <= 50; i++)); do run_sql "$i"; done
	echo "\\! $SELF --mark after-50"
	for ((i = 51; i <= RUNS; i++)); do run_sql "$i"; done
	echo "\\! $SELF --mark after-runs"
	for ((i = 1; i <= SWEEPS; i++)); do
		echo "SELECT count(*) FROM bench.sweep('select-only', clients => '{1,2}', repeat => 2, transactions => 100, progress => '0', prewarm => false, tag => 'soak:sweep:done') \\gset"
	done
	echo '\o'
	echo "SELECT 'prepared_statements=' || count(*) FROM pg_prepared_statements;"
} >"$SQL"

# the two marks run as psql's shell escapes: they write to files in WORK
export SOAK_WORK=$WORK SOAK_DATA=$DATA
start=$(date +%s.%N)
"$BIN/psql" -X -At -f "$SQL" >"$WORK/soak.out" 2>"$WORK/soak.err" || true
end=$(date +%s.%N)
grep -v '^$' "$WORK/soak.err" | grep -v 'division by zero\|failed: client\|keeps what was measured\|HINT\|canceled' | head -5 || true
prepared=$(sed -n 's/^prepared_statements=//p' "$WORK/soak.out")
read -r pss50 priv50 dsm50 _ <"$WORK/mark-after-50"
read -r pss_end priv_end _ runs_end <"$WORK/mark-after-runs"

# workers may take a moment to exit after the last sweep
for _ in $(seq 1 50); do
	n=$("${PSQL[@]}" -At -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type LIKE 'pgbenchkit%'")
	((n == 0)) && break
	sleep 0.1
done
dsm_end=$(dsm_count "$DATA")

FAILED=0
check() { # check NAME OK DETAIL
	printf '%-58s %s  %s\n' "$1" "$([[ $2 == t ]] && echo ok || echo FAILED)" "$3"
	[[ $2 == t ]] || FAILED=$((FAILED + 1))
}

runs_total=$("${PSQL[@]}" -At -c "SELECT count(*) FROM bench.runs WHERE tag LIKE 'soak:%'")
wrong=$("${PSQL[@]}" -At -c "SELECT count(*) FROM bench.runs
	WHERE tag LIKE 'soak:%' AND status IS DISTINCT FROM split_part(tag, ':', 3)")
expected_total=$((RUNS + SWEEPS * 4))
check "runs recorded ($expected_total expected)" "$( ((runs_total == expected_total)) && echo t)" "$runs_total"
check "runs that ended with another status than their tag's" "$( ((wrong == 0)) && echo t)" "$wrong"
suites=$("${PSQL[@]}" -At -c "SELECT count(*) FILTER (WHERE status = 'done') || ' ' || count(*) FROM bench.suites")
check "suites done ($SWEEPS expected)" "$([[ $suites == "$SWEEPS $SWEEPS" ]] && echo t)" "$suites"
orphans=$("${PSQL[@]}" -At -c "SELECT
	  (SELECT count(*) FROM bench.progress x WHERE NOT EXISTS (SELECT FROM bench.runs r WHERE r.id = x.run_id))
	+ (SELECT count(*) FROM bench.histograms x WHERE NOT EXISTS (SELECT FROM bench.runs r WHERE r.id = x.run_id))
	+ (SELECT count(*) FROM bench.command_latencies x WHERE NOT EXISTS (SELECT FROM bench.runs r WHERE r.id = x.run_id))
	+ (SELECT count(*) FROM bench.run_scripts x WHERE NOT EXISTS (SELECT FROM bench.runs r WHERE r.id = x.run_id))
	+ (SELECT count(*) FROM bench.samples x WHERE NOT EXISTS (SELECT FROM bench.runs r WHERE r.id = x.run_id))
	+ (SELECT count(*) FROM bench.prewarms x WHERE NOT EXISTS (SELECT FROM bench.runs r WHERE r.id = x.run_id))
	+ (SELECT count(*) FROM bench.relation_sizes x WHERE NOT EXISTS (SELECT FROM bench.runs r WHERE r.id = x.run_id))
	+ (SELECT count(*) FROM bench.runs x WHERE x.suite_id IS NOT NULL
	     AND NOT EXISTS (SELECT FROM bench.suites s WHERE s.id = x.suite_id))")
check "orphaned rows" "$( ((orphans == 0)) && echo t)" "$orphans"
check "pgbenchkit workers left" "$( ((n == 0)) && echo t)" "$n"
check "dynamic shared memory segments (after run 50 / end)" "$( ((dsm_end <= dsm50)) && echo t)" "$dsm50 / $dsm_end"
check "prepared statements in the session" "$([[ $prepared == 0 ]] && echo t)" "${prepared:-?}"
left=$("${PSQL[@]}" -At -c "SELECT (SELECT count(*) FROM pg_prepared_xacts) || ' ' ||
	(SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid)
	  WHERE l.pid <> pg_backend_pid()
	    AND (a.backend_type = 'client backend' OR a.backend_type LIKE 'pgbenchkit%')) || ' ' ||
	(SELECT count(*) FROM pg_locks WHERE locktype = 'advisory')")
read -r pxacts locks advisory <<<"$left"
check "prepared transactions" "$( ((pxacts == 0)) && echo t)" "$pxacts"
check "locks of client backends and workers" "$( ((locks == 0)) && echo t)" "$locks"
check "advisory locks" "$( ((advisory == 0)) && echo t)" "$advisory"
allowed=$(((pss50 / 20) > 20480 ? pss50 / 20 : 20480))
grow=$((pss_end - pss50))
check "Pss after run $RUNS within max(5%, 20 MB) of run 50's" "$( ((grow <= allowed && -grow <= allowed)) && echo t)" \
	"$((pss50 / 1024)) MB -> $((pss_end / 1024)) MB ($((grow / 1024)) MB; allowed $((allowed / 1024)) MB)"
echo "(private memory of the server's processes, for comparison: $((priv50 / 1024)) MB after run 50, $((priv_end / 1024)) MB after run $RUNS)"

read -r measured <<<"$("${PSQL[@]}" -At -c "SELECT round(avg(coalesce(measured_s, 0))::numeric, 3)
	FROM bench.runs WHERE tag LIKE 'soak:%' AND suite_id IS NULL")"
awk -v s="$start" -v r="$runs_end" -v e="$end" -v n="$RUNS" -v m="$measured" -v w="$SWEEPS" 'BEGIN {
	printf "wall time %.1f s: %d runs in %.1f s, %.3f s per run, of which %.3f s measured, %.3f s overhead; %d sweeps in %.1f s\n",
	       e - s, n, r - s, (r - s) / n, m, (r - s) / n - m, w, e - r }'
((FAILED == 0)) || die "$FAILED check(s) failed"
