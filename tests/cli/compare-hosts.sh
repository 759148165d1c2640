#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan compare, two hosts with single runs: ratios, verdicts by the
# threshold alone (said so), unmatched measurements listed, exit 1 when the
# candidate is worse and 0 when it is not.
set -u
cd "$(dirname "$0")/data" || exit 1
S=${STORAN:?}
fail() { echo "FAIL: $*"; exit 1; }

out=$("$S" compare host-alpha.json host-beta.json --format csv)
[ $? -eq 1 ] || fail "worse candidate: exit not 1"
want='tool,op,metric,labels,n_a,mean_a,n_b,mean_b,ratio,change_pct,p_value,test,verdict
fio,read,bw,bs=1048576;rw=read,1,512000000,1,517000000,1.009765625,0.9765625,,none,unchanged
fio,randread,iops,bs=4096;rw=randread,1,41000,1,32800,0.8,-20,,none,regression
fio,randread,lat.mean,bs=4096;rw=randread,1,9.7e-05,1,0.000121,1.24742268041237,24.7422680412371,,none,regression'
[ "$out" = "$want" ] || fail "csv: $out"

out=$("$S" compare host-alpha.json host-beta.json)
echo "$out" | head -1 | grep -qx \
	'baseline host-alpha.json (host=alpha) vs candidate host-beta.json (host=beta)' ||
	fail "title: $out"
echo "$out" | grep -q 'randread  iops .* -20\.0% .* regression \*$' ||
	fail "text row: $out"
echo "$out" | grep -q '^\* single runs: the threshold alone decides' ||
	fail "single-run note: $out"
echo "$out" | grep -q 'unmatched, only in host-alpha.json: fio write bw bs=1048576;rw=write (alpha.txt:50)' ||
	fail "unmatched: $out"
echo "$out" | grep -q '^left out of the match: command, host$' ||
	fail "ignored: $out"
echo "$out" | grep -q '^summary: 2 regression, 0 improvement, 1 unchanged, 0 inconclusive; 1 unmatched$' ||
	fail "summary: $out"
echo "$out" | grep -q '^geometric mean of ratios: bw 1.010 (1), iops 0.800 (1), lat.mean 1.247 (1)$' ||
	fail "geomean: $out"

# gamma is a little better everywhere: no regression, exit 0
"$S" compare host-alpha.json host-gamma.json >/dev/null ||
	fail "better candidate: exit $?"
# a wider threshold forgives beta's iops, not its latency
out=$("$S" compare host-alpha.json host-beta.json --threshold 22% -f csv)
[ $? -eq 1 ] || fail "threshold 22: exit"
echo "$out" | grep -q ',iops,.*,unchanged$' || fail "threshold iops: $out"
"$S" compare host-alpha.json host-beta.json --threshold 25 >/dev/null ||
	fail "threshold 25: exit $?"
# --metric picks; runtime only when asked, lower is better
out=$("$S" compare host-alpha.json host-beta.json --metric runtime -f csv)
[ "$(echo "$out" | sed -n 2p)" = \
  'fio,read,runtime,bs=1048576;rw=read,1,60,1,60,1,0,,none,unchanged' ] ||
	fail "--metric runtime: $out"

# real hdparm output from two machines, ingested on the fly
out=$("$S" compare hdparm-tT-sda-hdd.txt hdparm-Tt-direct-nvme.txt -f csv \
	--no-check)
[ $? -eq 1 ] || fail "hdparm: exit"
echo "$out" | grep -q '^hdparm,cachedread,bw,,1,.*,none,regression$' ||
	fail "hdparm cachedread: $out"
echo "$out" | grep -q '^hdparm,read,bw,,1,126175150.08,1,660518993.92,.*,improvement$' ||
	fail "hdparm read: $out"
exit 0
