#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Captures sample-data/old-new/: the same 4k random read and write jobs
# against one file in /tmp, at iodepth 1 ("old") and iodepth 16 ("new"),
# three repetitions each, 10 s after 2 s of ramp, fio's normal text
# output, one file per run.
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
file=${FILE:-/tmp/storan-old-new.fio}
for side in old new; do
	case $side in old) qd=1 ;; new) qd=16 ;; esac
	for rep in 1 2 3; do
		fio --filename="$file" --size=256M --bs=4k --direct=1 \
		    --ioengine=libaio --iodepth=$qd \
		    --runtime=10 --ramp_time=2 --time_based \
		    --name=randread --rw=randread --stonewall \
		    --name=randwrite --rw=randwrite --stonewall \
		    > "$dir/$side.$rep.txt"
	done
done
rm -f "$file"
