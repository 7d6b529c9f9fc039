#!/usr/bin/env bash
# Fuzzing of the script parser and the expression evaluator (make fuzz runs
# this).
#
#   scripts/fuzz.sh [--seconds N]
#
# Builds the two libFuzzer targets of test/fuzz/ (script: a whole script,
# parsed then each command run once; expr: one expression, evaluated) with
# clang 14, AddressSanitizer and UndefinedBehaviorSanitizer, then fuzzes
# each for half of N seconds (default 600), one after the other, at the
# lowest priority.  Their corpora grow in .work/fuzz/corpus/ from one run to
# the next, seeded by test/fuzz/corpus/ and test/fuzz/regress/; the dictionary
# is test/fuzz/script.dict.  Last, the corpora are replayed by a build with
# clang's source-based coverage, and llvm-cov says which lines and branches
# of the script language (src/script/) and src/core/random.c and src/core/datasets.c they reach.
#
# A crash, a sanitizer report, a hang (10 s for one input), more than 1 GB
# of memory, or an ereport above ERROR is a finding: it is saved in
# .work/fuzz/findings/, the run stops and exits non-zero.  Once fixed, the
# input goes to test/fuzz/regress/<target>/ with its outcome in
# test/fuzz/regress/<target>.out (test/fuzz.sh, in the setup suite of
# scripts/test.sh, replays them).
#
# Needs clang-14, libclang-rt-14-dev (libFuzzer and the sanitizers'
# runtimes), llvm-14 and PostgreSQL 15's server headers: installed when
# missing.  PG_CONFIG names another pg_config for the headers.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
	awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print; next } NR > 2 { exit }' "${BASH_SOURCE[0]}"
}

SECONDS_TOTAL=600
while (($#)); do
	case $1 in
	--seconds) [[ $# -ge 2 ]] || die "--seconds needs a value"; SECONDS_TOTAL=$2; shift 2 ;;
	--seconds=*) SECONDS_TOTAL=${1#*=}; shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; die "unknown option: $1" ;;
	esac
done
if [[ ! $SECONDS_TOTAL =~ ^[0-9]+$ ]] || ((SECONDS_TOTAL < 2)); then
	die "--seconds must be a number of seconds, at least 2, not '$SECONDS_TOTAL'"
fi

FUZZ=$PGBK_REPO/test/fuzz
WORK=$PGBK_REPO/.work/fuzz
BUILD=$WORK/build
FINDINGS=$WORK/findings
TARGETS=(script expr)
CC=clang-14

apt_ensure clang-14 libclang-rt-14-dev llvm-14 "${PGBK_APT_PG15[@]}"
PGC=${PG_CONFIG:-$PGBK_PG15_HOME/bin/pg_config}
[[ -x $PGC ]] || die "no pg_config at $PGC (set PG_CONFIG)"

# ---------------------------------------------------------------- build
# The sources of a target: the parser and the evaluator as they are, the
# stub runtime, the harness and an entry point.
SOURCES=("$PGBK_REPO"/src/script/*.c "$PGBK_REPO"/src/core/random.c "$PGBK_REPO"/src/core/datasets.c "$PGBK_REPO"/test/fuzz/pgstub.c "$PGBK_REPO"/test/fuzz/harness.c)
CFLAGS=(-g -O1 -fno-omit-frame-pointer -fno-strict-aliasing -Wall -Wno-unused-parameter
	-Wno-unknown-warning-option -Wno-ignored-attributes
	-I"$PGBK_REPO/src" -I"$FUZZ" -I"$("$PGC" --includedir-server)")
LIBS=(-L"$("$PGC" --pkglibdir)" -L"$("$PGC" --libdir)" -lpgcommon -lpgport -lm)

# build OUT EXTRA-FLAGS... -- SOURCES...
build() {
	local out=$1 flags=() srcs=()
	shift
	while (($#)) && [[ $1 != -- ]]; do flags+=("$1"); shift; done
	shift
	srcs=("$@")
	(cd "$PGBK_REPO" && "$CC" "${CFLAGS[@]}" "${flags[@]}" "${SOURCES[@]}" "${srcs[@]}" "${LIBS[@]}" -o "$out") ||
		die "could not build $out (the compiler's messages are above)"
}

mkdir -p "$BUILD" "$FINDINGS"
log "building the fuzzing targets with $CC (libFuzzer, AddressSanitizer, UndefinedBehaviorSanitizer)"
for t in "${TARGETS[@]}"; do
	build "$BUILD/fuzz_$t" -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -- "test/fuzz/fuzz_$t.c"
done
build "$BUILD/replay-cov" -fprofile-instr-generate -fcoverage-mapping -- test/fuzz/replay.c

# ---------------------------------------------------------------- fuzz
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
half=$((SECONDS_TOTAL / 2))
SUMMARY=()
rc=0
for t in "${TARGETS[@]}"; do
	corpus=$WORK/corpus/$t
	mkdir -p "$corpus"
	log "fuzzing $t for $half s (corpus $corpus)"
	out=$WORK/fuzz_$t.log
	regress=()
	[[ ! -d $FUZZ/regress/$t ]] || regress=("$FUZZ/regress/$t")
	"$BUILD/fuzz_$t" -max_total_time="$half" -timeout=10 -rss_limit_mb=1024 -max_len=4096 \
		-dict="$FUZZ/script.dict" -artifact_prefix="$FINDINGS/$t-" -print_final_stats=1 \
		"$corpus" "$FUZZ/corpus/$t" "${regress[@]}" >"$out" 2>&1 || rc=$?
	grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$out" || true
	if ((rc != 0)); then
		show_file "$out" 80
		log "a finding in $t: $(grep -o "$FINDINGS/[^ ]*" "$out" | tail -n 1 || true)"
		log "reproduce it with: $BUILD/fuzz_$t FILE"
		exit "$rc"
	fi
	SUMMARY+=("$t: $(grep -E '^#[0-9]+[[:space:]]+DONE' "$out" | tail -n 1)")
	SUMMARY+=("$t: $(grep -E '^stat::number_of_executed_units' "$out") $(grep -E '^stat::average_exec_per_sec' "$out")")
done

# ---------------------------------------------------------------- coverage
log "coverage of the corpora (replayed by a build with source-based coverage)"
rm -f "$WORK"/cov-*.profraw
for t in "${TARGETS[@]}"; do
	dirs=("$WORK/corpus/$t" "$FUZZ/corpus/$t")
	[[ ! -d $FUZZ/regress/$t ]] || dirs+=("$FUZZ/regress/$t")
	find "${dirs[@]}" -type f -print0 |
		LLVM_PROFILE_FILE="$WORK/cov-$t-%p.profraw" xargs -0 -n 500 "$BUILD/replay-cov" "$t" >/dev/null
done
llvm-profdata-14 merge -sparse "$WORK"/cov-*.profraw -o "$WORK/cov.profdata"
(cd "$PGBK_REPO" && llvm-cov-14 report "$BUILD/replay-cov" -instr-profile="$WORK/cov.profdata" \
	src/script/*.c src/core/random.c src/core/datasets.c) | tee "$WORK/coverage.txt"

echo
log "==================== fuzz summary ===================="
printf '%s\n' "${SUMMARY[@]}" | tee "$WORK/summary.txt"
log "no finding in $SECONDS_TOTAL s"
