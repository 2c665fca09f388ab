#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make bench`'s growth lines (issue 33): tickscope report and dump against perf sched latency
# and perf script on three sizes of the same trace, so that a cost that grows faster than the
# trace, or memory that grows with it, shows. Medians of interleaved rounds; no time limits.
# shellcheck disable=SC2154 # the figures are set by eval
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/bench-lib.sh
. "$top/scripts/bench-lib.sh"
RUNS=${BENCH_GROWTH_RUNS:-3}
# the smallest size holds goal 6: its runs are short and its ratio moved 2.65-3.71x between two
# make bench runs of 3 rounds each, with report's own CPU the same (0.136-0.137 s): more rounds
GOAL_RUNS=${BENCH_GROWTH_GOAL_RUNS:-9}
SIZES=${BENCH_GROWTH_SIZES:-500000 2000000 6000000}
TRACEFS=/sys/kernel/tracing
PERF_F=comm,tid,cpu,time,event,trace

case "${1:-}" in
-h | --help)
	cat <<EOF
usage: $0
Records (or reuses) one trace per size in $DIR/growth-N.data (N samples
or a little more: $SIZES; the events and workload of make bench's trace, stress-ng --switch
with callchains, its operations scaled to the size), then runs, $RUNS rounds ($GOAL_RUNS on the
smallest size, which holds goal 6) with the four commands taking turns:
  tickscope report -i FILE            perf sched latency -i FILE
  tickscope dump --format=tsv -i FILE perf script -i FILE -F $PERF_F --ns
and prints one line per size and command: median wall and CPU time (user+sys), samples/s and
the largest peak RSS, then per size the two ratios (perf's time / tickscope's). Each run is
timed from its fork to its reaping by scripts/bench-time.c (built with \$CC, else cc; without a
compiler, with date around $TIME, which adds its own processes to the wall time). The last
lines, "growth-goal: ...", are read by bench.sh: report on the smallest trace 3x faster than
perf sched latency, report's peak RSS <= 32 MB at every size. The four run at SCHED_FIFO 10
when the user may (bench-lib.sh bench_fifo; BENCH_FIFO=0 says no), as make bench's report
rounds: both cores theirs whatever else runs.
Environment: TS_BUILD, PERF, CC, BENCH_DIR, BENCH_GROWTH_RUNS, BENCH_GROWTH_GOAL_RUNS,
BENCH_GROWTH_SIZES, BENCH_FIFO.
EOF
	exit 0
	;;
esac

skip() {
	echo "bench: growth: skipped ($*)"
	exit 0
}
command -v "$PERF" >/dev/null || skip "no perf"
[ -x "$TICKSCOPE" ] || skip "$TICKSCOPE not built"
mkdir -p "$DIR"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tickscope-bench-growth.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
bench_timer "$tmp"
bench_fifo
[ -n "$TIMER" ] || echo "bench: growth: no C compiler for scripts/bench-time.c: wall times" \
	"with date around $TIME, which adds its own processes' time to each run"


# record N FILE: a trace of at least N samples (at most 1.5 N when three tries get there); the
# operations are scaled by what the last try gave
record() {
	[ "$(id -u)" = 0 ] || skip "recording needs root"
	command -v "$STRESS_NG" >/dev/null || skip "no stress-ng"
	[ -r "$TRACEFS/available_events" ] || skip "tracefs not mounted"
	ev=$(bench_events "$TRACEFS")
	ops=$(($1 / 16))
	tries=0
	while :; do
		rm -f "$2" "$2.meta" "$2.tmp" "$2.tmp.old"
		"$PERF" record -q -e "$ev" -a -g -m 64M -o "$2.tmp" -- \
			"$STRESS_NG" --switch 2 --switch-ops "$ops" >"$tmp/record.log" 2>&1 ||
			skip "perf record failed: $(tail -1 "$tmp/record.log")"
		n=$(bench_samples "$2.tmp")
		tries=$((tries + 1))
		if [ "${n:-0}" -ge "$1" ] && { [ "$n" -le $(($1 * 3 / 2)) ] || [ $tries -ge 3 ]; }; then
			break
		fi
		[ $tries -lt 6 ] || skip "no trace of $1 samples after $tries tries"
		ops=$(awk -v o="$ops" -v n="${n:-0}" -v t="$1" \
			'BEGIN { printf "%d", (n > 0 ? o * t * 1.1 / n : o * 2) + 1 }')
	done
	mv "$2.tmp" "$2"
	printf 'samples: %s\ncommand: perf record -e %s -a -g -m 64M -- stress-ng --switch 2 --switch-ops %s\nkernel: %s\n' \
		"$n" "$ev" "$ops" "$(uname -r)" >"$2.meta"
}

# one NAME CMD...: one run (bench_run), its wall s, CPU s and peak RSS KB appended to $tmp/NAME
one() {
	_n=$1
	shift
	bench_run "$tmp/time" "$@" >/dev/null 2>"$tmp/err" ||
		skip "$* failed: $(grep -v '^Command exited' "$tmp/err" | head -1)"
	read -r _kb _us _ss _w <"$tmp/time"
	echo "$_w $_us $_ss $_kb" | awk '{ printf "%.4f %.6f %d\n", $1, $2 + $3, $4 }' >>"$tmp/$_n"
}

# col NAME K: the median of column K of $tmp/NAME (the lower middle one for an even count)
col() {
	cut -d' ' -f"$2" "$tmp/$1" | sort -n | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'
}

# med NAME: "WALL CPU KB": median wall, median CPU, largest peak RSS
med() {
	echo "$(col "$1" 1) $(col "$1" 2) $(cut -d' ' -f3 "$tmp/$1" | sort -n | tail -1)"
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'
}

first=1
goal_small=
goal_rss=1
worst_rss=0
for size in $SIZES; do
	f=$DIR/growth-$size.data
	if [ ! -f "$f" ] || [ ! -f "$f.meta" ]; then
		record "$size" "$f"
	fi
	n=$(sed -n 's/^samples: //p' "$f.meta")
	cat "$f" >/dev/null # from the page cache, as make bench's other lines
	rm -f "$tmp/report" "$tmp/schedlat" "$tmp/tsv" "$tmp/script"
	runs=$RUNS
	[ $first = 1 ] && runs=$GOAL_RUNS
	i=0
	while [ $i -lt "$runs" ]; do
		# shellcheck disable=SC2086 # $FIFO: a command's words, or none
		one report $FIFO "$TICKSCOPE" report -i "$f"
		# shellcheck disable=SC2086
		one schedlat $FIFO "$PERF" sched latency -i "$f"
		# shellcheck disable=SC2086
		one tsv $FIFO "$TICKSCOPE" dump --format=tsv -i "$f"
		# shellcheck disable=SC2086
		one script $FIFO "$PERF" script -i "$f" -F "$PERF_F" --ns
		i=$((i + 1))
	done
	for c in report:"tickscope report" schedlat:"perf sched latency" \
		tsv:"tickscope dump --format=tsv" script:"perf script"; do
		# shellcheck disable=SC2046
		set -- $(med "${c%%:*}")
		eval "${c%%:*}_s=$1 ${c%%:*}_c=$2 ${c%%:*}_kb=$3"
		awk -v l="${c#*:}" -v n="$n" -v w="$1" -v c="$2" -v k="$3" 'BEGIN {
			printf "growth: %9d samples: %-28s %8.3f s %7.2f M/s cpu %7.3f s %8.1f MB\n",
				n, l, w, (w > 0 ? n / w / 1e6 : 0), c, k / 1024 }'
	done
	r1=$(ratio "$schedlat_s" "$report_s")
	r2=$(ratio "$script_s" "$tsv_s")
	echo "growth: $n samples: perf sched latency / tickscope report ${r1}x time," \
		"$(ratio "$schedlat_c" "$report_c")x CPU; perf script / tickscope dump --format=tsv" \
		"${r2}x time, $(ratio "$script_c" "$tsv_c")x CPU"
	if [ $first = 1 ]; then
		goal_small="$n $r1"
		first=0
	fi
	[ "$report_kb" -le $((32 * 1024)) ] || goal_rss=0
	[ "$report_kb" -le "$worst_rss" ] || worst_rss=$report_kb
done
echo "growth-goal: small $goal_small"
echo "growth-goal: rss $goal_rss $worst_rss"
