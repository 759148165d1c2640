#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan table on raw text ingested on the fly: hdparm's three runs with
# and without --direct (a real post, see data/README; hdparm's MB/sec is
# MiB/s).  The expected means are computed here from the raw text with awk.
set -u
S=${STORAN:?}
f=$(dirname "$0")/data/hdparm-tT-and-direct-3runs.txt
fail() { echo "FAIL: $*"; exit 1; }

mean() {	# mean of the MB/sec figures of lines matching $1, in MiB/s
	grep -E "$1" "$f" | awk -F'= ' '{ split($2, a, " "); s += a[1]; n++ }
		END { printf "%.2f", s / n }'
}
want_read=$(mean 'Timing buffered disk reads')
want_dread=$(mean 'Timing O_DIRECT disk reads')
out=$("$S" table "$f" --rows op --cols direct --metric bw --where tool=hdparm \
	--units MiB/s --format csv) || fail "exit $?"
got=$(echo "$out" | awk -F, '$1 == "read" { printf "%.2f %.2f", $2, $3 }')
[ "$got" = "$want_read $want_dread" ] || fail "read: $got, want $want_read $want_dread"
[ "$(echo "$out" | head -1)" = "op,0,1" ] || fail "header: $out"
[ "$(echo "$out" | sed -n 2p | cut -d, -f1)" = read ] || fail "op order: $out"

# dd's read in the same file lacks 'direct': left out, and said so
"$S" table "$f" --rows op --cols direct --metric bw |
	grep -q "1 measurement(s) without 'direct' left out" || fail "lacking"
exit 0
