#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A fio per-I/O log of hundreds of MB is read in a window, not whole
# (issue 20): its pages are let go once read, no line table is made, and
# the figures are every line's.  12 million I/Os of 100 us, 1,000 a ms.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
awk 'BEGIN { for (i = 0; i < 12000000; i++)
	printf "%d, 100000, %d, 4096, 0, 0\n", i / 1000, i % 2 }' \
	> big_clat.1.log
[ "$(stat -c %s big_clat.1.log)" -gt 268435456 ] || fail "log too small"
TIME=""
[ -x /usr/bin/time ] && TIME="/usr/bin/time -f %M -o $TMP/rss"
# shellcheck disable=SC2086
run $TIME "$STORAN" ingest --fio-version 3.33 --format csv big_clat.1.log
expect_rc 0 "ingest of a 300 MB log"
# one log, one run: the mean over every I/O, and its min, max, stddev
expect_in "$out" "big_clat.1.log,1,fio,read,clat.mean,s,1,0.0001,,0.0001,0.0001," "read: every I/O"
expect_in "$out" "big_clat.1.log,1,fio,read,clat.stddev,s,1,0,,0,0," "read: stddev over every I/O"
expect_in "$out" "big_clat.1.log,2,fio,write,clat.mean,s,1,0.0001,,0.0001,0.0001," "write: every I/O"
# (a 1 GB log had a peak RSS of 1.06 GB before the pages were let go,
# 78 MB after)
if [ -n "$TIME" ] && [ -s "$TMP/rss" ]; then
	[ "$(tail -1 "$TMP/rss")" -le 163840 ] ||
		fail "peak RSS $(tail -1 "$TMP/rss") KiB"
fi
run "$STORAN" export --series big_clat.1.log
expect_rc 0 "export --series"
expect_in "$out" "big_clat.1.log,1,fio,read,clat.mean,s,,1,12,0.0001" "12 windows of 1 s"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 25 ] || fail "series rows: $(printf '%s\n' "$out" | wc -l)"
finish
