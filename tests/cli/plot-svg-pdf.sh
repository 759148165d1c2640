#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan plot -> SVG (parses, <title>, <metadata> with inputs) and PDF.
set -eu
DATA=$(cd "$(dirname "$0")/data/plot" && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T"
cp "$DATA/sweep.json" .
"$STORAN" plot sweep.json --y clat --where host=beta --title 'Tail <&> "latency"' -o p.svg
"$STORAN" plot sweep.json --y bw --x host --kind box -o b.pdf
python3 - "$(sha256sum sweep.json | cut -c1-64)" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {'s': 'http://www.w3.org/2000/svg', 'p': 'urn:x-storan:provenance:1'}
root = ET.parse('p.svg').getroot()
assert root.tag == '{http://www.w3.org/2000/svg}svg'
assert root.get('viewBox') == '0 0 1200 675', root.get('viewBox')
assert root.find('s:title', ns).text == 'Tail <&> "latency"'
prov = root.find('s:metadata/p:provenance', ns)
assert prov.get('software').startswith('storan ')
assert 'storan plot sweep.json --y clat' in prov.find('p:command', ns).text
inp = prov.findall('p:input', ns)
assert [(i.get('name'), i.get('sha256')) for i in inp] == [('sweep.json', sys.argv[1])]
# words as <text>, not cairo's glyph outlines (issue 16: "SVG with real
# text"): the title, the axis titles (the y one turned), the tick labels
texts = root.findall('.//s:text', ns)
words = [t.text for t in texts]
assert 'Tail <&> "latency"' in words, words
assert 'Percentile' in words and 'p99.9' in words, words
ytitle = [t for t in texts if t.text.startswith('Completion latency')]
assert ytitle and ytitle[0].get('transform', '').startswith('rotate(-90 '), ytitle
assert not root.findall('.//s:symbol', ns), 'glyph symbols left'
assert not [t for t in root.iter() if 'glyph' in (t.get('id') or '')]
assert root.find('s:g[@font-family]', ns) is not None
d = open('b.pdf', 'rb').read()
assert d.startswith(b'%PDF-') and d.rstrip().endswith(b'%%EOF')
assert b'storan' in d and b'sha256=' + sys.argv[1].encode() in d
PY
