# shellcheck shell=bash
# TAP output for the shell tests (test/*.sh), which prove runs.  Sourced.
#
#   pass DESCRIPTION                     ok N - DESCRIPTION
#   fail DESCRIPTION [DIAGNOSTIC...]     not ok N - DESCRIPTION, then the
#                                        diagnostics as # lines
#   check DESCRIPTION COMMAND...         ok when the command succeeds
#   check_diag DESCRIPTION DIAGNOSTIC COMMAND...
#                                        the same, with what to print when
#                                        it fails
#   is GOT WANT DESCRIPTION              ok when GOT is WANT
#   has TEXT DESCRIPTION NEEDLE...       ok when every NEEDLE is in TEXT
#   skip DESCRIPTION REASON              ok N - DESCRIPTION # SKIP REASON
#   diag TEXT...                         # lines (TEXT may hold newlines)
#   tap_plan                             1..N, and a diagnostic with the
#                                        count of failures; returns 1 if
#                                        any check failed

TAP_N=0
TAP_FAILED=0

diag() {
	local line
	while IFS= read -r line; do
		printf '# %s\n' "$line"
	done < <(printf '%s\n' "$@")
}

pass() {
	TAP_N=$((TAP_N + 1))
	printf 'ok %d - %s\n' "$TAP_N" "$1"
}

fail() {
	TAP_N=$((TAP_N + 1))
	TAP_FAILED=$((TAP_FAILED + 1))
	printf 'not ok %d - %s\n' "$TAP_N" "$1"
	shift
	(($# == 0)) || diag "$@"
	return 0
}

check() {
	local what=$1
	shift
	if "$@"; then pass "$what"; else fail "$what" "failed: $*"; fi
}

check_diag() {
	local what=$1 why=$2
	shift 2
	if "$@"; then pass "$what"; else fail "$what" "$why"; fi
}

is() {
	if [[ $1 == "$2" ]]; then
		pass "$3"
	else
		fail "$3" "     got: '$1'" "expected: '$2'"
	fi
}

has() {
	local text=$1 what=$2 needle missing=()
	shift 2
	for needle in "$@"; do
		[[ $text == *"$needle"* ]] || missing+=("$needle")
	done
	if ((${#missing[@]} == 0)); then
		pass "$what"
	else
		fail "$what" "missing: ${missing[*]}" "in:" "$text"
	fi
}

skip() {
	TAP_N=$((TAP_N + 1))
	printf 'ok %d - %s # SKIP %s\n' "$TAP_N" "$1" "$2"
}

tap_plan() {
	printf '1..%d\n' "$TAP_N"
	if ((TAP_FAILED)); then
		diag "$TAP_FAILED of $TAP_N checks failed"
		return 1
	fi
	return 0
}
