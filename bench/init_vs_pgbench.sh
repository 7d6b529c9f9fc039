#!/usr/bin/env bash
# Load speed of bench.init against pgbench -i, on one cluster.
#
#   bench/init_vs_pgbench.sh [--scale 50] [--rounds 3] [--jobs 1,2]
#
# Connects with the usual libpq variables (PGHOST, PGPORT, PGUSER); PG_BIN
# names the directory of pgbench and psql (default: from PATH). Creates two
# databases, bk_init_pgbench and bk_init_bench (dropped at the end), then for
# each round loads the dataset with pgbench -i and with bench.init for each
# jobs value, alternating, timing each load's wall time on this side. Prints
# every time, the medians and the median ratios bench.init / pgbench -i.
# Run it on an otherwise idle cluster; the ratios are what to compare.
set -euo pipefail

SCALE=50 ROUNDS=3 JOBS=1,2
while (($#)); do
	case $1 in
	--scale) SCALE=$2; shift 2 ;;
	--rounds) ROUNDS=$2; shift 2 ;;
	--jobs) JOBS=$2; shift 2 ;;
	*) echo "usage: $0 [--scale N] [--rounds N] [--jobs 1,2]" >&2; exit 2 ;;
	esac
done
IFS=, read -r -a JOBS_LIST <<<"$JOBS"
BIN=${PG_BIN:+$PG_BIN/}
PSQL=("${BIN}psql" -X -q -v ON_ERROR_STOP=1)

now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

"${PSQL[@]}" -d postgres -c "DROP DATABASE IF EXISTS bk_init_pgbench" -c "DROP DATABASE IF EXISTS bk_init_bench" \
	-c "CREATE DATABASE bk_init_pgbench" -c "CREATE DATABASE bk_init_bench"
"${PSQL[@]}" -d bk_init_bench -c "CREATE EXTENSION pgbenchkit CASCADE"
trap '"${PSQL[@]}" -d postgres -c "DROP DATABASE IF EXISTS bk_init_pgbench" -c "DROP DATABASE IF EXISTS bk_init_bench"' EXIT

declare -A times
echo "scale $SCALE, $ROUNDS rounds, $(nproc) cores, server $("${PSQL[@]}" -d postgres -Atc 'show server_version')"
for ((r = 1; r <= ROUNDS; r++)); do
	"${PSQL[@]}" -d postgres -c "CHECKPOINT"
	t0=$(now)
	"${BIN}pgbench" -i -q -s "$SCALE" bk_init_pgbench >/dev/null 2>&1
	t=$(awk -v a="$(now)" -v b="$t0" 'BEGIN { print a - b }')
	times[pgbench]+="$t "
	printf 'round %d  pgbench -i            %7.2f s\n' "$r" "$t"
	for j in "${JOBS_LIST[@]}"; do
		"${PSQL[@]}" -d postgres -c "CHECKPOINT"
		t0=$(now)
		"${PSQL[@]}" -d bk_init_bench -c "SELECT * FROM bench.init('tpcb', scale => $SCALE, jobs => $j, force => true)" >/dev/null
		t=$(awk -v a="$(now)" -v b="$t0" 'BEGIN { print a - b }')
		times[jobs$j]+="$t "
		printf 'round %d  bench.init jobs => %d  %7.2f s\n' "$r" "$j" "$t"
	done
done

base=$(tr ' ' '\n' <<<"${times[pgbench]}" | grep . | median)
printf 'median pgbench -i            %7.2f s\n' "$base"
for j in "${JOBS_LIST[@]}"; do
	m=$(tr ' ' '\n' <<<"${times[jobs$j]}" | grep . | median)
	printf 'median bench.init jobs => %d  %7.2f s   ratio bench.init / pgbench -i = %.2f\n' "$j" "$m" "$(awk -v a="$m" -v b="$base" 'BEGIN { print a / b }')"
done
