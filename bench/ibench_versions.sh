#!/usr/bin/env bash
# The Insert Benchmark as one call, on PostgreSQL 15 and 18, read against
# each other by relative throughput, as the regression studies report it.
#
#   bench/ibench_versions.sh [--rows 200000] [--clients 2] [--duration '30 s'] [--port 5534] [--out DIR]
#
# For each version (PG15_BIN, PG18_BIN: the directories of initdb, pg_ctl
# and psql; pgbenchkit installed into both), a throwaway cluster (initdb as
# the postgres OS user when run as root) in a temporary folder, unix socket
# only, max_worker_processes = 32, shared_buffers = 1GB, max_wal_size =
# 4GB, then
#   bench.init('ibench', tables => clients)
#   bench.ibench(rows => rows, insert_clients => clients, duration => d,
#                tag => 'pgNN')
# every step (l.i0, l.x, l.i1, l.i2, qr100, qp100, qr500, qp500, qr1000,
# qp1000), and prints each step as bench.ibench_steps shows it: throughput,
# the inserts' achieved rate against their target in the query steps,
# sizes, KB written and CPU per insert or query.  The suite of 15 is
# exported (bench.export) and imported into the cluster of 18, where
# bench.relative_table prints 18 against 15, a column per step.  The
# documents are kept in --out.  One run per version: noise is not
# averaged out; run it on an otherwise idle machine and read the relative
# throughput as one sample.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

ROWS=200000 CLIENTS=2 DURATION='30 s' PORT=5534 OUT=""
while (($#)); do
	case $1 in
	--rows) ROWS=$2; shift 2 ;;
	--clients) CLIENTS=$2; shift 2 ;;
	--duration) DURATION=$2; shift 2 ;;
	--port) PORT=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	*) echo "usage: $0 [--rows N] [--clients N] [--duration INTERVAL] [--port N] [--out DIR]" >&2; exit 2 ;;
	esac
done
for v in "$ROWS" "$CLIENTS" "$PORT"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || die "expected a whole number above 0, not '$v'"
done
PG15=${PG15_BIN:-$(pg_bindir 15)}
PG18=${PG18_BIN:-$(pg_bindir 18)}
for b in "$PG15" "$PG18"; do [[ -x $b/initdb ]] || die "no initdb in $b (set PG15_BIN and PG18_BIN)"; done
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/pgbk_ibench_versions_out.XXXXXX")}
mkdir -p "$OUT"
give_to_pg "$OUT"

# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() { bench_cluster_cleanup $? 0; }
trap cleanup EXIT

STEPS="SELECT step, status, round(throughput) AS per_s, round(inserts_per_s) AS inserts_per_s,
              target_inserts_per_s AS target, round(queries_per_s) AS queries_per_s,
              pg_size_pretty(total_bytes) AS size, round(kb_written_per_insert::numeric, 3) AS kb_w_per_insert,
              round(kb_read_per_query::numeric, 3) AS kb_r_per_query,
              round(cpu_us_per_insert::numeric) AS cpu_us_per_insert, round(cpu_us_per_query::numeric) AS cpu_us_per_query
         FROM bench.ibench_steps WHERE suite_id = (SELECT max(id) FROM bench.suites WHERE origin IS NULL)
        ORDER BY step_no"

one_version() {
	local ver=$1
	BIN=$2
	# (not in a pipe: the cluster's settings must reach this shell)
	bench_cluster_create "ibench_pg$ver" "$PORT" <<<"max_worker_processes = 32
shared_buffers = '1GB'
max_wal_size = '4GB'"
	PSQL=("$BIN/psql" -X -q -v ON_ERROR_STOP=1)
	"${PSQL[@]}" -d postgres -c "CREATE DATABASE bench"
	"${PSQL[@]}" -c "SET client_min_messages = warning" -c "CREATE EXTENSION pgbenchkit CASCADE"
	echo "PostgreSQL $("${PSQL[@]}" -Atc 'show server_version'): $ROWS rows per table, $CLIENTS insert clients" \
		"(a table each, a query client each), $DURATION a step, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	"${PSQL[@]}" -At -c "SELECT rows_loaded FROM bench.init('ibench', tables => $CLIENTS)" >/dev/null
	"${PSQL[@]}" -c "SET client_min_messages = warning" \
		-c "SELECT count(*) FROM bench.ibench(rows => $ROWS, insert_clients => $CLIENTS, duration => '$DURATION', tag => 'pg$ver')" >/dev/null
	"${PSQL[@]}" -c "$STEPS"
}

one_version 15 "$PG15"
"${PSQL[@]}" -Atc "SELECT bench.export(max(id)) FROM bench.suites" >"$OUT/pg15.json"
bench_cluster_cleanup 0 0
WORK=""

one_version 18 "$PG18"
"${PSQL[@]}" -Atc "SELECT bench.export(max(id)) FROM bench.suites" >"$OUT/pg18.json"
BASE=$("${PSQL[@]}" -Atc "SELECT bench.import(pg_read_file('$OUT/pg15.json')::jsonb)")
OTHER=$("${PSQL[@]}" -Atc "SELECT max(id) FROM bench.suites WHERE origin IS NULL")
echo "relative throughput, 18 against 15 (bench.relative_table):"
"${PSQL[@]}" -Atc "SELECT bench.relative_table($BASE, ARRAY[$OTHER])"
echo "the documents: $OUT/pg15.json, $OUT/pg18.json"
