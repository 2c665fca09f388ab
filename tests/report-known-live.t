#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The ping-pong known answer, recorded live on this machine, pinned to two different CPUs and
# both to one CPU. The known answer is the pinning's: every wake of one ping-pong task by the
# other fires on the waker's CPU and targets the wakee's, so in the cross run all of them are
# cross-CPU and in the same run all same-CPU, whatever the machine's load (perf script on the
# file says which). The report's wake classes of the ping-pong tasks, summed, must be perf
# script's pairs of sched_waking and sched_wakeup on the same file, counted by the report's rule
# (same CPU if the waking CPU is the wakeup's target; a switch-out in between closes the wake),
# within the events perf lost. No figure of one run is compared with another's: the wake
# delivery p50s of two separate live runs (cross above same) turn with the load; report-known.t
# keeps that comparison on the recorded fixtures. Needs root, tracefs, perf and two CPUs;
# without them it skips with the reason.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

command -v jq >/dev/null || skip_all "jq not installed (make deps installs it)"
[ "$(tap_cpus_allowed | grep -c .)" -ge 2 ] || skip_all "needs two CPUs to pin the ping-pong across"
tap_need_tracing
PINGPONG=$TS_BUILD/workloads/pingpong
[ -x "$PINGPONG" ] || { echo "Bail out! $PINGPONG not built (make workloads)"; exit 1; }
tap_tmpdir

# wakes FILE: "same cross partner-same partner-cross" of the ping-pong tasks (every tid that
# carried a pingpong* name) from perf script: a sched_waking opens a task's wake on its CPU, the
# task's next sched_wakeup decides it by its target_cpu, a switch-out of the task closes it
# unclassified (it was running); partner: the waker was the other ping-pong task
wakes() {
	perf script -i "$1" -F comm,tid,cpu,event,trace 2>/dev/null | awk '
	function val(k) {
		return match($0, " " k "=[^ ]+") ? substr($0, RSTART + length(k) + 2,
			RLENGTH - length(k) - 2) : ""
	}
	{
		for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) break
		cpu = substr($i, 2, length($i) - 2) + 0; tid = $(i - 1); ev = $(i + 1)
	}
	ev == "sched:sched_waking:" {
		p = val("pid"); if (val("comm") ~ /^pingpong/) pp[p] = 1
		open[p] = 1; wcpu[p] = cpu; partner[p] = $1 ~ /^pingpong/ && tid != p
		next
	}
	ev == "sched:sched_wakeup:" {
		p = val("pid"); if (val("comm") ~ /^pingpong/) pp[p] = 1
		if (!open[p]) next
		open[p] = 0; k = wcpu[p] == val("target_cpu") + 0 ? "same" : "cross"
		n[p " " k]++
		if (partner[p]) n[p " partner " k]++
		next
	}
	ev == "sched:sched_switch:" { open[val("prev_pid")] = 0 }
	END {
		for (p in pp) {
			s += n[p " same"]; x += n[p " cross"]
			ps += n[p " partner same"]; px += n[p " partner cross"]
		}
		print s + 0, x + 0, ps + 0, px + 0
	}'
}

events=sched:sched_switch,sched:sched_waking,sched:sched_wakeup,power:cpu_idle
for pin in cross same; do
	f=$TAP_TMP/$pin.data
	perf record -q -m 8M -e "$events" -a -o "$f" -- \
		"$PINGPONG" --pin $pin --iterations 2000 --warmup 200 >"$TAP_TMP/$pin.out" 2>&1
	grep -q '^AF_UNIX sock stream latency: [0-9.]* microseconds$' "$TAP_TMP/$pin.out"
	ok $? "pin $pin: recorded ($(sed -n 's/.*latency: //p' "$TAP_TMP/$pin.out"))"
	"$TICKSCOPE" report --json -i "$f" >"$TAP_TMP/$pin.json" 2>"$TAP_TMP/err"
	ok $? "pin $pin: tickscope report --json"

	read -r s x ps px <<EOF
$(wakes "$f")
EOF
	if [ $pin = cross ]; then
		[ "$px" -gt 0 ] && [ "$ps" = 0 ]
	else
		[ "$ps" -gt 0 ] && [ "$px" = 0 ]
	fi
	rc=$?
	t="pin $pin: perf script: every wake of a ping-pong task by the other is $pin-CPU"
	ok $rc "$t (same $ps, cross $px)"

	# the report's classes of the ping-pong tasks, summed: same, cross, unclassified
	read -r rs rx ru <<EOF
$(jq -r '[.sections.sched.tasks[] | select(.comm | startswith("pingpong")) | .wake_classes]
	| [([.[] | .same_cpu_idle + .same_cpu_busy] | add),
	   ([.[] | .cross_cpu_idle + .cross_cpu_busy] | add),
	   ([.[] | .unclassified] | add)] | map(. // 0) | "\(.[0]) \(.[1]) \(.[2])"' \
		"$TAP_TMP/$pin.json")
EOF
	lost=$(jq -r '.trace.lost_events // 0' "$TAP_TMP/$pin.json")
	# unclassified wakes (no switch seen yet on the target CPU) are perf's same or cross; with
	# no lost event the counts are equal, else apart by no more than the events lost
	echo "$s $x $rs $rx $ru $lost" | awk '{
		d = $1 - $3; if (d < 0) d = -d; e = $2 - $4; if (e < 0) e = -e
		ok = NF == 6 && $3 + $4 > 0 && $1 >= $3 - $6 && $1 <= $3 + $5 + $6 &&
			$2 >= $4 - $6 && $2 <= $4 + $5 + $6 && ($6 > 0 || $1 + $2 == $3 + $4 + $5)
		exit !ok }'
	rc=$?
	t="pin $pin: the report's wake classes of the ping-pong tasks are perf script's"
	ok $rc "$t (same $rs, cross $rx, unclassified $ru; perf script $s, $x; lost $lost)"
done
tap_done
