#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan plot: usage errors and bad input exit 2 with a message naming the
# problem, and write nothing.
set -u
DATA=$(cd "$(dirname "$0")/data/plot" && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
expect() {	# expect RC PATTERN ARGS...
	local rc=$1 pat=$2 out got; shift 2
	out=$("$STORAN" plot "$@" 2>&1); got=$?
	if [ "$got" -ne "$rc" ] || ! printf '%s' "$out" | grep -q -- "$pat"; then
		echo "plot $*: exit $got, want $rc /$pat/: $out"; fail=1
	fi
}
S=$DATA/sweep.json
expect 2 "which metric" "$S" -o "$T/x.png"
expect 2 "no output file" "$S" --y bw
expect 2 "must end in .png" "$S" --y bw -o "$T/x.gif"
expect 2 "no input files" --y bw -o "$T/x.png"
expect 2 "--where 'bss': no measurement has that key; did you mean 'bs'? (keys: " \
	"$S" --y bw --x bs --where bss=4k -o "$T/x.png"
expect 2 "no measurement of metric 'iops'" "$S" --y iops -o "$T/x.png"
expect 2 "unknown kind 'pie'" "$S" --y bw --kind pie -o "$T/x.png"
expect 2 "errorbars" "$S" --y bw --errorbars wide -o "$T/x.png"
expect 2 "bad --where" "$S" --y bw --where host -o "$T/x.png"
expect 2 "KEY=A/KEY=B" "$S" --y bw --ratio host=alpha -o "$T/x.png"
expect 2 "does not fit" "$S" --y bw --units ms -o "$T/x.png"
expect 2 "histogram" "$S" --y clat --kind cdf -o "$T/x.png"
expect 2 "bad size" "$S" --y bw --width -5 -o "$T/x.png"
expect 2 "cannot" "$S" --y bw -o "$T/no/such/dir/x.png"
[ -z "$(ls "$T" | grep -v '^missing' || true)" ] || { echo "files left: $(ls "$T")"; fail=1; }
# the good input still draws when another is missing: exit 2, chart made
"$STORAN" plot "$S" "$T/missing.json" --y bw -o "$T/ok.png" 2>/dev/null
[ $? -eq 2 ] && [ -s "$T/ok.png" ] || { echo "missing input stopped the chart"; fail=1; }
"$STORAN" plot --help | grep -q -- "--errorbars" || fail=1
# cairo is loaded when a chart is drawn (plot/gfx.h): one that cannot be
# loaded (here a broken file in its place) is a clear error and no file
mkdir "$T/lib" && : > "$T/lib/libcairo.so.2"
out=$(LD_LIBRARY_PATH="$T/lib" "$STORAN" plot "$S" --y bw -o "$T/lib/x.png" 2>&1)
got=$?
if [ "$got" -ne 2 ] || ! printf '%s' "$out" | grep -q "cannot load libcairo.so.2" ||
   [ -e "$T/lib/x.png" ]; then
	echo "broken libcairo: exit $got: $out"; fail=1
fi
# the same for libxlsxwriter and a report: no half-made directory
mkdir "$T/lib2" && : > "$T/lib2/libxlsxwriter.so.4"
out=$(LD_LIBRARY_PATH="$T/lib2" "$STORAN" report "$S" -o "$T/lib2/rep" 2>&1)
got=$?
if [ "$got" -eq 0 ] ||
   ! printf '%s' "$out" | grep -q "cannot load libxlsxwriter.so.4" ||
   [ -e "$T/lib2/rep" ]; then
	echo "broken libxlsxwriter: exit $got: $out"; fail=1
fi
exit $fail
