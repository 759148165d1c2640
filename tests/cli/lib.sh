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

# same_as_whole [--json] FILE WINDOW...: FILE read by windows of each
# WINDOW bytes gives the exit status, CSV and messages of a whole read
# (the JSON result set too with --json: every value, in order).  Leaves
# the whole read's in whole.csv (and whole.json) in the directory.
same_as_whole() {
	local json=0 f w want got
	[ "$1" = --json ] && { json=1; shift; }
	f=$1
	shift
	STORAN_TEST_WINDOW=1000000000000 "$STORAN" ingest --format csv "$f" \
		> whole.csv 2> whole.err
	want=$?
	[ $json = 1 ] && STORAN_TEST_WINDOW=1000000000000 "$STORAN" ingest \
		-o whole.json "$f" 2> /dev/null
	for w in "$@"; do
		STORAN_TEST_WINDOW=$w "$STORAN" ingest --format csv "$f" \
			> win.csv 2> win.err
		got=$?
		[ "$got" -eq "$want" ] ||
			fail "$f, windows of $w bytes: exit $got, whole $want"
		cmp -s whole.csv win.csv ||
			fail "$f, windows of $w bytes: CSV $(diff whole.csv win.csv | head -3)"
		cmp -s whole.err win.err ||
			fail "$f, windows of $w bytes: messages $(diff whole.err win.err | head -3)"
		[ $json = 1 ] || continue
		STORAN_TEST_WINDOW=$w "$STORAN" ingest -o win.json "$f" \
			2> /dev/null
		cmp -s whole.json win.json ||
			fail "$f, windows of $w bytes: JSON $(diff whole.json win.json | head -3)"
	done
}

timed_dd_runs() {	# timed_dd_runs N: a log of N dd runs timed with time
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) {
	printf "$ time dd if=/dev/zero of=f%d bs=1M count=64\n", i % 3
	printf "64+0 records in\n64+0 records out\n"
	printf "67108864 bytes (67 MB, 64 MiB) copied, 1.%06d s, 54 MB/s\n",
		i * 7919 % 1000000
	printf "\nreal\t0m1.%03ds\nuser\t0m0.001s\nsys\t0m0.100s\n\n",
		i % 1000 } }'
}

finish() {
	[ "$fails" -eq 0 ]
	exit $?
}
