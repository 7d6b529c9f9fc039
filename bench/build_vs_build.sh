#!/usr/bin/env bash
# Throughput of two builds of pgbenchkit, one against the other, on one
# cluster: did a change cost speed?
#
#   bench/build_vs_build.sh [--before REV] [--after REV] [--version 18]
#                           [--scale 10] [--rounds 5] [--clients 8]
#                           [--duration 10] [--port 5521] [--control] [--keep]
#
# Builds git revisions --before (default main) and --after (default HEAD)
# of this repository, each from `git archive` in a folder of its own, with
# warnings as errors, for PostgreSQL --version (15 or 18: the setup's
# pg_config of that version, never the one on PATH).  With --control, a
# third build, "control", is --before built again in a folder of its own:
# the same code measured as if it were another, whose ratio to --before
# shows the noise of the run.  Each build runs in a database of its own,
# bench_<build>, made with that build's SQL: a library refuses the
# arguments of a newer SQL of its own version, and checks the version of
# the SQL it is called from, so when --before is of another extension
# version it is built with --after's (EXTVERSION; what is compared is the
# library and the SQL it runs).  Creates a throwaway cluster
# of that version (initdb as the postgres OS user when run as root) in a
# temporary folder, port --port, unix socket only, max_worker_processes =
# 300 and shared_buffers = 256MB, everything else default, and loads
# bench.init('tpcb', scale => --scale) into each build's database.  Then, for
# each round, for each build (the first of the round rotating from round
# to round):
# copies its library over the installed one, restarts the cluster, reads
# the dataset into shared buffers (pg_prewarm) and runs, each after a
# CHECKPOINT,
#   SELECT ... FROM bench.run('select-only', clients => C, duration => 'D s', progress => '0')
#   SELECT ... FROM bench.run('tpcb', clients => C, duration => 'D s', progress => '0')
# and prints every measurement (tps, and the server's CPU time per
# transaction from bench.run_counters: on a machine not idle, the steadier
# figure); then the medians of each build per workload and the ratios
# after / before of the medians (and control / before).  The library and
# the extension's SQL files that were installed before are put back at the
# end (none: the ones installed here are removed).  The cluster is stopped and
# removed at the end; --keep leaves it running.  Run it on an otherwise idle
# machine; the ratios are what to compare.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

BEFORE=main AFTER=HEAD VERSION=18 SCALE=10 ROUNDS=5 CLIENTS=8 DURATION=10 PORT=5521 KEEP=0 CONTROL=0
while (($#)); do
	case $1 in
	--before) BEFORE=$2; shift 2 ;;
	--after) AFTER=$2; shift 2 ;;
	--version) VERSION=$2; shift 2 ;;
	--scale) SCALE=$2; shift 2 ;;
	--rounds) ROUNDS=$2; shift 2 ;;
	--clients) CLIENTS=$2; shift 2 ;;
	--duration) DURATION=$2; shift 2 ;;
	--port) PORT=$2; shift 2 ;;
	--keep) KEEP=1; shift ;;
	--control) CONTROL=1; shift ;;
	*) echo "usage: $0 [--before REV] [--after REV] [--version 15|18] [--scale N] [--rounds N] [--clients N] [--duration SECONDS] [--port N] [--control] [--keep]" >&2; exit 2 ;;
	esac
done
for v in "$SCALE" "$ROUNDS" "$CLIENTS" "$DURATION" "$PORT"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || die "options take positive whole numbers, not '$v'"
done
check_version "$VERSION"
PGC=$(pg_config_path "$VERSION")
[[ -x $PGC ]] || die "no pg_config for PostgreSQL $VERSION at $PGC (scripts/test.sh installs it)"
BIN=$("$PGC" --bindir)
PKGLIB=$("$PGC" --pkglibdir)
CC_ARG=()
[[ -n $(pg_cc "$VERSION") ]] && CC_ARG=(CC="$(pg_cc "$VERSION")")
declare -A REV=([before]=$(git -C "$PGBK_REPO" rev-parse --short "$BEFORE^{commit}")
	[after]=$(git -C "$PGBK_REPO" rev-parse --short "$AFTER^{commit}"))
REV[control]=${REV[before]}
BUILDS=(before after)
((CONTROL)) && BUILDS+=(control)
WORKLOADS=(select-only tpcb)

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }

# ---------------------------------------------------------------- builds
BUILD_DIR=$(mktemp -d "${TMPDIR:-/tmp}/pgbk_builds.XXXXXX")
SAVED_LIB=
SAVED_SQL=$BUILD_DIR/installed-sql
EXTDIR=$("$PGC" --sharedir)/extension
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
	local rc=$?
	if [[ -n $SAVED_LIB ]]; then
		install -m 755 "$SAVED_LIB" "$PKGLIB/pgbenchkit.so" || warn "could not put back $PKGLIB/pgbenchkit.so"
	else
		rm -f "$PKGLIB/pgbenchkit.so"
	fi
	if [[ -d $SAVED_SQL ]]; then
		rm -f "$EXTDIR"/pgbenchkit.control "$EXTDIR"/pgbenchkit--*.sql
		cp -p "$SAVED_SQL"/* "$EXTDIR"/ 2>/dev/null || true
	fi
	bench_cluster_cleanup "$rc" "$KEEP"
	rm -rf "$BUILD_DIR"
}
trap cleanup EXIT

for b in "${BUILDS[@]}"; do
	mkdir -p "$BUILD_DIR/$b"
	git -C "$PGBK_REPO" archive "${REV[$b]}" | tar -C "$BUILD_DIR/$b" -xf -
done
EXTVERSION=$(makefile_version "$BUILD_DIR/after/Makefile")
for b in "${BUILDS[@]}"; do
	make -C "$BUILD_DIR/$b" -s PG_CONFIG="$PGC" "${CC_ARG[@]}" WERROR=1 EXTVERSION="$EXTVERSION" -j"$(nproc)" >"$BUILD_DIR/$b.log" 2>&1 ||
		{ show_file "$BUILD_DIR/$b.log"; die "the build of $b (${REV[$b]}) failed"; }
done
if [[ -f $PKGLIB/pgbenchkit.so ]]; then
	SAVED_LIB=$BUILD_DIR/installed.so
	cp "$PKGLIB/pgbenchkit.so" "$SAVED_LIB"
fi
mkdir -p "$SAVED_SQL"
cp -p "$EXTDIR"/pgbenchkit.control "$EXTDIR"/pgbenchkit--*.sql "$SAVED_SQL"/ 2>/dev/null || true
# a library in place for the cluster's start (its shared_preload_libraries)
make -C "$BUILD_DIR/after" -s PG_CONFIG="$PGC" "${CC_ARG[@]}" install >"$BUILD_DIR/install.log" 2>&1 ||
	{ show_file "$BUILD_DIR/install.log"; die "make install of ${REV[after]} failed"; }

# ---------------------------------------------------------------- cluster
bench_cluster_create build_vs_build "$PORT" <<EOF
# a background worker per client, one per run's coordinator
max_worker_processes = 300
shared_buffers = '256MB'
EOF
PSQL=("$BIN/psql" -X -q -v ON_ERROR_STOP=1)

# each build's database, made with its SQL while its library is loaded
for b in "${BUILDS[@]}"; do
	make -C "$BUILD_DIR/$b" -s PG_CONFIG="$PGC" "${CC_ARG[@]}" install >"$BUILD_DIR/install.log" 2>&1 ||
		{ show_file "$BUILD_DIR/install.log"; die "make install of $b (${REV[$b]}) failed"; }
	as_pg "$BIN/pg_ctl" -D "$DATA" -l "$SERVER_LOG" -w restart >/dev/null || die "the cluster did not restart"
	"${PSQL[@]}" -d postgres -c "CREATE DATABASE bench_$b"
	"${PSQL[@]}" -d "bench_$b" -c "SET client_min_messages = warning" -c "CREATE EXTENSION pgbenchkit CASCADE"
	"${PSQL[@]}" -d "bench_$b" -At -c "SELECT rows_loaded FROM bench.init('tpcb', scale => $SCALE)" >/dev/null
done

SERVER_VERSION=$("${PSQL[@]}" -d postgres -Atc 'show server_version')
CPU_MODEL=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
echo "before ${REV[before]} ($BEFORE), after ${REV[after]} ($AFTER)$( ((CONTROL)) && echo ", control ${REV[control]} (a second build of before)"); scale $SCALE, $CLIENTS clients," \
	"$DURATION s per measurement, $ROUNDS rounds, $(nproc) cores ($CPU_MODEL), server $SERVER_VERSION, load average $LOAD_START"

# use BUILD: its library in place, the cluster restarted, the dataset in
# shared buffers
use() {
	install -m 755 "$BUILD_DIR/$1/pgbenchkit.so" "$PKGLIB/pgbenchkit.so"
	as_pg "$BIN/pg_ctl" -D "$DATA" -l "$SERVER_LOG" -w restart >/dev/null || die "the cluster did not restart"
	export PGDATABASE=bench_$1
	"${PSQL[@]}" -At -c "SELECT sum(pg_prewarm(c)) FROM unnest(ARRAY['pgbench_accounts', 'pgbench_accounts_pkey',
		'pgbench_branches', 'pgbench_branches_pkey', 'pgbench_tellers', 'pgbench_tellers_pkey', 'pgbench_history']::regclass[]) c" >/dev/null
}

# ---------------------------------------------------------------- measurements
declare -A vals # "<workload> <build>[ cpu]" -> tps (CPU ms/tx) of the rounds, space separated

measure() {
	local w=$1 b=$2 r=$3 id status tx tps lat cpu
	"${PSQL[@]}" -c "CHECKPOINT"
	read -r id status tx tps lat < <("${PSQL[@]}" -At -F ' ' -c "SELECT id, status, transactions, tps, latency_avg_ms
		FROM bench.run('$w', clients => $CLIENTS, duration => '$DURATION s', progress => '0')")
	[[ $status == "done" ]] || die "run $id of $b (${REV[$b]}) ended '$status'"
	cpu=$("${PSQL[@]}" -Atc "SELECT server_cpu_ms_per_tx FROM bench.run_counters WHERE run_id = $id")
	vals["$w $b"]+="$tps "
	vals["$w $b cpu"]+="$cpu "
	printf '%-11s round %d  %-7s %s  %9.1f tps  lat %6.3f ms  %8d tx  server CPU %.4f ms/tx  (run %d)\n' \
		"$w" "$r" "$b" "${REV[$b]}" "$tps" "$lat" "$tx" "$cpu" "$id"
}

for ((r = 1; r <= ROUNDS; r++)); do
	# the builds in turn, the first of the round rotating
	order=()
	for ((i = 0; i < ${#BUILDS[@]}; i++)); do
		order+=("${BUILDS[(r - 1 + i) % ${#BUILDS[@]}]}")
	done
	for b in "${order[@]}"; do
		use "$b"
		for w in "${WORKLOADS[@]}"; do
			measure "$w" "$b" "$r"
		done
	done
done

med() { tr ' ' '\n' <<<"${vals[$1]}" | grep . | median; }

echo
echo "summary: PostgreSQL $SERVER_VERSION, $(nproc) cores, $CLIENTS clients, $DURATION s, $ROUNDS rounds, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
for w in "${WORKLOADS[@]}"; do
	printf '  %-11s median tps: before %s %.1f, after %s %.1f; after / before %.3f\n' \
		"$w" "${REV[before]}" "$(med "$w before")" "${REV[after]}" "$(med "$w after")" \
		"$(calc "$(med "$w after") / $(med "$w before")")"
	printf '  %-11s median server CPU ms/tx: before %.4f, after %.4f; before / after %.3f (above 1: after is cheaper)\n' \
		"" "$(med "$w before cpu")" "$(med "$w after cpu")" \
		"$(calc "$(med "$w before cpu") / $(med "$w after cpu")")"
	if ((CONTROL)); then
		printf '  %-11s the noise: control / before %.3f tps, before / control %.3f server CPU ms/tx (the same code)\n' \
			"" "$(calc "$(med "$w control") / $(med "$w before")")" \
			"$(calc "$(med "$w before cpu") / $(med "$w control cpu")")"
	fi
done
