#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# libcrypto, GSL and SQLite are opened when a digest, a statistic or an
# SQLite store is first needed (core/dynlib.h), not at every start: with
# all three broken (an empty file in their place), what needs none of
# them still works, and what needs one says which library it could not
# load, exits non-zero and writes no output.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
IN=$ROOT/sample-data/vm-fio-json/randread-1m-qd1-run1.json
mkdir "$TMP/lib"
for so in libcrypto.so.3 libgsl.so.27 libsqlite3.so.0; do
	: > "$TMP/lib/$so"
done
broken() {
	LD_LIBRARY_PATH="$TMP/lib" "$@"
}

# made with every library there
run "$STORAN" ingest "$IN" -o "$TMP/a.json"
expect_rc 0 "ingest with the libraries"
run "$STORAN" ingest "$ROOT/sample-data/two-machines/do-5bucks.txt" \
	-o "$TMP/m1.json"
expect_rc 0 "ingest do-5bucks"
run "$STORAN" ingest "$ROOT/sample-data/two-machines/vultr-25gbssd.txt" \
	-o "$TMP/m2.json"
expect_rc 0 "ingest vultr"

# none of the three needed
run broken "$STORAN" --version
expect_rc 0 "--version without them"
run broken "$STORAN" export "$TMP/a.json" --format csv
expect_rc 0 "export without them"
expect_in "$out" "fio,randread" "export's rows"

# a digest: ingest hashes its inputs
run broken "$STORAN" ingest "$IN" -o "$TMP/b.json"
expect_rc 2 "ingest without libcrypto"
expect_in "$err" "cannot load libcrypto.so.3" "ingest's message"
[ ! -e "$TMP/b.json" ] || fail "ingest without libcrypto wrote b.json"

# statistics: compare's tests and intervals
run broken "$STORAN" compare "$TMP/m1.json" "$TMP/m2.json"
expect_rc 2 "compare without GSL"
expect_in "$err" "cannot load libgsl.so.27" "compare's message"

# an SQLite store
run broken "$STORAN" store add "$TMP/h.db" "$TMP/a.json"
[ "$rc" -ne 0 ] || fail "store add without SQLite: exit 0"
expect_in "$err" "cannot load libsqlite3.so.0" "store's message"
[ ! -e "$TMP/h.db" ] || fail "store add without SQLite made h.db"

# and all three when they are there
run "$STORAN" compare "$TMP/m1.json" "$TMP/m2.json"
[ "$rc" -le 1 ] || fail "compare with GSL: exit $rc ($err)"	# 1: slower
expect_in "$out" "verdict" "compare's table"
run "$STORAN" store add "$TMP/h.db" "$TMP/a.json"
expect_rc 0 "store add with SQLite"
finish
