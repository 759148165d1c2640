#!/usr/bin/env bash
# report: a chart's table shows every bar the chart draws.  The result set
# of fixture 0017 (a linode randrw, its command echoed; written when its
# group status line was a job=all measurement too) and the JSON+ of
# fixture 0012 (a ceph randread at 30.0 MB/s, no command) give a chart by
# command where the JSON's bar is "(none)"; its table left that
# measurement out ("1 measurement(s) without 'command' left out"), so the
# 30.0 MB/s bar had no row.  Now the row is there, named as on the chart,
# after the named ones; storan table itself still leaves such rows out.
. "$(dirname "$0")/lib.sh"
TXT="$(dirname "$0")/data/fio-0017-linode-with-group-line-storan-earlier.json"
JSON="$FIXTURES/fio/0012-3_1-jsonplus-randread-ceph-bins.json"

run "$STORAN" report "$TXT" "$JSON" -o "$TMP/rep"
[ "$rc" -le 1 ] || fail "report: exit $rc ($err)"
t=$(sed -n '/^## 1\. Throughput by command/,/^## 2\./p' "$TMP/rep/report.md")
expect_in "$t" "| command | randread (MB/s) | randwrite (MB/s) |" "the table"
expect_in "$t" "| (none) | 30.0 | - |" "the JSON's bar has its row"
case "$t" in *"without 'command' left out"*) fail "a drawn bar left out" ;; esac
# the named row comes first, as on the chart
first=$(printf '%s\n' "$t" | grep '^| ' | sed -n 2p)
case "$first" in "| ./fio --filename=test4K-rw-aio"*) ;; *) fail "row order: $first" ;; esac

run "$STORAN" table "$TXT" "$JSON" --rows command --cols op --metric bw --no-check
expect_in "$out" "1 measurement(s) without 'command' left out" "storan table unchanged"
finish
