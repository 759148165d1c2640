#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan/1 binary (storan export --format binary, storan ingest --format
# binary) carries what storan/1 JSON carries: the golden fixtures' result
# sets, converted to binary and back, is the JSON it was, byte for byte,
# its CSV export too, binary again the same bytes, and ingested straight
# to binary the same bytes too; read from a pipe as from a file; the
# commands that read result sets say the same of either (table, compare,
# check).  A damaged file is refused naming it, the other inputs still
# read; binary is not written to a terminal.
. "$(dirname "$0")/lib.sh"
two=$(cd "$(dirname "$0")/../../sample-data/two-machines" && pwd)
cd "$TMP" || exit 1
# the good fixtures of each folder in one set (an invocation each, not
# seven a fixture: under ASan those took over five minutes)
n=0
for dir in "$FIXTURES"/*/; do
	inputs=()
	for f in "$dir"0[0-9][0-9][0-9]-*; do
		case "$f" in
		*.csv|*.err|*.args|*.exit|*.new|*.md) continue ;;
		esac
		[ -f "$f" ] && inputs+=("$f")
	done
	[ ${#inputs[@]} -gt 0 ] || continue
	"$STORAN" ingest "${inputs[@]}" > in.json 2> /dev/null
	[ -s in.json ] || { fail "$dir: no result set"; continue; }
	n=$((n + ${#inputs[@]}))
	"$STORAN" export --format binary in.json -o in.srb ||
		{ fail "$dir: not written in binary"; continue; }
	"$STORAN" export --format json in.srb > back.json 2> err ||
		{ fail "$dir: binary not read: $(cat err)"; continue; }
	"$STORAN" export --format json in.json > want.json
	cmp -s want.json back.json ||
		fail "$dir: $(diff want.json back.json | head -4)"
	"$STORAN" export in.srb > back.csv && "$STORAN" export in.json > want.csv
	cmp -s want.csv back.csv || fail "$dir: the CSV export differs"
	"$STORAN" export --format binary back.json -o again.srb
	cmp -s in.srb again.srb || fail "$dir: binary written again differs"
	"$STORAN" ingest --format binary "${inputs[@]}" -o direct.srb \
		2> /dev/null
	cmp -s in.srb direct.srb || fail "$dir: ingest --format binary differs"
done
[ "$n" -gt 200 ] || fail "only $n fixtures read"

# a pipe, and the commands that read result sets
"$STORAN" ingest "$two/do-5bucks.txt" -o a.json 2> /dev/null
"$STORAN" ingest "$two/vultr-25gbssd.txt" -o b.json 2> /dev/null
"$STORAN" export --format binary a.json -o a.srb
"$STORAN" export --format binary b.json -o b.srb
run "$STORAN" export --format json - < a.srb
expect_rc 0 "binary from stdin"
[ "$out" = "$("$STORAN" export --format json a.json)" ] ||
	fail "binary from stdin differs"
run sh -c "cat a.srb | '$STORAN' export --format json -"
[ "$out" = "$("$STORAN" export --format json a.json)" ] ||
	fail "binary from a pipe differs"
for cmd in "table --rows host,op --cols metric" "compare" "check"; do
	args=(b)
	[ "$cmd" = check ] && args=()
	# shellcheck disable=SC2086
	"$STORAN" $cmd a.json ${args[@]/%/.json} > json.out 2> json.err
	want=$?
	# shellcheck disable=SC2086
	"$STORAN" $cmd a.srb ${args[@]/%/.srb} > bin.out 2> bin.err
	got=$?
	[ "$got" -eq "$want" ] || fail "$cmd: exit $got on binary, $want on JSON"
	sed 's/a\.srb/a.json/g; s/b\.srb/b.json/g' bin.out | cmp -s - json.out ||
		fail "$cmd: $(sed 's/\.srb/.json/g' bin.out | diff json.out - | head -4)"
done

# a report of either: the same but for the provenance of its inputs
"$STORAN" report a.json b.json -o rj > /dev/null 2>&1
"$STORAN" report a.srb b.srb -o rb > /dev/null 2>&1
strip() { grep -v -e '| result set' -e '^Command: ' "$1"; }
[ -s rb/report.md ] && cmp -s <(strip rj/report.md) <(strip rb/report.md) ||
	fail "report: $(diff <(strip rj/report.md) <(strip rb/report.md) | head -4)"
grep -q '| a.srb | result set (binary) |' rb/report.md ||
	fail "report: its inputs not named binary result sets"

# damaged: named, exit 1, the other input still read
head -c 1000 a.srb > cut.srb
run "$STORAN" export cut.srb b.srb
expect_rc 1 "a cut binary"
expect_in "$err" "cut.srb: cut short or damaged" "a cut binary's message"
[ "$(printf '%s\n' "$out" | wc -l)" -gt 50 ] || fail "the other input not read"
cp a.srb new.srb
printf '\002' | dd of=new.srb bs=1 seek=8 conv=notrunc 2> /dev/null
run "$STORAN" compare new.srb b.srb
[ "$rc" -ne 0 ] || fail "a newer version: exit 0"
expect_in "$err" "new.srb: binary result set of version 2" "newer's message"

# several binary inputs are read into their places in one array: the
# same as their JSON, and with a damaged one between (its header whole,
# its first measurement not), the ones after it moved forward
run "$STORAN" export --format json a.srb b.srb a.srb
expect_rc 0 "three binary inputs"
[ "$out" = "$("$STORAN" export --format json a.json b.json a.json)" ] ||
	fail "three binary inputs differ from their JSON"
measurements_at() {	# the byte where the measurements section starts
	local i
	for i in 0 1 2 3 4 5 6 7 8 9; do
		[ "$(od -A n -t u4 -j $((16 + 24 * i)) -N 4 "$1" | tr -d ' ')" = 6 ] &&
			{ od -A n -t u8 -j $((24 + 24 * i)) -N 8 "$1" | tr -d ' '; return; }
	done
}
cp b.srb bad.srb
printf '\177' | dd of=bad.srb bs=1 seek=$(($(measurements_at b.srb) + 3)) \
	conv=notrunc 2> /dev/null
run "$STORAN" export --format json a.srb bad.srb a.srb
expect_rc 1 "a damaged binary between two"
expect_in "$err" "bad.srb: measurements[0]: missing tool" "its message"
[ "$out" = "$("$STORAN" export --format json a.json a.json)" ] ||
	fail "the inputs around a damaged binary differ from their JSON"

# A hand-written document whose measurements name no source and whose
# sources are none: what storan writes of it, JSON or binary, it reads
# back (it wrote "source": 0 with no source 0 and refused its own file),
# and behind another input its measurements stay its own.
printf '{"schema": "storan/1", "sources": [], "measurements": [{"tool": "dd", "op": "copy", "metric": "bytes", "unit": "B", "values": [4096], "source_name": "typed"}]}\n' > bare.json
"$STORAN" export --format json bare.json > bare2.json ||
	fail "a document without sources: not exported"
"$STORAN" export --format binary -o bare.srb bare.json ||
	fail "a document without sources: no binary"
want=$("$STORAN" export --format csv bare.json)
[ "$("$STORAN" export --format csv bare2.json 2>&1)" = "$want" ] ||
	fail "a document without sources: its JSON not read back"
[ "$("$STORAN" export --format csv bare.srb 2>&1)" = "$want" ] ||
	fail "a document without sources: its binary not read back"
"$STORAN" export --format json bare.json a.json > both.json ||
	fail "a document without sources, then another: not exported"
"$STORAN" export --format csv both.json > /dev/null 2>&1 ||
	fail "a document without sources, then another: not read back"

# not to a terminal (script gives the command one), -o instead
if command -v script > /dev/null; then
	script -qec "'$STORAN' export --format binary a.json; echo rc=\$?" \
		/dev/null > tty.out 2>&1
	expect_in "$(cat tty.out)" "binary is not for a terminal" "a terminal"
	expect_in "$(cat tty.out)" "rc=2" "a terminal's exit"
	script -qec "'$STORAN' ingest --format binary a.json; echo rc=\$?" \
		/dev/null > tty.out 2>&1
	expect_in "$(cat tty.out)" "binary is not for a terminal" "ingest, a terminal"
	expect_in "$(cat tty.out)" "rc=2" "ingest to a terminal's exit"
fi
finish
