#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# report.xlsx: the zip is intact, Summary, Data and one sheet per chart,
# a native chart per chart sheet above its table (block sizes as K/M
# labels, figures with a number format, the page's text beside them),
# document properties with provenance, the Data sheet's numbers equal to
# the result set (storan export).
set -eu
DATA=$(cd "$(dirname "$0")/data/plot" && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T"
cp "$DATA/sweep.json" .
"$STORAN" report sweep.json -o out 2>/dev/null
"$STORAN" export sweep.json > export.csv
unzip -tq out/report.xlsx >/dev/null
python3 - "$(sha256sum sweep.json | cut -c1-64)" <<'PY'
import csv, re, sys, zipfile, xml.etree.ElementTree as ET
M = '{http://schemas.openxmlformats.org/spreadsheetml/2006/main}'
z = zipfile.ZipFile('out/report.xlsx')
wb = ET.fromstring(z.read('xl/workbook.xml'))
sheets = [s.get('name') for s in wb.iter(M + 'sheet')]
charts = sorted(n[:-4] for n in __import__('os').listdir('out/charts') if n.endswith('.png'))
assert sheets == ['Summary', 'Data'] + [c[:31] for c in charts], sheets
nchart = len([n for n in z.namelist() if re.match(r'xl/charts/chart\d+\.xml$', n)])
assert nchart == len(charts), (nchart, len(charts))
core = z.read('docProps/core.xml').decode()
assert 'storan report sweep.json -o out' in core and sys.argv[1] in core
strings = [''.join(t.text or '' for t in si.iter(M + 't'))
           for si in ET.fromstring(z.read('xl/sharedStrings.xml')).iter(M + 'si')]
def cells(n):
    rows = []
    for row in ET.fromstring(z.read('xl/worksheets/sheet%d.xml' % n)).iter(M + 'row'):
        r = {}
        for c in row.iter(M + 'c'):
            col = re.match(r'[A-Z]+', c.get('r')).group(0)
            v = c.find(M + 'v')
            if v is None:
                continue
            r[col] = strings[int(v.text)] if c.get('t') == 's' else float(v.text)
        rows.append(r)
    return rows, ET.fromstring(z.read('xl/worksheets/sheet%d.xml' % n))
data, ws = cells(2)
assert ws.find(M + 'autoFilter') is not None
pane = ws.find('.//' + M + 'pane')
assert pane is not None and pane.get('state') == 'frozen' and pane.get('ySplit') == '1'
head = data[0]
assert head['A'] == 'source' and head['H'] == 'mean (in unit)', head
label_cols = {v: k for k, v in head.items()}
exp = list(csv.DictReader(open('export.csv')))
assert len(data) - 1 == len(exp)
for row, e in zip(data[1:], exp):
    assert row['C'] == e['tool'] and row['D'] == e['op'] and row['E'] == e['metric']
    assert row['G'] == float(e['n'])
    assert abs(row['H'] - float(e['mean'])) <= 1e-9 * abs(float(e['mean']))
    labels = dict(kv.split('=', 1) for kv in e['labels'].split(';'))
    # numeric labels are numbers in the sheet
    assert row[label_cols['bs']] == float(labels['bs'])
    assert row[label_cols['host']] == labels['host']
# first chart sheet: bw by block size, a column per op and host, in
# MB/s, under the chart (drawn at A1)
sheet3, ws3 = cells(3)
rows = [r for r in ws3.iter(M + 'row')]
assert int(rows[0].get('r')) > 20, 'the table is not under the chart'
assert sheet3[0]['A'] == 'Block size' and sheet3[0]['B'] == 'read, alpha (MB/s)', sheet3[0]
assert sheet3[0]['C'] == 'read, beta (MB/s)' and sheet3[0]['D'] == 'write, alpha (MB/s)', sheet3[0]
assert [r['A'] for r in sheet3[1:6]] == ['4K', '16K', '64K', '256K', '1M']
assert abs(sheet3[1]['B'] - 100) < 1e-9 and abs(sheet3[5]['D'] - 400) < 1e-9
# the page's text of each cell beside the numbers: 100 MB/s, 95% interval
assert sheet3[1]['H'] == '100 \u00b1 4.97', sheet3[1]
styles = ET.fromstring(z.read('xl/styles.xml'))
fmts = {n.get('numFmtId'): n.get('formatCode') for n in styles.iter(M + 'numFmt')}
xfs = list(styles.find(M + 'cellXfs'))
cell_b = [c for c in rows[1].iter(M + 'c') if c.get('r').startswith('B')][0]
fmt = fmts.get(xfs[int(cell_b.get('s'))].get('numFmtId'))
assert fmt in ('0', '#,##0'), fmt	# 100 ... 500 MB/s: no decimals
drawing = z.read('xl/drawings/drawing1.xml').decode()
assert '<xdr:row>0</xdr:row>' in drawing, 'the chart is not at the top'
PY
