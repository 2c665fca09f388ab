// SPDX-License-Identifier: GPL-2.0-only
/*
 * The class rules shared by the analyses and the libtraceevent plugin: pure functions of a
 * name or a number, no state. Linked into the plugin with hidden symbols.
 */
#include <string.h>

#include "tickscope/classify.h"
#include "tickscope/event.h"

/* Whether @name is one of the NULL-terminated @list. */
static int in_list(const char *name, const char *const *list)
{
	int i;

	for (i = 0; name && list[i]; i++)
		if (!strcmp(name, list[i]))
			return 1;
	return 0;
}

int ts_class_is_tick(const char *fn)
{
	/* The tick's hrtimer callback across kernels: 6.10 renamed tick_sched_timer. */
	static const char *const ticks[] = { "tick_sched_timer", "tick_nohz_handler",
					     "tick_nohz_highres_handler", NULL };

	return in_list(fn, ticks);
}

const char *ts_class_hrtimer(const char *fn)
{
	/*
	 * The scheduler's own hrtimers (hrtick, the RT and CFS bandwidth periods, SCHED_DEADLINE's
	 * replenishment and inactive timers) and hrtimer_wakeup, which wakes a task sleeping in
	 * nanosleep or schedule_hrtimeout().
	 */
	static const char *const sched[] = { "hrtick",
					     "hrtimer_wakeup",
					     "sched_rt_period_timer",
					     "sched_cfs_period_timer",
					     "sched_cfs_slack_timer",
					     "dl_task_timer",
					     "inactive_task_timer",
					     NULL };

	if (ts_class_is_tick(fn))
		return "tick";
	if (in_list(fn, sched))
		return "sched";
	/* watchdog_timer_fn: the softlockup detector's per-CPU timer (and its hardlockup kick) */
	if (fn && strstr(fn, "watchdog"))
		return "watchdog";
	return "other";
}

int ts_class_requeues_runnable(const char *fn)
{
	/*
	 * kernel/sched/fair.c: sched_cfs_period_timer -> distribute_cfs_runtime ->
	 * unthrottle_cfs_rq, sched_cfs_slack_timer likewise; rt.c: sched_rt_period_timer ->
	 * do_sched_rt_period_timer unthrottles rt_rqs; deadline.c: dl_task_timer re-enqueues a
	 * throttled task; core.c: hrtick resched_curr()s at the slice's end. Not hrtimer_wakeup
	 * (a sleeper's wake) nor inactive_task_timer (bandwidth accounting only).
	 */
	static const char *const requeue[] = { "sched_cfs_period_timer",
					       "sched_cfs_slack_timer",
					       "sched_rt_period_timer",
					       "dl_task_timer",
					       "hrtick",
					       NULL };

	return in_list(fn, requeue);
}

const char *ts_class_work(const char *fn)
{
	if (!fn)
		return "other";
	/* vmstat_update (per CPU) and vmstat_shepherd, which queues it where counters moved */
	if (!strncmp(fn, "vmstat_", 7))
		return "vmstat";
	/* deferred shrinker work and the shrinkers' own callbacks (*_shrink_*, shrink_*) */
	if (strstr(fn, "shrink"))
		return "shrinker";
	/*
	 * RCU and SRCU work: process_srcu, srcu_invoke_callbacks, srcu_delay_timer,
	 * wait_rcu_exp_gp, kfree_rcu_monitor, rcu_*. No kernel function outside RCU has "rcu"
	 * in its name ("percpu" does not contain it).
	 */
	if (strstr(fn, "rcu"))
		return "rcu";
	return "other";
}

const char *ts_class_task_state(uint64_t raw, uint64_t report_max)
{
	/* TASK_REPORT's bits from 0x1 up, as the kernel's sched_switch format prints them */
	static const char *const letters[] = { "S", "D", "T", "t", "X", "Z", "P", "I" };
	unsigned int i;

	switch (ts_task_state_class(raw, report_max)) {
	case TS_STATE_RUNNING:
		return raw ? "R+" : "R";
	case TS_STATE_SLEEPING:
		return "S";
	case TS_STATE_DISK:
		return "D";
	default:
		break;
	}
	for (i = 2; i < sizeof(letters) / sizeof(letters[0]); i++)
		if (raw & (1ULL << i))
			return letters[i];
	return "?";
}

const char *ts_class_softirq(uint64_t vec)
{
	/* the kernel's softirq_to_name[], in enum order */
	static const char *const names[] = { "HI",	 "TIMER",   "NET_TX", "NET_RX",	 "BLOCK",
					     "IRQ_POLL", "TASKLET", "SCHED",  "HRTIMER", "RCU" };

	return vec < sizeof(names) / sizeof(names[0]) ? names[vec] : NULL;
}

const char *ts_class_tick_dep(uint64_t mask)
{
	/* TICK_DEP_BIT_*, bit 0 up (include/linux/tick.h); RCU_EXP is 5.7's */
	static const char *const names[] = { "POSIX_TIMER",    "PERF_EVENTS", "SCHED",
					     "CLOCK_UNSTABLE", "RCU",	      "RCU_EXP" };
	unsigned int i;

	if (!mask)
		return "NONE";
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (mask & (1ULL << i))
			return names[i];
	return NULL;
}

int ts_class_is_ipi(const char *name)
{
	/* the receiving CPU's: ipi_raise and ipi_send_* fire on the sender, ipi_exit after */
	return name && (!strcmp(name, "ipi:ipi_entry") || strstr(name, ":reschedule_entry") ||
			strstr(name, ":call_function_entry") ||
			strstr(name, ":call_function_single_entry"));
}

const char *ts_class_ipi_reason(const char *reason, char *buf, unsigned int len)
{
	/* arm64's ipi_types[] texts (arch/arm64/kernel/smp.c), matched on a distinctive word */
	static const struct {
		const char *word, *kind;
	} kinds[] = {
		{ "Rescheduling", "reschedule" }, { "Function call", "call_function" },
		{ "stop", "cpu_stop" },		  { "Timer broadcast", "timer_broadcast" },
		{ "IRQ work", "irq_work" },	  { "wake-up", "wakeup" },
	};
	unsigned int i;

	if (!reason)
		return "-";
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strstr(reason, kinds[i].word))
			return kinds[i].kind;
	for (i = 0; len && i < len - 1 && reason[i]; i++)
		buf[i] = reason[i] == ' ' ? '_' : reason[i];
	if (len)
		buf[i] = 0;
	return buf;
}
