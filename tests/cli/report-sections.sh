#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# report: one input's sections are never averaged into one bar.  Fixture
# context/0012 has hdparm -t on /dev/sdb twice (no heading) and on /dev/sda
# under BEFORE: (99.67 MB/sec) and AFTER: (199.87).  The device chart
# dropped 'section' (a label some outputs lack) and drew /dev/sda as one
# 157 MB/s bar, its table said the same; now sections are series ("no
# section" for /dev/sdb) in the chart and in its table alike, as the
# experiment model keeps every section apart.
. "$(dirname "$0")/lib.sh"
IN="$FIXTURES/context/0012-made-up-before-after-labels-markdown-headings-run-counters.txt"

run "$STORAN" report "$IN" -o "$TMP/rep"
expect_rc 0 "report (written: findings are in the page)"
md=$(cat "$TMP/rep/report.md")
expect_in "$md" "| Device | BEFORE (MB/s) | AFTER (MB/s) | no section (MB/s) |" "sections as columns"
# 99.67 and 199.87 MiB/s; /dev/sdb's two runs (133.33, 136.21 MiB/s: 139.8
# and 142.8 MB/s) under "Run 1:" / "Run 2:" are one measurement (n=2)
# shown by both its values, with one short-run finding
expect_in "$md" "| /dev/sda | 105 †2 | 210 †3 | - |" "/dev/sda before and after"
expect_in "$md" "| /dev/sdb | - | - | 141 (140, 143) †1 |" "/dev/sdb (its two runs one measurement: one finding)"
# the dd outputs under "## ext4" and "## btrfs" are two bars too
expect_in "$md" "| ext4 | 211 †4 |" "ext4"
expect_in "$md" "| btrfs | 173 †5 |" "btrfs"
expect_in "$md" "| section | BEFORE, AFTER, ext4, btrfs |" "what varies"
case "$md" in *"| 157"*) fail "a 157 MB/s mean of before and after" ;; esac
finish
