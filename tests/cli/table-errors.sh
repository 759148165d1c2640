#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan table: every usage error and bad input gives a message and the
# documented exit code (2 trouble, 1 findings); nothing crashes.
set -u
cd "$(dirname "$0")/data" || exit 1
S=${STORAN:?}
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect() {	# expect RC PATTERN -- ARGS: exit code and stderr pattern
	local rc=$1 pat=$2
	shift 3
	"$S" table "$@" >"$tmp/out" 2>"$tmp/err"
	local got=$?
	[ "$got" -eq "$rc" ] || fail "table $*: exit $got, want $rc"
	grep -q -- "$pat" "$tmp/err" || fail "table $*: stderr $(cat "$tmp/err")"
}

expect 2 "--metric is required" -- kind-both.json --rows bs
expect 2 "--rows is required" -- kind-both.json --metric bw
expect 2 "no input files" -- --rows bs --metric bw
expect 2 "unknown format 'xls'" -- kind-both.json --rows bs --metric bw -f xls
expect 2 "unknown --stat 'avg'" -- kind-both.json --rows bs --metric bw --stat avg
expect 2 "bad --ratio" -- kind-both.json --rows bs --metric bw --ratio kind=file
expect 2 "bad --ratio" -- kind-both.json --rows bs --metric bw --ratio a=1/b=2
expect 2 "cannot be a row" -- kind-both.json --rows kind --metric bw --ratio kind=file/kind=block
expect 2 "bad --rows" -- kind-both.json --rows bs,,op --metric bw
expect 2 "bad --where" -- kind-both.json --rows bs --metric bw --where bs
expect 2 "bad --alpha" -- kind-both.json --rows bs --metric bw --alpha 2
expect 2 "unit 'ms' does not fit 'bw'" -- kind-both.json --rows bs --metric bw --units ms
# an unknown key: named, the nearest suggested, the keys listed (not metrics)
expect 2 "^storan table: --rows 'nosuch': no measurement has that key (keys: .* bs " -- kind-both.json --rows nosuch --metric bw
grep -q "metrics in the inputs" "$tmp/err" && fail "--rows nosuch lists metrics"
expect 2 "--cols 'kidn': no measurement has that key; did you mean 'kind'?" -- kind-both.json --rows bs --cols kidn --metric bw
expect 2 "--where 'bss': no measurement has that key; did you mean 'bs'?" -- kind-both.json --rows bs --metric bw --where bss=4k
expect 2 "--where 'bss': .*did you mean 'bs'?" -- kind-both.json --rows bs --metric bw --where bss!=4k
expect 2 "--ratio 'kidn': .*did you mean 'kind'?" -- kind-both.json --rows bs --metric bw --ratio kidn=file/kidn=block
expect 2 "no 'iops' measurement matches" -- kind-both.json --rows bs --metric iops
expect 2 "metrics in the inputs: bw" -- kind-both.json --rows bs --metric iops
expect 2 "--rows 'host': no measurement has that key" -- kind-both.json --rows host --metric bw
expect 2 "no-such-file.json" -- no-such-file.json --rows bs --metric bw

# a missing input among good ones: the table still comes, exit 2
"$S" table kind-both.json no-such.json --rows bs --metric bw -f csv \
	>"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] || fail "missing among good: exit"
grep -q '^4096,' "$tmp/out" || fail "missing among good: no table"

# pooling different conditions is a finding, named on stderr and in a note
"$S" table kind-both.json --rows bs --metric bw >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] || fail "mixed: exit"
grep -q "differ in 'kind'" "$tmp/err" || fail "mixed: $(cat "$tmp/err")"
grep -q "3 cell(s) pool measurements" "$tmp/out" || fail "mixed note"

# a broken result set: FILE: message, exit 1 (read but not understood)
printf '{"schema": "storan/1", "sources": [], "measurements": [{"tool": 3}]}' >"$tmp/bad.json"
"$S" table "$tmp/bad.json" kind-both.json --rows bs,kind --metric bw \
	>"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] || fail "bad json: exit"
grep -q "bad.json:1: measurements\[0\]" "$tmp/err" || fail "bad json: $(cat "$tmp/err")"
grep -q '^64K' "$tmp/out" || fail "bad json: other input lost"
exit 0
