#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan report writes DIR whole or not at all: an earlier report is
# replaced, anything else is left alone, a failed run leaves nothing.
# (What may be replaced, file by file: report-foreign-files.sh.)
set -u
DATA=$(cd "$(dirname "$0")/data/plot" && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T"
fail=0
"$STORAN" report "$DATA/sweep.json" -o rep 2>/dev/null || fail=1
"$STORAN" report "$DATA/sweep.json" -o rep/ 2>/dev/null || { echo "no replace"; fail=1; }
[ -f rep/storan-manifest.sha256 ] || { echo "no manifest"; fail=1; }
mkdir mine && echo precious > mine/notes.txt
"$STORAN" report "$DATA/sweep.json" -o mine 2>err.txt
[ $? -eq 2 ] && grep -q "cannot prove it wrote it" err.txt || { echo "overwrote: $(cat err.txt)"; fail=1; }
[ "$(cat mine/notes.txt)" = precious ] && [ "$(ls mine)" = notes.txt ] || fail=1
printf 'nothing to see\n' > empty.txt
"$STORAN" report empty.txt -o none 2>err.txt
[ $? -eq 2 ] && [ ! -e none ] || { echo "made a report of nothing"; fail=1; }
"$STORAN" report "$DATA/sweep.json" -o no/such/dir 2>err.txt
[ $? -eq 2 ] && grep -q "cannot create" err.txt || { echo "bad parent: $(cat err.txt)"; fail=1; }
"$STORAN" report -o x 2>/dev/null; [ $? -eq 2 ] || fail=1
"$STORAN" report "$DATA/sweep.json" 2>/dev/null; [ $? -eq 2 ] || fail=1
"$STORAN" report --help | grep -q "report.xlsx" || fail=1
[ -z "$(ls | grep tmp)" ] || { echo "temporary left: $(ls)"; fail=1; }
exit $fail
