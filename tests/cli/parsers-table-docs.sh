#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Adding a parser is its file and its row in parsers/registry.c: `storan
# ingest --help` lists the formats from that table, and the man page must
# describe each tool a row names (fio's four formats under one "fio"
# entry, the CSV import as "CSV"), and nothing the table does not have.
. "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
MAN="$ROOT/docs/storan-ingest.1"

run "$STORAN" ingest --help
expect_rc 0 "ingest --help"
formats=$(printf '%s\n' "$out" |
	awk '/^Formats/ { on = 1; next } on && /^$/ { exit } on { print $1 }')
[ "$(printf '%s\n' "$formats" | grep -c .)" -ge 8 ] ||
	fail "ingest --help lists no formats: $out"

# the tools the man page describes: ".B NAME" lines of DESCRIPTION,
# after its first paragraph, up to the "command" label's entry
described=$(awk '/^\.SH/ { on = ($2 == "DESCRIPTION"); next }
	on && /^\.TP/ { tp = 1; next }
	on && tp && /^\.B / { tp = 0; sub(/^\.B /, ""); gsub(/\\-/, "-"); print }
	{ tp = 0 }' "$MAN" | sort -u)

want=$(printf '%s\n' "$formats" | sed 's/^fio-.*/fio/; s/^csv$/CSV/' | sort -u)
for t in $want; do
	printf '%s\n' "$described" | grep -qx -- "$t" ||
		fail "the man page does not describe '$t' (a row of the parser table)"
done
for t in $(printf '%s\n' "$described" | grep -v '^command$'); do
	printf '%s\n' "$want" | grep -qx -- "$t" ||
		fail "the man page describes '$t', which no parser row names"
done

# each row says what it reads
printf '%s\n' "$out" | awk '/^Formats/ { on = 1; next } on && /^$/ { exit }
	on && NF < 3 { print "bad: " $0 }' | grep -q . &&
	fail "a format line says nothing of what it reads"
finish
