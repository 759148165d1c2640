#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan compare, block device vs file system with three runs per block
# size: Welch's t-test per row.  4K is a real drop (regression), 64K drops
# by a quarter because of one wild run and is honestly inconclusive, 1M is
# unchanged.  p-values were computed with python3/mpmath (see test-stats.c).
set -u
cd "$(dirname "$0")/data" || exit 1
S=${STORAN:?}
fail() { echo "FAIL: $*"; exit 1; }

out=$("$S" compare kind-block.json kind-file.json --format csv)
[ $? -eq 1 ] || fail "exit"
row() { echo "$out" | awk -F, -v bs="bs=$1;rw=read" '$4 == bs'; }
close() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d;
	exit !(d <= 1e-9 * (b < 0 ? -b : b)) }'; }
r=$(row 4096)
[ "$(echo "$r" | cut -d, -f12,13)" = welch,regression ] || fail "4K: $r"
close "$(echo "$r" | cut -d, -f11)" 4.66149985414468718e-06 || fail "4K p: $r"
r=$(row 65536)
[ "$(echo "$r" | cut -d, -f12,13)" = welch,inconclusive ] || fail "64K: $r"
close "$(echo "$r" | cut -d, -f11)" 0.41762899421832478761 || fail "64K p: $r"
awk -F, '{ exit !($10 < -20) }' <<<"$r" || fail "64K change: $r"
r=$(row 1048576)
[ "$(echo "$r" | cut -d, -f13)" = unchanged ] || fail "1M: $r"

out=$("$S" compare kind-block.json kind-file.json)
echo "$out" | head -1 | grep -q '(device=/dev/sdb;kind=block) vs candidate kind-file.json (device=/mnt/test/file;kind=file)' ||
	fail "identity: $out"
echo "$out" | grep -q '^left out of the match: device, kind$' || fail "$out"

# Mann-Whitney on request: with 3 runs a side p is never below 0.1
out=$("$S" compare kind-block.json kind-file.json --test mannwhitney -f csv)
[ $? -eq 0 ] || fail "mannwhitney: exit (no regression provable)"
echo "$out" | awk -F, 'NR > 1 && ($12 != "mannwhitney" || $11 < 0.1) { bad = 1 }
	END { exit bad }' || fail "mannwhitney: $out"

# real repeated runs: dd on two VPSes, five runs each (raw text)
out=$("$S" compare dd-5runs-fdatasync.txt dd-5runs-pipe-md5sum.txt -f csv)
[ $? -eq 1 ] || fail "dd: exit"
want_ratio=$(awk '/copied/ { split($0, a, "copied, "); s = a[2] + 0;
	if (FILENAME ~ /fdatasync/) { ra += $1 / s; na++ } else { rb += $1 / s; nb++ } }
	END { printf "%.6f", (rb / nb) / (ra / na) }' \
	dd-5runs-fdatasync.txt dd-5runs-pipe-md5sum.txt)
r=$(echo "$out" | sed -n 2p)
[ "$(echo "$r" | cut -d, -f1-3,5,7,12,13)" = dd,copy,bw,5,5,welch,regression ] ||
	fail "dd: $r"
[ "$(printf '%.6f' "$(echo "$r" | cut -d, -f9)")" = "$want_ratio" ] ||
	fail "dd ratio: $r, want $want_ratio"
awk -F, '{ exit !($11 < 0.001) }' <<<"$r" || fail "dd p: $r"
exit 0
