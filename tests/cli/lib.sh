# SPDX-License-Identifier: GPL-3.0-or-later
# Helpers for CLI tests: source it, call check/expect_*, end with finish.
STORAN="${STORAN:-$(cd "$(dirname "$0")/../.." && pwd)/storan}"
FIXTURES="$(cd "$(dirname "$0")/.." && pwd)/parsers"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0

fail() {
	echo "not ok: $*"
	fails=$((fails + 1))
}

# run CMD...: sets $out, $err, $rc
run() {
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	out=$(cat "$TMP/out")
	err=$(cat "$TMP/err")
}

expect_rc() {	# expect_rc WANT WHAT
	[ "$rc" -eq "$1" ] || fail "$2: exit $rc, want $1 (stderr: $err)"
}

expect_in() {	# expect_in HAYSTACK NEEDLE WHAT
	case "$1" in
	*"$2"*) ;;
	*) fail "$3: '$2' not in: $1" ;;
	esac
}

finish() {
	[ "$fails" -eq 0 ]
	exit $?
}
