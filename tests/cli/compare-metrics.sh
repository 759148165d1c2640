#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan compare's metric set: the headline metrics by default (bw, iops,
# mean and p99 latency, times), --metric all for every metric with a
# direction, explicit lists as given; an unknown --metric, --match or
# --ignore name is exit 2 with "did you mean".
set -u
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
S=${STORAN:?}
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$S" ingest "$ROOT/sample-data/two-machines/do-5bucks.txt" -o "$tmp/old.json" ||
	fail "ingest old"
"$S" ingest "$ROOT/sample-data/two-machines/vultr-25gbssd.txt" -o "$tmp/new.json" ||
	fail "ingest new"
cd "$tmp" || exit 1

metrics() { cut -d, -f3 | tail -n +2 | sort -u | tr '\n' ' '; }

got=$("$S" compare old.json new.json -f csv | metrics)
[ "$got" = "bw clat.mean clat.p99 iops lat.mean " ] ||
	fail "default metrics: $got"
n=$("$S" compare old.json new.json -f csv | grep -c ',clat.p99.9,')
[ "$n" -eq 0 ] || fail "default has clat.p99.9"

got=$("$S" compare old.json new.json -f csv --metric all | metrics)
for m in bw iops clat.mean clat.p50 clat.p99.9 slat.mean bw.mean; do
	case " $got" in *" $m "*) ;; *) fail "--metric all lacks $m: $got" ;; esac
done
rows=$("$S" compare old.json new.json -f csv --metric all | wc -l)
[ "$rows" -gt 40 ] || fail "--metric all: $rows rows"
"$S" compare old.json new.json --metric bw,all -f csv | grep -q ',clat.p50,' ||
	fail "--metric bw,all is all"

got=$("$S" compare old.json new.json -f csv --metric bw,clat.p50 | metrics)
[ "$got" = "bw clat.p50 " ] || fail "explicit list: $got"

expect2() {	# expect2 PATTERN ARGS...
	local pat=$1
	shift
	"$S" compare old.json new.json "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[ "$rc" -eq 2 ] || fail "$*: exit $rc, want 2"
	grep -qF -- "$pat" "$tmp/err" || fail "$*: stderr $(cat "$tmp/err")"
	[ -s "$tmp/out" ] && fail "$*: output despite the error"
	return 0
}
expect2 "unknown --metric 'iosp'; did you mean 'iops'?" --metric iosp
expect2 "unknown --metric 'clat.mena'; did you mean 'clat.mean'?" --metric bw,clat.mena
expect2 "unknown --metric 'al'; did you mean 'all'?" --metric al
expect2 "unknown --match key 'bz'; did you mean 'bs'?" --match bz,rw
expect2 "unknown --ignore key 'hots'; did you mean 'host'?" --ignore hots
expect2 "unknown --ignore key 'zzzzzzzz'" --ignore zzzzzzzz
# a known metric these inputs lack is still suggested
expect2 "unknown --metric 'time.rael'; did you mean 'time.real'?" --metric time.rael
# known names that these inputs lack are no error
"$S" compare old.json new.json --ignore device,section >/dev/null 2>&1
[ $? -ne 2 ] || fail "--ignore device: exit 2"
"$S" compare old.json new.json --metric time.real >/dev/null 2>&1
[ $? -eq 1 ] || fail "--metric time.real: want 1 (nothing matched)"
# a metric and a key storan does not know but an input has (only the
# second input here) are no error, and are suggested
custom() {	# custom FILE LABELS
	printf '{"schema": "storan/1", "sources": [], "measurements": [{"tool": "fio", "op": "read", "metric": "bw", "unit": "B/s", "values": [1, 2, 3], "labels": {"host": "%s"}}%s]}\n' "$1" "$2" > "$1.json"
}
custom a ''
custom b ', {"tool": "fio", "op": "read", "metric": "zz.custom", "unit": "B/s", "values": [4, 5], "labels": {"tier": "gold"}}'
"$S" compare a.json b.json --metric bw,zz.custom --match tier >/dev/null 2>"$tmp/err"
[ $? -ne 2 ] || fail "names of the second input: $(cat "$tmp/err")"
"$S" compare a.json b.json --metric zz.custm >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -qF "did you mean 'zz.custom'?" "$tmp/err" ||
	fail "zz.custm: $(cat "$tmp/err")"
"$S" compare a.json b.json --ignore tierr >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -qF "did you mean 'tier'?" "$tmp/err" ||
	fail "tierr: $(cat "$tmp/err")"
exit 0
