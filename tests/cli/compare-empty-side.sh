#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# compare with a side that has nothing to compare (every measurement of it
# filtered out, or an input that gave none) says which input that is.  It
# said only "no measurement matched", and took every constant label of the
# other side for an identity label: the hdparm post was titled
# "(device=/dev/sda;direct=0)" and those labels "left out of the match",
# as if they told the inputs apart.
. "$(dirname "$0")/lib.sh"
D="$(dirname "$0")/data"
A="$D/hdparm-tT-sda-hdd.txt" B="$D/dd-5runs-fdatasync.txt"

run "$STORAN" compare "$A" "$B" --where tool=hdparm --no-check
expect_rc 1 "nothing to compare is a finding"
expect_in "$err" "dd-5runs-fdatasync.txt: no measurement to compare (--metric and --where leave none)" "the empty side named"
expect_in "$err" "no measurement matched" "and no match"
case "$out" in *"(device=/dev/sda;direct=0)"*) fail "identity against nothing: $out" ;; esac
case "$out" in *"left out of the match: command, device, direct"*) fail "labels left out against nothing: $out" ;; esac
expect_in "$out" "unmatched, only in $A: hdparm read bw device=/dev/sda;direct=0" "the baseline's figures listed"

# --metric that one side lacks: the baseline is the empty one
run "$STORAN" compare "$B" "$A" --metric time.real --no-check
expect_rc 1 "no time.real anywhere"
expect_in "$err" "dd-5runs-fdatasync.txt: no measurement to compare" "empty baseline named"
expect_in "$err" "hdparm-tT-sda-hdd.txt: no measurement to compare" "empty candidate named"

# JSON says it too
run "$STORAN" compare "$A" "$B" --where tool=hdparm --no-check --format json
expect_in "$out" '"compared_baseline": 2' "baseline count"
expect_in "$out" '"compared_candidate": 0' "candidate count"
finish
