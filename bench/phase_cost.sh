#!/usr/bin/env bash
# What timing the phases of statements costs the server's clients.
#
#   bench/phase_cost.sh [--rounds 5] [--duration 5] [--clients 1,2] [--port 5532] [--keep]
#
# Creates a throwaway cluster (initdb as the postgres OS user when run as
# root) in a temporary folder, port --port, unix socket only, max_worker_
# processes = 16, shared_buffers = 256MB; PG_BIN names the directory of
# initdb, pg_ctl and psql (default: PostgreSQL 15's).  Loads
# bench.init('tpcb', scale => 10), then for each client count C and round,
# alternating the order, runs
#   SET pgbenchkit.time_phases = on|off;
#   bench.run('select-only', clients => C, duration => 'D s', prewarm => true)
# (a point select per transaction: the statement where a few clock readings
# weigh most), each after a CHECKPOINT, and prints the transactions per
# second of each; then the medians, their ratio (off / on: what timing
# costs, 1.00 for nothing) and the time each timed transaction spends in its
# phases.  Run it on an otherwise idle machine.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

ROUNDS=5 DURATION=5 CLIENT_LIST=1,2 PORT=5532 KEEP=0
while (($#)); do
	case $1 in
	--rounds) ROUNDS=$2; shift 2 ;;
	--duration) DURATION=$2; shift 2 ;;
	--clients) CLIENT_LIST=$2; shift 2 ;;
	--port) PORT=$2; shift 2 ;;
	--keep) KEEP=1; shift ;;
	*) echo "usage: $0 [--rounds N] [--duration SECONDS] [--clients N,N] [--port N] [--keep]" >&2; exit 2 ;;
	esac
done
for v in "$ROUNDS" "$DURATION" "$PORT"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || die "expected a whole number above 0, not '$v'"
done
IFS=, read -r -a CLIENTS <<<"$CLIENT_LIST"
for c in "${CLIENTS[@]}"; do [[ $c =~ ^[1-9][0-9]*$ ]] || die "--clients takes counts like 1,2, not '$CLIENT_LIST'"; done
BIN=${PG_BIN:-$(pg_bindir 15)}
[[ -x $BIN/initdb ]] || die "no initdb in $BIN (set PG_BIN)"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }

# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() { bench_cluster_cleanup $? "$KEEP"; }
trap cleanup EXIT

bench_cluster_create phase_cost "$PORT" <<EOF
max_worker_processes = 16
shared_buffers = '256MB'
EOF
PSQL=("$BIN/psql" -X -q -v ON_ERROR_STOP=1)
"${PSQL[@]}" -d postgres -c "CREATE DATABASE bench"
"${PSQL[@]}" -c "SET client_min_messages = warning" -c "CREATE EXTENSION pgbenchkit CASCADE"
"${PSQL[@]}" -At -c "SELECT rows_loaded FROM bench.init('tpcb', scale => 10)" >/dev/null
echo "select-only, scale 10, clients $CLIENT_LIST, $DURATION s per measurement, $ROUNDS rounds, $(nproc) cores," \
	"server $("${PSQL[@]}" -Atc 'show server_version'), load average $(cut -d' ' -f1-3 /proc/loadavg)"

declare -A vals
measure() {
	local timing=$1 c=$2 r=$3 status tps id
	"${PSQL[@]}" -c CHECKPOINT
	read -r status tps id < <("${PSQL[@]}" -At -F ' ' -c "SET pgbenchkit.time_phases = $timing" \
		-c "SELECT status, tps, id FROM bench.run('select-only', clients => $c, duration => '$DURATION s', progress => '0')")
	[[ $status == "done" ]] || die "bench.run ended $status"
	vals["$c $timing"]+="$tps "
	[[ $timing == on ]] && LAST_ON=$id
	printf '%3d clients round %d  time_phases %-3s %12.1f tps\n' "$c" "$r" "$timing" "$tps"
}

declare -A phases
for c in "${CLIENTS[@]}"; do
	for ((r = 1; r <= ROUNDS; r++)); do
		if ((r % 2)); then measure on "$c" "$r"; measure off "$c" "$r"
		else measure off "$c" "$r"; measure on "$c" "$r"; fi
	done
	phases[$c]=$("${PSQL[@]}" -At -c "SELECT format('plan %s, execute %s, latency %s ms', round(plan_ms::numeric, 4),
		round(execute_ms::numeric, 4), round(latency_avg_ms::numeric, 4))
		FROM bench.command_latencies WHERE run_id = $LAST_ON AND command LIKE 'SELECT%'")
done

echo
echo "medians (transactions per second), off / on, and the select's phases in its last timed run:"
for c in "${CLIENTS[@]}"; do
	on=$(tr ' ' '\n' <<<"${vals["$c on"]}" | grep . | median)
	off=$(tr ' ' '\n' <<<"${vals["$c off"]}" | grep . | median)
	printf '%3d clients  on %12.1f  off %12.1f  off/on %7.4f  (%s)\n' "$c" "$on" "$off" "$(calc "$off / $on")" "${phases[$c]}"
done
