#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A long log read by windows gives a whole read's results byte for byte
# -- CSV, messages, and the JSON result set, whose rows list every value
# in the order read -- on made-up logs that mix what changes how runs
# fold: dd and time runs of a few commands (their values bundled as they
# are read, parse_emit_labelled()), prose, Markdown and underlined
# headings, cache drops, run counters, grep-prefixed lines, outputs
# pasted again, dd errors, a timed program's own words.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1
cat > gen.py <<'PY'
import random, sys
random.seed(int(sys.argv[1]))
cmds = ["dd if=/dev/zero of=f%d bs=1M count=64 conv=fdatasync" % i
        for i in range(3)] + ["dd if=f0 of=/dev/null bs=4k"]
tcmds = ["./bench --quick", "./bench --full", "sync"]
out = []
def dd_out():
    secs = round(random.uniform(0.1, 0.12), random.choice([6, 3, 2]))
    out.extend(["64+0 records in", "64+0 records out",
                "67108864 bytes (67 MB, 64 MiB) copied, %s s, 600 MB/s" % secs])
def timing(real):
    out.extend(["", "real\t0m%s" % real, "user\t0m0.001s",
                "sys\t0m0.0%02ds" % random.randint(10, 20)])
for i in range(int(sys.argv[2])):
    r = random.random()
    pre = random.choice(["# ", "", "host1.txt: "]) if random.random() < 0.1 else "$ "
    if r < 0.35:
        if random.random() < 0.95:
            out.append(pre + ("time " if random.random() < 0.5 else "") +
                       random.choice(cmds))
        dd_out()
        if random.random() < 0.4:
            timing("0.%03ds" % random.randint(100, 130))
    elif r < 0.6:
        out.append(pre + "time " + random.choice(tcmds))
        if random.random() < 0.3:
            out.append(random.choice(["done", "warming up", "ok 3 tests"]))
        timing("1.%03ds" % random.randint(0, 20))
    elif r < 0.66:
        out.append(random.choice(["Now on the other disk:", "As you wrote:",
                                  "then I changed the scheduler"]))
    elif r < 0.70: out.append("## Run on " + random.choice(["sda", "nvme0n1"]))
    elif r < 0.73: out.extend([random.choice(["Results", "Second try"]), "-----"])
    elif r < 0.77: out.append("$ sync; echo 3 > /proc/sys/vm/drop_caches")
    elif r < 0.80: out.append("Run %d:" % random.randint(1, 9))
    elif r < 0.85: out.append("")
    elif r < 0.88: out.append("$ ")
    elif r < 0.92 and len(out) > 8:
        k = random.randint(0, len(out) - 8)
        out.extend(out[k:k + 6])
    elif r < 0.95:
        out.append("dd: error writing 'f1': No space left on device")
        dd_out()
    else: out.append("> " + random.choice(cmds))
print("\n".join(out))
PY
for seed in 1 2 3 4; do
	python3 gen.py $seed 3000 > "mixed$seed.txt" || fail "gen.py $seed"
done
for f in mixed*.txt; do
	same_as_whole --json "$f" 300 4000 20000
done
# the logs hold what the test is for: rows of several runs, sections,
# cache drops, notes
grep -q ',time,run,time.real,s,[2-9]' whole.csv || fail "no timing row folds runs"
grep -q 'section=' whole.csv || fail "no section label"
grep -q 'cache=dropped' whole.csv || fail "no cache label"
finish
