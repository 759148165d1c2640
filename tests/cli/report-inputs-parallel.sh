#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# report loads two inputs or more on worker threads and joins them in
# input order: the report, the workbook's cells and the messages on
# stderr are those of one input after the other (STORAN_SERIAL=1).  The
# inputs: a text with nothing to read, dd runs where a remount drops the
# cache before one read and not before another, one cut inside a timing,
# a mailing-list post.
. "$(dirname "$0")/lib.sh"
printf 'hello world\n' > "$TMP/empty.txt"
# both reads as fast as the page cache: only the remount tells them apart
sed 's/5.96523 s, 720 MB\/s/0.81 s, 5.3 GB\/s/' \
	"$FIXTURES/../check/0006-drop-or-not.txt" > "$TMP/drop.txt"
IN=("$TMP/empty.txt"
    "$TMP/drop.txt"
    "$FIXTURES/hdparm/1001-bad-truncated-second-line.txt"
    "$FIXTURES/mixed/0001-mailing-list-post-quoted-hdparm-dd-time.txt")
cd "$TMP"
for mode in serial parallel; do
	if [ $mode = serial ]; then
		run env STORAN_SERIAL=1 "$STORAN" report "${IN[@]}" -o $mode
	else
		run "$STORAN" report "${IN[@]}" -o $mode
	fi
	expect_rc 1 "$mode: inputs not read in full"
	printf '%s\n' "$err" > $mode.err
done
cmp -s serial.err parallel.err || fail "stderr differs: $(diff serial.err parallel.err)"
# input order on stderr: the empty one, then the cut one
first=$(grep -n 'empty.txt' serial.err | head -1 | cut -d: -f1)
cut=$(grep -n '1001-bad-truncated' serial.err | head -1 | cut -d: -f1)
[ -n "$first" ] && [ -n "$cut" ] && [ "$first" -lt "$cut" ] ||
	fail "stderr not in input order: $(cat serial.err)"
# (cairo numbers its SVG surfaces in the order charts are drawn, on
# however many threads: not the inputs')
norm() { sed 's/-o parallel/-o serial/g; s/surface[0-9]*/surface/g' "$1"; }
for f in report.md index.html; do
	cmp -s <(norm serial/$f) <(norm parallel/$f) || fail "$f differs"
done
for f in serial/charts/*.json; do
	cmp -s "$f" "parallel/charts/${f#serial/charts/}" || fail "$f differs"
done
# the remount counted: the read after it (line 12) is no cached read
# (the drop is found in the raw text, by the parser's context pass and
# by storan check's hook)
for mode in serial parallel; do
	grep 'cached-read' $mode/report.md | grep -q 'drop.txt:20:' ||
		fail "$mode: drop.txt:20 is no cached read"
	grep 'cached-read' $mode/report.md | grep -q 'drop.txt:12:' &&
		fail "$mode: drop.txt:12, after the remount, is a cached read"
done
python3 - <<'PY' || fail "workbooks differ"
import zipfile, sys
a, b = zipfile.ZipFile('serial/report.xlsx'), zipfile.ZipFile('parallel/report.xlsx')
for n in a.namelist():
    if n.startswith('xl/worksheets/') or n == 'xl/sharedStrings.xml':
        x, y = a.read(n), b.read(n).replace(b'-o parallel', b'-o serial')
        if x != y:
            sys.exit('%s differs' % n)
PY
finish
