#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A fio log's lines say only the direction (read, write); the fio output
# of the same run beside the logs says the pattern.  Logs of a
# rw=randread run are op randread, as that output's own figures are, so
# the two compare and chart as one test; rw=randrw gives randread and
# randwrite.  A directory whose outputs name different patterns (two
# runs) says nothing: read and write stay.  Real fio 3.33 files from
# tests/parsers/fio-log (see its SOURCES.md).
. "$(dirname "$0")/lib.sh"
F="$(cd "$(dirname "$0")/.." && pwd)/parsers/fio-log"
cd "$TMP" || exit 2

mkdir rr rw both
cp "$F/fio-3.33-ss-iops.json" rr/ss.json
cp "$F/0022-ss_iops.1.log" rr/ss_iops.1.log
cp "$F/fio-3.33-rw.json" rw/rw.json
cp "$F/0001-rw_bw.1.log" rw/rw_bw.1.log
cp "$F/fio-3.33-ss-iops.json" "$F/fio-3.33-rw.json" both/
cp "$F/0001-rw_bw.1.log" both/rw_bw.1.log

run "$STORAN" ingest --format csv rr/ss_iops.1.log
expect_rc 0 "randread log"
expect_in "$out" "ss_iops.1.log,1,fio,randread,iops," "op from rw=randread"

run "$STORAN" ingest --format csv rw/rw_bw.1.log
expect_in "$out" ",fio,randread,bw," "randrw: reads are randread"
expect_in "$out" ",fio,randwrite,bw," "randrw: writes are randwrite"

run "$STORAN" ingest --format csv both/rw_bw.1.log
expect_in "$out" ",fio,read,bw," "two runs beside: read stays"
expect_in "$out" ",fio,write,bw," "two runs beside: write stays"

# --fio-version given: the rw beside is still read
run "$STORAN" ingest --format csv --fio-version 3.33 rr/ss_iops.1.log
expect_in "$out" ",fio,randread,iops," "with --fio-version"
finish
