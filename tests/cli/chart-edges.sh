#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# No chart draws past its image's edge: the last tick label of a long
# time axis ("200000" under a 50-hour bandwidth log) was cut in two by
# the right edge.  The outer columns of every PNG must stay blank.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
command -v python3 >/dev/null || exit 77
cd "$TMP" || exit 2
awk 'BEGIN { for (s = 1; s <= 180000; s++)
	printf "%d, %d, 0, 4096, 0\n", s * 1000, 100000 + (s % 97) * 300 }' \
	> long_bw.1.log
run "$STORAN" report -o rep long_bw.1.log
expect_rc 0 "report of a 180,000 s bw log"
ls rep/charts/*.png >/dev/null 2>&1 || fail "no chart drawn"
run python3 "$HERE/png_edges.py" 3 rep/charts/*.png
expect_rc 0 "outer columns blank ($out)"
finish
