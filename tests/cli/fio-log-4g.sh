#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A fio log of more than 4 GiB is read (issue 20: logs of any size): it
# was cut into lines and refused for their number, holding the whole
# file.  Slow and big (4.3 GB of disk, a minute): run only with
# STORAN_BIG_TESTS=1, skipped otherwise.
. "$(dirname "$0")/lib.sh"
[ "${STORAN_BIG_TESTS:-0}" = 1 ] || { echo "skip: STORAN_BIG_TESTS=1 runs it"; exit 77; }
avail=$(df -Pk "$TMP" | awk 'NR == 2 { print $4 }')
[ "$avail" -gt 6000000 ] || { echo "skip: less than 6 GB free in $TMP"; exit 77; }
cd "$TMP" || exit 1
# per-I/O lines (log_avg_msec=0: bs set, an uneven pace), 4.3 GB
awk 'BEGIN { srand(3); t = 0
	for (i = 0; i < 160000000; i++) {
		t += int(rand() * 3)
		printf "%d, %d, 0, 4096, 0\n", t, 90000 + int(rand() * 20000) } }' \
	> big_clat.1.log
size=$(stat -c %s big_clat.1.log)
[ "$size" -gt 4294967296 ] || fail "the log is only $size bytes"
/usr/bin/time -f "%e %M" -o rss "$STORAN" ingest --format csv -o big.csv \
	big_clat.1.log 2> err || fail "exit $? $(head -3 err)"
grep -q '^big_clat.1.log,1,fio,read,clat.mean,s,1,' big.csv ||
	fail "no clat mean: $(head -3 big.csv)"
# the lines summed into windows, the file's pages let go: bounded
read -r secs kib < rss
echo "# $size bytes: $secs s, peak RSS $kib KiB"
[ "$kib" -lt 131072 ] || fail "peak RSS $kib KiB"
finish
