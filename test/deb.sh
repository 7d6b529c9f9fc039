#!/usr/bin/env bash
# The Debian package, built, installed with dpkg and used, in a private
# root: nothing is installed into the system, and a pgbenchkit the user
# installed (with make install or the package) stays as it is.  TAP output.
#
#   test/deb.sh
#
#   1. builds the package with `make deb` (scripts/deb.sh),
#   2. checks its control fields (name, version, Depends, Recommends), its
#      control archive (dpkg-deb -I: no maintainer scripts and no triggers
#      of its own, so that installing it is unpacking its files, which the
#      private root shows in full) and its files (dpkg-deb -c),
#   3. makes the private root .work/deb-test/root: a copy of PostgreSQL
#      15's server tree (pg15_private_tree in scripts/lib.sh: the server
#      finds its share and lib folders relative to its copied binaries)
#      and a copy of dpkg's database, then installs the package there with
#      `dpkg --root`, which checks its dependencies against that copy (the
#      packages installed on this system) and unpacks its files into the
#      root; checks that dpkg there knows its files, and that in a copy
#      of the database without postgresql-15 dpkg refuses it for its
#      dependencies (the check is real),
#   4. starts a throwaway cluster with the root's PostgreSQL 15, runs
#      CREATE EXTENSION pgbenchkit CASCADE from the package's files, checks
#      that the library the server loads is the root's, loads a scale-1
#      TPC-B dataset with bench.init and runs bench.run on it for 2 seconds,
#   5. purges the package from the root and checks that its files are gone.
# The cluster is stopped and removed and the private root deleted at the
# end whatever happens.  A failure prints the package build's log and the
# server's log.  The exit status is non-zero if any check failed.
# (test/system.sh, run around the suites, checks that the system's
# pgbenchkit files and the package's status are untouched.)
#
# dpkg --root runs with root rights (sudo when not root), --no-triggers
# (postgresql-common's trigger on /usr/share/postgresql is recorded in the
# root's database, not run: its script is the system's, and would run
# chrooted into a root without a shell) and its log in the root.  When run
# as root the server runs as the postgres OS user.  The cluster listens on
# a unix socket only, port PGBENCHKIT_DEB_TEST_PORT (default 55615).
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

PG_VERSION=15
PORT=${PGBENCHKIT_DEB_TEST_PORT:-55615}
PKG=postgresql-$PG_VERSION-pgbenchkit
# what the package must hold: the extension's version (the Makefile's
# EXTVERSION) and the Debian version of the packaging's changelog
EXT_VERSION=$(makefile_version "$PGBK_REPO/Makefile")
DEB_VERSION=$(sed -n '1s/^pgbenchkit (\([^)]*\)).*/\1/p' "$PGBK_REPO/scripts/debian/changelog")
[[ -n $EXT_VERSION && -n $DEB_VERSION ]] ||
	die "cannot read the versions (EXTVERSION in the Makefile: '$EXT_VERSION', scripts/debian/changelog: '$DEB_VERSION')"
ARCH=$(dpkg --print-architecture)
OUT=$PGBK_REPO/.work/deb
BUILD_LOG=$OUT/build.log
DEB=$OUT/${PKG}_${DEB_VERSION}_$ARCH.deb
# PostgreSQL 15's folders on Debian (pg_config --pkglibdir, --sharedir):
# where the package puts its files, under / or under the private root
LIBDIR=$PGBK_PG15_SYSTEM_HOME/lib
EXTDIR=/usr/share/postgresql/$PG_VERSION/extension
SO=$LIBDIR/pgbenchkit.so

LOGS=$PGBK_REPO/.work/deb-test
# the private root, and a second one for the refused install
ROOT=$LOGS/root
NODEPS=$LOGS/root-nodeps
PG_BIN=$ROOT$PGBK_PG15_SYSTEM_HOME/bin
CLUSTER=""       # the cluster's folder, once made
SERVER_LOG=""

# shellcheck source=test/tap.sh
source "$PGBK_REPO/test/tap.sh"
DONE=0           # 1 once the last check ran (or a failure stopped the rest)

# every path of pgbenchkit in the root's PostgreSQL folders
pgbenchkit_files() {
	find "$ROOT$PGBK_PG15_SYSTEM_HOME" "$ROOT/usr/share/postgresql/$PG_VERSION" -name '*pgbenchkit*' 2>/dev/null || true
}

# dpkg on a private root (its database, its files, its log)
root_dpkg() {
	local root=$1
	shift
	as_root dpkg --root="$root" --log="$root/var/log/dpkg.log" --no-triggers "$@"
}

# a private root with a copy of dpkg's database (without its locks)
copy_dpkg_db() {
	local root=$1
	as_root mkdir -p "$root/var/lib" "$root/var/log" &&
		as_root cp -a /var/lib/dpkg "$root/var/lib/" &&
		as_root rm -f "$root"/var/lib/dpkg/lock "$root"/var/lib/dpkg/lock-frontend
}

# a file as TAP comments
diag_file() { [[ -f $1 ]] && sed 's/^/# /' "$1"; return 0; }

# The end, normal or not: the plan, then the cleanup.  A failure prints the
# build's log and the server's log.
finish() {
	local rc=$?
	if ((!DONE)); then
		fail "the test ran to its end (it stopped with exit status $rc)"
	fi
	if [[ -n $CLUSTER ]]; then
		if [[ -f $CLUSTER/data/postmaster.pid ]]; then
			as_pg "$PG_BIN/pg_ctl" -D "$CLUSTER/data" -m immediate -w stop >/dev/null 2>&1 ||
				diag "could not stop the cluster in $CLUSTER"
		fi
	fi
	as_root rm -rf "$ROOT" "$NODEPS" || diag "could not remove $ROOT and $NODEPS"
	if ((TAP_FAILED)); then
		show_file "$BUILD_LOG" 200
		[[ -n $SERVER_LOG ]] && show_file "$SERVER_LOG" 200
	fi
	[[ -n $CLUSTER ]] && rm -rf "$CLUSTER"
	tap_plan || exit 1
	exit 0
}
trap finish EXIT

# No more checks after a failure the others depend on.
bail() {
	diag "$@" "the remaining checks depend on this one: stopping"
	DONE=1
	exit 1
}

# psql as the cluster's superuser; prints the rows unaligned, without
# headers, fields separated by |, and warnings and errors (no notices).
sql() {
	(cd "$CLUSTER" && as_pg env PGOPTIONS='-c client_min_messages=warning' \
		"$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h "$CLUSTER" -p "$PORT" -d postgres -c "$1") 2>&1
}

mkdir -p "$LOGS"
# the server (the postgres OS user when root) runs from the root below it
chmod 755 "$LOGS"

# ---------------------------------------------------------------- build
diag "building the package: make deb"
start=$SECONDS
if make -C "$PGBK_REPO" --no-print-directory deb >"$LOGS/make-deb.log" 2>&1; then
	pass "make deb builds the package ($((SECONDS - start)) s)"
	grep -F '.deb' "$LOGS/make-deb.log" | sed 's/^/# /'
else
	fail "make deb builds the package"
	diag_file "$LOGS/make-deb.log"
	bail "make deb failed"
fi
if [[ -f $DEB ]]; then
	pass "make deb left ${DEB#"$PGBK_REPO"/}"
else
	fail "make deb left ${DEB#"$PGBK_REPO"/}"
	diag "in ${OUT#"$PGBK_REPO"/}: $(cd "$OUT" && ls)"
	bail "no package to check"
fi

# ---------------------------------------------------------------- fields
field() { dpkg-deb -f "$DEB" "$1" 2>&1; }
is "$(field Package)" "$PKG" "Package is $PKG"
is "$(field Version)" "$DEB_VERSION" "Version is $DEB_VERSION"
is "$(field Source)" "pgbenchkit" "Source is pgbenchkit"
is "$(field Architecture)" "$ARCH" "Architecture is $ARCH"
depends=$(field Depends)
# the server of its version (with the minor version it was built with)...
if [[ ", $depends," =~ ,\ postgresql-$PG_VERSION(\ \([^\)]*\))?, ]]; then
	pass "Depends names postgresql-$PG_VERSION ($depends)"
else
	fail "Depends names postgresql-$PG_VERSION"
	diag "Depends: '$depends'"
fi
# ...and the C library, from ${shlibs:Depends}
if [[ ", $depends," =~ ,\ libc6(\ \([^\)]*\))?, ]]; then
	pass "Depends has the shared library dependency on libc6"
else
	fail "Depends has the shared library dependency on libc6"
	diag "Depends: '$depends'"
fi
is "$(field Recommends)" "postgresql-$PG_VERSION-cron" "Recommends is postgresql-$PG_VERSION-cron"

# ---------------------------------------------------------------- files
files=$(dpkg-deb -c "$DEB" | awk '{ sub(/^\./, "", $6); print $6 }' | grep -v '/$') || true
for f in "$SO" "$EXTDIR/pgbenchkit.control" "$EXTDIR/pgbenchkit--$EXT_VERSION.sql"; do
	if grep -qxF "$f" <<<"$files"; then
		pass "the package has $f"
	else
		fail "the package has $f"
		diag "its files:" "$files"
	fi
done
stray=$(grep -vE "^($LIBDIR|/usr/share/postgresql/$PG_VERSION|/usr/share/doc/$PKG)/" <<<"$files") || true
if [[ -z $stray ]]; then
	pass "every file is in PostgreSQL $PG_VERSION's folders or the package's doc folder ($(wc -l <<<"$files") files)"
else
	fail "every file is in PostgreSQL $PG_VERSION's folders or the package's doc folder"
	diag "elsewhere:" "$stray"
fi

# ---------------------------------------------------------------- control archive
# Nothing of the package runs at install: no maintainer script, no trigger
# of its own.  (Were there one, dpkg --root would run it chrooted into the
# private root, where there is no shell: test it another way.)
members=$(dpkg-deb -I "$DEB" | awk '/^ *[0-9]+ bytes, +[0-9]+ lines/ { print $NF }' | LC_ALL=C sort | xargs)
is "$members" "control md5sums" "the control archive holds control and md5sums only: no maintainer scripts, no triggers (dpkg-deb -I)"

# ---------------------------------------------------------------- install
start=$SECONDS
rc=0
as_root rm -rf "$ROOT" "$NODEPS" || rc=$?
pg15_private_tree "$ROOT" >"$LOGS/root.log" 2>&1 || rc=$?
if ((rc == 0)); then
	pass "a private copy of PostgreSQL $PG_VERSION's server tree in ${ROOT#"$PGBK_REPO"/} ($((SECONDS - start)) s)"
else
	fail "a private copy of PostgreSQL $PG_VERSION's server tree in ${ROOT#"$PGBK_REPO"/}"
	diag_file "$LOGS/root.log"
	bail "no private root"
fi
is "$("$PG_BIN/pg_config" --pkglibdir 2>&1)" "$ROOT$LIBDIR" "its pg_config reports its own \$libdir"
left=$(pgbenchkit_files)
is "$left" "" "no pgbenchkit in the private tree before the package (the system's, if any, is not copied)"

# dpkg's database, copied: dpkg --root checks the package's dependencies
# against the packages installed here, and file conflicts against theirs.
# A user's package of pgbenchkit in the copy goes first, as an upgrade
# would replace it (its files were not copied into the tree).
rc=0
copy_dpkg_db "$ROOT" >"$LOGS/dpkg-db.log" 2>&1 || rc=$?
if ((rc == 0)) && [[ $(dpkg-query --root="$ROOT" -W -f='${db:Status-Status}' "$PKG" 2>/dev/null) == installed ]]; then
	diag "$PKG is installed on this system: purging it from the private root's copy of dpkg's database first"
	root_dpkg "$ROOT" --purge "$PKG" >>"$LOGS/dpkg-db.log" 2>&1 || rc=$?
fi
if ((rc == 0)); then
	pass "a copy of dpkg's database in the private root"
else
	fail "a copy of dpkg's database in the private root"
	diag_file "$LOGS/dpkg-db.log"
	bail "no dpkg database in the private root"
fi

start=$SECONDS
if root_dpkg "$ROOT" -i "$DEB" >"$LOGS/dpkg-install.log" 2>&1; then
	pass "dpkg --root ${ROOT#"$PGBK_REPO"/} -i ${DEB##*/}: dependencies met by this system's packages ($((SECONDS - start)) s)"
	diag_file "$LOGS/dpkg-install.log"
else
	fail "dpkg --root ${ROOT#"$PGBK_REPO"/} -i ${DEB##*/}"
	diag_file "$LOGS/dpkg-install.log"
	bail "the package does not install"
fi
is "$(dpkg-query --root="$ROOT" -W -f='${Status} ${Version}' "$PKG" 2>&1)" "install ok installed $DEB_VERSION" \
	"dpkg has $PKG $DEB_VERSION installed in the private root"
owner=$(dpkg-query --root="$ROOT" -S "$SO" 2>&1) || true
is "${owner%%:*}" "$PKG" "dpkg -S $SO names $PKG in the private root"
missing=()
for f in "$SO" "$EXTDIR/pgbenchkit.control" "$EXTDIR/pgbenchkit--$EXT_VERSION.sql"; do
	[[ -f $ROOT$f ]] || missing+=("$f")
done
is "${missing[*]}" "" "the root has the package's library, control file and install script"

# The dependency check is real: without postgresql-15 in the database,
# dpkg refuses to configure the package and names the dependency.
rc=0
copy_dpkg_db "$NODEPS" >"$LOGS/nodeps.log" 2>&1 || rc=$?
if ((rc == 0)); then
	awk -v RS= -v ORS='\n\n' -v pkg="postgresql-$PG_VERSION" '$0 !~ "^Package: " pkg "\n"' \
		/var/lib/dpkg/status >"$LOGS/status-nodeps" &&
		as_root cp "$LOGS/status-nodeps" "$NODEPS/var/lib/dpkg/status" || rc=$?
fi
out=""
if ((rc == 0)); then
	root_dpkg "$NODEPS" -i "$DEB" >"$LOGS/nodeps.log" 2>&1 && rc=0 || rc=$?
	out=$(cat "$LOGS/nodeps.log")
	check_diag "without postgresql-$PG_VERSION in dpkg's database, dpkg --root refuses it (exit $rc)" "$out" test "$rc" -ne 0
	has "$out" "... naming the missing dependency" "depends on postgresql-$PG_VERSION" "dependency problems"
else
	fail "a copy of dpkg's database without postgresql-$PG_VERSION" "$(cat "$LOGS/nodeps.log")"
fi
as_root rm -rf "$NODEPS" || true

# ---------------------------------------------------------------- use
CLUSTER=$(mktemp -d /tmp/pgbk_deb.XXXXXX)
SERVER_LOG=$CLUSTER/postgres.log
chmod 755 "$CLUSTER"
give_to_pg "$CLUSTER"
started=0
if (cd "$CLUSTER" && as_pg "$PG_BIN/initdb" -D "$CLUSTER/data" -A trust -N --no-locale -E UTF8) \
	>"$LOGS/initdb.log" 2>&1; then
	{
		echo "port = $PORT"
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$CLUSTER'"
		echo "fsync = off"
	} | as_pg tee -a "$CLUSTER/data/postgresql.conf" >/dev/null
	if (cd "$CLUSTER" && as_pg "$PG_BIN/pg_ctl" -D "$CLUSTER/data" -l "$SERVER_LOG" -w start) \
		>"$LOGS/pg_ctl.log" 2>&1; then
		started=1
	fi
fi
if ((started)); then
	pass "a throwaway PostgreSQL $PG_VERSION cluster starts (port $PORT)"
else
	fail "a throwaway PostgreSQL $PG_VERSION cluster starts (port $PORT)"
	diag_file "$LOGS/initdb.log"
	diag_file "$LOGS/pg_ctl.log"
	bail "no server (port $PORT taken? set PGBENCHKIT_DEB_TEST_PORT)"
fi

if out=$(sql 'CREATE EXTENSION pgbenchkit CASCADE'); then
	pass "CREATE EXTENSION pgbenchkit CASCADE"
else
	fail "CREATE EXTENSION pgbenchkit CASCADE"
	diag "$out"
	bail "no extension"
fi
is "$(sql "SELECT extversion FROM pg_extension WHERE extname = 'pgbenchkit'")" "$EXT_VERSION" \
	"the extension's version is $EXT_VERSION"
is "$(sql "SELECT DISTINCT probin FROM pg_proc WHERE probin LIKE '%pgbenchkit'")" "\$libdir/pgbenchkit" \
	"the extension's functions are in \$libdir/pgbenchkit"
is "$(sql "SELECT setting FROM pg_config WHERE name = 'PKGLIBDIR'")" "$ROOT$LIBDIR" \
	"the server's \$libdir is the private root's, ${ROOT#"$PGBK_REPO"/}$LIBDIR"
# the library a backend maps is the package's file in the root
maps=$(sql "LOAD 'pgbenchkit'; SELECT pg_read_file('/proc/self/maps')") || true
loaded=$(awk '$NF ~ /pgbenchkit\.so$/ { print $NF }' <<<"$maps" | sort -u)
is "$loaded" "$ROOT$SO" "the server loads ${ROOT#"$PGBK_REPO"/}$SO"

start=$SECONDS
if out=$(sql "SELECT * FROM bench.init('tpcb', scale => 1)"); then
	pass "bench.init('tpcb', scale => 1) ($((SECONDS - start)) s)"
	diag "$out"
else
	fail "bench.init('tpcb', scale => 1)"
	diag "$out"
fi
is "$(sql 'SELECT count(*) FROM pgbench_accounts')" 100000 "bench.init loaded 100000 accounts"
start=$SECONDS
out=$(sql "SELECT status, transactions > 0 FROM bench.run('tpcb', clients => 1, duration => '2 s')") || true
is "$out" "done|t" "bench.run('tpcb', clients => 1, duration => '2 s') is done with transactions ($((SECONDS - start)) s)"
diag "$(sql 'SELECT workload, status, transactions, round(tps) AS tps FROM bench.runs ORDER BY id DESC LIMIT 1')"

if (cd "$CLUSTER" && as_pg "$PG_BIN/pg_ctl" -D "$CLUSTER/data" -m fast -w stop) >>"$LOGS/pg_ctl.log" 2>&1; then
	pass "the cluster stops"
else
	fail "the cluster stops"
	diag_file "$LOGS/pg_ctl.log"
fi

# ---------------------------------------------------------------- purge
if root_dpkg "$ROOT" --purge "$PKG" >"$LOGS/purge.log" 2>&1; then
	pass "dpkg --root ${ROOT#"$PGBK_REPO"/} --purge $PKG"
else
	fail "dpkg --root ${ROOT#"$PGBK_REPO"/} --purge $PKG"
	diag_file "$LOGS/purge.log"
fi
if [[ ! -e $ROOT$SO ]]; then pass "$SO is gone from the root"; else fail "$SO is gone from the root"; fi
left=$(pgbenchkit_files)
if [[ -z $left ]]; then
	pass "no file of pgbenchkit left in the root's PostgreSQL $PG_VERSION"
else
	fail "no file of pgbenchkit left in the root's PostgreSQL $PG_VERSION"
	diag "still there:" "$left"
fi
status=$(dpkg-query --root="$ROOT" -W -f='${db:Status-Status}' "$PKG" 2>/dev/null) || true
if [[ -z $status || $status == not-installed ]]; then
	pass "dpkg in the root has no $PKG any more"
else
	fail "dpkg in the root has no $PKG any more"
	diag "its status: $status"
fi

DONE=1
