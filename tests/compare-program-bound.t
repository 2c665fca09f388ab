#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A program that ran beside the benchmark in one variant only is where a sched delay went only
# if it ran long enough to hold most of it: a program cannot keep the benchmark waiting
# runnable for longer than it runs (docs/compare.md, the sched delay rule). The A/B: runs 2-5 of
# each side of the CFS bandwidth A/B (tests/fixtures/kernel-mech/, the ping-pong in a cpu
# cgroup limited to 1 ms every 5 ms), where the recording's own `sed` ran in every limited run
# and in no other; before the bound, compare named "sched delay <- sed, a program" first, before
# the period timer that throttled the tasks. The oracle is perf script on the same files: how
# long sed ran (switch-in to switch-out) and how long the ping-pong's tasks waited runnable.
. "$(dirname "$0")/lib/tap.sh"
command -v jq >/dev/null || skip_all "jq not installed (analysis/packages)"
command -v xz >/dev/null || skip_all "xz not installed (analysis/packages)"
command -v perf >/dev/null || skip_all "perf not installed (linux-perf)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
mkdir "$TAP_TMP/tmp" && export TMPDIR="$TAP_TMP/tmp" # where compare unpacks
fx=$TS_TOP/tests/fixtures/kernel-mech/x86-host-pingpong-same-root-vs-cfs-quota
for v in root cfs-quota; do
	mkdir -p "$TAP_TMP/split/$v"
	for k in 2 3 4 5; do
		cp -rL "$fx/$v/run-$k" "$TAP_TMP/split/$v/" || exit 1
	done
done
cd "$TAP_TMP/split" || exit 1

"$TICKSCOPE" compare root cfs-quota >"$TAP_TMP/c.txt" 2>"$TAP_TMP/err" &&
	"$TICKSCOPE" compare --json root cfs-quota >"$TAP_TMP/c.json" 2>>"$TAP_TMP/err"
ok $? "compare root cfs-quota, runs 2-5 a side: exit 0"
sed '/^tickscope compare/q' "$TAP_TMP/c.txt" >"$TAP_TMP/head.txt"
diag "$(cat "$TAP_TMP/head.txt")"

# --- the headline ---
head -1 "$TAP_TMP/head.txt" | grep -Eq '^cfs-quota vs root: latency .* worse, .*: significant$'
ok $? "the round trip is significantly worse in the limited cgroup"
sed -n 4p "$TAP_TMP/head.txt" | grep -q '^  sched delay <- expiries of timer sched_cfs_period_timer'
ok $? "the first mechanism line: the CFS period timer's expiries feed the sched delay"
! grep -q '<- sed, a program' "$TAP_TMP/head.txt"
ok $? "sed, which ran too little to hold the sched delay's growth, is named as no mechanism"
n=$(jq '[.headline.mechanisms[] | select(.metric == "task.other_cpu.sed.share")] | length' \
	"$TAP_TMP/c.json")
is "$n" 0 "nor in the JSON's mechanisms"

# --- the confounder line, and its figures against perf script ---
line=$(grep '^  ! sed, a program and not a kernel thread, ran beside the benchmark in every run of cfs-quota' \
	"$TAP_TMP/c.txt")
ok $? "sed is a confounder that ran in every run of cfs-quota"
diag "$line"
fig=$(printf '%s\n' "$line" |
	sed -n 's/.*; it ran \([0-9.]*\) µs\/op, room for \([0-9]*\)% of the sched delay.s growth of \([0-9.]*\) µs\/op: not where it went$/\1 \2 \3/p')
set -- $fig
ran=$1 room=$2 grow=$3
[ -n "$grow" ] && [ "$room" -lt 50 ]
ok $? "the line says how long sed ran and that it had room for under half of the growth ($room%)"

ops=$(($(sed -n 's/.*--iterations \([0-9]*\).*/\1/p' "$fx/root/run-1/meta.txt") +
	$(sed -n 's/.*--warmup \([0-9]*\).*/\1/p' "$fx/root/run-1/meta.txt")))
# perf script -F time,event,trace: $2 is sed's run time (switch-in to switch-out, s), $3 the
# ping-pong tasks' runnable waits (a sched_waking, or a switch-out in state R, to the next
# switch-in; summed over the tasks, s), as tests/compare-kernel-mech.t counts them
both='
/sched_waking:/ && /comm=pingpong/ {
	match($0, /pid=[0-9]+/); p = substr($0, RSTART + 4, RLENGTH - 4)
	if (!(p in since)) since[p] = $1 + 0
}
/sched_switch:/ {
	t = $1 + 0
	if (match($0, /prev_comm=sed prev_pid=[0-9]+/)) {
		split(substr($0, RSTART, RLENGTH), a, /[ =]/)
		if (a[4] in on) { run += t - on[a[4]]; delete on[a[4]] }
	}
	if (match($0, /next_comm=sed next_pid=[0-9]+/)) {
		split(substr($0, RSTART, RLENGTH), a, /[ =]/); on[a[4]] = t
	}
	if (match($0, /prev_comm=pingpong[^ ]* prev_pid=[0-9]+ prev_prio=[0-9]+ prev_state=R/)) {
		split(substr($0, RSTART, RLENGTH), a, /[ =]/); since[a[4]] = t
	}
	if (match($0, /next_comm=pingpong[^ ]* next_pid=[0-9]+/)) {
		split(substr($0, RSTART, RLENGTH), a, /[ =]/)
		if (a[4] in since) { w += t - since[a[4]]; delete since[a[4]] }
	}
}
END { printf "%.9f %.9f\n", run, w }'
for v in root cfs-quota; do
	: >"$TAP_TMP/perf.$v"
	for k in 2 3 4 5; do
		r=$v/run-$k
		xz -dc "$r/perf.data.xz" >"$TAP_TMP/p.data" && xz -dc "$r/kallsyms.xz" >"$TAP_TMP/k"
		perf script -i "$TAP_TMP/p.data" --kallsyms "$TAP_TMP/k" -F time,event,trace \
			2>/dev/null | awk "$both" >>"$TAP_TMP/perf.$v"
	done
done
# medians of the four runs, per operation (µs)
med() {
	awk -v ops="$ops" -v f="$2" '{ print $f * 1e6 / ops }' "$TAP_TMP/perf.$1" | sort -g |
		awk '{ x[NR] = $1 } END { printf "%.3f", (x[2] + x[3]) / 2 }'
}
sed_run=$(med cfs-quota 1)
sed_root=$(med root 1)
wait_b=$(med cfs-quota 2)
wait_a=$(med root 2)
diag "perf script: sed ran $sed_run µs/op in cfs-quota ($sed_root in root); the ping-pong waited runnable $wait_a -> $wait_b µs/op; compare: sed ran $ran µs/op, the sched delay grew $grow µs/op"
awk -v r="$sed_root" -v s="$sed_run" 'BEGIN { exit !(r == 0 && s > 0) }'
ok $? "perf script: sed ran in cfs-quota's runs and not in root's"
# compare's figure is a bound: the program's time on every CPU over the whole trace
awk -v c="$ran" -v p="$sed_run" 'BEGIN { exit !(c >= p && c <= 3 * p) }'
ok $? "sed's run time per operation is at least perf script's, and at most 3 times it"
awk -v c="$grow" -v a="$wait_a" -v b="$wait_b" \
	'BEGIN { g = b - a; exit !(g > 0 && c >= 0.75 * g && c <= 1.25 * g) }'
ok $? "the sched delay's growth is perf script's runnable waits' growth, within 25%"
awk -v s="$sed_run" -v a="$wait_a" -v b="$wait_b" 'BEGIN { exit !(2 * s < b - a) }'
ok $? "by perf script's own figures, sed ran less than half as long as the waits grew"
tap_done
