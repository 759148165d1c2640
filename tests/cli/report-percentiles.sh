#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Printed percentiles are figures of runs like any other: a point of
# n >= 3 runs carries its 95% interval (the two machines' clat p50..p99.99
# of five runs each were drawn bare), n = 2 both values, n = 1 none; its
# JSON lists those runs and the inputs they came from.
. "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
TM="$ROOT/sample-data/two-machines"
cd "$TMP" || exit 1
run "$STORAN" ingest "$TM/do-5bucks.txt" -o a.json
expect_rc 0 "ingest do-5bucks"
run "$STORAN" ingest "$TM/vultr-25gbssd.txt" -o b.json
expect_rc 0 "ingest vultr-25gbssd"
run "$STORAN" report a.json b.json -o rep
expect_rc 0 "report A B"
python3 - rep/charts <<'PY' || fail "percentile whiskers"
import glob, json, sys
seen = bad = 0
for p in glob.glob(sys.argv[1] + '/*.json'):
    c = json.load(open(p))
    if c['kind'] != 'percentiles':
        continue
    for s in c['series']:
        for pt in s['points']:
            seen += 1
            want = 'ci95' if pt['n'] >= 3 else 'both' if pt['n'] == 2 else 'none'
            if pt['whisker'] != want:
                print('%s: %s n=%d drawn with %s' % (p, pt['label'], pt['n'], pt['whisker']))
                bad = 1
if not seen:
    print('no percentile chart'); bad = 1
# each point names the inputs its runs came from: one machine, or the two
# of a ratio (the grep prefix fio_randread.log is the same on both)
for p in glob.glob(sys.argv[1] + '/*.json'):
    c = json.load(open(p))
    for s in c['series']:
        for pt in s['points']:
            want = 2 if c['ratio'] else 1
            if len(pt.get('sources', [])) != want or 'fio_randread.log' in pt['sources']:
                print('%s: sources %s' % (p, pt.get('sources'))); bad = 1
            if c['kind'] == 'percentiles' and len(pt.get('values', [])) != pt['n']:
                print('%s: %d values for n=%d' % (p, len(pt.get('values', [])), pt['n'])); bad = 1
sys.exit(bad)
PY
python3 "$ROOT/tests/cli/xlsx_figures.py" rep/report.xlsx ||
	fail "workbook figures shown as 0 (p-values of 0.00025, 1.6e-07)"
# percentiles from fio's latency bins: one run's point is one run, not
# its I/Os (the caption said "29638 runs a point")
run "$STORAN" report "$ROOT/tests/parsers/fio/0103-3_33-randrw-libaio-jsonplus.json" \
	-o bins
expect_rc 0 "report of a JSON+ output"
case "$(cat bins/charts/*.svg)" in
*"runs a point"*) fail "one run's curve said: $(grep -ho '[0-9]* runs a point' bins/charts/*.svg | head -1)" ;;
esac
python3 - bins/charts <<'PY' || fail "the runs of a histogram point"
import glob, json, sys
for p in glob.glob(sys.argv[1] + '/*.json'):
    c = json.load(open(p))
    if c['kind'] in ('percentiles', 'cdf'):
        for s in c['series']:
            for pt in s['points']:
                if pt['n'] != 1:
                    sys.exit('%s: a point of %d runs' % (p, pt['n']))
PY
finish
