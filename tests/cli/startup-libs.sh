#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan links only what every command needs: cairo, fontconfig,
# libxlsxwriter and libpq (with the twenty libraries libpq brings) are
# opened when a chart, a workbook or a PostgreSQL store needs them, and
# libcrypto, GSL and SQLite when a digest, a statistic or an SQLite store
# does (core/dynlib.h).  Linked, libpq alone took half of every start,
# and the other three 7 of the 10.5 ms of `storan --version`.
set -u
S=${STORAN:?}
command -v readelf >/dev/null || exit 77
needed=$(readelf -d "$S" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[ -n "$needed" ] || { echo "no NEEDED entries read from $S" >&2; exit 1; }
fail=0
for lib in libpq libcairo libfontconfig libxlsxwriter libcrypto libgsl \
	libsqlite3; do
	if printf '%s\n' "$needed" | grep -q "^$lib\."; then
		echo "storan links $lib; it should open it when needed" >&2
		fail=1
	fi
done
exit $fail
