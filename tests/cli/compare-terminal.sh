#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan compare on a terminal: the text table shows only the labels that
# tell rows apart (the rest once above it), fits 80 columns (COLUMNS=80 on
# a pseudo-terminal of unknown size), wraps notes; the output goes through
# $STORAN_PAGER / $PAGER there, never into a pipe or with --no-pager; a
# pager that cannot run loses nothing.
set -u
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
S=${STORAN:?}
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
script -qec true /dev/null >/dev/null 2>&1 || { echo "no script(1)"; exit 77; }

"$S" ingest "$ROOT/sample-data/two-machines/do-5bucks.txt" -o "$tmp/old.json" ||
	fail "ingest old"
"$S" ingest "$ROOT/sample-data/two-machines/vultr-25gbssd.txt" -o "$tmp/new.json" ||
	fail "ingest new"
cd "$tmp" || exit 1

# tty CMD: CMD's output on a pseudo-terminal (no colour codes, no CRs)
tty() {
	script -qec "$1" /dev/null </dev/null |
		sed 's/\x1b\[[0-9;]*m//g; s/\r$//'
}
widest() { LC_ALL=C.UTF-8 wc -L; }

# Into a pipe: one row per pair, the shared labels once, not on each row.
out=$("$S" compare old.json new.json)
echo "$out" | grep -q '^every row: fio bs=4K group=0 iodepth=16 ioengine=libaio numjobs=8$' ||
	fail "shared labels: $out"
echo "$out" | grep -q 'group=0;' && fail "labels on every row: $out"
echo "$out" | grep -Eq '^randread +bw +596 MB/s' || fail "bw row: $out"

# On an 80-column terminal: everything within 80 columns.
out=$(tty "stty cols 0 rows 0 2>/dev/null; COLUMNS=80 STORAN_PAGER= '$S' compare old.json new.json")
w=$(echo "$out" | widest)
[ "$w" -le 80 ] || fail "80 columns: widest line $w: $out"
echo "$out" | grep -q '^summary: ' || fail "80 columns: no summary: $out"
echo "$out" | grep -q '^  ' || fail "80 columns: no note wrapped: $out"
out=$(tty "stty cols 120 2>/dev/null; STORAN_PAGER= '$S' compare old.json new.json --metric all")
w=$(echo "$out" | widest)
[ "$w" -le 120 ] || fail "120 columns: widest line $w"
echo "$out" | grep -Eq '^randread +clat\.p99\.99 ' || fail "--metric all rows"

# The pager: run on a terminal, with all of the text.
cat >"$tmp/pager" <<PAGER
#!/bin/sh
echo ran >>"$tmp/pager.log"
cat >"$tmp/paged"
PAGER
chmod +x "$tmp/pager"
tty "PAGER='$tmp/pager' '$S' compare old.json new.json" >/dev/null
[ -s "$tmp/pager.log" ] || fail "PAGER not run on a terminal"
grep -q '^summary: ' "$tmp/paged" || fail "pager got: $(cat "$tmp/paged")"
rm -f "$tmp/pager.log"
tty "PAGER=false STORAN_PAGER='$tmp/pager' '$S' compare old.json new.json" >/dev/null
[ -s "$tmp/pager.log" ] || fail "STORAN_PAGER not preferred"
rm -f "$tmp/pager.log"
tty "PAGER='$tmp/pager' '$S' compare old.json new.json --no-pager" >/dev/null
[ -e "$tmp/pager.log" ] && fail "paged despite --no-pager"
PAGER="$tmp/pager" "$S" compare old.json new.json >/dev/null
[ -e "$tmp/pager.log" ] && fail "paged into a pipe"
# exit status through the pager: still 1 (regressions)
out=$(tty "PAGER='$tmp/pager' '$S' compare old.json new.json; echo rc=\$?")
echo "$out" | grep -q '^rc=1$' || fail "exit status with a pager: $out"
# a pager that is not there: the output is not lost
out=$(tty "PAGER='$tmp/no-such-pager' '$S' compare old.json new.json; echo rc=\$?")
echo "$out" | grep -q '^summary: ' || fail "missing pager lost the output: $out"
echo "$out" | grep -q 'cannot run the pager' || fail "missing pager not said: $out"
echo "$out" | grep -q '^rc=1$' || fail "missing pager: exit status: $out"
exit 0
