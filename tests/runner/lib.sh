# SPDX-License-Identifier: GPL-3.0-or-later
# Shared by the runner tests: a temporary directory removed on exit,
# fail/skip helpers, and the options that keep every run short.
#   $STORAN   the binary under test
set -u
STORAN="${STORAN:-storan}"
T=$(mktemp -d "${TMPDIR:-/tmp}/storan-run-test.XXXXXX") || exit 1
cleanup_hooks=""
cleanup() {
	eval "$cleanup_hooks"
	rm -rf "$T"
}
trap cleanup EXIT
on_exit() { cleanup_hooks="$1; $cleanup_hooks"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
QUICK="--size 8M --runtime 0.2 --ramp 0 --repeat 1 --quiet"

# expect_rc WANT CMD...: runs CMD (stderr to $T/err), checks its status.
expect_rc() {
	local want=$1 rc
	shift
	"$@" 2>"$T/err"
	rc=$?
	[ "$rc" -eq "$want" ] || {
		cat "$T/err" >&2
		fail "exit $rc, not $want: $*"
	}
}

# expect_err TEXT: the last command's stderr mentions TEXT.
expect_err() {
	grep -qF -- "$1" "$T/err" || {
		cat "$T/err" >&2
		fail "stderr does not say '$1'"
	}
}

# csv JSON: the result set as the CSV export, without the header.
csv() { "$STORAN" export "$1" --format csv | tail -n +2; }

# empty_dir DIR: nothing left behind in DIR.
empty_dir() {
	[ -z "$(ls -A "$1")" ] || fail "left behind in $1: $(ls -A "$1")"
}
