#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan report: every file is there and valid -- PNG, SVG and JSON per
# chart, a self-contained index.html (inline SVG, unique ids, no
# network), a report.md whose image links resolve; storan check's
# findings in one caveats box, cited only by the cells of their figures
# (dd from /dev/zero); exit 0, the report being written.
set -eu
DATA=$(cd "$(dirname "$0")/data/plot" && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T"
cp "$DATA/sweep.json" "$DATA/dd.txt" .
rc=0
"$STORAN" report sweep.json dd.txt -o out --title 'Alpha & beta' 2>err.txt || rc=$?
[ "$rc" -eq 0 ] || { echo "exit $rc, want 0 (written)"; cat err.txt; exit 1; }
ls out/charts > charts.txt
python3 - <<'PY'
import json, os, re, xml.etree.ElementTree as ET
charts = sorted(open('charts.txt').read().split())
pngs = [c for c in charts if c.endswith('.png')]
svgs = [c for c in charts if c.endswith('.svg')]
jsons = [c for c in charts if c.endswith('.json')]
# bw of two hosts of one input: one chart, a line per op and host (2 x 2:
# host is a factor folded into the series, never pooled), dd bw, clat
# percentiles; the inputs share no test: one data set, no comparison
names = [p[:-4] for p in pngs]
assert [p[:-4] for p in svgs] == names == [j[:-5] for j in jsons], charts
assert names == ['01-fio-bw', '02-dd-bw', '03-fio-clat'], names
bw = json.load(open('out/charts/01-fio-bw.json'))
assert sorted(s['name'] for s in bw['series']) == \
    ['read, alpha', 'read, beta', 'write, alpha', 'write, beta'], bw['series']
assert not any('ratio' in n for n in names), names
for i, n in enumerate(names):
    assert n.startswith('%02d-' % (i + 1)), n
for p in pngs:
    d = open('out/charts/' + p, 'rb').read()
    assert d[:8] == b'\x89PNG\r\n\x1a\n' and len(d) > 10000, p
    w, h = int.from_bytes(d[16:20], 'big'), int.from_bytes(d[20:24], 'big')
    assert (w, h) == (2400, 1350), (p, w, h)	# 2x for dense screens
for s in svgs:
    ET.parse('out/charts/' + s)
html = open('out/index.html', encoding='utf-8').read()
assert html.startswith('<!DOCTYPE html>')
assert '<title>Alpha &amp; beta</title>' in html
assert html.count('<svg') == len(svgs)
# nothing fetched from the network: no URL with a scheme in src/href/url()
for m in re.finditer(r'(?:src|href)="([^"]*)"|url\(([^)]*)\)', html):
    u = m.group(1) or m.group(2)
    assert not re.match(r'[a-z]+:', u), u
ids = re.findall(r' id="([^"]+)"', html)
assert len(ids) == len(set(ids)), 'duplicate ids'
for ref in re.findall(r'href="#([^"]+)"|url\(#([^)]+)\)', html):
    r = ref[0] or ref[1]
    assert r in ids, 'dangling reference #' + r
md = open('out/report.md', encoding='utf-8').read()
assert md.startswith('# Alpha & beta\n')
links = re.findall(r'!\[[^\]]*\]\((charts/[^)]+)\)', md)
assert len(links) == len(pngs) and all(os.path.exists('out/' + l) for l in links)
# one input: what the measurements differ in
assert '| bs | 4K, 16K, 64K, 256K, 1M |' in md, md[:1500]
assert '| host | alpha, beta |' in md
# the bw table: the chart's points, in its unit, with the 95% interval
# of three runs (98, 100, 102 MB/s: 4.303 * 2 / sqrt 3)
assert '| Block size | read, alpha (MB/s) | read, beta (MB/s) | write, alpha (MB/s) | write, beta (MB/s) |' in md, md[:2000]
assert '| 4K | 100 \u00b1 4.97 | 50.0 \u00b1 2.48 | 80.0 \u00b1 3.97 | 40.0 \u00b1 1.99 |' in md
# findings: once, by code, in the caveats box ...
sec = md[md.index('## Caveats'):md.index('## 1.')]
assert '**zero-data** (1): dd.txt line 4.' in sec, sec
assert '**short-run** (2): dd.txt lines 4, 8.' in sec, sec
# ... and cited only by the dd cells whose figures they concern: the
# read cell cites the read's short run, the write cell the write's
dd = [c for c in md.split('\n## ') if 'Throughput by operation' in c.split('\n')[0]][0]
read = re.search(r'\| read \| [0-9.]+ \u2020([0-9,]+) \|', dd)
write = re.search(r'\| write \| [0-9.]+ \u2020([0-9,]+) \|', dd)
assert read and write, dd
refs = {n: (c, l) for n, c, l in
        re.findall(r'\u2020([0-9]+) `([a-z-]+)` dd.txt:([0-9]+)', sec)}
assert all(refs[n][1] == '8' for n in read.group(1).split(',')), (read.group(1), refs)
assert all(refs[n][1] == '4' for n in write.group(1).split(',')), (write.group(1), refs)
assert not re.search('\u2020[0-9]', md.split('## 1.')[1].split('## 2.')[0]), 'fio cells cite dd findings'
assert 'id="caveats"' in html and html.count('class="caveats"') == 1
# each chart's data beside it
doc = json.load(open('out/charts/01-fio-bw.json'))
read = [s for s in doc['series'] if s['name'] == 'read, alpha'][0]
p4k = [p for p in read['points'] if p['label'] == '4K'][0]
assert p4k['n'] == 3 and p4k['whisker'] == 'ci95', p4k
assert [round(v) for v in p4k['values']] == [98, 100, 102], p4k
assert p4k['labels']['host'] == 'alpha', p4k
PY
# the left-over temporary directories: none
[ "$(ls | grep -c tmp || true)" -eq 0 ]
