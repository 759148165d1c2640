#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Past the eighth series the palette repeats: the ninth bar was the
# first's twin in colour, legend and all, so two drives looked like one.
# Repeats are hatched with white stripes (lines are dashed): in the SVG,
# one white-stroked path for the ninth's swatch and one for its bar.
. "$(dirname "$0")/lib.sh"
series() {	# series N: N drives' reads, one bar each
	echo 'source,line,tool,op,metric,unit,n,mean,stddev,min,max,labels'
	for i in $(seq 1 "$1"); do
		v=$((i * 100000000))
		echo "p,$((i + 1)),csv,read,bw,B/s,1,$v,,$v,$v,device=sd$i"
	done
}
series 8 >"$TMP/eight.csv"
series 9 >"$TMP/nine.csv"
for n in eight nine; do
	run "$STORAN" plot "$TMP/$n.csv" --y bw --x op --series device \
		-o "$TMP/$n.svg"
	expect_rc 0 "plot of $n series"
done
white() { grep -c 'stroke:rgb(100%,100%,100%)' "$1"; }
[ "$(white "$TMP/eight.svg")" -eq 0 ] || fail "eight series: hatched"
[ "$(white "$TMP/nine.svg")" -eq 2 ] ||
	fail "nine series: $(white "$TMP/nine.svg") hatched paths, want 2"
finish
