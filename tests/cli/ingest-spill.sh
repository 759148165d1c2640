#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A long log's values wait in a temporary file while storan ingest reads
# it (core/valspill.h, issue 18), and come back the same, byte for byte:
#   - every golden fixture, read with every row spilled at each run
#     (STORAN_TEST_SPILL=0), gives its expected CSV and messages;
#   - its JSON (the values themselves, in order) is the one read without
#     spilling, and with no TMPDIR to spill to (the values stay);
#   - a log of 60,000 dd runs spills by itself (more than the 262,144
#     values an input holds), and its CSV and JSON are what storan export
#     gives, which reads the same log with every value in memory; its
#     binary (written at the end, the values read back) too.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1
STORAN_TEST_SPILL=0 STORAN="$STORAN" "$FIXTURES/../run-golden" > golden.txt \
	2> golden.err
grep -v ' 0$' golden.txt > failed.txt &&
	fail "goldens read spilling: $(head -3 failed.txt) $(head -5 golden.err)"
[ "$(wc -l < golden.txt)" -gt 50 ] || fail "goldens: only $(wc -l < golden.txt) ran"
n=0
for f in "$FIXTURES"/dd/[0-9]*.txt "$FIXTURES"/time/[0-9]*.txt \
	 "$FIXTURES"/iozone/[0-9]*.txt "$FIXTURES"/hdparm/[0-9]*.txt \
	 "$FIXTURES"/mixed/[0-9]*.txt; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	"$STORAN" ingest "$f" > kept.json 2> kept.err
	want=$?
	STORAN_TEST_SPILL=0 "$STORAN" ingest "$f" > spilled.json 2> spilled.err
	got=$?
	[ "$got" -eq "$want" ] || fail "$f spilled: exit $got, not $want"
	cmp -s kept.json spilled.json ||
		fail "$f spilled: JSON $(diff kept.json spilled.json | head -4)"
	cmp -s kept.err spilled.err || fail "$f spilled: messages differ"
	# no temporary file to be had: the values stay in memory
	TMPDIR=$TMP/none STORAN_TEST_SPILL=0 "$STORAN" ingest "$f" \
		> nowhere.json 2> /dev/null
	cmp -s kept.json nowhere.json || fail "$f, TMPDIR missing: JSON differs"
done
[ "$n" -gt 10 ] || fail "only $n fixtures"
awk 'BEGIN { for (i = 0; i < 60000; i++) {
	printf "$ time dd if=/dev/zero of=f%d bs=1M count=64 conv=fdatasync\n", i % 3
	printf "64+0 records in\n64+0 records out\n"
	printf "67108864 bytes (67 MB, 64 MiB) copied, %d.%06d s, 1 GB/s\n",
		1 + i % 3, i * 7919 % 1000000
	printf "\nreal\t0m1.%03ds\nuser\t0m0.001s\nsys\t0m0.%03ds\n\n",
		i % 1000, i * 7 % 1000 } }' > long.txt
"$STORAN" ingest --format csv -o long.csv long.txt 2> long.err ||
	fail "long log: exit $? $(head -3 long.err)"
"$STORAN" export --format csv -o kept.csv long.txt 2> /dev/null ||
	fail "long log, export: exit $?"
cmp -s long.csv kept.csv || fail "long log: CSV $(diff long.csv kept.csv | head -4)"
grep -q ',dd,write,bw,B/s,20000,' long.csv ||
	fail "long log: not 20,000 runs a row: $(head -3 long.csv)"
"$STORAN" ingest -o long.json long.txt 2> /dev/null || fail "long log JSON: exit $?"
"$STORAN" export --format json -o kept.json long.txt 2> /dev/null ||
	fail "long log, export JSON: exit $?"
cmp -s long.json kept.json || fail "long log: JSON differs"
# in binary, the measurements wait to the end, their values in the file
"$STORAN" ingest --format binary -o long.srb long.txt 2> /dev/null ||
	fail "long log binary: exit $?"
"$STORAN" export --format binary -o kept.srb long.txt 2> /dev/null ||
	fail "long log, export binary: exit $?"
cmp -s long.srb kept.srb || fail "long log: binary differs"
STORAN_TEST_SPILL=0 "$STORAN" ingest --format binary -o every.srb long.txt \
	2> /dev/null || fail "long log binary, every row spilled: exit $?"
cmp -s every.srb kept.srb || fail "long log, every row spilled: binary differs"
finish
