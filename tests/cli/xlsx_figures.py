# SPDX-License-Identifier: GPL-3.0-or-later
# tests/cli: every nonzero figure of the workbooks named shows at least one
# significant digit in its number format (0.0145 was '0.01' beside 1.34,
# p = 0.00025 '0.000').  Exit 1 and the cells when one does not.
import re, sys, zipfile
bad = 0
for path in sys.argv[1:]:
    z = zipfile.ZipFile(path)
    styles = z.read('xl/styles.xml').decode()
    fmts = dict(re.findall(r'<numFmt numFmtId="(\d+)" formatCode="([^"]*)"', styles))
    xfs = re.search(r'<cellXfs[^>]*>(.*?)</cellXfs>', styles, re.S).group(1)
    xf_fmt = [m for m in re.findall(r'<xf [^>]*?numFmtId="(\d+)"', xfs)]
    def decimals(style):
        code = fmts.get(xf_fmt[style], '') if style < len(xf_fmt) else ''
        if 'E+' in code: return None
        m = re.search(r'\.(0+)', code)
        return len(m.group(1)) if m else (0 if code else None)
    for name in z.namelist():
        if not name.startswith('xl/worksheets/sheet'):
            continue
        sheet = z.read(name).decode()
        for ref, attrs, v in re.findall(r'<c r="([A-Z]+\d+)"([^>]*)><v>([^<]*)</v>', sheet):
            if 't="' in attrs:
                continue
            s = re.search(r's="(\d+)"', attrs)
            d = decimals(int(s.group(1))) if s else None
            x = float(v)
            if d is None or x == 0:
                continue
            if abs(x) < 0.5 * 10 ** -d:
                print('%s %s %s: %s shown with %d decimals' % (path, name, ref, v, d)); bad = 1
sys.exit(bad)
