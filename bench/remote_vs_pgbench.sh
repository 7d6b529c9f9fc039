#!/usr/bin/env bash
# The libpq driver against pgbench: bench.run with target => this same
# server over TCP loopback, against pgbench -h 127.0.0.1, on one cluster.
#
#   bench/remote_vs_pgbench.sh [--scale 10] [--rounds 3] [--clients 1,8,32]
#                              [--jobs N] [--duration 10] [--port 5530]
#                              [--many 1000] [--keep]
#
# Creates a throwaway cluster (initdb as the postgres OS user when run as
# root) in a temporary folder, port --port, listening on 127.0.0.1,
# max_connections = --many + 100, shared_buffers = 256MB; PG_BIN names the
# directory of initdb, pg_ctl, psql and pgbench (default: PostgreSQL 15's).
# Loads the tpcb dataset with bench.init (scale --scale) into database
# `bench`, prewarms it, and adds the target `self` (host=127.0.0.1, this
# port, database bench).  Then for select-only and tpcb, each client count
# C of --clients and each round, alternating, each after a CHECKPOINT:
#   pgbench -h 127.0.0.1 -M prepared -c C -j J -T D -n -b <select-only|tpcb-like>
#   bench.run('<workload>', clients => C, jobs => J, duration => 'D s',
#             progress => '0', prewarm => false, target => 'self')
# with J = --jobs (default: min(C, cores)).  Each prints tps, average
# latency, transactions, and the client side's CPU time (user + system)
# per 1000 transactions: the pgbench process (GNU time's %U + %S) against
# the run's client workers (backend_type 'pgbenchkit client', read from
# /proc/<pid>/stat until they exit).  The backends that run the SQL are
# the same kind of process for both (client backends over TCP), so the
# client side is what differs.  Then the medians and the ratios
# bench.run / pgbench of tps and of client CPU per transaction.
# Last, bench.run('tpcb', clients => --many, jobs => J, duration => '30 s',
# target => 'self') must end `done`, add exactly its transactions to
# pgbench_history, and leave sum(abalance) = sum(tbalance) =
# sum(bbalance) = sum(delta).  The exit status is non-zero if a check
# failed.  Run it on an otherwise idle machine; the ratios are what to
# compare.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

SCALE=10 ROUNDS=3 CLIENT_LIST=1,8,32 JOBS_OPT=0 DURATION=10 PORT=5530 MANY=1000 KEEP=0
while (($#)); do
	case $1 in
	--scale) SCALE=$2; shift 2 ;;
	--rounds) ROUNDS=$2; shift 2 ;;
	--clients) CLIENT_LIST=$2; shift 2 ;;
	--jobs) JOBS_OPT=$2; shift 2 ;;
	--duration) DURATION=$2; shift 2 ;;
	--port) PORT=$2; shift 2 ;;
	--many) MANY=$2; shift 2 ;;
	--keep) KEEP=1; shift ;;
	*) echo "usage: $0 [--scale N] [--rounds N] [--clients N,N,...] [--jobs N] [--duration SECONDS] [--port N] [--many N] [--keep]" >&2; exit 2 ;;
	esac
done
for v in "$SCALE" "$ROUNDS" "$DURATION" "$PORT" "$MANY"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || die "options take positive whole numbers, not '$v'"
done
[[ $JOBS_OPT =~ ^[0-9]+$ ]] || die "--jobs takes a whole number, not '$JOBS_OPT'"
IFS=, read -r -a CLIENTS <<<"$CLIENT_LIST"
for c in "${CLIENTS[@]}"; do [[ $c =~ ^[1-9][0-9]*$ ]] || die "--clients takes counts like 1,8,32, not '$CLIENT_LIST'"; done
BIN=${PG_BIN:-$(pg_bindir 15)}
[[ -x $BIN/pgbench && -x $BIN/initdb ]] || die "no pgbench or initdb in $BIN (set PG_BIN)"
[[ -x /usr/bin/time ]] || apt_ensure time
TICKS=$(getconf CLK_TCK)
CORES=$(nproc)
declare -A BUILTIN=([select-only]=select-only [tpcb]=tpcb-like)

now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }
jobs_for() { if ((JOBS_OPT > 0)); then echo $((JOBS_OPT < $1 ? JOBS_OPT : $1)); else echo $(($1 < CORES ? $1 : CORES)); fi; }

JOB=
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
	local rc=$?
	if [[ -n $JOB ]] && kill -0 "$JOB" 2>/dev/null; then kill "$JOB" 2>/dev/null || true; fi
	bench_cluster_cleanup "$rc" "$KEEP"
}
trap cleanup EXIT

bench_cluster_create remote_vs_pgbench "$PORT" <<EOF
listen_addresses = '127.0.0.1'
max_connections = $((MANY + 100))
max_worker_processes = 64
shared_buffers = '256MB'
EOF
PSQL=("$BIN/psql" -X -q -v ON_ERROR_STOP=1)
"${PSQL[@]}" -d postgres -c "CREATE DATABASE bench"
"${PSQL[@]}" -c "SET client_min_messages = warning" -c "CREATE EXTENSION pgbenchkit CASCADE"
"${PSQL[@]}" -At -c "SELECT rows_loaded FROM bench.init('tpcb', scale => $SCALE)" >/dev/null
"${PSQL[@]}" -At -c "SELECT sum(pg_prewarm(c)) FROM unnest(ARRAY['pgbench_accounts', 'pgbench_accounts_pkey',
	'pgbench_branches', 'pgbench_branches_pkey', 'pgbench_tellers', 'pgbench_tellers_pkey', 'pgbench_history']::regclass[]) c" >/dev/null
# the superuser's own target: this server, over TCP
"${PSQL[@]}" -At -c "SELECT name FROM bench.add_target('self', 'host=127.0.0.1 port=$PORT dbname=bench')" >/dev/null
SERVER_VERSION=$("${PSQL[@]}" -Atc 'show server_version')
echo "scale $SCALE, clients ${CLIENT_LIST}, $DURATION s per measurement, $ROUNDS rounds, $CORES cores," \
	"server $SERVER_VERSION, load average $(cut -d' ' -f1-3 /proc/loadavg)"

history() { "${PSQL[@]}" -At -c "SELECT count(*) FROM pgbench_history"; }
checkpoint() { "${PSQL[@]}" -c "CHECKPOINT"; }

declare -A vals
MISMATCHES=0

measure_pgbench() {
	local w=$1 c=$2 r=$3 j tx tps lat u s cpu h0 h1
	j=$(jobs_for "$c")
	checkpoint
	h0=$(history)
	/usr/bin/time -f '%U %S' -o "$WORK/pgbench.time" \
		"$BIN/pgbench" -h 127.0.0.1 -M prepared -c "$c" -j "$j" -T "$DURATION" -n -b "${BUILTIN[$w]}" >"$WORK/pgbench.out" 2>&1 ||
		{ show_file "$WORK/pgbench.out"; die "pgbench failed"; }
	tx=$(awk -F': *' '/^number of transactions actually processed/ { print $2 + 0 }' "$WORK/pgbench.out")
	tps=$(awk '/^tps = / { print $3 }' "$WORK/pgbench.out")
	lat=$(awk '/^latency average = / { print $4 }' "$WORK/pgbench.out")
	read -r u s <"$WORK/pgbench.time"
	cpu=$(calc "($u + $s) / $tx * 1000")
	h1=$(history)
	if [[ $w == tpcb ]] && ((h1 - h0 != tx)); then MISMATCHES=$((MISMATCHES + 1)); echo "  history +$((h1 - h0)) != $tx"; fi
	vals["$w $c pgbench"]+="$tps "
	vals["$w $c pgbench_cpu"]+="$cpu "
	printf '%-11s %4d clients round %d  pgbench   %9.1f tps  lat %7.3f ms  %8d tx  client CPU s/1000 tx %.4f\n' \
		"$w" "$c" "$r" "$tps" "$lat" "$tx" "$cpu"
}

measure_run() {
	local w=$1 c=$2 r=$3 j status tx tps lat ticks h0 h1 cpu
	j=$(jobs_for "$c")
	checkpoint
	h0=$(history)
	"${PSQL[@]}" -At -F ' ' -c "SELECT status, transactions + warmup_transactions, tps, latency_avg_ms
		FROM bench.run('$w', clients => $c, jobs => $j, duration => '$DURATION s', progress => '0',
		               prewarm => false, target => 'self')" >"$WORK/run.out" 2>"$WORK/run.err" &
	JOB=$!
	ticks=$(bench_client_cpu_ticks "$JOB" "$j" "${PSQL[@]}")
	wait "$JOB" || { show_file "$WORK/run.err"; die "bench.run failed"; }
	JOB=
	read -r status tx tps lat <"$WORK/run.out"
	[[ $status == "done" ]] || { show_file "$WORK/run.err"; die "bench.run ended $status"; }
	cpu=$(calc "$ticks / $TICKS / $tx * 1000")
	h1=$(history)
	if [[ $w == tpcb ]] && ((h1 - h0 != tx)); then MISMATCHES=$((MISMATCHES + 1)); echo "  history +$((h1 - h0)) != $tx"; fi
	vals["$w $c run"]+="$tps "
	vals["$w $c run_cpu"]+="$cpu "
	printf '%-11s %4d clients round %d  bench.run %9.1f tps  lat %7.3f ms  %8d tx  client CPU s/1000 tx %.4f\n' \
		"$w" "$c" "$r" "$tps" "$lat" "$tx" "$cpu"
}

for w in select-only tpcb; do
	for c in "${CLIENTS[@]}"; do
		for ((r = 1; r <= ROUNDS; r++)); do
			if ((r % 2)); then measure_pgbench "$w" "$c" "$r"; measure_run "$w" "$c" "$r"
			else measure_run "$w" "$c" "$r"; measure_pgbench "$w" "$c" "$r"; fi
		done
	done
done

echo
echo "medians (jobs: --jobs or min(clients, $CORES cores)):"
printf '%-11s %7s %5s %11s %11s %7s %12s %12s %7s\n' workload clients jobs pgbench bench.run ratio 'pgbench CPU' 'run CPU' ratio
for w in select-only tpcb; do
	for c in "${CLIENTS[@]}"; do
		pt=$(tr ' ' '\n' <<<"${vals["$w $c pgbench"]}" | grep . | median)
		rt=$(tr ' ' '\n' <<<"${vals["$w $c run"]}" | grep . | median)
		pc=$(tr ' ' '\n' <<<"${vals["$w $c pgbench_cpu"]}" | grep . | median)
		rc=$(tr ' ' '\n' <<<"${vals["$w $c run_cpu"]}" | grep . | median)
		printf '%-11s %7d %5d %11.1f %11.1f %7.3f %12.4f %12.4f %7.3f\n' "$w" "$c" "$(jobs_for "$c")" \
			"$pt" "$rt" "$(calc "$rt / $pt")" "$pc" "$rc" "$(calc "$rc / $pc")"
	done
done

# many clients in a few workers: correct balances
echo
j=$(jobs_for "$MANY")
h0=$(history)
read -r status tx < <("${PSQL[@]}" -At -F ' ' -c "SELECT status, transactions + warmup_transactions
	FROM bench.run('tpcb', clients => $MANY, jobs => $j, duration => '30 s', progress => '0',
	               prewarm => false, target => 'self')")
h1=$(history)
ok=$("${PSQL[@]}" -At -c "SELECT (SELECT sum(abalance) FROM pgbench_accounts) = (SELECT sum(tbalance) FROM pgbench_tellers)
	AND (SELECT sum(tbalance) FROM pgbench_tellers) = (SELECT sum(bbalance) FROM pgbench_branches)
	AND (SELECT sum(bbalance) FROM pgbench_branches) = (SELECT sum(delta) FROM pgbench_history)")
echo "tpcb with $MANY clients in $j workers, 30 s: $status, $tx transactions, history +$((h1 - h0)), balances agree: $ok"
[[ $status == "done" && $ok == t && $((h1 - h0)) -eq $tx ]] || MISMATCHES=$((MISMATCHES + 1))
((MISMATCHES == 0)) || die "$MISMATCHES check(s) failed"
