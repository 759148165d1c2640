#!/usr/bin/env bash
# storan report on an iozone -a sweep (nine file sizes, 64 KiB to 512 MiB):
# the charts and tables show the largest file only, as the note says,
# instead of pooling every file size into one cell with error bars made
# of different tests.
. "$(dirname "$0")/lib.sh"
sweep="$(cd "$(dirname "$0")/../.." && pwd)/sample-data/iozone/iozone-3.465-auto-I-odirect-srp-target.txt"
run "$STORAN" report "$sweep" -o "$TMP/rep"
expect_rc 0 "report of an iozone sweep"
expect_in "$err" "charts show the largest file size of each input" "note"
md=$(cat "$TMP/rep/report.md")
expect_in "$md" "filesize=512M" "the shown file size"
case "$md" in
*"differ in 'filesize'"*) fail "a table pools different file sizes" ;;
esac
finish
