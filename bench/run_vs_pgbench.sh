#!/usr/bin/env bash
# Throughput and CPU cost of bench.run against pgbench, on one cluster.
#
#   bench/run_vs_pgbench.sh [--scale 10] [--rounds 3] [--clients 8] [--duration 20]
#                           [--port 5520] [--keep] [--no-256] [--start]
#
# Creates a throwaway cluster of its own (initdb as the postgres OS user when
# run as root) in a temporary folder, port --port, unix socket only,
# max_worker_processes = 300 and shared_buffers = 256MB, everything else
# default; PG_BIN names the directory of initdb, pg_ctl, psql and pgbench
# (default: PostgreSQL 15's).  Loads one dataset with bench.init('tpcb',
# scale => --scale) into database `bench` and reads it into shared buffers
# (pg_prewarm), then for select-only and for tpcb, for each round, runs
#   pgbench -M prepared -c C -j C -T D -n -b <select-only|tpcb-like>
#   SELECT ... FROM bench.run('<workload>', clients => C, duration => 'D s', progress => '0')
# alternating, each after a CHECKPOINT, and prints every measurement: tps,
# average latency, transactions, and the CPU time (user + system) per 1000
# transactions of
#   - the pgbench process (GNU time's %U + %S) and of its backends (the
#     server processes with application_name 'pgbench');
#   - bench.run's client workers (backend_type 'pgbenchkit client') and its
#     coordinator ('pgbenchkit run').
# A client worker is both the load generator and the backend that runs the
# SQL, so the fair comparison is the total: pgbench + its backends against
# clients + coordinator.  The CPU time of a server process is read from
# /proc/<pid>/stat every 0.1 s over the last second of the run until the
# load ends, so each one's last reading is taken within 0.1 s of its exit.
# Then the medians, and the ratios bench.run / pgbench (of the medians, and
# the median of each round's ratio).
# Last, unless --no-256: bench.run('tpcb', clients => 256, duration => '30 s',
# progress => '5 s') must end `done`, add exactly its transactions to
# pgbench_history, and leave sum(abalance) = sum(bbalance) = sum(tbalance) =
# sum(delta).  Ends with a summary (machine, settings, medians, ratios, CPU,
# the 256-client check) and the server log's warnings and errors; the exit
# status is non-zero if a check failed.
# --start starts each bench.run measurement with bench.start instead (same
# arguments) and polls bench.runs once every 0.5 s, each poll a transaction
# of its own, until the run ends: a check that the session waiting in
# SELECT ... FROM bench.run costs the run nothing (it gives up its xmin
# while it waits; before it did, pgbench_branches and pgbench_tellers grew by
# hundreds of pages per run and tpcb ran at half the speed).
# The cluster is stopped and removed at the end; --keep leaves it running.
# Run it on an otherwise idle machine; the ratios are what to compare.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

SCALE=10 ROUNDS=3 CLIENTS=8 DURATION=20 PORT=5520 KEEP=0 RUN256=1 RUNNER=bench.run
while (($#)); do
	case $1 in
	--scale) SCALE=$2; shift 2 ;;
	--rounds) ROUNDS=$2; shift 2 ;;
	--clients) CLIENTS=$2; shift 2 ;;
	--duration) DURATION=$2; shift 2 ;;
	--port) PORT=$2; shift 2 ;;
	--keep) KEEP=1; shift ;;
	--no-256) RUN256=0; shift ;;
	--start) RUNNER=bench.start; shift ;;
	*) echo "usage: $0 [--scale N] [--rounds N] [--clients N] [--duration SECONDS] [--port N] [--keep] [--no-256] [--start]" >&2; exit 2 ;;
	esac
done
for v in "$SCALE" "$ROUNDS" "$CLIENTS" "$DURATION" "$PORT"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || die "options take positive whole numbers, not '$v'"
done
BIN=${PG_BIN:-$(pg_bindir 15)}
[[ -x $BIN/pgbench && -x $BIN/initdb ]] || die "no pgbench or initdb in $BIN (set PG_BIN)"
[[ -x /usr/bin/time ]] || apt_ensure time
TICKS=$(getconf CLK_TCK)
declare -A BUILTIN=([select-only]=select-only [tpcb]=tpcb-like)
WORKLOADS=(select-only tpcb)

now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }

# ---------------------------------------------------------------- cluster
JOB=
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
	local rc=$?
	if [[ -n $JOB ]] && kill -0 "$JOB" 2>/dev/null; then kill "$JOB" 2>/dev/null || true; fi
	bench_cluster_cleanup "$rc" "$KEEP"
}
trap cleanup EXIT

bench_cluster_create run_vs_pgbench "$PORT" <<EOF
# a background worker per client, one per run's coordinator
max_worker_processes = 300
shared_buffers = '256MB'
EOF
PSQL=("$BIN/psql" -X -q -v ON_ERROR_STOP=1)

"${PSQL[@]}" -d postgres -c "CREATE DATABASE bench"
"${PSQL[@]}" -c "SET client_min_messages = warning" -c "CREATE EXTENSION pgbenchkit CASCADE"
INIT=$("${PSQL[@]}" -At -F ' ' -c "SELECT rows_loaded, total_s FROM bench.init('tpcb', scale => $SCALE)")
# everything in shared buffers, so that the first measurement does not pay
# for reading the tables
"${PSQL[@]}" -At -c "SELECT sum(pg_prewarm(c)) FROM unnest(ARRAY['pgbench_accounts', 'pgbench_accounts_pkey',
	'pgbench_branches', 'pgbench_branches_pkey', 'pgbench_tellers', 'pgbench_tellers_pkey', 'pgbench_history']::regclass[]) c" >/dev/null

SERVER_VERSION=$("${PSQL[@]}" -Atc 'show server_version')
CPU_MODEL=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
MEM_GIB=$(awk '/^MemTotal/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
echo "scale $SCALE ($(cut -d' ' -f1 <<<"$INIT") rows, bench.init $(cut -d' ' -f2 <<<"$INIT") s), $CLIENTS clients," \
	"$DURATION s per measurement, $ROUNDS rounds, $(nproc) cores ($CPU_MODEL), server $SERVER_VERSION, load average $LOAD_START"

# ---------------------------------------------------------------- CPU time
declare -A KIND LAST

# Read the CPU time (user + system, in ticks) of each pid still alive into
# LAST; pure bash, so that polling costs next to nothing.
sample_cpu() {
	local p line f
	for p in "$@"; do
		{ read -r line <"/proc/$p/stat"; } 2>/dev/null || continue
		# fields after "(comm) ": state is f[0], utime (field 14) f[11], stime f[12]
		read -r -a f <<<"${line##*) }"
		LAST[$p]=$((f[11] + f[12]))
	done
}

# watch_cpu START SQL: follow the server processes of the load running as
# background job JOB, started at START.  SQL lists them as "pid kind"
# (kind: client or coordinator); wait until CLIENTS clients are there, then
# from one second before the load's end read their CPU time every 0.1 s
# until JOB exits.  Fills KIND and LAST.
watch_cpu() {
	local start=$1 sql=$2 pid kind n deadline=$((SECONDS + 60))
	while :; do
		KIND=() LAST=() n=0
		while read -r pid kind; do
			KIND[$pid]=$kind
			[[ $kind == client ]] && n=$((n + 1))
		done < <("${PSQL[@]}" -At -F ' ' -c "$sql")
		((n >= CLIENTS)) && break
		kill -0 "$JOB" 2>/dev/null || return 0 # ended already: the caller reports it
		((SECONDS < deadline)) || die "after 60 s only $n of $CLIENTS clients are connected"
		sleep 0.2
	done
	sleep "$(awk -v s="$start" -v t="$(now)" -v d="$DURATION" 'BEGIN { w = s + d - 1 - t; print (w > 0) ? w : 0 }')"
	while kill -0 "$JOB" 2>/dev/null; do
		sample_cpu "${!KIND[@]}"
		sleep 0.1
	done
}

# CPU seconds per 1000 transactions of the processes of one kind.
cpu_per_1000() {
	local kind=$1 tx=$2 p sum=0
	for p in "${!KIND[@]}"; do
		[[ ${KIND[$p]} == "$kind" ]] && sum=$((sum + ${LAST[$p]:-0}))
	done
	calc "$sum / $TICKS / $tx * 1000"
}

checkpoint() { "${PSQL[@]}" -c "CHECKPOINT"; }

# Commits in database bench and rows in pgbench_history: each transaction
# of these workloads is one commit, and for tpcb one history row.
counters() {
	"${PSQL[@]}" -At -F ' ' -c "SELECT xact_commit, (SELECT count(*) FROM pgbench_history)
		FROM pg_stat_database WHERE datname = current_database()"
}

# counted WORKLOAD BEFORE TX: the change of the counters since BEFORE, as
# text in COUNTED; counts a mismatch in MISMATCHES.  The commits also count
# a few of this script's queries and, for pgbench, its own.
MISMATCHES=0
counted() {
	local w=$1 tx=$3 c0 h0 c1 h1
	read -r c0 h0 <<<"$2"
	sleep 1 # the statistics of the backends that just exited
	read -r c1 h1 < <(counters)
	COUNTED="commits +$((c1 - c0))"
	((c1 - c0 >= tx)) || { COUNTED+=" (FEWER THAN TRANSACTIONS)"; MISMATCHES=$((MISMATCHES + 1)); }
	if [[ $w == tpcb ]]; then
		COUNTED+=", history +$((h1 - h0))"
		((h1 - h0 == tx)) || { COUNTED+=" (NOT EQUAL TO TRANSACTIONS)"; MISMATCHES=$((MISMATCHES + 1)); }
	fi
	return 0
}

# ---------------------------------------------------------------- measurements
declare -A vals # "<workload> <what>" -> values of the rounds, space separated

measure_pgbench() {
	local w=$1 r=$2 start tx tps lat u s own backends before
	checkpoint
	before=$(counters)
	start=$(now)
	/usr/bin/time -f '%U %S' -o "$WORK/pgbench.time" \
		"$BIN/pgbench" -M prepared -c "$CLIENTS" -j "$CLIENTS" -T "$DURATION" -n -b "${BUILTIN[$w]}" >"$WORK/pgbench.out" 2>&1 &
	JOB=$!
	watch_cpu "$start" "SELECT pid, 'client' FROM pg_stat_activity WHERE application_name = 'pgbench' AND backend_type = 'client backend'"
	wait "$JOB" || { show_file "$WORK/pgbench.out"; die "pgbench failed"; }
	JOB=
	tx=$(awk -F': *' '/^number of transactions actually processed/ { print $2 + 0 }' "$WORK/pgbench.out")
	tps=$(awk '/^tps = / { print $3 }' "$WORK/pgbench.out")
	lat=$(awk '/^latency average = / { print $4 }' "$WORK/pgbench.out")
	[[ -n $tx && -n $tps && $tx -gt 0 ]] || { show_file "$WORK/pgbench.out"; die "no result in pgbench's output"; }
	read -r u s <"$WORK/pgbench.time"
	own=$(calc "($u + $s) / $tx * 1000")
	backends=$(cpu_per_1000 client "$tx")
	counted "$w" "$before" "$tx"
	vals["$w pgbench"]+="$tps "
	vals["$w pgbench_cpu"]+="$own "
	vals["$w pgbench_backends_cpu"]+="$backends "
	vals["$w pgbench_total_cpu"]+="$(calc "$own + $backends") "
	printf '%-11s round %d  pgbench    %9.1f tps  lat %6.3f ms  %8d tx   CPU s/1000 tx: pgbench %.4f + its backends %.4f = %.4f   (%s)\n' \
		"$w" "$r" "$tps" "$lat" "$tx" "$own" "$backends" "$(calc "$own + $backends")" "$COUNTED"
}

measure_bench_run() {
	local w=$1 r=$2 start id status tx tps measured lat clients coord before
	checkpoint
	before=$(counters)
	start=$(now)
	if [[ $RUNNER == bench.run ]]; then
		"${PSQL[@]}" -At -F ' ' -c "SELECT id, status, transactions, tps, measured_s, latency_avg_ms
			FROM bench.run('$w', clients => $CLIENTS, duration => '$DURATION s', progress => '0')" >"$WORK/run.out" 2>"$WORK/run.err" &
	else
		id=$("${PSQL[@]}" -At -c "SELECT bench.start('$w', clients => $CLIENTS, duration => '$DURATION s', progress => '0')")
		(
			while [[ $("${PSQL[@]}" -At -c "SELECT status FROM bench.runs WHERE id = $id") == running ]]; do sleep 0.5; done
			"${PSQL[@]}" -At -F ' ' -c "SELECT id, status, transactions, tps, measured_s, latency_avg_ms
				FROM bench.runs WHERE id = $id" >"$WORK/run.out"
		) 2>"$WORK/run.err" &
	fi
	JOB=$!
	watch_cpu "$start" "SELECT pid, CASE backend_type WHEN 'pgbenchkit client' THEN 'client' ELSE 'coordinator' END
		FROM pg_stat_activity WHERE backend_type IN ('pgbenchkit client', 'pgbenchkit run')"
	wait "$JOB" || { show_file "$WORK/run.err"; die "$RUNNER failed"; }
	JOB=
	read -r id status tx tps measured lat <"$WORK/run.out"
	[[ $status == "done" ]] || { show_file "$WORK/run.out"; die "$RUNNER: run $id ended '$status'"; }
	((tx > 0)) || die "$RUNNER: run $id made no transactions"
	clients=$(cpu_per_1000 client "$tx")
	coord=$(cpu_per_1000 coordinator "$tx")
	counted "$w" "$before" "$tx"
	vals["$w bench.run"]+="$tps "
	vals["$w clients_cpu"]+="$clients "
	vals["$w coordinator_cpu"]+="$coord "
	vals["$w bench.run_total_cpu"]+="$(calc "$clients + $coord") "
	printf '%-11s round %d  %-11s%9.1f tps  lat %6.3f ms  %8d tx   CPU s/1000 tx: clients %.4f + coordinator %.4f = %.4f   (run %d, %s, %.2f s; %s)\n' \
		"$w" "$r" "$RUNNER" "$tps" "$lat" "$tx" "$clients" "$coord" "$(calc "$clients + $coord")" "$id" "$status" "$measured" "$COUNTED"
}

med() { tr ' ' '\n' <<<"${vals[$1]}" | grep . | median; }

for w in "${WORKLOADS[@]}"; do
	for ((r = 1; r <= ROUNDS; r++)); do
		measure_pgbench "$w" "$r"
		measure_bench_run "$w" "$r"
		# this round's ratio: the last value of each list
		a=${vals["$w bench.run"]% } b=${vals["$w pgbench"]% }
		vals["$w ratio"]+="$(calc "${a##* } / ${b##* }") "
	done
	printf '%-11s median     pgbench %9.1f tps   %s %9.1f tps   ratio %s / pgbench = %.3f (of the medians), %.3f (median of the rounds)\n' \
		"$w" "$(med "$w pgbench")" "$RUNNER" "$(med "$w bench.run")" "$RUNNER" \
		"$(calc "$(med "$w bench.run") / $(med "$w pgbench")")" "$(med "$w ratio")"
done

# ---------------------------------------------------------------- 256 clients
RESULT256="skipped (--no-256)" FAILED=0
if ((RUN256)); then
	checkpoint
	before=$("${PSQL[@]}" -Atc "SELECT count(*) FROM pgbench_history")
	echo "tpcb with 256 clients, 30 s: bench.run('tpcb', clients => 256, duration => '30 s', progress => '5 s')"
	if "${PSQL[@]}" -At -F ' ' -c "SELECT id, status, transactions, tps, measured_s, failures, latency_avg_ms, latency_p99_ms
		FROM bench.run('tpcb', clients => 256, duration => '30 s', progress => '5 s')" >"$WORK/run256.out" 2>"$WORK/run256.err"; then
		sed 's/^/  /' "$WORK/run256.err"
		read -r id status tx tps measured failures lat p99 <"$WORK/run256.out"
		after=$("${PSQL[@]}" -Atc "SELECT count(*) FROM pgbench_history")
		read -r sa sb st sd < <("${PSQL[@]}" -At -F ' ' -c "SELECT (SELECT sum(abalance) FROM pgbench_accounts),
			(SELECT sum(bbalance) FROM pgbench_branches), (SELECT sum(tbalance) FROM pgbench_tellers),
			(SELECT sum(delta) FROM pgbench_history)")
		left=$("${PSQL[@]}" -Atc "SELECT count(*) FROM pg_stat_activity WHERE backend_type LIKE 'pgbenchkit%'")
		rows=$((after - before))
		checks="status $status"
		[[ $status == "done" ]] || FAILED=1
		if ((rows == tx)); then checks+=", history rows +$rows = transactions"; else checks+=", history rows +$rows != transactions $tx: WRONG"; FAILED=1; fi
		if [[ $sa == "$sb" && $sb == "$st" && $st == "$sd" ]]; then
			checks+=", sum(abalance) = sum(bbalance) = sum(tbalance) = sum(delta) = $sa"
		else
			checks+=", sums DIFFER: abalance $sa, bbalance $sb, tbalance $st, delta $sd"; FAILED=1
		fi
		if ((left == 0)); then checks+=", no worker left"; else checks+=", $left pgbenchkit workers still there"; FAILED=1; fi
		RESULT256=$(printf 'run %d: %d transactions, %.1f tps in %.2f s, lat avg %.3f ms p99 %.3f ms, %d failures; %s' \
			"$id" "$tx" "$tps" "$measured" "$lat" "$p99" "$failures" "$checks")
	else
		sed 's/^/  /' "$WORK/run256.err"
		RESULT256="bench.run FAILED: $(grep -m1 ERROR "$WORK/run256.err" || tail -n1 "$WORK/run256.err")"
		FAILED=1
	fi
	echo "  $RESULT256"
fi

# ---------------------------------------------------------------- summary
echo
echo "summary"
echo "  machine     $(nproc) cores ($CPU_MODEL), $MEM_GIB GiB, load average $LOAD_START at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo "  server      PostgreSQL $SERVER_VERSION, shared_buffers 256MB, max_worker_processes 300, otherwise default settings"
echo "  settings    scale $SCALE, $CLIENTS clients (pgbench -j $CLIENTS), $DURATION s per measurement, $ROUNDS rounds, protocol prepared, against $RUNNER"
for w in "${WORKLOADS[@]}"; do
	printf '  %-11s median tps: pgbench %.1f, %s %.1f; ratio %s / pgbench %.3f (of the medians), %.3f (median of the rounds; rounds: %s)\n' \
		"$w" "$(med "$w pgbench")" "$RUNNER" "$(med "$w bench.run")" "$RUNNER" "$(calc "$(med "$w bench.run") / $(med "$w pgbench")")" "$(med "$w ratio")" "${vals["$w ratio"]% }"
	printf '  %-11s median CPU s/1000 tx: pgbench %.4f + its backends %.4f = %.4f; %s clients %.4f + coordinator %.4f = %.4f; ratio of the totals %.3f\n' \
		"" "$(med "$w pgbench_cpu")" "$(med "$w pgbench_backends_cpu")" "$(med "$w pgbench_total_cpu")" "$RUNNER" \
		"$(med "$w clients_cpu")" "$(med "$w coordinator_cpu")" "$(med "$w bench.run_total_cpu")" \
		"$(calc "$(med "$w bench.run_total_cpu") / $(med "$w pgbench_total_cpu")")"
done
echo "  256 clients $RESULT256"
if ((MISMATCHES)); then
	echo "  counts      $MISMATCHES measurements with fewer commits than transactions, or history rows not equal to them"
	FAILED=1
else
	echo "  counts      every measurement: commits >= transactions; tpcb: history rows = transactions"
fi
issues=$(grep -E 'WARNING:|ERROR:|FATAL:|PANIC:|terminated by signal' "$SERVER_LOG" || true)
if [[ -n $issues ]]; then
	echo "  server log  $(wc -l <<<"$issues") lines of warnings and errors (first 20):"
	head -n 20 <<<"$issues" | sed 's/^/    /'
else
	echo "  server log  no warnings or errors"
fi
exit "$FAILED"
