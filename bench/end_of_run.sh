#!/usr/bin/env bash
# The end of a run with many clients: how far the measured time stays from
# the duration, and whether every committed transaction is counted.
#
#   bench/end_of_run.sh [--rounds 3] [--duration 10] [--scale 10]
#                       [--cases server:1000,libpq:1000:4,libpq:1100:1]
#                       [--workloads select-only,tpcb] [--port 5540] [--keep]
#
# Two throwaway clusters (initdb as the postgres OS user when run as root):
# the driver (port --port, pgbenchkit installed, max_worker_processes for
# the largest in-server case) and a target (port --port + 1, listening on
# 127.0.0.1, scram-sha-256 passwords, no pgbenchkit, max_connections for the
# largest case); PG_BIN names the directory of initdb, pg_ctl and psql
# (default: PostgreSQL 15's).  bench.init loads tpcb at --scale into both
# (the target's through the target).  Then, for each round, each workload
# and each case, alternating, after a CHECKPOINT on the server that runs
# the transactions:
#   server:C        bench.run(w, clients => C, duration => 'D s') in the driver
#   libpq:C:J       bench.run(w, clients => C, jobs => J, duration => 'D s',
#                             target => 'target')
# each printing measured_s, its excess over the duration in %, tps, the
# latency maximum, the transactions counted, and for tpcb what
# pgbench_history gained (it must be the count: the exit status is non-zero
# if it is not).  Last, the median excess per workload and case.  The excess
# is what the end of the run costs: the transactions in flight at the end
# that commit before their cancel lands are counted, and the run's time
# ends at the last of them.  Run it on an otherwise idle machine.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

ROUNDS=3 DURATION=10 SCALE=10 PORT=5540 KEEP=0
CASE_LIST=server:1000,libpq:1000:4,libpq:1100:1 WORKLOAD_LIST=select-only,tpcb
while (($#)); do
	case $1 in
	--rounds) ROUNDS=$2; shift 2 ;;
	--duration) DURATION=$2; shift 2 ;;
	--scale) SCALE=$2; shift 2 ;;
	--cases) CASE_LIST=$2; shift 2 ;;
	--workloads) WORKLOAD_LIST=$2; shift 2 ;;
	--port) PORT=$2; shift 2 ;;
	--keep) KEEP=1; shift ;;
	*) echo "usage: $0 [--rounds N] [--duration SECONDS] [--scale N] [--cases server:C,libpq:C:J,...] [--workloads w,w] [--port N] [--keep]" >&2; exit 2 ;;
	esac
done
for v in "$ROUNDS" "$DURATION" "$SCALE" "$PORT"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || die "options take positive whole numbers, not '$v'"
done
IFS=, read -r -a CASES <<<"$CASE_LIST"
IFS=, read -r -a WORKLOADS <<<"$WORKLOAD_LIST"
MAX_SERVER=0 MAX_LIBPQ=0
for c in "${CASES[@]}"; do
	if [[ $c =~ ^server:([1-9][0-9]*)$ ]]; then
		((BASH_REMATCH[1] > MAX_SERVER)) && MAX_SERVER=${BASH_REMATCH[1]}
	elif [[ $c =~ ^libpq:([1-9][0-9]*):([1-9][0-9]*)$ ]]; then
		((BASH_REMATCH[1] > MAX_LIBPQ)) && MAX_LIBPQ=${BASH_REMATCH[1]}
	else
		die "--cases takes server:CLIENTS or libpq:CLIENTS:JOBS, not '$c'"
	fi
done
for w in "${WORKLOADS[@]}"; do
	[[ $w == select-only || $w == tpcb || $w == simple-update ]] || die "--workloads takes tpcb, select-only, simple-update, not '$w'"
done
BIN=${PG_BIN:-$(pg_bindir 15)}
[[ -x $BIN/initdb ]] || die "no initdb in $BIN (set PG_BIN)"
PASSWORD=end-of-run-$RANDOM$RANDOM
TPORT=$((PORT + 1))

TDATA=
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
	local rc=$?
	if [[ -n $TDATA && -f $TDATA/postmaster.pid ]] && ! ((KEEP)); then
		as_pg "$BIN/pg_ctl" -D "$TDATA" -m fast -w stop >/dev/null || warn "could not stop the target"
	fi
	bench_cluster_cleanup "$rc" "$KEEP"
}
trap cleanup EXIT

bench_cluster_create end_of_run "$PORT" <<EOF
max_worker_processes = $((MAX_SERVER + 20))
max_connections = 100
shared_buffers = '256MB'
EOF
PSQL=("$BIN/psql" -X -q -v ON_ERROR_STOP=1)

# the target: another cluster, reached over TCP with a password
TDATA=$WORK/target
as_pg "$BIN/initdb" -D "$TDATA" -A trust -N --no-locale -E UTF8 >"$WORK/initdb-target.log" 2>&1 ||
	{ show_file "$WORK/initdb-target.log"; die "initdb of the target failed"; }
cat <<EOF | as_pg tee -a "$TDATA/postgresql.conf" >/dev/null
port = $TPORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$WORK'
max_connections = $((MAX_LIBPQ + 100))
shared_buffers = '256MB'
password_encryption = 'scram-sha-256'
EOF
printf 'host all bench_target 127.0.0.1/32 scram-sha-256\n' | as_pg tee "$TDATA/pg_hba.conf.new" >/dev/null
as_pg sh -c "cat '$TDATA/pg_hba.conf' >> '$TDATA/pg_hba.conf.new' && mv '$TDATA/pg_hba.conf.new' '$TDATA/pg_hba.conf'"
as_pg "$BIN/pg_ctl" -D "$TDATA" -l "$WORK/target.log" -w start >/dev/null ||
	die "the target did not start (is port $TPORT taken? use --port)"
TPSQL=("${PSQL[@]}" -p "$TPORT")
"${TPSQL[@]}" -d postgres -c "SET log_statement = 'none'" -c "CREATE ROLE bench_target LOGIN PASSWORD '$PASSWORD'" \
	-c "CREATE DATABASE bench OWNER bench_target"

"${PSQL[@]}" -d postgres -c "CREATE DATABASE bench"
"${PSQL[@]}" -c "SET client_min_messages = warning" -c "CREATE EXTENSION pgbenchkit CASCADE"
"${PSQL[@]}" -At -c "SET log_statement = 'none'" \
	-c "SELECT name FROM bench.add_target('target', 'host=127.0.0.1 port=$TPORT dbname=bench', password => '$PASSWORD', \"user\" => 'bench_target')" >/dev/null
"${PSQL[@]}" -At -c "SET client_min_messages = warning" -c "SELECT rows_loaded FROM bench.init('tpcb', scale => $SCALE)" >/dev/null
"${PSQL[@]}" -At -c "SET client_min_messages = warning" -c "SELECT rows_loaded FROM bench.init('tpcb', scale => $SCALE, target => 'target')" >/dev/null
SERVER_VERSION=$("${PSQL[@]}" -Atc 'show server_version')
echo "scale $SCALE, $DURATION s per run, $ROUNDS rounds, cases ${CASE_LIST}, $(nproc) cores," \
	"server $SERVER_VERSION, load average $(cut -d' ' -f1-3 /proc/loadavg)"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A EXCESS
MISMATCHES=0

measure() {
	local w=$1 c=$2 r=$3 args where psql h0 h1 row id status ms tps lmax tx excess
	if [[ $c == server:* ]]; then
		args="clients => ${c#server:}"
		psql=("${PSQL[@]}")
	else
		IFS=: read -r _ n j <<<"$c"
		args="clients => $n, jobs => $j, target => 'target'"
		psql=("${TPSQL[@]}" -d bench)
	fi
	"${psql[@]}" -c CHECKPOINT
	h0=$("${psql[@]}" -Atc "SELECT count(*) FROM pgbench_history")
	row=$("${PSQL[@]}" -At -F ' ' -c "SELECT id, status, round(measured_s::numeric, 3), round(tps::numeric, 1),
		round(latency_max_ms::numeric), transactions
		FROM bench.run('$w', $args, duration => '$DURATION s', progress => '0', prewarm => false)")
	read -r id status ms tps lmax tx <<<"$row"
	h1=$("${psql[@]}" -Atc "SELECT count(*) FROM pgbench_history")
	[[ $status == "done" ]] || { MISMATCHES=$((MISMATCHES + 1)); echo "  run $id ended $status"; }
	excess=$(awk "BEGIN { printf \"%.2f\", ($ms / $DURATION - 1) * 100 }")
	EXCESS["$w $c"]+="$excess "
	where=""
	if [[ $w != select-only ]]; then
		where=" history +$((h1 - h0))"
		if ((h1 - h0 != tx)); then MISMATCHES=$((MISMATCHES + 1)); where+=" (MISMATCH)"; fi
	fi
	printf '%-11s %-16s round %d  measured_s %8.3f (+%5.2f%%)  tps %9.1f  latency max %6d ms  %8d tx%s\n' \
		"$w" "$c" "$r" "$ms" "$excess" "$tps" "$lmax" "$tx" "$where"
}

for ((r = 1; r <= ROUNDS; r++)); do
	for w in "${WORKLOADS[@]}"; do
		for c in "${CASES[@]}"; do
			measure "$w" "$c" "$r"
		done
	done
done

echo
echo "median excess of measured_s over the duration:"
for w in "${WORKLOADS[@]}"; do
	for c in "${CASES[@]}"; do
		# shellcheck disable=SC2086
		printf '  %-11s %-16s %6.2f%%  (rounds: %s)\n' "$w" "$c" \
			"$(printf '%s\n' ${EXCESS["$w $c"]} | median)" "${EXCESS["$w $c"]% }"
	done
done
((MISMATCHES == 0)) || die "$MISMATCHES run(s) did not end done or counted other than the target's rows"
echo "every run ended done; every tpcb transaction counted is in pgbench_history"
