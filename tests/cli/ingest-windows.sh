#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A long log is read window by window (issue 18), with the result of a
# whole read, byte for byte: CSV, messages and exit status.  Each dd and
# time fixture, and a mix of them, is made long (its text repeated, a dd
# run timed with time first, so that the first window holds both
# parsers) and read with windows of 20,000 bytes (STORAN_TEST_WINDOW) and
# as a whole (one window larger than the text).
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1
head_run() {
	printf '$ time dd if=/dev/zero of=f0 bs=1M count=64 conv=fdatasync\n'
	printf '64+0 records in\n64+0 records out\n'
	printf '67108864 bytes (67 MB, 64 MiB) copied, 1.234567 s, 54.4 MB/s\n'
	printf '\nreal\t0m1.300s\nuser\t0m0.001s\nsys\t0m0.100s\n\n'
}
n=0
for f in "$FIXTURES"/dd/[0-9]*.txt "$FIXTURES"/time/[0-9]*.txt; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	# long enough that windows let lines go (4,000 lines and more)
	reps=$((4000 / ($(wc -l < "$f") + 1) + 1))
	{ head_run; awk -v reps="$reps" '{ line[NR] = $0 } END {
		for (k = 0; k < reps; k++) {
			for (i = 1; i <= NR; i++)
				print line[i]
			print ""
		} }' "$f"; } > "long$n.txt"
done
{ head_run; for k in $(seq 3); do cat "$FIXTURES"/dd/[0-9]*.txt \
	"$FIXTURES"/time/[0-9]*.txt; done; } > mix.txt
# a heading and a command far above the outputs they label, long gone
# from the window when the last output comes
{ head_run; printf '## disk A, ext4\n\n$ ./bench.sh --size=1G\n'
  awk 'BEGIN { for (i = 0; i < 1500; i++) {
	if (i == 900) printf "\n=== disk B ===\n\nnow the other one:\n"
	printf "1024+0 records in\n1024+0 records out\n"
	printf "1073741824 bytes (1.1 GB, 1.0 GiB) copied, %d.%06d s, 1 GB/s\n",
		1 + i % 3, i * 7919 % 1000000
	printf "\nreal\t0m1.%03ds\nuser\t0m0.001s\nsys\t0m0.%03ds\n\n",
		i % 1000, i * 7 % 1000 } }'; } > far.txt
# another tool's output, or what a window cannot be read without (a
# Markdown fence, quoted-printable), first met far down the log: the
# log is then read whole, with the whole read's results
late=0
for tail in "$FIXTURES/hdparm/0001-T-only-cached-reads.txt" \
	    "$FIXTURES/fio/0001-2_0_13-mysql-3jobtypes-160procs-group.txt" \
	    "$FIXTURES/iozone/0001-auto-I-i0-i2-skipped-columns.txt" fence qp; do
	late=$((late + 1))
	{ timed_dd_runs 600
	  case $tail in
	  fence) printf '```\n'; timed_dd_runs 3; printf '```\n' ;;
	  qp) printf 'a=3D1 (quoted-printable)\n' ;;
	  *) cat "$tail" ;;
	  esac
	  timed_dd_runs 100; } > "late$late.txt"
done
[ "$n" -gt 0 ] || { echo "skip: no dd or time fixture"; exit 77; }
for f in long*.txt mix.txt far.txt late*.txt; do
	same_as_whole "$f" 20000
done
finish
