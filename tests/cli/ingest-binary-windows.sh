#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A long log read by windows is still refused as binary data when it is:
# a NUL anywhere, or more than 5% control characters over the whole
# text.  With --format csv (no hash to make) the test is made by the
# windows as they are cut; with JSON, beside the hash; read whole after
# a late tool's output, over the whole text.  The verdict and the
# results are the same every way.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1
dd_runs() {	# dd_runs N
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) {
	printf "$ dd if=/dev/zero of=f%d bs=1M count=64\n", i % 3
	printf "64+0 records in\n64+0 records out\n"
	printf "67108864 bytes (67 MB, 64 MiB) copied, 1.%06d s, 54 MB/s\n\n",
		i * 7919 % 1000000 } }'
}
{ dd_runs 20000; printf 'a NUL \0 here\n'; dd_runs 20000; } > nul.txt
# a line of 25 bells after each run of the second half: over 5% of
# all bytes
{ dd_runs 20000; dd_runs 20000 | sed 's/^$/\a\a\a\a\a\a\a\a\a\a\a\a\a\a\a\a\a\a\a\a\a\a\a\a\a/'; } > bells.txt
# a few bells: text all the same
{ dd_runs 20000; dd_runs 2000 | sed 's/^$/\a\a\a/'; dd_runs 18000; } > fewbells.txt
# the same, with an hdparm output far down: read whole after windows
for f in nul bells fewbells; do
	{ cat $f.txt; cat "$FIXTURES/hdparm/0001-T-only-cached-reads.txt"; } \
		> late-$f.txt
done
for f in nul bells late-nul late-bells; do
	for fmt in csv json; do
		run "$STORAN" ingest --format $fmt -o out.$fmt $f.txt
		expect_rc 1 "ingest --format $fmt of $f.txt"
		expect_in "$err" "$f.txt:1: binary data" "$f.txt ($fmt) refused"
	done
done
tail_runs=$("$STORAN" ingest --format csv \
	"$FIXTURES/hdparm/0001-T-only-cached-reads.txt" 2>/dev/null |
	awk -F, '$5 == "bw" { n += $7 } END { print n + 0 }')
for f in fewbells late-fewbells; do
	run "$STORAN" ingest --format csv -o out.csv $f.txt
	expect_rc 0 "ingest --format csv of $f.txt"
	run "$STORAN" ingest -o out.json $f.txt
	expect_rc 0 "ingest of $f.txt"
	run "$STORAN" export -o from-json.csv out.json
	cmp -s out.csv from-json.csv || fail "$f.txt: CSV and JSON differ"
	runs=$(awk -F, '$5 == "bw" { n += $7 } END { print n }' out.csv)
	want=40000
	[ $f = fewbells ] || want=$((40000 + tail_runs))
	[ "$runs" = "$want" ] || fail "$f.txt: $runs runs, not $want"
done
finish
