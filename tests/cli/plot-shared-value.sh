#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Long values (model names, command lines) are ticked and listed by the
# part that differs; the part they share must still be said once, or the
# ticks read "...0", "...1" and nobody can tell what they are.
. "$(dirname "$0")/lib.sh"
{
	echo 'source,line,tool,op,metric,unit,n,mean,stddev,min,max,labels'
	for i in 0 1 2 3 4; do
		v=$(( (i + 1) * 100000000 ))
		echo "p,$((i + 2)),csv,read,bw,B/s,1,$v,,$v,$v,device=Samsung SSD 870 EVO 1TB number $i"
	done
} >"$TMP/long.csv"

run "$STORAN" plot "$TMP/long.csv" --y bw --x device -o "$TMP/x.svg"
expect_rc 0 "plot, the long values on the x axis"
svg=$(cat "$TMP/x.svg" 2>/dev/null)
expect_in "$svg" ">Device (Samsung SSD 870 EVO 1TB number …)</text>" \
	"the x axis's title says what the ticks share"
expect_in "$svg" ">…3</text>" "a tick shows the part that differs"

run "$STORAN" plot "$TMP/long.csv" --y bw --x op --series device \
	-o "$TMP/s.svg"
expect_rc 0 "plot, the long values as series"
expect_in "$(cat "$TMP/s.svg" 2>/dev/null)" \
	"device Samsung SSD 870 EVO 1TB number …</text>" \
	"the subtitle says what the legend's names share"
finish
