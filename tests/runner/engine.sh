#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every rw pattern through one engine ($1): the result set has the ops
# each pattern yields, non-zero IOPS and latencies, the engine label, a
# histogram, and the test directory is empty afterwards.
. "$(dirname "$0")/lib.sh"
E=$1
mkdir "$T/d"
"$STORAN" run --directory "$T/d" $QUICK --ioengine "$E" \
	--rw read,write,randread,randwrite,randrw,rw --bs-sweep 4k,64k \
	--iodepth 1,4 -o "$T/out.json" 2>"$T/err"
rc=$?
if [ $rc -ne 0 ] && grep -q "is not available here" "$T/err"; then
	skip "$E: $(cat "$T/err")"
fi
[ $rc -eq 0 ] || { cat "$T/err"; fail "$E run: exit $rc"; }
empty_dir "$T/d"
csv "$T/out.json" >"$T/csv"
depths=2
[ "$E" = psync ] && depths=1	# one I/O at a time, said on stderr
[ "$E" = psync ] && expect_err "does one I/O at a time"
for pat in read write randread randwrite randrw rw; do
	case $pat in
	randrw) ops="randread randwrite" ;;
	rw) ops="read write" ;;
	*) ops=$pat ;;
	esac
	for op in $ops; do
		n=$(grep -c ",storan,$op,iops,1/s,1,.*;rw=$pat;" "$T/csv")
		[ "$n" -eq $((2 * depths)) ] ||
			fail "$E $pat: $n $op iops rows, want $((2 * depths))"
	done
done
# Every iops, bw and latency figure is a positive number.
awk -F, '$5 ~ /^(iops|bw|lat.mean|clat.p99)$/ && !($8 > 0) {
	print "not positive: " $0; bad = 1 } END { exit bad }' "$T/csv" ||
	fail "$E: a zero figure"
grep -q "ioengine=$E;" "$T/csv" || fail "no ioengine=$E label"
grep -q "kind=file;" "$T/csv" || fail "no kind=file label"
for m in bw iops lat.mean clat.p50 clat.p90 clat.p99 clat.p99.9 \
	clat.p99.99 runtime cpu.usr cpu.sys; do
	grep -q ",storan,randread,$m," "$T/csv" || fail "no $m"
done
grep -q '"histogram"' "$T/out.json" || fail "no histogram"

# Buffered, two jobs, compressible data.
"$STORAN" run --directory "$T/d" $QUICK --ioengine "$E" --buffered \
	--numjobs 2 --data compress:50 --rw randrw --bs 4k --iodepth 2 \
	-o "$T/b.json" 2>"$T/err" || { cat "$T/err"; fail "buffered run"; }
csv "$T/b.json" | grep "data=compress:50;" | grep -q "direct=0;" ||
	fail "buffered labels"
csv "$T/b.json" | grep -q "numjobs=2;" || fail "numjobs label"
empty_dir "$T/d"
exit 0
