#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# compare matches one input's sections heading by heading.  Fixture
# context/0012 writes 1 GiB with dd oflag=direct under '## ext4' (5.1 s)
# and '## btrfs' (6.2 s).  A later post with the same headings, ext4 now
# 4.3 s and btrfs 7.4 s, was compared as one pooled test: 192 -> 197 MB/s,
# +2.8%, 'unchanged', exit 0 -- hiding a 16% btrfs regression.  Now each
# heading meets its own: ext4 improvement, btrfs regression, exit 1.
. "$(dirname "$0")/lib.sh"
IN="$FIXTURES/context/0012-made-up-before-after-labels-markdown-headings-run-counters.txt"
sed -e 's/copied, 5\.1 s, 211 MB\/s/copied, 4.3 s, 250 MB\/s/' \
    -e 's/copied, 6\.2 s, 173 MB\/s/copied, 7.4 s, 145 MB\/s/' "$IN" > "$TMP/later.txt"

run "$STORAN" compare "$IN" "$TMP/later.txt" --no-check --metric bw \
	--where tool=dd --format csv
expect_rc 1 "a btrfs regression"
expect_in "$out" "dd,write,bw,bs=1048576;count=1024;direct=1;if=/dev/zero;of=/mnt/t/x;oflag=direct;section=ext4,1,210537612.54902,1,249707400.930233,1.18604651162791,18.6046511627907,,none,improvement" "ext4 row"
expect_in "$out" "section=btrfs,1,173184165.16129,1,145100246.486486,0.837837837837838,-16.2162162162162,,none,regression" "btrfs row"

run "$STORAN" compare "$IN" "$TMP/later.txt" --no-check --metric bw \
	--where tool=dd
expect_in "$out" "1 test(s) matched by section too" "the note says why"

# --ignore section pools them, as asked
run "$STORAN" compare "$IN" "$TMP/later.txt" --no-check --metric bw \
	--where tool=dd --ignore section --format json
expect_rc 0 "pooled on request"
expect_in "$out" '"split_by_section": 0' "nothing split"
expect_in "$out" '"n_a": 2' "two sections pooled"
finish
