#!/usr/bin/env bash
# Build the Debian package of pgbenchkit (`make deb` runs this).
#
#   scripts/deb.sh
#
#   1. installs the build dependencies that are missing (Debian packages:
#      apt-get, with sudo when not root),
#   2. copies the work tree (committed or not) to
#      .work/deb/pgbenchkit-<version>/ and the packaging files of
#      scripts/debian/ into it as debian/ (the repository itself has no
#      debian/ folder),
#   3. builds the binary packages there with dpkg-buildpackage -b, unsigned
#      and without the regression tests (see scripts/debian/rules); its
#      whole output goes to .work/deb/build.log, printed if the build fails,
# and prints the paths of the .deb files it left in .work/deb/: one
# postgresql-NN-pgbenchkit_<version>-<revision>_<arch>.deb per PostgreSQL
# version NN of scripts/debian/pgversions that postgresql-common supports
# here (on Debian 12: 15), each with its -dbgsym package.
#
# The build itself needs no root rights; installing missing build
# dependencies does.
set -Eeuo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DEBIAN_SRC=$PGBK_REPO/scripts/debian
OUT=$PGBK_REPO/.work/deb
BUILD_LOG=$OUT/build.log

# dpkg-buildpackage also checks build-essential (gcc, make, libc6-dev...);
# postgresql-server-dev-all brings pg_buildext, dh's pgxs sequences and the
# server headers of Debian's default version.
BUILD_DEPS=("${PGBK_APT_BUILD[@]}" "${PGBK_APT_PACKAGING[@]}")

# ---------------------------------------------------------------- version
# One version everywhere: the Makefile's EXTVERSION, the control file's
# default_version and the upstream part of the Debian changelog's version.
mk_version=$(sed -n 's/^EXTVERSION[[:space:]]*[:?]*=[[:space:]]*\([^[:space:]]*\).*/\1/p' "$PGBK_REPO/Makefile")
ctl_version=$(sed -n "s/^default_version[[:space:]]*=[[:space:]]*'\([^']*\)'.*/\1/p" "$PGBK_REPO/control/pgbenchkit.control")
deb_version=$(sed -n '1s/^pgbenchkit (\([^)]*\)).*/\1/p' "$DEBIAN_SRC/changelog")
[[ -n $mk_version ]] || die "no EXTVERSION in $PGBK_REPO/Makefile"
[[ -n $ctl_version ]] || die "no default_version in control/pgbenchkit.control"
[[ -n $deb_version ]] || die "the first line of scripts/debian/changelog is not 'pgbenchkit (VERSION) ...'"
[[ $mk_version == "$ctl_version" ]] ||
	die "the Makefile's EXTVERSION ($mk_version) differs from default_version in control/pgbenchkit.control ($ctl_version)"
[[ ${deb_version%-*} == "$mk_version" ]] ||
	die "scripts/debian/changelog is at $deb_version, the extension at $mk_version: add a changelog entry for $mk_version"
VERSION=$mk_version
compgen -G "$PGBK_REPO/control/install/*.sql" >/dev/null ||
	die "no pieces of the install script in control/install/ (the build makes control/build/pgbenchkit--$VERSION.sql of them)"

# ---------------------------------------------------------------- dependencies
apt_ensure "${BUILD_DEPS[@]}" ||
	die "could not install the build dependencies (${BUILD_DEPS[*]}); installing them needs root rights (run as root or with sudo)"
command -v dpkg-buildpackage >/dev/null || die "dpkg-buildpackage is missing (package dpkg-dev)"
command -v pg_buildext >/dev/null || die "pg_buildext is missing (package postgresql-server-dev-all)"

# ---------------------------------------------------------------- stage
STAGE=$OUT/pgbenchkit-$VERSION
mkdir -p "$OUT" || die "cannot create $OUT"
log "staging the work tree into $STAGE"
stage_source "$STAGE" || die "could not copy the work tree to $STAGE"
cp -R "$DEBIAN_SRC" "$STAGE/debian" || die "could not copy scripts/debian to $STAGE/debian"
chmod 755 "$STAGE/debian/rules"
[[ -f $STAGE/debian/tests/installcheck ]] && chmod 755 "$STAGE/debian/tests/installcheck"
# only this build's packages in $OUT afterwards
rm -f "$OUT"/*.deb "$OUT"/*.ddeb "$OUT"/*.buildinfo "$OUT"/*.changes "$BUILD_LOG"

# The PostgreSQL versions to build for: debian/pgversions against what
# postgresql-common supports here.  Each needs its server headers.
mapfile -t PG_VERSIONS < <(cd "$STAGE" && pg_buildext supported-versions)
((${#PG_VERSIONS[@]})) ||
	die "no PostgreSQL version both in scripts/debian/pgversions ($(grep -v '^#' "$DEBIAN_SRC/pgversions" | xargs)) and supported by postgresql-common here ($(/usr/share/postgresql-common/supported-versions | xargs))"
dev_pkgs=()
for v in "${PG_VERSIONS[@]}"; do dev_pkgs+=("postgresql-server-dev-$v"); done
apt_ensure "${dev_pkgs[@]}" ||
	die "could not install ${dev_pkgs[*]}; installing them needs root rights (run as root or with sudo)"

# debian/control is generated from control.in (pg_buildext updatecontrol)
# for the versions postgresql-common supports; the one in scripts/debian/ is
# Debian 12's.  Elsewhere the staged copy is brought up to date, or the
# build would stop on it.
if ! (cd "$STAGE" && pg_buildext checkcontrol) >"$OUT/checkcontrol.log" 2>&1; then
	warn "scripts/debian/control is not the one for the PostgreSQL versions supported here" \
		"(${PG_VERSIONS[*]}); building with one regenerated by 'pg_buildext updatecontrol'"
	(cd "$STAGE" && pg_buildext updatecontrol) >>"$OUT/checkcontrol.log" 2>&1 || {
		show_file "$OUT/checkcontrol.log"
		die "pg_buildext updatecontrol failed in $STAGE"
	}
fi

# ---------------------------------------------------------------- build
log "building the packages for PostgreSQL ${PG_VERSIONS[*]} (dpkg-buildpackage -b; log: $BUILD_LOG)"
start=$SECONDS
# A make calling this script (make deb) hands its flags and job server
# down in the environment: the package's own make must not inherit them.
if ! (cd "$STAGE" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
	dpkg-buildpackage -b -us -uc -j"$(nproc)") >"$BUILD_LOG" 2>&1; then
	show_file "$BUILD_LOG"
	die "dpkg-buildpackage failed in $STAGE (whole log: $BUILD_LOG)"
fi
log "built in $((SECONDS - start)) s"

# ---------------------------------------------------------------- result
arch=$(dpkg --print-architecture)
for v in "${PG_VERSIONS[@]}"; do
	deb=$OUT/postgresql-$v-pgbenchkit_${deb_version}_$arch.deb
	if [[ ! -f $deb ]]; then
		show_file "$BUILD_LOG"
		die "dpkg-buildpackage succeeded but left no $deb"
	fi
done
log "packages:"
for f in "$OUT"/*.deb "$OUT"/*.ddeb; do
	[[ -f $f ]] && printf '%s\n' "$f"
done
exit 0
