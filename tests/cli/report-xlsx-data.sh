#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# report.xlsx's Data sheet, whose rows storan prints and splices into the
# workbook libxlsxwriter wrote (plot/xlsx-data.c): the zip's CRCs and
# directory hold, and every cell is the measurement's -- labels that only
# some measurements have, text that XML must escape, UTF-8, a value that
# looks like a formula, one longer than a cell holds (cut with an
# ellipsis), numeric labels as numbers, n = 1 (no stddev), a summary
# without runs, rows of 1 to 6 runs over more than one block of 16 rows.
# Each row's spans cover its cells, the dimension covers the sheet, and
# the shared-string count is the number of string cells.
set -eu
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T"
python3 - <<'PY'
import json
odd = ['a&b<c>"d\'', ' lead', 'trail ', '\u00b5s \u2192 ms', '=1+1',
       'x' * 40000]
ms = []
for i in range(70):
    labels = {'bs': str(4096 << (i % 4)), 'host': 'h%d' % (i % 3)}
    if i % 5 == 0:
        labels['note'] = odd[i // 5 % len(odd)]
    if i % 7 == 0:
        labels['empty'] = ''
    m = {'tool': 'fio', 'op': ['read', 'write'][i % 2], 'metric': 'bw',
         'unit': 'B/s', 'values': [1e8 + 1e6 * k + i for k in range(1 + i % 6)],
         'labels': labels, 'source': 0, 'source_name': 'data.json',
         'line': i + 1}
    if i == 33:
        m['values'] = []
        m['summary'] = {'n': 4, 'mean': 2.5e8, 'stddev': 1e6}
    ms.append(m)
ms.append({'tool': 'fio', 'op': 'read', 'metric': 'lat.mean', 'unit': 's',
           'values': [3.7632e-05], 'labels': {'bs': '4096', 'host': 'h0'},
           'source': 0, 'source_name': 'data.json', 'line': 99})
json.dump({'schema': 'storan/1', 'generator': 'hand',
           'sources': [{'path': 'data.json', 'name': 'data.json',
                        'format': 'storan', 'tool_version': None,
                        'sha256': None}],
           'measurements': ms}, open('data.json', 'w'))
PY
"$STORAN" report data.json -o out 2>/dev/null
python3 - <<'PY'
import json, re, zipfile, xml.etree.ElementTree as ET
M = '{http://schemas.openxmlformats.org/spreadsheetml/2006/main}'
z = zipfile.ZipFile('out/report.xlsx')
assert z.testzip() is None			# every CRC
sst = ET.fromstring(z.read('xl/sharedStrings.xml'))
strings = [''.join(t.text or '' for t in si.iter(M + 't'))
           for si in sst.iter(M + 'si')]
names = [s.get('name') for s in
         ET.fromstring(z.read('xl/workbook.xml')).iter(M + 'sheet')]
data = ET.fromstring(z.read('xl/worksheets/sheet%d.xml'
                            % (names.index('Data') + 1)))
def col(ref):
    n = 0
    for ch in re.match('[A-Z]+', ref).group(0):
        n = n * 26 + ord(ch) - 64
    return n
def value(c):
    v = c.find(M + 'v')
    return strings[int(v.text)] if c.get('t') == 's' else float(v.text)
rows = list(data.iter(M + 'row'))
head = {col(c.get('r')): value(c) for c in rows[0].iter(M + 'c')}
at = {v: k for k, v in head.items()}
ms = json.load(open('data.json'))['measurements']
assert len(rows) == 1 + len(ms), len(rows)
last_col = 0
for i, (row, m) in enumerate(zip(rows[1:], ms)):
    assert row.get('r') == str(i + 2)
    cells = {col(c.get('r')): c for c in row.iter(M + 'c')}
    assert all(c.get('r').endswith(str(i + 2)) for c in cells.values())
    assert list(cells) == sorted(cells), 'cells out of order'
    lo, hi = map(int, row.get('spans').split(':'))
    assert lo <= min(cells) and max(cells) <= hi, (row.get('spans'), cells)
    last_col = max(last_col, max(cells))
    got = {head[k]: value(c) for k, c in cells.items()}
    assert got['source'] == 'data.json' and got['line'] == m['line']
    assert got['op'] == m['op'] and got['metric'] == m['metric']
    for k, v in m['labels'].items():
        if v == '':
            assert k not in got, (k, got)
        elif v.isdigit():
            assert got[k] == float(v), (k, got[k])
        elif len(v) > 32767:
            assert got[k] == v[:32764] + '\u2026', len(got[k])
        else:
            assert got[k] == v, (k, got[k], v)
    for k in head.values():
        if k not in ('note', 'empty') or k in m['labels']:
            continue
        assert k not in got, ('a cell for a label it lacks', k)
    for r, v in enumerate(m['values']):
        assert got['run %d (in unit)' % (r + 1)] == v
    assert 'run %d (in unit)' % (len(m['values']) + 1) not in got
    if len(m['values']) == 1:
        assert 'stddev (in unit)' not in got		# n = 1: none
    if m['values']:
        assert got['n'] == len(m['values'])
        assert abs(got['mean (in unit)'] - sum(m['values']) / len(m['values'])) \
            <= 1e-9 * got['mean (in unit)']
    else:
        assert got['n'] == 4 and got['mean (in unit)'] == 2.5e8
# seconds keep their digits: 3.7632e-05 exactly, scientific style
lat = [c for c in rows[-1].iter(M + 'c') if head[col(c.get('r'))] == 'mean (in unit)'][0]
assert lat.find(M + 'v').text == '3.7632E-05', lat.find(M + 'v').text
def colname(n):
    s = ''
    while n:
        n, r = divmod(n - 1, 26)
        s = chr(65 + r) + s
    return s
dim = data.find(M + 'dimension').get('ref')
assert dim == 'A1:%s%d' % (colname(max(head)), len(ms) + 1), dim
assert max(head) >= last_col
assert data.find(M + 'autoFilter').get('ref') == dim, data.find(M + 'autoFilter').get('ref')
refs = 0
for name in z.namelist():
    if name.startswith('xl/worksheets/sheet'):
        refs += len(re.findall(rb't="s"', z.read(name)))
assert int(sst.get('count')) == refs, (sst.get('count'), refs)
assert int(sst.get('uniqueCount')) == len(strings) == len(set(strings))
PY
