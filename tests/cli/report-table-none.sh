#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# report: a chart's table shows every bar the chart draws.  The result set
# of fixture 0017 (a linode randrw, its command echoed; written when its
# group status line was a job=all measurement too) and the JSON+ of
# fixture 0012 (a ceph randread at 30.0 MB/s, no command) once gave a
# chart by command whose table left the JSON's bar out.  The table is
# now the chart's points: a chart by job (the key with the most values;
# the command is no condition), every bar a row, in the chart's order;
# storan table itself still leaves rows without their key out.
. "$(dirname "$0")/lib.sh"
TXT="$(dirname "$0")/data/fio-0017-linode-with-group-line-storan-earlier.json"
JSON="$FIXTURES/fio/0012-3_1-jsonplus-randread-ceph-bins.json"

run "$STORAN" report "$TXT" "$JSON" -o "$TMP/rep"
[ "$rc" -le 1 ] || fail "report: exit $rc ($err)"
t=$(sed -n '/^## 1\. Throughput by job/,/^## 2\./p' "$TMP/rep/report.md")
expect_in "$t" "| Job | randread (MB/s) | randwrite (MB/s) |" "the table"
expect_in "$t" "| fio-job | 30.0 | - |" "the JSON's bar has its row"
case "$t" in *"left out"*) fail "a drawn bar left out" ;; esac
# rows in the chart's order: jobs as they came
rows=$(printf '%s\n' "$t" | grep '^| [a-z]' | cut -d' ' -f2 | tr '\n' ' ')
[ "$rows" = "myjob all fio-job " ] || fail "row order: $rows"
json=$(cat "$TMP/rep/charts/01-fio-bw.json")
expect_in "$json" '"categories": [' "the chart's data"

run "$STORAN" table "$TXT" "$JSON" --rows command --cols op --metric bw --no-check
expect_in "$out" "1 measurement(s) without 'command' left out" "storan table unchanged"
finish
