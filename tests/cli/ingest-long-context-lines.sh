#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The context pass reads a command line and a heading once for all the
# measurements below them.  Each of the measurements of 4,000 hdparm
# timings searched the long line above them again: 18 s under a 95 KB
# line of prose, 42 s under a 120 KB heading (0.05 s now); more lines
# and a longer line multiply.  The bound is a hang's: the old binary
# did not finish in it, this one takes under a second with sanitizers.
. "$(dirname "$0")/lib.sh"
timing=" Timing buffered disk reads: 1536 MB in  3.00 seconds = 511.82 MB/sec"
{
	echo "## Results on sda"
	echo
	printf 'I ran it as:'
	for _ in $(seq 12000); do printf ' dd if=x of=y bs=1M'; done
	echo
	echo "/dev/sda:"
	for _ in $(seq 3000); do echo "$timing"; done
} > "$TMP/prose.txt"
{
	printf '=== '
	for _ in $(seq 50000); do printf 'ab '; done
	echo '==='
	echo "/dev/sdb:"
	for _ in $(seq 3000); do echo "$timing"; done
} > "$TMP/heading.txt"

run timeout 60 "$STORAN" ingest --format csv "$TMP/prose.txt" "$TMP/heading.txt"
expect_rc 0 "ingest under long context lines"
expect_in "$out" "prose.txt,5,hdparm,read,bw,B/s,3000,536682168.32" "the 3,000 timings under the prose"
expect_in "$out" "device=/dev/sda;direct=0;section=Results on sda" "their labels"
expect_in "$out" "heading.txt,3,hdparm,read,bw,B/s,3000,536682168.32" "the 3,000 timings under the long heading"
expect_in "$out" "device=/dev/sdb;direct=0" "their labels"
finish
