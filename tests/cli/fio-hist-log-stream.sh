#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A fio histogram log of hundreds of MB is ingested in memory that grows
# with its intervals, not its bytes (issue 20): its pages let go once
# read, each interval's buckets kept packed, the JSON of its series
# written out as it is made.  52,000 one-second intervals of fio 3.x's
# 1856 buckets, 150 of them with I/Os (a real log has a hundred or two):
# 300 MB of text.  Its ingest peaked at 179 MB before, 50 MB after
# (7 MB of that for any log).
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
# under make check's ASan: freed blocks held back 16 MB, not 256
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16"
# Peaks are taken over what the same command takes for a three-line log
# (the program, its libraries; 7 MB for an ingest, 33 MB under ASan,
# whose shadow memory also grows more with the data than the data):
# within_rss WHAT BASE EXTRA (KiB), after a run of $TIME.
head -3 big_clat_hist.1.log > small_clat_hist.1.log
base_rss() {	# base_rss CMD...: the peak of CMD on the small log, KiB
	rm -f "$TMP/rss"
	# shellcheck disable=SC2086
	$TIME "$@" >/dev/null 2>&1
	if [ -s "$TMP/rss" ]; then tail -1 "$TMP/rss"; else echo 0; fi
}
within_rss() {
	if [ -n "$TIME" ] && [ -s "$TMP/rss" ] &&
	   [ "$(tail -1 "$TMP/rss")" -gt $(($2 + $3)) ]; then
		fail "$1: peak RSS $(tail -1 "$TMP/rss") KiB, over $2 + $3"
	fi
}
ingest_base=$(base_rss "$STORAN" ingest --fio-version 3.33 -o s.json \
	small_clat_hist.1.log)
report_base=$(base_rss "$STORAN" report -o srep small_clat_hist.1.log)
# shellcheck disable=SC2086
run $TIME "$STORAN" ingest --fio-version 3.33 -o h.json big_clat_hist.1.log
expect_rc 0 "ingest of a 300 MB hist log"
within_rss "ingest" "$ingest_base" 98304
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
within_rss "export --series" "$ingest_base" 98304
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
within_rss "h300.log" "$ingest_base" 98304
run "$STORAN" export n.json
expect_in "$out" "h300.log,1,fio,read,clat.p50,s,1," "h300.log's p50"
# its report: the log was hashed again at the end, all of it held
# (this log: 621 MB at peak before, 85 MB after, 59 MB of it the fonts
# and libraries of any report)
rm -f "$TMP/rss"
# shellcheck disable=SC2086
run $TIME "$STORAN" report -o rep h300.log
expect_rc 0 "report of a 300 MB hist log"
within_rss "report" "$report_base" 131072
finish
