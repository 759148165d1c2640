#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan report A B of fio logs (issue 20): one chart over time per
# metric with the two runs overlaid, each line named by its side
# ("before (baseline)", "after", not the first log's name), each line's
# steady-state verdict in the subtitle, and each steady part shaded as a
# tube around its own line (two full-height bands would hide each
# other); the p99 of the histogram logs overlaid as well.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 2

# before: a write cliff at 20 s, then 40k IOPS; after: a cliff at 10 s,
# then 30k
awk 'BEGIN { for (i = 1; i <= 60; i++)
	printf "%d, %d, 1, 0, 0\n", i * 1000, i < 20 ? 90000 : 40000 + (i % 2) * 100 }' \
	> before_iops.1.log
awk 'BEGIN { for (i = 1; i <= 60; i++)
	printf "%d, %d, 1, 0, 0\n", i * 1000, i < 10 ? 60000 : 30000 + (i % 2) * 100 }' \
	> after_iops.1.log
cp "$FIXTURES/fio-log/0006-rw_clat_hist.1.log" before_clat_hist.1.log
cp "$FIXTURES/fio-log/0006-rw_clat_hist.1.log" after_clat_hist.1.log
run "$STORAN" ingest -o before.json before_iops.1.log before_clat_hist.1.log
run "$STORAN" ingest -o after.json after_iops.1.log after_clat_hist.1.log
run "$STORAN" report before.json after.json -o rep
expect_rc 0 "report before/after"
f=$(ls rep/charts/*-time-iops-write.json)
j=$(grep '"name"' "$f")
expect_in "$j" '"name": "before (baseline)"' "the baseline's line, by its side"
expect_in "$j" '"name": "after"' "the candidate's line"
case "$j" in *'"name": "before_iops.1.log'*) fail "a line named by a log: $j" ;; esac
j=$(grep '"subtitle"' "$f")
expect_in "$j" "before (baseline): steady from 19 s, 40.0 k IOPS ± 0.13%; after: steady from 9 s, 30.0 k IOPS ± 0.17%" "each line's verdict"
j=$(sed -n '/"steady": \[/,/\]/p' "$f")
# a tube: the steady part's range and 3% of the 90k axis either side
expect_in "$j" '"hi": 42.8' "before: over 40.1k"
expect_in "$j" '"lo": 37.3' "before: under 40.0k"
expect_in "$j" '"lo": 27.3' "after: under 30.0k"
expect_in "$(cat rep/report.md)" "Compared: **before** (baseline) and **after**" "sides named by their logs' common start"
f=$(ls rep/charts/*-time-clat.p99-read.json 2>/dev/null | head -1)
[ -n "$f" ] || fail "no p99 overlay: $(ls rep/charts)"
expect_in "$(cat "$f")" '"name": "after"' "p99 over time, the runs overlaid"
# one input: no p99 overlay (its percentile chart has it), bands whole
run "$STORAN" report before.json -o rep1
ls rep1/charts | grep -q 'time-clat.p99' && fail "a p99 overlay of one run"
j=$(sed -n '/"steady": \[/,/\]/p' rep1/charts/*-time-iops-write.json)
expect_in "$j" '"from": 19.0' "one line: its band"
case "$j" in *'"lo"'*) fail "one line's band is not the whole height: $j" ;; esac
finish
