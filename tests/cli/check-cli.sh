#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan check: options, formats, exit codes and trouble.
set -u
cd "$(dirname "$0")/../check" || exit 2
S="${STORAN:-../../storan}"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-cli: $*"; exit 1; }

# --help: usage on stdout, exit 0, names the options.
out=$("$S" check --help) || fail "--help exited $?"
for w in --link --ram --format pcie1x1; do
	[[ $out == *"$w"* ]] || fail "--help does not mention $w"
done

# Text format: FILE:LINE: severity: code: message, the figure quoted.
out=$("$S" check --ram 16G 0001-post-disks.txt); rc=$?
[ "$rc" -eq 1 ] || fail "post: exit $rc, want 1"
grep -qx '0001-post-disks.txt:43: warning: cached-read: read of /mnt/sata/test.img at 5.40 GB/s came right after writing it at 526 MB/s (10.3 times faster, no cache drop between): it was read from the page cache, not the disk' <<<"$out" ||
	fail "post: no cached-read line in text output"
grep -q '^0001-post-disks.txt:39: warning: zero-data: ' <<<"$out" ||
	fail "post: no zero-data on line 39"

# The typed table: the read over PCIe 2.0 x4 is flagged, the write not.
out=$("$S" check 0003-typed-table.json)
grep -qx 'typed-table.csv:2: warning: over-link: read of 2.60 GB/s exceeds the 2.00 GB/s a PCIe 2.0 x4 link can carry' <<<"$out" ||
	fail "typed table: read not flagged"
grep -q ':3: warning' <<<"$out" && fail "typed table: write flagged"

# --link names the same limit for unlabelled figures, any usual spelling.
for l in pcie2x4 'PCIe 2.0 x4' pciegen2x4 PCIE2X4; do
	out=$("$S" check --link "$l" --format csv 0002-post-iozone.json \
		--ram 1M)
	grep -q '^0001-post-disks.txt,29,warning,over-link,write of 1.62 GB/s exceeds the 2.00' <<<"$out" &&
		fail "--link '$l': 1.62 GB/s flagged against 2.00 GB/s"
	grep -q '^0001-post-disks.txt,29,warning,over-link,read of 6.56 GB/s exceeds the 2.00 GB/s a PCIe 2.0 x4 link' <<<"$out" ||
		fail "--link '$l': 6.56 GB/s read not flagged"
done

# JSON: a document with the findings and the measurements they touch.
"$S" check --format json --ram 16G 0002-post-iozone.json > "$tmp/c.json"
[ $? -eq 1 ] || fail "json: exit not 1"
python3 - "$tmp/c.json" <<'PY' || fail "json: wrong document"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "storan-check/1"
assert d["warnings"] == 1 and d["infos"] == 1
f = d["findings"][0]
assert f["code"] == "small-file" and f["line"] == 29
assert sorted(f["measurements"]) == [0, 1, 2, 3]
assert f["value"] == 4194304 and f["limit"] == 16 * 2**30
PY

# No warning: exit 0 even with infos; nothing printed without findings.
out=$("$S" check --ram 16G --link sata3 0004-clean-dd.txt); rc=$?
[ "$rc" -eq 0 ] && [ -z "$out" ] || fail "clean: exit $rc, output '$out'"
"$S" check 0008-link-labels.json --link 100gbe >/dev/null
[ $? -eq 0 ] || fail "infos only: exit not 0"

# --ram: a RAM smaller than the file silences small-file.
out=$("$S" check --ram 2M --format csv 0002-post-iozone.json)
grep -q small-file <<<"$out" && fail "--ram 2M: small-file still reported"

# Trouble: unknown link, bad RAM, bad format, no input -> 2, named.
err=$("$S" check --link sata4 0001-post-disks.txt 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 2 ] || fail "--link sata4: exit $rc"
[[ $err == *"unknown link 'sata4'"*"sata3"* ]] || fail "--link sata4: '$err'"
"$S" check --ram lots 0001-post-disks.txt 2>/dev/null; [ $? -eq 2 ] ||
	fail "--ram lots: exit not 2"
"$S" check --ram 0 0001-post-disks.txt 2>/dev/null; [ $? -eq 2 ] ||
	fail "--ram 0: exit not 2"
"$S" check --format xml 0001-post-disks.txt 2>/dev/null; [ $? -eq 2 ] ||
	fail "--format xml: exit not 2"
"$S" check 2>/dev/null; [ $? -eq 2 ] || fail "no input: exit not 2"

# An unreadable input is named, exits 2, and the others are still checked.
out=$("$S" check --ram 16G "$tmp/missing.txt" 0003-typed-table.json \
	2>"$tmp/err"); rc=$?
[ "$rc" -eq 2 ] || fail "missing input: exit $rc"
grep -q 'missing.txt' "$tmp/err" || fail "missing input not named"
grep -q 'over-link' <<<"$out" || fail "other input not checked"

# A result set that is not valid: named with its line, exit 1 at least.
printf '{"schema": "storan/1", "sources": [], "measurements": [' \
	> "$tmp/broken.json"
"$S" check "$tmp/broken.json" 2>"$tmp/err" >/dev/null; rc=$?
[ "$rc" -ge 1 ] || fail "broken json: exit $rc"
grep -q 'broken.json:1:' "$tmp/err" || fail "broken json: $(cat "$tmp/err")"

# Standard input works like a file (and its cache drops count).
out=$("$S" check --ram 16G - < 0006-drop-or-not.txt)
[ "$(grep -c cached-read <<<"$out")" -eq 1 ] || fail "stdin: '$out'"
# --severity warning hides the infos, and the exit status stays the same.
all=$("$S" check --ram 16G 0001-post-disks.txt); rc_all=$?
warn=$("$S" check --ram 16G --severity warning 0001-post-disks.txt); rc_warn=$?
[ "$rc_all" -eq "$rc_warn" ] || fail "--severity changed the exit status"
grep -q ': info: ' <<<"$all" || fail "no info findings to hide"
grep -q ': info: ' <<<"$warn" && fail "--severity warning shows infos"
[ "$(grep -c ': warning: ' <<<"$all")" -eq "$(grep -c ': warning: ' <<<"$warn")" ] ||
	fail "--severity warning lost warnings"
"$S" check --severity loud 0001-post-disks.txt 2>/dev/null; rc=$?
[ "$rc" -eq 2 ] || fail "bad --severity: exit $rc"
exit 0
