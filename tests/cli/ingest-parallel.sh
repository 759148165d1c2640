#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan ingest --jobs: several inputs read at once give exactly the output
# and the messages of one at a time, in input order.
. "$(dirname "$0")/lib.sh"
files=()
for f in "$FIXTURES"/dd/00*.txt "$FIXTURES"/hdparm/*.txt "$FIXTURES"/fio/00*.json; do
	files+=("$f")
done
files+=("$TMP/missing.txt")
[ "${#files[@]}" -gt 20 ] || fail "too few fixtures found"

run "$STORAN" ingest --format csv -j 1 "${files[@]}"
one_out=$out one_err=$err one_rc=$rc
run "$STORAN" ingest --format csv -j 4 "${files[@]}"
[ "$out" = "$one_out" ] || fail "-j 4 output differs from -j 1"
[ "$err" = "$one_err" ] || fail "-j 4 messages differ from -j 1"
[ "$rc" -eq "$one_rc" ] || fail "-j 4 exit $rc, -j 1 exit $one_rc"
expect_rc 2 "missing input among many"

run "$STORAN" ingest -j 3 -o "$TMP/p.json" "${files[@]:0:10}"
"$STORAN" export "$TMP/p.json" > "$TMP/p.csv" 2>/dev/null
"$STORAN" ingest --format csv -j 1 "${files[@]:0:10}" > "$TMP/s.csv" 2>/dev/null
cmp -s "$TMP/p.csv" "$TMP/s.csv" || fail "JSON written with -j 3 exports differently"

for bad in 0 65 x; do
	run "$STORAN" ingest -j "$bad" "${files[0]}"
	expect_rc 2 "--jobs $bad"
done
finish
