#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make bench`, charts: every chart and the HTML report of the bundled ping-pong A/B
# (tests/fixtures/boards/x86-host/ab, N runs a side) with tickscope compare --plots --html,
# best wall time of BENCH_RUNS runs, against the target of issue 14 (3 s for 2 x 10 runs).
set -eu

case "${1:-}" in
-h | --help)
	sed -n '3,5s/^# //p' "$0"
	exit 0
	;;
esac

top=$(cd "$(dirname "$0")/.." && pwd)
: "${TS_BUILD:=$top/build}"
ts=$TS_BUILD/tickscope
runs=${BENCH_RUNS:-3}
ab=$top/tests/fixtures/boards/x86-host/ab
target=3

die() {
	echo "bench-charts: $*" >&2
	exit 1
}

[ -x "$ts" ] || die "$ts not built (run make)"
command -v gnuplot >/dev/null || die "gnuplot not installed (plots/packages: gnuplot-nox)"
"$ts" compare --help 2>/dev/null | grep -q -- '--plots' ||
	die "this build's tickscope compare has no --plots"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tickscope-bench-charts.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# A copy: compare caches per-run summaries next to each perf.data.
cp -a "$ab" "$tmp/ab"
na=$(ls -d "$tmp/ab/pingpong-same"/run-* | wc -l)
nb=$(ls -d "$tmp/ab/pingpong-cross"/run-* | wc -l)

best=""
i=0
while [ $i -lt "$runs" ]; do
	rm -rf "$tmp/charts" "$tmp/c.html"
	t0=$(date +%s%N)
	"$ts" compare "$tmp/ab/pingpong-same" "$tmp/ab/pingpong-cross" --plots "$tmp/charts" \
		--html "$tmp/c.html" >/dev/null 2>"$tmp/err" || die "compare failed: $(head -1 "$tmp/err")"
	t1=$(date +%s%N)
	best=$(awk -v a="$best" -v b="$(((t1 - t0) / 1000000))" \
		'BEGIN { print (a == "" || b < a) ? b : a }')
	i=$((i + 1))
done
drawn=$(grep -c '	drawn	' "$tmp/charts/charts.tsv")
s=$(awk -v ms="$best" 'BEGIN { printf "%.2f", ms / 1000 }')
printf '%-44s %8s s  (%d charts, PNG and SVG, and the HTML; %d + %d runs)\n' \
	"tickscope compare --plots --html" "$s" "$drawn" "$na" "$nb"
if awk -v s="$s" -v t=$target 'BEGIN { exit !(s <= t) }'; then
	echo "goal: charts and HTML of the A/B, best wall time: $s s (goal <= ${target} s): met"
else
	echo "goal: charts and HTML of the A/B, best wall time: $s s (goal <= ${target} s): MISSED"
	[ "${BENCH_STRICT:-0}" = 1 ] && exit 1
fi
exit 0
