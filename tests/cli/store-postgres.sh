#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The history store in PostgreSQL: a real server this test starts itself
# (initdb into a temporary directory, pg_ctl start listening only on a
# private unix socket, stopped at the end), the nightly CI scenario, the
# same answers as SQLite, eight writers at once (on a fresh database, so
# that they race for the migration too), a client killed mid-add.
# Exit 77 only when PostgreSQL cannot be installed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/store-lib"

pg_bin() {
	ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1
}
BIN=$(pg_bin)
if [ ! -x "$BIN/initdb" ]; then
	"$(dirname "$0")/../../scripts/install-deps" >/dev/null 2>&1
	BIN=$(pg_bin)
fi
[ -x "$BIN/initdb" ] || { echo "PostgreSQL cannot be installed here"; exit 77; }

# The server refuses to run as root: as root, it runs as postgres.
PGT=$(mktemp -d /tmp/storan-pg.XXXXXX)
as_pg() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
	id postgres >/dev/null 2>&1 || { echo "no postgres user"; exit 77; }
	chown postgres "$PGT"
	as_pg() { runuser -u postgres -- "$@"; }
	PGUSER=postgres
else
	PGUSER=$(id -un)
fi
stop_server() {
	as_pg "$BIN/pg_ctl" -D "$PGT/data" -m immediate stop >/dev/null 2>&1
	rm -rf "$PGT" "$TMP"
}
trap stop_server EXIT
as_pg "$BIN/initdb" -D "$PGT/data" -A trust -U "$PGUSER" >"$PGT/initdb.log" 2>&1 ||
	{ cat "$PGT/initdb.log"; exit 1; }
as_pg "$BIN/pg_ctl" -D "$PGT/data" -l "$PGT/server.log" -w \
	-o "-c listen_addresses='' -c unix_socket_directories='$PGT' -c fsync=off" \
	start >/dev/null || { cat "$PGT/server.log"; exit 1; }
for d in results conc; do
	as_pg "$BIN/createdb" -h "$PGT" -U "$PGUSER" "$d" || exit 1
done
url() { echo "postgresql://$PGUSER@/$1?host=$PGT"; }
psql_q() { as_pg "$BIN/psql" -h "$PGT" -U "$PGUSER" -d "$1" -Atc "$2"; }
DB=$(url results)

# --- the nightly job, as against SQLite
nightly "$DB" 30 20
run "$STORAN" detect "$DB" --format csv
expect_rc 1 "detect csv"
pg_detect=$out
# the same runs in SQLite give the same answer, figure for figure
for i in $(seq 1 30); do
	"$STORAN" store add "$TMP/same.db" "$TMP/run-$i.json" --run "n$i" \
		--label commit="$(printf 'c%04d' "$i")" \
		--time "$(printf '2026-01-%02dT02:00:00Z' "$i")" >/dev/null
done
run "$STORAN" detect "$TMP/same.db" --format csv
[ "$out" = "$pg_detect" ] || fail "PostgreSQL and SQLite disagree: $pg_detect / $out"
run "$STORAN" history "$DB" --format csv
pg_history=$out
run "$STORAN" history "$TMP/same.db" --format csv
[ "$out" = "$pg_history" ] || fail "history differs between the backends"
run "$STORAN" export "$DB" --run n7 --format json
pg_export=$out
run "$STORAN" export "$TMP/same.db" --run n7 --format json
[ "$out" = "$pg_export" ] || fail "export --run n7 differs between the backends"
expect_in "$pg_export" '"labels": {"run": "n7", "run.commit": "c0007", "run.time": "2026-01-07T02:00:00Z"}' "the run's identity in its export"
run "$STORAN" report "$DB" -o "$TMP/rep"
expect_rc 0 "report of a PostgreSQL store"
expect_in "$(cat "$TMP/rep/report.md")" "**Change points: 2, 2 regression(s)**" "its change table"
run "$STORAN" store add "$DB" "$TMP/run-7.json"
expect_rc 1 "duplicate add"
expect_in "$err" "run 'n7' has the same inputs" "duplicate message"
run "$STORAN" store add "$DB" "$TMP/run-7.json" --run again
expect_rc 0 "the same inputs under a --run of their own"
run "$STORAN" store rm "$DB" --run again
expect_rc 0 "rm the repeat"
run "$STORAN" store rm "$DB" --run n7
expect_rc 0 "rm"
[ "$(psql_q results "select count(*) from runs")" -eq 29 ] || fail "29 runs after rm"
[ "$(psql_q results "select version from storan_schema")" -eq 2 ] || fail "schema version"

# --- a client killed mid-add: the server rolls its transaction back
before=$(psql_q results "select count(*) from measurements")
{ (STORAN_TEST_KILL_AFTER=3 exec "$STORAN" store add "$DB" "$TMP/run-7.json" \
	--run n7 >/dev/null 2>&1); } 2>/dev/null
[ $? -eq 137 ] || fail "the add was not killed"
sleep 0.2
[ "$(psql_q results "select count(*) from measurements")" -eq "$before" ] ||
	fail "killed add left measurements"
[ "$(psql_q results "select count(*) from runs where name = 'n7'")" -eq 0 ] ||
	fail "killed add left its run"

# --- eight CI runners adding at once, into a database never used
CONC=$(url conc)
for i in 1 2 3 4 5 6 7 8; do
	night $((200 + i)) 1 "$TMP/w$i.txt"
	"$STORAN" store add "$CONC" "$TMP/w$i.txt" --run "w$i" --label host="ci$i" \
		>"$TMP/w$i.out" 2>&1 &
done
wait
[ "$(psql_q conc "select count(*) from runs")" -eq 8 ] ||
	fail "8 concurrent adds: $(cat "$TMP"/w*.out)"
[ "$(psql_q conc "select count(*) from measurements")" -eq 48 ] ||
	fail "8 x 6 measurements"
[ "$(psql_q conc "select count(*) from measurement_keys")" -eq 6 ] ||
	fail "the runners share 6 measurement keys"
run "$STORAN" history "$CONC" --metric bw --format csv
[ "$(printf '%s\n' "$out" | grep -c '^dd,')" -eq 16 ] ||
	fail "host given by --label is the run's, not a series': $out"

# --- errors
run "$STORAN" store ls "postgresql://$PGUSER@/nosuchdb?host=$PGT"
expect_rc 2 "no such database"
expect_in "$err" "cannot connect" "connect message"
as_pg "$BIN/createdb" -h "$PGT" -U "$PGUSER" other
psql_q other "create table t (x int)" >/dev/null
run "$STORAN" store add "$(url other)" "$TMP/w1.txt"
expect_rc 2 "another program's database"
expect_in "$err" "not a storan store" "other db message"
finish
