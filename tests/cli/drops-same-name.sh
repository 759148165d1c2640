#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A cache drop counts only in its own input, even when two inputs share a
# name (base/run.txt, cand/run.txt: made-up transcripts).  The baseline
# drops the cache before its second read; the candidate does not, and
# reads the file it just wrote at 10x: a cached read.  Drops were matched
# by source name alone, so the baseline's drop hid the candidate's
# cached read from check, compare (which called it an improvement with
# no caveat), table and report.
. "$(dirname "$0")/lib.sh"
D="$(cd "$(dirname "$0")" && pwd)/data/check/same-name"
cd "$TMP" || exit 2
cp -r "$D/base" "$D/cand" .

run "$STORAN" check cand/run.txt
expect_in "$out" "run.txt:14: warning: cached-read" "check of the candidate alone"
run "$STORAN" check base/run.txt cand/run.txt
expect_in "$out" "run.txt:14: warning: cached-read" "check of both"
run "$STORAN" compare base/run.txt cand/run.txt
expect_in "$out" "warning: cached-read" "compare's footnotes"
run "$STORAN" table base/run.txt cand/run.txt --rows op --metric bw \
	--where tool=dd
expect_in "$out" "warning: cached-read" "table's footnotes"
run "$STORAN" report base/run.txt cand/run.txt -o rep
expect_in "$(cat rep/report.md)" "cached-read" "the report's caveats"
# the same through result sets
"$STORAN" ingest -o base.json base/run.txt && "$STORAN" ingest -o cand.json cand/run.txt ||
	fail "ingest"
run "$STORAN" compare base.json cand.json
expect_in "$out" "warning: cached-read" "compare of the result sets"
finish
