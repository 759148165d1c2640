#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan compare: usage errors and bad inputs -- a message naming the
# problem and the documented exit code; nothing crashes.
set -u
cd "$(dirname "$0")/data" || exit 1
S=${STORAN:?}
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect() {	# expect RC PATTERN -- ARGS
	local rc=$1 pat=$2
	shift 3
	"$S" compare "$@" >"$tmp/out" 2>"$tmp/err"
	local got=$?
	[ "$got" -eq "$rc" ] || fail "compare $*: exit $got, want $rc"
	grep -q -- "$pat" "$tmp/err" || fail "compare $*: stderr $(cat "$tmp/err")"
}

expect 2 "needs a baseline and at least one candidate" -- host-alpha.json
expect 2 "needs a baseline" --
expect 2 "bad --threshold '5x'" -- host-alpha.json host-beta.json --threshold 5x
expect 2 "bad --threshold '-5'" -- host-alpha.json host-beta.json --threshold -5
expect 2 "bad --alpha '0'" -- host-alpha.json host-beta.json --alpha 0
expect 2 "unknown --test 'ttest'" -- host-alpha.json host-beta.json --test ttest
expect 2 "unknown format 'html'" -- host-alpha.json host-beta.json -f html
expect 2 "bad --color 'sometimes'" -- host-alpha.json host-beta.json --color sometimes
expect 2 "exclude each other" -- host-alpha.json host-beta.json --match bs --ignore rw
expect 2 "bad --metric" -- host-alpha.json host-beta.json --metric bw,
expect 2 "bad --where" -- host-alpha.json host-beta.json --where op
# a missing input: named, exit 2, no verdicts printed
expect 2 "no-such.json" -- host-alpha.json no-such.json
[ -s "$tmp/out" ] && fail "output despite a missing input"
expect 2 "no-such.json" -- no-such.json host-alpha.json
# nothing in common: said, exit 1
expect 1 "no measurement matched" -- host-alpha.json host-beta.json --metric cpu.usr
# an input only partly understood: exit 1 even without a regression
printf 'hello\n' >"$tmp/junk.txt"
"$S" compare host-alpha.json host-gamma.json "$tmp/junk.txt" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] || fail "junk input: exit $rc"
grep -q "junk.txt" "$tmp/err" || fail "junk input: $(cat "$tmp/err")"
grep -q "candidate host-gamma.json" "$tmp/out" || fail "junk: others lost"
"$S" compare --help | grep -q '^usage: storan compare' || fail "--help"
exit 0
