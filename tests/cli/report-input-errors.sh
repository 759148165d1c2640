#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# report: what an input could not be read is said in the report, not only
# on the terminal.  Fixture hdparm/1001 is cut inside its second timing:
# the report charted the cached read alone and its Markdown, HTML and
# workbook gave no sign that the buffered read (the figure the post was
# about) had been lost; an input that gave nothing at all was listed
# among the inputs as if it had contributed.
. "$(dirname "$0")/lib.sh"
IN="$FIXTURES/hdparm/1001-bad-truncated-second-line.txt"
printf 'hello world\n' > "$TMP/empty.txt"

run "$STORAN" report "$IN" "$TMP/empty.txt" -o "$TMP/rep"
expect_rc 1 "an input only partly read"
md=$(cat "$TMP/rep/report.md")
expect_in "$md" "input not read in full: 1001-bad-truncated-second-line.txt:5: unreadable hdparm timing: expected the seconds" "the cut in report.md"
expect_in "$md" "input not read in full: empty.txt:1: no benchmark output found" "the empty input in report.md"
html=$(cat "$TMP/rep/index.html")
expect_in "$html" "input not read in full: 1001-bad-truncated-second-line.txt:5: unreadable hdparm timing" "the cut in index.html"
# said once on stderr, as before
n=$(printf '%s\n' "$err" | grep -c "unreadable hdparm timing")
[ "$n" -eq 1 ] || fail "stderr says it $n times: $err"

# A result set whose measurements named no source (written by hand with
# "sources": []) is read with a source of no name: the report lists its
# file as the input and no empty row for that source.
printf '{"schema": "storan/1", "sources": [], "measurements": [{"tool": "fio", "op": "read", "metric": "bw", "unit": "B/s", "values": [100, 110], "labels": {"bs": "4096"}}]}\n' > "$TMP/bare.json"
run "$STORAN" report "$TMP/bare.json" -o "$TMP/bare"
expect_rc 0 "report of a set without sources"
grep -q '^| [^|]*bare.json | result set |' "$TMP/bare/report.md" ||
	fail "bare.json not among the inputs"
grep -q '^|  |' "$TMP/bare/report.md" && fail "an empty row among the inputs"
grep -q '<tr><td></td>' "$TMP/bare/index.html" &&
	fail "an empty row among the inputs (HTML)"
# nor is it counted: "1 measurement; made by", no "from 1 source(s)"
for f in report.md index.html; do
	grep -q '1 measurement; made by storan' "$TMP/bare/$f" ||
		fail "$f: the count line: $(grep -o '[0-9]* measurements[^.]*' "$TMP/bare/$f")"
	grep -q 'source(s)' "$TMP/bare/$f" && fail "$f: source(s) for a plural"
done
finish
