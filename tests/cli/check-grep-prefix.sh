#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan check on a grep'd file (grep -H '' fio_randread.log
# fio_randwrite.log > do-5bucks.txt, sample-data/two-machines): a finding
# names the file its line number counts in, with the prefix leading the
# message.  It named fio_randwrite.log:183, a line fio_randwrite.log does
# not have (its line 15 is do-5bucks.txt's 183).  And the two machines'
# files checked together are never pooled: five runs each, not ten.
. "$(dirname "$0")/lib.sh"
D="$(cd "$(dirname "$0")/../.." && pwd)/sample-data/two-machines"

run "$STORAN" check "$D/do-5bucks.txt"
expect_in "$out" "do-5bucks.txt:183: warning: noisy: fio_randwrite.log: randwrite bw varies by 30%" "location of a prefixed line"
case "$out" in *"fio_randwrite.log:183"*) fail "a line of the grep'd file put in the prefix's file" ;; esac
[ "$(sed -n 183p "$D/do-5bucks.txt" | cut -c1-27)" = "fio_randwrite.log:  write: " ] ||
	fail "fixture changed: line 183 is no randwrite status line"

run "$STORAN" check "$D/do-5bucks.txt" "$D/vultr-25gbssd.txt"
case "$out" in *"over 10 runs"*) fail "two machines pooled: $out" ;; esac
expect_in "$out" "vultr-25gbssd.txt:183: warning: noisy: fio_randwrite.log: randwrite bw varies by 13% (coefficient of variation) over 5 runs" "second machine on its own"
finish
