#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# No input makes ingest super-linear (issue 15).  fio's text of one job
# repeated (5 MB of 'read : io=...' lines: 115,000 reports) numbered its
# clones by comparing every report with every other: 1 MB took 1.7 s,
# 5 MB 87 s.  Read in one pass now: each input here gets 60 s, a hundred
# times what it needs, and its first and last report are clone 0 and the
# last one.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1
yes 'read : io=1MB, bw=2KB/s, iops=3, runt=4msec' | head -n 115000 > fio-5m.txt
n=$(wc -l < fio-5m.txt)
timeout 60 "$STORAN" ingest --format csv fio-5m.txt > out.csv 2> err.txt
rc=$?
[ "$rc" -eq 0 ] || fail "5 MB of fio result lines: exit $rc ($(head -3 err.txt))"
head -2 out.csv | grep -qx "fio-5m.txt,1,fio,read,bw,B/s,1,2048,,2048,2048,clone=0" ||
	fail "the first report: $(head -2 out.csv)"
tail -1 out.csv | grep -q "clone=$((n - 1))$" || fail "the last report: $(tail -1 out.csv)"
finish
