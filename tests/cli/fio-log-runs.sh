#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A fio log is one run (issue 20): its lines are samples over time, not
# repetitions.  Two logs of a before/after (fio names them by the
# write_*_log prefix: before_bw.1.log, after_bw.1.log) compare as one run
# a side, n 1, the figure the whole log's mean; their histogram logs
# (PREFIX_clat_hist.1.log) match as well.
. "$(dirname "$0")/lib.sh"
L="$(cd "$(dirname "$0")" && pwd)/data/fio-logs"
cd "$TMP" || exit 2

run "$STORAN" ingest --fio-version 3.33 -o before.json "$L"/before_bw.1.log \
	"$L"/before_iops.1.log "$L"/before_clat.1.log
expect_rc 0 "ingest before"
run "$STORAN" ingest --fio-version 3.33 -o after.json "$L"/after_bw.1.log \
	"$L"/after_iops.1.log "$L"/after_clat.1.log
expect_rc 0 "ingest after"
run "$STORAN" export --format csv before.json
# 7 samples a second each: their mean, n 1
expect_in "$out" "before_bw.1.log,1,fio,read,bw,B/s,1,4777837.71428571,,4777837.71428571,4777837.71428571," "bw: one run, the mean of 7 samples"
run "$STORAN" compare --no-check --format csv before.json after.json
expect_rc 1 "compare: a regression"
expect_in "$out" "fio,read,bw,test=bw,1,4777837.71428571,1,4178304," "bw: n 1 a side"
expect_in "$out" "fio,read,iops,test=iops,1,1166.28571428571,1,1020," "iops: n 1 a side"
expect_in "$out" "fio,read,clat.mean,test=clat,1,0.000784370714285714,1,0.00091399225," "clat: n 1 a side"
run "$STORAN" table --no-check --format csv --metric bw --rows op \
	--cols source --stat n before.json after.json
expect_in "$out" "read,1,1" "table: n is the number of logs"

# the histogram logs of both runs match (clat_hist is one word of the name)
cp "$FIXTURES/fio-log/0006-rw_clat_hist.1.log" before_clat_hist.1.log
cp "$FIXTURES/fio-log/0006-rw_clat_hist.1.log" after_clat_hist.1.log
run "$STORAN" ingest --fio-version 3.33 -o before2.json "$L"/before_bw.1.log \
	before_clat_hist.1.log
run "$STORAN" ingest --fio-version 3.33 -o after2.json "$L"/after_bw.1.log \
	after_clat_hist.1.log
run "$STORAN" compare --no-check --format csv before2.json after2.json
expect_in "$out" "fio,read,bw,test=bw,1," "with a hist log: bw matched"
expect_in "$out" "fio,read,clat.p99,test=clat_hist,1," "with a hist log: clat.p99 matched"
case "$out$err" in *unmatched*) fail "unmatched: $out $err" ;; esac

# fio writes an empty slat log for psync (its default engine): a note,
# not an error, so that ingest *.log of such a run exits 0
cp "$FIXTURES/fio-log/0040-rw_slat-empty.1.log" job_slat.1.log
run "$STORAN" ingest --fio-version 3.33 -o all.json "$L"/before_bw.1.log job_slat.1.log
expect_rc 0 "an empty slat log beside a bw log"
expect_in "$err" "job_slat.1.log:1: note: an empty fio slat log: a synchronous ioengine (psync, sync, ...) has no submission latency; nothing to read" "the note"
: > job_clat_hist.1.log
run "$STORAN" ingest -o all3.json "$L"/before_bw.1.log job_clat_hist.1.log
expect_rc 0 "an empty hist log (no log_hist_msec)"
expect_in "$err" "job_clat_hist.1.log:1: note: an empty fio histogram log: fio writes its lines only with log_hist_msec; nothing to read" "its note"
: > job_bw.1.log
run "$STORAN" ingest -o all2.json job_bw.1.log
expect_rc 1 "an empty bw log is an error"
# A log whose times go back (a line pasted out of order): said once, at
# its line; its series has no interval (0), not a negative one that
# storan then refused to read back from its own result set (found by the
# fio-log fuzz target).
printf '%s\n' '1002, 299, 299, 0, 0, 0' '37095516151002, 200, 200, 1, 0, 0' \
	'2002, 299, 299, 0, 0, 0' '2002, 199, 199, 1, 0, 0' \
	'3003, 301, 301, 0, 0, 0' '3003, 200, 200, 1, 0, 0' > back_iops.1.log
run "$STORAN" ingest --fio-version 3.33 -o back.json back_iops.1.log
expect_rc 0 "ingest a log whose times go back"
expect_in "$err" "back_iops.1.log:4: note: fio iops log: its write time goes back here, from 37095516151002 to 2002 ms" "the note where the time goes back"
n=$(printf '%s\n' "$err" | grep -c "goes back")
[ "$n" -eq 1 ] || fail "the time going back said $n times"
run "$STORAN" export --format csv back.json
expect_rc 0 "its result set read back"
expect_in "$out" "back_iops.1.log,2,fio,write,iops,1/s,1," "its write iops read back"
finish
