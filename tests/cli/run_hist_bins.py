# SPDX-License-Identifier: GPL-3.0-or-later
# tests/cli: a storan run's latency histogram per interval (the clat.p50
# measurement's series) holds the I/Os its IOPS series counted: per
# point, the bins' counts add up to IOPS x the interval.
# Usage: python3 run_hist_bins.py RESULT.json INTERVAL
import json
import sys

doc = json.load(open(sys.argv[1]))
interval = float(sys.argv[2])
series = {m["metric"]: m["series"] for m in doc["measurements"]
          if "series" in m}
hist, iops = series["clat.p50"], series["iops"]
if not hist["buckets"] or hist["buckets"] != sorted(hist["buckets"]):
    sys.exit("buckets empty or out of order")
if hist["t"] != iops["t"]:
    sys.exit(f"points at {hist['t']}, IOPS at {iops['t']}")
for t, bins, v in zip(hist["t"], hist["bins"], iops["v"]):
    if sum(bins[1::2]) != round(v * interval):
        sys.exit(f"at {t} s: {sum(bins[1::2])} I/Os in the histogram, "
                 f"{v * interval} counted")
