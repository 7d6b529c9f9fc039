#!/usr/bin/env bash
# Load speed of bench.init against pgbench -i, on one cluster.
#
#   bench/init_vs_pgbench.sh [--scale 50] [--rounds 3] [--jobs 1,2] [--settle 5]
#
# Connects with the usual libpq variables (PGHOST, PGPORT, PGUSER); PG_BIN
# names the directory of pgbench and psql (default: from PATH). Creates two
# databases, bk_init_pgbench and bk_init_bench (dropped at the end), then for
# each round loads the dataset with pgbench -i and with bench.init for each
# jobs value, alternating, timing each load's wall time on this side. Prints
# every time, the medians and the median ratios bench.init / pgbench -i, then
# the size of every relation in both databases.  Each load starts after a
# CHECKPOINT and a pause of --settle seconds, so that no load pays for the
# writes of the one before it.
# Run it on an otherwise idle cluster; the ratios are what to compare.
set -euo pipefail

SCALE=50 ROUNDS=3 JOBS=1,2 SETTLE=5
while (($#)); do
	case $1 in
	--scale) SCALE=$2; shift 2 ;;
	--rounds) ROUNDS=$2; shift 2 ;;
	--jobs) JOBS=$2; shift 2 ;;
	--settle) SETTLE=$2; shift 2 ;;
	*) echo "usage: $0 [--scale N] [--rounds N] [--jobs 1,2] [--settle SECONDS]" >&2; exit 2 ;;
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

settle() { "${PSQL[@]}" -d postgres -c "CHECKPOINT"; sleep "$SETTLE"; }

declare -A times
echo "scale $SCALE, $ROUNDS rounds, $(nproc) cores, server $("${PSQL[@]}" -d postgres -Atc 'show server_version')"
for ((r = 1; r <= ROUNDS; r++)); do
	settle
	t0=$(now)
	"${BIN}pgbench" -i -q -s "$SCALE" bk_init_pgbench >/dev/null 2>&1
	t=$(awk -v a="$(now)" -v b="$t0" 'BEGIN { print a - b }')
	times[pgbench]+="$t "
	printf 'round %d  pgbench -i            %7.2f s\n' "$r" "$t"
	for j in "${JOBS_LIST[@]}"; do
		settle
		t0=$(now)
		read -r -a phases < <("${PSQL[@]}" -d bk_init_bench -At -F ' ' -c "SELECT create_s, load_s, vacuum_s, primary_keys_s
			FROM bench.init('tpcb', scale => $SCALE, jobs => $j, force => true)")
		t=$(awk -v a="$(now)" -v b="$t0" 'BEGIN { print a - b }')
		times[jobs$j]+="$t "
		printf 'round %d  bench.init jobs => %d  %7.2f s   (create %s, load %s, vacuum %s, primary keys %s)\n' \
			"$r" "$j" "$t" "${phases[@]}"
	done
done

base=$(tr ' ' '\n' <<<"${times[pgbench]}" | grep . | median)
printf 'median pgbench -i            %7.2f s\n' "$base"
for j in "${JOBS_LIST[@]}"; do
	m=$(tr ' ' '\n' <<<"${times[jobs$j]}" | grep . | median)
	printf 'median bench.init jobs => %d  %7.2f s   ratio bench.init / pgbench -i = %.2f\n' "$j" "$m" "$(awk -v a="$m" -v b="$base" 'BEGIN { print a / b }')"
done

# Both databases now hold the dataset at this scale: compare what each
# relation takes on disk, main fork and in total.
sizes() {
	"${PSQL[@]}" -d "$1" -Atc "SELECT c.relname, pg_relation_size(c.oid), pg_total_relation_size(c.oid)
		FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relname LIKE 'pgbench\_%'
		  AND c.relkind IN ('r', 'i', 'p') ORDER BY 1"
}
echo "sizes at scale $SCALE (bytes): relation, pgbench -i, bench.init, main fork and total"
join -t '|' <(sizes bk_init_pgbench) <(sizes bk_init_bench) |
	awk -F'|' '{ d = ($2 == $4 && $3 == $5) ? "same" : "DIFFERENT"
		printf "  %-24s main %12s %12s   total %12s %12s   %s\n", $1, $2, $4, $3, $5, d }'
