#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# fio writes a log for every kind asked for, empty where it took no
# sample (the slat log of psync, sync or mmap): `storan ingest DIR/*` of
# such a run reads the other logs, notes the empty one and exits 0.  An
# empty file of any other name is still an error (exit 1).
. "$(dirname "$0")/lib.sh"
L="$(cd "$(dirname "$0")" && pwd)/data/fio-logs"
cd "$TMP" || exit 2

cp "$L"/before_bw.1.log .
: > before_slat.1.log
run "$STORAN" ingest --fio-version 3.33 -o out.json before_bw.1.log \
	before_slat.1.log
expect_rc 0 "an empty slat log beside a bw log"
expect_in "$err" "before_slat.1.log:1: note: empty fio log" "the note"
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
finish
