#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan compare: storan check's findings marked on the baseline's and
# the candidate's means (†N) with notes under each table; a trailing
# `findings` column in CSV only when there is a finding; findings per
# pair in JSON; exit codes unchanged; --findings, --no-check, --link, --ram.
set -u
cd "$(dirname "$0")/data" || exit 2
S="${STORAN:-../../../storan}"
fail() { echo "footnotes-compare: $*"; exit 1; }
dag=$'\xe2\x80\xa0'
A=footnotes-dd-zero-a.txt B=footnotes-dd-zero-b.txt
contract='tool,op,metric,labels,n_a,mean_a,n_b,mean_b,ratio,change_pct,p_value,test,verdict'

# Two real captures of dd from /dev/zero then reading the file back.  In
# A the reads came from the page cache (5.1 times the write speed); in B
# they were only 3.5 times faster: no cached-read there.
out=$("$S" compare $A $B --ram 16G); rc=$?
[ "$rc" -eq 0 ] || fail "dd: exit $rc, want 0 (inconclusive, no regression)"
# (text: the tool, the runs a side and the constant labels are said
# above the table, not on every row)
grep -Eq "^write +bw +940 MB/s ${dag}1,2,3,4 +1256 MB/s ${dag}5,6,7,8 " \
	<<<"$out" || fail "dd: write means not marked: $out"
grep -Eq "^read +bw +4\.80 GB/s ${dag}9,10,11 +4\.33 GB/s ${dag}12,13 " \
	<<<"$out" || fail "dd: read means not marked: $out"
grep -qx "${dag}9 $A:8: warning: cached-read: read of /var/tmp/storan-fn.img at 4.80 GB/s came right after writing it at 940 MB/s (5.1 times faster, no cache drop between): it was read from the page cache, not the disk" \
	<<<"$out" || fail "dd: note 9"
grep -q "^${dag}8 $B:4: warning: zero-data: " <<<"$out" ||
	fail "dd: note 8 is not B's zero-data"
grep -q "$B:8: warning: cached-read" <<<"$out" && fail "dd: B cached-read"

# CSV: the contract's columns untouched, then the codes of the row.
out=$("$S" compare $A $B --ram 16G -f csv)
[ "$(head -1 <<<"$out")" = "$contract,findings" ] || fail "csv header: $out"
grep -q '^dd,write,bw,.*,inconclusive,no-sync;noisy;short-run;zero-data$' \
	<<<"$out" || fail "csv write codes: $out"
grep -q '^dd,read,bw,.*,inconclusive,cached-read;noisy;short-run$' \
	<<<"$out" || fail "csv read codes: $out"
plain=$("$S" compare $A $B -f csv --no-check)
[ "$(sed 's/,[^,]*$//' <<<"$out")" = "$plain" ] ||
	fail "csv: the contract's columns changed: $plain"
[ "$(head -1 <<<"$plain")" = "$contract" ] || fail "--no-check header"

# Without findings (these hosts only have few-runs infos) the CSV, text
# and JSON are what --no-check prints... except JSON's empty findings.
for f in text md csv; do
	a=$("$S" compare host-alpha.json host-beta.json -f $f --color never)
	b=$("$S" compare host-alpha.json host-beta.json -f $f --color never \
		--no-check)
	[ "$a" = "$b" ] || fail "hosts $f: output changed by infos"
done
# ... and with --findings all the infos are cited.
out=$("$S" compare host-alpha.json host-beta.json -f csv --findings all)
[ "$(head -1 <<<"$out")" = "$contract,findings" ] || fail "all: header"
grep -q '^fio,read,bw,.*,few-runs$' <<<"$out" || fail "all: few-runs: $out"

# JSON: each pair lists its findings with the side they are on.
"$S" compare $A $B --ram 16G -f json | jq -e '
	.comparisons[0].pairs as $p |
	($p[1].findings | map(select(.code == "cached-read"))) as $c |
	($c | length == 1) and $c[0].side == "baseline" and
	$c[0].source == "footnotes-dd-zero-a.txt" and $c[0].line == 8 and
	$c[0].severity == "warning" and
	($p[0].findings | map(select(.side == "candidate")) | length == 4)
	' >/dev/null || fail "json findings"
"$S" compare $A $B --no-check -f json |
	jq -e '.comparisons[0].pairs[0] | has("findings") | not' >/dev/null ||
	fail "json: findings with --no-check"

# One file as both sides: the same findings keep the same numbers.
out=$("$S" compare $A $A --ram 16G)
grep -Eq "^read +bw +4\.80 GB/s ${dag}5,6,7 +4\.80 GB/s ${dag}5,6,7 " \
	<<<"$out" || fail "same file: numbers differ: $out"
[ "$(grep -c "^${dag}" <<<"$out")" -eq 7 ] || fail "same file: 7 notes"

# Several candidates: each table numbers its own notes from 1.
out=$("$S" compare $A $B $A --ram 16G)
[ "$(grep -c "^${dag}1 " <<<"$out")" -eq 2 ] || fail "restart: $out"

# Findings never decide the exit status; regressions still do.
"$S" compare hdparm-tT-sda-hdd.txt hdparm-Tt-direct-nvme.txt >/dev/null
[ $? -eq 1 ] || fail "hdparm: regression no longer exit 1"
out=$("$S" compare hdparm-tT-sda-hdd.txt hdparm-Tt-direct-nvme.txt -f csv)
grep -q '^hdparm,read,bw,.*,improvement,short-run$' <<<"$out" ||
	fail "hdparm: short-run not on the read: $out"
grep -q '^hdparm,cachedread,bw,.*,regression,$' <<<"$out" ||
	fail "hdparm: cachedread has a warning: $out"

# --link passes through: 500 MB/s cannot cross SATA 1 (150 MB/s); the
# same clean dd runs have no finding on SATA 3.
C=../../check/0004-clean-dd.txt
out=$("$S" compare $C $C --link sata1 -f csv)
[ "$(grep -c ',over-link$' <<<"$out")" -eq 2 ] || fail "--link sata1: $out"
out=$("$S" compare $C $C --link sata3 --ram 16G -f csv)
[ "$(head -1 <<<"$out")" = "$contract" ] || fail "--link sata3: $out"

for bad in "--link nvme:unknown link 'nvme'" "--ram 0:bad RAM size '0'" \
	   "--findings none:unknown --findings 'none'"; do
	opt=${bad%%:*} msg=${bad#*:}
	# shellcheck disable=SC2086
	err=$("$S" compare $A $B $opt 2>&1 >/dev/null); rc=$?
	[ "$rc" -eq 2 ] || fail "$opt: exit $rc, want 2"
	[[ $err == *"$msg"* ]] || fail "$opt: message '$err'"
done
out=$("$S" compare --help)
for w in --link --ram --findings --no-check; do
	[[ $out == *"$w"* ]] || fail "--help does not mention $w"
done
exit 0
