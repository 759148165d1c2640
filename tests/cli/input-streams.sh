#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# No input exhausts memory or time (issue 15): binary data on a pipe, a
# FIFO or a device is known from its first bytes and reading stops there,
# a sparse file's at its first hole; endless text is refused at 1 GiB or
# 2^25 lines, saying so.  Exit 1 (binary, too many lines) or 2 (too
# much), within seconds, with bounded memory.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
TIME=""
[ -x /usr/bin/time ] && TIME="/usr/bin/time -f %M -o $TMP/rss"

# bounded SECONDS MAX_KB WANT_RC TEXT CMD...: CMD ends in time and memory.
bounded() {
	local secs=$1 max_kb=$2 want=$3 text=$4
	shift 4
	# shellcheck disable=SC2086
	timeout "$secs" $TIME "$@" >/dev/null 2>"$TMP/err"
	rc=$?
	err=$(grep -v '^[0-9]*$' "$TMP/err")
	expect_rc "$want" "$*"
	expect_in "$err" "$text" "$*"
	if [ -n "$TIME" ] && [ -s "$TMP/rss" ]; then
		[ "$(tail -1 "$TMP/rss")" -le "$max_kb" ] ||
			fail "$*: peak RSS $(tail -1 "$TMP/rss") KiB"
	fi
}

bounded 20 262144 1 "stdin:1: binary data" \
	sh -c "exec '$STORAN' ingest - < /dev/zero"
bounded 20 262144 1 "zero:1: binary data" "$STORAN" ingest /dev/zero
mkfifo zero.fifo
(exec cat /dev/zero > zero.fifo 2>/dev/null) &
writer=$!
bounded 20 262144 1 "zero.fifo:1: binary data" "$STORAN" ingest zero.fifo
kill "$writer" 2>/dev/null
# text first, then NULs for ever: stops at the first NUL
bounded 20 262144 1 "binary data" \
	sh -c "(cat '$FIXTURES/hdparm/0011-tT-sda-hdd.txt'; exec cat /dev/zero) | exec '$STORAN' ingest -"
# endless text: refused once a stream holds 1 GiB (lines long enough to
# stay under the line cap below)
bounded 120 4194304 2 "stdin: more than 1024 MiB from a pipe" \
	sh -c "yes 'not a benchmark line, long enough to be ok' | exec '$STORAN' ingest -"

# A line costs ~30 bytes however short: 80 MB of newlines took 1.4 GB
# and 20 s.  More than 2^25 lines are refused, counted as a stream comes
# (yes: after 64 MB), before a line is cut in a file; within 1 GiB of
# address space, a few seconds, 256 MiB of RSS.
LIM="ulimit -v 1048576;"
# (AddressSanitizer reserves terabytes of address space for its shadow:
# under it the bound is the peak RSS alone)
grep -q -a __asan_init "$STORAN" && LIM=""
head -c 40000000 /dev/zero | tr '\0' '\n' > newlines.txt
bounded 20 262144 1 "newlines.txt: more than 33554432 lines" \
	sh -c "$LIM exec '$STORAN' ingest newlines.txt"
bounded 20 262144 1 "stdin: more than 33554432 lines" \
	sh -c "$LIM exec '$STORAN' ingest - < newlines.txt"
bounded 20 262144 1 "stdin: more than 33554432 lines" \
	sh -c "$LIM tr '\\0' '\\n' < /dev/zero | exec '$STORAN' ingest -"
bounded 20 262144 1 "stdin: more than 33554432 lines" \
	sh -c "$LIM yes | exec '$STORAN' ingest -"
# the others are still read, and the exit says why
cp "$FIXTURES/hdparm/0011-tT-sda-hdd.txt" ok.txt
run sh -c "$LIM exec '$STORAN' ingest --format csv newlines.txt ok.txt"
expect_rc 1 "newlines.txt ok.txt"
expect_in "$out" "ok.txt," "newlines.txt ok.txt"
rm -f newlines.txt

# A sparse or binary file is known from its first 64 KiB, or its first
# hole, and not read further: a 100 MB sparse file took 2 s and 215 MB,
# 50 GB ran out of memory without naming the file.
nosparse=
if truncate -s 50G sparse.bin 2>/dev/null &&
   [ "$(du -k sparse.bin | cut -f1)" -lt 1024 ]; then
	bounded 5 65536 1 "sparse.bin:1: binary data" \
		sh -c "$LIM exec '$STORAN' ingest sparse.bin"
	bounded 5 65536 1 "stdin:1: binary data" \
		sh -c "$LIM exec '$STORAN' ingest - < sparse.bin"
	# text first, a hole after it
	cp "$FIXTURES/hdparm/0011-tT-sda-hdd.txt" holed.txt
	truncate -s 20G holed.txt
	bounded 5 65536 1 "holed.txt:1: binary data" \
		sh -c "$LIM exec '$STORAN' ingest holed.txt"
else
	nosparse=1
	echo "skip: no sparse file can be made in $TMP"
fi
rm -f sparse.bin holed.txt
[ "$fails" -eq 0 ] && [ -n "$nosparse" ] && exit 77
finish
