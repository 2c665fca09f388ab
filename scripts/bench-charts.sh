#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make bench`, charts: every chart and the HTML report of the bundled ping-pong A/B
# (tests/fixtures/boards/x86-host/ab, N runs a side) with tickscope compare --plots --html,
# against its peer, gnuplot drawing the same charts (the plots.sh compare writes), in turns.
# The goal is a ratio of median wall times of BENCH_RUNS rounds (each from its fork to its
# reaping, scripts/bench-time.c), not an absolute time: the machine may be shared and loaded
# (issue 33; issue 14's 3 s was 2.5x gnuplot's 1.2 s here).
set -eu

case "${1:-}" in
-h | --help)
	sed -n '3,8s/^# //p' "$0"
	exit 0
	;;
esac

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/bench-lib.sh
. "$top/scripts/bench-lib.sh"
ts=$TICKSCOPE
runs=${BENCH_RUNS:-3}
ab=$top/tests/fixtures/boards/x86-host/ab
# tickscope's compare --plots --html (gnuplot's drawing inside) against gnuplot alone
target=2.5

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
bench_timer "$tmp"
[ -n "$TIMER" ] || echo "bench-charts: no C compiler for scripts/bench-time.c: wall times" \
	"with date around $TIME, which adds its own processes' time to each run"
# A copy: compare caches per-run summaries next to each perf.data.
cp -a "$ab" "$tmp/ab"
# shellcheck disable=SC2012 # run-N folders of a committed fixture
na=$(ls -d "$tmp/ab/pingpong-same"/run-* | wc -l)
# shellcheck disable=SC2012
nb=$(ls -d "$tmp/ab/pingpong-cross"/run-* | wc -l)

# med FILE: the median (the lower middle one for an even count) of FILE's numbers
med() {
	sort -n "$1" | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'
}
: >"$tmp/ts" && : >"$tmp/gp"
i=0
while [ $i -lt "$runs" ]; do
	rm -rf "$tmp/charts" "$tmp/c.html"
	bench_run "$tmp/time" "$ts" compare "$tmp/ab/pingpong-same" "$tmp/ab/pingpong-cross" \
		--plots "$tmp/charts" --html "$tmp/c.html" >/dev/null 2>"$tmp/err" ||
		die "compare failed: $(grep -v '^Command exited' "$tmp/err" | head -1)"
	cut -d' ' -f4 "$tmp/time" >>"$tmp/ts"
	# the peer: gnuplot drawing the same charts from the same tables, as plots.sh does
	(cd "$tmp/charts" && bench_run "$tmp/time" sh ./plots.sh >/dev/null 2>"$tmp/gp.err") ||
		die "plots.sh failed: $(grep -v '^Command exited' "$tmp/gp.err" | head -1)"
	cut -d' ' -f4 "$tmp/time" >>"$tmp/gp"
	i=$((i + 1))
done
drawn=$(grep -c '	drawn	' "$tmp/charts/charts.tsv")
s=$(awk -v t="$(med "$tmp/ts")" 'BEGIN { printf "%.2f", t }')
g=$(awk -v t="$(med "$tmp/gp")" 'BEGIN { printf "%.2f", t }')
x=$(awk -v a="$s" -v b="$g" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
printf '%-44s %8s s  (%d charts, PNG and SVG, and the HTML; %d + %d runs)\n' \
	"tickscope compare --plots --html" "$s" "$drawn" "$na" "$nb"
printf '%-44s %8s s  (the same charts from the same tables; load %s)\n' \
	"gnuplot alone (plots.sh)" "$g" "$(cut -d' ' -f1-3 /proc/loadavg)"
if awk -v x="$x" -v t=$target 'BEGIN { exit !(x <= t) }'; then
	echo "goal: charts and HTML of the A/B / gnuplot alone, median wall time: ${x}x" \
		"(goal <= ${target}x): met"
else
	echo "goal: charts and HTML of the A/B / gnuplot alone, median wall time: ${x}x" \
		"(goal <= ${target}x): MISSED"
	[ "${BENCH_STRICT:-0}" = 1 ] && exit 1
fi
exit 0
