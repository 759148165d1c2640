#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# fio writes an empty slat log for a synchronous engine (psync, sync,
# mmap): `storan ingest DIR/*` of such a run reads the other logs, notes
# the empty one and exits 0.  An empty file of any other name is still an
# error (exit 1).
. "$(dirname "$0")/lib.sh"
L="$(cd "$(dirname "$0")" && pwd)/data/fio-logs"
cd "$TMP" || exit 2

cp "$L"/before_bw.1.log .
: > before_slat.1.log
run "$STORAN" ingest --fio-version 3.33 -o out.json before_bw.1.log \
	before_slat.1.log
expect_rc 0 "an empty slat log beside a bw log"
expect_in "$err" "before_slat.1.log:1: note: an empty fio slat log" "the note"
run "$STORAN" export --format csv out.json
expect_in "$out" "before_bw.1.log,1,fio,read,bw," "the bw log is read"

: > results.txt
run "$STORAN" ingest -o out2.json results.txt
expect_rc 1 "an empty text file"
expect_in "$err" "results.txt:1: empty file, no benchmark output found" \
	"its error"
: > disk-bw.txt
run "$STORAN" ingest -o out3.json disk-bw.txt
expect_rc 1 "an empty file named like a log kind but not .log"
# named like a slat log but not .log (fio names its logs .log): an error
: > x_slat.txt
run "$STORAN" ingest -o out4.json x_slat.txt
expect_rc 1 "an empty x_slat.txt"
expect_in "$err" "x_slat.txt:1: empty file" "its error"
# a hist log of a bucket count no fio writes: refused, not read as clat
python3 -c "
print(', '.join(['1000', '0', '4096'] + ['1'] * 50))" > job_clat_hist.1.log
run "$STORAN" ingest -o out5.json --fio-version 3.33 job_clat_hist.1.log
expect_rc 1 "a 50-bucket hist log"
expect_in "$err" "fio histogram log with 50 buckets" "said as such"
finish
