#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan compare output: JSON document, Markdown, several candidates (CSV
# rows tell them apart with input=NAME), the tail note, -o, and colour only
# on a terminal and never with NO_COLOR.
set -u
cd "$(dirname "$0")/data" || exit 1
S=${STORAN:?}
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$S" compare kind-block.json kind-file.json -f json | jq -e '
	.baseline == "kind-block.json" and .alpha == 0.05 and
	(.comparisons | length) == 1 and
	.comparisons[0].identity_candidate.kind == "file" and
	.comparisons[0].ignored_labels == ["device", "kind"] and
	.comparisons[0].summary.regression == 1 and
	.comparisons[0].summary.inconclusive == 1 and
	(.comparisons[0].pairs[1].p_value > 0.4) and
	.comparisons[0].pairs[0].stddev_a > 0 and
	(.comparisons[0].summary.geomean_ratio.bw | . > 0.84 and . < 0.85)' \
	>/dev/null || fail "json"

out=$("$S" compare host-alpha.json host-beta.json -f md)
echo "$out" | grep -q '^| tool | op | metric | labels | n | baseline |' ||
	fail "md header: $out"
echo "$out" | grep -q '^| fio | randread | iops | bs=4096;rw=randread | 1 |' ||
	fail "md row: $out"

# three inputs: every candidate against the baseline
out=$("$S" compare host-alpha.json host-beta.json host-gamma.json -f csv)
[ $? -eq 1 ] || fail "three: exit"
echo "$out" | grep -q '^fio,randread,iops,bs=4096;input=host-beta.json;rw=randread,.*,regression$' ||
	fail "three, beta: $out"
echo "$out" | grep -q '^fio,randread,iops,bs=4096;input=host-gamma.json;rw=randread,.*,unchanged$' ||
	fail "three, gamma: $out"
[ "$(echo "$out" | wc -l)" -eq 7 ] || fail "three: rows $out"
n=$("$S" compare host-alpha.json host-beta.json host-gamma.json | grep -c '^baseline ')
[ "$n" -eq 2 ] || fail "three, text: $n tables"

# the tail regressed while the mean held (p99.9 is no headline metric:
# --metric all)
out=$("$S" compare tail-before.json tail-after.json --metric all)
[ $? -eq 1 ] || fail "tail: exit"
echo "$out" | grep -q '^tail: fio randread clat.mean: mean unchanged (+0.7%) but p99.9 regressed (+300.0%) at bs=4096;rw=randread$' ||
	fail "tail note: $out"
echo "$out" | grep -q 'clat.p99.9 .* hist  *regression$' || fail "tail row: $out"

"$S" compare host-alpha.json host-beta.json -f csv -o "$tmp/c.csv"
[ $? -eq 1 ] || fail "-o: exit"
[ "$(wc -l <"$tmp/c.csv")" -eq 4 ] || fail "-o: $(cat "$tmp/c.csv")"

esc=$(printf '\033[')
"$S" compare host-alpha.json host-beta.json | grep -qF "$esc" &&
	fail "colour into a pipe"
"$S" compare host-alpha.json host-beta.json --color always |
	grep -qF "${esc}1;31mregression" || fail "--color always"
if script -qec true /dev/null >/dev/null 2>&1; then
	export STORAN_PAGER=cat	# a pager's own escapes are not colour
	script -qec "'$S' compare host-alpha.json host-beta.json" /dev/null |
		grep -qF "$esc" || fail "no colour on a terminal"
	NO_COLOR=1 script -qec "'$S' compare host-alpha.json host-beta.json" \
		/dev/null | grep -qF "$esc" && fail "colour despite NO_COLOR"
fi
exit 0
