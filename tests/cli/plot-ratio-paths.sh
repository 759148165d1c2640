#!/usr/bin/env bash
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
# the SVG's title (its text is drawn as glyphs) names both devices whole
expect_in "$(grep '<title>' "$TMP/r.svg" 2>/dev/null)" \
	"device=/dev/sdb relative to device=/dev/nvme0n1" "ratio chart title"

# the same spec read the same way by table and plot: last '/KEY='
run "$STORAN" table "$IN" --rows op --metric bw --no-check \
	--ratio device=/dev/sdb/device=/dev/nvme0n1 --format csv
expect_rc 0 "table --ratio with paths"
expect_in "$out" "read,0.0152" "table ratio"

# report plans a device ratio chart, and no note says it could not
run "$STORAN" report "$IN" -o "$TMP/rep"
expect_rc 1 "report (short-run warnings)"
ls "$TMP/rep/charts" | grep -q 'ratio-device' || fail "no device ratio chart: $(ls "$TMP/rep/charts")"
case "$err" in *"compares two values"*) fail "report note: $err" ;; esac
finish
