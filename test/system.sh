#!/usr/bin/env bash
# The test command leaves the system's pgbenchkit as it found it.  TAP
# output; scripts/test.sh runs it around everything else when it runs the
# packages suite (the whole command, CI, --only packages).
#
#   test/system.sh begin     before the suites
#   test/system.sh end       after them
#   test/system.sh cleanup   (no TAP) what `begin` installed, removed; the
#                            test command's exit calls it when it stops
#                            between begin and end
#
# begin: lists every pgbenchkit file of the system (find /usr -path
#   '*pgbenchkit*': the library, its bitcode, the control file and scripts,
#   a package's documentation) and the dpkg status of any
#   postgresql-NN-pgbenchkit package.  When there is none of them, it plays
#   a user who installed pgbenchkit: this tree, built with PostgreSQL 15's
#   pg_config and installed with make install into the system's folders,
#   and it writes down what that added.  Then it takes the snapshot: for
#   each file its sha256, size, mode, owner, inode and modification time
#   (so a file rewritten with the same bytes counts as touched too), for
#   each folder and link theirs, and the package's status.
# end: the same snapshot again, which must be the one of begin, line for
#   line; then it removes what begin installed, and only that, and checks
#   that the system's pgbenchkit files are again what begin found.
#
# State in .work/system/.  Needs root rights (sudo when not root) to
# install and remove the user's installation it plays.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
# shellcheck source=test/tap.sh
source "$PGBK_REPO/test/tap.sh"

STEP=${1:-}
STATE=$PGBK_REPO/.work/system
FOUND=$STATE/found          # the paths begin found, before installing anything
BEFORE=$STATE/before        # the snapshot of begin
OURS=$STATE/installed-by-test   # what begin installed: "sha256 path" or "dir path"
SYS_PGC=$PGBK_PG15_SYSTEM_HOME/bin/pg_config

# every path of pgbenchkit under /usr, sorted (a name with pgbenchkit, and
# what is below it: the bitcode's folder); not this repository's, should it
# be under /usr
system_paths() {
	find /usr -path "$PGBK_REPO" -prune -o -path '*pgbenchkit*' -print 2>/dev/null | LC_ALL=C sort
}

# the packages of pgbenchkit dpkg knows, with their status and version
package_status() {
	local out
	out=$(dpkg-query -W -f='${binary:Package} ${db:Status-Abbrev}${Version}\n' 'postgresql-*-pgbenchkit' \
		2>/dev/null) || true
	echo "package: ${out:-(none)}"
}

# snapshot: one line per path, then the packages
snapshot() {
	local p
	while IFS= read -r p; do
		if [[ -L $p ]]; then
			printf 'link %s -> %s\n' "$p" "$(readlink "$p")"
		elif [[ -d $p ]]; then
			printf 'dir %s %s\n' "$p" "$(stat -c '%a %U:%G' "$p")"
		else
			printf 'file %s %s %s\n' "$p" "$(sha256sum <"$p" | cut -d' ' -f1)" \
				"$(stat -c 'size=%s mode=%a owner=%U:%G inode=%i mtime=%Y' "$p")"
		fi
	done < <(system_paths)
	package_status
}

# Remove what begin installed, when it is still what begin installed; says
# what it did as TAP comments.  Returns 1 if something could not be
# removed or was not ours any more.
remove_ours() {
	[[ -f $OURS ]] || return 0
	local kind sum p rc=0 dirs=()
	while read -r kind sum p; do
		case $kind in
		file)
			if [[ ! -e $p ]]; then
				continue
			elif [[ $(sha256sum <"$p" | cut -d' ' -f1) == "$sum" ]]; then
				as_root rm -f "$p" || rc=1
			else
				diag "not removed: $p is not the file this test installed any more"
				rc=1
			fi
			;;
		dir) dirs+=("$sum") ;;
		esac
	done <"$OURS"
	# folders deepest first, and only when empty
	local d
	while IFS= read -r d; do
		[[ -d $d ]] || continue
		as_root rmdir "$d" 2>/dev/null || { diag "not removed: $d is not empty"; rc=1; }
	done < <(printf '%s\n' "${dirs[@]}" | awk 'NF' | LC_ALL=C sort -r)
	rm -f "$OURS"
	return "$rc"
}

case $STEP in
# ---------------------------------------------------------------- begin
begin)
	mkdir -p "$STATE"
	if [[ -f $OURS ]]; then
		diag "a run stopped before its end left the installation it made: removing it first"
		remove_ours || true
	fi
	rm -f "$BEFORE"
	system_paths >"$FOUND"
	diag "found: $(grep -c . "$FOUND" || true) paths of pgbenchkit under /usr; $(package_status)"
	if [[ -s $FOUND ]] || [[ $(package_status) != "package: (none)" ]]; then
		pass "a pgbenchkit installed before, to keep as it is ($(grep -c . "$FOUND" || true) paths under /usr)"
		awk 'NR <= 20 { print "#   " $0 }' "$FOUND"
	else
		# a user's installation: make install of this tree into the system
		src=$STATE/src
		stage_source "$src"
		rc=0
		{
			make -C "$src" -s PG_CONFIG="$SYS_PGC" clean &&
				make -C "$src" PG_CONFIG="$SYS_PGC" -j"$(nproc)" &&
				as_root make -C "$src" PG_CONFIG="$SYS_PGC" install
		} >"$STATE/install.log" 2>&1 || rc=$?
		: >"$OURS"
		while IFS= read -r p; do
			if [[ -d $p && ! -L $p ]]; then
				echo "dir $p"
			else
				echo "file $(sha256sum <"$p" | cut -d' ' -f1) $p"
			fi
		done < <(LC_ALL=C comm -13 "$FOUND" <(system_paths)) >>"$OURS"
		rm -rf "$src"
		if ((rc == 0)) && [[ -f $PGBK_PG15_SYSTEM_HOME/lib/pgbenchkit.so ]]; then
			pass "no pgbenchkit on this system: this tree, installed by make install into PostgreSQL 15, plays a user's installation ($(grep -c . "$OURS") paths)"
		else
			fail "no pgbenchkit on this system: this tree, installed by make install into PostgreSQL 15, plays a user's installation" \
				"exit status $rc; the end of the log:" "$(tail -n 40 "$STATE/install.log")"
		fi
	fi
	snapshot >"$BEFORE"
	files=$(grep -c '^file ' "$BEFORE" || true)
	check_diag "the snapshot holds the files of an installation ($files files; the library among them)" \
		"$(cat "$BEFORE")" grep -q "^file $PGBK_PG15_SYSTEM_HOME/lib/pgbenchkit.so \|^package: .* ii " "$BEFORE"
	;;
# ---------------------------------------------------------------- end
end)
	if [[ ! -f $BEFORE ]]; then
		fail "the snapshot of begin is there ($BEFORE)"
	else
		after=$(snapshot)
		changed=$(diff "$BEFORE" - <<<"$after") || true
		files=$(grep -c '^file ' "$BEFORE" || true)
		if [[ -z $changed ]]; then
			pass "the system's pgbenchkit is untouched: $files files the same bytes (sha256), inode, mode, owner and mtime, and the same package status"
		else
			fail "the system's pgbenchkit is untouched: $files files the same bytes (sha256), inode, mode, owner and mtime, and the same package status" \
				"what changed (< at the start, > now):" "$changed"
		fi
		if [[ -f $OURS ]]; then
			n=$(grep -c . "$OURS" || true)
			if remove_ours; then
				pass "the user's installation this test made is removed ($n paths)"
			else
				fail "the user's installation this test made is removed ($n paths)"
			fi
		fi
		now=$(system_paths)
		is "$now" "$(cat "$FOUND")" "the pgbenchkit paths under /usr are those found at the start ($(grep -c . "$FOUND" || true))"
		rm -f "$BEFORE"
	fi
	;;
# ---------------------------------------------------------------- cleanup
cleanup)
	remove_ours || exit 1
	exit 0
	;;
*)
	die "usage: test/system.sh begin|end|cleanup"
	;;
esac
tap_plan || exit 1
