#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Many labels are linear, and too many are refused (issue 15): a result
# set, a CSV row or a fio job with a million labels is refused at once,
# naming its line, in seconds (it took minutes, or never ended); 500
# labels in reverse order are read and sorted.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
python3 - <<'PY'
import json
def m(labels):
    return {"tool": "fio", "op": "read", "metric": "bw", "unit": "B/s",
            "values": [1.0], "labels": labels}
many = {"k%07d" % i: "v" for i in range(1000000, 0, -1)}
with open("million.json", "w") as f:
    f.write('{"schema": "storan/1", "sources": [],\n"measurements": [\n')
    f.write(json.dumps(m({"a": "1"})) + ",\n" + json.dumps(m(many)) + "]}\n")
ok = {"k%03d" % i: str(i) for i in range(500, 0, -1)}
json.dump({"schema": "storan/1", "sources": [], "measurements": [m(ok)]},
          open("five-hundred.json", "w"))
with open("million.csv", "w") as f:
    f.write("source,line,tool,op,metric,unit,n,mean,stddev,min,max,labels\n")
    f.write("x,1,fio,read,bw,B/s,1,5,,,,a=1\n")
    f.write("x,2,fio,read,bw,B/s,1,5,,,," +
            ";".join("k%d=v" % i for i in range(1000000, 0, -1)) + "\n")
job = {"jobname": "j", "groupid": 0, "error": 0, "job options":
       {"opt%d" % i: "1" for i in range(1000000)},
       "read": {"io_bytes": 4096, "bw_bytes": 4096, "iops": 1.0,
                "runtime": 1000}}
json.dump({"fio version": "fio-3.33", "jobs": [job]},
          open("fio-million.json", "w"))
PY

run timeout 60 "$STORAN" export million.json --format csv
expect_rc 1 "a million labels in a result set"
expect_in "$err" "million.json:4: measurements[1]: more than 512 labels in 'labels'" "result set"
run timeout 60 "$STORAN" ingest --format csv million.csv
expect_rc 1 "a million labels in a CSV row"
expect_in "$err" "million.csv:3: csv row 2, column 'labels': more than 512 labels" "csv"
expect_in "$out" "x,1,fio,read,bw,B/s,1,5,,5,5,a=1" "the good row of the CSV"
run timeout 60 "$STORAN" ingest --format csv fio-million.json
expect_rc 1 "a million fio job options"
expect_in "$err" "more than 512 options" "fio"
run timeout 60 "$STORAN" export five-hundred.json --format csv
expect_rc 0 "500 labels"
first=$(echo "$out" | sed -n 2p | sed 's/.*,k001=1;k002=2;/k001=1;k002=2;/' | cut -c1-14)
[ "$first" = "k001=1;k002=2;" ] || fail "labels not sorted: ${out:0:200}"
finish
