#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# --ratio K=A/K=B where no measurement has K=B (a typo) is an error (exit
# 2, naming the missing side), not a table of '-' cells with exit 0.
. "$(dirname "$0")/lib.sh"
dd="$FIXTURES/dd/0013-gnu-newformat-GBps-write-and-read.txt"
run "$STORAN" ingest --label kind=block -o "$TMP/blk.json" "$dd"
run "$STORAN" ingest --label kind=file -o "$TMP/fil.json" "$dd"
run "$STORAN" table "$TMP/blk.json" "$TMP/fil.json" --rows op --metric bw \
	--ratio kind=file/kind=nosuch
expect_rc 2 "a ratio whose denominator matches nothing"
expect_in "$err" "no 'bw' measurement has kind=nosuch (--ratio)" "message"
run "$STORAN" table "$TMP/blk.json" "$TMP/fil.json" --rows op --metric bw \
	--ratio kind=nosuch/kind=block
expect_rc 2 "a ratio whose numerator matches nothing"
expect_in "$err" "has kind=nosuch" "message"
run "$STORAN" table "$TMP/blk.json" "$TMP/fil.json" --rows op --metric bw \
	--ratio kind=file/kind=block --no-check
expect_rc 0 "a ratio of two groups that exist"
expect_in "$out" "1.00" "the ratio of a set to its copy"
finish
