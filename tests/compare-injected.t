#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# An A/B whose cause we put there ourselves (tests/fixtures/injected/README.md): on this kind
# of machine (x86_64, 2 vCPUs, the host's 6.18), the ping-pong pinned to CPU 1 under chrt -f 50,
# 5 runs quiet and 5 runs beside tstorm (a timerfd task of ours, 20 kHz, 10 µs of work per wake,
# pinned to CPU 1 at the same priority), interleaved. The expectations were written before
# compare ran (EXPECTATIONS.md). compare must name the injected task first, as what the
# sched delay went to, and say it is a program, not the kernel; its hrtimer interrupts in the
# run time; no share over 100%. The oracle for the figures is perf's own tools on the same
# files: perf script's count of timerfd_tmrproc expiries a run, perf sched timehist's sched
# delay of the ping-pong tasks and tstorm's run time.
. "$(dirname "$0")/lib/tap.sh"
command -v jq >/dev/null || skip_all "jq not installed (analysis/packages)"
command -v xz >/dev/null || skip_all "xz not installed (analysis/packages)"
command -v perf >/dev/null || skip_all "perf not installed (linux-perf)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
. "$(dirname "$0")/lib/compare-ab.sh"
tap_tmpdir
mkdir "$TAP_TMP/tmp" && export TMPDIR="$TAP_TMP/tmp" # where compare unpacks
fx=$TS_TOP/tests/fixtures/injected/x86-host-pingpong-same-quiet-vs-timer-storm

ab_compare "$fx" quiet timer-storm

# --- the headline ---
head -1 "$TAP_TMP/c.txt" | grep -Eq '^timer-storm vs quiet: latency .* worse, .*: significant$'
ok $? "the round trip is significantly worse beside the timer storm"
is "$(jq -r '.headline.mechanisms[0].metric' "$TAP_TMP/c.json")" "task.other_cpu.tstorm.share" \
	"the first mechanism is tstorm's CPU share"
sed -n 4p "$TAP_TMP/c.txt" | grep -q '^  sched delay <- tstorm, a program and not the kernel (a confounder)'
ok $? "the first mechanism line: sched delay <- tstorm, said as a program, not the kernel"
top=$(jq -r '[.explanations[0].decomposition.parts[] | select(.share_pct != null)] |
	max_by(.share_pct) | .metric' "$TAP_TMP/c.json")
is "$top" "task.path.sched_delay.per_op" "sched delay carries the largest share of the change"
grep -q '^  run time <- hard IRQ local_timer while the benchmark ran' "$TAP_TMP/c.txt"
ok $? "the run time's line names the local timer interrupts (the hrtimer's)"
grep -q 'expiries of timer timerfd_tmrproc' "$TAP_TMP/c.txt"
ok $? "the headline names timerfd_tmrproc's expiries"
! sed '/^tickscope compare/q' "$TAP_TMP/c.txt" |
	grep -Eq '([1-9][0-9][0-9]|[0-9]{4,})(\.[0-9]+)?% of the change|more than the change'
ok $? "no share of the change over 100% in the headline"
! sed '/^tickscope compare/q' "$TAP_TMP/c.txt" |
	grep -Eq '<- .*(tick_stop|idle exits|IPIs|rcu|kworker|ksoftirqd|update_balloon)'
ok $? "no tick, idle, IPI, RCU, kworker or one-a-second work named as a mechanism"
grep -q '^  ! tstorm, a program and not a kernel thread, ran beside the benchmark in every run of timer-storm' \
	"$TAP_TMP/c.txt"
ok $? "tstorm is a confounder too"

# --- the figures against perf's tools, run by run ---
# perf_run PERF_DATA KALLSYMS: "timerfd_tmrproc expiries (perf script), the ping-pong tasks'
# sched delay and tstorm's run time (perf sched timehist, ms), the trace's span (s)"
perf_run() {
	n=$(perf script -i "$1" --kallsyms "$2" -F event,trace 2>/dev/null |
		grep -c 'hrtimer_expire_entry:.*function=timerfd_tmrproc')
	span=$(perf script -i "$1" -F time 2>/dev/null |
		awk 'NR == 1 { a = $1 + 0 } { b = $1 + 0 } END { printf "%.6f", b - a }')
	perf sched timehist -i "$1" --kallsyms "$2" 2>/dev/null |
		awk -v n="$n" -v span="$span" 'NR > 3 { c = $3; sub(/\[.*/, "", c)
			if (c == "pingpong" || c == "pingpong-echo") d += $5
			if (c == "tstorm") t += $6 }
			END { printf "%d %.6f %.6f %s\n", n, d, t, span }'
}
ops=$(ab_ops "$fx/quiet/run-1")
vi=0
for v in quiet timer-storm; do
	ab_runs timer.expire.timerfd_tmrproc.handler.count $vi >"$TAP_TMP/tfd.$v"
	ab_runs task.path.sched_delay.per_op $vi >"$TAP_TMP/delay.$v"
	ab_runs task.other_cpu.tstorm.share $vi >"$TAP_TMP/share.$v"
	ab_perf_runs "$fx/$v" perf_run "$TAP_TMP/perf.$v"
	vi=$((vi + 1))
done
# timerfd_tmrproc: perf script's count a run is compare's (a quiet run: none, no figure)
paste -d' ' "$TAP_TMP/perf.timer-storm" "$TAP_TMP/tfd.timer-storm" |
	awk '$1 < 500 || $1 != $5 { bad = 1 } END { exit bad }'
ok $? "timer-storm: timerfd_tmrproc expiries a run are perf script's (500 or more each)"
diag "perf script, timerfd_tmrproc a run: quiet $(cut -d' ' -f1 "$TAP_TMP/perf.quiet" | tr '\n' ' ')| timer-storm $(cut -d' ' -f1 "$TAP_TMP/perf.timer-storm" | tr '\n' ' ')"
paste -d' ' "$TAP_TMP/perf.quiet" "$TAP_TMP/tfd.quiet" |
	awk '$1 != 0 || ($5 != "null" && $5 != 0) { bad = 1 } END { exit bad }'
ok $? "quiet: no timerfd_tmrproc expiry, in perf script as in compare"
# sched delay: perf sched timehist's sum over the ping-pong tasks per round trip (ms -> ns)
# is compare's time line's sched delay within 15% (the time line counts an instant once
# when both tasks wait; timehist sums each task's)
for v in quiet timer-storm; do
	paste -d' ' "$TAP_TMP/perf.$v" "$TAP_TMP/delay.$v" |
		awk -v ops="$ops" '{ t = $2 * 1e6 / ops; if (!(t > 0) || $5 < 0.85 * t || $5 > 1.15 * t) bad = 1 }
			END { exit bad }'
	ok $? "$v: sched delay per round trip is perf sched timehist's within 15%, run by run"
	diag "$v: timehist $(awk -v ops="$ops" '{ printf "%.1f ", $2 * 1e6 / ops / 1000 }' "$TAP_TMP/perf.$v")µs/op; compare $(awk '{ printf "%.1f ", $1 / 1000 }' "$TAP_TMP/delay.$v")µs/op"
done
# tstorm's CPU share: its run time (timehist) over both CPUs' time across the trace's span
paste -d' ' "$TAP_TMP/perf.timer-storm" "$TAP_TMP/share.timer-storm" |
	awk '{ s = 100 * $3 / 1000 / (2 * $4); if (!(s > 5) || $5 < 0.9 * s || $5 > 1.1 * s) bad = 1 }
		END { exit bad }'
ok $? "timer-storm: tstorm's CPU share is its perf sched timehist run time over 2 CPUs x the trace, within 10%"
diag "tstorm's share: timehist $(awk '{ printf "%.1f ", 100 * $3 / 1000 / (2 * $4) }' "$TAP_TMP/perf.timer-storm")%; compare $(awk '{ printf "%.1f ", $1 }' "$TAP_TMP/share.timer-storm")%"
awk '$3 != 0 { bad = 1 } END { exit bad }' "$TAP_TMP/perf.quiet"
ok $? "quiet: tstorm never ran (perf sched timehist)"

ab_committed "$fx"
tap_done
