#!/usr/bin/env bash
# Tests of the setup that scripts/demo.sh and scripts/test.sh do before
# anything else: finding and installing the missing Debian packages, waiting
# for another package manager's lock, and saying what failed.
#
#   test/setup.sh          prints TAP; exits non-zero if a check failed
#
# The machine is made to look fresh (or half-installed, or locked) with stubs
# first on PATH: dpkg-query answers from a list of "installed" packages kept
# in a state folder, apt-get records its arguments there (and installs into
# that list, or fails when told to), sudo records and runs its command, id
# says "not root" when told to.  Nothing is installed for real and no server
# is started.  The scripts themselves run from a copy of the repository, so
# their work folders (.demo/, .work/) are not the caller's.  Last, shellcheck
# reads every shell script of the project.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
T=$(mktemp -d "${TMPDIR:-/tmp}/pgbk_setup.XXXXXX")
HOLDER_PID=""
cleanup() {
	[[ -z $HOLDER_PID ]] || kill "$HOLDER_PID" 2>/dev/null || true
	rm -rf "$T"
}
trap cleanup EXIT

# shellcheck source=test/tap.sh
source "$REPO/test/tap.sh"

# ---------------------------------------------------------------- stubs
STUBS=$T/stubs
STATE=$T/state
mkdir -p "$STUBS" "$STATE"

# dpkg-query -W -f=... PKG...: "PKG<TAB>STATUS" for the packages listed in
# $STATE/installed ("PKG STATUS..." lines), dpkg's own message and exit
# status 1 for the others, as the real one does.
cat >"$STUBS/dpkg-query" <<'EOF'
#!/usr/bin/env bash
rc=0
for a in "$@"; do
	case $a in -W | -f* | --showformat*) continue ;; esac
	line=$(grep -m1 "^$a " "$PGBK_STUB_STATE/installed" 2>/dev/null) || line=""
	if [[ -n $line ]]; then
		printf '%s\t%s\n' "$a" "${line#* }"
	else
		echo "dpkg-query: no packages found matching $a" >&2
		rc=1
	fi
done
exit $rc
EOF
# apt-get: one line of arguments per call into $STATE/apt-get.log; fails
# like the real one (exit 100) for the subcommand named in $STATE/fail;
# "install" adds its packages to $STATE/installed unless $STATE/stateless.
cat >"$STUBS/apt-get" <<'EOF'
#!/usr/bin/env bash
echo "$*" >>"$PGBK_STUB_STATE/apt-get.log"
sub="" pkgs=()
skip=0
for a in "$@"; do
	if ((skip)); then skip=0; continue; fi
	case $a in
	-o) skip=1 ;;
	-*) ;;
	*) if [[ -z $sub ]]; then sub=$a; else pkgs+=("$a"); fi ;;
	esac
done
if [[ -f $PGBK_STUB_STATE/lock-released ]]; then
	echo "lock was free" >>"$PGBK_STUB_STATE/apt-get.log"
fi
if [[ $(cat "$PGBK_STUB_STATE/fail" 2>/dev/null) == "$sub" ]]; then
	echo "E: (stub) apt-get $sub refused" >&2
	exit 100
fi
if [[ $sub == install && ! -f $PGBK_STUB_STATE/stateless ]]; then
	for p in "${pkgs[@]}"; do echo "$p install ok installed" >>"$PGBK_STUB_STATE/installed"; done
fi
exit 0
EOF
# sudo CMD...: records the command, then runs it
cat >"$STUBS/sudo" <<'EOF'
#!/usr/bin/env bash
echo "$*" >>"$PGBK_STUB_STATE/sudo.log"
exec "$@"
EOF
# id -u: 1000 when $STATE/not-root exists; anything else: the real id
cat >"$STUBS/id" <<'EOF'
#!/usr/bin/env bash
if [[ $* == -u && -f $PGBK_STUB_STATE/not-root ]]; then echo 1000; exit 0; fi
exec /usr/bin/id "$@"
EOF
# make: fails, so that a script that went past its dependencies stops at
# its build without building anything
cat >"$STUBS/make" <<'EOF'
#!/usr/bin/env bash
echo "make (stub): refusing to build: $*" >&2
exit 2
EOF
chmod +x "$STUBS"/*
export PGBK_STUB_STATE=$STATE

# A fresh state: no package installed, no call recorded.  Arguments: the
# packages to list as installed ("PKG" or "PKG STATUS").
reset_state() {
	rm -rf "$STATE"
	mkdir -p "$STATE"
	: >"$STATE/installed"
	local p
	for p in "$@"; do
		[[ $p == *" "* ]] || p="$p install ok installed"
		echo "$p" >>"$STATE/installed"
	done
}
apt_calls() { cat "$STATE/apt-get.log" 2>/dev/null || true; }
# The apt-get calls with the lock option masked (its value is the time left)
apt_calls_plain() { apt_calls | sed 's/^-o DPkg::Lock::Timeout=[0-9]* //'; }

# A PATH without sudo: the stubs but sudo, then links to every program of
# the system folders but sudo.
NOSUDO=$T/nosudo
mkdir -p "$NOSUDO/stubs" "$NOSUDO/bin"
for f in "$STUBS"/*; do [[ ${f##*/} == sudo ]] || ln -s "$f" "$NOSUDO/stubs/"; done
for d in /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
	[[ -d $d && ! -L $d ]] || continue
	for f in "$d"/*; do
		b=${f##*/}
		[[ $b == sudo || -e $NOSUDO/bin/$b ]] || ln -s "$f" "$NOSUDO/bin/$b"
	done
done

# lib.sh's functions in a fresh bash, with the stubs first on PATH: runs
# the given shell code after sourcing lib.sh under set -euo pipefail, and
# prints "WENT ON" when the code returned.  Output (both streams) on stdout.
# shellcheck disable=SC2016  # the code runs in the inner bash
lib_run() {
	local code=$1 path=${2:-$STUBS:$PATH}
	env PATH="$path" bash -c 'set -euo pipefail; source "$1/scripts/lib.sh"; eval "$2"; echo "WENT ON"' \
		_ "$REPO" "$code" 2>&1
}

# A copy of the repository for the scripts' own runs (their .demo/ and .work/
# are made there), readable by the postgres OS user as the scripts require.
COPY=$T/repo
mkdir -p "$COPY"
tar -C "$REPO" --exclude=./.git --exclude=./.deps --exclude=./.work --exclude=./.demo -cf - . | tar -C "$COPY" -xf -
chmod 755 "$T"

CORE15=(gcc libc6-dev make postgresql-15 postgresql-15-cron postgresql-contrib postgresql-server-dev-15)

# ---------------------------------------------------------------- a fresh machine
reset_state
out=$(lib_run 'deps_ensure core 15') && rc=0 || rc=$?
is "$rc" 0 "fresh machine: the dependency step goes on after installing (exit 0)"
has "$out" "fresh machine: it says what is missing and went on" \
	"missing Debian packages: ${CORE15[*]}" "WENT ON"
is "$(apt_calls_plain)" \
	"update -q
install -y -q --no-install-recommends ${CORE15[*]}" \
	"fresh machine: apt-get update once, then install exactly the missing packages"
check "fresh machine: apt-get is told how long to wait for dpkg's lock (DPkg::Lock::Timeout)" \
	grep -qE '^-o DPkg::Lock::Timeout=[0-9]+ update' "$STATE/apt-get.log"

# dpkg-query that still knows nothing after the install (the real one would
# know): the step trusts apt-get's exit status and goes on
reset_state
touch "$STATE/stateless"
out=$(lib_run 'deps_ensure core 15; deps_ensure core 15') && rc=0 || rc=$?
is "$rc" 0 "stateless dpkg-query: goes on (exit 0)"
is "$(apt_calls_plain)" \
	"update -q
install -y -q --no-install-recommends ${CORE15[*]}
install -y -q --no-install-recommends ${CORE15[*]}" \
	"stateless dpkg-query: apt-get update runs once per script run, install each time it is needed"

# ---------------------------------------------------------------- half installed
reset_state gcc libc6-dev postgresql-15 postgresql-contrib postgresql-server-dev-15 \
	"make deinstall ok config-files"
out=$(lib_run 'deps_ensure core 15') && rc=0 || rc=$?
is "$rc" 0 "some packages missing: exit 0"
is "$(apt_calls_plain)" \
	"update -q
install -y -q --no-install-recommends make postgresql-15-cron" \
	"some packages missing: apt-get installs exactly those (a removed one whose config files stay is missing)"

# ---------------------------------------------------------------- everything there
reset_state "${CORE15[@]}"
out=$(lib_run 'deps_ensure core 15') && rc=0 || rc=$?
is "$rc" 0 "everything installed: exit 0"
check "everything installed: apt-get is not called at all" test ! -e "$STATE/apt-get.log"
is "$(grep -c 'Debian packages' <<<"$out" || true)" 0 "everything installed: nothing said about packages"

# ---------------------------------------------------------------- the test command's list
reset_state
mapfile -t want < <(
	{
		printf '%s\n' "${CORE15[@]}" clang-14 python3 python3-pip
		printf '%s\n' postgresql-15-pgtap libtap-parser-sourcehandler-pgtap-perl libipc-run-perl postgresql-client-15 \
			chromium fonts-dejavu-core python3-pil shellcheck git unzip perl sysbench build-essential debhelper dpkg-dev postgresql-server-dev-all
	} | sort -u
)
out=$(lib_run 'PGBK_PG18_HOME=/nonexistent; pg18_ensure() { echo "pg18_ensure called"; }; deps_ensure all 15 18') &&
	rc=0 || rc=$?
is "$rc" 0 "test command, fresh machine: exit 0"
is "$(apt_calls_plain)" \
	"update -q
install -y -q --no-install-recommends ${want[*]}" \
	"test command, fresh machine: one apt-get install for 15, 18 and the test tools, sorted and without repeats"
has "$out" "test command, fresh machine: PostgreSQL 18 is fetched after the Debian packages" "pg18_ensure called"

# ---------------------------------------------------------------- not root
reset_state
touch "$STATE/not-root"
out=$(lib_run 'deps_ensure core 15') && rc=0 || rc=$?
is "$rc" 0 "a user with sudo: exit 0"
is "$(sed 's/Timeout=[0-9]*/Timeout=N/' "$STATE/sudo.log" 2>/dev/null)" \
	"env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=N update -q
env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=N install -y -q --no-install-recommends ${CORE15[*]}" \
	"a user with sudo: apt-get runs through sudo, update and install"

reset_state
touch "$STATE/not-root"
out=$(lib_run 'deps_ensure core 15' "$NOSUDO/stubs:$NOSUDO/bin") && rc=0 || rc=$?
check "a user without sudo: fails (exit $rc)" test "$rc" -ne 0
has "$out" "a user without sudo: says root rights are needed and names the packages" \
	"needs root rights, and there is no sudo" "${CORE15[*]}"
check "a user without sudo: apt-get is not called" test ! -e "$STATE/apt-get.log"

# ---------------------------------------------------------------- apt-get fails
reset_state postgresql-15 postgresql-contrib
echo update >"$STATE/fail"
out=$(env PATH="$STUBS:$PATH" PGBENCHKIT_DEMO_PORT=5998 timeout 60 "$COPY/scripts/demo.sh" 2>&1) && rc=0 || rc=$?
check "demo, apt-get update failing: exits non-zero (exit $rc)" test "$rc" -ne 0 -a "$rc" -ne 124
has "$out" "demo, apt-get update failing: apt's message, then an error naming the missing packages" \
	"E: (stub) apt-get update refused" "ERROR: apt-get update failed (exit 100" \
	"gcc libc6-dev make postgresql-15-cron postgresql-server-dev-15"
check "demo, apt-get update failing: it stops there" test "$(grep -c -- '---- build' <<<"$out" || true)" -eq 0

reset_state
echo install >"$STATE/fail"
out=$(env PATH="$STUBS:$PATH" timeout 60 "$COPY/scripts/test.sh" --versions 15 --only regress 2>&1) && rc=0 || rc=$?
check "test command, apt-get install failing: exits non-zero (exit $rc)" test "$rc" -ne 0 -a "$rc" -ne 124
has "$out" "test command, apt-get install failing: apt's message, then an error naming the packages" \
	"E: (stub) apt-get install refused" "ERROR: apt-get install failed (exit 100" \
	"postgresql-15-cron" "postgresql-15-pgtap" "shellcheck"

# ---------------------------------------------------------------- the scripts go on
# apt-get succeeds: the demo goes on to its build, which the make stub fails;
# the failure prints the build's log
reset_state
out=$(env PATH="$STUBS:$PATH" PGBENCHKIT_DEMO_PORT=5998 timeout 60 "$COPY/scripts/demo.sh" 2>&1) && rc=0 || rc=$?
check "demo, fresh machine: goes on to the build after installing (exit $rc at the stubbed build)" \
	test "$rc" -ne 0 -a "$rc" -ne 124
has "$out" "demo, fresh machine: installs the missing packages, builds, and a failed build prints its log" \
	"apt-get install ${CORE15[*]}" "---- build and install" "make (stub): refusing to build" "ERROR: the build failed"

reset_state
out=$(env PATH="$STUBS:$PATH" timeout 60 "$COPY/scripts/test.sh" --versions 15 --only regress 2>&1) && rc=0 || rc=$?
check "test command, fresh machine: goes on to the build, fails there (exit $rc)" test "$rc" -ne 0 -a "$rc" -ne 124
has "$out" "test command, fresh machine: the failed build is printed and counted" \
	"[15] build and install" "make (stub): refusing to build" "[15] build FAILED" "0 passed, 1 failed"

# ---------------------------------------------------------------- another package manager
# A process holds a POSIX lock (as dpkg and apt do) on a lock file for 3 s:
# the step waits for it, says who holds it, and calls apt-get once it is free.
hold_lock() {
	local file=$1 secs=$2
	# shellcheck disable=SC2016  # Perl code
	perl -e 'use Fcntl; open(my $fh, ">>", $ARGV[0]) or die "$!";
		my $lock = pack("s s x![q] q q i x4", F_WRLCK, 0, 0, 0, 0);
		fcntl($fh, F_SETLK, $lock) or die "lock: $!";
		print "locked\n"; STDOUT->flush; sleep $ARGV[1];
		open(my $r, ">", $ARGV[2]); close $r' "$file" "$secs" "$STATE/lock-released" >/dev/null &
	HOLDER_PID=$!
	local i
	for ((i = 0; i < 50; i++)); do
		grep -q "^$HOLDER_PID " < <(awk '{ print $5 " " }' /proc/locks) && return 0
		sleep 0.1
	done
	return 1
}
reset_state
: >"$T/dpkg-lock"
if hold_lock "$T/dpkg-lock" 3; then
	out=$(PGBENCHKIT_APT_LOCK_TIMEOUT=60 lib_run "PGBK_APT_LOCKS=('$T/dpkg-lock'); deps_ensure core 15") && rc=0 || rc=$?
	is "$rc" 0 "dpkg lock held for 3 s: waits, then goes on (exit 0)"
	has "$out" "dpkg lock held for 3 s: says who holds it, and when it is free" \
		"waiting for $T/dpkg-lock, held by process $HOLDER_PID" "lock is free: going on" "WENT ON"
	is "$(apt_calls_plain)" \
		"update -q
lock was free
install -y -q --no-install-recommends ${CORE15[*]}
lock was free" \
		"dpkg lock held for 3 s: apt-get runs only after it is released"
else
	fail "could not take a lock for the lock tests"
fi
wait "$HOLDER_PID" 2>/dev/null || true

reset_state
if hold_lock "$T/dpkg-lock" 30; then
	out=$(PGBENCHKIT_APT_LOCK_TIMEOUT=2 lib_run "PGBK_APT_LOCKS=('$T/dpkg-lock'); deps_ensure core 15") && rc=0 || rc=$?
	check "dpkg lock held past the bound: fails (exit $rc)" test "$rc" -ne 0
	check "dpkg lock held past the bound: gives up while the lock is still held (the bound, 2 s, not the holder's 30 s)" \
		kill -0 "$HOLDER_PID"
	has "$out" "dpkg lock held past the bound: says who holds it and how to wait longer" \
		"another package manager still holds $T/dpkg-lock after 2 s" "process $HOLDER_PID" "PGBENCHKIT_APT_LOCK_TIMEOUT"
	check "dpkg lock held past the bound: apt-get is not called" test ! -e "$STATE/apt-get.log"
else
	fail "could not take a lock for the lock tests"
fi
kill "$HOLDER_PID" 2>/dev/null || true
wait "$HOLDER_PID" 2>/dev/null || true
HOLDER_PID=""

# ---------------------------------------------------------------- a clone in /root
# As root, the server-side steps run as postgres, which must reach the
# clone: a private parent folder gets o+x, and says so.
if [[ $(id -u) -eq 0 ]] && id postgres >/dev/null 2>&1; then
	mkdir -p "$T/private/home/repo"
	cp "$REPO/Makefile" "$T/private/home/repo/"
	chmod 755 "$T/private/home/repo"
	chmod 644 "$T/private/home/repo/Makefile"
	chmod 700 "$T/private" "$T/private/home"
	out=$(lib_run "PGBK_REPO='$T/private/home/repo'; ensure_pg_can_reach_repo") && rc=0 || rc=$?
	is "$rc" 0 "a clone in a private folder, as root: the postgres user is let in (exit 0)"
	has "$out" "a clone in a private folder, as root: each folder changed is named, with how to undo it" \
		"chmod o+x $T/private/home (to take it back later: chmod o-x $T/private/home)" \
		"chmod o+x $T/private (to take it back later"
	check "a clone in a private folder, as root: postgres can read the Makefile now" \
		runuser -u postgres -- test -r "$T/private/home/repo/Makefile"
	is "$(stat -c %a "$T/private")" 701 "a clone in a private folder, as root: only search rights were added"
	chmod 600 "$T/private/home/repo/Makefile"
	out=$(lib_run "PGBK_REPO='$T/private/home/repo'; ensure_pg_can_reach_repo") && rc=0 || rc=$?
	check "files unreadable to others (umask 077): fails (exit $rc)" test "$rc" -ne 0
	has "$out" "files unreadable to others (umask 077): says how to fix it" "chmod -R o+rX $T/private/home/repo"
fi

# ---------------------------------------------------------------- no silent exit
# shellcheck disable=SC2016  # code for the inner bash
out=$(lib_run 'quiet() { local x; x=$(printf "no newline"); grep -q never-there /dev/null; }; quiet') && rc=0 || rc=$?
check "a failing command ends the script with an error (exit $rc)" test "$rc" -ne 0
has "$out" "the error names the command, its exit status and where it failed" \
	"ERROR: command failed with exit status 1: grep -q never-there /dev/null" "(quiet)"

out=$(lib_run 'check_version 17') && rc=0 || rc=$?
check "die: exits non-zero (exit $rc)" test "$rc" -ne 0
has "$out" "die: says why" "ERROR: unsupported PostgreSQL version '17'"

out=$(env PATH="$PATH" "$COPY/scripts/demo.sh" frobnicate 2>&1) && rc=0 || rc=$?
check "demo, unknown subcommand: exits non-zero (exit $rc)" test "$rc" -ne 0
has "$out" "demo, unknown subcommand: says so" "ERROR: unknown subcommand: frobnicate"
out=$(env PATH="$PATH" "$COPY/scripts/test.sh" --only nonsense 2>&1) && rc=0 || rc=$?
check "test command, unknown suite: exits non-zero (exit $rc)" test "$rc" -ne 0
has "$out" "test command, unknown suite: says so" "ERROR: unknown suite 'nonsense'"
out=$(PGBENCHKIT_APT_LOCK_TIMEOUT=soon lib_run 'true') && rc=0 || rc=$?
check "a lock timeout that is not a number: exits non-zero (exit $rc)" test "$rc" -ne 0
has "$out" "a lock timeout that is not a number: says so" "PGBENCHKIT_APT_LOCK_TIMEOUT must be a number of seconds"

# ---------------------------------------------------------------- shellcheck
scripts=()
while IFS= read -r f; do scripts+=("$f"); done < <(
	cd "$REPO" && {
		ls scripts/*.sh test/*.sh bench/*.sh .ci/run 2>/dev/null
		grep -rlE '^#!.*\b(ba)?sh\b' scripts/debian 2>/dev/null || true
	}
)
if command -v shellcheck >/dev/null; then
	if sc=$(cd "$REPO" && shellcheck -x "${scripts[@]}" 2>&1); then
		pass "shellcheck: no warnings in ${#scripts[@]} scripts (${scripts[*]})"
	else
		fail "shellcheck: warnings" "$sc"
	fi
else
	fail "shellcheck is not installed (Debian package shellcheck)"
fi

tap_plan
