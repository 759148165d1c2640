#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A result set is read one measurement at a time and exported as it is
# written (issue 18): 200,000 measurements in storan's own order
# (measurements, then sources), 39 MB.  The whole document's tokens and
# the whole CSV in memory took 192 MB at peak; now 110 MB (142 MB under
# make check's ASan).  The output is what the whole reader made of it.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 2
awk 'BEGIN {
	printf "{\n \"schema\": \"storan/1\",\n \"generator\": \"t\",\n"
	printf " \"measurements\": ["
	for (i = 0; i < 200000; i++)
		printf "%s\n  {\"tool\": \"fio\", \"op\": \"read\", \"metric\": " \
			"\"bw\", \"unit\": \"B/s\", \"values\": [%d, %d, %d], " \
			"\"labels\": {\"bs\": \"4096\", \"job\": \"job%d\"}, " \
			"\"source\": 0, \"source_name\": \"a.txt\", \"line\": %d}",
			(i ? "," : ""), 1000 + i, 1001 + i, 1002 + i,
			int(i / 8), i + 1
	printf "\n ],\n \"sources\": [\n  {\"path\": \"a.txt\", \"name\": " \
		"\"a.txt\", \"format\": \"fio\", \"tool_version\": null, " \
		"\"sha256\": null}\n ]\n}\n"
}' > big.json
TIME=""
[ -x /usr/bin/time ] && TIME="/usr/bin/time -f %M -o $TMP/rss"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16"
for f in csv json; do
	rm -f "$TMP/rss"
	# shellcheck disable=SC2086
	run $TIME "$STORAN" export -f $f -o out.$f big.json
	expect_rc 0 "export -f $f"
	if [ -n "$TIME" ] && [ -s "$TMP/rss" ]; then
		[ "$(tail -1 "$TMP/rss")" -le 163840 ] ||
			fail "export -f $f: peak RSS $(tail -1 "$TMP/rss") KiB"
	fi
done
[ "$(wc -l < out.csv)" -eq 200001 ] || fail "CSV rows: $(wc -l < out.csv)"
expect_in "$(sed -n 200001p out.csv)" \
	"a.txt,200000,fio,read,bw,B/s,3,201000,1,200999,201001,bs=4096;job=job24999" \
	"the last row"
run "$STORAN" export out.json
expect_rc 0 "the JSON export read back"
[ "$(printf '%s\n' "$out" | cmp - out.csv)" = "" ] ||
	fail "the JSON export reads back as another CSV"
# a source index past the sources, found once they are read
sed 's/"source": 0, "source_name": "a.txt", "line": 200000}/"source": 1, "source_name": "a.txt", "line": 200000}/' \
	big.json > bad.json
run "$STORAN" export bad.json
expect_rc 1 "an index past the sources"
expect_in "$err" "measurements[199999]: no such source in 'source'" \
	"the whole reader's message"
finish
