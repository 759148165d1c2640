#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The history store in an SQLite file: the nightly CI scenario, duplicates
# refused, a run killed mid-add leaving the store as it was, eight writers
# at once, export back to the same result set, and every error path.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/store-lib"
command -v sqlite3 >/dev/null || { echo "sqlite3 missing"; exit 77; }
DB=$TMP/results.db

# --- the nightly job: 30 nights, the disk 25% slower from night 20
nightly "$DB" 30 20
run "$STORAN" detect "$DB" --format csv
expect_rc 1 "detect csv"
[ "$(printf '%s\n' "$out" | head -1)" = "tool,op,metric,labels,run,time,unit,mean_before,mean_after,ratio,change_pct,p_value,verdict,p_test" ] ||
	fail "detect csv header: $(printf '%s\n' "$out" | head -1)"
# both dd tests slowed down: one regression each, at night 20
[ "$(printf '%s\n' "$out" | grep -c ',n20,2026-01-20T02:00:00Z,B/s,.*,regression,[a-z]*$')" -eq 2 ] ||
	fail "two regressions at n20: $out"
ratio=$(printf '%s\n' "$out" | awk -F, '$2 == "write" { print $10 }')
awk -v r="$ratio" 'BEGIN { exit !(r > 0.78 && r < 0.82) }' ||
	fail "write bw ratio $ratio, want 1/1.25 = 0.8"
# the regression acknowledged: nothing after it, the gate opens
run "$STORAN" detect "$DB" --since n20
expect_rc 0 "detect --since the regression"
run "$STORAN" detect "$DB" --since n19
expect_rc 1 "detect --since the run before"
run "$STORAN" detect "$DB" --metric runtime
expect_rc 1 "runtime: lower is better, it grew"
expect_in "$out" "regression" "runtime regression"

# history: one series per dd test and metric, a row per night
run "$STORAN" history "$DB" --metric bw --format csv
expect_rc 0 "history"
[ "$(printf '%s\n' "$out" | grep -c '^dd,write,bw,')" -eq 30 ] ||
	fail "30 nights of write bw: $out"
expect_in "$out" "dd,read,bw,B/s,bs=1048576;direct=1;if=/mnt/test/file;iflag=direct;of=/dev/null,n1,2026-01-01T02:00:00Z,3," \
	"a series' labels leave out command and the run's commit"
run "$STORAN" history "$DB" --where op=read --metric bw
expect_rc 0 "history --where"
expect_in "$out" "MB/s" "human units in text"
case "$out" in *write*) fail "--where op=read shows writes" ;; esac

# --- the report page: the table of change points first, a chart per series
run "$STORAN" report "$DB" -o "$TMP/rep"
expect_rc 0 "report DB"
[ -f "$TMP/rep/index.html" ] && [ -f "$TMP/rep/report.xlsx" ] || fail "report files"
[ "$(ls "$TMP/rep/charts" | grep -c 'trend-dd-.*-bw\.png$')" -eq 2 ] ||
	fail "a trend chart per bw series: $(ls "$TMP/rep/charts")"
md=$(cat "$TMP/rep/report.md")
first=$(printf '%s\n' "$md" | grep -n -m1 '^| dd ' | cut -d: -f1)
chart1=$(printf '%s\n' "$md" | grep -n -m1 '^## 1\. ' | cut -d: -f1)
[ -n "$first" ] && [ "$first" -lt "$chart1" ] || fail "change table before the charts"
expect_in "$md" "**Change points: 2, 2 regression(s)**" "change table title"
mkdir "$TMP/mine" && echo keep >"$TMP/mine/notes.txt"
run "$STORAN" report "$DB" -o "$TMP/mine"
expect_rc 2 "report DB over a directory storan did not write"
[ "$(cat "$TMP/mine/notes.txt")" = keep ] || fail "a user's directory was touched"
run "$STORAN" report "$DB" -o "$TMP/rep"
expect_rc 0 "report DB replaces its own report"

# --- ls, export back, rm
run "$STORAN" store ls "$DB" --format csv
expect_rc 0 "store ls"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 31 ] || fail "30 runs listed: $out"
expect_in "$out" "n7,2026-01-07T02:00:00Z,6,commit=c0007," "ls row"
cp "$TMP/run-7.json" "$TMP/n7.json"
"$STORAN" export "$TMP/n7.json" --format json >"$TMP/want.json"
run "$STORAN" export "$DB" --run n7 --format json
expect_rc 0 "export --run"
printf '%s\n' "$out" >"$TMP/got.json"
# the run's result set, its sources labelled with the run's identity
python3 - "$TMP/got.json" "$TMP/want.json" <<'EOF' || fail "export --run n7 is not the run's result set with its identity: $out"
import json, sys
got, want = (json.load(open(f)) for f in sys.argv[1:3])
ids = [s.pop("labels") for s in got["sources"]]
assert got == want, "the result set differs"
assert ids and all(l == {"run": "n7", "run.commit": "c0007",
                         "run.time": "2026-01-07T02:00:00Z"} for l in ids), ids
EOF
# ... and a store add of it restores the run, name, time and labels
run "$STORAN" store add "$TMP/copy.db" "$TMP/got.json"
expect_rc 0 "store add of an exported run"
expect_in "$out" "added run n7: 6 measurements, 2026-01-07T02:00:00Z" "the exported run's name and time"
run "$STORAN" store ls "$TMP/copy.db" --format csv
expect_in "$out" "n7,2026-01-07T02:00:00Z,6,commit=c0007," "the exported run's labels"
run "$STORAN" export "$TMP/copy.db" --run n7 --format json
[ "$out" = "$(cat "$TMP/got.json")" ] || fail "export, add, export: not the same"
run "$STORAN" store add "$DB" "$TMP/got.json"
expect_rc 1 "an exported run added back to its store"
run "$STORAN" export "$DB" --run n7
expect_in "$out" "source,line,tool,op,metric,unit,n,mean,stddev,min,max,labels" "export csv"

# --- the same run again is refused, by its inputs' hashes, unless it is
# given a --run of its own (a short output can repeat exactly)
run "$STORAN" store add "$DB" "$TMP/n7.json"
expect_rc 1 "duplicate add"
expect_in "$err" "$DB: run 'n7' has the same inputs" "duplicate message"
run "$STORAN" store add "$DB" "$TMP/n7.json" --run n7 --label commit=x
expect_rc 1 "duplicate add, the same --run"
expect_in "$err" "$DB: run 'n7' has the same inputs" "duplicate message, --run"
run "$STORAN" store add "$DB" "$TMP/n7.json" --run again \
	--time 2026-02-01T02:00:00Z --label commit=c0099
expect_rc 0 "the same inputs under a --run of their own"
[ "$(sqlite3 "$DB" "select count(*) from runs where inputs_sha256 = (select inputs_sha256 from runs where name = 'n7')")" -eq 2 ] ||
	fail "the repeat is not stored beside n7"
run "$STORAN" store add "$DB" "$TMP/n7.json" --run again
expect_rc 1 "the repeat added twice"
run "$STORAN" store rm "$DB" --run again
expect_rc 0 "rm the repeat"
night 31 1 "$TMP/n31.txt"
run "$STORAN" store add "$DB" "$TMP/n31.txt" --run n7
expect_rc 2 "a taken name"
expect_in "$err" "a run named 'n7' is stored already" "name message"
[ "$(sqlite3 "$DB" 'select count(*) from runs')" -eq 30 ] || fail "runs after refusals"

run "$STORAN" store rm "$DB" --run n7
expect_rc 0 "store rm"
[ "$(sqlite3 "$DB" "select count(*) from measurements m join runs r on r.id = m.run_id where r.name = 'n7'")" -eq 0 ] ||
	fail "rm left measurements"
run "$STORAN" store add "$DB" "$TMP/n7.json" --run n7 --time 2026-01-07T03:00:00+01:00
expect_rc 0 "add again after rm"
expect_in "$out" "2026-01-07T02:00:00Z" "time zone converted to UTC"

# --- a run killed in the middle of its transaction leaves nothing
python3 - "$TMP/big.json" <<'EOF'
import json, sys
ms = [{"tool": "fio", "op": "read", "metric": "bw", "unit": "B/s",
       "values": [1e9 + i], "labels": {"job": "j%d" % i}, "source": 0,
       "source_name": "big.txt", "line": i + 1} for i in range(1000)]
json.dump({"schema": "storan/1", "generator": "test", "measurements": ms,
           "sources": [{"path": "big.txt", "name": "big.txt", "format": "fio",
                        "tool_version": None, "sha256": "ab" * 32}]},
          open(sys.argv[1], "w"))
EOF
before=$(sqlite3 "$DB" 'select count(*) from runs; select count(*) from measurements; select count(*) from measurement_keys')
{ (STORAN_TEST_KILL_AFTER=500 exec "$STORAN" store add "$DB" "$TMP/big.json" \
	--run big >/dev/null 2>&1); } 2>/dev/null
[ $? -eq 137 ] || fail "the add was not killed"
after=$(sqlite3 "$DB" 'select count(*) from runs; select count(*) from measurements; select count(*) from measurement_keys')
[ "$before" = "$after" ] || fail "killed add changed the store: $before -> $after"
[ "$(sqlite3 "$DB" 'pragma integrity_check')" = ok ] || fail "integrity after kill"
run "$STORAN" store add "$DB" "$TMP/big.json" --run big
expect_rc 0 "the same add, not killed"
[ "$(sqlite3 "$DB" "select measurements from runs where name = 'big'")" -eq 1000 ] || fail "big run"

# --- eight writers at once lose nothing
for i in 1 2 3 4 5 6 7 8; do
	night $((100 + i)) 1 "$TMP/w$i.txt"
	"$STORAN" store add "$TMP/conc.db" "$TMP/w$i.txt" --run "w$i" >"$TMP/w$i.out" 2>&1 &
done
wait
[ "$(sqlite3 "$TMP/conc.db" 'select count(*) from runs')" -eq 8 ] ||
	fail "8 concurrent adds: $(cat "$TMP"/w*.out)"
[ "$(sqlite3 "$TMP/conc.db" 'select count(*) from measurements')" -eq 48 ] ||
	fail "8 x 6 measurements"
# ... also when they create the file together: the switch of a new file
# to WAL was refused at once ("not a store: database is locked", about
# one round in ten of twelve writers); twenty rounds
for i in $(seq 9 12); do night $((100 + i)) 1 "$TMP/w$i.txt"; done
for round in $(seq 20); do
	rm -f "$TMP"/race.db*
	for i in $(seq 12); do
		"$STORAN" store add "$TMP/race.db" "$TMP/w$i.txt" --run "w$i" \
			>"$TMP/race$i.out" 2>&1 &
	done
	wait
	runs=$(sqlite3 "$TMP/race.db" 'select count(*) from runs')
	[ "$runs" -eq 12 ] ||
		fail "round $round, 12 writers creating a store: $runs runs: $(grep -hv 'added run' "$TMP"/race*.out)"
done
[ "$(sqlite3 "$TMP/conc.db" 'pragma journal_mode')" = wal ] || fail "WAL mode"

# --- errors: DB: what is wrong, exit 2
run "$STORAN" store ls "$TMP/none.db"
expect_rc 2 "ls of a missing store"
expect_in "$err" "$TMP/none.db: no such store" "missing store message"
[ -e "$TMP/none.db" ] && fail "ls created the store"
echo "not a database, just text" >"$TMP/text.db"
run "$STORAN" history "$TMP/text.db"
expect_rc 2 "history of a text file"
expect_in "$err" "$TMP/text.db: not a store: file is not a database" "text file message"
sqlite3 "$TMP/other.db" 'create table t (x)'
run "$STORAN" store add "$TMP/other.db" "$TMP/n31.txt"
expect_rc 2 "another program's database"
expect_in "$err" "not a storan store (it holds other tables)" "other db message"
sqlite3 "$TMP/future.db" 'create table storan_schema (version integer); insert into storan_schema values (99)'
run "$STORAN" detect "$TMP/future.db"
expect_rc 2 "a newer schema"
expect_in "$err" "store schema version 99 is newer than this storan knows (2)" "version message"
run "$STORAN" store rm "$DB" --run nope
expect_rc 2 "rm of no run"
expect_in "$err" "$DB: no run named 'nope'" "rm message"
run "$STORAN" export "$DB" --run nope
expect_rc 2 "export of no run"
run "$STORAN" detect "$DB" --since nope
expect_rc 2 "detect --since no run"
run "$STORAN" store add "$DB" "$TMP/n31.txt" --time yesterday
expect_rc 2 "bad --time"
expect_in "$err" "--time wants an ISO 8601 time" "time message"
run "$STORAN" store add "$DB" "$TMP/n31.txt" --time 2026-02-30
expect_rc 2 "no such day"
run "$STORAN" store add "$DB" "$TMP/missing.json"
expect_rc 2 "missing input"
expect_in "$err" "run not added" "missing input message"
printf 'nothing a parser reads\n' >"$TMP/empty.txt"
run "$STORAN" store add "$DB" "$TMP/empty.txt"
expect_rc 1 "no measurement"
run "$STORAN" detect "$DB" --alpha 2
expect_rc 2 "bad alpha"
run "$STORAN" detect "$DB" --min-change lots
expect_rc 2 "bad min-change"
run "$STORAN" store frob "$DB"
expect_rc 2 "unknown store command"
for c in "store" "store add" "history" "detect"; do
	run $STORAN $c --help
	expect_rc 0 "$c --help"
	expect_in "$out" "usage: storan" "$c --help text"
done
finish
