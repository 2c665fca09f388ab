#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make bench`'s recorder line: CPU time of tickscope record against perf record while the same
# workload runs, and the samples each keeps and loses at a large and a small ring, as medians
# of interleaved runs (the machine may be shared: both tools see the same noise).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/bench-lib.sh
. "$top/scripts/bench-lib.sh"
# lost events swing with the machine's load from run to run (0 in most runs, thousands in a few):
# more runs than bench's other lines, and the turns paired (below)
RUNS=${BENCH_RECORD_RUNS:-9}
# ring sizes in pages; "8s": 8 pages with the recorder stopped (SIGSTOP) 5 ms of every 50 ms
# while the workload runs, the same stalls for both tools: a loaded machine's, made repeatable
PAGES=${BENCH_RECORD_PAGES:-128 8 8s}
# the stalled size's stops, the same number for both tools, and a workload long enough for them
# on a machine twice as fast as this project's (0.75 s of stops; 20,000 round trips take 1 s
# here, calm, recorded)
STALLS=${BENCH_RECORD_STALLS:-15}
STALL_ITERS=40000
EVENTS=${BENCH_RECORD_EVENTS:-sched:sched_switch,sched:sched_waking,sched:sched_wakeup,timer:hrtimer_start,timer:hrtimer_expire_entry,power:cpu_idle}

case "${1:-}" in
-h | --help)
	cat <<EOF2
usage: $0
Records the same workload (pingpong, 20,000 round trips across two CPUs) with perf record -a
and with tickscope record -a, each stopped by SIGINT after the workload, $RUNS runs per tool
and ring size (-m: $PAGES pages), interleaved: run i of every tool and size before run i+1,
the tools' order swapped every run. Prints per tool and size the median [min-max] of the
recorder's own CPU time (user+sys, in microseconds by scripts/bench-time.c built with \$CC,
else cc; in GNU time's 10 ms steps without a compiler; the workload runs apart), the samples
in the file, the events lost (tickscope info: the larger of the LOST and the LOST_SAMPLES
records' counts, which perf record writes both of for the same losses), the samples
recorded before the first LOST record (all of them when none was lost), the mean of the
events lost and the workload's own round trip (what the recorder costs it); then the ratios and the targets: no more CPU than perf record, no more lost
events (medians), and how many turns each tool lost fewer events in than the other (the two ran back to back in a turn, under the
same load: a paired comparison that medians of mostly-zero losses cannot give). A size with
an "s" (8s) stops the recorder 5 ms of every 50 ms while the workload runs (SIGSTOP, SIGCONT):
the stalls a loaded machine gives a recorder, the same for both tools, so that their losses
compare whatever the load: $STALLS stops a run (the workload, $STALL_ITERS round trips there, outlasts
them), so that a recorder that slows the workload is not stopped more often than the other
(10% more stops and lost events in all, with fewer lost a stop, before the count was fixed).
The stalls are made by scripts/bench-stall.c (built like bench-time.c),
which runs the workload and holds the recorder on absolute times at real-time priority, and
prints how many it made and how long they held (median, max); without a compiler, by a shell
loop of pkill and sleep, whose stalls last far longer than 5 ms on a loaded machine (two scans of
/proc and three fork+execs each: 113-290 ms at load 25), so that the losses measure the load.
BENCH_STRICT=1 exits 1 when a target is missed.
Environment: TS_BUILD, PERF, CC, BENCH_RECORD_RUNS (default 9), BENCH_RECORD_PAGES,
BENCH_RECORD_STALLS (default 15), BENCH_RECORD_EVENTS, BENCH_STRICT.
EOF2
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
bench_timer "$tmp"
[ -n "$TIMER" ] || echo "bench: recorders: no C compiler for scripts/bench-time.c: CPU times" \
	"by $TIME, in 10 ms steps"
STALLER=
if "${CC:-cc}" -O2 -o "$tmp/bench-stall" "$top/scripts/bench-stall.c" 2>/dev/null; then
	STALLER=$tmp/bench-stall
else
	echo "bench: recorders: no C compiler for scripts/bench-stall.c: stalls by pkill and" \
		"sleep, far longer than 5 ms on a loaded machine"
fi

# samples in file order before the first LOST record of $1 (perf report -D's record dump)
before_loss() {
	"$PERF" report -D -i "$1" 2>/dev/null |
		awk '/ PERF_RECORD_LOST/ { exit } / PERF_RECORD_SAMPLE/ { n++ } END { print n + 0 }'
}

# one TOOL PAGES [stall]: record while the workload runs (stopping the recorder 5 ms of every
# 50 ms with stall); prints "cpu_s samples lost before_loss"
one() {
	_tool=$1 _pages=$2 _stall=${3:-}
	# the timer's child is the recorder (pkill -P below): "KB USER SYS [WALL]" in $tmp/time
	if [ -n "$TIMER" ]; then
		set -- "$TIMER" -o "$tmp/time"
	else
		set -- "$TIME" -f '%M %U %S' -o "$tmp/time"
	fi
	if [ "$_tool" = perf ]; then
		"$@" "$PERF" record -q -a -m "$_pages" -e "$EVENTS" -o "$tmp/f.data" \
			>/dev/null 2>&1 &
	else
		"$@" "$TICKSCOPE" record -a -m "$_pages" -e "$EVENTS" -o "$tmp/f.data" \
			>/dev/null 2>&1 &
	fi
	t=$!
	sleep 1 # past the start-up (synthesis, mmap)
	if [ "$_stall" = stall ] && [ -n "$STALLER" ]; then
		# the workload under bench-stall, which holds the recorder (the timer's child)
		"$STALLER" -o "$tmp/stall" -n "$STALLS" 5000 50000 "$(pgrep -P "$t")" \
			"$work" --pin cross --iterations $STALL_ITERS --warmup 100 >"$tmp/work" 2>&1 ||
			true
		cat "$tmp/stall" >>"$tmp/stalls-$_tool-$_pages"
	else
		"$work" --pin cross --iterations 20000 --warmup 100 >"$tmp/work" 2>&1 &
		w=$!
		while [ "$_stall" = stall ] && kill -0 "$w" 2>/dev/null; do
			pkill -STOP -P "$t"
			sleep 0.005
			pkill -CONT -P "$t"
			sleep 0.045
		done
		wait "$w" || true
	fi
	pkill -INT -P "$t"
	wait "$t" || true
	"$TICKSCOPE" info "$tmp/f.data" >"$tmp/info" 2>&1
	cpu=$(tail -n 1 "$tmp/time" | awk '{ printf "%.6f", $2 + $3 }')
	n=$(sed -n 's/^samples: *\([0-9]*\).*/\1/p' "$tmp/info")
	# perf record counts each loss twice: a LOST record, and PERF_FORMAT_LOST's LOST_SAMPLES
	lost=$(sed -n 's/^lost events: *\([0-9]*\) in LOST records, *\([0-9]*\).*/\1 \2/p' \
		"$tmp/info" | awk '{ print ($1 > $2 ? $1 : $2) }')
	if [ "${lost:-0}" -gt 0 ]; then b=$(before_loss "$tmp/f.data"); else b=$n; fi
	# the workload's round trip under the recorder (its own line: "...latency: X microseconds")
	rt=$(sed -n 's/.*latency: \([0-9.]*\) microseconds.*/\1/p' "$tmp/work" | tail -n 1)
	echo "$cpu ${n:-0} ${lost:-0} $b ${rt:-0}"
}

# stat FILE COLUMN: "median min max" of one column
stat() {
	cut -d' ' -f"$2" "$1" | sort -n | awk '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		print m, v[1], v[NR] }'
}

echo "bench: recorders, $RUNS interleaved runs per tool and ring size; median [min-max]"
echo "bench: events: $EVENTS"
i=0
while [ $i -lt "$RUNS" ]; do
	order="perf tickscope"
	[ $((i % 2)) = 1 ] && order="tickscope perf"
	for m in $PAGES; do
		for tool in $order; do
			case "$m" in
			*s) one "$tool" "${m%s}" stall >>"$tmp/$tool-$m" ;;
			*) one "$tool" "$m" >>"$tmp/$tool-$m" ;;
			esac
		done
	done
	i=$((i + 1))
done

missed=0
target() { # what a b: met when a <= b (bench.sh's "goal:" lines)
	if awk -v a="$2" -v b="$3" 'BEGIN { exit !(a <= b) }'; then
		echo "goal: $1: $2 (goal <= perf record's $3): met"
	else
		echo "goal: $1: $2 (goal <= perf record's $3): MISSED"
		missed=$((missed + 1))
	fi
}
for m in $PAGES; do
	for tool in perf tickscope; do
		f=$tmp/$tool-$m
		printf '%-16s -m %-5s cpu %s s  samples %s  lost %s mean %s  before first loss %s  round trip %s us\n' \
			"$tool record" "$m" "$(stat "$f" 1 | awk '{ printf "%.3f [%.3f-%.3f]", $1, $2, $3 }')" \
			"$(stat "$f" 2 | awk '{ printf "%d [%d-%d]", $1, $2, $3 }')" \
			"$(stat "$f" 3 | awk '{ printf "%d [%d-%d]", $1, $2, $3 }')" \
			"$(awk '{ s += $3 } END { printf "%d", NR ? s / NR : 0 }' "$f")" \
			"$(stat "$f" 4 | awk '{ printf "%d [%d-%d]", $1, $2, $3 }')" \
			"$(stat "$f" 5 | awk '{ printf "%.1f [%.1f-%.1f]", $1, $2, $3 }')"
	done
	for tool in perf tickscope; do
		f=$tmp/stalls-$tool-${m%s}
		if [ "$m" = "${m%s}" ] || [ ! -f "$f" ]; then continue; fi
		printf '%-16s -m %-5s stalls %s a run, held %s us (median of the runs'"'"' medians), max %s us\n' \
			"$tool record" "$m" "$(stat "$f" 1 | awk '{ printf "%d [%d-%d]", $1, $2, $3 }')" \
			"$(stat "$f" 2 | cut -d' ' -f1)" "$(stat "$f" 3 | cut -d' ' -f3)"
		# lost a stop, run by run (the runs' stops are the same count unless a workload ended early)
		paste -d' ' "$tmp/$tool-$m" "$f" | awk '{ print ($6 > 0 ? $3 / $6 : 0) }' >"$tmp/per"
		printf '%-16s -m %-5s lost a stop %s\n' "$tool record" "$m" \
			"$(stat "$tmp/per" 1 | awk '{ printf "%.0f [%.0f-%.0f]", $1, $2, $3 }')"
	done
	# line i of each file is turn i: the two tools back to back
	paste -d' ' "$tmp/tickscope-$m" "$tmp/perf-$m" | awk -v m="$m" '{
		if ($3 < $8) t++; else if ($3 > $8) p++; else e++ }
		END { printf "turns (-m %s): tickscope lost fewer events in %d, perf record in %d, " \
			"equal in %d\n", m, t, p, e }'
	pc=$(stat "$tmp/perf-$m" 1 | cut -d' ' -f1)
	tc=$(stat "$tmp/tickscope-$m" 1 | cut -d' ' -f1)
	pl=$(stat "$tmp/perf-$m" 3 | cut -d' ' -f1)
	tl=$(stat "$tmp/tickscope-$m" 3 | cut -d' ' -f1)
	# the workload's slowdown under the recorder, turn by turn (the tools back to back)
	paste -d' ' "$tmp/tickscope-$m" "$tmp/perf-$m" | awk '{ print ($10 > 0 ? $5 / $10 : 0) }' \
		>"$tmp/per"
	echo "ratio: the workload's round trip under tickscope record / under perf record (-m $m)," \
		"median of the turns: $(stat "$tmp/per" 1 | awk '{ printf "%.3f [%.3f-%.3f]", $1, $2, $3 }')"
	echo "ratio: tickscope record / perf record, median CPU (-m $m): $(awk -v a="$tc" \
		-v b="$pc" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')x; median lost: $tl / $pl"
	target "tickscope record CPU, median s (-m $m)" "$tc" "$pc"
	target "tickscope record lost events, median (-m $m)" "$tl" "$pl"
done
[ "$missed" -gt 0 ] && [ "${BENCH_STRICT:-0}" = 1 ] && exit 1
exit 0
