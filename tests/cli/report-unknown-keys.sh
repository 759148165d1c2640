#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# report: a key that no measurement has is a usage error (exit 2) that
# names it, suggests the nearest and lists the keys; --series hots wrote a
# report as if no series had been asked for, and exited 0.
. "$(dirname "$0")/lib.sh"
IN="$(dirname "$0")/data/kind-both.json"

run "$STORAN" report "$IN" --series kidn -o "$TMP/r1"
expect_rc 2 "--series kidn"
expect_in "$err" "storan report: --series 'kidn': no measurement has that key; did you mean 'kind'? (keys: " "--series named"
[ -e "$TMP/r1" ] && fail "--series kidn wrote a report"

run "$STORAN" report "$IN" --where bss=4k -o "$TMP/r2"
expect_rc 2 "--where bss=4k"
expect_in "$err" "--where 'bss': no measurement has that key; did you mean 'bs'?" "--where named"
[ -e "$TMP/r2" ] && fail "--where bss=4k wrote a report"

run "$STORAN" report "$IN" --series kind --where bs!=1M -o "$TMP/r3"
expect_rc 0 "known keys"
finish
