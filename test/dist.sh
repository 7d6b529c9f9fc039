#!/usr/bin/env bash
# Test of the PGXN release: META.json against the PGXN Meta Spec, and the
# zip `make dist` makes.  TAP output; exit status 1 if any check failed.
#
#   test/dist.sh
#
#   1. test/pgxn-meta.pl accepts the repository's META.json, and valid
#      variants of it;
#   2. it rejects broken copies of it, each with a message naming the bad
#      field;
#   3. `make dist` in work-tree mode (PGBK_DIST_WORKTREE=1) writes
#      pgbenchkit-VERSION.zip into a temporary folder: every entry under
#      pgbenchkit-VERSION/, the files a build needs, nothing of .ci/ or git;
#   4. the zip, unpacked in a temporary folder, builds from clean against
#      PostgreSQL 15 (PG_CONFIG, by default Debian's) into pgbenchkit.so,
#      and its META.json validates against its own files;
#   5. scripts/dist.sh refuses a version that is not the one of META.json,
#      and a folder that is not a git checkout.
#
# Needs git, perl, unzip, make, a C compiler and PostgreSQL 15's server
# headers; installs nothing, into PostgreSQL or elsewhere.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
VALIDATOR=$REPO/test/pgxn-meta.pl
START=$SECONDS

TMP=$(mktemp -d "${TMPDIR:-/tmp}/pgbk-dist-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# shellcheck source=scripts/lib.sh
source "$REPO/scripts/lib.sh"
# shellcheck source=test/tap.sh
source "$REPO/test/tap.sh"

# a file's last lines, for diagnostics
tail_of() { tail -n "${2:-30}" "$1" 2>/dev/null || true; }
# line_with_all TEXT WORD...: has TEXT a line containing every WORD?
line_with_all() {
	local text=$1 line w
	shift
	while IFS= read -r line; do
		for w in "$@"; do
			[[ $line == *"$w"* ]] || continue 2
		done
		return 0
	done <<<"$text"
	return 1
}
# does the output in $1 have a line beginning with "$2: "?
names_path() {
	local line
	while IFS= read -r line; do
		[[ $line == "$2: "* ]] && return 0
	done <<<"$1"
	return 1
}

for tool in git perl unzip make; do
	command -v "$tool" >/dev/null || {
		echo "Bail out! $tool is not installed (the test needs git, perl, unzip and make)"
		exit 1
	}
done

VERSION=$(makefile_version "$REPO/Makefile")
if [[ -z $VERSION ]]; then
	echo "Bail out! no EXTVERSION in $REPO/Makefile"
	exit 1
fi
NAME=pgbenchkit-$VERSION
diag "release $NAME (the Makefile's EXTVERSION)"

# ---------------------------------------------------------------- 1. valid
if out=$(perl "$VALIDATOR" --root "$REPO" "$REPO/META.json" 2>&1) && [[ $out == "META.json is valid"* ]]; then
	pass "the validator accepts the repository's META.json"
else
	fail "the validator accepts the repository's META.json" "$out"
fi

# mutate NAME PERL-CODE: a copy of META.json in $TMP/meta/NAME/, changed by
# PERL-CODE (which edits the decoded $m); prints the copy's path
mutate() {
	local dir=$TMP/meta/$1
	mkdir -p "$dir"
	perl -MJSON::PP -e '
		my $json = JSON::PP->new->utf8->canonical->pretty;
		my $m = $json->decode(do { local $/; <STDIN> });
		eval "$ARGV[0]; 1" or die "mutation failed: $@";
		print $json->encode($m);
	' "$2" <"$REPO/META.json" >"$dir/META.json"
	echo "$dir/META.json"
}

# variants the spec allows: each must be accepted
while IFS='|' read -r desc code; do
	[[ -n $desc ]] || continue
	file=$(mutate "valid-${TAP_N}" "$code")
	if out=$(perl "$VALIDATOR" --root "$REPO" "$file" 2>&1); then
		pass "accepted: $desc"
	else
		fail "accepted: $desc" "$code" "$out"
	fi
done <<'EOF'
license as a list of license strings|$m->{license} = ["postgresql", "mit"]
license as an object of name to URI|$m->{license} = {PostgreSQL => "https://www.postgresql.org/about/licence"}
maintainer as one string|$m->{maintainer} = 'A Maintainer <maintainer@example.org>'
version with a special part (1.0.0-beta1, 1.0.0beta1)|$m->{version} = "1.0.0-beta1"; $m->{provides}{pgbenchkit}{version} = "1.0.0beta1"
version range ">= 14.0.0, != 15.0.0, < 19.0.0" and "0"|$m->{prereqs}{runtime}{requires}{PostgreSQL} = ">= 14.0.0, != 15.0.0, < 19.0.0"; $m->{prereqs}{test}{requires}{pgtap} = "0"
custom keys with x_ and X_ prefixes|$m->{x_ci} = {anything => [1]}; $m->{X_note} = "x"; $m->{resources}{x_chat} = "irc"
resources with bugtracker and repository|$m->{resources}{bugtracker} = {web => "https://example.org/issues", mailto => 'bugs@example.org'}; $m->{resources}{repository} = {url => "https://example.org/r.git", web => "https://example.org/r", type => "git"}
EOF

# ---------------------------------------------------------------- 2. broken
# description | perl code | the path the message must name
while IFS='|' read -r desc code path; do
	[[ -n $desc ]] || continue
	file=$(mutate "broken-${TAP_N}" "$code")
	rc=0
	out=$(perl "$VALIDATOR" --root "$REPO" "$file" 2>&1) || rc=$?
	if ((rc == 1)) && names_path "$out" "$path"; then
		pass "rejected, naming $path: $desc"
	else
		fail "rejected, naming $path: $desc" "$code" "exit status $rc, output:" "$out"
	fi
done <<'EOF'
"version" missing|delete $m->{version}|version
version "1.0"|$m->{version} = "1.0"|version
version "01.0.0" (a leading zero)|$m->{version} = "01.0.0"|version
version given as a number|$m->{version} = 1|version
release_status "beta"|$m->{release_status} = "beta"|release_status
license "gpl-9"|$m->{license} = "gpl-9"|license
license list with an unknown string|$m->{license} = ["postgresql", "gpl_9"]|license[1]
provides file that does not exist|$m->{provides}{pgbenchkit}{file} = "control/pgbenchkit--0.0.9.sql"|provides.pgbenchkit.file
provides docfile that does not exist|$m->{provides}{pgbenchkit}{docfile} = "doc/pgbenchkit.md"|provides.pgbenchkit.docfile
provides without version|delete $m->{provides}{pgbenchkit}{version}|provides.pgbenchkit.version
prereqs phase "runtim"|$m->{prereqs}{runtim} = delete $m->{prereqs}{runtime}|prereqs.runtim
prereqs relationship "require"|$m->{prereqs}{build}{require} = delete $m->{prereqs}{build}{requires}|prereqs.build.require
version range ">= 14"|$m->{prereqs}{runtime}{requires}{PostgreSQL} = ">= 14"|prereqs.runtime.requires.PostgreSQL
version range operator "=>"|$m->{prereqs}{runtime}{requires}{PostgreSQL} = "=> 14.0.0"|prereqs.runtime.requires.PostgreSQL
unknown top-level key without x_ prefix|$m->{homepage} = "https://pgxn.org/dist/pgbenchkit/"|homepage
resources.bugtracker as a string|$m->{resources}{bugtracker} = "https://example.org/issues"|resources.bugtracker
resources.homepage not a URI|$m->{resources}{homepage} = "pgxn.org/dist/pgbenchkit"|resources.homepage
maintainer an empty list|$m->{maintainer} = []|maintainer
meta-spec version 2.0.0|$m->{"meta-spec"}{version} = "2.0.0"|meta-spec.version
tag with a slash|$m->{tags} = ["benchmark", "tpc/b"]|tags[1]
EOF

# ---------------------------------------------------------------- not git
# A tree that is not a git checkout (an unpacked release): make dist cannot
# run here, and must say so.
if ! git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1; then
	rc=0
	out=$("$REPO/scripts/dist.sh" --output "$TMP/refused" "$VERSION" 2>&1) || rc=$?
	check_diag "outside a git checkout, scripts/dist.sh fails" "exit status $rc; $out" test "$rc" -ne 0
	check_diag "... saying it is not a git checkout" "$out" line_with_all "$out" "not a git checkout"
	skip "make dist, the zip unpacked and built" "$REPO is not a git checkout"
	diag "$((SECONDS - START)) s"
	tap_plan
	exit
fi

# ---------------------------------------------------------------- 3. make dist
OUT=$TMP/out
mkdir -p "$OUT"
ZIP=$OUT/$NAME.zip
stash_before=$(git -C "$REPO" rev-parse -q --verify refs/stash || true)
rc=0
env PGBK_DIST_WORKTREE=1 PGBK_DIST_OUTDIR="$OUT" make -C "$REPO" -s PG_CONFIG="$PG_CONFIG" dist >"$TMP/dist.log" 2>&1 || rc=$?
check_diag "make dist (work tree) exits 0 and writes $NAME.zip" "exit status $rc" test "$rc" -eq 0 -a -f "$ZIP"
diag "$(cat "$TMP/dist.log")"
stash_after=$(git -C "$REPO" rev-parse -q --verify refs/stash || true)
check_diag "make dist left the stash list as it was" "refs/stash was '$stash_before', is '$stash_after'" \
	test "$stash_before" = "$stash_after"

entries=()
[[ -f $ZIP ]] && mapfile -t entries < <(unzip -Z1 "$ZIP")
outside=()
for e in "${entries[@]}"; do
	[[ $e == "$NAME/"* ]] || outside+=("$e")
done
check_diag "the zip's ${#entries[@]} entries all start with $NAME/" "not under $NAME/: ${outside[*]:0:10}" \
	test "${#entries[@]}" -gt 0 -a "${#outside[@]}" -eq 0

has_entry() {
	local e
	for e in "${entries[@]}"; do [[ $e == "$1" ]] && return 0; done
	return 1
}
missing=()
for f in META.json Makefile README.md control/pgbenchkit.control; do
	has_entry "$NAME/$f" || missing+=("$f")
done
check_diag "the zip has META.json, Makefile, README.md, control/pgbenchkit.control" \
	"missing: ${missing[*]}" test "${#missing[@]}" -eq 0

mapfile -t sources < <(cd "$REPO" && git ls-files 'src/*.c' 'src/*.h' 'control/install/*.sql' 'control/sql/*.sql' 'control/upgrade/*.sql' 'scripts/build-sql.pl')
missing=()
for f in "${sources[@]}"; do
	has_entry "$NAME/$f" || missing+=("$f")
done
check_diag "the zip has the ${#sources[@]} tracked files of src/*.c, src/*.h, control/install/, control/sql/, control/upgrade/ and scripts/build-sql.pl" \
	"missing: ${missing[*]}" test "${#sources[@]}" -gt 0 -a "${#missing[@]}" -eq 0

unwanted=()
for e in "${entries[@]}"; do
	case /${e#"$NAME"/} in
	/.ci | /.ci/* | /.git | /.git/* | /.gitignore | /.gitattributes) unwanted+=("$e") ;;
	esac
done
check_diag "the zip has nothing of .ci/, .git, .gitignore or .gitattributes" "found: ${unwanted[*]:0:10}" \
	test "${#unwanted[@]}" -eq 0

# work-tree mode archives the work tree: its META.json is the zip's
rc=0
unzip -p "$ZIP" "$NAME/META.json" >"$TMP/zip-META.json" 2>"$TMP/unzip-p.log" || rc=$?
check_diag "the zip's META.json is the work tree's" "$(tail_of "$TMP/unzip-p.log")" \
	cmp -s "$TMP/zip-META.json" "$REPO/META.json"

# ---------------------------------------------------------------- 4. build it
BUILD=$TMP/build
mkdir -p "$BUILD"
rc=0
[[ -f $ZIP ]] && { unzip -q "$ZIP" -d "$BUILD" >"$TMP/unzip.log" 2>&1 || rc=$?; }
SRC=$BUILD/$NAME
check_diag "the zip unpacks into $NAME/" "exit status $rc; $(tail_of "$TMP/unzip.log")" test "$rc" -eq 0 -a -f "$SRC/Makefile"

leftovers=$(cd "$BUILD" && find . -name '*.o' -o -name '*.so' -o -name '*.bc' | head -n 5)
check_diag "the unpacked tree has no build products (a clean build)" "found: $leftovers" test -z "$leftovers"

if [[ ! -x $PG_CONFIG ]]; then
	fail "build the unpacked zip against PostgreSQL 15" "no $PG_CONFIG (set PG_CONFIG)"
else
	rc=0
	make -C "$SRC" PG_CONFIG="$PG_CONFIG" -j"$(nproc)" >"$TMP/build.log" 2>&1 || rc=$?
	check_diag "make PG_CONFIG=$PG_CONFIG in the unpacked zip builds pgbenchkit.so ($("$PG_CONFIG" --version))" \
		"exit status $rc; $(tail_of "$TMP/build.log" 40)" test "$rc" -eq 0 -a -f "$SRC/pgbenchkit.so"
	check_diag "... and the install script control/build/pgbenchkit--$VERSION.sql, from the pieces of control/install/ and the texts of control/sql/" \
		"$(ls -R "$SRC/control" 2>&1)" grep -q '^CREATE TABLE bench._runs ' "$SRC/control/build/pgbenchkit--$VERSION.sql"
	FROM=$(sed -n 's/^UPGRADE_FROM *= *//p' "$SRC/Makefile")
	check_diag "... and the upgrade script control/build/pgbenchkit--$FROM--$VERSION.sql, from control/upgrade/ and control/sql/" \
		"$(ls -R "$SRC/control" 2>&1)" grep -q '^CREATE OR REPLACE FUNCTION bench._create_run_function(' \
		"$SRC/control/build/pgbenchkit--$FROM--$VERSION.sql"
fi

rc=0
out=$(perl "$VALIDATOR" --root "$SRC" "$SRC/META.json" 2>&1) || rc=$?
check_diag "the zip's META.json validates with --root at the unpacked folder" "exit status $rc; $out" \
	test "$rc" -eq 0

# ---------------------------------------------------------------- 5. refusals
REFUSED=$TMP/refused
rc=0
out=$(PGBK_DIST_WORKTREE=1 "$REPO/scripts/dist.sh" --output "$REFUSED" 9.9.9 2>&1) || rc=$?
meta_version=$(perl -MJSON::PP -e 'local $/; print JSON::PP->new->decode(<STDIN>)->{version}' <"$REPO/META.json")
check_diag "scripts/dist.sh 9.9.9 fails" "exit status $rc; $out" test "$rc" -ne 0
check_diag "... saying both versions, 9.9.9 and META.json's $meta_version, in one line" "$out" \
	line_with_all "$out" 9.9.9 META.json "$meta_version"
check_diag "... and makes no zip" "$(ls -A "$REFUSED" 2>&1 || true)" test ! -e "$REFUSED/pgbenchkit-9.9.9.zip"

# outside a git checkout (the unpacked zip, given the dist script of the work
# tree in case the archive does not have it)
if [[ -d $SRC ]]; then
	mkdir -p "$SRC/scripts" "$SRC/test"
	cp "$REPO/scripts/dist.sh" "$REPO/scripts/lib.sh" "$SRC/scripts/"
	cp "$VALIDATOR" "$SRC/test/"
	rc=0
	out=$("$SRC/scripts/dist.sh" --output "$REFUSED" "$VERSION" 2>&1) || rc=$?
	check_diag "scripts/dist.sh outside a git checkout fails" "exit status $rc; $out" test "$rc" -ne 0
	check_diag "... saying it is not a git checkout" "$out" line_with_all "$out" "not a git checkout"
else
	fail "scripts/dist.sh outside a git checkout fails saying so" "no unpacked zip to try it in"
fi

diag "$((SECONDS - START)) s"
tap_plan
