#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The report of sample-data/five-drives (a mail post, five block devices
# under headings) as a reader meets it: one bar per heading, never one bar
# pooling the drives; hdparm -T's figure titled as memory, not the drive;
# small whiskers in plain decimals ("0.0202 ± 0.0000398", not 3.98e-05).
# And sample-data/vm-fio-json (36 fio JSON files of one VM): no chart of
# clat.mean beside lat.mean (the same curve), footers short enough to be
# drawn at reading size, fio's runtime in words.
. "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$TMP" || exit 1
run "$STORAN" report "$ROOT/sample-data/five-drives/post.txt" -o rep
expect_rc 0 "report of the post"
md=$(cat rep/report.md)
expect_in "$md" "## 2. Throughput by section — cached reads (memory, not the drive)" \
	"hdparm -T titled as memory"
case "$md" in *[0-9]e-[0-9]*) fail "a figure in e-notation: $(grep -m1 'e-[0-9]' rep/report.md)" ;; esac
expect_in "$md" "| loop3: ext4 loop, direct I/O, throttled to 20 MiB/s | 0.0202 ± 0.0000398" \
	"the throttled drive's small whisker"
# the caveats box gives each finding once, with the number cells cite
python3 - rep/index.html <<'PY' || fail "caveats"
import collections, re, sys
h = open(sys.argv[1]).read()
box = h[h.index('id="caveats"'):]
box = box[:box.index('</section>')]
items = re.findall(r'<li[^>]*>(?:<b>[^<]*</b> )?(post\.txt:\d+: [^<]*)</li>', box)
dup = [k for k, n in collections.Counter(items).items() if n > 1]
bad = 0
if len(items) < 20 or dup:
    print('%d findings listed, twice: %s' % (len(items), dup[:3])); bad = 1
for num in set(re.findall(r'\u2020(\d+)', h[h.index('</section>', h.index('id="caveats"')):])):
    if 'id="f%s"' % num not in box:
        print('cell mark %s cites no finding in the box' % num); bad = 1
sys.exit(bad)
PY
python3 - rep/charts <<'PY' || fail "points"
import glob, json, sys
bad = 0
for p in glob.glob(sys.argv[1] + '/*.json'):
    c = json.load(open(p))
    for s in c['series']:
        for pt in s['points']:
            sec = pt['labels'].get('section')
            if sec is None:
                print('%s: a point without its heading' % p); bad = 1
            if pt['n'] > 3:
                print('%s: n=%d pools drives' % (p, pt['n'])); bad = 1
sys.exit(bad)
PY

run "$STORAN" report "$ROOT"/sample-data/vm-fio-json/*.json -o vm
expect_rc 0 "report of 36 fio JSON files"
ls vm/charts/*clat-mean* >/dev/null 2>&1 && fail "clat.mean charted beside lat.mean"
ls vm/charts/*lat-mean*.png >/dev/null 2>&1 || fail "no mean latency chart"
python3 - vm/charts <<'PY' || fail "footers"
import glob, json, sys
bad = 0
for p in glob.glob(sys.argv[1] + '/*.json'):
    c = json.load(open(p))
    data = c['footer'].split(';')[0]
    if len(data) > 80:
        print('%s: %s' % (p, data)); bad = 1
    if 'runtime 2' in c['subtitle']:
        print('%s: %s' % (p, c['subtitle'])); bad = 1
sys.exit(bad)
PY
python3 "$ROOT/tests/cli/xlsx_figures.py" rep/report.xlsx vm/report.xlsx ||
	fail "workbook figures shown as 0"
finish
