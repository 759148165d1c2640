#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Each source of a result set carries its input's SHA-256, whichever way
# the input was read: small (hashed inline), cut whole on a hash thread
# (1 MB and more), by windows (a long log) or uncut (a fio log read
# whole).  The CSV export has no column for it and skips hashing
# (--format csv): its rows must be the same as those of the result set.
. "$(dirname "$0")/lib.sh"
small="$FIXTURES/dd/0013-gnu-newformat-GBps-write-and-read.txt"
for i in $(seq 3000); do cat "$small"; echo "some prose $i"; done > "$TMP/cut.txt"
for i in $(seq 40000); do
	printf '$ dd if=/dev/zero of=f bs=1M count=10\n10+0 records in\n10+0 records out\n'
	printf '10485760 bytes (10 MB, 10 MiB) copied, 0.0%05d s, 1 GB/s\n\n' "$i"
done > "$TMP/long.txt"
awk 'BEGIN { for (i = 1; i <= 200000; i++) printf "%d, %d, 0, 4096, 0\n", i, 100 + i % 50 }' \
	> "$TMP/job_clat.1.log"
for f in "$small" "$TMP/cut.txt" "$TMP/long.txt" "$TMP/job_clat.1.log"; do
	name=$(basename "$f")
	want=$(sha256sum < "$f" | cut -d' ' -f1)
	run "$STORAN" ingest -o "$TMP/r.json" "$f"
	expect_rc 0 "ingest of $name"
	grep -q "\"sha256\": \"$want\"" "$TMP/r.json" ||
		fail "$name: the result set lacks its SHA-256 $want"
	run "$STORAN" ingest --format binary -o "$TMP/r.srb" "$f"
	expect_rc 0 "binary ingest of $name"
	run "$STORAN" export --format json -o "$TMP/r2.json" "$TMP/r.srb"
	grep -q "\"sha256\": \"$want\"" "$TMP/r2.json" ||
		fail "$name: the binary result set lacks its SHA-256"
	run "$STORAN" ingest --format csv -o "$TMP/r.csv" "$f"
	expect_rc 0 "CSV ingest of $name"
	run "$STORAN" export -o "$TMP/from-json.csv" "$TMP/r.json"
	cmp -s "$TMP/r.csv" "$TMP/from-json.csv" ||
		fail "$name: ingest --format csv differs from the result set's export"
done
finish
