#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A per-I/O bw log is told from an averaged one by its bs column (fio
# writes averaged samples with bs 0), not by the pace of its lines: a
# rate-limited run (an I/O of 4096 B every 100 ms) logs at a steady pace
# and was read as averaged, 102400 B/s (fio's per-I/O bs/latency values)
# for 40960 B/s.  Made-up log in fio 3.x's per-I/O form.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 2
awk 'BEGIN { for (i = 1; i <= 50; i++) printf "%d, 100, 0, 4096\n", i * 100 }' \
	> rate_bw.1.log
run "$STORAN" ingest --format csv --fio-version 3.33 rate_bw.1.log
expect_rc 0 "ingest"
expect_in "$out" "rate_bw.1.log,1,fio,read,bw,B/s,1,40960," \
	"50 x 4096 B over the 5 s to the last I/O"
# averaged (bs 0) at the same pace stays the mean of the samples
awk 'BEGIN { for (i = 1; i <= 50; i++) printf "%d, 100, 0, 0\n", i * 100 }' \
	> avg_bw.1.log
run "$STORAN" ingest --format csv --fio-version 3.33 avg_bw.1.log
expect_in "$out" "avg_bw.1.log,1,fio,read,bw,B/s,1,102400," \
	"averaged: 100 KiB/s a sample"
finish
