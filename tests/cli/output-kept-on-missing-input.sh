#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Whole or not at all: when an input cannot be read (exit 2: a typo in a
# glob), ingest and export leave an existing -o FILE as it was instead of
# replacing it with fewer results, and say so; readable inputs alone
# still replace it.
. "$(dirname "$0")/lib.sh"
dd="$FIXTURES/dd/0013-gnu-newformat-GBps-write-and-read.txt"
run "$STORAN" ingest -o "$TMP/keep.json" "$dd"
expect_rc 0 "ingest of a readable input"
cp "$TMP/keep.json" "$TMP/before.json"
run "$STORAN" ingest -o "$TMP/keep.json" "$TMP/typo.txt"
expect_rc 2 "ingest of a missing input"
cmp -s "$TMP/keep.json" "$TMP/before.json" ||
	fail "ingest replaced keep.json though its input was missing"
expect_in "$err" "keep.json not written: an input could not be read" \
	"ingest's message"
run "$STORAN" ingest -o "$TMP/keep.json" "$dd" "$TMP/typo.txt"
expect_rc 2 "ingest of a readable and a missing input"
cmp -s "$TMP/keep.json" "$TMP/before.json" ||
	fail "ingest replaced keep.json though one input was missing"
# to stdout, not one input read: nothing for the next command of a pipe
# (it was an empty result set, taken there for no results); one read:
# its results, still exit 2
for fmt in json csv; do
	run "$STORAN" ingest --format $fmt "$TMP/typo.txt"
	expect_rc 2 "ingest --format $fmt of a missing input to stdout"
	[ -z "$out" ] || fail "ingest --format $fmt wrote '$out' with no input read"
	expect_in "$err" "typo.txt: cannot open" "the missing input named"
	run "$STORAN" ingest --format $fmt "$TMP/typo.txt" "$dd"
	expect_rc 2 "ingest --format $fmt of a missing and a readable input"
	expect_in "$out" "1073741824" "the readable input's results"
done
run "$STORAN" export -o "$TMP/keep.csv" "$TMP/keep.json"
expect_rc 0 "export of a result set"
cp "$TMP/keep.csv" "$TMP/before.csv"
run "$STORAN" export -o "$TMP/keep.csv" "$TMP/nothere.json"
expect_rc 2 "export of a missing result set"
cmp -s "$TMP/keep.csv" "$TMP/before.csv" ||
	fail "export replaced keep.csv though its input was missing"
expect_in "$err" "keep.csv not written" "export's message"
run "$STORAN" export -o "$TMP/keep.csv" "$TMP/keep.json" "$TMP/keep.json"
expect_rc 0 "export of two readable sets"
[ "$(wc -l < "$TMP/keep.csv")" -gt "$(wc -l < "$TMP/before.csv")" ] ||
	fail "export of readable inputs did not replace keep.csv"
finish
