#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan table --ratio: file system over block device, per block size, with
# significance marks -- including the 64K drop caused by one wild run out
# of three (file: 501.2, 498.8, 150.4 MB/s), which must not be marked
# significant.
set -u
cd "$(dirname "$0")/data" || exit 1
S=${STORAN:?}
fail() { echo "FAIL: $*"; exit 1; }

out=$("$S" table kind-both.json --rows bs --metric bw --no-check \
	--ratio kind=file/kind=block) || fail "exit $?"
echo "$out" | grep -q '^ 4K  0\.80 \*$' || fail "4K: $out"
echo "$out" | grep -q '^64K  0\.76 ~$' || fail "64K: $out"
echo "$out" | grep -q '^ 1M  0\.99 ~$' || fail "1M: $out"
echo "$out" | grep -q "Welch's t-test, p < 0.05" || fail "legend: $out"

# the same cells, unrounded, in CSV (80.333/100.5 = 0.799336...)
out=$("$S" table kind-both.json --rows bs --metric bw \
	--ratio kind=file/kind=block --format csv | sed -n 2p)
[ "$out" = "4096,0.799336650082919" ] || fail "csv: $out"

# the ratio also works across two inputs, the way people keep them
out=$("$S" table kind-block.json kind-file.json --rows bs --metric bw \
	--ratio kind=file/kind=block --format csv | sed -n 2p)
[ "$out" = "4096,0.799336650082919" ] || fail "two inputs: $out"

# a stricter alpha turns the 4K mark too
"$S" table kind-both.json --rows bs --metric bw --alpha 1e-6 \
	--no-check --ratio kind=file/kind=block | grep -q '^ 4K  0\.80 ~$' ||
	fail "alpha"

# single runs: no marks, no legend
out=$("$S" table host-alpha.json host-beta.json --rows op --metric bw \
	--where op=read --ratio host=beta/host=alpha) || fail "hosts exit"
echo "$out" | grep -q '^read  1\.01$' || fail "hosts: $out"
echo "$out" | grep -q 'Welch' && fail "legend without marks: $out"

# groups that miss each other are said so
out=$("$S" table host-alpha.json host-beta.json --rows op --metric bw \
	--ratio host=beta/host=alpha) || fail "half exit"
echo "$out" | grep -q "1 cell(s) have only one of host=beta and host=alpha" ||
	fail "half cells: $out"
exit 0
