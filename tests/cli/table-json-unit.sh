#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Table JSON carries its figures in the stored base unit (B/s, 1/s, s)
# unless --units says otherwise (storan-table(1)), and its title must say
# the unit of those figures.  It said the unit the text table would show:
# hdparm -tT on NVMe and a USB stick (real post, tests/cli/data/README)
# gave "title": "bw mean (MB/s)" over "bw": 1783753605.12, which a script
# reading the title takes for 1.78 billion MB/s.
. "$(dirname "$0")/lib.sh"
IN="$(dirname "$0")/data/hdparm-tT-nvme-and-usb.txt"

run "$STORAN" table "$IN" --rows device --cols op --metric bw --no-check \
	--format json
expect_rc 0 "json table"
printf '%s' "$out" | jq -e '.title == "bw mean (B/s)" and
	.rows[0].read == 1783753605.12' >/dev/null ||
	fail "title and figures disagree: $(printf '%s' "$out" | head -3)"

# with --units the figures are in that unit, and the title says so
run "$STORAN" table "$IN" --rows device --cols op --metric bw --no-check \
	--format json --units MiB/s
printf '%s' "$out" | jq -e '.title == "bw mean (MiB/s)" and
	.rows[0].read == 1701.12' >/dev/null ||
	fail "--units MiB/s: $(printf '%s' "$out" | head -3)"

# the text table keeps its readable unit
run "$STORAN" table "$IN" --rows device --cols op --metric bw --no-check
expect_in "$out" "bw mean (MB/s)" "text title"
finish
