#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# An A/B whose cause is a kernel mechanism known by construction (tests/fixtures/kernel-mech/
# README.md): on this kind of machine (x86_64, 2 vCPUs, the host's 6.18), the ping-pong pinned
# to CPU 1 under nice -20, 5 runs in the root cpu cgroup and 5 runs in a cpu cgroup limited to
# 1 ms every 5 ms (CFS bandwidth), interleaved. The expectations were written before compare
# ran (EXPECTATIONS.md): the round trip longer, carried by the sched delay (the throttled
# tasks wait runnable), and the CFS period timer, sched_cfs_period_timer, named as the
# mechanism of the sched delay, not of the wake delivery. The oracle for the figures is perf's
# own tools on the same files: perf script's count of sched_cfs_period_timer expiries a run,
# and the ping-pong tasks' runnable waits from perf script's sched_waking and sched_switch.
. "$(dirname "$0")/lib/tap.sh"
command -v jq >/dev/null || skip_all "jq not installed (analysis/packages)"
command -v xz >/dev/null || skip_all "xz not installed (analysis/packages)"
command -v perf >/dev/null || skip_all "perf not installed (linux-perf)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
. "$(dirname "$0")/lib/compare-ab.sh"
tap_tmpdir
mkdir "$TAP_TMP/tmp" && export TMPDIR="$TAP_TMP/tmp" # where compare unpacks
fx=$TS_TOP/tests/fixtures/kernel-mech/x86-host-pingpong-same-root-vs-cfs-quota

ab_compare "$fx" root cfs-quota

# --- the headline ---
head -1 "$TAP_TMP/c.txt" | grep -Eq '^cfs-quota vs root: latency .* worse, .*: significant$'
ok $? "the round trip is significantly worse in the limited cgroup"
top=$(jq -r '[.explanations[0].decomposition.parts[] | select(.share_pct != null)] |
	max_by(.share_pct) | .metric' "$TAP_TMP/c.json")
is "$top" "task.path.sched_delay.per_op" "sched delay carries the largest share of the change"
m=$(jq -r '[.headline.mechanisms[] | select(.metric == "timer.expire.sched_cfs_period_timer.per_s")]
	| .[0].component' "$TAP_TMP/c.json")
is "$m" "sched delay" "the CFS period timer's expiries are a mechanism of the sched delay"
grep -q '^  sched delay <- expiries of timer sched_cfs_period_timer' "$TAP_TMP/c.txt"
ok $? "the headline line: sched delay <- expiries of timer sched_cfs_period_timer"
! sed '/^tickscope compare/q' "$TAP_TMP/c.txt" |
	grep -q '^  wake delivery <- .*sched_cfs_period_timer'
ok $? "the period timer is not said to feed the wake delivery"
! sed '/^tickscope compare/q' "$TAP_TMP/c.txt" |
	grep -Eq '<- .*(tick_stop|the tick|rcu|kworker|ksoftirqd|a program)'
ok $? "no tick, RCU, kworker or program named as a mechanism"
! sed '/^tickscope compare/q' "$TAP_TMP/c.txt" | grep -Eq '<- .*\(0% of the change'
ok $? "no mechanism line that explains 0% of the change"

# --- the figures against perf's tools, run by run ---
ops=$(ab_ops "$fx/root/run-1")
# perf script -F time,event,trace: the ping-pong tasks' runnable waits summed over the tasks (s),
# from a sched_waking to the task's next switch-in, and from a switch-out with prev_state R (a
# preemption, or a throttle: 6.18 dequeues a throttled task on its way back to user space and
# switches it out runnable) to its next switch-in. perf sched timehist's "sch delay" counts the
# first kind only (compare-injected.t's ping-pong, under chrt -f, is never preempted).
runnable='
/sched_waking:/ && /comm=pingpong/ {
	match($0, /pid=[0-9]+/); p = substr($0, RSTART + 4, RLENGTH - 4)
	if (!(p in since)) since[p] = $1 + 0
}
/sched_switch:/ {
	if (match($0, /prev_comm=pingpong[^ ]* prev_pid=[0-9]+ prev_prio=[0-9]+ prev_state=R/)) {
		split(substr($0, RSTART, RLENGTH), a, /[ =]/); since[a[4]] = $1 + 0
	}
	if (match($0, /next_comm=pingpong[^ ]* next_pid=[0-9]+/)) {
		split(substr($0, RSTART, RLENGTH), a, /[ =]/)
		if (a[4] in since) { w += $1 - since[a[4]]; delete since[a[4]] }
	}
}
END { printf "%.6f", w }'
# perf_run PERF_DATA KALLSYMS: "sched_cfs_period_timer expiries, the runnable waits (s)"
perf_run() {
	n=$(perf script -i "$1" --kallsyms "$2" -F event,trace 2>/dev/null |
		grep -c 'hrtimer_expire_entry:.*function=sched_cfs_period_timer')
	w=$(perf script -i "$1" --kallsyms "$2" -F time,event,trace 2>/dev/null | awk "$runnable")
	echo "$n $w"
}
vi=0
for v in root cfs-quota; do
	ab_runs timer.expire.sched_cfs_period_timer.handler.count $vi >"$TAP_TMP/per.$v"
	ab_runs task.path.sched_delay.per_op $vi >"$TAP_TMP/delay.$v"
	ab_perf_runs "$fx/$v" perf_run "$TAP_TMP/perf.$v"
	vi=$((vi + 1))
done
per_run() { cut -d' ' -f1 "$TAP_TMP/perf.$1" | tr '\n' ' '; }
diag "perf script, sched_cfs_period_timer a run: root $(per_run root)| cfs-quota $(per_run cfs-quota)"
paste -d' ' "$TAP_TMP/perf.cfs-quota" "$TAP_TMP/per.cfs-quota" |
	awk '$1 < 20 || $1 != $3 { bad = 1 } END { exit bad }'
ok $? "cfs-quota: sched_cfs_period_timer expiries a run are perf script's (20 or more each)"
paste -d' ' "$TAP_TMP/perf.root" "$TAP_TMP/per.root" |
	awk '$1 != 0 || ($3 != "null" && $3 != 0) { bad = 1 } END { exit bad }'
ok $? "root: no sched_cfs_period_timer expiry, in perf script as in compare"
# sched delay: perf script's runnable waits of the ping-pong tasks per round trip (s -> ns)
# against compare's time line's sched delay: at most 10% above it, and at least 75% of it (the
# time line counts an instant once when both tasks wait, as at start-up; the sum counts each)
for v in root cfs-quota; do
	paste -d' ' "$TAP_TMP/perf.$v" "$TAP_TMP/delay.$v" |
		awk -v ops="$ops" '{ t = $2 * 1e9 / ops; if (!(t > 0) || $3 < 0.75 * t || $3 > 1.1 * t) bad = 1 }
			END { exit bad }'
	ok $? "$v: sched delay per round trip is 75-110% of perf script's runnable waits, run by run"
	diag "$v: perf script $(awk -v ops="$ops" '{ printf "%.1f ", $2 * 1e6 / ops }' "$TAP_TMP/perf.$v")µs/op; compare $(awk '{ printf "%.1f ", $1 / 1000 }' "$TAP_TMP/delay.$v")µs/op"
done

ab_committed "$fx"
tap_done
