#!/usr/bin/env bash
# pgbenchkit under AddressSanitizer and UndefinedBehaviorSanitizer, inside a
# PostgreSQL 15 built with them (make sanitize runs this).
#
#   scripts/sanitize.sh [--only regress|tap]... [--rebuild]
#
# An extension built with -fsanitize=address in an uninstrumented server
# sees little: the server's allocations, its stack and its globals are
# unchecked.  So the server itself is built, once, from Debian's source
# package of PostgreSQL 15 (a deb-src entry for bookworm main is added to
# apt's sources for it), with
#     -fsanitize=address,undefined -fno-sanitize=alignment
#     -fno-sanitize-recover=all --enable-cassert --enable-debug --enable-tap-tests
# into .deps/pg15-asan (its build tree is .deps/pg15-asan-src; --rebuild
# starts both afresh), with the extensions the tests create: contrib's,
# and pg_cron, which is Debian's build copied from postgresql-15-cron (not
# instrumented: Debian's mirror here serves no source of it).  --enable-cassert adds PostgreSQL's own checks:
# assertions, and the sentinel byte after every palloc chunk that a pfree or
# a context reset checks ("detected write past chunk end"), which is what
# sees an overrun inside a palloc block, where AddressSanitizer cannot.
#
# Then pgbenchkit is built against it (the sanitizers' flags come from its
# pg_config) and installed there, and run:
#     regress  make installcheck (pg_regress over sql/), with the settings
#              of PostgreSQL 15's tests (test/regress-15.conf, pg_cron)
#     tap      the TAP files that exercise runs, faults and scripts:
#              t/002, t/004, t/010, t/012 (PGBENCHKIT_SANITIZE_TAP overrides)
# A sanitizer report ends the process that made it (a backend or a worker
# aborts: the test that needed it fails) and is written to
# .work/sanitize/reports/; an assertion failure or a chunk overrun is found
# in the server logs.  The end says how long each step took, and the exit
# status is non-zero if a test failed or any report was found.
#
# Ports: 55800 + PGBENCHKIT_TEST_PORT_SHIFT (regress); TAP nodes choose theirs.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
	awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print; next } NR > 2 { exit }' "${BASH_SOURCE[0]}"
}

SUITES=()
REBUILD=0
while (($#)); do
	case $1 in
	--only) [[ $# -ge 2 ]] || die "--only needs a value"; SUITES+=("$2"); shift 2 ;;
	--only=*) SUITES+=("${1#*=}"); shift ;;
	--rebuild) REBUILD=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; die "unknown option: $1" ;;
	esac
done
((${#SUITES[@]})) || SUITES=(regress tap)
for s in "${SUITES[@]}"; do
	[[ $s == regress || $s == tap ]] || die "unknown suite '$s' (regress, tap)"
done
want_suite() { [[ " ${SUITES[*]} " == *" $1 "* ]]; }

PORT_SHIFT=${PGBENCHKIT_TEST_PORT_SHIFT:-0}
[[ $PORT_SHIFT =~ ^[0-9]{1,4}$ ]] || die "PGBENCHKIT_TEST_PORT_SHIFT must be a number from 0 to 9999, not '$PORT_SHIFT'"
PORT=$((55800 + PORT_SHIFT))
TAP_FILES=${PGBENCHKIT_SANITIZE_TAP:-t/002_crash_recovery.pl t/004_run_faults.pl t/010_expressions.pl t/012_pgbench_scripts.pl}

PREFIX=$PGBK_REPO/.deps/pg15-asan
BUILD=$PGBK_REPO/.deps/pg15-asan-src
WORK=$PGBK_REPO/.work/sanitize
REPORTS=$WORK/reports
# a libdir without "postgres" in its name gets a postgresql/ folder of its own
PKGLIB=$PREFIX/lib/postgresql
SAN_CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize=alignment -fno-sanitize-recover=all"
# PostgreSQL leaks on purpose at exit, hence no leak detection; a report
# aborts the process (a crash the tests see) and goes to a file of its own
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:print_stacktrace=1:log_path=$REPORTS/asan"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$REPORTS/ubsan"

# the Debian packages the build needs: compiler, Perl's IPC::Run for the TAP
# tests, dpkg-dev for apt-get source
SAN_APT=(build-essential dpkg-dev bison flex perl libipc-run-perl "${PGBK_APT_PG15[@]}" postgresql-client-15)
SRC_LIST=/etc/apt/sources.list.d/pgbenchkit-deb-src.sources
# contrib's extensions the tests create
CONTRIB=(pg_prewarm pg_stat_statements amcheck pageinspect pg_visibility)

declare -A TOOK=()
RESULTS=()
FAILED=0

# ---------------------------------------------------------------- build PostgreSQL
# apt-get source needs a deb-src entry; bookworm main is enough (it serves
# the 15.x of the release's last point update).
fetch_source() {
	if ! apt-get source --print-uris postgresql-15 >/dev/null 2>&1; then
		log "adding a deb-src entry for bookworm main: $SRC_LIST"
		printf '%s\n' 'Types: deb-src' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm' \
			'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
			as_root tee "$SRC_LIST" >/dev/null
		apt_wait_for_locks
		apt_get update -q || die "apt-get update failed after adding $SRC_LIST (its output is above)"
	fi
	rm -rf "$BUILD"
	mkdir -p "$BUILD"
	# the upstream sources without Debian's patches: one of them
	# (50-per-version-dirs) would install the libraries into
	# /usr/lib/postgresql/15/lib, over the system's PostgreSQL 15
	(cd "$BUILD" && apt-get source -q --download-only postgresql-15) ||
		die "apt-get source postgresql-15 failed (its output is above)"
	(cd "$BUILD" && dpkg-source -x --skip-patches ./*.dsc) ||
		die "dpkg-source could not unpack $(echo "$BUILD"/*.dsc)"
}

build_postgres() {
	local t0=$SECONDS dir log
	fetch_source
	dir=$(find "$BUILD" -mindepth 1 -maxdepth 1 -type d -name 'postgresql-15*' | head -n 1)
	[[ -n $dir ]] || die "apt-get source left no postgresql-15* folder in $BUILD"
	log "building PostgreSQL ($(basename "$dir")) with the sanitizers into $PREFIX"
	log=$BUILD/build.log
	rm -rf "$PREFIX"
	{
		cd "$dir" &&
			./configure --prefix="$PREFIX" --enable-cassert --enable-debug --enable-tap-tests \
				--without-readline --without-zlib --without-icu \
				CC=gcc CFLAGS="$SAN_CFLAGS" LDFLAGS="-fsanitize=address,undefined" &&
			! grep -n /usr/lib/postgresql src/Makefile.global &&
			make -j"$(nproc)" &&
			make install
	} >"$log" 2>&1 || { show_file "$log" 80; die "the build of PostgreSQL failed (log: $log)"; }
	TOOK[build-postgres]=$((SECONDS - t0))
	log "PostgreSQL built in ${TOOK[build-postgres]} s"
}

# The extensions the tests create: contrib's, built with the same flags,
# and pg_cron (the tests of 15 expect it), Debian's build of it.
build_extras() {
	local t0=$SECONDS dir log=$BUILD/extras.log m
	dir=$(find "$BUILD" -mindepth 1 -maxdepth 1 -type d -name 'postgresql-15*' | head -n 1)
	(
		for m in "${CONTRIB[@]}"; do
			make -C "$dir/contrib/$m" install || exit 1
		done
		# Debian's build, not instrumented (its source package is not
		# served here): what the tests need of it is its schema
		install -m 755 "$PGBK_PG15_HOME/lib/pg_cron.so" "$PKGLIB/" &&
			install -m 644 /usr/share/postgresql/15/extension/pg_cron* "$PREFIX/share/postgresql/extension/"
	) >"$log" 2>&1 || { show_file "$log" 80; die "the build of the extensions the tests use failed (log: $log)"; }
	TOOK[build-extras]=$((SECONDS - t0))
}

# ---------------------------------------------------------------- suites
PGC=$PREFIX/bin/pg_config
pg_env() {
	local base=$PATH
	is_root && base=$PGBK_SYSTEM_PATH
	printf '%s\n' "PATH=$PREFIX/bin:$base" "ASAN_OPTIONS=$ASAN_OPTIONS" "UBSAN_OPTIONS=$UBSAN_OPTIONS"
}

build_extension() {
	local t0=$SECONDS src=$WORK/src
	stage_source "$src"
	{
		make -C "$src" -s PG_CONFIG="$PGC" clean &&
			make -C "$src" PG_CONFIG="$PGC" -j"$(nproc)" &&
			make -C "$src" PG_CONFIG="$PGC" install
	} >"$WORK/build.log" 2>&1 || { show_file "$WORK/build.log" 80; die "the build of pgbenchkit failed"; }
	give_to_pg "$WORK"
	TOOK[build-extension]=$((SECONDS - t0))
}

suite_regress() {
	local t0=$SECONDS src=$WORK/src rc=0 envs=()
	mapfile -t envs < <(pg_env)
	as_pg env -C "$src" "${envs[@]}" make installcheck PG_CONFIG="$PGC" TAP_TESTS= \
		EXTRA_REGRESS_OPTS="--port=$PORT" >"$WORK/regress.out" 2>&1 || rc=$?
	TOOK[regress]=$((SECONDS - t0))
	grep -E '^(ok|not ok) |\.\.\. |tests (passed|failed)' "$WORK/regress.out" || true
	if ((rc != 0)); then
		show_file "$src/regression.diffs" 300
		show_file "$src/log/postmaster.log" 100
		RESULTS+=("regress  FAILED (exit $rc)")
		FAILED=1
	else
		RESULTS+=("regress  ok")
	fi
	cp -f "$src/log/postmaster.log" "$WORK/regress-postmaster.log" 2>/dev/null || true
}

suite_tap() {
	local t0=$SECONDS src=$WORK/src rc=0 envs=() files=()
	mapfile -t envs < <(pg_env)
	read -r -a files <<<"$TAP_FILES"
	mkdir -p "$WORK/tap"
	give_to_pg "$WORK/tap"
	as_pg env -C "$src" "${envs[@]}" \
		PG_REGRESS="$PKGLIB/pgxs/src/test/regress/pg_regress" \
		TESTDIR="$WORK/tap" TEMP_CONFIG="$src/test/tap-15.conf" \
		PGBENCHKIT_PG_MAJOR=15 PGBENCHKIT_SRC="$src" \
		prove -I "$PKGLIB/pgxs/src/test/perl" --failures "${files[@]}" 2>&1 |
		tee "$WORK/tap.out" || rc=$?
	TOOK[tap]=$((SECONDS - t0))
	if ((rc != 0)); then
		RESULTS+=("tap      FAILED")
		FAILED=1
	else
		RESULTS+=("tap      ok ($(grep -Eo 'Tests=[0-9]+' "$WORK/tap.out" | tail -n 1))")
	fi
}

# What the sanitizers reported, and what the servers' logs say of failed
# assertions and overrun chunks.
scan_reports() {
	local n logs=()
	n=$(find "$REPORTS" -type f | wc -l)
	if ((n > 0)); then
		local f
		for f in "$REPORTS"/*; do show_file "$f" 60; done
		RESULTS+=("reports  $n sanitizer report(s) in $REPORTS")
		FAILED=1
	else
		RESULTS+=("reports  none from AddressSanitizer or UndefinedBehaviorSanitizer")
	fi
	mapfile -t logs < <(find "$WORK" -name '*.log' -path '*/log/*' -type f)
	((${#logs[@]})) || return 0
	if grep -lE 'TRAP: |write past chunk end|runtime error: |AddressSanitizer' "${logs[@]}"; then
		RESULTS+=("logs     assertion failures or overruns in the server logs named above")
		FAILED=1
	else
		RESULTS+=("logs     no failed assertion, no chunk overrun in ${#logs[@]} log file(s)")
	fi
}

# ---------------------------------------------------------------- main
START=$SECONDS
apt_ensure "${SAN_APT[@]}"
ensure_pg_can_reach_repo
rm -rf "$WORK"
mkdir -p "$WORK" "$REPORTS"
chmod 777 "$REPORTS"
if ((REBUILD)) || [[ ! -x $PREFIX/bin/postgres ]]; then
	build_postgres
else
	log "using the sanitizer build in $PREFIX ($("$PREFIX/bin/postgres" --version)); --rebuild builds it again"
fi
for m in "${CONTRIB[@]}" pg_cron; do
	if [[ ! -f $PKGLIB/$m.so ]]; then
		build_extras
		break
	fi
done
# the server runs as the postgres OS user when this runs as root
chmod -R a+rX "$PREFIX"
build_extension
want_suite regress && suite_regress
want_suite tap && suite_tap
scan_reports

echo
log "==================== sanitize summary ($((SECONDS - START)) s) ===================="
printf '%s\n' "${RESULTS[@]}"
for k in build-postgres build-extras build-extension regress tap; do
	[[ -z ${TOOK[$k]:-} ]] || printf 'took: %-16s %5d s\n' "$k" "${TOOK[$k]}"
done
exit "$FAILED"
