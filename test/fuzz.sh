#!/usr/bin/env bash
# The saved fuzzing inputs, replayed (make fuzz-regress; the setup suite of
# scripts/test.sh runs it).
#
#   test/fuzz.sh          prints TAP; exits non-zero if a check failed
#
# Builds test/fuzz/replay.c with the script parser and the expression
# evaluator as they are (src/script/*.c, src/core/random.c, src/core/datasets.c) and the stub
# runtime of test/fuzz/pgstub.c, with gcc's AddressSanitizer and
# UndefinedBehaviorSanitizer (no libFuzzer: scripts/fuzz.sh fuzzes), then:
#   - replays test/fuzz/regress/<target>/, the inputs fuzzing found
#     crashing (and the builtin scripts), and compares what each did with
#     test/fuzz/regress/<target>.out;
#   - replays the seed corpus, test/fuzz/corpus/<target>/: no crash, no
#     sanitizer report.
# Uses PostgreSQL 15's server headers (PG_CONFIG names another pg_config).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
T=$(mktemp -d "${TMPDIR:-/tmp}/pgbk_fuzz.XXXXXX")
trap 'rm -rf "$T"' EXIT

# shellcheck source=test/tap.sh
source "$REPO/test/tap.sh"

PGC=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
FUZZ=$REPO/test/fuzz
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

build_replay() {
	gcc -g -O1 -fno-omit-frame-pointer -fno-strict-aliasing -Wall -Wno-unused-parameter \
		-fsanitize=address,undefined -fno-sanitize-recover=all \
		-I"$REPO/src" -I"$FUZZ" -I"$("$PGC" --includedir-server)" \
		"$REPO"/src/script/*.c "$REPO"/src/core/random.c "$REPO"/src/core/datasets.c \
		"$FUZZ"/pgstub.c "$FUZZ"/harness.c "$FUZZ"/replay.c \
		-L"$("$PGC" --pkglibdir)" -L"$("$PGC" --libdir)" -lpgcommon -lpgport -lm \
		-o "$T/replay" >"$T/build.log" 2>&1
}

if ! build_replay; then
	fail "the replay builds with the sanitizers" "$(cat "$T/build.log")"
	tap_plan
	exit 1
fi
pass "the replay builds with the sanitizers"

for t in script expr; do
	# the saved inputs: each one's outcome as recorded
	files=("$FUZZ/regress/$t"/*)
	if [[ -e ${files[0]} ]]; then
		rc=0
		"$T/replay" "$t" "${files[@]}" >"$T/$t.out" 2>"$T/$t.err" || rc=$?
		check_diag "$t: the ${#files[@]} saved inputs replay without a crash or a sanitizer report" \
			"exit $rc: $(tail -n 40 "$T/$t.err")" test "$rc" -eq 0
		if diff -u "$FUZZ/regress/$t.out" "$T/$t.out" >"$T/$t.diff"; then
			pass "$t: each saved input does what test/fuzz/regress/$t.out says"
		else
			fail "$t: each saved input does what test/fuzz/regress/$t.out says" "$(cat "$T/$t.diff")"
		fi
	fi

	# the seed corpus
	files=("$FUZZ/corpus/$t"/*)
	rc=0
	"$T/replay" "$t" "${files[@]}" >"$T/$t-corpus.out" 2>"$T/$t-corpus.err" || rc=$?
	check_diag "$t: the ${#files[@]} inputs of the seed corpus replay without a crash or a sanitizer report" \
		"exit $rc: $(tail -n 40 "$T/$t-corpus.err")" test "$rc" -eq 0
	is "$(grep -c '^== ' "$T/$t-corpus.out")" "${#files[@]}" "$t: every input of the seed corpus was run"
	is "$(grep -c '^skipped$' "$T/$t-corpus.out" || true)" 0 "$t: no input of the seed corpus was skipped as invalid text"
done

tap_plan
