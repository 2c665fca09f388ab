#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make demo`: tickscope on the bundled real traces. It leads with a kernel A/B, the shrinker
# SRCU patch against its baseline kernel (20 stress-ng ramfs runs each), headline first; then
# 10 ping-pong runs pinned to one CPU against 10 pinned to two, what a recording holds, the
# vmstat case's mechanism (unpinned vs pinned), the shrinker case's stress-ng ramfs on the
# emulated aarch64 board, the same report from inside perf through the dlfilter plugin, and
# perf report through the libtraceevent plugin.
set -eu

case "${1:-}" in
-h | --help)
	sed -n '3,9s/^# //p' "$0"
	exit 0
	;;
esac

top=$(cd "$(dirname "$0")/.." && pwd)
build=${TS_BUILD:-$top/build}
ts=$build/tickscope
# what it unpacks and writes (TS_DEMO_CACHE: elsewhere, as tests/demo.t has it)
cache=${TS_DEMO_CACHE:-$top/.cache/demo}
fx=$top/tests/fixtures
mkdir -p "$cache"

# unxz SRC NAME: decompress once into the cache, print the path
unxz() {
	if [ ! -f "$cache/$2" ]; then
		xz -dc "$1" >"$cache/$2.tmp"
		mv "$cache/$2.tmp" "$cache/$2"
	fi
	echo "$cache/$2"
}

# (bold on a terminal only: `make demo | tee demo.log` kept the escape sequences)
bold='' plain=''
[ -t 1 ] && bold=$(printf '\033[1m') plain=$(printf '\033[0m')
step() {
	printf '\n%s$ %s%s\n' "$bold" "$*" "$plain" | sed "s|$top/||g; s|$cache/||g"
}

# run_dir RUN NAME: a recorded run (perf.data.xz, kallsyms.xz, meta.txt) unpacked into
# $cache/NAME/, meta.txt beside perf.data so that the report names the run, its pinning and
# the benchmark's own result; prints the folder
run_dir() {
	mkdir -p "$cache/$2"
	cp "$1/meta.txt" "$cache/$2/meta.txt"
	unxz "$1/perf.data.xz" "$2/perf.data" >/dev/null
	unxz "$1/kallsyms.xz" "$2/kallsyms" >/dev/null
	echo "$cache/$2"
}
live=$fx/boards/x86-host/live
nonedir=$(run_dir "$live/pingpong/run-1" pingpong-unpinned)
crossdir=$(run_dir "$live/pingpong-cross/run-1" pingpong-cross)
none=$nonedir/perf.data
cross=$crossdir/perf.data
a64=$fx/boards/qemu-aarch64/generic/stress-ramfs/run-1
if [ -f "$a64/perf.data.xz" ]; then
	ramfs=$(unxz "$a64/perf.data.xz" a64-ramfs.data)
	a64k=$(unxz "$a64/kallsyms.xz" a64-ramfs.kallsyms)
else
	ramfs=$(unxz "$fx/aarch64/a64-6.1-generic-stress-ramfs.data.xz" a64-ramfs.data)
	a64k=$(unxz "$fx/aarch64/a64-6.1-generic.kallsyms.xz" a64-ramfs.kallsyms)
fi

echo "tickscope demo: real traces bundled in tests/fixtures/ (x86 live, aarch64 under qemu)"

# The kernel A/B: two kernels built from one config, the second with the shrinker patch
# (boards/patches/shrinker-srcu), each run's summary computed from its trace when recorded.
kv=kernel-variants/qemu-aarch64-stress-ramfs-nohz-idle-vs-shrinker-srcu
[ -d "$cache/shrinker" ] || "$top/scripts/unpack-summaries.sh" "$fx/$kv" "$cache/shrinker"
step tickscope compare "$fx/$kv/nohz-idle" "$fx/$kv/shrinker-srcu"
"$ts" compare "$cache/shrinker/nohz-idle" "$cache/shrinker/shrinker-srcu" |
	sed '/^Where the benchmark/,$d'

# a copy, so that compare's per-run summaries are cached under .cache, not in the tree
if [ ! -d "$cache/ab" ]; then
	cp -a "$fx/boards/x86-host/ab" "$cache/ab.tmp"
	mv "$cache/ab.tmp" "$cache/ab"
fi
step tickscope compare "$fx/boards/x86-host/ab/pingpong-same" "$fx/boards/x86-host/ab/pingpong-cross"
"$ts" compare "$cache/ab/pingpong-same" "$cache/ab/pingpong-cross" | sed '/^Metrics /,$d'

step tickscope info "$ramfs"
"$ts" info "$ramfs"

step tickscope report "$none" --kallsyms "$nonedir/kallsyms" --top 8
"$ts" report "$none" --kallsyms "$nonedir/kallsyms" --top 8

step tickscope report "$cross" --kallsyms "$crossdir/kallsyms" --top 8
"$ts" report "$cross" --kallsyms "$crossdir/kallsyms" --top 8

step tickscope report "$ramfs" --kallsyms "$a64k" --top 8
"$ts" report "$ramfs" --kallsyms "$a64k" --top 8

# The perf steps keep perf's output and stderr in the cache. A step that shows nothing of ours
# (perf failed, or the plugin was not loaded) says so with perf's own first line, and the demo
# then ends with exit 1 rather than an empty step.
failed=0
# perf_failed STEP WHY ERRFILE: say why STEP showed nothing, with perf's first line
perf_failed() {
	printf 'tickscope demo: %s: %s%s\n' "$1" "$2" "$(grep -v -m1 '^unwind: ' "$3" |
		sed 's/^/; perf: /')" >&2
	failed=$((failed + 1))
}
tep=$build/traceevent/plugins
if ! command -v perf >/dev/null 2>&1; then
	printf '\ntickscope demo: perf is not installed (make deps): no plugin steps\n'
elif [ ! -f "$build/tickscope.so" ] || [ ! -f "$tep/plugin_tickscope.so" ]; then
	printf '\ntickscope demo: the plugins are not built (make): no plugin steps\n'
else
	step perf script -i "$ramfs" --dlfilter build/tickscope.so --dlarg kallsyms="$a64k" \
		--dlarg top=5
	rc=0
	perf script -i "$ramfs" --dlfilter "$build/tickscope.so" --dlarg kallsyms="$a64k" \
		--dlarg top=5 >"$cache/dlfilter.out" 2>"$cache/dlfilter.err" || rc=$?
	sed '/^== idle ==/,$d' "$cache/dlfilter.out" | sed '${/^$/d}'
	grep -q '^== sched ==' "$cache/dlfilter.out" ||
		perf_failed "perf script --dlfilter" "no report (exit $rc)" "$cache/dlfilter.err"

	# perf report through the libtraceevent plugin (docs/plugin.md): its classes group the
	# work items by function, where perf's own text has a line per work struct address
	step TRACEEVENT_PLUGIN_DIR=build/traceevent/plugins perf report -i "$ramfs" \
		--kallsyms "$a64k" -s trace --stdio -n "# the work items' part"
	rc=0
	TRACEEVENT_PLUGIN_DIR=$tep perf report -i "$ramfs" --kallsyms "$a64k" -s trace --stdio \
		-n >"$cache/perf-report.out" 2>"$cache/perf-report.err" || rc=$?
	sed -n "/of event 'workqueue:workqueue_execute_start'/,/^\$/{/^\$/d;p}" \
		"$cache/perf-report.out" >"$cache/perf-report.wq"
	cat "$cache/perf-report.wq"
	if [ ! -s "$cache/perf-report.wq" ]; then
		perf_failed "perf report" "no work items (exit $rc)" "$cache/perf-report.err"
	elif ! grep -q ' class=' "$cache/perf-report.wq"; then
		perf_failed "perf report" "perf's own text, not the plugin's classes: $tep/\
plugin_tickscope.so was not loaded" "$cache/perf-report.err"
	fi
fi

# The charts (gnuplot PNG and SVG) and the one-file HTML report of the ping-pong A/B
# (plots/README.md)
charts=$cache/charts
html=$cache/compare.html
step tickscope compare "$fx/boards/x86-host/ab/pingpong-same" \
	"$fx/boards/x86-host/ab/pingpong-cross" --plots "$charts" --html "$html"
"$ts" compare "$cache/ab/pingpong-same" "$cache/ab/pingpong-cross" --plots "$charts" \
	--html "$html" >/dev/null
printf '\ntickscope demo: the HTML report is %s (open it in a browser); charts in %s/\n' \
	"$html" "$charts"
printf 'tickscope demo: next, your own kernels: README.md, "%s" (%s), then "%s" (%s)\n' \
	"Recording the machine you are on" "kernel A against kernel B" "Which change" "make bisect"
if [ "$failed" != 0 ]; then
	printf 'tickscope demo: %d step(s) failed (above); what perf printed is in %s/*.err\n' \
		"$failed" "$cache" >&2
	exit 1
fi
