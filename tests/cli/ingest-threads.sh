#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# One big input on two threads (its hash beside its lines, its jobs
# emitted in two halves, its rows rendered in turns) gives exactly what
# one thread gives (STORAN_SERIAL=1), in CSV and JSON, messages included,
# and the same again when it replaces an existing file.
# The input: fixture 0126's six JSON+ jobs repeated eight times -- 48
# jobs, over 10,000 lines, 1 MB and 4,096 measurements, the thresholds of
# each of those paths.
. "$(dirname "$0")/lib.sh"
big="$TMP/48-jobs.json"
python3 - "$FIXTURES/fio/0126-3_33-jsonplus-six-jobs-two-threads.json" \
	"$big" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["jobs"] = doc["jobs"] * 8
json.dump(doc, open(sys.argv[2], "w"), indent=2)
PY
[ "$(wc -l < "$big")" -gt 10000 ] || fail "the input is too small"
[ "$(wc -c < "$big")" -gt 1100000 ] || fail "the input is too small"
for fmt in csv json; do
	STORAN_SERIAL=1 "$STORAN" ingest --format $fmt -o "$TMP/one.$fmt" \
		"$big" 2>"$TMP/one.err"
	rc1=$?
	"$STORAN" ingest --format $fmt -o "$TMP/two.$fmt" "$big" \
		2>"$TMP/two.err"
	rc=$?
	expect_rc "$rc1" "$fmt on two threads (exit)"
	cmp -s "$TMP/one.$fmt" "$TMP/two.$fmt" ||
		fail "$fmt on two threads differs from one"
	cmp -s "$TMP/one.err" "$TMP/two.err" ||
		fail "$fmt messages on two threads differ from one"
	# over the file just written: its write-out starts in steps
	"$STORAN" ingest --format $fmt -o "$TMP/two.$fmt" "$big" 2>/dev/null
	cmp -s "$TMP/one.$fmt" "$TMP/two.$fmt" ||
		fail "$fmt written over an existing file differs"
done
[ "$(wc -c < "$TMP/two.json")" -gt $((2 << 20)) ] ||
	fail "the JSON is too small to be written out in steps"
[ "$(wc -l < "$TMP/one.csv")" -gt 4097 ] || fail "fewer than 4,096 rows"
finish
