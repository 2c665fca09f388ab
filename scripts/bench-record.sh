#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make bench`'s recorder line: CPU time of tickscope record against perf record while the same
# workload runs, and the samples each keeps and loses with a large and a small ring.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
: "${TS_BUILD:=$top/build}"
TICKSCOPE=$TS_BUILD/tickscope
PERF=${PERF:-perf}
TIME=/usr/bin/time
RUNS=${BENCH_RUNS:-3}
EVENTS=${BENCH_RECORD_EVENTS:-sched:sched_switch,sched:sched_waking,sched:sched_wakeup,timer:hrtimer_start,timer:hrtimer_expire_entry,power:cpu_idle}

case "${1:-}" in
-h | --help)
	cat <<EOF
usage: $0
Records the same workload (pingpong, 20,000 round trips across two CPUs) with perf record -a
and with tickscope record, each system-wide and stopped by SIGINT after the workload, $RUNS
times per ring size (-m 128 and -m 8 pages). Prints the recorder's own CPU time (user+sys,
GNU time; the workload runs apart), the samples in the file and the events lost
(tickscope info), and the targets: no more CPU than perf record, no more lost events.
Environment: TS_BUILD, PERF, BENCH_RUNS, BENCH_RECORD_EVENTS, BENCH_STRICT=1.
EOF
	exit 0
	;;
esac

skip() {
	echo "bench: tickscope record vs perf record: skipped ($*)"
	exit 0
}
[ "$(id -u)" = 0 ] || skip "needs root"
[ -r /sys/kernel/tracing/events/header_page ] || skip "tracefs not mounted"
command -v "$PERF" >/dev/null || skip "no perf"
work=$TS_BUILD/workloads/pingpong
[ -x "$work" ] || skip "no $work (make workloads)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tickscope-bench-rec.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# one TOOL PAGES: record while the workload runs; prints "cpu_s samples lost"
one() {
	if [ "$1" = perf ]; then
		"$TIME" -f '%U %S' -o "$tmp/time" "$PERF" record -q -a -m "$2" -e "$EVENTS" \
			-o "$tmp/f.data" >/dev/null 2>&1 &
	else
		"$TIME" -f '%U %S' -o "$tmp/time" "$TICKSCOPE" record -m "$2" -e "$EVENTS" \
			-o "$tmp/f.data" >/dev/null 2>&1 &
	fi
	t=$!
	sleep 1 # past the start-up (synthesis, mmap)
	"$work" --pin cross --iterations 20000 --warmup 100 >/dev/null 2>&1
	pkill -INT -P "$t"
	wait "$t" || true
	"$TICKSCOPE" info "$tmp/f.data" >"$tmp/info" 2>&1
	tail -n 1 "$tmp/time" | awk '{ printf "%.3f ", $1 + $2 }'
	sed -n 's/^samples: *\([0-9]*\).*/\1/p' "$tmp/info" | tr '\n' ' '
	sed -n 's/^lost events: *\([0-9]*\) in LOST records, *\([0-9]*\).*/\1 \2/p' "$tmp/info" |
		awk '{ print $1 + $2 }'
}

missed=0
echo "bench: recorders, best CPU of $RUNS runs; samples and lost of that run; events: $EVENTS"
for m in 128 8; do
	for tool in perf tickscope; do
		best=""
		i=0
		while [ $i -lt "$RUNS" ]; do
			r=$(one "$tool" "$m")
			best=$(printf '%s\n%s\n' "$best" "$r" | sed '/^$/d' | sort -n | head -1)
			echo "$r" >>"$tmp/$tool-$m.lost"
			i=$((i + 1))
		done
		eval "${tool}_cpu=\$(echo \$best | cut -d' ' -f1)"
		# shellcheck disable=SC2086
		set -- $best
		printf '%-16s -m %-4s cpu %7.3f s  samples %9s  lost %8s  (lost, all runs: %s)\n' \
			"$tool record" "$m" "$1" "$2" "$3" \
			"$(cut -d' ' -f3 "$tmp/$tool-$m.lost" | tr '\n' ' ')"
	done
	pl=$(cut -d' ' -f3 "$tmp/perf-$m.lost" | sort -n | sed -n "$(((RUNS + 1) / 2))p")
	tl=$(cut -d' ' -f3 "$tmp/tickscope-$m.lost" | sort -n | sed -n "$(((RUNS + 1) / 2))p")
	echo "ratio: tickscope record / perf record CPU (-m $m): $(awk -v a="$tickscope_cpu" \
		-v b="$perf_cpu" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')x"
	if awk -v a="$tickscope_cpu" -v b="$perf_cpu" 'BEGIN { exit !(a <= b) }'; then
		echo "target met:    tickscope record CPU <= perf record's (-m $m)"
	else
		echo "target MISSED: tickscope record CPU <= perf record's (-m $m)"
		missed=$((missed + 1))
	fi
	if [ "$tl" -le "$pl" ]; then
		echo "target met:    tickscope record loses no more (-m $m, median: $tl vs $pl)"
	else
		echo "target MISSED: tickscope record loses no more (-m $m, median: $tl vs $pl)"
		missed=$((missed + 1))
	fi
done
[ "$missed" -gt 0 ] && [ "${BENCH_STRICT:-0}" = 1 ] && exit 1
exit 0
