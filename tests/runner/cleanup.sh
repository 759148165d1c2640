#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The test file is gone after success, after a failure, after SIGINT and
# SIGTERM; an interrupted run writes what it measured, marked
# interrupted=yes, and exits 1.
. "$(dirname "$0")/lib.sh"
mkdir "$T/d"
expect_rc 0 "$STORAN" run --directory "$T/d" $QUICK --rw randread --bs 4k \
	-o "$T/ok.json"
empty_dir "$T/d"

# A new --filename is storan's own file: removed as well.
expect_rc 0 "$STORAN" run --filename "$T/d/named" $QUICK --rw write \
	--bs 4k -o "$T/ok.json"
empty_dir "$T/d"

# Failure after the file was made: a block size larger than the file.
expect_rc 2 "$STORAN" run --directory "$T/d" $QUICK --rw read --bs 16M \
	-o "$T/fail.json"
expect_err "larger than"
empty_dir "$T/d"
[ ! -e "$T/fail.json" ] || fail "a refused run wrote a result set"

for sig in INT TERM; do
	"$STORAN" run --directory "$T/d" --size 8M --runtime 0.2 --ramp 0 \
		--repeat 200 --rw randread --bs 4k --quiet \
		-o "$T/$sig.json" 2>"$T/err" &
	pid=$!
	# Wait until at least one repetition is done (ASan builds are slow).
	for _ in $(seq 50); do
		sleep 0.2
		[ -n "$(ls -A "$T/d")" ] && fail "file visible in $T/d"
	done
	kill -$sig $pid
	wait $pid
	rc=$?
	[ $rc -eq 1 ] || { cat "$T/err"; fail "SIG$sig: exit $rc, not 1"; }
	expect_err "interrupted"
	empty_dir "$T/d"
	n=$(csv "$T/$sig.json" | grep ',randread,iops,' |
	    grep 'interrupted=yes' | cut -d, -f7)
	[ -n "$n" ] && [ "$n" -ge 1 ] && [ "$n" -lt 200 ] ||
		fail "SIG$sig: want 1..199 kept repetitions, got '$n'"
done
exit 0
