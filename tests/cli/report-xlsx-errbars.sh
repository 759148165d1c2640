#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# report.xlsx's charts carry the page's whiskers as custom error bars:
# each series' amounts below and above its figures in two columns of the
# chart's sheet (n = 1 blank: no whisker; n = 2 both values; n >= 3 the
# 95% interval), and the chart's series referring to those cells, with
# the same amounts cached.  The figures: charts/NN-name.json's points.
set -eu
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T"
python3 - <<'PY'
import json
ms = []
runs = {4096: [100e6], 16384: [180e6, 220e6], 65536: [290e6, 300e6, 310e6, 330e6]}
for host, k in (('alpha', 1), ('beta', 2)):
    for bs, vals in runs.items():
        ms.append({'tool': 'fio', 'op': 'read', 'metric': 'bw', 'unit': 'B/s',
                   'values': [v / k for v in vals],
                   'labels': {'bs': str(bs), 'host': host}, 'source': 0,
                   'source_name': 'w.json', 'line': len(ms) + 1})
json.dump({'schema': 'storan/1', 'generator': 'hand',
           'sources': [{'path': 'w.json', 'name': 'w.json', 'format': 'storan',
                        'tool_version': None, 'sha256': None}],
           'measurements': ms}, open('w.json', 'w'))
PY
"$STORAN" report w.json -o out 2>/dev/null
python3 - <<'PY'
import glob, json, re, zipfile, xml.etree.ElementTree as ET
M = '{http://schemas.openxmlformats.org/spreadsheetml/2006/main}'
C = '{http://schemas.openxmlformats.org/drawingml/2006/chart}'
z = zipfile.ZipFile('out/report.xlsx')
assert z.testzip() is None
chart = json.load(open(sorted(glob.glob('out/charts/*.json'))[0]))
names = [s.get('name') for s in ET.fromstring(z.read('xl/workbook.xml')).iter(M + 'sheet')]
sheet = ET.fromstring(z.read('xl/worksheets/sheet%d.xml' % (names.index('Data') + 2)))
cells = {}
for c in sheet.iter(M + 'c'):
    v = c.find(M + 'v')
    if v is not None and c.get('t') is None:
        cells[c.get('r')] = float(v.text)
ch = ET.fromstring(z.read('xl/charts/chart1.xml'))
sers = list(ch.iter(C + 'ser'))
assert len(sers) == len(chart['series']) == 2, len(sers)
def rng(ref):
    m = re.match(r"'([^']+)'!\$([A-Z]+)\$(\d+):\$([A-Z]+)\$(\d+)$", ref)
    assert m and m.group(1) == names[names.index('Data') + 1], ref
    return [m.group(2) + str(r) for r in range(int(m.group(3)), int(m.group(5)) + 1)]
for ser, s in zip(sers, chart['series']):
    eb = ser.find(C + 'errBars')
    assert eb is not None, 'a series without error bars'
    assert eb.find(C + 'errValType').get('val') == 'cust'
    assert eb.find(C + 'errBarType').get('val') == 'both'
    got = {}
    for side in ('plus', 'minus'):
        ref = eb.find(C + side).find(C + 'numRef')
        refs = rng(ref.find(C + 'f').text)
        cache = {int(p.get('idx')): float(p.find(C + 'v').text)
                 for p in ref.find(C + 'numCache').iter(C + 'pt')}
        got[side] = [cells.get(r) for r in refs]
        assert cache == {i: v for i, v in enumerate(got[side]) if v is not None}, (cache, got[side])
    assert len(s['points']) == 3
    for i, p in enumerate(s['points']):
        if p['n'] == 1:
            assert got['plus'][i] is None and got['minus'][i] is None, p
            continue
        assert abs(got['plus'][i] - (p['hi'] - p['y'])) < 1e-9 * p['y'], (p, got)
        assert abs(got['minus'][i] - (p['y'] - p['lo'])) < 1e-9 * p['y'], (p, got)
    # n = 2: both values, 180 and 220 MB/s (alpha) around 200
    two = [p for p in s['points'] if p['n'] == 2][0]
    k = 1 if s['name'].endswith('alpha') or 'alpha' in s['name'] else 2
    assert abs(two['lo'] - 180 / k) < 1e-6 and abs(two['hi'] - 220 / k) < 1e-6, two
PY
