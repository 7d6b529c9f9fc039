#!/usr/bin/env bash
# What the script interpreter costs per \set, against pgbench, on one cluster.
#
#   bench/script_cost.sh [--rounds 5] [--duration 5] [--limit 2] [--port 5522] [--keep]
#
# Creates a throwaway cluster of its own (initdb as the postgres OS user when
# run as root) in a temporary folder, port --port, unix socket only,
# max_worker_processes = 16, everything else default; PG_BIN names the
# directory of initdb, pg_ctl, psql and pgbench (default: PostgreSQL 15's).
# No dataset: neither script reads a table, and :scale is 1 for both tools.
# Two scripts:
#   A  100 lines of \set, ten blocks of the same ten expressions as workloads
#      write them (random over 100000 * :scale, zipfian, gaussian and
#      exponential draws, hash, arithmetic, least/greatest, comparisons with
#      AND and OR in a CASE), each block on variables of its own, so that
#      100 variables are set; then SELECT 1;
#   B  SELECT 1; only
# and for each round runs, one client each, --duration seconds each:
#   SELECT ... FROM bench.run(script => <A or B>, clients => 1, duration => 'D s',
#                             prewarm => false, progress => '0', sample_interval => '0')
#   pgbench -n -M prepared -c 1 -j 1 -T D -r -f <A or B>
#   pgbench -n -M prepared -c 1 -j 1 -T D -f <A or B>
# in that order in odd rounds and in the reverse order in even rounds (so
# that a drift of the machine's speed falls on A and B alike), each after a
# CHECKPOINT, and prints every measurement.  A client of bench.run always
# times each command, as pgbench does with -r; plain pgbench is the
# interpreter without the clock.
# The cost of one \set, in µs, for each round:
#   - (latency of A - latency of B) / 100: for bench.run its latency_avg_ms,
#     for pgbench 1000 / tps (with one client its latency average, with more
#     digits);
#   - bench.run: the mean of the 100 \set rows of bench.command_latencies,
#     each command's own time from the clock read before it to the one after;
#   - pgbench: (user CPU time per transaction of A - that of B) / 100, of
#     the pgbench process: its \set commands run there, in user mode.  Its
#     latency also holds the round trip to the server, and its system time
#     the socket and the wake-ups, which on a busy machine change from one
#     measurement to the next by more than the 100 \set lines take (B's
#     latency by a factor of four on a shared 2-core machine); its user time
#     per transaction does not.
# pgbench -r's own statement latencies are printed in ms with 3 decimals, too
# coarse for a \set: the script shows their mean and how many print 0.000.
# Then the median of the rounds of each view, bench.run's over pgbench's,
# the machine (CPU, cores, clock source), the versions, and whether
# bench.run's median cost per \set (the latency difference) is under --limit
# µs: the exit status is non-zero if it is not, or if a measurement had
# failures.
# The cluster is stopped and removed at the end; --keep leaves it running.
# On a shared machine compare within one run: the rounds alternate, and the
# medians are what to read.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

ROUNDS=5 DURATION=5 LIMIT=2 PORT=5522 KEEP=0
while (($#)); do
	case $1 in
	--rounds) ROUNDS=$2; shift 2 ;;
	--duration) DURATION=$2; shift 2 ;;
	--limit) LIMIT=$2; shift 2 ;;
	--port) PORT=$2; shift 2 ;;
	--keep) KEEP=1; shift ;;
	*) echo "usage: $0 [--rounds N] [--duration SECONDS] [--limit MICROSECONDS] [--port N] [--keep]" >&2; exit 2 ;;
	esac
done
for v in "$ROUNDS" "$DURATION" "$PORT"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || die "options take positive whole numbers, not '$v'"
done
[[ $LIMIT =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "--limit takes a number of microseconds, not '$LIMIT'"
BIN=${PG_BIN:-$(pg_bindir 15)}
[[ -x $BIN/pgbench && -x $BIN/initdb ]] || die "no pgbench or initdb in $BIN (set PG_BIN)"
SETS=100

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }

# ---------------------------------------------------------------- cluster
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() { bench_cluster_cleanup $? "$KEEP"; }
trap cleanup EXIT

bench_cluster_create script_cost "$PORT" <<EOF
# one client worker and the run's coordinator, and room to spare
max_worker_processes = 16
EOF
PSQL=("$BIN/psql" -X -q -v ON_ERROR_STOP=1)

"${PSQL[@]}" -d postgres -c "CREATE DATABASE bench"
"${PSQL[@]}" -c "SET client_min_messages = warning" -c "CREATE EXTENSION pgbenchkit CASCADE"

# ---------------------------------------------------------------- scripts
# A: ten blocks of the same ten \set lines, each block on its own variables
# (aid1 ... p10): 100 lines, 100 variables.  Only syntax pgbench has had
# since version 11.  No result can overflow: the hash goes through %.
{
	for ((k = 1; k <= SETS / 10; k++)); do
		cat <<EOF
\\set aid$k random(1, 100000 * :scale)
\\set bid$k random(1, 1 * :scale)
\\set tid$k random(1, 10 * :scale)
\\set delta$k random(-5000, 5000)
\\set hot$k random_zipfian(1, 100000 * :scale, 1.07)
\\set g$k random_gaussian(1, 1000, 2.5)
\\set e$k random_exponential(1, 1000, 3.0)
\\set h$k hash(:aid$k, 5432) % 1000
\\set c$k CASE WHEN :delta$k > 0 AND :g$k < 500 THEN :aid$k WHEN :aid$k <> :hot$k OR :e$k <= 10 THEN :hot$k ELSE (:bid$k - 1) * 10 + :tid$k END
\\set p$k least(greatest(:hot$k / 1000 + :e$k - :h$k, 1), 100000 * :scale)
EOF
	done
	echo "SELECT 1;"
} >"$WORK/a.sql"
echo "SELECT 1;" >"$WORK/b.sql"
(($(grep -c '^\\set ' "$WORK/a.sql") == SETS)) || die "script A does not have $SETS \\set lines"

SERVER_VERSION=$("${PSQL[@]}" -Atc 'show server_version')
PGBENCH_VERSION=$("$BIN/pgbench" --version | awk '{ print $3 }')
CPU_MODEL=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
MEM_GIB=$(awk '/^MemTotal/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)
CLOCK=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
echo "1 client, $DURATION s per measurement, $ROUNDS rounds, script A = $SETS \\set + SELECT 1, B = SELECT 1;" \
	"$(nproc) cores ($CPU_MODEL), clock source $CLOCK, server $SERVER_VERSION, pgbench $PGBENCH_VERSION, load average $LOAD_START"

# ---------------------------------------------------------------- measurements
declare -A LAT CPU # "<tool> <script>" -> this round's latency, and pgbench's user CPU time per transaction, ms
declare -A vals    # "<view>" -> per-\set costs of the rounds, µs, space separated
FAILED=0

# bench.run of script A or B: LAT, and for A the mean of its \set rows
measure_bench_run() {
	local s=$1 r=$2 out id status tx tps measured lat failures select_us n direct
	"${PSQL[@]}" -c CHECKPOINT
	out=$("${PSQL[@]}" -At -F ' ' -c "SELECT id, status, transactions, tps, measured_s, latency_avg_ms, failures
		FROM bench.run(script => \$bk\$$(<"$WORK/${s,,}.sql")\$bk\$, clients => 1, duration => '$DURATION s',
		               prewarm => false, progress => '0', sample_interval => '0')")
	read -r id status tx tps measured lat failures <<<"$out"
	if [[ $status != "done" || $failures != 0 ]]; then
		warn "bench.run of script $s: run $id ended '$status' with $failures failures"
		FAILED=1
	fi
	LAT["bench.run $s"]=$lat
	# each command's own time: the SELECT, and the mean of the \set rows
	out=$("${PSQL[@]}" -At -F ' ' -c "SELECT max(latency_avg_ms) FILTER (WHERE NOT is_set) * 1000, count(*) FILTER (WHERE is_set),
		coalesce(avg(latency_avg_ms) FILTER (WHERE is_set) * 1000, 0)
		FROM (SELECT left(command, 5) = '\\set ' AS is_set, latency_avg_ms FROM bench.command_latencies WHERE run_id = $id) c")
	read -r select_us n direct <<<"$out"
	if [[ $s == A ]]; then
		((n == SETS)) || die "run $id has $n \\set rows in bench.command_latencies, not $SETS"
		vals["bench.run rows"]+="$(calc "$direct") "
		printf 'round %d  %-10s %s %9.1f tps  lat %8.5f ms  %8d tx   SELECT 1 %.3f µs, \\set rows %.4f µs on average   (run %d, %s, %.2f s)\n' \
			"$r" bench.run "$s" "$tps" "$lat" "$tx" "$select_us" "$direct" "$id" "$status" "$measured"
	else
		printf 'round %d  %-10s %s %9.1f tps  lat %8.5f ms  %8d tx   SELECT 1 %.3f µs   (run %d, %s, %.2f s)\n' \
			"$r" bench.run "$s" "$tps" "$lat" "$tx" "$select_us" "$id" "$status" "$measured"
	fi
}

# pgbench of script A or B, with -r (tool pgbench-r) or without (pgbench):
# LAT, and CPU from the pgbench process's user time (bash's time, to the
# millisecond); its system time is printed too
measure_pgbench() {
	local tool=$1 s=$2 r=$3 args=() tx tps lat failed u sys cpu n zero direct TIMEFORMAT='%3U %3S'
	[[ $tool == pgbench-r ]] && args+=(-r)
	"${PSQL[@]}" -c CHECKPOINT
	if ! { time "$BIN/pgbench" -n -M prepared -c 1 -j 1 -T "$DURATION" "${args[@]}" -f "$WORK/${s,,}.sql" >"$WORK/pgbench.out" 2>&1; } 2>"$WORK/pgbench.time"; then
		show_file "$WORK/pgbench.out"
		die "pgbench failed"
	fi
	tx=$(awk -F': *' '/^number of transactions actually processed/ { print $2 + 0 }' "$WORK/pgbench.out")
	tps=$(awk '/^tps = / { print $3 }' "$WORK/pgbench.out")
	failed=$(awk -F': *' '/^number of failed transactions/ { print $2 + 0 }' "$WORK/pgbench.out")
	[[ -n $tx && -n $tps && $tx -gt 0 ]] || { show_file "$WORK/pgbench.out"; die "no result in pgbench's output"; }
	if [[ ${failed:-0} != 0 ]]; then
		warn "pgbench of script $s: $failed failed transactions"
		FAILED=1
	fi
	read -r u sys <"$WORK/pgbench.time"
	lat=$(awk -v t="$tps" 'BEGIN { printf "%.6f", 1000 / t }')
	cpu=$(awk -v u="$u" -v n="$tx" 'BEGIN { printf "%.8f", u * 1000 / n }')
	LAT["$tool $s"]=$lat CPU["$tool $s"]=$cpu
	if [[ $tool == pgbench-r && $s == A ]]; then
		# statement latencies, "<ms> <failures> <command>" after their heading,
		# in ms with 3 decimals: how many of the \set lines print 0.000
		read -r n zero direct < <(awk '/^statement latencies/ { on = 1; next }
			on && $3 == "\\set" { n++; z += ($1 == 0); sum += $1 } END { printf "%d %d %.4f\n", n, z, n ? 1000 * sum / n : 0 }' "$WORK/pgbench.out")
		((n == SETS)) || { show_file "$WORK/pgbench.out"; die "pgbench -r printed $n \\set latencies, not $SETS"; }
		printf 'round %d  %-10s %s %9.1f tps  lat %8.5f ms  %8d tx   CPU user %.3f s (%.3f µs per tx), system %.3f s   \\set statement latencies %.4f µs on average (%d of %d print 0.000 ms)\n' \
			"$r" "pgbench -r" "$s" "$tps" "$lat" "$tx" "$u" "$(calc "$cpu * 1000")" "$sys" "$direct" "$zero" "$n"
	else
		printf 'round %d  %-10s %s %9.1f tps  lat %8.5f ms  %8d tx   CPU user %.3f s (%.3f µs per tx), system %.3f s\n' \
			"$r" "${tool/-r/ -r}" "$s" "$tps" "$lat" "$tx" "$u" "$(calc "$cpu * 1000")" "$sys"
	fi
}

measure() {
	local tool=$1 s=$2 r=$3
	if [[ $tool == bench.run ]]; then measure_bench_run "$s" "$r"; else measure_pgbench "$tool" "$s" "$r"; fi
}

med() { tr ' ' '\n' <<<"${vals[$1]}" | grep . | median; }
last() { local v=${vals[$1]% }; echo "${v##* }"; }

TOOLS=(bench.run pgbench-r pgbench)
ORDER=()
for t in "${TOOLS[@]}"; do ORDER+=("$t A" "$t B"); done
for ((r = 1; r <= ROUNDS; r++)); do
	if ((r % 2)); then steps=("${ORDER[@]}"); else mapfile -t steps < <(printf '%s\n' "${ORDER[@]}" | tac); fi
	for step in "${steps[@]}"; do
		measure "${step% *}" "${step#* }" "$r"
	done
	for t in "${TOOLS[@]}"; do
		vals["$t"]+="$(calc "(${LAT["$t A"]} - ${LAT["$t B"]}) * 1000 / $SETS") "
		[[ $t == bench.run ]] || vals["$t cpu"]+="$(calc "(${CPU["$t A"]} - ${CPU["$t B"]}) * 1000 / $SETS") "
	done
	printf 'round %d  per \\set, µs: bench.run %.4f (its \\set rows %.4f); pgbench -r %.4f (its user CPU %.4f); pgbench %.4f (its user CPU %.4f)\n' \
		"$r" "$(last bench.run)" "$(last "bench.run rows")" "$(last pgbench-r)" "$(last "pgbench-r cpu")" "$(last pgbench)" "$(last "pgbench cpu")"
done

# ---------------------------------------------------------------- summary
M_RUN=$(med bench.run)
# view, what it measures: median of the rounds, the rounds, and bench.run's median over it
view() {
	printf '    %-10s %-38s %8.4f   (rounds: %s)%s\n' "$1" "$2" "$(med "$3")" "${vals[$3]% }" \
		"${4:+$(printf '   bench.run / it %.2f' "$(calc "$M_RUN / $(med "$3")")")}"
}
echo
echo "summary"
echo "  machine     $(nproc) cores ($CPU_MODEL), $MEM_GIB GiB, clock source $CLOCK, load average $LOAD_START at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo "  server      PostgreSQL $SERVER_VERSION, pgbench $PGBENCH_VERSION, max_worker_processes 16, otherwise default settings"
echo "  settings    1 client, $DURATION s per measurement, $ROUNDS rounds, protocol prepared; A = $SETS \\set + SELECT 1, B = SELECT 1"
echo "  per \\set, µs, median of the rounds:"
view bench.run "(latency A - latency B) / $SETS" bench.run
view bench.run "its \\set rows in command_latencies" "bench.run rows"
view "pgbench -r" "(latency A - latency B) / $SETS" pgbench-r ratio
view "pgbench -r" "(user CPU per tx A - B) / $SETS" "pgbench-r cpu" ratio
view pgbench "(latency A - latency B) / $SETS" pgbench ratio
view pgbench "(user CPU per tx A - B) / $SETS" "pgbench cpu" ratio
VERDICT=$(printf "bench.run's interpreter adds %.3f µs per \\\\set on average (median of the rounds)" "$M_RUN")
if awk -v m="$M_RUN" -v l="$LIMIT" 'BEGIN { exit !(m < l) }'; then
	echo "  verdict     $VERDICT: under $LIMIT µs"
else
	echo "  verdict     $VERDICT: NOT under $LIMIT µs"
	FAILED=1
fi
issues=$(grep -E 'WARNING:|ERROR:|FATAL:|PANIC:|terminated by signal' "$SERVER_LOG" || true)
if [[ -n $issues ]]; then
	echo "  server log  $(wc -l <<<"$issues") lines of warnings and errors (first 20):"
	head -n 20 <<<"$issues" | sed 's/^/    /'
else
	echo "  server log  no warnings or errors"
fi
exit "$FAILED"
