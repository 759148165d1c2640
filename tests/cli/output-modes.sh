#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Output files honour the umask when new and keep the mode (and owner) of
# the file they replace (issue 15): umask 077 and chmod 600 stay private.
. "$(dirname "$0")/lib.sh"
HD="$FIXTURES/hdparm/0011-tT-sda-hdd.txt"
DATA=$(cd "$(dirname "$0")/data" && pwd)
cd "$TMP"
mode() { stat -c %a "$1"; }

(
	umask 077
	"$STORAN" ingest "$HD" -o new.json
	touch p.json && chmod 600 p.json
	"$STORAN" ingest "$HD" -o p.json
	"$STORAN" export "$DATA/host-alpha.json" --format csv -o p.csv
	"$STORAN" report "$HD" -o rep 2>/dev/null
)
[ "$(mode new.json)" = 600 ] || fail "new file under umask 077: $(mode new.json)"
[ "$(mode p.json)" = 600 ] || fail "replaced 600 file: $(mode p.json)"
[ "$(mode p.csv)" = 600 ] || fail "export under umask 077: $(mode p.csv)"
[ "$(mode rep)" = 700 ] || fail "report directory under umask 077: $(mode rep)"
[ "$(mode rep/index.html)" = 600 ] || fail "report page under umask 077: $(mode rep/index.html)"

(
	umask 022
	"$STORAN" ingest "$HD" -o open.json
	echo old > shared.json && chmod 664 shared.json
	"$STORAN" ingest "$HD" -o shared.json
	"$STORAN" table "$DATA/host-alpha.json" --rows op --metric bw -o shared.json
)
[ "$(mode open.json)" = 644 ] || fail "new file under umask 022: $(mode open.json)"
[ "$(mode shared.json)" = 664 ] || fail "replaced 664 file: $(mode shared.json)"

if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
	echo old > theirs.json && chown nobody theirs.json
	"$STORAN" ingest "$HD" -o theirs.json
	[ "$(stat -c %U theirs.json)" = nobody ] || fail "root took over a user's file"
fi
# A report the user made private stays private when made again under
# another umask (it came back 755 and 644).
(umask 022
	"$STORAN" report "$HD" -o priv 2>/dev/null
	chmod 700 priv && chmod 600 priv/index.html priv/report.md
	"$STORAN" report "$HD" -o priv 2>/dev/null)
[ "$(mode priv)" = 700 ] || fail "a private report directory made again: $(mode priv)"
[ "$(mode priv/index.html)" = 600 ] || fail "its page made again: $(mode priv/index.html)"
[ "$(mode priv/report.md)" = 600 ] || fail "its Markdown made again: $(mode priv/report.md)"
[ "$(mode priv/report.xlsx)" = 644 ] || fail "a file the user left alone: $(mode priv/report.xlsx)"
finish
