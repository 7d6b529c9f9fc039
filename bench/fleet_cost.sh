#!/usr/bin/env bash
# What logical decoding costs a driver of a fleet (docs/fleet.md) while its
# own in-server benchmark writes WAL.
#
#   bench/fleet_cost.sh [--scale 10] [--rounds 3] [--clients 8] [--duration 20]
#                       [--workloads tpcb] [--port 5531] [--central-port 5532] [--keep]
#
# Creates two throwaway clusters (initdb as the postgres OS user when run as
# root), each in a temporary folder of its own, unix sockets only; PG_BIN
# names the directory of initdb, pg_ctl and psql (default: PostgreSQL 15's),
# where pgbenchkit must be installed:
#   - the driver, port --port: wal_level = logical, max_worker_processes =
#     300, shared_buffers = 256MB, everything else default.  Database
#     `bench`: bench.set_node('driver', 1), bench.init('tpcb', scale =>
#     --scale), bench.publish();
#   - the central database, port --central-port: max_worker_processes = 16,
#     everything else default.  Database `bench`: bench.set_node('central',
#     100) and CREATE SUBSCRIPTION fleet_cost ... PUBLICATION pgbenchkit to
#     the driver; waits for the initial copy.
# Then, for each workload of --workloads (comma-separated; tpcb writes the
# most WAL, select-only next to none) and each round, alternating which goes
# first, runs on the driver, each after a CHECKPOINT,
#   bench.run('<workload>', clients => C, duration => 'D s', progress => '0')
# once with the subscription enabled (the driver's walsender decodes every
# record of WAL the run writes, though it sends only the result rows) and
# once disabled (ALTER SUBSCRIPTION fleet_cost DISABLE on the central: no
# walsender; the slot keeps the WAL instead).  Before each measurement the
# subscription is enabled and the walsender has decoded all the WAL there
# is (pg_stat_replication.sent_lsn).  It prints for each measurement:
#   - the run's tps, and its WAL (bench.run_counters: wal_generated_bytes,
#     from the insert position, over its seconds);
#   - enabled: the CPU time (utime + stime of /proc/<pid>/stat, in clock
#     ticks) of the walsender (pg_stat_replication.pid) from before the
#     run to its end, as a share of one core (over the run's seconds) and of
#     the CPU time of the whole driver server in the run (server_cpu_s of
#     bench.run_counters, the walsender's included); how far behind the
#     walsender was when the run ended, and its CPU time until it had
#     decoded everything; the CPU time of the central's apply worker
#     (pg_stat_subscription.pid; the same machine here, another in a real
#     fleet); what the slot decoded (pg_stat_replication_slots: total_txns,
#     total_bytes, spill_bytes) and the walsender's CPU time per transaction
#     decoded;
#   - disabled: the WAL the inactive slot retains when the run ends
#     (pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn) of
#     pg_replication_slots), how much of it the run added, and the size of
#     pg_wal (pg_ls_waldir); then,
#     after ALTER SUBSCRIPTION ... ENABLE, the seconds and the CPU time the
#     new walsender took to decode that WAL.
# Then per workload the median tps of each, the ratio of the medians
# (enabled / disabled), the median of each round's ratio, the medians of
# the walsender's CPU figures (per MB of WAL: runs of 1 MB or more), and
# the WAL a disabled subscription's slot retains per minute of the
# workload.
# The clusters are stopped and removed at the end; --keep leaves them
# running.  The ratios are what to compare; on a busy machine, more rounds.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
# a failure inside $(...) fails the command that uses it
shopt -s inherit_errexit

SCALE=10 ROUNDS=3 CLIENTS=8 DURATION=20 PORT=5531 CPORT=5532 KEEP=0 WORKLOAD_LIST=tpcb
while (($#)); do
	case $1 in
	--scale) SCALE=$2; shift 2 ;;
	--rounds) ROUNDS=$2; shift 2 ;;
	--clients) CLIENTS=$2; shift 2 ;;
	--duration) DURATION=$2; shift 2 ;;
	--workloads) WORKLOAD_LIST=$2; shift 2 ;;
	--port) PORT=$2; shift 2 ;;
	--central-port) CPORT=$2; shift 2 ;;
	--keep) KEEP=1; shift ;;
	*) echo "usage: $0 [--scale N] [--rounds N] [--clients N] [--duration SECONDS] [--workloads tpcb,simple-update] [--port N] [--central-port N] [--keep]" >&2; exit 2 ;;
	esac
done
for v in "$SCALE" "$ROUNDS" "$CLIENTS" "$DURATION" "$PORT" "$CPORT"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || die "options take positive whole numbers, not '$v'"
done
((PORT != CPORT)) || die "--port and --central-port must differ"
[[ $WORKLOAD_LIST =~ ^[a-z-]+(,[a-z-]+)*$ ]] || die "--workloads takes names like tpcb,simple-update, not '$WORKLOAD_LIST'"
IFS=, read -r -a WORKLOADS <<<"$WORKLOAD_LIST"
BIN=${PG_BIN:-$(pg_bindir 15)}
[[ -x $BIN/initdb && -x $BIN/psql ]] || die "no initdb or psql in $BIN (set PG_BIN)"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }
m() { printf '%s\n' "$@" | median; }
HZ=$(getconf CLK_TCK)
SUB=fleet_cost

# ---------------------------------------------------------------- clusters
# bench_cluster_create keeps one cluster in WORK, DATA and SERVER_LOG: the
# central's are saved in C_WORK, C_DATA and C_LOG, and the EXIT trap stops
# the central first (its subscription is the driver's walsender's client).
C_WORK="" C_DATA="" C_LOG=""
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
	local rc=$? work=${WORK:-} data=${DATA:-} log=${SERVER_LOG:-} port=${PGPORT:-}
	if [[ -n $C_WORK && $C_WORK != "$work" ]]; then
		WORK=$C_WORK DATA=$C_DATA SERVER_LOG=$C_LOG PGPORT=$CPORT
		bench_cluster_cleanup "$rc" "$KEEP"
		WORK=$work DATA=$data SERVER_LOG=$log PGPORT=$port
	fi
	bench_cluster_cleanup "$rc" "$KEEP"
}
trap cleanup EXIT

bench_cluster_create fleet_cost_central "$CPORT" <<EOF
max_worker_processes = 16
EOF
C_WORK=$WORK C_DATA=$DATA C_LOG=$SERVER_LOG
bench_cluster_create fleet_cost_driver "$PORT" <<EOF
wal_level = logical
max_worker_processes = 300
shared_buffers = '256MB'
EOF
# PGHOST and PGPORT now name the driver; each command names its cluster
DRIVER=("$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$WORK" -p "$PORT" -d bench)
CENTRAL=("$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$C_WORK" -p "$CPORT" -d bench)

"${DRIVER[@]}" -d postgres -c "CREATE DATABASE bench"
"${CENTRAL[@]}" -d postgres -c "CREATE DATABASE bench"
"${DRIVER[@]}" -c "SET client_min_messages = warning" -c "CREATE EXTENSION pgbenchkit CASCADE"
"${CENTRAL[@]}" -c "SET client_min_messages = warning" -c "CREATE EXTENSION pgbenchkit CASCADE"
"${DRIVER[@]}" -At -c "SELECT bench.set_node('driver', 1)" >/dev/null
"${CENTRAL[@]}" -At -c "SELECT bench.set_node('central', 100)" >/dev/null
"${DRIVER[@]}" -At -c "SELECT rows_loaded FROM bench.init('tpcb', scale => $SCALE)" >/dev/null
"${DRIVER[@]}" -At -c "SELECT bench.publish()" >/dev/null
"${CENTRAL[@]}" -c "CREATE SUBSCRIPTION $SUB CONNECTION 'host=$WORK port=$PORT dbname=bench user=$PGUSER' PUBLICATION pgbenchkit"

# wait_until CLUSTER SQL WHAT: poll the query until it returns t, 15 minutes at most
wait_until() {
	local -n psql_of=$1
	local sql=$2 what=$3 i
	for ((i = 0; i < 9000; i++)); do
		[[ $("${psql_of[@]}" -At -c "$sql") == t ]] && return 0
		sleep 0.1
	done
	die "waited 15 minutes for $what"
}
wait_until CENTRAL "SELECT count(*) > 0 AND count(*) FILTER (WHERE srsubstate NOT IN ('r', 's')) = 0
	FROM pg_subscription_rel" "the subscription's initial copy"

# the walsender has decoded the WAL up to LSN
wait_decoded() {
	wait_until DRIVER "SELECT coalesce(bool_or(sent_lsn >= '$1'), false) FROM pg_stat_replication
		WHERE application_name = '$SUB'" "the walsender to decode up to $1"
}
current_lsn() { "${DRIVER[@]}" -At -c "SELECT pg_current_wal_lsn()"; }
walsender_pid() { "${DRIVER[@]}" -At -c "SELECT pid FROM pg_stat_replication WHERE application_name = '$SUB'"; }
apply_pid() { "${CENTRAL[@]}" -At -c "SELECT pid FROM pg_stat_subscription WHERE subname = '$SUB' AND relid IS NULL"; }
# the CPU time of a process, user + system, in clock ticks
ticks() {
	local line f
	read -r line <"/proc/$1/stat" || die "no process $1"
	read -r -a f <<<"${line##*) }"
	echo $((f[11] + f[12]))
}
now() { date +%s.%N; }
# what the slot decoded so far: transactions, bytes, bytes spilled to disk
slot_stats() {
	"${DRIVER[@]}" -At -F ' ' -c "SELECT total_txns, total_bytes, spill_bytes FROM pg_stat_replication_slots
		WHERE slot_name = '$SUB'"
}
# one run: prints its id, tps, seconds, WAL bytes and server CPU seconds
# (bench.run_counters in a statement of its own: the samples are committed
# by the run's coordinator while bench.run's statement runs)
run() {
	"${DRIVER[@]}" -At -F ' ' <<EOF
SELECT id AS run_id, tps FROM bench.run('$1', clients => $CLIENTS, duration => '$DURATION s', progress => '0') \gset
SELECT :run_id, :tps, seconds, wal_generated_bytes, server_cpu_s FROM bench.run_counters WHERE run_id = :run_id;
EOF
}

wait_decoded "$(current_lsn)"

SERVER_VERSION=$("${DRIVER[@]}" -Atc 'show server_version')
CPU_MODEL=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
echo "scale $SCALE, $CLIENTS clients, $DURATION s per measurement, $ROUNDS rounds, workloads $WORKLOAD_LIST," \
	"$(nproc) cores ($CPU_MODEL), server $SERVER_VERSION, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# ---------------------------------------------------------------- measurements
# With the subscription enabled and caught up.  Prints: id tps seconds
# wal_bytes server_cpu_s walsender_s lag_bytes walsender_until_decoded_s
# apply_s decoded_txns decoded_bytes spill_bytes
measure_enabled() {
	local workload=$1 ws ap w0 a0 w1 w2 a2 n0 b0 s0 n1 b1 s1 id tps secs wal cpu lsn lag
	"${DRIVER[@]}" -c CHECKPOINT
	ws=$(walsender_pid) ap=$(apply_pid)
	[[ -n $ws && -n $ap ]] || die "no walsender or no apply worker"
	read -r n0 b0 s0 < <(slot_stats)
	w0=$(ticks "$ws") a0=$(ticks "$ap")
	read -r id tps secs wal cpu < <(run "$workload")
	w1=$(ticks "$ws")
	read -r lsn lag < <("${DRIVER[@]}" -At -F ' ' -c "SELECT pg_current_wal_lsn(), pg_wal_lsn_diff(pg_current_wal_lsn(), sent_lsn)
		FROM pg_stat_replication WHERE application_name = '$SUB'")
	wait_decoded "$lsn"
	w2=$(ticks "$ws") a2=$(ticks "$ap")
	[[ $(walsender_pid) == "$ws" && $(apply_pid) == "$ap" ]] || die "the walsender or the apply worker restarted during run $id"
	read -r n1 b1 s1 < <(slot_stats)
	echo "$id $tps $secs $wal $cpu $(calc "($w1 - $w0) / $HZ") $lag $(calc "($w2 - $w0) / $HZ") $(calc "($a2 - $a0) / $HZ")" \
		$((n1 - n0)) $((b1 - b0)) $((s1 - s0))
}

# With the subscription disabled; enables it again after.  Prints: id tps
# seconds wal_bytes server_cpu_s retained_before_bytes retained_bytes
# pg_wal_bytes catchup_s catchup_cpu_s
measure_disabled() {
	local workload=$1 id tps secs wal cpu before retained pgwal lsn t0 t1 ws
	"${CENTRAL[@]}" -c "ALTER SUBSCRIPTION $SUB DISABLE"
	wait_until DRIVER "SELECT NOT active FROM pg_replication_slots WHERE slot_name = '$SUB'" "the walsender to end"
	"${DRIVER[@]}" -c CHECKPOINT
	before=$("${DRIVER[@]}" -At -c "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)
		FROM pg_replication_slots WHERE slot_name = '$SUB'")
	read -r id tps secs wal cpu < <(run "$workload")
	read -r lsn retained pgwal < <("${DRIVER[@]}" -At -F ' ' -c "SELECT pg_current_wal_lsn(),
		pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn), (SELECT sum(size) FROM pg_ls_waldir())
		FROM pg_replication_slots WHERE slot_name = '$SUB'")
	t0=$(now)
	"${CENTRAL[@]}" -c "ALTER SUBSCRIPTION $SUB ENABLE"
	wait_decoded "$lsn"
	t1=$(now)
	ws=$(walsender_pid)
	echo "$id $tps $secs $wal $cpu $before $retained $pgwal $(calc "$t1 - $t0") $(calc "$(ticks "$ws") / $HZ")"
}

mb() { calc "$1 / 1e6"; }
SUMMARY=()
for workload in "${WORKLOADS[@]}"; do
	ON=() OFF=() RATIOS=() WAL_RATE=() WS_US_PER_TX=() WS_CORE=() WS_SHARE=() WS_MS_PER_MB=() LAG=() APPLY=() RETAINED=() RETAINED_MIN=() PGWAL=() CATCHUP=() CATCHUP_RATE=()
	for ((r = 1; r <= ROUNDS; r++)); do
		if ((r % 2)); then order=(enabled disabled); else order=(disabled enabled); fi
		for mode in "${order[@]}"; do
			if [[ $mode == enabled ]]; then
				out=$(measure_enabled "$workload")
				read -r id tps secs wal cpu ws_s lag ws_all apply_s txns bytes spill <<<"$out"
				on=$tps
				WS_CORE+=("$(calc "$ws_s / $secs")") WS_SHARE+=("$(calc "$ws_s / $cpu")")
				LAG+=("$(mb "$lag")") APPLY+=("$apply_s")
				((wal < 1000000)) || WS_MS_PER_MB+=("$(calc "1000 * $ws_all / ($wal / 1e6)")")
				((txns == 0)) || WS_US_PER_TX+=("$(calc "1e6 * $ws_all / $txns")")
				printf '%-13s round %d  enabled   run %-14s %9.1f tps  WAL %7.1f MB (%5.1f MB/s)  server CPU %6.2f s  walsender %5.2f s (%4.1f%% of a core, %4.1f%% of the server'"'"'s), %6.1f MB behind at the end, %5.2f s until decoded  apply worker %4.2f s  decoded %s txns (%.1f µs of the walsender'"'"'s CPU each), %.1f MB, spilled %.1f MB\n' \
					"$workload" "$r" "$id" "$tps" "$(mb "$wal")" "$(calc "$wal / 1e6 / $secs")" "$cpu" "$ws_s" \
					"$(calc "100 * $ws_s / $secs")" "$(calc "100 * $ws_s / $cpu")" "$(mb "$lag")" "$ws_all" "$apply_s" \
					"$txns" "$(calc "1e6 * $ws_all / ($txns + ($txns == 0))")" "$(mb "$bytes")" "$(mb "$spill")"
			else
				out=$(measure_disabled "$workload")
				read -r id tps secs wal cpu before retained pgwal catchup catchup_cpu <<<"$out"
				off=$tps
				RETAINED+=("$(mb "$retained")") RETAINED_MIN+=("$(calc "60 * ($retained - $before) / 1e6 / $secs")") PGWAL+=("$(mb "$pgwal")")
				CATCHUP+=("$catchup") CATCHUP_RATE+=("$(calc "$retained / 1e6 / $catchup")")
				printf '%-13s round %d  disabled  run %-14s %9.1f tps  WAL %7.1f MB (%5.1f MB/s)  server CPU %6.2f s  slot retains %7.1f MB (%+7.1f MB in the run), pg_wal %7.1f MB; once enabled, decoded in %5.2f s, walsender %5.2f s of CPU\n' \
					"$workload" "$r" "$id" "$tps" "$(mb "$wal")" "$(calc "$wal / 1e6 / $secs")" "$cpu" \
					"$(mb "$retained")" "$(mb "($retained - $before)")" "$(mb "$pgwal")" "$catchup" "$catchup_cpu"
			fi
			WAL_RATE+=("$(calc "$wal / 1e6 / $secs")")
		done
		ON+=("$on") OFF+=("$off") RATIOS+=("$(awk "BEGIN { printf \"%.3f\", $on / $off }")")
	done
	m_on=$(m "${ON[@]}") m_off=$(m "${OFF[@]}")
	SUMMARY+=("$(printf '%-13s enabled %10.1f tps, disabled %10.1f tps: ratio of medians %.3f, median ratio %.3f (rounds: %s)' \
		"$workload" "$m_on" "$m_off" "$(calc "$m_on / $m_off")" "$(m "${RATIOS[@]}")" "${RATIOS[*]}")")
	SUMMARY+=("$(printf '%-13s WAL %.1f MB/s; walsender %.1f%% of a core, %.1f%% of the server'"'"'s CPU, %.1f ms of CPU per MB of WAL (runs of 1 MB or more), %.1f µs per transaction decoded, %.1f MB behind at the end; apply worker %.2f s of CPU per run' \
		"" "$(m "${WAL_RATE[@]}")" "$(calc "100 * $(m "${WS_CORE[@]}")")" "$(calc "100 * $(m "${WS_SHARE[@]}")")" \
		"$(m "${WS_MS_PER_MB[@]:-0}")" "$(m "${WS_US_PER_TX[@]:-0}")" "$(m "${LAG[@]}")" "$(m "${APPLY[@]}")")")
	SUMMARY+=("$(printf '%-13s disabled: the slot retains %.1f MB after a run, %.1f MB more per minute of the workload; pg_wal %.1f MB; decoded in %.2f s once enabled (%.1f MB/s)' \
		"" "$(m "${RETAINED[@]}")" "$(m "${RETAINED_MIN[@]}")" "$(m "${PGWAL[@]}")" "$(m "${CATCHUP[@]}")" "$(m "${CATCHUP_RATE[@]}")")")
done

echo
echo "summary: subscription enabled against disabled, medians of $ROUNDS rounds"
printf '%s\n' "${SUMMARY[@]}"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
