#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan plot -> PNG: signature, size (and --scale), provenance tEXt chunks.
set -eu
DATA=$(cd "$(dirname "$0")/data/plot" && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cd "$T"
cp "$DATA/sweep.json" "$DATA/dd.txt" .
"$STORAN" plot sweep.json dd.txt --y bw --where tool=fio,host=alpha -o a.png
"$STORAN" plot sweep.json --y bw --scale 2 --width 800 --height 450 -o b.png
python3 - "$(sha256sum sweep.json | cut -c1-64)" "$(sha256sum dd.txt | cut -c1-64)" <<'PY'
import struct, sys, zlib
def chunks(path):
    d = open(path, 'rb').read()
    assert d[:8] == b'\x89PNG\r\n\x1a\n', 'no PNG signature'
    i, out = 8, []
    while i < len(d):
        n, = struct.unpack('>I', d[i:i+4]); kind = d[i+4:i+8]
        body = d[i+8:i+8+n]
        crc, = struct.unpack('>I', d[i+8+n:i+12+n])
        assert crc == zlib.crc32(kind + body) & 0xffffffff, 'bad CRC'
        out.append((kind, body)); i += 12 + n
    assert out[-1][0] == b'IEND'
    return out
a = chunks('a.png')
w, h = struct.unpack('>II', a[0][1][:8])
assert (w, h) == (1200, 675), (w, h)
text = {}
for k, b in a:
    if k == b'tEXt':
        key, val = b.split(b'\0', 1)
        text.setdefault(key.decode(), []).append(val.decode())
assert text['Software'] == ['storan 0.1.0'] or text['Software'][0].startswith('storan '), text
assert 'storan plot sweep.json dd.txt --y bw' in text['Command'][0], text
inputs = text['Input']
assert 'sweep.json sha256=' + sys.argv[1] in inputs, inputs
assert 'dd.txt sha256=' + sys.argv[2] in inputs, inputs
assert text['Title'] == ['Throughput by block size'], text
b = chunks('b.png')
assert struct.unpack('>II', b[0][1][:8]) == (1600, 900)
PY
# a real picture, not an empty canvas: the compressed image is not tiny
[ "$(stat -c %s a.png)" -gt 20000 ]
