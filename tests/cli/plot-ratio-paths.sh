#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A ratio of two devices: --ratio device=/dev/sdb/device=/dev/nvme0n1 has
# '/' in both values.  plot cut the spec at its first '/' and refused it
# ("compares two values of one key, not 'device' and 'dev/sdb/device'"),
# and report, which builds that spec itself, lost its device ratio chart.
# Real post (tests/cli/data/README): USB stick 26.01 MB/sec against NVMe
# 1701.12 MB/sec, hdparm's MiB/s: a ratio of 0.0153.
. "$(dirname "$0")/lib.sh"
IN="$(dirname "$0")/data/hdparm-tT-nvme-and-usb.txt"

run "$STORAN" plot "$IN" --y bw --x op --where op=read \
	--ratio device=/dev/sdb/device=/dev/nvme0n1 -o "$TMP/r.svg"
expect_rc 0 "plot --ratio with paths"
[ -s "$TMP/r.svg" ] || fail "no ratio chart drawn"
# the SVG's <title> element names both devices whole
expect_in "$(grep '<title>' "$TMP/r.svg" 2>/dev/null)" \
	"/dev/sdb relative to /dev/nvme0n1" "ratio chart title"

# the same spec read the same way by table and plot: last '/KEY='
run "$STORAN" table "$IN" --rows op --metric bw --no-check \
	--ratio device=/dev/sdb/device=/dev/nvme0n1 --format csv
expect_rc 0 "table --ratio with paths"
expect_in "$out" "read,0.0152" "table ratio"

# report --ratio: the two devices are the sides, the ratio chart first,
# and no note says the spec could not be read
run "$STORAN" report "$IN" --ratio device=/dev/sdb/device=/dev/nvme0n1 \
	-o "$TMP/rep"
expect_rc 0 "report --ratio (written: findings are in the page)"
ls "$TMP/rep/charts" | head -1 | grep -q 'ratio' ||
	fail "no ratio chart first: $(ls "$TMP/rep/charts")"
expect_in "$(cat "$TMP/rep/index.html")" "/dev/sdb against /dev/nvme0n1" \
	"the verdicts name both devices whole"
case "$err" in *"compares two values"*|*"KEY=A/KEY=B"*) fail "report note: $err" ;; esac
finish
