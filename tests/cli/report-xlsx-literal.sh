#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The workbook never evaluates data (issue 15): label values that start
# with '=' (a formula, a reference into another workbook) are literal
# text in every part of report.xlsx -- cells, series names, titles --
# no formula reaches a chart's <c:f> but this workbook's own cells, no
# cell holds a formula, and no libxlsxwriter warning is printed.  A label
# longer than a cell may hold is cut with an ellipsis, not dropped; the
# page escapes markup in labels.
. "$(dirname "$0")/lib.sh"
command -v unzip >/dev/null || { echo "SKIP: no unzip"; exit 77; }
cd "$TMP"
long=$(head -c 40000 /dev/zero | tr '\0' 'x')
evil="='http://example.invalid/[x.xlsx]Sheet1'!A1"
cat > inj.json <<JSON
{"schema":"storan/1","generator":"test","sources":[{"path":"x"}],"measurements":[
{"tool":"fio","op":"read","metric":"bw","unit":"B/s","values":[1e8,1.1e8,1.05e8],"labels":{"bs":"4096","host":"$evil"}},
{"tool":"fio","op":"read","metric":"bw","unit":"B/s","values":[2e8,2.1e8,2.05e8],"labels":{"bs":"4096","host":"=1+2"}},
{"tool":"fio","op":"read","metric":"bw","unit":"B/s","values":[1e8,1.1e8,1.05e8],"labels":{"bs":"8192","host":"$evil"}},
{"tool":"fio","op":"read","metric":"bw","unit":"B/s","values":[2e8,2.1e8,2.05e8],"labels":{"bs":"8192","host":"=1+2"}},
{"tool":"dd","op":"write","metric":"bw","unit":"B/s","values":[5e7],"labels":{"device":"<script>alert(1)</script>","note":"$long"}},
{"tool":"dd","op":"write","metric":"bw","unit":"B/s","values":[6e7],"labels":{"device":"/dev/sdb","note":"$long"}}
]}
JSON
run "$STORAN" report inj.json -o rep --title "=HYPERLINK(\"http://example.invalid\")"
expect_rc 0 "report"
case "$err" in *WARNING*|*"doesn't exist"*) fail "libxlsxwriter spoke: $err" ;; esac
mkdir x && (cd x && unzip -q ../rep/report.xlsx) || fail "report.xlsx is no zip"
refs=$(cat x/xl/charts/*.xml | grep -o '<c:f>[^<]*</c:f>' | sort -u)
[ -n "$refs" ] || fail "no chart references at all"
while IFS= read -r f; do
	case "$f" in
	"<c:f>'"[0-9][0-9]-*"'!\$"[A-Z]*"</c:f>"|"<c:f>Names!\$A\$"[0-9]*"</c:f>") ;;
	*) fail "a chart formula outside the workbook's cells: $f" ;;
	esac
done <<< "$refs"
grep -l '<f>' x/xl/worksheets/*.xml && fail "a cell holds a formula"
grep -q '<c:v>=1+2</c:v>' x/xl/charts/chart1.xml || fail "the series name is not the literal '=1+2'"
grep -q 'state="hidden"' x/xl/workbook.xml || fail "no hidden Names sheet"
grep -qF '=HYPERLINK("http://example.invalid")' x/xl/sharedStrings.xml ||
	fail "the title is not literal text"
python3 - x/xl/sharedStrings.xml <<'PY' || fail "the long label was dropped"
import re, sys
s = open(sys.argv[1], encoding="utf-8").read()
cut = [t for t in re.findall(r"<t[^>]*>([^<]*)</t>", s) if t.startswith("xxx")]
sys.exit(0 if cut and len(cut[0]) == 32765 and cut[0].endswith("\u2026") else 1)
PY
grep -q '<script>alert' rep/index.html && fail "markup in a label reached the page"
grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' rep/index.html ||
	fail "the label is not on the page as text"
finish
