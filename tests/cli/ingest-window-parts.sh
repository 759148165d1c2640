#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A window is cut in parts, each on whichever thread is free (issue 18;
# input_plan_window()): a later part is numbered from 1 and shifted when
# adopted, starts only below a line with no '|' (a Markdown table's
# delimiter row looks at the row above), and its raw copy goes behind
# the parts' before it.  Logs of what crosses a part's start -- one-cell
# Markdown tables of dd runs under a command header, a dd progress line
# overwritten by '\r', grep prefixes, no-break spaces, outputs pasted
# again under prose (their notes name line numbers far down the log) --
# read by windows of many sizes, so that parts start on every kind of
# line, give a whole read's CSV, messages and JSON, byte for byte.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1
cat > gen.py <<'PY'
import random, sys
random.seed(int(sys.argv[1]))
out = []
def dd(secs, pre=""):
    return [pre + "64+0 records in", pre + "64+0 records out",
            pre + "67108864 bytes (67 MB, 64 MiB) copied, %s s, 600 MB/s" % secs]
for i in range(int(sys.argv[2])):
    r = random.random()
    secs = "1.%06d" % random.randint(0, 999999)
    cmd = "dd if=/dev/zero of=f%d bs=1M count=64" % (i % 3)
    if r < 0.3:
        out += ["| $ %s |" % cmd, "|---|"]
        out += ["| %s |" % l for l in dd(secs)] + [""]
    elif r < 0.45:
        out += ["$ %s status=progress" % cmd,
                "33554432 bytes (34 MB) copied, 0.5 s, 67 MB/s\r" +
                dd(secs)[0]] + dd(secs)[1:]
    elif r < 0.6:
        out += ["host%d.log: $ %s" % (i % 2, cmd)] + dd(secs, "host%d.log: " % (i % 2))
    elif r < 0.7:
        out += ["$ " + cmd, "64+0 records in", "64+0 records out",
                "67108864 bytes (67 MB, 64 MiB) copied, %s\u00a0s, 600\u00a0MB/s" % secs]
    elif r < 0.8 and len(out) > 6:
        k = random.randint(0, len(out) - 5)
        out += ["As you wrote:"] + out[k:k + 4]
    elif r < 0.9:
        out += ["| Machine %d |" % (i % 4), "|---|", ""]
    else:
        out += ["$ time " + cmd] + dd(secs) + ["", "real\t0m1.%03ds" % (i % 1000),
                                            "user\t0m0.001s", "sys\t0m0.100s", ""]
print("\n".join(out))
PY
for seed in 1 2; do
	python3 gen.py $seed 400 > "parts$seed.txt" || fail "gen.py $seed"
	same_as_whole --json "parts$seed.txt" 97 150 233 400 611 1000 1777 3000
done
# the logs hold what the test is for
grep -q 'Machine' whole.csv || fail "no table heading labels a run"
grep -q 'pasted again' whole.err || grep -q 'quoted' whole.err ||
	fail "no copy noted"
finish
