#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan report A B: a comparison page.  Two result sets of one fio sweep
# (randread and randwrite over four block sizes, three runs each; the
# candidate reads 20% faster) and a third of two runs only.  The page must
# open with the verdicts, the geometric mean and the ratio charts, draw
# the sides as series (never one bar averaging both), give two-run points
# both values instead of a t-interval, and keep the page's verdict table
# to the largest changes when there are many.  Exit 0: findings are in
# the page.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1

python3 - <<'PY'
import json
def doc(name, read_gain, runs, extra_depths=()):
    ms = []
    for op in ('randread', 'randwrite'):
        for bs in (4096, 16384, 65536, 262144):
            for d in (1,) + tuple(extra_depths):
                base = bs * 1000.0 * d
                gain = read_gain if op == 'randread' else 1.0
                vals = [base * gain * (1 + 0.01 * k) for k in range(runs)]
                for metric, unit, f in (('bw', 'B/s', 1.0), ('iops', '1/s', 1.0 / bs)):
                    ms.append({'tool': 'fio', 'op': op, 'metric': metric, 'unit': unit,
                               'values': [v * f for v in vals],
                               'labels': {'bs': str(bs), 'iodepth': str(d)},
                               'source': 0, 'source_name': name, 'line': len(ms) + 1})
    return {'schema': 'storan/1', 'generator': 'test',
            'sources': [{'path': name, 'name': name, 'format': 'storan',
                         'tool_version': None, 'sha256': None}],
            'measurements': ms}
json.dump(doc('old.json', 1.0, 3), open('old.json', 'w'))
json.dump(doc('new.json', 1.2, 3), open('new.json', 'w'))
json.dump(doc('two.json', 1.2, 2), open('two.json', 'w'))
# many tests: 40 iodepths x 4 sizes x 2 ops = 320 headline rows (bw)
json.dump(doc('many-old.json', 1.0, 3, range(2, 41)), open('many-old.json', 'w'))
json.dump(doc('many-new.json', 1.2, 3, range(2, 41)), open('many-new.json', 'w'))
PY

run "$STORAN" report old.json new.json -o rep
expect_rc 0 "report A B"
html=$(cat rep/index.html)
md=$(cat rep/report.md)
# the verdicts come before any chart
v=$(grep -n 'class="verdicts"' rep/index.html | head -1 | cut -d: -f1)
c=$(grep -n '<svg' rep/index.html | head -1 | cut -d: -f1)
[ -n "$v" ] && [ -n "$c" ] && [ "$v" -lt "$c" ] || fail "verdicts not before the first chart ($v, $c)"
# the headline figures: bw of 4 sizes x 2 ops (IOPS restate bw at one
# block size: in the workbook, not on the page)
expect_in "$md" "**4 improvements, 4 unchanged (8 headline figures compared; 16 in all" "summary"
# per op, not sqrt(1.2 x 1.0) = 1.095 for reads and writes together
expect_in "$md" "bw: randread ×1.200 (4 tests), randwrite ×1.000 (4 tests)" "geometric means per op"
case "$md" in *"| iops |"*) fail "IOPS rows beside bw rows on the page" ;; esac
expect_in "$md" "| old.json | result set | \`" "inputs: a result set given"
case "$md" in *'``'*) fail "an empty sha256 in the inputs" ;; esac
# ratio charts first, sides as series in the others
ls rep/charts/01-*ratio*.json >/dev/null 2>&1 || fail "chart 01 is no ratio chart: $(ls rep/charts)"
python3 - rep/charts <<'PY' || fail "charts"
import glob, json, sys
bad = []
for p in sorted(glob.glob(sys.argv[1] + '/*.json')):
    c = json.load(open(p))
    names = [s['name'] for s in c['series']]
    if c['ratio']:
        for s in c['series']:
            for pt in s['points']:
                if pt['n'] < 3 or pt['whisker'] != 'ci95':
                    bad.append('%s: ratio point without its interval' % p)
        # bars and lines alike say which ratios are significant
        if '* significant at p < 0.05' not in c['footer']:
            bad.append('%s: the footer does not explain "*": %s' % (p, c['footer']))
        continue
    if sorted(names) != ['new', 'old'] and not all(n.endswith(('old', 'new')) for n in names):
        bad.append('%s: series %s are not the two sides' % (p, names))
    for s in c['series']:
        for pt in s['points']:
            if pt['n'] != 3:
                bad.append('%s: a point of n=%d pools both sides' % (p, pt['n']))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY

# two runs: both values, never a t-interval (t = 12.7)
run "$STORAN" report old.json two.json -o rep2
expect_rc 0 "report A B (B has two runs)"
python3 - rep2/charts <<'PY' || fail "two-run whiskers"
import glob, json, sys
bad = 0
for p in glob.glob(sys.argv[1] + '/*.json'):
    c = json.load(open(p))
    if c['ratio']:
        continue	# a ratio's interval needs three runs a side
    for s in c['series']:
        for pt in s['points']:
            if pt['n'] == 2 and pt['whisker'] != 'both':
                print('%s: n=2 drawn as %s' % (p, pt['whisker'])); bad = 1
            if pt['n'] == 2 and pt.get('values') and (pt['lo'] != min(pt['values']) or pt['hi'] != max(pt['values'])):
                print('%s: n=2 whisker is not its two values' % p); bad = 1
sys.exit(bad)
PY

# many rows: the page shows the 30 largest changes, the workbook all
run "$STORAN" report many-old.json many-new.json -o rep3
expect_rc 0 "report A B with 320 headline rows"
rows=$(sed -n '/class="verdicts"/,/<\/table>/p' rep3/index.html | grep -c '<tr><td')
[ "$rows" -eq 30 ] || fail "page verdict table has $rows rows, want 30"
expect_in "$(cat rep3/report.md)" "the 30 rows of the largest changes of 320" "note on the cut"
# a 40-step iodepth sweep over 4 block sizes: iodepth on x, a chart per
# block size, nothing left out (bs on x would pin iodepth to one value)
case "$err" in *"shown at"*) fail "a sweep cut down: $err" ;; esac
grep -q '"key": "iodepth"' rep3/charts/01-*.json || fail "x of the first chart is not iodepth"
python3 - rep3/report.xlsx <<'PY' || fail "Verdicts sheet"
import re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
wb = z.read('xl/workbook.xml').decode()
names = re.findall(r'<sheet name="([^"]+)" sheetId="\d+" r:id="rId(\d+)"', wb)
rid = dict(names)['Verdicts']
sheet = z.read('xl/worksheets/sheet%s.xml' % rid).decode()
n = len(re.findall(r'<row ', sheet))
# title, summary, geomeans, blank, heading + 640 rows
if n < 640 + 4:
    print('Verdicts sheet has %d rows' % n); sys.exit(1)
PY
finish
