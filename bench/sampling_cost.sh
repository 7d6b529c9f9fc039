#!/usr/bin/env bash
# What sampling the server's counters every second costs a run, on one cluster.
#
#   bench/sampling_cost.sh [--scale 10] [--rounds 3] [--clients 8] [--duration 20]
#                          [--interval '1 s'] [--port 5521] [--keep]
#
# Creates a throwaway cluster of its own (initdb as the postgres OS user when
# run as root) in a temporary folder, port --port, unix socket only,
# max_worker_processes = 300, shared_buffers = 256MB and
# shared_preload_libraries = pg_stat_statements, everything else default;
# PG_BIN names the directory of initdb, pg_ctl and psql (default: PostgreSQL
# 15's).  Loads bench.init('tpcb', scale => --scale) into database `bench`,
# with pg_stat_statements installed there (the most expensive source a sample
# reads), then for select-only (the highest rate of transactions, so the one
# a fixed cost per second hurts most) and for tpcb, for each round, runs
#   bench.run('<workload>', clients => C, duration => 'D s', progress => '0',
#             sample_interval => '1 s')   (or --interval: a shorter interval
#                                          magnifies the cost, to see it
#                                          above the noise)
#   the same with sample_interval => '0' (samples only before and after)
# alternating which goes first, each after a CHECKPOINT, and prints every
# measurement's tps.  Then per workload the median tps of each, the ratio of
# the medians (sampled / not sampled), the median of each round's ratio,
# the samples taken, their mean size in bench.samples, and the mean time the
# coordinator took to read one (data->>'read_ms', wall clock, and
# 'read_cpu_ms', its CPU time: the query and /proc), the CPU time as a share
# of the machine's per second: a direct measure of the cost, which the
# noise between runs does not blur.
# The cluster is stopped and removed at the end; --keep leaves it running.
# Run it on an otherwise idle machine; the ratios are what to compare.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

SCALE=10 ROUNDS=3 CLIENTS=8 DURATION=20 PORT=5521 KEEP=0 INTERVAL='1 s'
while (($#)); do
	case $1 in
	--scale) SCALE=$2; shift 2 ;;
	--rounds) ROUNDS=$2; shift 2 ;;
	--clients) CLIENTS=$2; shift 2 ;;
	--duration) DURATION=$2; shift 2 ;;
	--port) PORT=$2; shift 2 ;;
	--interval) INTERVAL=$2; shift 2 ;;
	--keep) KEEP=1; shift ;;
	*) echo "usage: $0 [--scale N] [--rounds N] [--clients N] [--duration SECONDS] [--interval '1 s'] [--port N] [--keep]" >&2; exit 2 ;;
	esac
done
for v in "$SCALE" "$ROUNDS" "$CLIENTS" "$DURATION" "$PORT"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || die "options take positive whole numbers, not '$v'"
done
[[ $INTERVAL =~ ^[0-9.]+\ ?(ms|s)$ ]] || die "--interval takes '1 s' or '100 ms', not '$INTERVAL'"
BIN=${PG_BIN:-$(pg_bindir 15)}
[[ -x $BIN/initdb && -x $BIN/psql ]] || die "no initdb or psql in $BIN (set PG_BIN)"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }

# ---------------------------------------------------------------- cluster
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() { bench_cluster_cleanup $? "$KEEP"; }
trap cleanup EXIT

bench_cluster_create sampling_cost "$PORT" <<EOF
max_worker_processes = 300
shared_buffers = '256MB'
shared_preload_libraries = 'pg_stat_statements'
EOF
PSQL=("$BIN/psql" -X -q -v ON_ERROR_STOP=1)

"${PSQL[@]}" -d postgres -c "CREATE DATABASE bench"
"${PSQL[@]}" -c "SET client_min_messages = warning" -c "CREATE EXTENSION pgbenchkit CASCADE" \
	-c "CREATE EXTENSION pg_stat_statements"
"${PSQL[@]}" -At -c "SELECT rows_loaded FROM bench.init('tpcb', scale => $SCALE)" >/dev/null

SERVER_VERSION=$("${PSQL[@]}" -Atc 'show server_version')
CPU_MODEL=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
echo "scale $SCALE, $CLIENTS clients, $DURATION s per measurement, $ROUNDS rounds," \
	"$(nproc) cores ($CPU_MODEL), server $SERVER_VERSION, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# ---------------------------------------------------------------- runs
# one measurement: prints the run's id and tps
measure() {
	local workload=$1 interval=$2
	"${PSQL[@]}" -c CHECKPOINT
	"${PSQL[@]}" -At -F ' ' -c "SELECT id, tps FROM bench.run('$workload', clients => $CLIENTS,
		duration => '$DURATION s', progress => '0', sample_interval => '$interval')"
}

declare -A TPS
SUMMARY=()
for workload in select-only tpcb; do
	RATIOS=() ON=() OFF=() IDS=()
	for ((r = 1; r <= ROUNDS; r++)); do
		if ((r % 2)); then order=("$INTERVAL" 0); else order=(0 "$INTERVAL"); fi
		for interval in "${order[@]}"; do
			read -r id tps < <(measure "$workload" "$interval")
			TPS[$interval]=$tps
			printf '%-12s round %d  sample_interval %-4s  run %-4s %12.1f tps\n' "$workload" "$r" "$interval" "$id" "$tps"
			[[ $interval == 0 ]] || IDS+=("$id")
		done
		ON+=("${TPS[$INTERVAL]}") OFF+=("${TPS[0]}")
		RATIOS+=("$(calc "${TPS[$INTERVAL]} / ${TPS[0]}")")
	done
	m_on=$(printf '%s\n' "${ON[@]}" | median)
	m_off=$(printf '%s\n' "${OFF[@]}" | median)
	m_ratio=$(printf '%s\n' "${RATIOS[@]}" | median)
	ids=$(IFS=,; echo "${IDS[*]}")
	read -r samples bytes read_ms cpu_ms < <("${PSQL[@]}" -At -F ' ' -c "SELECT count(*) / $ROUNDS, round(avg(pg_column_size(data))),
		round(avg((data->>'read_ms')::numeric), 3), round(avg((data->>'read_cpu_ms')::numeric), 3)
		FROM bench.samples WHERE run_id IN ($ids) AND phase = 'during'")
	SUMMARY+=("$(printf '%-12s sampled %10.1f tps, not sampled %10.1f tps: ratio of medians %s, median ratio %s (rounds: %s); %s samples per run, %s bytes each, read in %s ms each, %s ms of CPU (%s%% of %d cores'"'"' time)' \
		"$workload" "$m_on" "$m_off" "$(calc "$m_on / $m_off")" "$m_ratio" "${RATIOS[*]}" "$samples" "$bytes" \
		"$read_ms" "$cpu_ms" "$(calc "100 * $cpu_ms / 1000 / $(nproc)")" "$(nproc)")")
done

echo
echo "summary: sample_interval $INTERVAL against 0, medians of $ROUNDS rounds"
printf '%s\n' "${SUMMARY[@]}"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
