#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# -o never replaces what is not a regular file: a FIFO (like /dev/null)
# stays a FIFO and gets the data; a symbolic link stays a link and its
# target gets the data; a failed run leaves the old file alone.
. "$(dirname "$0")/lib.sh"
good="$FIXTURES/hdparm/0011-tT-sda-hdd.txt"

mkfifo "$TMP/fifo"
cat "$TMP/fifo" > "$TMP/from-fifo" &
reader=$!
run "$STORAN" ingest --format csv -o "$TMP/fifo" "$good"
expect_rc 0 "-o FIFO"
wait "$reader"
[ -p "$TMP/fifo" ] || fail "the FIFO was replaced"
grep -q "hdparm,read,bw" "$TMP/from-fifo" || fail "nothing came through the FIFO"
ls "$TMP"/fifo.tmp-* >/dev/null 2>&1 && fail "temporary file left beside the FIFO"

echo old > "$TMP/real.csv"
ln -s real.csv "$TMP/link.csv"
run "$STORAN" ingest --format csv -o "$TMP/link.csv" "$good"
expect_rc 0 "-o symlink"
[ -L "$TMP/link.csv" ] || fail "the symbolic link was replaced"
grep -q "hdparm,read,bw" "$TMP/real.csv" || fail "the link's target was not written"

for cmd in "export --format csv" "table --rows op --metric bw"; do
	echo keep > "$TMP/keep.txt"
	# shellcheck disable=SC2086
	run "$STORAN" $cmd -o "$TMP/keep.txt" "$TMP/missing.txt"
	[ "$rc" -ne 0 ] || fail "$cmd with a missing input succeeded"
done
finish
