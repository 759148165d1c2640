#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan table: pivot cells, ordering, CSV/Markdown/JSON/HTML, units, stats.
# Fixture: tests/cli/data/kind-both.json, three runs per block size for a
# block device and a file system (values in MB/s, written by hand).
set -u
cd "$(dirname "$0")/data" || exit 1
S=${STORAN:?}
fail() { echo "FAIL: $*"; exit 1; }

out=$("$S" table kind-both.json --rows bs --cols kind --metric bw \
	--format csv) || fail "csv exit $?"
# means of the runs, in B/s (mean of 101.2, 99.8, 100.5 MB/s = 100.5 MB/s)
want='bs,block,file
4096,100500000,80333333.3333333
65536,501533333.333333,383466666.666667
1048576,1008833333.33333,1003333333.33333'
[ "$out" = "$want" ] || fail "csv: $out"

# --units fixes the unit; CSV then carries that unit, unrounded
out=$("$S" table kind-both.json --rows bs --cols kind --metric bw \
	--units MB/s --format csv | sed -n 2p)
[ "$out" = "4096,100.5,80.3333333333333" ] || fail "csv MB/s: $out"

out=$("$S" table kind-both.json --rows bs --cols kind --metric bw \
	--format md --no-check) || fail "md exit"
want='**bw mean (MB/s)**

| bs | kind=block (MB/s) | kind=file (MB/s) |
|---:|---:|---:|
| 4K | 100 | 80.3 |
| 64K | 502 | 383 |
| 1M | 1009 | 1003 |'
[ "$out" = "$want" ] || fail "md: $out"

out=$("$S" table kind-both.json --rows bs --cols kind --metric bw \
	--units MiB/s) || fail "text exit"
echo "$out" | grep -q '^ 4K  *95.8  *76.6$' || fail "text MiB/s: $out"
echo "$out" | head -1 | grep -qx 'bw mean (MiB/s)' || fail "title: $out"

out=$("$S" table kind-both.json --rows kind --cols bs --metric bw \
	--stat n --format csv | head -1)
[ "$out" = "kind,4096,65536,1048576" ] || fail "cols header: $out"

out=$("$S" table kind-both.json --rows kind,bs --metric bw --stat min \
	--where bs=65536 --format csv)
want='kind,bs,bw
block,65536,497500000
file,65536,150400000'
[ "$out" = "$want" ] || fail "two row keys, min: $out"

out=$("$S" table kind-both.json --rows bs --metric bw --stat median \
	--where kind=file --format csv | sed -n 3p)
[ "$out" = "65536,498800000" ] || fail "median: $out"

out=$("$S" table kind-both.json --rows bs --metric bw --stat cv \
	--where kind=file,bs!=65536 --format csv) || fail "cv exit"
[ "$(echo "$out" | wc -l)" -eq 3 ] || fail "where k!=v: $out"

"$S" table kind-both.json --rows bs --cols kind --metric bw --format json |
	jq -e '.rows[0].bs == 4096 and .rows[2].file > 1e9 and
	       .columns == ["bs","block","file"]' >/dev/null ||
	fail "json"
"$S" table kind-both.json --rows bs --cols kind --metric bw --format html |
	grep -q '<td class="num">64K</td>' || fail "html"

# -o writes the file whole
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
"$S" table kind-both.json --rows bs --metric bw --where kind=block \
	-o "$tmp/t.csv" -f csv ||
	fail "-o exit"
[ "$(head -1 "$tmp/t.csv")" = "bs,bw" ] || fail "-o content"
exit 0
