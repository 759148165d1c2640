#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A short-run finding that every test of one output shares (SCST's
# blockdev-perftest, 64 MiB per test: sample-data/file-vs-block) says
# so, with the range of the runtimes.  It quoted the first row alone
# ("write ran for 103 ms") while the report marked every cell with it.
. "$(dirname "$0")/lib.sh"
D="$(cd "$(dirname "$0")/../.." && pwd)/sample-data/file-vs-block"
run "$STORAN" check "$D/file.txt"
expect_in "$out" "file.txt:8: warning: short-run: all 22 tests of this output ran for 40.0 ms to 744 ms, under 5 s" "one finding for the table"
[ "$(echo "$out" | grep -c short-run)" -eq 1 ] || fail "short-run said more than once: $out"
finish
