#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The verdict table's test column names what tells rows apart, and only
# that: sample-data/old-new (real fio runs) has each op as a job of its own
# group, so the group number varies exactly with the op; the page said
# "randread group=0" and "randwrite group=1".
. "$(dirname "$0")/lib.sh"
D="$(dirname "$0")/../../sample-data/old-new"
"$STORAN" ingest "$D"/old.*.txt -o "$TMP/old.json" 2>/dev/null
"$STORAN" ingest "$D"/new.*.txt -o "$TMP/new.json" 2>/dev/null
run "$STORAN" report "$TMP/old.json" "$TMP/new.json" -o "$TMP/rep"
expect_rc 0 "report old new"
page=$(cat "$TMP/rep/index.html" 2>/dev/null)
expect_in "$page" "<td>randread</td>" "the test column: the op alone"
case "$page" in *"group=0"*|*"group=1"*) fail "group number in the page" ;; esac
case "$(cat "$TMP/rep/report.md")" in *"group="*) fail "group in report.md" ;; esac
finish
