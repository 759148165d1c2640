#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CSV import: ingest -> export -> ingest -> export is byte-identical, for
# every kind of measurement the parsers here make (values, summaries with a
# population stddev, labels with commas and ';', two rows of one key that
# prose kept apart).
set -eu
STORAN=${STORAN:-./storan}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/apart.txt" <<'TXT'
Children see throughput for  1 readers          =  100000.00 kB/sec
then again, after a reboot:
Children see throughput for  1 readers          =  200000.00 kB/sec
TXT
inputs=(
	"$here/parsers/context/0001-mailing-list-post.txt"
	"$here/parsers/blockdev-perftest/0002-wrapped-quoted-no-command.txt"
	"$here/parsers/iozone/0004-throughput-t2-tabs-report.txt"
	"$here/parsers/csv/0001-typed.input.csv"
	"$tmp/apart.txt"
)
"$STORAN" ingest --format csv "${inputs[@]}" > "$tmp/a.csv"
[ "$(grep -c '^apart.txt,.*,read,bw,' "$tmp/a.csv")" -eq 2 ] || {
	echo "apart.txt: the two runs should stay two rows"; exit 1; }
"$STORAN" ingest --format csv "$tmp/a.csv" > "$tmp/b.csv"
"$STORAN" ingest --format csv "$tmp/b.csv" > "$tmp/c.csv"
cmp "$tmp/a.csv" "$tmp/b.csv"
cmp "$tmp/b.csv" "$tmp/c.csv"
# Through JSON too: export of the ingested CSV equals the CSV.
"$STORAN" ingest -o "$tmp/b.json" "$tmp/a.csv"
"$STORAN" export "$tmp/b.json" --format csv > "$tmp/d.csv"
cmp "$tmp/a.csv" "$tmp/d.csv"
# A CSV quoted in a mail and under a heading keeps its rows' labels.
{ echo "Typed numbers"; echo "-------------"; sed 's/^/> /' "$tmp/a.csv"; } \
	> "$tmp/quoted.txt"
"$STORAN" ingest --format csv "$tmp/quoted.txt" > "$tmp/e.csv"
[ "$(wc -l < "$tmp/e.csv")" -eq "$(wc -l < "$tmp/a.csv")" ]
