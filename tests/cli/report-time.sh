#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan report of fio's logs (issue 20): charts over time -- a figure
# per metric and op with a line per log and its steady part, latency
# percentiles from a histogram log -- as PNG, SVG and JSON; none for
# inputs without samples over time.
. "$(dirname "$0")/lib.sh"
D="$FIXTURES/fio-log"
cd "$TMP" || exit 2
run "$STORAN" report "$D/0001-rw_bw.1.log" "$D/0002-rw_bw.2.log" \
	"$D/0006-rw_clat_hist.1.log" -o rep
expect_rc 0 "report of fio logs"
for c in time-bw-read time-bw-write time-clat-pct-read time-clat-pct-write; do
	f=$(ls rep/charts/*-"$c".png 2>/dev/null | head -1)
	[ -n "$f" ] || { fail "no chart $c"; continue; }
	[ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] ||
		fail "$f: not a PNG"
	[ -s "${f%.png}.svg" ] && [ -s "${f%.png}.json" ] || fail "$c: svg/json"
done
j=$(cat rep/charts/*-time-bw-read.json)
# (the report takes the two jobs' logs for sides: each line is named by
# its side, as the page names them)
expect_in "$j" '"name": "0001 (baseline)"' "a line per log"
expect_in "$j" '"name": "0002"' "the second job"
expect_in "$j" '"title": "Time (s)"' "time on x"
expect_in "$j" '"y": 1.2288' "1228800 B/s in MB/s"
expect_in "$j" "no line is long enough for the 30 s a steady-state window takes" "5 s runs: not judged"
j=$(cat rep/charts/*-time-clat-pct-read.json)
expect_in "$j" '"name": "p99.9"' "p99.9 over time"
expect_in "$(cat rep/index.html)" "Completion latency percentiles over time" "in the page"

# two minutes with a write cliff at 30 s: steady from 39 s, shaded
awk 'BEGIN { for (i = 1; i <= 120; i++) {
	v = i <= 30 ? 2000000 : i < 40 ? 500000 + (40 - i) * 90000 : 500000 + (i % 3) * 5000
	printf "%d, %d, 1, 0, 0\n", i * 1000, v } }' > ssd_bw.1.log
run "$STORAN" report ssd_bw.1.log -o rep2
expect_rc 0 "report of a write cliff"
j=$(cat rep2/charts/*-time-bw-write.json)
expect_in "$j" '"steady": [' "the steady band"
expect_in "$j" '"from": 39.0' "from 39 s"
expect_in "$j" "steady from 39 s, 517 MB/s ± 0.99%" "said in the subtitle"

# no samples over time: no such chart
run "$STORAN" report "$FIXTURES/fio/0102-3_33-randrw-libaio.json" -o rep3
expect_rc 0 "report of a fio JSON"
ls rep3/charts | grep -q time && fail "charts over time without samples"
finish
