#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Two runs kept in two directories under the same file names
# (before/job_bw.1.log, after/job_bw.1.log): the names give both sides the
# name "job", so the report's legend and verdict read "job against job".
# The directories tell them apart: "before" (baseline) and "after".
. "$(dirname "$0")/lib.sh"
L="$(cd "$(dirname "$0")" && pwd)/data/fio-logs"
cd "$TMP" || exit 2
mkdir before after
cp "$L/before_bw.1.log" before/job_bw.1.log
cp "$L/before_iops.1.log" before/job_iops.1.log
cp "$L/after_bw.1.log" after/job_bw.1.log
cp "$L/after_iops.1.log" after/job_iops.1.log
"$STORAN" ingest --fio-version 3.33 -o b.json before/*.log 2>/dev/null &&
	"$STORAN" ingest --fio-version 3.33 -o a.json after/*.log 2>/dev/null ||
	fail "ingest"
run "$STORAN" report b.json a.json -o rep
expect_rc 0 "report"
md=$(cat rep/report.md)
expect_in "$md" "Compared: **before** (baseline) and **after**" "the sides"
expect_in "$md" "after against before (baseline)" "the verdict heading"
# inputs whose directories say nothing: the files they were read from
# name them (two storan runs are both "storan-run")
mkdir x && cp before/job_bw.1.log x/job_bw.1.log
"$STORAN" ingest --fio-version 3.33 -o x.json x/job_bw.1.log 2>/dev/null ||
	fail "ingest x"
cp x.json y.json
run "$STORAN" report x.json y.json -o rep2
expect_rc 0 "report of one directory twice"
md=$(cat rep2/report.md)
expect_in "$md" "Compared: **x** (baseline) and **y**" "sides by file"
finish
