#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A signal never leaves a partial output nor its temporary file (issue
# 15): SIGINT, SIGTERM and SIGHUP while storan ingest has its -o file
# open (the input still coming down a FIFO), and while storan report
# renders; the old output stays as it was, the status says the signal.
. "$(dirname "$0")/lib.sh"
HD="$FIXTURES/hdparm/0011-tT-sda-hdd.txt"
cd "$TMP"
# Background jobs of a script start with SIGINT ignored; storan must see
# the default action, as a command typed at a terminal does.
DFL="env --default-signal=INT,TERM,HUP"

# wait_for GLOB: until a file matching GLOB exists (at most 20 s).
wait_for() {
	local i
	for i in $(seq 1 2000); do
		compgen -G "$1" >/dev/null && return 0
		sleep 0.01
	done
	return 1
}

for sig in INT TERM HUP; do
	echo "old result" > out.json
	mkfifo in.fifo
	$DFL "$STORAN" ingest - -o out.json < in.fifo &
	pid=$!
	exec 3> in.fifo		# storan now reads from us
	cat "$HD" >&3
	wait_for "out.json.tmp-*" || fail "$sig: no temporary file appeared"
	kill -s "$sig" "$pid"
	wait "$pid"
	rc=$?
	exec 3>&-
	rm in.fifo
	[ "$rc" -ne 0 ] || fail "$sig: exit 0"
	[ "$(cat out.json)" = "old result" ] || fail "$sig: the old file changed"
	compgen -G "out.json.tmp-*" >/dev/null && fail "$sig: left $(ls)"
done

# Ignored stays ignored (nohup): the output is then written whole.
mkfifo in.fifo
( trap '' HUP; exec "$STORAN" ingest - --format csv -o hup.csv < in.fifo ) &
pid=$!
exec 3> in.fifo
wait_for "hup.csv.tmp-*" || fail "nohup: no temporary file"
kill -s HUP "$pid"
cat "$HD" >&3
exec 3>&-
wait "$pid" || fail "nohup: storan did not finish"
grep -q "hdparm,cachedread" hup.csv || fail "nohup: output not written"
rm in.fifo

# A report being rendered: a large result set keeps it busy.
{
	printf '{"schema":"storan/1","generator":"test","sources":[{"path":"big"}],"measurements":['
	for i in $(seq 1 20000); do
		[ "$i" -gt 1 ] && printf ','
		printf '{"tool":"fio","op":"read","metric":"bw","unit":"B/s","values":[%d,%d,%d],"labels":{"bs":"%d","host":"h%d"}}' \
			"$i" "$((i + 1))" "$((i + 2))" "$((4096 * (i % 12 + 1)))" "$((i % 40))"
	done
	printf ']}\n'
} > big.json
$DFL "$STORAN" report big.json -o rep 2>/dev/null &
pid=$!
# The signal lands while the report's files are written (its temporary
# directory is made then), or just after they took its name: then the
# report is there whole, its manifest holding for every file.  Never a
# part of one, never the temporary directory.
if wait_for "rep.tmp-*"; then
	kill -s INT "$pid"
	wait "$pid"
	rc=$?
	compgen -G "rep.tmp-*" >/dev/null && fail "report: left $(ls)"
	if [ -e rep ]; then
		(cd rep && sha256sum --quiet -c storan-manifest.sha256) \
			>/dev/null 2>&1 || fail "report: a partial report directory"
	else
		[ "$rc" -ne 0 ] || fail "report: exit 0 and no report"
	fi
else
	wait "$pid"
	echo "note: the report was done before it could be interrupted"
fi
finish
