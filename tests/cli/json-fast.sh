#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Result sets read by core/rs-json-fast.c (where a measurement has the
# shape storan writes) and by json-scan alone (STORAN_TEST_JSON_SCAN_ONLY)
# are the same: every golden fixture's JSON, exported to CSV and to JSON
# both ways, byte for byte, and the same messages; a document whose
# measurements are mostly storan's own but some are not (a summary, an
# escape, a bad figure on its last one) too.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1
n=0
for f in "$FIXTURES"/*/[0-9]*; do
	case "$f" in
	*.csv|*.err|*.args|*.exit|*.new|*.md) continue ;;
	esac
	"$STORAN" ingest "$f" > in.json 2> /dev/null
	[ -s in.json ] || continue
	n=$((n + 1))
	for fmt in csv json; do
		"$STORAN" export --format $fmt in.json > fast.out 2> fast.err
		want=$?
		STORAN_TEST_JSON_SCAN_ONLY=1 "$STORAN" export --format $fmt \
			in.json > scan.out 2> scan.err
		got=$?
		[ "$got" -eq "$want" ] || fail "$f: exit $want, json-scan $got"
		cmp -s fast.out scan.out ||
			fail "$f ($fmt): $(diff scan.out fast.out | head -4)"
		cmp -s fast.err scan.err || fail "$f ($fmt): messages differ"
	done
done
[ "$n" -gt 100 ] || fail "only $n fixtures read"
m='"tool": "fio", "op": "read", "metric": "bw", "unit": "B/s"'
{
	printf '{"schema": "storan/1", "measurements": [\n'
	for i in $(seq 1 300); do
		printf '{%s, "values": [%d.5, 1e%d], "labels": {"i": "%d"}, "source": 0, "line": %d},\n' \
			"$m" "$i" $((i % 9)) "$i" "$i"
	done
	printf '{%s, "values": [1], "labels": {"q": "a\\"b"}},\n' "$m"
	printf '{"tool": "fio", "op": "read", "metric": "bw", "unit": "B/s", "values": [], "summary": {"n": 3, "mean": 5, "stddev": 1}},\n'
	printf '{%s, "values": [2]}],\n' "$m"
	printf '"sources": [{"path": "a", "name": "a", "format": "fio", "tool_version": null, "sha256": null}]}\n'
} > mixed.json
"$STORAN" export mixed.json > fast.csv || fail "mixed: exit $?"
STORAN_TEST_JSON_SCAN_ONLY=1 "$STORAN" export mixed.json > scan.csv
cmp -s fast.csv scan.csv || fail "mixed: $(diff scan.csv fast.csv | head -4)"
[ "$(wc -l < fast.csv)" -eq 304 ] || fail "mixed: $(wc -l < fast.csv) lines"
sed 's/"values": \[2\]/"values": [-2]/' mixed.json > bad.json
"$STORAN" export bad.json > /dev/null 2> fast.err
[ $? -eq 1 ] || fail "bad figure: not exit 1"
STORAN_TEST_JSON_SCAN_ONLY=1 "$STORAN" export bad.json > /dev/null 2> scan.err
cmp -s fast.err scan.err || fail "bad figure: $(cat fast.err) / $(cat scan.err)"
grep -q 'bad.json:304: measurements\[302\]: negative figure' fast.err ||
	fail "bad figure: $(cat fast.err)"
finish
