#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# One post's headings are its parts.  The 2004 blog post of fixture
# context/0011 prints hdparm -tT on /dev/hda under BEFORE: (7.20 MB/sec,
# hdparm's MiB/s) and AFTER: (40.72 MB/sec).  A table by device pooled the
# two into one 25.1 MB/s, a figure the post never measured, with exit 0:
# now the cell is reported as mixed (exit 1) like any other condition, and
# sections on an axis give each its own figure.
. "$(dirname "$0")/lib.sh"
IN="$FIXTURES/context/0011-yaml-front-matter-is-no-heading-hdparm-blog-2004.txt"

run "$STORAN" table "$IN" --rows device --cols op --metric bw --no-check
expect_rc 1 "table pooling BEFORE and AFTER"
expect_in "$err" "differ in 'section' (BEFORE, AFTER)" "mixed sections"
expect_in "$err" "put 'section' on --rows or --cols" "the way out"

run "$STORAN" table "$IN" --rows section --cols op --metric bw --no-check \
	--format csv
expect_rc 0 "table by section"
# 40.72 and 7.20 MiB/s in B/s
expect_in "$out" "AFTER,42698014.72," "AFTER read"
expect_in "$out" "BEFORE,7549747.2," "BEFORE read"

# one section picked: nothing pooled, nothing said
run "$STORAN" table "$IN" --rows device --cols op --metric bw --no-check \
	--where section=AFTER
expect_rc 0 "table of AFTER only"

# two inputs, each under a heading of its own: two setups, never pooled
# (the experiment model), whoever wrote the headings
for d in Monday Tuesday; do
	printf '%s:\n\n# hdparm -t /dev/hda\n\n/dev/hda:\n Timing buffered disk reads: 64 MB in  8.89 seconds =  7.20 MB/sec\n' \
		"$d" > "$TMP/$d.txt"
done
run "$STORAN" ingest "$TMP/Monday.txt" --format csv
expect_in "$out" "section=Monday" "a heading of its own"
run "$STORAN" table "$TMP/Monday.txt" "$TMP/Tuesday.txt" --rows device \
	--metric bw --stat n --no-check --format csv
expect_rc 1 "two inputs"
expect_in "$err" "differ in 'section' (Monday, Tuesday)" "two setups"
run "$STORAN" table "$TMP/Monday.txt" "$TMP/Tuesday.txt" --rows section \
	--metric bw --stat n --no-check --format csv
expect_rc 0 "two inputs by section"
expect_in "$out" "Monday,1" "Monday"
expect_in "$out" "Tuesday,1" "Tuesday"
run "$STORAN" table "$TMP/Monday.txt" "$TMP/Tuesday.txt" --rows device \
	--metric bw --stat n --no-check --format csv --pool section,test
expect_rc 0 "pooled on request"
expect_in "$out" "/dev/hda,2" "two runs pooled"
finish
