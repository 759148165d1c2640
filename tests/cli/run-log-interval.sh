#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# storan run --log-interval (issue 20): bw, IOPS, mean latency and the
# latency histogram of the first repetition every S seconds (1 by
# default), as samples over time; their IOPS add up to the run's; the
# histogram of an interval holds its I/Os; 0 records none; a bad interval
# is a usage error.
exec timeout 120 bash -c '
. "$(dirname "$0")/../runner/lib.sh"
mkdir "$T/d"
"$STORAN" run --directory "$T/d" --size 8M --runtime 2 --ramp 0 --repeat 2 \
	--quiet --ioengine psync --rw randread --bs 4k --log-interval 0.5 \
	-o "$T/out.json" 2>"$T/err" || { cat "$T/err"; fail "run: exit $?"; }
"$STORAN" export --series "$T/out.json" > "$T/series.csv" ||
	fail "export --series"
for m in bw iops lat.mean clat.p50 clat.p99 clat.p99.9; do
	n=$(grep -c ",storan,randread,$m,[^,]*,.*,0.5,[0-9.]*,[0-9.e-]*\$" "$T/series.csv")
	[ "$n" -eq 4 ] || fail "$m: $n points, want 4 (2 s every 0.5 s)"
done
awk -F, '\''$5 == "iops" && !($NF > 0) { bad = 1 } END { exit bad }'\'' \
	"$T/series.csv" || fail "an interval without I/O"
# the intervals hold the first run: near the mean IOPS of the runs
"$STORAN" export "$T/out.json" | awk -F, -v s="$T/series.csv" '\''
	$5 == "iops" { first = $8 }
	END { while ((getline l < s) > 0) { split(l, f, ","); if (f[5] == "iops")
		{ sum += f[length(f)]; n++ } }
	      mean = sum / n
	      if (!(mean > 0.5 * first && mean < 2 * first)) exit 1 }'\'' ||
	fail "the series does not describe the run"
python3 "$(dirname "$0")/run_hist_bins.py" "$T/out.json" 0.5 ||
	fail "histogram per interval"
# by default: a point a second
"$STORAN" run --directory "$T/d" --size 8M --runtime 2 --ramp 0 --repeat 1 \
	--quiet --ioengine psync --rw randread --bs 4k -o "$T/def.json" \
	2>"$T/err" || { cat "$T/err"; fail "run: exit $?"; }
"$STORAN" export --series "$T/def.json" > "$T/def.csv"
n=$(grep -c ",storan,randread,iops,[^,]*,.*,1,[0-9.]*,[0-9.e-]*\$" "$T/def.csv")
[ "$n" -eq 2 ] || fail "default: $n IOPS points, want 2"
python3 "$(dirname "$0")/run_hist_bins.py" "$T/def.json" 1 ||
	fail "histogram per second"
# 0: none
"$STORAN" run --directory "$T/d" --size 8M --runtime 1 --ramp 0 --repeat 1 \
	--quiet --ioengine psync --rw randread --bs 4k --log-interval 0 \
	-o "$T/none.json" 2>"$T/err" || { cat "$T/err"; fail "run: exit $?"; }
"$STORAN" export --series "$T/none.json" > "$T/none.csv"
[ "$(wc -l < "$T/none.csv")" -eq 1 ] || fail "--log-interval 0 recorded"
expect_rc 2 "$STORAN" run --directory "$T/d" --size 8M --runtime 1 \
	--log-interval 0.001 -o "$T/x.json"
grep -q -- "--log-interval wants 0.01 s or more (0: none)" "$T/err" ||
	fail "message"
' "$0"
