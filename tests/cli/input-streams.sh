#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# No stream exhausts memory or time (issue 15): binary data on a pipe, a
# FIFO or a device is known from its first bytes and reading stops there;
# endless text is refused at 1 GiB, saying so.  Exit 1 (binary) or 2 (too
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
# endless text: refused once a stream holds 1 GiB
bounded 120 4194304 2 "stdin: more than 1024 MiB from a pipe" \
	sh -c "yes 'not a benchmark line' | exec '$STORAN' ingest -"
finish
