#!/usr/bin/env bash
# TPC-C: go-tpc, the tool managed services are compared with, on one
# cluster, and the cross-checks of consistency between it and pgbenchkit.
#
#   bench/tpcc_vs_gotpc.sh [--warehouses 10] [--clients 4,16] [--rounds 3]
#                          [--duration 60] [--jobs 2] [--port 5535] [--keep]
#                          [--quick-checks] [--load-rounds 1]
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
#      0 whatever it finds: its output says; with an index on history's
#      customer columns while it runs, without which its condition
#      3.3.2.10 takes hours at 10 warehouses) and bench.tpcc_check, in the
#      server (database gotpc) and on the target `gotpc` (over libpq): all
#      must pass;
#   3. bench.init('tpcc', warehouses => W, jobs => JOBS) into database
#      bench, timed against go-tpc's prepare, then on its dataset (tpcc gets
#      the rights go-tpc's transactions need): go-tpc's check, which must
#      pass, bench.tpcc_check, and `go-tpc tpcc run` for 20 s, which must
#      end without an error, and both checks again;
#   4. for each client count C of --clients and each round, alternating,
#      each after a CHECKPOINT: go-tpc tpcc run -T C --time D on its
#      dataset, its tpmC and tpmTotal (new orders, and transactions of all
#      five types, completed per minute), its NOPM read as HammerDB reads it
#      (the districts' d_next_o_id after less before, per minute of D), its
#      client CPU (user + system, GNU time) and the server's CPU (its
#      processes' in /proc, as bench.run_counters reads it) per
#      transaction; and bench.run('tpcc', clients => C, duration => 'D s',
#      warehouse_choice => 'random', progress => '0', prewarm => false) on
#      bench.init's dataset (go-tpc draws a warehouse per transaction too,
#      and does not prewarm), its NOPM, tpmC and tpmTotal from
#      bench.tpcc_results and the server's CPU per transaction from
#      bench.run_counters (the clients are the server's processes); then
#      the hook of the 'statements' mode (kit_run_statements: over the libpq
#      driver with jobs = cores, on a dataset bench.init makes into a target
#      the first time; skipped while bench.run has no argument `mode`);
#   5. go-tpc's check and bench.tpcc_check again, after the runs
#      (condition 11 then applies only to districts without deliveries);
#   6. the medians, and the ratios of bench.run's to go-tpc's.
#
# --load-rounds N (above 1) first times N loads of each, alternating (go-tpc
# first in odd rounds), each into a new database dropped after it, each
# after a CHECKPOINT, and prints the medians and their ratio; then the
# steps above as ever.
#
# --quick-checks runs go-tpc's check (minutes at 10 warehouses) only once,
# on bench.init's new dataset; bench.tpcc_check still runs at every step.
# The exit status is non-zero if a check failed.  Run it on an otherwise
# idle machine; the ratios are what to compare.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

GOTPC_VERSION=v1.0.12
WAREHOUSES=10 CLIENT_LIST=4,16 ROUNDS=3 DURATION=60 JOBS=2 PORT=5535 KEEP=0 QUICK=0 LOAD_ROUNDS=1
while (($#)); do
	case $1 in
	--warehouses) WAREHOUSES=$2; shift 2 ;;
	--clients) CLIENT_LIST=$2; shift 2 ;;
	--rounds) ROUNDS=$2; shift 2 ;;
	--duration) DURATION=$2; shift 2 ;;
	--jobs) JOBS=$2; shift 2 ;;
	--port) PORT=$2; shift 2 ;;
	--keep) KEEP=1; shift ;;
	--quick-checks) QUICK=1; shift ;;
	--load-rounds) LOAD_ROUNDS=$2; shift 2 ;;
	*) echo "usage: $0 [--warehouses N] [--clients N,N] [--rounds N] [--duration SECONDS] [--jobs N] [--port N] [--keep] [--quick-checks] [--load-rounds N]" >&2; exit 2 ;;
	esac
done
for v in "$WAREHOUSES" "$ROUNDS" "$DURATION" "$JOBS" "$PORT" "$LOAD_ROUNDS"; do
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

# go-tpc's check on database DB (as tpcc): prints its verdict, counts a
# failure.  Its condition 3.3.2.10 sums each customer's history rows in a
# subquery, and history has no index (the specification gives it none, nor
# does go-tpc's DDL): every customer scans all of history, hours at 10
# warehouses.  An index on the customer's columns is made for the check and
# dropped after it: an access path, not a change of what is checked.
gotpc_check() {
	local db=$1 what=$2 always=${3:-} t0 t1
	if ((QUICK)) && [[ -z $always ]]; then
		printf '%-44s skipped (--quick-checks)\n' "go-tpc check, $what"
		return 0
	fi
	t0=$(now)
	"${PSQL[@]}" -d "$db" -c "CREATE INDEX gotpc_check_history ON history (h_c_w_id, h_c_d_id, h_c_id)" -c "ANALYZE history"
	# shellcheck disable=SC2046  # words without spaces
	"$GOTPC" tpcc --warehouses "$WAREHOUSES" check $(gotpc_args "$db") -T "$JOBS" >"$WORK/check.out" 2>&1 ||
		{ show_file "$WORK/check.out"; die "go-tpc check could not run"; }
	"${PSQL[@]}" -d "$db" -c "DROP INDEX gotpc_check_history"
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

# The CPU seconds of the whole server, as bench.run_counters reads them:
# the postmaster with the processes it has waited for, and every process
# still running under it.
server_cpu_s() {
	local pm hz ticks=0 t f
	pm=$(head -1 "$DATA/postmaster.pid")
	hz=$(getconf CLK_TCK)
	for f in /proc/[0-9]*/stat; do
		# the fields after the command's last ')': 4 ppid, 14-17 utime stime cutime cstime
		t=$(sed 's/.*) //' "$f" 2>/dev/null | awk -v pm="$pm" -v self="${f//[^0-9]/}" \
			'($2 == pm || self == pm) { print $12 + $13 + $14 + $15 }') || continue
		[[ -n $t ]] && ticks=$((ticks + t))
	done
	calc "$ticks / $hz"
}

# the transactions go-tpc counted in FILE: completed ones, or ERR: its errors
gotpc_count() {
	local file=$1 which=$2
	awk -v err="$which" '/^\[Summary\] [A-Z_]+ - / && (err == "ERR") == ($2 ~ /_ERR$/) {
		for (i = 1; i <= NF; i++) if ($i == "Count:") { sub(/,/, "", $(i + 1)); n += $(i + 1) } }
		END { print n + 0 }' "$file"
}

kit_has_tpcc() {
	[[ $("${PSQL[@]}" -At -c "SELECT count(*) FROM bench.workloads WHERE name = 'tpcc'") == 1 ]]
}

# ---------------------------------------------------------------- loads, alternating
# go-tpc's prepare and bench.init, each into a new database dropped after it
time_prepare() {
	local t0 t1
	"${PSQL[@]}" -d postgres -c "CREATE DATABASE gotpc_load OWNER tpcc" -c CHECKPOINT
	t0=$(now)
	# shellcheck disable=SC2046  # words without spaces
	"$GOTPC" tpcc --warehouses "$WAREHOUSES" prepare $(gotpc_args gotpc_load) -T "$JOBS" --no-check \
		>"$WORK/prepare.out" 2>&1 || { show_file "$WORK/prepare.out"; die "go-tpc prepare failed"; }
	t1=$(now)
	"${PSQL[@]}" -d postgres -c "DROP DATABASE gotpc_load"
	calc "$t1 - $t0"
}
time_init() {
	local t0 t1
	"${PSQL[@]}" -d postgres -c "CREATE DATABASE kit_load"
	"${PSQL[@]}" -d kit_load -c "SET client_min_messages = warning" -c "CREATE EXTENSION pgbenchkit CASCADE" -c CHECKPOINT
	t0=$(now)
	"${PSQL[@]}" -d kit_load -At -c "SET client_min_messages = warning" \
		-c "SELECT rows_loaded FROM bench.init('tpcc', warehouses => $WAREHOUSES, jobs => $JOBS)" >/dev/null
	t1=$(now)
	"${PSQL[@]}" -d postgres -c "DROP DATABASE kit_load"
	calc "$t1 - $t0"
}
if ((LOAD_ROUNDS > 1)) && kit_has_tpcc; then
	declare -a load_p=() load_i=()
	for ((r = 1; r <= LOAD_ROUNDS; r++)); do
		if ((r % 2)); then p=$(time_prepare); i=$(time_init); else i=$(time_init); p=$(time_prepare); fi
		load_p+=("$p") load_i+=("$i")
		printf 'load round %d                                go-tpc prepare %.1f s, bench.init %.1f s (%.3f)\n' \
			"$r" "$p" "$i" "$(calc "$i / $p")"
	done
	mp=$(printf '%s\n' "${load_p[@]}" | median) mi=$(printf '%s\n' "${load_i[@]}" | median)
	printf 'loads, medians of %d rounds                  go-tpc prepare %.1f s, bench.init %.1f s (%.3f)\n' \
		"$LOAD_ROUNDS" "$mp" "$mi" "$(calc "$mi / $mp")"
fi

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

# ---------------------------------------------------------------- bench.init
# bench.init('tpcc') timed against go-tpc's prepare (the same parallelism),
# then go-tpc's check and run on its dataset (go-tpc connects as tpcc, which
# gets the rights its transactions need), and bench.tpcc_check on it.
INIT_S=
kit_init() {
	local t0 t1 tx err
	kit_has_tpcc || { echo "bench.init('tpcc'): not in this build of pgbenchkit, skipped"; return 0; }
	"${PSQL[@]}" -c CHECKPOINT
	t0=$(now)
	"${PSQL[@]}" -At -c "SET client_min_messages = warning" \
		-c "SELECT rows_loaded FROM bench.init('tpcc', warehouses => $WAREHOUSES, jobs => $JOBS)" >/dev/null
	t1=$(now)
	INIT_S=$(calc "$t1 - $t0")
	printf '%-44s %.1f s (%.3f of go-tpc prepare)\n' "bench.init('tpcc', jobs => $JOBS)" "$INIT_S" "$(calc "$INIT_S / $PREPARE_S")"
	"${PSQL[@]}" -c "GRANT SELECT, INSERT, UPDATE, DELETE ON warehouse, district, customer, history, new_order,
		orders, order_line, item, stock TO tpcc" -c "VACUUM ANALYZE" -c CHECKPOINT
	gotpc_check bench "bench.init's dataset" always
	kit_check bench "" "bench.init's dataset"
	# go-tpc's run on it: it must end without an error
	# shellcheck disable=SC2046  # words without spaces
	"$GOTPC" tpcc --warehouses "$WAREHOUSES" run $(gotpc_args bench) -T "${CLIENTS[0]}" --time 20s \
		>"$WORK/run-kit.out" 2>&1 || { show_file "$WORK/run-kit.out"; die "go-tpc run on bench.init's dataset failed"; }
	tx=$(gotpc_count "$WORK/run-kit.out" OK) err=$(gotpc_count "$WORK/run-kit.out" ERR)
	if ((tx == 0 || err > 0)); then
		FAILED=$((FAILED + 1))
		printf '%-44s FAILED: %d transactions, %d errors\n' "go-tpc run (20 s), bench.init's dataset" "$tx" "$err"
		grep -i 'error\|_ERR' "$WORK/run-kit.out" | head -5
	else
		printf '%-44s passed: %d transactions, %d errors\n' "go-tpc run (20 s), bench.init's dataset" "$tx" "$err"
	fi
	gotpc_check bench "bench.init's dataset after go-tpc's run"
	kit_check bench "" "bench.init's dataset after go-tpc's run"
}
kit_init

# ---------------------------------------------------------------- rounds
# go-tpc's NOPM is read as HammerDB reads it: the districts' d_next_o_id
# after the run less before it, per minute of --time.
next_o_ids() { "${PSQL[@]}" -d "$1" -At -c "SELECT sum(d_next_o_id) FROM district"; }

# shellcheck disable=SC2046  # gotpc_args: words without spaces
measure_gotpc() {
	local c=$1 r=$2 tpmc tpmt u s tx err cpu o0 o1 nopm c0 c1 scpu
	"${PSQL[@]}" -d gotpc -c CHECKPOINT
	o0=$(next_o_ids gotpc) c0=$(server_cpu_s)
	/usr/bin/time -f '%U %S' -o "$WORK/gotpc.time" \
		"$GOTPC" tpcc --warehouses "$WAREHOUSES" run $(gotpc_args) -T "$c" --time "${DURATION}s" \
		>"$WORK/run.out" 2>&1 || { show_file "$WORK/run.out"; die "go-tpc run failed"; }
	c1=$(server_cpu_s) o1=$(next_o_ids gotpc)
	read -r tpmc tpmt < <(sed -n 's/^tpmC: \([0-9.]*\), tpmTotal: \([0-9.]*\),.*/\1 \2/p' "$WORK/run.out" | tail -1)
	[[ -n ${tpmt:-} ]] || { show_file "$WORK/run.out"; die "no tpmC in go-tpc's output"; }
	# the completed transactions of the five types (not the _ERR lines)
	tx=$(gotpc_count "$WORK/run.out" OK) err=$(gotpc_count "$WORK/run.out" ERR)
	read -r u s <"$WORK/gotpc.time"
	cpu=$(calc "($u + $s) / ($tx > 0 ? $tx : 1) * 1000")
	scpu=$(calc "($c1 - $c0) / ($tx > 0 ? $tx : 1) * 1000")
	nopm=$(calc "($o1 - $o0) / $DURATION * 60")
	vals["$c gotpc nopm"]+="$nopm "
	vals["$c gotpc tpmc"]+="$tpmc "
	vals["$c gotpc tpmtotal"]+="$tpmt "
	vals["$c gotpc cpu"]+="$cpu "
	vals["$c gotpc scpu"]+="$scpu "
	printf '%3d clients round %d  go-tpc     NOPM %10.1f  tpmC %10.1f  tpmTotal %10.1f  %8d tx %4d err  CPU ms/tx client %.4f server %.4f\n' \
		"$c" "$r" "$nopm" "$tpmc" "$tpmt" "$tx" "$err" "$cpu" "$scpu"
}

# bench.run's in-server clients on bench.init's dataset, warehouses drawn
# at random for each transaction as go-tpc draws them; its CPU is the
# server's (the clients are the server's processes) per transaction.
kit_run() {
	local c=$1 r=$2 id status nopm tpmc tpmt tx cpu
	kit_has_tpcc || return 0
	"${PSQL[@]}" -c CHECKPOINT
	read -r id status < <("${PSQL[@]}" -At -F ' ' -c "SELECT id, status FROM bench.run('tpcc', clients => $c,
		duration => '$DURATION s', warehouse_choice => 'random', progress => '0', prewarm => false)")
	[[ $status == "done" ]] || die "bench.run('tpcc') ended $status"
	read -r nopm tpmc tpmt tx cpu < <("${PSQL[@]}" -At -F ' ' -c "SELECT t.nopm, t.tpmc, t.tpm_total,
		c.transactions, c.server_cpu_ms_per_tx FROM bench.tpcc_results t
		LEFT JOIN bench.run_counters c USING (run_id) WHERE t.run_id = $id")
	vals["$c kit nopm"]+="$nopm "
	vals["$c kit tpmc"]+="$tpmc "
	vals["$c kit tpmtotal"]+="$tpmt "
	vals["$c kit scpu"]+="${cpu:-0} "
	printf '%3d clients round %d  bench.run  NOPM %10.1f  tpmC %10.1f  tpmTotal %10.1f  %8d tx %4s     CPU ms/tx server %.4f (run %s)\n' \
		"$c" "$r" "$nopm" "$tpmc" "$tpmt" "${tx:-0}" "" "${cpu:-0}" "$id"
	kit_run_statements "$c" "$r"
}

# TPC-C's 'statements' mode (go-tpc's statement shapes, one round trip per
# statement) over the libpq driver with jobs = min(clients, cores), on a
# dataset bench.init made into a target (database kit_target of this
# cluster, as tpcc over TCP with its SCRAM password, as go-tpc connects),
# against go-tpc's throughput and client CPU: the run's client workers
# (bench_client_cpu_ticks), per transaction (commits and rollbacks:
# go-tpc's count is its completed transactions of the five types).
STATEMENTS_READY=''
kit_run_statements() {
	local c=$1 r=$2 j id status nopm tpmc tpmt tx cpu job ticks
	j=$((c < $(nproc) ? c : $(nproc)))
	if [[ -z $STATEMENTS_READY ]]; then
		if [[ $("${PSQL[@]}" -At -c "SELECT count(*) FROM bench.run_arguments WHERE name = 'mode'") != 1 ]]; then
			STATEMENTS_READY=no
			echo "bench.run's mode 'statements': not in this build of pgbenchkit (no argument mode), skipped"
		else
			STATEMENTS_READY=yes
			"${PSQL[@]}" -d postgres -c "CREATE DATABASE kit_target OWNER tpcc"
			"${PSQL[@]}" -At -c "SET log_statement = 'none'" -c "SELECT name FROM bench.add_target('kit',
				'host=127.0.0.1 port=$PORT dbname=kit_target', \"user\" => 'tpcc', password => '$PASSWORD')" >/dev/null
			"${PSQL[@]}" -At -c "SET client_min_messages = warning" -c "SELECT rows_loaded FROM bench.init('tpcc',
				warehouses => $WAREHOUSES, target => 'kit')" >/dev/null
			"${PSQL[@]}" -d kit_target -c "VACUUM ANALYZE"
			kit_check bench "target => 'kit'" "bench.init's dataset on a target"
		fi
	fi
	[[ $STATEMENTS_READY == yes ]] || return 0
	"${PSQL[@]}" -d kit_target -c CHECKPOINT
	"${PSQL[@]}" -At -F ' ' -c "SELECT id, status FROM bench.run('tpcc', clients => $c,
		jobs => $j, target => 'kit', mode => 'statements', duration => '$DURATION s',
		warehouse_choice => 'random', progress => '0', prewarm => false)" >"$WORK/stmt.out" 2>"$WORK/stmt.err" &
	job=$!
	ticks=$(bench_client_cpu_ticks "$job" "$j" "${PSQL[@]}")
	wait "$job" || { show_file "$WORK/stmt.err"; die "bench.run('tpcc', mode => 'statements') failed"; }
	read -r id status <"$WORK/stmt.out"
	[[ $status == "done" ]] || { show_file "$WORK/stmt.err"; die "bench.run('tpcc', mode => 'statements') ended $status"; }
	read -r nopm tpmc tpmt tx < <("${PSQL[@]}" -At -F ' ' -c "SELECT t.nopm, t.tpmc, t.tpm_total,
		r.transactions + r.warmup_transactions FROM bench.tpcc_results t JOIN bench.runs r ON r.id = t.run_id
		WHERE t.run_id = $id")
	cpu=$(calc "$ticks / $(getconf CLK_TCK) / ($tx > 0 ? $tx : 1) * 1000")
	vals["$c statements nopm"]+="$nopm "
	vals["$c statements tpmc"]+="$tpmc "
	vals["$c statements tpmtotal"]+="$tpmt "
	vals["$c statements cpu"]+="$cpu "
	printf '%3d clients round %d  statements NOPM %10.1f  tpmC %10.1f  tpmTotal %10.1f  %8d tx %4s     CPU ms/tx client %.4f (run %s, libpq, jobs %d)\n' \
		"$c" "$r" "$nopm" "$tpmc" "$tpmt" "$tx" "" "$cpu" "$id" "$j"
}

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


# ---------------------------------------------------------------- medians
med() { tr ' ' '\n' <<<"${vals["$1"]:-}" | grep . | median; }
echo
echo "medians of $ROUNDS rounds of $DURATION s, $WAREHOUSES warehouses (CPU: ms per transaction):"
printf '%7s %-11s %10s %10s %10s %11s %11s %8s %8s\n' clients '' NOPM tpmC tpmTotal 'client CPU' 'server CPU' 'NOPM x' 'tpmC x'
for c in "${CLIENTS[@]}"; do
	gn=$(med "$c gotpc nopm") gc=$(med "$c gotpc tpmc")
	printf '%7d %-11s %10.1f %10.1f %10.1f %11.4f %11.4f\n' "$c" go-tpc "$gn" "$gc" \
		"$(med "$c gotpc tpmtotal")" "$(med "$c gotpc cpu")" "$(med "$c gotpc scpu")"
	for m in kit statements; do
		[[ -n ${vals["$c $m nopm"]:-} ]] || continue
		printf '%7d %-11s %10.1f %10.1f %10.1f %11s %11s %8.2f %8.2f\n' "$c" \
			"$([[ $m == kit ]] && echo bench.run || echo statements)" "$(med "$c $m nopm")" "$(med "$c $m tpmc")" \
			"$(med "$c $m tpmtotal")" "$( [[ $m == statements ]] && printf '%.4f' "$(med "$c statements cpu")" || echo -)" "$( [[ $m == kit ]] && printf '%.4f' "$(med "$c kit scpu")" || echo -)" \
			"$(calc "$(med "$c $m nopm") / $gn")" "$(calc "$(med "$c $m tpmc") / $gc")"
	done
done
printf 'go-tpc prepare: %.1f s%s\n' "$PREPARE_S" \
	"${INIT_S:+; bench.init: $INIT_S s, $(calc "$INIT_S / $PREPARE_S") of go-tpc prepare}"
((FAILED == 0)) || die "$FAILED consistency check(s) failed"
