#!/usr/bin/env bash
# report: one input's sections are never averaged into one bar.  Fixture
# context/0012 has hdparm -t on /dev/sdb twice (no heading) and on /dev/sda
# under BEFORE: (99.67 MB/sec) and AFTER: (199.87).  The device chart
# dropped 'section' (a label some outputs lack) and drew /dev/sda as one
# 157 MB/s bar, its table said the same; now sections are series ("no
# section" for /dev/sdb) in the chart and in its table alike.
. "$(dirname "$0")/lib.sh"
IN="$FIXTURES/context/0012-made-up-before-after-labels-markdown-headings-run-counters.txt"

run "$STORAN" report "$IN" -o "$TMP/rep"
expect_rc 1 "report (check warnings)"
md=$(cat "$TMP/rep/report.md")
expect_in "$md" "| device | section=AFTER (MB/s) | section=BEFORE (MB/s) | no section (MB/s) |" "sections as columns"
# 199.87 and 99.67 MiB/s; /dev/sdb's two runs (133.33, 136.21) under "Run 1:" /
# "Run 2:" are one measurement (n=2), with one short-run finding
expect_in "$md" "| /dev/sda | 210 †1 | 105 †2 | - |" "/dev/sda before and after"
expect_in "$md" "| /dev/sdb | - | - | 141 †3 |" "/dev/sdb (its two runs one measurement: one finding)"
case "$md" in *"| 157"*) fail "a 157 MB/s mean of before and after" ;; esac
finish
