#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A storan run's samples over time in a report (issue 20): the latency
# percentiles of each interval charted like a fio histogram log's, said
# to be the run's; two runs compared are named by their files (both
# sources are "storan-run"), their p99 over time overlaid; a sweep of
# more combinations than the report charts is counted in a note.
exec timeout 300 bash -c '
. "$(dirname "$0")/../runner/lib.sh"
mkdir "$T/d"
for side in before after; do
	"$STORAN" run --directory "$T/d" --size 8M --runtime 1 --ramp 0 \
		--repeat 2 --quiet --ioengine psync --rw randread --bs 4k \
		--log-interval 0.25 -o "$T/$side.json" 2>"$T/err" ||
		{ cat "$T/err"; fail "run $side"; }
done
"$STORAN" report "$T/before.json" "$T/after.json" -o "$T/rep" 2>"$T/err" ||
	{ cat "$T/err"; fail "report"; }
md="$T/rep/report.md"
grep -q "Compared: \*\*before\*\* (baseline) and \*\*after\*\*" "$md" ||
	fail "the sides are not named by their files"
grep -q "^## .*Completion latency percentiles over time: randread (before (baseline))" "$md" ||
	fail "no percentile chart of the baseline"
grep -q "^## .*p99 completion latency over time: randread" "$md" ||
	fail "no p99 overlay"
grep -q "interval of the run" "$T"/rep/charts/*-time-clat-pct-*.json ||
	fail "the subtitle does not say the run"
# 9 block sizes: 9 histogram series, 8 charted, a note
"$STORAN" run --directory "$T/d" --size 8M --runtime 0.5 --ramp 0 \
	--repeat 1 --quiet --ioengine psync --rw randread --log-interval 0.2 \
	--bs-sweep 4k-1M -o "$T/sweep.json" 2>"$T/err" ||
	{ cat "$T/err"; fail "sweep"; }
"$STORAN" report "$T/sweep.json" -o "$T/rep2" 2>"$T/err" ||
	{ cat "$T/err"; fail "report of the sweep"; }
n=$(grep -c "^## .*percentiles over time: randread (bs=" "$T/rep2/report.md")
[ "$n" -eq 8 ] || fail "$n percentile charts, want 8"
grep -q "the first 8 of 9 histogram series charted" "$T/rep2/report.md" ||
	fail "no note of the ninth"
' "$0"
