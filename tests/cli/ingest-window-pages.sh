#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A long log read by windows lets the pages of its mapping go as it goes
# (issue 18: bounded memory whatever the log's size).  Each window's
# four parts were let go of one by one, each keeping the pages its ends
# fall in: a 1 GB log held 16 MB more at the end than at the start.
# With windows of 16 KiB (four pages a window), what is kept of the
# mapping shows: a log twice as long must not hold more of it.  fio-log.c
# lets its pages go by the same function (input_drop_through()).
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1
timed_dd_runs 200000 > short.txt	# 36 MB
timed_dd_runs 400000 > long.txt	# 72 MB
# The most of the mapped log's pages (and the program's own) resident
# at once, sampled while it runs: RssFile counts the mapping's pages and
# not the allocator's, which a sanitizer's quarantine makes grow.
peak_file() {
	local pid max=0 kb
	STORAN_TEST_WINDOW=16384 "$STORAN" ingest --format csv -o out.csv \
		"$1" 2> err.txt &
	pid=$!
	while kill -0 "$pid" 2> /dev/null; do
		kb=$(awk '/^RssFile:/ { print $2 }' "/proc/$pid/status" \
			2> /dev/null)
		[ -n "$kb" ] && [ "$kb" -gt "$max" ] && max=$kb
		sleep 0.02
	done
	wait "$pid" || fail "$1: exit $? $(head -2 err.txt)"
	echo "$max"
}
[ -r /proc/self/status ] || { echo "skip: no /proc"; exit 77; }
short=$(peak_file short.txt)
long=$(peak_file long.txt)
# (1 and 4 pages a window were kept: 9 and 35 MB more; now none, give
# or take the 1.5 MB by which two samplings of one binary differ)
[ "$short" -gt 0 ] || fail "RssFile not read"
[ $((long - short)) -le 4096 ] ||
	fail "$long KiB of files resident for 72 MB, $short KiB for 36 MB"
finish
