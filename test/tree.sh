#!/usr/bin/env bash
# The source tree keeps its shape (scripts/check_tree.pl; docs/design.md,
# "Where things are"); in the setup suite of scripts/test.sh.
#
#   test/tree.sh          prints TAP; exits non-zero if a check failed
#
# Builds a copy of the tree (src/, the Makefile, control/, scripts/) in a temporary
# folder against PostgreSQL 15 (PG_CONFIG names another pg_config), runs
# the checker on it, then spoils copies of it one way each and shows that
# the checker refuses each: a part that includes a higher one, a C file
# too long, a circle of includes, a symbol exported through another
# unit's header.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
T=$(mktemp -d "${TMPDIR:-/tmp}/pgbk_tree.XXXXXX")
trap 'rm -rf "$T"' EXIT

# shellcheck source=test/tap.sh
source "$REPO/test/tap.sh"

PGC=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
CHECK=$REPO/scripts/check_tree.pl

mkdir -p "$T/tree"
cp -a "$REPO/Makefile" "$REPO/src" "$REPO/control" "$REPO/scripts" "$T/tree/"
find "$T/tree/src" -name '*.o' -delete
if ! make -C "$T/tree" -j2 PG_CONFIG="$PGC" WERROR=1 >"$T/build.log" 2>&1; then
	fail "the copy of the tree builds" "$(tail -n 40 "$T/build.log")"
	tap_plan
	exit 1
fi
pass "the copy of the tree builds"

# the tree as it is: every check of the checker passes
out=$(perl "$CHECK" --tap "$T/tree/src" 2>&1) || true
if grep -q '^not ok' <<<"$out"; then
	fail "the tree keeps its shape (scripts/check_tree.pl)" "$out"
else
	pass "the tree keeps its shape (scripts/check_tree.pl)"
fi
nchecks=$(grep -cE '^(not )?ok' <<<"$out" || true)
is "$nchecks" 5 "the checker made its five checks"

# spoil SPOILED-NAME CHECK-TEXT COMMAND...: a copy of the built tree
# changed by COMMAND (run in its src/), which the checker must refuse with
# CHECK-TEXT among its failures
spoil() {
	local name=$1 want=$2 copy
	shift 2
	copy="$T/$name"
	cp -a "$T/tree" "$copy"
	(cd "$copy/src" && "$@")
	local res rc=0
	res=$(perl "$CHECK" "$copy/src" 2>&1) || rc=$?
	if ((rc != 0)) && grep -qF -- "$want" <<<"$res"; then
		pass "the checker refuses $name"
	else
		fail "the checker refuses $name" "exit status $rc, expected a line with: $want" "$res"
	fi
	rm -rf "$copy"
}

higher_include() {
	sed -i 's|^#include <time.h>$|#include <time.h>\n#include "api/run.h"|' core/clock.h
}
spoil "a part that includes a higher one" \
	'core/clock (core) depends on api/run (api, a higher part)' higher_include

long_file() {
	local i
	for ((i = 0; i < 1501; i++)); do echo '/* filler */'; done >>core/worker.c
}
spoil "a C file over 1,500 lines" 'src/core/worker.c has ' long_file

include_circle() {
	sed -i 's|^#define PGBENCHKIT_CLOCK_H$|#define PGBENCHKIT_CLOCK_H\n#include "core/histogram.h"|' core/clock.h
	sed -i '0,/^#include "postgres.h"$/s||#include "postgres.h"\n#include "core/clock.h"|' core/histogram.c
	echo '#include "core/clock.h"' >>core/histogram.h
}
spoil "a circle between units" 'a circle between core/clock, core/histogram' include_circle

foreign_export() {
	# bk_may_steer declared in catalog.h instead of privilege.h: the
	# objects are the same, the header that exports it is not
	sed -i '/bk_may_steer/d' meta/privilege.h
	echo 'extern bool bk_may_steer(const char *owner);' >>meta/catalog.h
}
spoil "a symbol exported through another unit's header" \
	'bk_may_steer of meta/privilege.c' foreign_export

tap_plan
