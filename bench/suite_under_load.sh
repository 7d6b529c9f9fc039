#!/usr/bin/env bash
# The whole test suite, several times in a row, with the cores kept busy
# beside it: a test must not depend on how busy the machine is.
#
#   bench/suite_under_load.sh [--times 3] [--cpu 2] [--io 1] [-- scripts/test.sh options]
#
# Starts stress-ng (Debian's package, installed when missing) with --cpu
# workers of one CPU-bound process each and --io workers of sync() calls,
# runs scripts/test.sh (with the options after --) --times times in a row,
# each run's log kept in .work/under-load/run-N.log, stops stress-ng, and
# prints each run's closing line ("N passed, N failed") and exit status.
# The exit status is non-zero if any run failed.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

TIMES=3 CPU=2 IO=1
while (($#)); do
	case $1 in
	--times) TIMES=$2; shift 2 ;;
	--cpu) CPU=$2; shift 2 ;;
	--io) IO=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "usage: $0 [--times N] [--cpu N] [--io N] [-- scripts/test.sh options]" >&2; exit 2 ;;
	esac
done
for v in "$TIMES" "$CPU" "$IO"; do
	[[ $v =~ ^[0-9]+$ ]] || die "options take whole numbers, not '$v'"
done
command -v stress-ng >/dev/null || apt_ensure stress-ng

LOGS=$PGBK_REPO/.work/under-load
mkdir -p "$LOGS"
STRESS=()
# shellcheck disable=SC2317  # called by the EXIT trap
stop_stress() {
	local p
	for p in "${STRESS[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
}
trap stop_stress EXIT

for ((i = 0; i < CPU; i++)); do
	stress-ng --cpu 1 --quiet >/dev/null 2>&1 &
	STRESS+=($!)
done
for ((i = 0; i < IO; i++)); do
	stress-ng --io 1 --quiet >/dev/null 2>&1 &
	STRESS+=($!)
done
log "stress-ng: $CPU CPU and $IO I/O worker(s) beside the suite"

FAILED=0
RESULTS=()
for ((n = 1; n <= TIMES; n++)); do
	start=$(date +%s)
	rc=0
	"$PGBK_REPO/scripts/test.sh" "$@" >"$LOGS/run-$n.log" 2>&1 || rc=$?
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$LOGS/run-$n.log" | tail -n 1)
	RESULTS+=("run $n: exit $rc, $(($(date +%s) - start)) s, ${line:-no summary line}")
	log "${RESULTS[-1]}"
	((rc == 0)) || FAILED=$((FAILED + 1))
done
printf '%s\n' "${RESULTS[@]}"
((FAILED == 0)) || die "$FAILED of $TIMES run(s) failed: see $LOGS/run-N.log"
