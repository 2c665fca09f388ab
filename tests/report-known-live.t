#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The ping-pong known answer, recorded live on this machine: pinned to two different CPUs,
# cross-CPU wake classes hold >= 90% of the ping-pong tasks' wakeups; both pinned to one CPU,
# same-CPU classes do; and the cross-CPU run's wake delivery p50 exceeds the same-CPU run's.
# Needs root, tracefs, perf and two CPUs; without them it skips with the reason.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

command -v jq >/dev/null || skip_all "jq not installed (make deps installs it)"
[ "$(nproc)" -ge 2 ] || skip_all "needs two CPUs to pin the ping-pong across"
tap_need_tracing
PINGPONG=$TS_BUILD/workloads/pingpong
[ -x "$PINGPONG" ] || { echo "Bail out! $PINGPONG not built (make workloads)"; exit 1; }
tap_tmpdir

events=sched:sched_switch,sched:sched_waking,sched:sched_wakeup,power:cpu_idle
for pin in cross same; do
	perf record -q -e "$events" -a -o "$TAP_TMP/$pin.data" -- \
		"$PINGPONG" --pin $pin --iterations 2000 --warmup 200 >"$TAP_TMP/$pin.out" 2>&1
	grep -q '^AF_UNIX sock stream latency: [0-9.]* microseconds$' "$TAP_TMP/$pin.out"
	ok $? "pin $pin: recorded ($(sed -n 's/.*latency: //p' "$TAP_TMP/$pin.out"))"
	"$TICKSCOPE" report --json -i "$TAP_TMP/$pin.data" >"$TAP_TMP/$pin.json" 2>"$TAP_TMP/err"
	ok $? "pin $pin: tickscope report --json"
done
c=$(share cross_cpu_idle,cross_cpu_busy "$TAP_TMP/cross.json")
ok $([ "$c" -ge 90 ] && echo 0 || echo 1) "live, pinned to two CPUs: cross-CPU classes hold $c% (>= 90%)"
s=$(share same_cpu_idle,same_cpu_busy "$TAP_TMP/same.json")
ok $([ "$s" -ge 90 ] && echo 0 || echo 1) "live, pinned to one CPU: same-CPU classes hold $s% (>= 90%)"
x=$(p50 cross_cpu_idle "$TAP_TMP/cross.json")
[ "$x" = -1 ] && x=$(p50 cross_cpu_busy "$TAP_TMP/cross.json")
y=$(p50 same_cpu_busy "$TAP_TMP/same.json")
[ "$y" = -1 ] && y=$(p50 same_cpu_idle "$TAP_TMP/same.json")
ok $([ "$x" -gt "$y" ] && [ "$y" -ge 0 ] && echo 0 || echo 1) \
	"live: cross-CPU wake delivery p50 ($x ns) > same-CPU's ($y ns)"
tap_done
