#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan report -o DIR replaces DIR only when storan wrote every file in
# it (issue 15): a report with a user's file, a directory, a file edited
# since, a symbolic link, or no manifest at all is refused with exit 2,
# naming what is foreign, and DIR is left exactly as it was.
. "$(dirname "$0")/lib.sh"
DATA=$(cd "$(dirname "$0")/data/plot" && pwd)
IN="$DATA/sweep.json"
cd "$TMP"

snapshot() { (cd "$1" && find . -printf '%y %p\n' | sort && find . -type f -exec sha256sum {} + | sort); }

# refused DIR WHAT: storan report -o DIR exits 2, says WHAT, changes nothing.
refused() {
	local before
	before=$(snapshot "$1")
	run "$STORAN" report "$IN" -o "$1"
	expect_rc 2 "report over $1"
	expect_in "$err" "$2" "report over $1"
	[ "$(snapshot "$1")" = "$before" ] || fail "$1 was changed"
	ls | grep -q tmp && fail "temporary directory left: $(ls)"
}

# The issue's case: index.html and report.md beside a user's work.
mkdir thesis thesis/sub
echo '<html>' > thesis/index.html
echo '# notes' > thesis/report.md
echo '\documentclass{article}' > thesis/thesis.tex
echo keep > thesis/sub/data.csv
refused thesis "cannot prove it wrote it"

# A real report, then one foreign thing in it at a time.
run "$STORAN" report "$IN" -o rep
expect_rc 0 "first report"
(cd rep && sha256sum -c --quiet storan-manifest.sha256) ||
	fail "the manifest does not check with sha256sum -c"
run "$STORAN" report "$IN" -o rep
expect_rc 0 "an unchanged report is replaced"

echo mine > rep/thesis.tex
refused rep "'thesis.tex'"
rm rep/thesis.tex
mkdir rep/sub
refused rep "'sub/'"
rmdir rep/sub
echo extra > rep/charts/notes.txt
refused rep "'charts/notes.txt'"
rm rep/charts/notes.txt
cp rep/index.html saved.html
echo '<!-- edited -->' >> rep/index.html
refused rep "'index.html'"
cp saved.html rep/index.html
ln -s /etc/passwd rep/link
refused rep "'link'"
rm rep/link
mv rep/storan-manifest.sha256 manifest.saved
refused rep "no storan-manifest.sha256"
mv manifest.saved rep/storan-manifest.sha256
printf 'not a manifest\n' > evil.sha256
ln -s rep replink
refused replink "symbolic link"

# Restored, it is storan's again; a removed chart is no foreign file.
rm rep/charts/*.svg
run "$STORAN" report "$IN" -o rep
expect_rc 0 "a report missing a chart is replaced"
[ -z "$(ls -A rep/charts | grep -v -e png -e svg -e json)" ] || fail "charts: $(ls rep/charts)"

# An empty directory may be filled; a file may not become a directory.
mkdir empty
run "$STORAN" report "$IN" -o empty
expect_rc 0 "empty directory"
echo data > plain
run "$STORAN" report "$IN" -o plain
expect_rc 2 "a file as DIR"
[ "$(cat plain)" = data ] || fail "the file was changed"
finish
