#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# --verify: writes carry a per-sector pattern; reads of read-only jobs and
# a read-back after every write run check it.  Passes on a sound file
# (the unit tests show a flipped byte is caught); refuses --data with it.
. "$(dirname "$0")/lib.sh"
mkdir "$T/d"
for e in io_uring libaio psync; do
	"$STORAN" run --directory "$T/d" $QUICK --verify --ioengine $e \
		--rw write,randwrite,randrw,rw,read,randread --bs-sweep 4k,16k \
		--iodepth 4 --numjobs 2 -o "$T/v.json" 2>"$T/err"
	rc=$?
	if [ $rc -ne 0 ] && grep -q "is not available here" "$T/err"; then
		continue
	fi
	[ $rc -eq 0 ] || { cat "$T/err"; fail "--verify with $e: exit $rc"; }
	[ "$(csv "$T/v.json" | grep -c ',iops,')" -eq 16 ] ||
		fail "$e: want 16 iops rows"
done
empty_dir "$T/d"
expect_rc 2 "$STORAN" run --directory "$T/d" $QUICK --verify --data zero \
	--rw write --bs 4k
expect_err "--verify"
exit 0
