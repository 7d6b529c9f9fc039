#!/usr/bin/env bash
# The PGXN release zip of pgbenchkit (what `make dist` runs).
#
#   scripts/dist.sh [--worktree] [--output DIR] VERSION
#
# Makes pgbenchkit-VERSION.zip with git archive, every entry under
# pgbenchkit-VERSION/ as PGXN expects, leaving out what .gitattributes marks
# export-ignore.  Before writing it, it checks the tree being archived: the
# versions must agree (VERSION, the Makefile's EXTVERSION, default_version
# of control/pgbenchkit.control, "version" and provides.pgbenchkit.version
# of META.json), the pieces and texts the build makes the install and
# upgrade scripts of (control/install/*.sql, control/sql/*/*.sql, with
# scripts/build-sql.pl) must be there, and META.json must validate against
# the PGXN Meta Spec (test/pgxn-meta.pl).  It refuses to make the zip otherwise.
#
#   VERSION         the release's version; `make dist` passes EXTVERSION
#   --worktree      archive the work tree's tracked files as they are now,
#                   uncommitted changes included (env PGBK_DIST_WORKTREE=1);
#                   by default the committed HEAD is archived
#   --head          archive HEAD even if PGBK_DIST_WORKTREE=1
#   --output DIR    where to write the zip (env PGBK_DIST_OUTDIR); by
#                   default the repository's top folder
#
# Untracked files are never archived (git add them first).
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DIST=pgbenchkit

usage() {
	sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}

version=""
worktree=${PGBK_DIST_WORKTREE:-0}
outdir=${PGBK_DIST_OUTDIR:-}
while (($#)); do
	case $1 in
	--worktree) worktree=1 ;;
	--head) worktree=0 ;;
	--output | -o)
		(($# >= 2)) || die "$1 needs a folder"
		outdir=$2
		shift
		;;
	--output=*) outdir=${1#--output=} ;;
	-h | --help)
		usage
		exit 0
		;;
	-*) die "unknown option '$1' (see scripts/dist.sh --help)" ;;
	*)
		[[ -z $version ]] || die "one version only, got '$version' and '$1'"
		version=$1
		;;
	esac
	shift
done
[[ -n $version ]] || die "no version given: scripts/dist.sh [--worktree] [--output DIR] VERSION (make dist passes the Makefile's EXTVERSION)"
[[ $version =~ ^[0-9A-Za-z][0-9A-Za-z.+-]*$ ]] || die "'$version' is not a version (expected something like 1.2.0)"
case $worktree in
0 | 1) ;;
*) die "PGBK_DIST_WORKTREE must be 0 or 1, not '$worktree'" ;;
esac
outdir=${outdir:-$PGBK_REPO}

# ---------------------------------------------------------------- git
command -v git >/dev/null || die "git is not installed: the release zip is made with git archive"
cd "$PGBK_REPO"
if ! top=$(git rev-parse --show-toplevel 2>&1); then
	die "$PGBK_REPO is not a git checkout (git says: $top); the release zip is made with git archive from a clone of the repository"
fi
if [[ $(cd "$top" && pwd -P) != "$(pwd -P)" ]]; then
	die "$PGBK_REPO is not a git checkout of its own (it lies inside the checkout $top); the release zip is made with git archive from a clone of pgbenchkit"
fi
head=$(git rev-parse -q --verify 'HEAD^{commit}') || die "the repository has no commit yet: nothing to archive"
short=${head:0:12}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgbk-dist.XXXXXX")
partial=""
cleanup() {
	rm -rf "$tmp"
	[[ -z $partial ]] || rm -f "$partial"
}
trap cleanup EXIT

prefix="$DIST-$version/"
zipname="$DIST-$version.zip"
attrs=()
if ((worktree)); then
	# git stash create makes a commit of the work tree's tracked files
	# without touching the work tree, the index or the stash list; it prints
	# nothing when there is nothing uncommitted.  It needs a committer
	# identity, which a CI machine may lack: any will do for a commit that
	# lives only until git gc.
	ident=()
	git var GIT_COMMITTER_IDENT >/dev/null 2>&1 ||
		ident=(-c user.name="$DIST dist" -c user.email="dist@$DIST.invalid")
	if ! commit=$(git "${ident[@]}" stash create "make dist: work tree of $short" 2>"$tmp/stash.err"); then
		die "git stash create failed (it makes the commit of the work tree to archive): $(cat "$tmp/stash.err")"
	fi
	if [[ -n $commit ]]; then
		what="the work tree (tracked files with their uncommitted changes, on top of HEAD $short)"
	else
		commit=$head
		what="HEAD $short (the work tree has no uncommitted changes)"
	fi
	# the work tree's .gitattributes decides what is left out, even when it
	# is not committed yet
	attrs=(--worktree-attributes)
	mapfile -t untracked < <(git ls-files --others --exclude-standard)
	if ((${#untracked[@]})); then
		warn "${#untracked[@]} untracked file(s) are not in the zip (git add them to include them):" \
			"${untracked[*]:0:10}$( ((${#untracked[@]} > 10)) && echo " ...")"
	fi
else
	commit=$head
	what="HEAD $short"
	mapfile -t changed < <(git status --porcelain --untracked-files=no | cut -c4-)
	if ((${#changed[@]})); then
		warn "the work tree has uncommitted changes to ${#changed[@]} tracked file(s) (${changed[*]:0:10}$( ((${#changed[@]} > 10)) && echo " ..."));" \
			"the zip is made from HEAD $short without them (--worktree or PGBK_DIST_WORKTREE=1 includes them)"
	fi
fi

# ---------------------------------------------------------------- checks
# Check exactly what goes into the zip: the same archive, as a tar, unpacked.
if ! git archive "${attrs[@]}" --format=tar --prefix="$prefix" "$commit" | tar -C "$tmp" -xf -; then
	die "git archive of $what failed (see above)"
fi
tree=$tmp/$DIST-$version

problems=()
problem() { problems+=("$*"); }

# Makefile's EXTVERSION
if [[ -f $tree/Makefile ]]; then
	mk_version=$(makefile_version "$tree/Makefile")
	if [[ -z $mk_version ]]; then
		problem "Makefile sets no EXTVERSION"
	elif [[ $mk_version != "$version" ]]; then
		problem "version $version was asked for, but the Makefile's EXTVERSION is $mk_version"
	fi
else
	problem "there is no Makefile in $what"
fi

# control file's default_version
control=control/$DIST.control
if [[ -f $tree/$control ]]; then
	ctl_version=$(control_version "$tree/$control")
	if [[ -z $ctl_version ]]; then
		problem "$control has no default_version"
	elif [[ $ctl_version != "$version" ]]; then
		problem "version $version was asked for, but $control has default_version = '$ctl_version'"
	fi
else
	problem "there is no $control in $what"
fi

# the pieces the build makes the install script of
if ! compgen -G "$tree/control/install/*.sql" >/dev/null; then
	problem "there are no pieces of the install script (control/install/*.sql) in $what"
fi
if ! compgen -G "$tree/control/sql/functions/*.sql" >/dev/null || ! compgen -G "$tree/control/sql/views/*.sql" >/dev/null; then
	problem "there are no texts of functions and views (control/sql/functions/*.sql, control/sql/views/*.sql) in $what"
fi
if [[ ! -f $tree/scripts/build-sql.pl ]]; then
	problem "there is no scripts/build-sql.pl (what builds the install and upgrade scripts) in $what"
fi

# META.json: name, version, provides.<name>.version
if [[ -f $tree/META.json ]]; then
	# shellcheck disable=SC2016  # perl code, not shell expansions
	if meta=$(perl -MJSON::PP -e '
		my $m = eval { local $/; JSON::PP->new->utf8->decode(scalar <STDIN>) } or exit 1;
		ref $m eq "HASH" or exit 1;
		my $p = ref $m->{provides} eq "HASH" && ref $m->{provides}{$ARGV[0]} eq "HASH" ? $m->{provides}{$ARGV[0]} : {};
		print join("\t", map { defined && !ref ? $_ : "(none)" } $m->{name}, $m->{version}, $p->{version}), "\n";
	' "$DIST" <"$tree/META.json"); then
		IFS=$'\t' read -r meta_name meta_version meta_ext_version <<<"$meta"
		[[ $meta_name == "$DIST" ]] ||
			problem "META.json \"name\" is $meta_name, not $DIST"
		[[ $meta_version == "$version" ]] ||
			problem "version $version was asked for, but META.json \"version\" is $meta_version"
		[[ $meta_ext_version == "$version" ]] ||
			problem "version $version was asked for, but META.json provides.$DIST.version is $meta_ext_version"
	else
		problem "META.json is not a JSON object (see the validator's output below)"
	fi
	validator=$PGBK_REPO/test/pgxn-meta.pl
	if [[ ! -f $validator ]]; then
		problem "the META.json validator $validator is missing"
	elif ! out=$(perl "$validator" --root "$tree" "$tree/META.json" 2>&1); then
		report=""
		while IFS= read -r line; do report+=$'\n'"      ${line//"$tree/"/}"; done <<<"$out"
		problem "META.json does not validate against the PGXN Meta Spec:$report"
	fi
else
	problem "there is no META.json in $what"
fi

if ((${#problems[@]})); then
	printf '[pgbenchkit] ERROR: %s\n' "cannot make $zipname from $what:" >&2
	printf '  - %s\n' "${problems[@]}" >&2
	die "refusing to make $zipname (${#problems[@]} problem(s) above)"
fi

# ---------------------------------------------------------------- the zip
mkdir -p "$outdir" || die "cannot create the output folder $outdir"
out=$(cd "$outdir" && pwd)/$zipname
partial=$out.partial.$$
git archive "${attrs[@]}" --format=zip --prefix="$prefix" -o "$partial" "$commit" ||
	die "git archive --format=zip of $what into $partial failed"
mv -f "$partial" "$out" || die "cannot move $partial to $out"
partial=""
files=$(find "$tree" -type f | wc -l)
log "made $out ($files files, $(wc -c <"$out") bytes) from $what"
