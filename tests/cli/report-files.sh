#!/usr/bin/env bash
# storan report: every file is there and valid -- PNG and SVG per chart,
# a self-contained index.html (inline SVG, unique ids, no network), a
# report.md whose image links resolve; storan check's findings listed and
# flagged under the chart they touch (dd from /dev/zero: exit 1).
set -eu
DATA=$(cd "$(dirname "$0")/data/plot" && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T"
cp "$DATA/sweep.json" "$DATA/dd.txt" .
rc=0
"$STORAN" report sweep.json dd.txt -o out --title 'Alpha & beta' 2>err.txt || rc=$?
[ "$rc" -eq 1 ] || { echo "exit $rc, want 1 (check warnings)"; cat err.txt; exit 1; }
ls out/charts > charts.txt
python3 - <<'PY'
import os, re, xml.etree.ElementTree as ET
charts = sorted(open('charts.txt').read().split())
pngs = [c for c in charts if c.endswith('.png')]
svgs = [c for c in charts if c.endswith('.svg')]
# bw (two hosts: one chart per host), clat percentiles (per host),
# dd bw, and bw ratio beta/alpha
names = [p[:-4] for p in pngs]
assert [p[:-4] for p in svgs] == names, charts
for want in ('fio-bw-alpha', 'fio-bw-beta', 'dd-bw', 'fio-bw-ratio-host',
             'fio-clat-alpha'):
    assert any(want in n for n in names), (want, names)
for i, n in enumerate(names):
    assert n.startswith('%02d-' % (i + 1)), n
for p in pngs:
    d = open('out/charts/' + p, 'rb').read()
    assert d[:8] == b'\x89PNG\r\n\x1a\n' and len(d) > 10000, p
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
# the bw table of host alpha: block sizes and read/write means with CI
assert '| Block size | read (MB/s) | write (MB/s) |' in md, md[:2000]
assert '| 4K | 100 \u00b1 ' in md
# findings: listed once in their section, and under the dd chart only
sec = md[md.index('## Findings of storan check'):]
assert '`zero-data` dd.txt:4:' in sec and '`short-run` dd.txt:8:' in sec
charts_md = md.split('\n## ')
flagged = [c.split('\n')[0] for c in charts_md if 'finding(s) about figures' in c]
assert len(flagged) == 1 and 'operation' in flagged[0], flagged
assert html.count('<p class="flag">') == 1 and 'id="findings"' in html
PY
# the left-over temporary directories: none
[ "$(ls | grep -c tmp || true)" -eq 0 ]
