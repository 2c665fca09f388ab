# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Shared by bench.sh and bench-growth.sh (sourced, with $top set): the tools and folders they
# run with, and the events of make bench's trace.
# shellcheck disable=SC2034 # used by the scripts that source it

: "${TS_BUILD:=$top/build}"
TICKSCOPE=$TS_BUILD/tickscope
PERF=${PERF:-perf}
STRESS_NG=${STRESS_NG:-stress-ng}
TIME=/usr/bin/time
DIR=${BENCH_DIR:-$top/.cache/bench}

# bench_events TRACEFS: the events of the trace that this kernel has, comma-separated
bench_events() {
	for e in sched:sched_switch sched:sched_waking sched:sched_wakeup sched:sched_wakeup_new \
		sched:sched_migrate_task sched:sched_process_fork sched:sched_process_exit \
		sched:sched_stat_runtime power:cpu_idle timer:hrtimer_start \
		timer:hrtimer_expire_entry timer:hrtimer_expire_exit timer:timer_start \
		timer:timer_expire_entry rcu:rcu_utilization workqueue:workqueue_execute_start \
		workqueue:workqueue_execute_end; do
		grep -qx "$e" "$1/available_events" && printf '%s,' "$e"
	done | sed 's/,$//'
}

# bench_samples FILE: the samples `tickscope info` counts in FILE; when info fails (its message
# on stderr) or prints no count, says so and exits 1. Taken from a pipe, a failing info's empty
# count read as 0, and the -z recording kept doubling its operations.
bench_samples() {
	_bs=$("$TICKSCOPE" info -i "$1") || {
		echo "bench: tickscope info -i $1 failed (its message above)" >&2
		exit 1
	}
	_bs=$(printf '%s\n' "$_bs" | sed -n 's/^samples: *//p')
	case $_bs in
	'' | *[!0-9]*)
		echo "bench: tickscope info -i $1 printed no sample count" >&2
		exit 1
		;;
	esac
	echo "$_bs"
}

# bench_fifo: sets FIFO to "chrt -f 10" when this user may run a command at SCHED_FIFO priority
# 10 (root with chrt; BENCH_FIFO=0 says no), else empty. The goals about what a second core buys
# (report's reading threads against perf sched latency's one, compare's workers) are measured
# with it: a FIFO task takes a CPU from every CFS task, so both commands of a round get the
# machine's two cores whatever other sessions run, as on a host of their own, where CFS with
# autogroup gave this session's process group a share of them (0.27-0.32 of a CPU at load 20,
# issue 33). The kernel's RT throttling (sched_rt_runtime_us) still leaves the rest 5% of each
# CPU, and so may pause a command that runs a CPU for more than 0.95 s of a second: at most 5%.
bench_fifo() {
	FIFO=
	[ "${BENCH_FIFO:-1}" != 0 ] || return 0
	if chrt -f 10 true 2>/dev/null; then
		FIFO="chrt -f 10"
	fi
}

# bench_timer DIR: sets TIMER to scripts/bench-time.c built into DIR with the C compiler ($CC,
# else cc), which times one run of a command from its fork to its reaping; empty when it cannot
# be built (the caller then times with `date` around /usr/bin/time, whose own processes add
# 15-90 ms to every run on this project's 2-core VM: issue 33)
bench_timer() {
	TIMER=
	if "${CC:-cc}" -O2 -o "$1/bench-time" "$top/scripts/bench-time.c" 2>/dev/null; then
		TIMER=$1/bench-time
	fi
}

# bench_run FILE CMD...: one run of CMD with the caller's redirections, its exit status
# returned; writes "KB USER SYS WALL" to FILE (peak RSS in KB; user, system and wall seconds).
# With $TIMER (bench_timer) the CPU times are in microseconds and the wall time runs from the
# fork to the reaping; without it, GNU time's 10 ms CPU steps and `date` around it for the wall.
bench_run() {
	_bf=$1
	shift
	if [ -n "${TIMER:-}" ]; then
		"$TIMER" -o "$_bf" "$@" || return
		bench_rt_rest "$1"
		return
	fi
	_b0=$(date +%s%N)
	"$TIME" -f '%M %U %S' -o "$_bf.gnu" "$@" || return
	_b1=$(date +%s%N)
	awk -v a="$_b0" -v b="$_b1" '{ printf "%s %s %s %.6f\n", $1, $2, $3, (b - a) / 1e9 }' \
		"$_bf.gnu" >"$_bf"
	bench_rt_rest "$1"
}

# bench_rt_rest WORD: after a run at a real-time policy (WORD is chrt), a rest of one RT period
# when real-time throttling is on (sched_rt_runtime_us below its period). A command that ran at
# SCHED_FIFO longer than the runtime (perf sched latency, 1.0-1.6 s) left its CPU throttled
# until the period's end, and the next command at SCHED_FIFO waited for it: tickscope report
# run at once after perf sched latency took 304-351 ms in 4 of 6 turns against 231-253 ms in
# 6 of 6 after a rest of one period (calm machine).
bench_rt_rest() {
	[ "$1" = chrt ] || return 0
	_rt=$(cat /proc/sys/kernel/sched_rt_runtime_us 2>/dev/null) || return 0
	_rp=$(cat /proc/sys/kernel/sched_rt_period_us 2>/dev/null) || return 0
	[ "$_rt" -ge 0 ] && [ "$_rt" -lt "$_rp" ] || return 0
	sleep "$(awk -v p="$_rp" 'BEGIN { printf "%.3f", p / 1e6 + 0.05 }')"
}
