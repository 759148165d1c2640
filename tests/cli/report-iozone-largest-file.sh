#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan report on an iozone -a sweep (nine file sizes, 64 KiB to 512 MiB):
# the charts and tables show the largest file only, as the note says,
# instead of pooling every file size into one cell with error bars made
# of different tests.  With a second input that stops at 256 MiB, both
# are shown at 256 MiB, the largest size they share: a chart limited to
# each input's largest took either size from both, and mixed them.
. "$(dirname "$0")/lib.sh"
sweep="$(cd "$(dirname "$0")/../.." && pwd)/sample-data/iozone/iozone-3.465-auto-I-odirect-srp-target.txt"
run "$STORAN" report "$sweep" -o "$TMP/rep"
expect_rc 0 "report of an iozone sweep"
expect_in "$err" "shown at filesize=512M only (the largest size every input has" "note"
md=$(cat "$TMP/rep/report.md")
expect_in "$md" "filesize=512M" "the shown file size"
case "$md" in
*"differ in 'filesize'"*) fail "a table pools different file sizes" ;;
esac

grep -v '^ *524288 ' "$sweep" > "$TMP/to-256M.txt"
run "$STORAN" report "$sweep" "$TMP/to-256M.txt" -o "$TMP/rep2"
[ "$rc" -le 1 ] || fail "report of two sweeps: exit $rc ($err)"
md=$(cat "$TMP/rep2/report.md")
expect_in "$md" "filesize=256M" "the size both inputs have"
case "$md" in
*"filesize=512M"*) fail "a size one input lacks is shown" ;;
esac
case "$md" in
*"differ in 'filesize'"*) fail "a table pools different file sizes" ;;
esac
finish
