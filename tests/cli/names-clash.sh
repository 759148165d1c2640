#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Two inputs that share a file name in different directories
# (x/run.txt, y/run.txt: made-up dd transcripts, 537 MB/s and 1.1 GB/s)
# are two inputs, named by the tail of their paths, not two runs of one:
# check called them "noisy ... over 2 runs" and table showed their mean
# as one cell with no warning.  Directories that count runs (run1/out.txt,
# run2/out.txt) are still repetitions, as run1.txt and run2.txt are.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 2
mkdir x y run1 run2
cat > x/run.txt <<'T'
$ dd if=/dev/zero of=/tmp/f bs=1M count=1024 conv=fdatasync
1024+0 records in
1024+0 records out
1073741824 bytes (1.1 GB, 1.0 GiB) copied, 2.0 s, 537 MB/s
T
sed 's/2.0 s, 537 MB\/s/1.0 s, 1.1 GB\/s/' x/run.txt > y/run.txt
cp x/run.txt run1/out.txt
cp y/run.txt run2/out.txt

run "$STORAN" check x/run.txt y/run.txt
case "$out$err" in
*"over 2 runs"*) fail "check pooled x/run.txt and y/run.txt: $out" ;;
esac
expect_in "$out" "single run" "each input a single run"
expect_in "$out" "y/run.txt:4: info: few-runs: write at 1.07 GB/s" \
	"a finding names its file by the tail of its path"
run "$STORAN" table x/run.txt y/run.txt --rows op --metric bw
expect_in "$err" "differ in 'test' (x, y)" "table says what its cell pools"
# ... and the key it names goes on --rows, as it says (it was refused:
# "no measurement has that key")
run "$STORAN" table x/run.txt y/run.txt --rows test --cols op --metric bw \
	-f csv
expect_rc 0 "table --rows test"
expect_in "$out" "x,536870912" "x's own cell"
expect_in "$out" "y,1073741824" "y's own cell"
run "$STORAN" table x/run.txt y/run.txt --rows tset --cols op --metric bw
expect_rc 2 "a key neither a label nor from the names"
run "$STORAN" check run1/out.txt run2/out.txt
expect_in "$out" "over 2 runs" "run1/ and run2/ are repetitions"
# the same as result sets of one ingest each, read together
"$STORAN" ingest -o x.json x/run.txt && "$STORAN" ingest -o y.json y/run.txt ||
	fail "ingest"
run "$STORAN" check x.json y.json
case "$out$err" in
*"over 2 runs"*) fail "check pooled x.json and y.json: $out" ;;
esac
finish
