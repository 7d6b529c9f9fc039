#!/usr/bin/env bash
# TPC-C: go-tpc, the tool managed services are compared with, on one
# cluster, and the cross-checks of consistency between it and pgbenchkit.
#
#   bench/tpcc_vs_gotpc.sh [--warehouses 10] [--clients 4,16] [--rounds 3]
#                          [--duration 60] [--jobs 2] [--port 5535] [--keep]
#
# Builds go-tpc v1.0.12 (github.com/pingcap/go-tpc; its PostgreSQL driver
# needs tags from v1.0.9 on, and those from v1.0.10 on Go 1.21 or later, not
# Debian's golang-go) with `go install` into the work folder, nothing
# system-wide (GOTPC names a go-tpc binary to use instead).  Creates a throwaway
# cluster (initdb as the postgres OS user when run as root) in a temporary
# folder, port --port, listening on 127.0.0.1, shared_buffers = 256MB;
# PG_BIN names the directory of initdb, pg_ctl and psql (default:
# PostgreSQL 15's).  go-tpc connects over TCP as the role tpcc, which
# authenticates with a SCRAM password (pg_hba: scram-sha-256 for it), to
# database gotpc, which tpcc owns.  pgbenchkit is in database bench (and in
# gotpc, to check there in the server), with the target `gotpc` (that
# database, as tpcc, with its password).
#
#   1. go-tpc tpcc --warehouses W prepare -d postgres -H 127.0.0.1 -P PORT
#      -U tpcc -p PASSWORD -D gotpc --conn-params sslmode=disable -T JOBS
#      --no-check, timed (its defaults are MySQL's; without --no-check its
#      prepare runs its check too);
#   2. the consistency of go-tpc's dataset: `go-tpc tpcc check` (which exits
#      0 whatever it finds: its output says) and bench.tpcc_check, in the
#      server (database gotpc) and on the target `gotpc` (over libpq): all
#      must pass;
#   3. for each client count C of --clients and each round, after a
#      CHECKPOINT: go-tpc tpcc run -T C --time D, its tpmC and tpmTotal
#      (new orders, and transactions of all five types, completed per
#      minute) and its client CPU (user + system, GNU time) per 1000
#      transactions; alternating with bench.run's rounds (kit_run, a hook
#      until the TPC-C workloads are in the library);
#   4. go-tpc's check and bench.tpcc_check again, after the runs
#      (condition 11 then applies only to districts without deliveries);
#   5. bench.init('tpcc', warehouses => W, jobs => JOBS), timed, and
#      go-tpc's check on its dataset (kit_init, a hook until the kind is in
#      the library);
#   6. the medians, and the ratios once bench.run has numbers.
#
# The exit status is non-zero if a check failed.  Run it on an otherwise
# idle machine; the ratios are what to compare.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

GOTPC_VERSION=v1.0.12
WAREHOUSES=10 CLIENT_LIST=4,16 ROUNDS=3 DURATION=60 JOBS=2 PORT=5535 KEEP=0
while (($#)); do
	case $1 in
	--warehouses) WAREHOUSES=$2; shift 2 ;;
	--clients) CLIENT_LIST=$2; shift 2 ;;
	--rounds) ROUNDS=$2; shift 2 ;;
	--duration) DURATION=$2; shift 2 ;;
	--jobs) JOBS=$2; shift 2 ;;
	--port) PORT=$2; shift 2 ;;
	--keep) KEEP=1; shift ;;
	*) echo "usage: $0 [--warehouses N] [--clients N,N] [--rounds N] [--duration SECONDS] [--jobs N] [--port N] [--keep]" >&2; exit 2 ;;
	esac
done
for v in "$WAREHOUSES" "$ROUNDS" "$DURATION" "$JOBS" "$PORT"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || die "expected a whole number above 0, not '$v'"
done
IFS=, read -r -a CLIENTS <<<"$CLIENT_LIST"
for c in "${CLIENTS[@]}"; do [[ $c =~ ^[1-9][0-9]*$ ]] || die "--clients takes counts like 4,16, not '$CLIENT_LIST'"; done
BIN=${PG_BIN:-$(pg_bindir 15)}
[[ -x $BIN/initdb ]] || die "no initdb in $BIN (set PG_BIN)"
[[ -x /usr/bin/time ]] || apt_ensure time
if [[ -z ${GOTPC:-} ]]; then
	command -v go >/dev/null || die "go-tpc is built with Go 1.21 or later: no go in PATH (or set GOTPC to a go-tpc binary)"
	[[ $(go env GOVERSION) =~ ^go1\.(2[1-9]|[3-9][0-9])([.].*)?$ ]] ||
		die "go-tpc $GOTPC_VERSION needs Go 1.21 or later, not $(go env GOVERSION) (or set GOTPC to a go-tpc binary)"
fi

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }
now() { date +%s.%N; }

# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() { bench_cluster_cleanup $? "$KEEP"; }
trap cleanup EXIT

bench_cluster_create tpcc_vs_gotpc "$PORT" <<EOF
listen_addresses = '127.0.0.1'
max_worker_processes = 64
shared_buffers = '256MB'
EOF

# go-tpc, built into the work folder
if [[ -z ${GOTPC:-} ]]; then
	log "building go-tpc $GOTPC_VERSION with $(go env GOVERSION)"
	GOBIN=$WORK/gobin go install "github.com/pingcap/go-tpc/cmd/go-tpc@$GOTPC_VERSION" >"$WORK/go-install.log" 2>&1 ||
		{ show_file "$WORK/go-install.log"; die "go install of go-tpc failed"; }
	GOTPC=$WORK/gobin/go-tpc
fi

# the role go-tpc connects as, with a SCRAM password, over TCP only
PASSWORD="tpcc-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')"
PSQL=("$BIN/psql" -X -q -v ON_ERROR_STOP=1)
"${PSQL[@]}" -d postgres -c "SET password_encryption = 'scram-sha-256'" \
	-c "CREATE ROLE tpcc LOGIN PASSWORD '$PASSWORD'" >/dev/null
{ echo "host all tpcc 127.0.0.1/32 scram-sha-256"; cat "$DATA/pg_hba.conf"; } >"$WORK/pg_hba.conf"
as_pg cp "$WORK/pg_hba.conf" "$DATA/pg_hba.conf"
"${PSQL[@]}" -d postgres -c "SELECT pg_reload_conf()" >/dev/null
"${PSQL[@]}" -d postgres -c "CREATE DATABASE bench" -c "CREATE DATABASE gotpc OWNER tpcc"
for db in bench gotpc; do
	"${PSQL[@]}" -d "$db" -c "SET client_min_messages = warning" -c "CREATE EXTENSION pgbenchkit CASCADE"
done
"${PSQL[@]}" -At -c "SET log_statement = 'none'" -c "SELECT name FROM bench.add_target('gotpc',
	'host=127.0.0.1 port=$PORT dbname=gotpc', \"user\" => 'tpcc', password => '$PASSWORD')" >/dev/null
# go-tpc's connection options, to database gotpc unless another is named
gotpc_args() { echo -d postgres -H 127.0.0.1 -P "$PORT" -U tpcc -p "$PASSWORD" -D "${1:-gotpc}" --conn-params sslmode=disable; }
echo "$WAREHOUSES warehouses, clients $CLIENT_LIST, $DURATION s per measurement, $ROUNDS rounds, load jobs $JOBS," \
	"$(nproc) cores, server $("${PSQL[@]}" -Atc 'show server_version'), go-tpc $GOTPC_VERSION," \
	"load average $(cut -d' ' -f1-3 /proc/loadavg)"

FAILED=0
declare -A vals

# go-tpc's check on database DB (as tpcc): prints its verdict, counts a failure
gotpc_check() {
	local db=$1 what=$2 t0 t1
	t0=$(now)
	# shellcheck disable=SC2046  # words without spaces
	"$GOTPC" tpcc --warehouses "$WAREHOUSES" check $(gotpc_args "$db") -T "$JOBS" >"$WORK/check.out" 2>&1 ||
		{ show_file "$WORK/check.out"; die "go-tpc check could not run"; }
	t1=$(now)
	# it exits 0 whatever it finds; a failed condition says "failed"
	if grep -q -i 'failed' "$WORK/check.out"; then
		FAILED=$((FAILED + 1))
		printf '%-44s FAILED (%.1f s)\n' "go-tpc check, $what" "$(calc "$t1 - $t0")"
		grep -i 'failed' "$WORK/check.out" | head -3
	else
		printf '%-44s passed (%.1f s)\n' "go-tpc check, $what" "$(calc "$t1 - $t0")"
	fi
}

# bench.tpcc_check in database DB (ARGS: its arguments): all twelve must
# pass, but 11 may not apply after deliveries
kit_check() {
	local db=$1 check_args=$2 what=$3 t0 t1 verdict npass nna nfail which
	t0=$(now)
	verdict=$("${PSQL[@]}" -d "$db" -At -F ' ' -c "SELECT count(*) FILTER (WHERE passed),
		count(*) FILTER (WHERE passed IS NULL), count(*) FILTER (WHERE NOT passed),
		coalesce(string_agg(condition || ':' || violations, ',') FILTER (WHERE NOT passed), '-')
		FROM bench.tpcc_check($check_args)")
	t1=$(now)
	read -r npass nna nfail which <<<"$verdict"
	if ((nfail > 0 || npass + nna != 12 || npass < 11)); then
		FAILED=$((FAILED + 1))
		printf '%-44s FAILED: %s passed, %s not applicable, failed (condition:violations) %s (%.1f s)\n' \
			"bench.tpcc_check, $what" "$npass" "$nna" "$which" "$(calc "$t1 - $t0")"
	else
		printf '%-44s passed: %s passed, %s not applicable (%.1f s)\n' "bench.tpcc_check, $what" \
			"$npass" "$nna" "$(calc "$t1 - $t0")"
	fi
}

checks_of_gotpc_dataset() {
	local when=$1
	gotpc_check gotpc "$when"
	kit_check gotpc "" "$when, in the server"
	kit_check bench "target => 'gotpc'" "$when, on a target"
}

# ---------------------------------------------------------------- go-tpc's prepare
t0=$(now)
# shellcheck disable=SC2046  # words without spaces
"$GOTPC" tpcc --warehouses "$WAREHOUSES" prepare $(gotpc_args) -T "$JOBS" --no-check >"$WORK/prepare.out" 2>&1 ||
	{ show_file "$WORK/prepare.out"; die "go-tpc prepare failed"; }
t1=$(now)
PREPARE_S=$(calc "$t1 - $t0")
printf '%-44s %.1f s\n' "go-tpc prepare (-T $JOBS, --no-check)" "$PREPARE_S"
"${PSQL[@]}" -d gotpc -c "VACUUM ANALYZE" -c CHECKPOINT
checks_of_gotpc_dataset "go-tpc's dataset after prepare"

# ---------------------------------------------------------------- rounds
# shellcheck disable=SC2046  # gotpc_args: words without spaces
measure_gotpc() {
	local c=$1 r=$2 tpmc tpmt u s tx cpu
	"${PSQL[@]}" -d gotpc -c CHECKPOINT
	/usr/bin/time -f '%U %S' -o "$WORK/gotpc.time" \
		"$GOTPC" tpcc --warehouses "$WAREHOUSES" run $(gotpc_args) -T "$c" --time "${DURATION}s" \
		>"$WORK/run.out" 2>&1 || { show_file "$WORK/run.out"; die "go-tpc run failed"; }
	read -r tpmc tpmt < <(sed -n 's/^tpmC: \([0-9.]*\), tpmTotal: \([0-9.]*\),.*/\1 \2/p' "$WORK/run.out" | tail -1)
	[[ -n ${tpmt:-} ]] || { show_file "$WORK/run.out"; die "no tpmC in go-tpc's output"; }
	# the completed transactions of the five types (not the _ERR lines)
	tx=$(awk '/^\[Summary\] [A-Z_]+ - / && $2 !~ /_ERR$/ { for (i = 1; i <= NF; i++) if ($i == "Count:") { sub(/,/, "", $(i + 1)); n += $(i + 1) } }
		END { print n + 0 }' "$WORK/run.out")
	read -r u s <"$WORK/gotpc.time"
	cpu=$(calc "($u + $s) / ($tx > 0 ? $tx : 1) * 1000")
	vals["$c gotpc tpmc"]+="$tpmc "
	vals["$c gotpc tpmtotal"]+="$tpmt "
	vals["$c gotpc cpu"]+="$cpu "
	printf '%3d clients round %d  go-tpc          tpmC %10.1f  tpmTotal %10.1f  %8d tx  client CPU s/1000 tx %.4f\n' \
		"$c" "$r" "$tpmc" "$tpmt" "$tx" "$cpu"
}

# Hook: bench.run's rounds on the same warehouses, once the TPC-C workloads
# are in the library (in-server clients, and 'statements' over the libpq
# driver with jobs = cores, warehouse_choice => 'random' as go-tpc draws
# them); each adds its tpmC, tpmTotal and client CPU to vals["C kit... "].
kit_has_tpcc() {
	[[ $("${PSQL[@]}" -At -c "SELECT count(*) FROM bench.workloads WHERE name = 'tpcc'") == 1 ]]
}
kit_run() { :; }

for c in "${CLIENTS[@]}"; do
	for ((r = 1; r <= ROUNDS; r++)); do
		if ((r % 2)); then
			measure_gotpc "$c" "$r"; kit_run "$c" "$r"
		else
			kit_run "$c" "$r"; measure_gotpc "$c" "$r"
		fi
	done
done
checks_of_gotpc_dataset "go-tpc's dataset after its runs"

# ---------------------------------------------------------------- bench.init
# Hook: bench.init('tpcc') timed against go-tpc's prepare, and go-tpc's
# check on its dataset (go-tpc reads it as tpcc, which gets SELECT on it).
INIT_S=
kit_init() {
	local t0 t1
	kit_has_tpcc || { echo "bench.init('tpcc'): not in this build of pgbenchkit, skipped"; return 0; }
	t0=$(now)
	"${PSQL[@]}" -At -c "SET client_min_messages = warning" \
		-c "SELECT rows_loaded FROM bench.init('tpcc', warehouses => $WAREHOUSES, jobs => $JOBS)" >/dev/null
	t1=$(now)
	INIT_S=$(calc "$t1 - $t0")
	printf '%-44s %.1f s (%.3f of go-tpc prepare)\n' "bench.init('tpcc', jobs => $JOBS)" "$INIT_S" "$(calc "$INIT_S / $PREPARE_S")"
	"${PSQL[@]}" -c "GRANT SELECT ON warehouse, district, customer, history, new_order, orders, order_line, item, stock TO tpcc"
	gotpc_check bench "bench.init's dataset"
	kit_check bench "" "bench.init's dataset"
}
kit_init

# ---------------------------------------------------------------- medians
echo
echo "medians of $ROUNDS rounds of $DURATION s, $WAREHOUSES warehouses:"
printf '%7s %12s %12s %16s\n' clients 'go-tpc tpmC' tpmTotal 'CPU s/1000 tx'
for c in "${CLIENTS[@]}"; do
	printf '%7d %12.1f %12.1f %16.4f\n' "$c" \
		"$(tr ' ' '\n' <<<"${vals["$c gotpc tpmc"]}" | grep . | median)" \
		"$(tr ' ' '\n' <<<"${vals["$c gotpc tpmtotal"]}" | grep . | median)" \
		"$(tr ' ' '\n' <<<"${vals["$c gotpc cpu"]}" | grep . | median)"
done
printf 'go-tpc prepare: %.1f s%s\n' "$PREPARE_S" "${INIT_S:+; bench.init: $INIT_S s}"
((FAILED == 0)) || die "$FAILED consistency check(s) failed"
