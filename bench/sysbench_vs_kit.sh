#!/usr/bin/env bash
# sysbench's OLTP workloads: sysbench 1.0 itself against bench.run's
# in-server clients and its libpq driver, on one cluster and the same
# tables.
#
#   bench/sysbench_vs_kit.sh [--tables 4] [--table-size 100000] [--clients 4,8]
#                            [--workloads oltp_read_only,oltp_point_select,oltp_read_write]
#                            [--jobs cores,clients] [--rounds 3] [--duration 10]
#                            [--port 5531] [--keep]
#
# Creates a throwaway cluster (initdb as the postgres OS user when run as
# root) in a temporary folder, port --port, listening on 127.0.0.1,
# shared_buffers = 256MB; PG_BIN names the directory of initdb, pg_ctl and
# psql (default: PostgreSQL 15's).  Loads the sysbench dataset with
# bench.init('sysbench', tables, table_size) into database `bench`,
# and prewarms it.  Then for each workload, each client count C and each
# round, alternating:
#   sysbench <workload> --db-driver=pgsql --pgsql-host=127.0.0.1 --threads=C
#            --time=D --tables=N --table-size=M run
#   bench.run('<workload>', clients => C, duration => 'D s')
#   bench.run('<workload>', clients => C, jobs => J, duration => 'D s',
#             target => 'self')
# (the last: the libpq driver, over TCP to 127.0.0.1 as sysbench connects,
# once for each J of --jobs: `cores` is as many workers as the machine has
# cores, as pgbench's -j is usually set, and `clients` one worker per
# client, as sysbench has a thread per client; a number is that many,
# never more than C), each after a CHECKPOINT, and prints the transactions
# per second of each; then the medians and the ratios to sysbench's.  sysbench's defaults (rand-type
# special, prepared statements) are the built-in workloads' defaults, and
# both count a transaction once it commits, restarting it after an error
# sysbench ignores.  Run it on an otherwise idle machine; the ratios are
# what to compare.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

TABLES=4 TABLE_SIZE=100000 CLIENT_LIST=4,8 WORKLOADS=oltp_read_only,oltp_point_select,oltp_read_write
JOBS_LIST=cores,clients ROUNDS=3 DURATION=10 PORT=5531 KEEP=0
while (($#)); do
	case $1 in
	--tables) TABLES=$2; shift 2 ;;
	--table-size) TABLE_SIZE=$2; shift 2 ;;
	--clients) CLIENT_LIST=$2; shift 2 ;;
	--workloads) WORKLOADS=$2; shift 2 ;;
	--jobs) JOBS_LIST=$2; shift 2 ;;
	--rounds) ROUNDS=$2; shift 2 ;;
	--duration) DURATION=$2; shift 2 ;;
	--port) PORT=$2; shift 2 ;;
	--keep) KEEP=1; shift ;;
	*) echo "usage: $0 [--tables N] [--table-size N] [--clients N,N] [--workloads W,W] [--jobs cores,clients,N] [--rounds N] [--duration SECONDS] [--port N] [--keep]" >&2; exit 2 ;;
	esac
done
for v in "$TABLES" "$TABLE_SIZE" "$ROUNDS" "$DURATION" "$PORT"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || die "expected a whole number above 0, not '$v'"
done
IFS=, read -r -a CLIENTS <<<"$CLIENT_LIST"
for c in "${CLIENTS[@]}"; do [[ $c =~ ^[1-9][0-9]*$ ]] || die "--clients takes counts like 4,8, not '$CLIENT_LIST'"; done
IFS=, read -r -a JLIST <<<"$JOBS_LIST"
for j in "${JLIST[@]}"; do [[ $j =~ ^(cores|clients|[1-9][0-9]*)$ ]] || die "--jobs takes cores, clients or counts, not '$JOBS_LIST'"; done
IFS=, read -r -a WLIST <<<"$WORKLOADS"
for w in "${WLIST[@]}"; do [[ $w =~ ^oltp_[a-z_]+$ ]] || die "--workloads takes sysbench workloads like oltp_read_only, not '$w'"; done
BIN=${PG_BIN:-$(pg_bindir 15)}
[[ -x $BIN/initdb ]] || die "no initdb in $BIN (set PG_BIN)"
command -v sysbench >/dev/null || apt_ensure sysbench

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }

# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() { bench_cluster_cleanup $? "$KEEP"; }
trap cleanup EXIT

bench_cluster_create sysbench_vs_kit "$PORT" <<EOF
listen_addresses = '127.0.0.1'
max_worker_processes = 64
shared_buffers = '256MB'
EOF
PSQL=("$BIN/psql" -X -q -v ON_ERROR_STOP=1)
"${PSQL[@]}" -d postgres -c "CREATE DATABASE bench"
"${PSQL[@]}" -c "SET client_min_messages = warning" -c "CREATE EXTENSION pgbenchkit CASCADE"
"${PSQL[@]}" -At -c "SELECT rows_loaded FROM bench.init('sysbench', tables => $TABLES, table_size => $TABLE_SIZE, jobs => 2)" >/dev/null
"${PSQL[@]}" -At -c "SELECT sum(pg_prewarm(c.oid)) FROM pg_class c
	WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'i') AND (c.relname LIKE 'sbtest%' OR c.relname LIKE 'k\\_%')" >/dev/null
# the libpq driver's target: this cluster, over TCP as sysbench reaches it
"${PSQL[@]}" -At -c "SELECT name FROM bench.add_target('self', 'host=127.0.0.1 port=$PORT dbname=bench')" >/dev/null
echo "$TABLES tables of $TABLE_SIZE rows, clients $CLIENT_LIST, $DURATION s per measurement, $ROUNDS rounds, $(nproc) cores," \
	"server $("${PSQL[@]}" -Atc 'show server_version'), $(sysbench --version), load average $(cut -d' ' -f1-3 /proc/loadavg)"

declare -A vals
DBUSER=$("${PSQL[@]}" -Atc 'SELECT current_user')

measure_sysbench() {
	local w=$1 c=$2 r=$3 tps
	"${PSQL[@]}" -c CHECKPOINT
	sysbench "$w" --db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-port="$PORT" --pgsql-user="$DBUSER" \
		--pgsql-db=bench --tables="$TABLES" --table-size="$TABLE_SIZE" --threads="$c" --time="$DURATION" \
		run >"$WORK/sysbench.out" 2>&1 || { show_file "$WORK/sysbench.out"; die "sysbench failed"; }
	tps=$(awk '/transactions:/ { gsub(/\(/, "", $3); print $3 }' "$WORK/sysbench.out")
	vals["$w $c sysbench"]+="$tps "
	printf '%-18s %3d clients round %d  sysbench            %10.1f tps\n' "$w" "$c" "$r" "$tps"
}

measure_run() {
	local w=$1 c=$2 r=$3 status tps
	"${PSQL[@]}" -c CHECKPOINT
	read -r status tps < <("${PSQL[@]}" -At -F ' ' -c "SELECT status, tps FROM bench.run('$w',
		clients => $c, duration => '$DURATION s', progress => '0', prewarm => false)")
	[[ $status == "done" ]] || die "bench.run('$w') ended $status"
	vals["$w $c in-server"]+="$tps "
	printf '%-18s %3d clients round %d  bench.run %10.1f tps\n' "$w" "$c" "$r" "$tps"
}

# the workers of setting J (cores, clients or a count) for C clients
jobs_for() {
	local j=$1 c=$2 n
	case $j in
	cores) n=$(nproc) ;;
	clients) n=$c ;;
	*) n=$j ;;
	esac
	echo $((n < c ? n : c))
}

measure_libpq() {
	local w=$1 c=$2 r=$3 j=$4 n status tps
	n=$(jobs_for "$j" "$c")
	"${PSQL[@]}" -c CHECKPOINT
	read -r status tps < <("${PSQL[@]}" -At -F ' ' -c "SELECT status, tps FROM bench.run('$w',
		clients => $c, jobs => $n, target => 'self', duration => '$DURATION s', progress => '0', prewarm => false)")
	[[ $status == "done" ]] || die "bench.run('$w', target => 'self') ended $status"
	vals["$w $c libpq $j"]+="$tps "
	printf '%-18s %3d clients round %d  bench.run libpq, jobs %-7s (%d) %10.1f tps\n' "$w" "$c" "$r" "$j" "$n" "$tps"
}

measure_libpq_all() {
	local j
	for j in "${JLIST[@]}"; do measure_libpq "$@" "$j"; done
}

for w in "${WLIST[@]}"; do
	for c in "${CLIENTS[@]}"; do
		for ((r = 1; r <= ROUNDS; r++)); do
			if ((r % 2)); then
				measure_sysbench "$w" "$c" "$r"; measure_run "$w" "$c" "$r"; measure_libpq_all "$w" "$c" "$r"
			else
				measure_libpq_all "$w" "$c" "$r"; measure_run "$w" "$c" "$r"; measure_sysbench "$w" "$c" "$r"
			fi
		done
	done
done

echo
echo "medians (transactions per second) and the ratios to sysbench's:"
printf '%-18s %7s %11s %11s %7s' workload clients sysbench in-server ratio
for j in "${JLIST[@]}"; do printf ' %11s %7s' "libpq:$j" ratio; done
echo
for w in "${WLIST[@]}"; do
	for c in "${CLIENTS[@]}"; do
		st=$(tr ' ' '\n' <<<"${vals["$w $c sysbench"]}" | grep . | median)
		it=$(tr ' ' '\n' <<<"${vals["$w $c in-server"]}" | grep . | median)
		printf '%-18s %7d %11.1f %11.1f %7.3f' "$w" "$c" "$st" "$it" "$(calc "$it / $st")"
		for j in "${JLIST[@]}"; do
			lt=$(tr ' ' '\n' <<<"${vals["$w $c libpq $j"]}" | grep . | median)
			printf ' %11.1f %7.3f' "$lt" "$(calc "$lt / $st")"
		done
		echo
	done
done
