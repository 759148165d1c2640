#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Steady state from fio's logs (issue 20): export --steady agrees with
# the verdict fio itself printed for the same run (fio-3.33-ss-*.json
# beside the logs), and check warns of a figure whose samples never
# settled, not of one that did, nor of a run too short to tell.
. "$(dirname "$0")/lib.sh"
D="$FIXTURES/fio-log"

# fio: ss=iops:0.2%, ss_dur=3: "attained": 0, criterion 39.6%
run "$STORAN" export --steady=iops:0.2%,dur=3 "$D/0021-nv_iops.1.log"
expect_rc 0 "export --steady (never)"
expect_in "$out" "0021-nv_iops.1.log,1,fio,read,iops,1/s,,\"iops:0.2%,dur=3\",never," "never, as fio said"
# fio: ss=iops:5%, ss_dur=5: "attained": 1 (its log stops there: 4
# samples, so the window here is 3)
run "$STORAN" export --steady=iops:5%,dur=3 "$D/0022-ss_iops.1.log"
expect_in "$out" "0022-ss_iops.1.log,1,fio,read,iops,1/s,,\"iops:5%,dur=3\",steady,0,499.75," "steady, as fio said"
expect_in "$out" "\"steady from 0 s, 500 IOPS ± 0.25%\"" "in words"
run "$STORAN" export --steady=iops:5%,dur=30 "$D/0022-ss_iops.1.log"
expect_in "$out" ",too-short,,,,,30,too short for a window of 30 samples" "too short"
run "$STORAN" export --steady=wobble:5% "$D/0022-ss_iops.1.log"
expect_rc 2 "a bad rule"
expect_in "$err" "steady-state rule 'wobble:5%': want fio's ss= form" "its message"
run "$STORAN" export --series --steady "$D/0022-ss_iops.1.log"
expect_rc 2 "--series and --steady"

# 60 s of 1 s IOPS samples: one settles at 40k after 20 s, one swings
# 20% every other second
cd "$TMP" || exit 2
awk 'BEGIN { for (i = 1; i <= 60; i++)
	printf "%d, %d, 0, 0, 0\n", i * 1000, i < 20 ? i * 2000 : 40000 + (i % 2) * 100 }' \
	> settled_iops.1.log
awk 'BEGIN { for (i = 1; i <= 60; i++)
	printf "%d, %d, 0, 0, 0\n", i * 1000, i % 2 ? 48000 : 32000 }' \
	> swinging_iops.1.log
run "$STORAN" check --format csv settled_iops.1.log
case "$out" in *steady-state*) fail "a settled run: $out" ;; esac
# a log is one run: its ramp is no "noisy" over 60 runs
case "$out" in *noisy*) fail "the samples of a log taken for runs: $out" ;; esac
run "$STORAN" check --format csv swinging_iops.1.log
expect_rc 1 "check of a run that never settled"
expect_in "$out" "swinging_iops.1.log,1,warning,steady-state,\"read iops never settled over its 60 samples: no 30 s window stayed within 10% of its mean (the best one within 20%)" "the warning"
run "$STORAN" check --format csv "$D/0022-ss_iops.1.log"
case "$out" in *steady-state*) fail "a run too short to tell: $out" ;; esac
run "$STORAN" export --steady settled_iops.1.log
# within 10% of the mean from the window that starts at 17 s
expect_in "$out" ",steady,17,39906.976744186," "settled from 17 s"
# compare --steady: a write cliff at 20 s, then 40k: only the steady part
awk 'BEGIN { for (i = 1; i <= 60; i++)
	printf "%d, %d, 0, 0, 0\n", i * 1000, i < 20 ? 90000 : 40000 + (i % 2) * 100 }' \
	> a_iops.1.log
awk 'BEGIN { for (i = 1; i <= 60; i++)
	printf "%d, %d, 0, 0, 0\n", i * 1000, i < 20 ? 90000 : 40000 + (i % 3) * 100 }' \
	> b_iops.1.log
run "$STORAN" compare --no-check --format csv a_iops.1.log b_iops.1.log
# one log is one run: n 1, its figure the mean of its 60 samples
expect_in "$out" "fio,read,iops,,1,55866.6666666667,1," "whole: one run of 60 samples"
run "$STORAN" compare --no-check --format csv --steady=iops:2%,dur=10 a_iops.1.log b_iops.1.log
expect_rc 0 "compare --steady"
expect_in "$out" "fio,read,iops,,1,40048.7804878049,1,40100," "steady: from 19 s, the mean of its 41 samples"
run "$STORAN" compare --no-check --steady a_iops.1.log "$D/0022-ss_iops.1.log"
expect_in "$err" "0022-ss_iops.1.log:1: note: read iops: too short for a steady-state window; compared whole" "the note"
run "$STORAN" compare --steady=nope a_iops.1.log b_iops.1.log
expect_rc 2 "compare: a bad rule"

# table: beside the whole run's figure, its steady part's (NAME_steady)
run "$STORAN" table --no-check --metric iops --rows source settled_iops.1.log \
	swinging_iops.1.log "$D/0022-ss_iops.1.log"
expect_rc 0 "table with steady column"
expect_in "$out" "iops (IOPS)  iops steady (IOPS)" "the column"
expect_in "$out" "settled_iops.1.log         33700     39907 from 17 s" "steady from 17 s"
expect_in "$out" "swinging_iops.1.log        40000               never" "never"
expect_in "$out" "0022-ss_iops.1.log           500           too short" "too short"
expect_in "$out" "by fio's rule (deviation within 10% of the mean over 30 s)" "the rule in the note"
run "$STORAN" table --no-check --format csv --metric iops --rows source \
	settled_iops.1.log swinging_iops.1.log
expect_in "$out" "source,iops,iops_steady" "csv: iops_steady"
expect_in "$out" "settled_iops.1.log,33700,39906.976744186" "csv: the steady mean"
expect_in "$out" "swinging_iops.1.log,40000," "csv: never is empty"
run "$STORAN" table --no-check --format json --metric iops --rows source \
	swinging_iops.1.log
expect_in "$out" '"iops_steady": null' "json: never is null"
run "$STORAN" table --no-check --format csv --metric iops --rows source \
	--steady=iops:25%,dur=10 swinging_iops.1.log
expect_in "$out" "swinging_iops.1.log,40000,40000" "--steady RULE: within 25% it is steady"
run "$STORAN" table --no-check --format csv --metric iops --rows source \
	--pool test settled_iops.1.log swinging_iops.1.log
run "$STORAN" table --no-check --metric iops --rows op --pool test \
	settled_iops.1.log swinging_iops.1.log
expect_in "$out" "1 of 2 steady" "pooled: one of two"
run "$STORAN" table --no-check --metric iops --rows op --steady=nope \
	settled_iops.1.log
expect_rc 2 "table: a bad rule"
# a figure without samples over time has no steady column
run "$STORAN" table --no-check --format csv --metric bw --rows op \
	"$FIXTURES/fio/0110-3_33-randrw-libaio_bw.1.log"
expect_in "$out" "bw_steady" "a log: the column"
run "$STORAN" table --no-check --format csv --metric bw --rows op \
	"$FIXTURES/fio/0006-2_18-randread-json.json"
expect_rc 0 "table of a fio JSON"
case "$out" in *_steady*) fail "a steady column without samples over time: $out" ;; esac
finish
