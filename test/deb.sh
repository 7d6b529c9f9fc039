#!/usr/bin/env bash
# The Debian package, built, installed and used for real.  TAP output.
#
#   test/deb.sh
#
#   1. builds the package with `make deb` (scripts/deb.sh),
#   2. checks its control fields (name, version, Depends, Recommends) and
#      its files,
#   3. removes the copy of pgbenchkit that `make install` may have put into
#      PostgreSQL 15 (files no package owns), installs the package with
#      apt-get (which resolves its dependencies) and checks that dpkg
#      knows its files,
#   4. starts a throwaway PostgreSQL 15 cluster, runs CREATE EXTENSION
#      pgbenchkit CASCADE from the installed files, loads a scale-1 TPC-B
#      dataset with bench.init and runs bench.run on it for 2 seconds,
#   5. purges the package and checks that its files are gone.
# The cluster is stopped and removed at the end whatever happens, and the
# package is purged if a failure left it installed.  A failure prints the
# package build's log and the server's log.  The exit status is non-zero if
# any check failed.
#
# Needs root rights to install and purge (sudo when not root); when run as
# root the server runs as the postgres OS user.  The cluster listens on a
# unix socket only, port PGBENCHKIT_DEB_TEST_PORT (default 55615).
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

PG_VERSION=15
PG_BIN=$PGBK_PG15_HOME/bin
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
# PostgreSQL 15's folders on Debian (pg_config --pkglibdir, --sharedir)
LIBDIR=/usr/lib/postgresql/$PG_VERSION/lib
EXTDIR=/usr/share/postgresql/$PG_VERSION/extension
SO=$LIBDIR/pgbenchkit.so

LOGS=$PGBK_REPO/.work/deb-test
CLUSTER=""       # the cluster's folder, once made
SERVER_LOG=""
INSTALLED=0      # 1 while the package this test installed is installed

# shellcheck source=test/tap.sh
source "$PGBK_REPO/test/tap.sh"
DONE=0           # 1 once the last check ran (or a failure stopped the rest)

# every file of pgbenchkit in PostgreSQL's folders, whoever put it there
pgbenchkit_files() { find "$LIBDIR" "$EXTDIR" -name 'pgbenchkit*' 2>/dev/null || true; }

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
	if ((INSTALLED)) && dpkg-query -W -f='${Status}' "$PKG" 2>/dev/null | grep -q ' installed$'; then
		diag "purging $PKG, left installed by a failure"
		as_root dpkg --purge "$PKG" >/dev/null 2>&1 || diag "could not purge $PKG"
	fi
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

# ---------------------------------------------------------------- install
# A copy installed by an earlier run of this test would own the files: out
# first.
if dpkg-query -W -f='${Status}' "$PKG" 2>/dev/null | grep -q ' installed$'; then
	diag "$PKG is installed from before: purging it"
	as_root dpkg --purge "$PKG" >"$LOGS/purge-old.log" 2>&1 || {
		fail "purge the $PKG installed before"
		diag_file "$LOGS/purge-old.log"
		bail "cannot test the package while another copy is installed"
	}
fi
# What `make install` put into PostgreSQL 15 (the test suite builds and
# installs there) would hide whether the package's files work: remove the
# files of pgbenchkit that no package owns.
ours=()
for f in "$SO" "$LIBDIR/bitcode/pgbenchkit" "$LIBDIR/bitcode/pgbenchkit.index.bc" \
	"$EXTDIR/pgbenchkit.control" "$EXTDIR"/pgbenchkit--*.sql; do
	[[ -e $f ]] && ours+=("$f")
done
owned=()
for f in "${ours[@]}"; do
	if owner=$(dpkg -S "$f" 2>/dev/null); then owned+=("$owner"); fi
done
if ((${#owned[@]})); then
	fail "no package but this one has files of pgbenchkit"
	diag "owned by packages:" "${owned[@]}"
	bail "not removing files another package owns"
fi
if ((${#ours[@]})); then
	diag "removing the copy of pgbenchkit that make install put into PostgreSQL $PG_VERSION:" "${ours[@]}"
	as_root rm -rf "${ours[@]}" || true
fi
left=$(pgbenchkit_files)
if [[ -z $left ]]; then
	pass "no other copy of pgbenchkit in PostgreSQL $PG_VERSION (${#ours[@]} files of make install removed)"
else
	fail "no other copy of pgbenchkit in PostgreSQL $PG_VERSION"
	diag "still there:" "$left"
	bail "the installed files would not be the package's alone"
fi

start=$SECONDS
INSTALLED=1
if as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q "$DEB" \
	>"$LOGS/apt-install.log" 2>&1; then
	pass "apt-get install ${DEB##*/} ($((SECONDS - start)) s)"
else
	fail "apt-get install ${DEB##*/}"
	diag_file "$LOGS/apt-install.log"
	bail "the package does not install"
fi
is "$(dpkg-query -W -f='${Status} ${Version}' "$PKG" 2>&1)" "install ok installed $DEB_VERSION" \
	"dpkg has $PKG $DEB_VERSION installed"
owner=$(dpkg -S "$SO" 2>&1) || true
is "${owner%%:*}" "$PKG" "dpkg -S $SO names $PKG"

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
is "$(sql "SELECT setting FROM pg_config WHERE name = 'PKGLIBDIR'")" "$LIBDIR" "the server's \$libdir is $LIBDIR"

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
if as_root dpkg --purge "$PKG" >"$LOGS/purge.log" 2>&1; then
	INSTALLED=0
	pass "dpkg --purge $PKG"
else
	fail "dpkg --purge $PKG"
	diag_file "$LOGS/purge.log"
fi
if [[ ! -e $SO ]]; then pass "$SO is gone"; else fail "$SO is gone"; fi
left=$(pgbenchkit_files)
if [[ -z $left ]]; then
	pass "no file of pgbenchkit left in PostgreSQL $PG_VERSION"
else
	fail "no file of pgbenchkit left in PostgreSQL $PG_VERSION"
	diag "still there:" "$left"
fi
status=$(dpkg-query -W -f='${db:Status-Status}' "$PKG" 2>/dev/null) || true
if [[ -z $status || $status == not-installed ]]; then
	pass "dpkg has no $PKG any more"
else
	fail "dpkg has no $PKG any more"
	diag "its status: $status"
fi

DONE=1
