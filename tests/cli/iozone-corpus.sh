#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every iozone capture of the shared corpus ingests (or fails with a
# precise message where the text itself is broken), with the number of
# figures counted by hand from each file and a few cells checked.
set -u
STORAN=${STORAN:-./storan}
# the shared corpus sits beside the checkout (as in CI), or where told
dir=${STORAN_CORPUS:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/corpus}/iozone
[ -d "$dir" ] || exit 77
fail=0
check() {	# check FILE EXIT ROWS
	local out rc n
	out=$("$STORAN" ingest --format csv "$dir/$1" 2>/dev/null); rc=$?
	n=$(($(printf '%s\n' "$out" | wc -l) - 1))
	if [ "$rc" -ne "$2" ] || [ "$n" -ne "$3" ]; then
		echo "$1: exit $rc rows $n, want exit $2 rows $3"; fail=1
	fi
}
cell() {	# cell FILE PATTERN: one exported row must match
	if ! "$STORAN" ingest --format csv "$dir/$1" 2>/dev/null |
	     grep -q -- "$2"; then
		echo "$1: no row matching $2"; fail=1
	fi
}
check iozone-2008-auto-i0i1i2-s128G-headerless.txt 0 78	# 13 rows x 6
check iozone-3.169-throughput-t1-nfs-2004.txt 0 24	# 4 tests x 6
check iozone-3.247-auto-M-machine-line-2006.txt 0 1560	# 120 x 13
check iozone-3.434-auto-n1g-g2g-fullcolumns.txt 0 104	# 8 x 13
check iozone-3.465-auto-I-odirect-local-ssd.txt 0 1638	# 126 x 13
check iozone-3.465-auto-I-odirect-srp-target.txt 0 1638
check iozone-3.493-macosx-R-excel-local-disk.txt 0 642	# 107 x 6, -R repeats
check iozone-3.493-macosx-R-excel-multi-s-fuse.txt 0 330	# 55 x 6
check iozone-3.507-throughput-t4-ops-O-I-excel-beegfs.txt 0 24
# the -R report alone says no unit (kB/s? -O ops/s? -N us/op): an error
check iozone-excel-report-section-only-trailing-spaces.txt 1 0
check iozone-table-only-trimmed-e-I-3recsizes.txt 0 18
check iozone-throughput-summary-lines-only-grep.txt 0 8
# starts mid-block: its first three lines belong to no test
check iozone-throughput-t2-verify-errors-interrupted-FRAGMENT.txt 1 12
# 2008: 6 values under 13 header columns, -i 0 -i 1 -i 2 decides
cell iozone-2008-auto-i0i1i2-s128G-headerless.txt \
	',13,iozone,randwrite,bw,B/s,1,38039552,.*bs=4096;command=[^;]*;direct=0;filesize=137438953472'
# 3.465 -I: last cell of the table, freread at 512 MiB / 16 MiB
cell iozone-3.465-auto-I-odirect-srp-target.txt \
	',153,iozone,freread,bw,B/s,1,2302508032,.*bs=16777216;command=[^;]*;direct=1;filesize=536870912'
# -O: Min xfer in ops times the 4 kB record
cell iozone-3.507-throughput-t4-ops-O-I-excel-beegfs.txt \
	',42,iozone,write,bytes,B,1,266207232,.*aggregate=process-min;bs=4096;command=[^;]*;direct=1'
# ... and the error names the file and the first row's line
if ! "$STORAN" ingest --format csv \
	"$dir/iozone-excel-report-section-only-trailing-spaces.txt" 2>&1 \
	>/dev/null | grep -q '^iozone-excel-report-section-only-trailing-spaces.txt:3: iozone figures without their banner or command line'; then
	echo "report alone: no unit error at line 3"; fail=1
fi
exit $fail
