#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan ingest / export / help: exit codes, messages, options.
. "$(dirname "$0")/lib.sh"
good="$FIXTURES/hdparm/0011-tT-sda-hdd.txt"

run "$STORAN" --version
expect_rc 0 "--version"
expect_in "$out" "storan " "--version output"

for c in ingest export table compare check plot report run; do
	run "$STORAN" "$c" --help
	expect_rc 0 "$c --help"
	expect_in "$out" "usage: storan $c" "$c --help text"
	run "$STORAN" help "$c"
	expect_rc 0 "help $c"
done
run "$STORAN"
expect_rc 2 "no command"
run "$STORAN" frobnicate
expect_rc 2 "unknown command"
expect_in "$err" "'frobnicate' is not a storan command" "unknown command message"
run "$STORAN" ingest
expect_rc 2 "ingest without files"
run "$STORAN" ingest --format xml "$good"
expect_rc 2 "bad --format"
expect_in "$err" "unknown format 'xml'" "bad --format message"
run "$STORAN" ingest --label nokey "$good"
expect_rc 2 "bad --label"

# Missing file and directory: trouble (2), named; the good input still counts.
run "$STORAN" ingest --format csv "$TMP/missing.txt" "$good"
expect_rc 2 "missing file"
expect_in "$err" "$TMP/missing.txt: cannot open: No such file or directory" "missing file message"
expect_in "$out" "0011-tT-sda-hdd.txt,5,hdparm,read,bw" "good input after a missing one"
run "$STORAN" ingest --format csv "$TMP"
expect_rc 2 "directory"
expect_in "$err" "is a directory" "directory message"

# Inputs that fail to parse: 1, and the others are still ingested.
printf 'nothing here\n' > "$TMP/prose.txt"
run "$STORAN" ingest --format csv "$TMP/prose.txt" "$good"
expect_rc 1 "prose input"
expect_in "$err" "prose.txt:1: no benchmark output found" "prose message"
expect_in "$out" "hdparm,cachedread,bw" "good input after a failed one"

# JSON output, -o written atomically, then exported again.
run "$STORAN" ingest -o "$TMP/r.json" "$good"
expect_rc 0 "ingest -o"
[ -z "$out" ] || fail "ingest -o printed to stdout"
ls "$TMP"/r.json.tmp-* >/dev/null 2>&1 && fail "temporary file left behind"
expect_in "$(cat "$TMP/r.json")" '"schema": "storan/1"' "schema field"
run "$STORAN" export --format csv "$TMP/r.json"
expect_rc 0 "export"
direct=$("$STORAN" ingest --format csv "$good")
[ "$out" = "$direct" ] || fail "export of the JSON differs from ingest --format csv"
run "$STORAN" ingest -o "$TMP/nodir/r.json" "$good"
expect_rc 2 "unwritable -o"
expect_in "$err" "cannot create '$TMP/nodir/r.json'" "unwritable -o message"

# A bad result set is named.
printf '{"schema": "storan/1", "sources": [], "measurements": [{"tool": "x"}]}' > "$TMP/bad.json"
run "$STORAN" export "$TMP/bad.json"
expect_rc 1 "bad result set"
expect_in "$err" "bad.json:1: measurements[0]: missing 'op'" "bad result set message"

# stdin, --label, --name-pattern, grep prefixes.
run "$STORAN" ingest --format csv --label host=old - < "$good"
expect_rc 0 "stdin"
expect_in "$out" "stdin,5,hdparm,read,bw,B/s,1,126175150.08,,126175150.08,126175150.08,command=hdparm -tT /dev/sda;device=/dev/sda;direct=0;host=old" "stdin with --label"
cp "$good" "$TMP/old.sda.txt"
run "$STORAN" ingest --format csv --name-pattern '{host}.{_}.txt' "$TMP/old.sda.txt"
expect_in "$out" "direct=0;host=old" "--name-pattern label"
printf 'nvme.txt: Timing buffered disk reads: 4564 MB in  3.00 seconds = 1521.18 MB/sec\nsata.txt: Timing buffered disk reads: 362 MB in  3.01 seconds = 120.33 MB/sec\n' > "$TMP/grep.out"
run "$STORAN" ingest --format csv --name-pattern '{disk}.txt' "$TMP/grep.out"
expect_rc 0 "grep prefixes"
expect_in "$out" "nvme.txt,1,hdparm,read,bw,B/s,1,1595072839.68" "grep prefix source nvme"
expect_in "$out" "sata.txt,2,hdparm,read,bw,B/s,1,126175150.08" "grep prefix source sata"
expect_in "$out" "direct=0;disk=sata" "name pattern on grep prefix"

# CRLF and e-mail quoting give the same figures.
sed 's/$/\r/; s/^/> > /' "$good" > "$TMP/crlf-quoted.txt"
run "$STORAN" ingest --format csv "$TMP/crlf-quoted.txt"
expect_in "$out" "crlf-quoted.txt,5,hdparm,read,bw,B/s,1,126175150.08" "CRLF + quotes"
# A big file redirected to stdin is read from where the shell left it
# (big files are mapped, stdin never: its offset is the caller's).
{ echo "1048576 bytes (1.0 MB, 1.0 MiB) copied, 0.5 s, 2.1 MB/s"
  head -c 1200000 /dev/zero | tr '\0' 'x'; echo; } > "$TMP/big.txt"
{ read -r _; "$STORAN" ingest --format csv - >"$TMP/out" 2>"$TMP/err"; \
  echo $? >"$TMP/rc"; } < "$TMP/big.txt"
rc=$(cat "$TMP/rc"); err=$(cat "$TMP/err")
expect_rc 1 "big stdin past its first line"
expect_in "$err" "no benchmark output found" "big stdin past its first line"
run "$STORAN" ingest --format csv - < "$TMP/big.txt"
expect_rc 0 "big stdin from its start"
expect_in "$out" ",dd,copy,bw," "big stdin from its start"
finish
