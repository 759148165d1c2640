#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A log of 20,000 intervals is drawn with at most 4,000 points (the low and
# high of each of 2,000 stretches), its one dip kept, and the subtitle
# says so; every interval was drawn before (a 1 GB hist log's chart JSON
# was 99 MB, its SVG 12 MB).  Made-up bw log, 1 s intervals.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 2
awk 'BEGIN { for (i = 0; i < 20000; i++)
	printf "%d, %d, 0, 0, 0\n", (i + 1) * 1000,
		i == 12345 ? 50000 : 400000 + (i * 7919) % 20000 }' > job_bw.1.log
run "$STORAN" report job_bw.1.log -o rep
expect_rc 0 "report of a long log"
python3 - rep/charts <<'PY' || fail "the thinned line"
import glob, json, sys
c = json.load(open(glob.glob(sys.argv[1] + '/*-time-bw-*.json')[0]))
pts = c['series'][0]['points']
assert 2000 <= len(pts) <= 4000, len(pts)
assert min(p['y'] for p in pts) < 0.2 * max(p['y'] for p in pts), 'dip lost'
assert 'stretches' in c['subtitle'], c['subtitle']
PY
finish
