#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A fio histogram log of hundreds of MB is ingested in memory that grows
# with its intervals, not its bytes (issue 20): its pages let go once
# read, each interval's buckets kept packed, the JSON of its series
# written out as it is made.  52,000 one-second intervals of fio 3.x's
# 1856 buckets, 150 of them with I/Os (a real log has a hundred or two):
# 300 MB of text.  Its ingest peaked at 179 MB before, 50 MB after.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
awk 'BEGIN {
	for (b = 0; b < 600; b++) lo = lo ", 0"
	for (b = 750; b < 1856; b++) hi = hi ", 0"
	for (s = 1; s <= 52000; s++) {
		line = s * 1000 ", 0, 4096" lo
		for (b = 600; b < 750; b++)
			line = line ", " 1 + (s + b) % 20
		print line hi
	} }' > big_clat_hist.1.log
[ "$(stat -c %s big_clat_hist.1.log)" -gt 268435456 ] || fail "log too small"
TIME=""
[ -x /usr/bin/time ] && TIME="/usr/bin/time -f %M -o $TMP/rss"
# under make check's ASan: freed blocks held back 16 MB, not 256 (80 MB
# peak then)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16"
# shellcheck disable=SC2086
run $TIME "$STORAN" ingest --fio-version 3.33 -o h.json big_clat_hist.1.log
expect_rc 0 "ingest of a 300 MB hist log"
if [ -n "$TIME" ] && [ -s "$TMP/rss" ]; then
	[ "$(tail -1 "$TMP/rss")" -le 102400 ] ||
		fail "peak RSS $(tail -1 "$TMP/rss") KiB"
fi
# every interval a point, its 150 buckets in the JSON as read
run grep -c '"metric": "clat.p50"' h.json
expect_in "$out" "1" "one clat.p50"
run grep -o '"bins": \[\[600, 2, 601, 3, ' h.json
expect_in "$out" '"bins": [[600, 2, 601, 3, ' "first interval's buckets"
run "$STORAN" export h.json
expect_rc 0 "export"
expect_in "$out" "big_clat_hist.1.log,1,fio,read,clat.p50,s,1," "the run's p50"
# the percentiles over time straight from the log: its 56 MB table
# written as it is made (172 MB at peak before, 49 MB after)
rm -f "$TMP/rss"
# shellcheck disable=SC2086
run $TIME "$STORAN" export --series -o s.csv big_clat_hist.1.log
expect_rc 0 "export --series of a 300 MB hist log"
if [ -n "$TIME" ] && [ -s "$TMP/rss" ]; then
	[ "$(tail -1 "$TMP/rss")" -le 102400 ] ||
		fail "export --series: peak RSS $(tail -1 "$TMP/rss") KiB"
fi
[ "$(wc -l < s.csv)" -eq $((52000 * 17 + 1)) ] ||
	fail "series rows: $(wc -l < s.csv)"
expect_in "$(sed -n 2p s.csv)" \
	"big_clat_hist.1.log,1,fio,read,clat.p1,s,,1,1," "first row"
# a hist log whose name says nothing is one by its hundreds of fields,
# read whole as well (its lines were cut: 632 MB at peak)
mv big_clat_hist.1.log h300.log
rm -f "$TMP/rss"
# shellcheck disable=SC2086
run $TIME "$STORAN" ingest --fio-version 3.33 -o n.json h300.log
expect_rc 0 "ingest of a 300 MB hist log named h300.log"
if [ -n "$TIME" ] && [ -s "$TMP/rss" ]; then
	[ "$(tail -1 "$TMP/rss")" -le 102400 ] ||
		fail "h300.log: peak RSS $(tail -1 "$TMP/rss") KiB"
fi
run "$STORAN" export n.json
expect_in "$out" "h300.log,1,fio,read,clat.p50,s,1," "h300.log's p50"
finish
