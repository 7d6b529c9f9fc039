#!/usr/bin/env bash
# The Insert Benchmark's load step, l.i0: bench.run's in-server clients
# against a Python client doing what the benchmark's client does.
#
#   bench/ibench_vs_python.sh [--clients 1,4] [--rows 200000] [--rounds 3] [--port 5533] [--keep]
#
# Creates a throwaway cluster (initdb as the postgres OS user when run as
# root) in a temporary folder, port --port, unix socket only,
# max_worker_processes = 32, shared_buffers = 1GB; PG_BIN names the
# directory of initdb, pg_ctl and psql (default: PostgreSQL 15's); a Python
# virtual environment with psycopg2 from PyPI (the benchmark's client uses
# psycopg2).  For each client count C and round, alternating the order:
#   bench.init('ibench', tables => C, force => true), CHECKPOINT, then
#   bench.run('ibench.l.i0', clients => C, transactions => rows / 100)
# and
#   the same fresh tables, CHECKPOINT, then
#   bench/ibench_load.py --clients C --rows rows --rows-per-commit 100
# (C processes, a table each, 100-row INSERTs in autocommit over the unix
# socket, the rows made by the client as the benchmark makes them), and
# prints the inserts per second of each (rows / the time from the first
# insert to the last); then the medians and their ratio.  The rows are per
# client.  Run it on an otherwise idle machine; the ratio is what to read.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

CLIENT_LIST=1,4 ROWS=200000 ROUNDS=3 PORT=5533 KEEP=0
while (($#)); do
	case $1 in
	--clients) CLIENT_LIST=$2; shift 2 ;;
	--rows) ROWS=$2; shift 2 ;;
	--rounds) ROUNDS=$2; shift 2 ;;
	--port) PORT=$2; shift 2 ;;
	--keep) KEEP=1; shift ;;
	*) echo "usage: $0 [--clients N,N] [--rows N] [--rounds N] [--port N] [--keep]" >&2; exit 2 ;;
	esac
done
for v in "$ROWS" "$ROUNDS" "$PORT"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || die "expected a whole number above 0, not '$v'"
done
((ROWS % 100 == 0)) || die "--rows must be a multiple of 100 (the rows per commit), not $ROWS"
IFS=, read -r -a CLIENTS <<<"$CLIENT_LIST"
for c in "${CLIENTS[@]}"; do [[ $c =~ ^[1-9][0-9]*$ ]] || die "--clients takes counts like 1,4, not '$CLIENT_LIST'"; done
BIN=${PG_BIN:-$(pg_bindir 15)}
[[ -x $BIN/initdb ]] || die "no initdb in $BIN (set PG_BIN)"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }

# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() { bench_cluster_cleanup $? "$KEEP"; }
trap cleanup EXIT

bench_cluster_create ibench_vs_python "$PORT" <<EOF
max_worker_processes = 32
shared_buffers = '1GB'
max_wal_size = '4GB'
EOF
python3 -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install --disable-pip-version-check -q psycopg2-binary ||
	die "pip could not install psycopg2-binary"
PSQL=("$BIN/psql" -X -q -v ON_ERROR_STOP=1)
"${PSQL[@]}" -d postgres -c "CREATE DATABASE bench"
"${PSQL[@]}" -c "SET client_min_messages = warning" -c "CREATE EXTENSION pgbenchkit CASCADE"
DSN="host=$("${PSQL[@]}" -Atc 'show unix_socket_directories') port=$PORT dbname=bench user=$("${PSQL[@]}" -Atc 'SELECT current_user')"
echo "l.i0: $ROWS rows per client, 100 per commit, clients $CLIENT_LIST, $ROUNDS rounds, $(nproc) cores," \
	"server $("${PSQL[@]}" -Atc 'show server_version'), psycopg2 $("$WORK/venv/bin/python" -c 'import psycopg2; print(psycopg2.__version__.split()[0])')," \
	"load average $(cut -d' ' -f1-3 /proc/loadavg)"

fresh() {
	"${PSQL[@]}" -At -c "SELECT rows_loaded FROM bench.init('ibench', tables => $1, force => true)" >/dev/null
	"${PSQL[@]}" -c CHECKPOINT
}

declare -A vals
measure_run() {
	local c=$1 r=$2 status tps ips
	fresh "$c"
	read -r status tps < <("${PSQL[@]}" -At -F ' ' -c "SELECT status, tps FROM bench.run('ibench.l.i0',
		clients => $c, transactions => $((ROWS / 100)), progress => '0', prewarm => false)")
	[[ $status == "done" ]] || die "bench.run('ibench.l.i0') ended $status"
	ips=$(calc "$tps * 100")
	vals["$c run"]+="$ips "
	printf '%3d clients round %d  bench.run      %12.1f inserts/s\n' "$c" "$r" "$ips"
}

measure_python() {
	local c=$1 r=$2 ips rows
	fresh "$c"
	ips=$("$WORK/venv/bin/python" "$HERE/ibench_load.py" --dsn "$DSN" --clients "$c" --rows "$ROWS")
	rows=$("${PSQL[@]}" -At -c "SELECT sum(n) FROM (SELECT count(*) AS n FROM pi1 $(for ((t = 2; t <= c; t++)); do printf 'UNION ALL SELECT count(*) FROM pi%d ' "$t"; done)) x")
	((rows == c * ROWS)) || die "the Python client inserted $rows rows, not $((c * ROWS))"
	vals["$c python"]+="$ips "
	printf '%3d clients round %d  Python client  %12.1f inserts/s\n' "$c" "$r" "$ips"
}

for c in "${CLIENTS[@]}"; do
	for ((r = 1; r <= ROUNDS; r++)); do
		if ((r % 2)); then measure_python "$c" "$r"; measure_run "$c" "$r"
		else measure_run "$c" "$r"; measure_python "$c" "$r"; fi
	done
done

echo
echo "medians (inserts per second) and the ratio bench.run / Python client:"
for c in "${CLIENTS[@]}"; do
	py=$(tr ' ' '\n' <<<"${vals["$c python"]}" | grep . | median)
	run=$(tr ' ' '\n' <<<"${vals["$c run"]}" | grep . | median)
	printf '%3d clients  Python %12.1f  bench.run %12.1f  ratio %7.3f\n' "$c" "$py" "$run" "$(calc "$run / $py")"
done
