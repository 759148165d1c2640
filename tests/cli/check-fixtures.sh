#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan check fixtures.  In tests/check/:
#
#   NNNN-what.txt|.json   the input (a post, a log, a result set)
#   NNNN-what.args        optional extra arguments, one per line (options,
#                         further inputs relative to tests/check/)
#   NNNN-what.csv         expected `storan check --format csv` output
#   NNNN-what.exit        expected exit status
#   NNNN-what.err         expected stderr (empty when the file is missing)
#
# A missing .csv or .exit is written from the actual run and the test
# FAILS, so that every expected file is read by a person before it counts.
set -u
cd "$(dirname "$0")/../check" || exit 2
STORAN="${STORAN:-../../storan}"
fail=0

for input in [0-9][0-9][0-9][0-9]-*.txt [0-9][0-9][0-9][0-9]-*.json; do
	[ -f "$input" ] || continue
	stem=${input%.*}
	args=()
	[ -f "$stem.args" ] && mapfile -t args < "$stem.args"
	out=$("$STORAN" check --format csv "${args[@]+"${args[@]}"}" "$input" \
		2>"/tmp/storan-check-err.$$")
	rc=$?
	err=$(cat "/tmp/storan-check-err.$$")
	rm -f "/tmp/storan-check-err.$$"
	for f in csv exit; do
		[ -f "$stem.$f" ] && continue
		if [ "$f" = csv ]; then printf '%s\n' "$out"; else echo "$rc"; fi \
			> "$stem.$f"
		echo "check-fixtures: wrote $stem.$f, review it"
		fail=1
	done
	if [ "$out" != "$(cat "$stem.csv")" ]; then
		echo "check-fixtures: $input: output differs:"
		diff <(printf '%s\n' "$out") "$stem.csv" | head -20
		fail=1
	fi
	if [ "$rc" != "$(cat "$stem.exit")" ]; then
		echo "check-fixtures: $input: exit $rc, want $(cat "$stem.exit")"
		fail=1
	fi
	want_err=""
	[ -f "$stem.err" ] && want_err=$(cat "$stem.err")
	if [ "$err" != "$want_err" ]; then
		echo "check-fixtures: $input: stderr differs:"
		diff <(printf '%s\n' "$err") <(printf '%s\n' "$want_err")
		fail=1
	fi
done
exit $fail
