# SPDX-License-Identifier: GPL-3.0-or-later
# tests/cli: nothing is drawn in the outer columns of a chart's PNG (a
# label cut by the image's edge: the last tick of a long time axis).
# Exit 1 naming the file and the column when something is.
# Usage: python3 png_edges.py COLUMNS FILE.png...
import struct, sys, zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def pixels(path):
    """Rows of bytes of an 8-bit RGB or RGBA PNG, and the bytes a pixel."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path + ": not a PNG"
    at, idat, w = 8, b"", 0
    while at < len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        if kind == b"IHDR":
            w, h, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6), path + ": not RGB(A) 8"
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        at += 12 + n
    raw, rows, stride, prev = zlib.decompress(idat), [], w * bpp, None
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(
            raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x] if prev else 0
            c = prev[x - bpp] if prev and x >= bpp else 0
            line[x] = (line[x] + (0, a, b, (a + b) // 2, paeth(a, b, c))[f]) & 255
        rows.append(line)
        prev = line
    return rows, w, bpp


cols, bad = int(sys.argv[1]), 0
for path in sys.argv[2:]:
    rows, w, bpp = pixels(path)
    for y, row in enumerate(rows):
        for x in list(range(cols)) + list(range(w - cols, w)):
            px = row[x * bpp:x * bpp + 3]
            if min(px) < 200:	# darker than the white page
                print("%s: drawn at column %d, row %d" % (path, x, y))
                bad = 1
                break
        else:
            continue
        break
sys.exit(bad)
