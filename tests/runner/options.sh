#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan run's option vocabulary: fio's spellings with fio's meaning
# (--direct=1, --direct 0, --ramp_time, --bs READ,WRITE, --rwmixwrite),
# the sweep spelled --bs-sweep, contradictions refused, an unknown option
# answered with the closest one; and the result set never written onto a
# terminal unasked (script(1) gives the run a terminal).
. "$(dirname "$0")/lib.sh"
mkdir "$T/d"
R="$STORAN run --directory $T/d --size 8M --runtime 0.2 --repeat 1"

# bs=BS direct=D rows of op in the CSV of $1
has() { csv "$1" | grep ",storan,$2,iops," | grep -q "$3" ||
	fail "$1: no $2 row with $3"; }

expect_rc 2 $R --rw read --bs 4k --direct --buffered
expect_err "contradict each other"
expect_rc 2 $R --rw read --bs 4k --direct=0 --buffered=0
expect_err "contradict each other"
expect_rc 2 $R --rw read --bs 4k --direct=yes
expect_err "--direct wants 0 or 1, not 'yes'"

expect_rc 0 $R --rw read --bs 4k --direct 0 --ramp_time 0 -o "$T/a.json" -q
has "$T/a.json" read "direct=0;"
expect_rc 0 $R --rw read --bs 4k --direct=1 --ramp=0 -o "$T/b.json" -q
has "$T/b.json" read "direct=1;"
expect_rc 0 $R --rw read --bs 4k --buffered=1 --direct=0 --ramp 0 \
	-o "$T/c.json" -q
has "$T/c.json" read "direct=0;"

# fio's --bs READ,WRITE: each pattern gets its direction's size
expect_rc 0 $R --rw read,randwrite --bs 4k,64k --ramp 0 -o "$T/rw.json" -q
has "$T/rw.json" read "bs=4096;"
has "$T/rw.json" randwrite "bs=65536;"
[ "$(csv "$T/rw.json" | grep -c ',storan,[a-z]*,iops,')" -eq 2 ] ||
	fail "--bs 4k,64k is no sweep: two rows, not four"
# a size no pattern uses is named, with the sweep's spelling
expect_rc 0 $R --rw randread --bs 4k,64k --ramp 0 -o "$T/r.json" -q
expect_err "no pattern writes: 64K is not used"
expect_err "--bs-sweep 4k,64k"
expect_rc 2 $R --rw randrw --bs 4k,64k --ramp 0
expect_err "a randrw or rw pattern needs one size"
expect_rc 2 $R --rw read --bs 4k,8k,16k,32k
expect_err "a list of block sizes to sweep is --bs-sweep 4k,8k,16k,32k"

# the sweep
expect_rc 0 $R --rw randread --bs-sweep 4k,8k --ramp 0 -o "$T/s.json" -q
has "$T/s.json" randread "bs=4096;"
has "$T/s.json" randread "bs=8192;"
expect_rc 0 $R --rw read --bs 4k-8k --ramp 0 -o "$T/s2.json" -q
has "$T/s2.json" read "bs=8192;"
expect_rc 2 $R --rw read --bs 4k --bs-sweep 4k,8k
expect_err "--bs and --bs-sweep exclude each other"

# fio's rwmixwrite is 100 - rwmixread; both must agree
expect_rc 0 $R --rw randrw --bs 4k --rwmixwrite 20 --ramp 0 \
	-o "$T/m.json" -q
has "$T/m.json" randread "rwmixread=80;"
expect_rc 2 $R --rw randrw --bs 4k --rwmixread 70 --rwmixwrite 20
expect_err "contradict each other"

# unknown options and values: the closest known one
expect_rc 2 $R --rw read --bs 4k --ramptime 0
expect_err "unknown option '--ramptime'; did you mean '--ramp_time'?"
expect_rc 2 $R --rw read --bs 4k --numjbs 2
expect_err "did you mean '--numjobs'?"
expect_rc 2 $R --rw randred --bs 4k
expect_err "did you mean 'randread'?"
expect_rc 2 $R --rw read -bs 4k
expect_err "did you mean '--bs'?"
expect_rc 2 $R --rw read --bs 4k --verify=1
expect_err "option '--verify' takes no value"
expect_rc 2 $R --rw read --bs
expect_err "option '--bs' needs a value"
expect_rc 2 $R --rw read --bs 4k --dir "$T/d"
expect_err "is ambiguous: --directory, --direct"
empty_dir "$T/d"

# A terminal on stdout: the summary, never the JSON
tty_run() {	# tty_run SHELL-COMMAND: its terminal output in $T/tty
	script -qec "$1" /dev/null >"$T/tty" 2>&1 </dev/null
}
tty_run "$R --rw read --bs 4k --ramp 0"
grep -q '"schema"' "$T/tty" && fail "JSON written onto a terminal"
grep -q 'read  *bs=4K.*IOPS' "$T/tty" || fail "no summary on the terminal"
grep -q "not written to a terminal: -o FILE keeps it" "$T/tty" ||
	fail "no word on how to keep the result set"
tty_run "$R --rw read --bs 4k --ramp 0 | cat"
grep -q '"schema": "storan/1"' "$T/tty" || fail "JSON not written to a pipe"
tty_run "$R --rw read --bs 4k --ramp 0 -o -"
grep -q '"schema": "storan/1"' "$T/tty" || fail "-o - is asked for"
tty_run "$R --rw read --bs 4k --ramp 0 -o $T/t.json"
grep -q 'read  *bs=4K.*IOPS' "$T/tty" || fail "no summary with -o FILE"
has "$T/t.json" read "bs=4096;"
tty_run "$R --rw read --bs 4k --ramp 0 --quiet; echo rc=\$?"
grep -q "rc=2" "$T/tty" || fail "--quiet on a terminal: not refused"
empty_dir "$T/d"
exit 0
