#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan table: storan check's findings marked on the cells they touch
# (†N) with numbered notes under the table, in text, md, html and json;
# CSV and the exit status unchanged; --findings, --no-check, --link, --ram.
set -u
cd "$(dirname "$0")/../check" || exit 2
S="${STORAN:-../../storan}"
D=../cli/data
fail() { echo "footnotes-table: $*"; exit 1; }
dag=$'\xe2\x80\xa0'

# The blog post: the cached dd read and the tiny iozone file are marked,
# each note names source:line, code and the reason.  Exit 0: findings are
# storan check's business, not table's.
out=$("$S" table 0001-post-disks.txt --rows tool,op --metric bw --ram 16G)
rc=$?
[ "$rc" -eq 0 ] || fail "post: exit $rc, want 0"
grep -qx "dd      read         5403 ${dag}1,2" <<<"$out" ||
	fail "post: dd read not marked 1,2: $out"
grep -qx "${dag}1 0001-post-disks.txt:43: warning: cached-read: read of /mnt/sata/test.img at 5.40 GB/s came right after writing it at 526 MB/s (10.3 times faster, no cache drop between): it was read from the page cache, not the disk" <<<"$out" ||
	fail "post: note 1 is not the cached read"
grep -q "^${dag}[0-9]* 0001-post-disks.txt:39: warning: zero-data: dd wrote zeros from /dev/zero" <<<"$out" ||
	fail "post: no zero-data note for line 39"
n=$(grep -c "^iozone .*${dag}" <<<"$out")
[ "$n" -eq 4 ] || fail "post: $n iozone rows marked, want 4 (small-file)"
# hdparm -T is cache by definition, an info: no mark by default...
grep -qx 'hdparm  cachedread        8185' <<<"$out" ||
	fail "post: cachedread marked without --findings all"
grep -q 'few-runs\|hdparm-cache' <<<"$out" && fail "post: infos cited"
# ... but with --findings all
out=$("$S" table 0001-post-disks.txt --rows tool,op --metric bw --ram 16G \
	--findings all)
grep -q "^hdparm  cachedread *8185 ${dag}10$" <<<"$out" ||
	fail "--findings all: cachedread not marked: $out"
grep -q "^${dag}[0-9]* 0001-post-disks.txt:51: info: hdparm-cache: " \
	<<<"$out" || fail "--findings all: no hdparm-cache note"

# The issue's typed table: 2.6 GB/s read over PCIe 2.0 x4 marked, the
# 1.5 GB/s write not.
out=$("$S" table 0003-typed-table.json --rows op --metric bw)
grep -qx "read     2.60 ${dag}1" <<<"$out" || fail "typed: read not marked: $out"
grep -qx 'write       1.50' <<<"$out" || fail "typed: write marked: $out"
grep -qx "${dag}1 typed-table.csv:2: warning: over-link: read of 2.60 GB/s exceeds the 2.00 GB/s a PCIe 2.0 x4 link can carry" \
	<<<"$out" || fail "typed: note"

# Markdown, HTML, JSON carry the same marks and notes; CSV stays raw.
out=$("$S" table 0003-typed-table.json --rows op --metric bw -f md)
grep -qx "| read | 2.60 ${dag}1 |" <<<"$out" || fail "md row: $out"
grep -qx "${dag}1 typed-table.csv:2: warning: over-link: read of 2.60 GB/s exceeds the 2.00 GB/s a PCIe 2.0 x4 link can carry" \
	<<<"$out" || fail "md note: $out"
out=$("$S" table 0003-typed-table.json --rows op --metric bw -f html)
grep -qF "<td class=\"num\">2.60<sup class=\"fn\">${dag}1</sup></td>" \
	<<<"$out" || fail "html cell: $out"
grep -qF "<p class=\"footnote\"><sup>${dag}1</sup> typed-table.csv:2: warning: over-link: " \
	<<<"$out" || fail "html note: $out"
"$S" table 0003-typed-table.json --rows op --metric bw -f json |
	jq -e '(.rows[0].findings.bw == [1]) and (.rows[1] | has("findings") | not)
	       and (.footnotes | length == 1)
	       and .footnotes[0].code == "over-link" and .footnotes[0].line == 2
	       and .footnotes[0].source == "typed-table.csv"' >/dev/null ||
	fail "json findings"
a=$("$S" table 0001-post-disks.txt --rows op --cols tool --metric bw -f csv \
	--ram 16G)
b=$("$S" table 0001-post-disks.txt --rows op --cols tool --metric bw -f csv \
	--no-check)
[ "$a" = "$b" ] || fail "csv differs with findings: $a"

# --no-check: no mark, no note; a table without findings is byte for byte
# the table --no-check prints, in every format.
out=$("$S" table 0001-post-disks.txt --rows tool,op --metric bw --no-check)
grep -q "$dag" <<<"$out" && fail "--no-check: marks: $out"
for f in text md csv json html; do
	a=$("$S" table 0004-clean-dd.txt --rows op --metric bw --ram 16G \
		--link sata3 -f $f)
	b=$("$S" table 0004-clean-dd.txt --rows op --metric bw --no-check -f $f)
	[ "$a" = "$b" ] || fail "clean $f: output changed"
done

# --link and --ram pass through to the checks.
out=$("$S" table 0001-post-disks.txt --rows tool,op --metric bw --ram 16G \
	--link pcie2x4)
grep -q "^${dag}[0-9]* 0001-post-disks.txt:29: warning: over-link: read of 6.56 GB/s exceeds the 2.00 GB/s a PCIe 2.0 x4 link can carry" \
	<<<"$out" || fail "--link: iozone read not over the link"
out=$("$S" table 0001-post-disks.txt --rows tool,op --metric bw --ram 1M)
grep -q 'small-file' <<<"$out" && fail "--ram 1M: small-file cited"

# Cache drops in raw text are seen: the read after the umount is clean.
out=$("$S" table 0006-drop-or-not.txt --rows op,if --metric bw --ram 16G \
	2>/dev/null)
grep -qx 'read   /mnt/qlc/a.bin        720' <<<"$out" ||
	fail "drop: the read after umount marked: $out"
grep -qx "read   /mnt/qlc/b.bin  5302 ${dag}1,2" <<<"$out" ||
	fail "drop: the read without a drop not marked: $out"

# A ratio cell pooling a wild run is marked noisy.
out=$("$S" table $D/kind-both.json --rows bs --metric bw \
	--ratio kind=file/kind=block)
grep -qx "64K  0.76 ~ ${dag}1" <<<"$out" || fail "ratio 64K: $out"
grep -q "^${dag}1 both.txt:11: warning: noisy: " <<<"$out" ||
	fail "ratio note: $out"

# The dd capture: zeros written and read straight back from the cache.
out=$("$S" table $D/footnotes-dd-zero-a.txt --rows op --metric bw --ram 16G)
grep -q "^${dag}[0-9]* footnotes-dd-zero-a.txt:4: warning: zero-data: " \
	<<<"$out" || fail "dd: no zero-data: $out"
grep -q "^${dag}[0-9]* footnotes-dd-zero-a.txt:8: warning: cached-read: " \
	<<<"$out" || fail "dd: no cached-read: $out"

# Trouble is exit 2, named.
for bad in "--link pcie9x4:unknown link 'pcie9x4'" \
	   "--ram lots:bad RAM size 'lots'" \
	   "--findings some:unknown --findings 'some'"; do
	opt=${bad%%:*} msg=${bad#*:}
	# shellcheck disable=SC2086
	err=$("$S" table 0003-typed-table.json --rows op --metric bw $opt \
		2>&1 >/dev/null)
	rc=$?
	[ "$rc" -eq 2 ] || fail "$opt: exit $rc, want 2"
	[[ $err == *"$msg"* ]] || fail "$opt: message '$err'"
done
out=$("$S" table --help)
for w in --link --ram --findings --no-check; do
	[[ $out == *"$w"* ]] || fail "--help does not mention $w"
done
exit 0
