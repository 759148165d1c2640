#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A cache drop learnt from the text travels in the result set
# ("cache_drops"), so storan check says the same of the ingested JSON as
# of the text.  Made-up transcript: dd write, a drop, hdparm -t, then a
# dd read at 10x the write: the read followed a drop, so no cached-read
# (the JSON used to lose the drop and warn).  A malformed cache_drops is
# refused with the file, line and entry.
. "$(dirname "$0")/lib.sh"
D="$(cd "$(dirname "$0")" && pwd)/data/check"
cd "$TMP" || exit 2
cp "$D/drop-then-hdparm-then-read.txt" t.txt

run "$STORAN" check t.txt
text_out=$out text_rc=$rc
expect_not_in() { case "$1" in *"$2"*) fail "$3: '$2' in: $1" ;; esac; }
expect_not_in "$text_out" "cached-read" "the text: the read follows a drop"
run "$STORAN" ingest -o t.json t.txt
expect_rc 0 "ingest"
expect_in "$(cat t.json)" '"cache_drops": [' "the JSON carries the drop"
expect_in "$(cat t.json)" '{"source": 0, "source_name": "t.txt", "line": 6}' "its line"
run "$STORAN" check t.json
[ "$out" = "$text_out" ] && [ "$rc" = "$text_rc" ] ||
	fail "check of the JSON differs from check of the text: $out"
# through export back to JSON (read, written again): kept
run "$STORAN" export --format json -o t2.json t.json
expect_in "$(cat t2.json)" '{"source": 0, "source_name": "t.txt", "line": 6}' "export keeps it"

sed 's/"line": 6}/"line": 0}/' t.json > bad.json
sed 's/"source": 0, "source_name"/"source": 1, "source_name"/' t.json > bad3.json
run "$STORAN" check bad3.json
expect_in "$err" "bad3.json:19: cache_drops[0]: want" "a source index past the sources"
run "$STORAN" check bad.json
expect_rc 1 "a drop at line 0 (a bad input, as any other)"
expect_in "$err" "bad.json:19: cache_drops[0]: want" "the message names it"
sed 's/"cache_drops": \[/"cache_drops": 3, "x": [/' t.json > bad2.json
run "$STORAN" check bad2.json
expect_in "$err" "'cache_drops' must be an array" "not an array"
finish
