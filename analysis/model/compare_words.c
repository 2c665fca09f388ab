// SPDX-License-Identifier: GPL-2.0-only
/*
 * A metric's name in kernel words, for what compare prints to a person: the text's ranked
 * list and metric table, the HTML's tables. The raw names (docs/metrics.md) stay in the JSON
 * and TSV, and in the text with --metric-names. One pattern per family; "*" is the variable
 * part (a class, a function, a stack), put into the words where "%s" is.
 */
#include <stdio.h>
#include <string.h>

#include "tickscope/compare.h"
#include "compare_priv.h"

struct pat {
	const char *pat, *words;
	const char *(*part)(const char *s, char *buf, size_t n); /* the "*" in words, or NULL */
};

static const char *lookup(const char *const (*t)[2], size_t nt, const char *s)
{
	for (size_t i = 0; i < nt; i++)
		if (!strcmp(t[i][0], s))
			return t[i][1];
	return s;
}

#define LOOKUP(t, s) lookup(t, sizeof(t) / sizeof(t[0]), s)

static const char *as_is(const char *s, char *buf, size_t n)
{
	snprintf(buf, n, "%s", s);
	return buf;
}

/*
 * A task class (ts_sched_task_class(): a name cut at its '/', without trailing digits) as its
 * threads are named in ps: a kernel's per-CPU or per-device threads are known by their whole
 * name ("pr" alone says nothing; PREEMPT_RT's console printers are pr/ttyS0). A program or a
 * context (softirq, swapper) as it is.
 */
static const char *task_class(const char *s, char *buf, size_t n)
{
	snprintf(buf, n, "%s", ts_cmp_class_ps(s));
	return buf;
}

/* What ended an idle period (idle.exits.<cause>.per_s). */
static const char *exit_cause(const char *s, char *buf, size_t n)
{
	static const char *const t[][2] = {
		{ "tick", "the tick" },
		{ "hrtimer", "hrtimers (the tick among them)" },
		{ "other_hrtimer", "hrtimers other than the tick" },
		{ "ipi", "IPIs" },
		{ "resched", "a reschedule" },
		{ "timer", "timer_list timers" },
		{ "untraced", "an interrupt not traced" },
		{ "wakeup", "a wakeup" },
		{ "other", "other causes" },
	};

	snprintf(buf, n, "%s", LOOKUP(t, s));
	return buf;
}

static const char *migrate_cause(const char *s, char *buf, size_t n)
{
	static const char *const t[][2] = {
		{ "balance", "load balancing" },
		{ "wake_affine", "wake-affine placement" },
		{ "wake_other", "wakeup placement elsewhere" },
		{ "unknown", "an unknown cause" },
	};

	snprintf(buf, n, "%s", LOOKUP(t, s));
	return buf;
}

static const char *wake_class(const char *s, char *buf, size_t n)
{
	static const char *const t[][2] = {
		{ "same_cpu_idle", "on the waker's own idle CPU" },
		{ "same_cpu_busy", "on the waker's own busy CPU" },
		{ "cross_cpu_idle", "to an idle CPU on the other side" },
		{ "cross_cpu_busy", "to a busy CPU on the other side" },
	};

	snprintf(buf, n, "%s", LOOKUP(t, s));
	return buf;
}

static const char *state_words(const char *s)
{
	static const char *const t[][2] = {
		{ "S", "sleeping (S)" },
		{ "D", "blocked (D)" },
		{ "R", "preempted (R)" },
		{ "other", "in other states" },
	};

	return LOOKUP(t, s);
}

static const char *off_state(const char *s, char *buf, size_t n)
{
	snprintf(buf, n, "%s", state_words(s));
	return buf;
}

static const char *idle_state(const char *s, char *buf, size_t n)
{
	if (!strncmp(s, "state", 5))
		snprintf(buf, n, "idle state %s", s + 5);
	else
		snprintf(buf, n, "%s", s);
	return buf;
}

const char *ts_cmp_stack_words(const char *cls, char *out, size_t n)
{
	static const char *const st[] = { ".R", ".S", ".D", ".other" };
	size_t len = 0, end = strlen(cls);
	const char *state = NULL;

	for (size_t i = 0; i < sizeof(st) / sizeof(st[0]); i++)
		if (end > strlen(st[i]) && !strcmp(cls + end - strlen(st[i]), st[i])) {
			state = cls + end - strlen(st[i]) + 1;
			end -= strlen(st[i]);
			break;
		}
	out[0] = '\0';
	for (size_t i = 0; i < end && len + 5 < n; i++)
		len += cls[i] == ';' ? snprintf(out + len, n - len, " <- ") :
				       snprintf(out + len, n - len, "%c", cls[i]);
	if (state && len < n)
		snprintf(out + len, n - len, " (%s)", state);
	return out;
}

/* Figures of one value each (no statistic after them); the first match is taken. */
static const struct pat plain[] = {
	{ "task.path.wake_delivery.per_op", "wake delivery, per operation", NULL },
	{ "task.path.sched_delay.per_op", "sched delay, per operation", NULL },
	{ "task.path.run.per_op", "run time, per operation", NULL },
	{ "task.path.none.per_op", "time with every task of the benchmark asleep, per operation",
	  NULL },
	{ "task.path.run.own.per_op", "run time, the benchmark's own part, per operation", NULL },
	{ "task.path.run.hardirq.per_op", "run time taken by hard interrupts, per operation",
	  NULL },
	{ "task.path.run.softirq.per_op", "run time taken by softirqs, per operation", NULL },
	{ "task.path.run.timers.per_op", "run time taken by timer callbacks, per operation", NULL },
	{ "task.path.run.tick.per_op", "run time taken by the tick's handler, per operation",
	  NULL },
	{ "task.path.run.hardirq.*.per_op", "run time taken by hard IRQ %s, per operation", as_is },
	{ "task.path.run.softirq.*.per_op", "run time taken by softirq %s, per operation", as_is },
	{ "task.path.run.timer.*.per_op", "run time taken by timer callback %s, per operation",
	  as_is },
	{ "task.wake_delivery.per_op", "wake delivery per operation, summed over the tasks", NULL },
	{ "task.sched_delay_rq.per_op", "sched delay (run-queue rule) per operation, summed",
	  NULL },
	{ "task.sched_delay_perf.per_op", "sched delay (perf's rule) per operation, summed", NULL },
	{ "task.run.per_op", "run time per operation, summed over the tasks", NULL },
	{ "task.wakeup_latency.per_op", "wakeup latency per operation, summed", NULL },
	{ "task.off_cpu.*.per_op", "the benchmark's off-CPU time %s, per operation", off_state },
	{ "task.migrations.per_op", "migrations of the benchmark's tasks, per operation", NULL },
	{ "task.wakeups.per_op", "wakeups of the benchmark's tasks, per operation", NULL },
	{ "task.rt_switches.share",
	  "switch-outs of the benchmark's tasks at a real-time or deadline priority", NULL },
	{ "task.wake_class.same_idle.share",
	  "wakes of the benchmark's tasks on the waker's own idle CPU", NULL },
	{ "task.wake_class.same_busy.share",
	  "wakes of the benchmark's tasks on the waker's own busy CPU", NULL },
	{ "task.wake_class.cross_idle.share",
	  "wakes of the benchmark's tasks to an idle CPU on the other side", NULL },
	{ "task.wake_class.cross_busy.share",
	  "wakes of the benchmark's tasks to a busy CPU on the other side", NULL },
	{ "task.wake_delivery.p50", "wake delivery of the benchmark's tasks, median", NULL },
	{ "task.other_cpu.share", "other tasks' share of the CPU time", NULL },
	{ "task.other_cpu.*.share", "share of the CPU time beside the benchmark of %s",
	  task_class },
	{ "task.supervisors.count", "the benchmark's supervisors (tasks that wait for workers)",
	  NULL },
	{ "task.offcpu_stacks.floor.per_op",
	  "the heaviest wait of the benchmark's tasks not listed", NULL },
	{ "task.offcpu_stack.*.per_op", "the benchmark's waits in %s, per operation",
	  ts_cmp_stack_words },
	{ "task.woken_by.wakes", "wakes of the benchmark's tasks seen", NULL },
	{ "task.woken_by.*.share", "wakes of the benchmark's tasks by %s", task_class },
	{ "task.woken_by_work.*.share", "wakes of the benchmark's tasks by work item %s", as_is },
	{ "bench.time_per_op", "one instance's time per bogo op", NULL },
	{ "bench.cpu_per_op", "one instance's CPU time (usr+sys) per bogo op", NULL },
	{ "bench.off_cpu_per_op", "one instance's off-CPU time per bogo op", NULL },
	{ "bench.usecs_per_op", "µs per operation", NULL },
	{ "bench.ops_per_s", "operations per second", NULL },
	{ "bench.total_time", "total time", NULL },
	{ "bench.*.bogo_ops_per_s_real", "%s bogo ops/s (real time)", as_is },
	{ "bench.*.bogo_ops_per_s_usr_sys", "%s bogo ops/s (usr+sys time)", as_is },
	{ "bench.*.bogo_ops", "%s bogo ops", as_is },
	{ "bench.*.usr_time", "%s user time", as_is },
	{ "bench.*.sys_time", "%s system time", as_is },
	{ "bench.*", "%s", as_is }, /* the benchmark's own word: "latency" */
	{ "offcpu_stack_per_op.*", "all tasks' waits in %s, per operation", ts_cmp_stack_words },
	{ "idle.exits.per_s", "idle exits, per second", NULL },
	{ "idle.exits.*.per_s", "idle exits by %s, per second", exit_cause },
	{ "idle.entries.per_s", "idle entries, per second", NULL },
	/*
	 * tick_nohz_stop_tick() traces a success on an idle CPU and on a nohz_full CPU running
	 * one task; check_tick_dependency(), the only failure, runs on nohz_full CPUs alone
	 */
	{ "idle.tick_stop.ok.per_s",
	  "CPUs stopping the tick (tick_stop: idle, or nohz_full running one task), per second",
	  NULL },
	{ "idle.tick_stop.fail.per_s",
	  "nohz_full CPUs kept from stopping the tick (tick_stop failed: a dependency), per second",
	  NULL },
	{ "idle.tick_stop.*.count", "the tick kept running for %s (tick_stop's dependency)",
	  as_is },
	{ "idlepath.entry.*", "idle-entry time (switch to idle -> idle state), %s", as_is },
	{ "idlepath.exit.*", "idle-exit time (idle state -> switch away), %s", as_is },
	{ "idlepath.wake.no_ipi.per_s",
	  "wakes of idle CPUs without an IPI (polling, or still entering idle), per second", NULL },
	{ "idlepath.ipi_in_idle.per_s", "IPIs waking CPUs in an idle state, per second", NULL },
	{ "idlepath.ipi_entering.per_s",
	  "IPIs waking CPUs still entering idle (switched to idle, no state yet), per second",
	  NULL },
	{ "idlepath.unentered.per_s",
	  "switches to idle left again before any idle state, per second", NULL },
	{ "idlepath.tick_restarts.per_s", "tick restarts on idle exit, per second", NULL },
	{ "idlepath.dwork_exits.*.per_s",
	  "idle exits by the timer of %s (a delayed work that is not deferrable), per second",
	  as_is },
	{ "idlepath.*", "the idle path: %s", as_is },
	{ "migrate.per_s", "task migrations, per second", NULL },
	{ "migrate.*.per_s", "task migrations by %s, per second", migrate_cause },
	{ "rcu.callbacks.invoked.per_s", "RCU callbacks invoked, per second", NULL },
	{ "rcu.callbacks.queued.per_s", "RCU callbacks queued, per second", NULL },
	{ "rcu.gp.per_s", "RCU grace periods, per second", NULL },
	{ "sched.migrations.per_s", "migrations, per second", NULL },
	{ "sched.switches.per_s", "context switches, per second", NULL },
	{ "sched.wakeups.per_s", "wakeups, per second", NULL },
	{ "sched.threads.count", "threads (perf's COMM records)", NULL },
	{ "sched.threads.*.count", "%s threads (perf's COMM records)", task_class },
	{ "sched.wake_class.*.share", "share of the wakes %s", wake_class },
	{ "sched.woken_by.wakes", "wakes seen (sched_waking)", NULL },
	{ "sched.woken_by.*.share", "wakes of all tasks by %s", task_class },
	{ "sched.offcpu_stacks.count", "distinct off-CPU stacks", NULL },
	{ "shrinker.calls.per_s", "shrinker calls, per second", NULL },
	{ "shrinker.freed.count", "objects freed by shrinkers", NULL },
	{ "shrinker.scanned.count", "objects scanned by shrinkers", NULL },
	{ "shrinker.*.calls.per_s", "calls of shrinker %s, per second", as_is },
	{ "timer.expire.per_s", "timer expiries, per second", NULL },
	{ "timer.expire.hrtimer.per_s", "hrtimer expiries (the tick among them), per second",
	  NULL },
	{ "timer.expire.timer.per_s", "timer_list expiries, per second", NULL },
	{ "timer.expire.tick.per_s", "expiries of the tick, per second", NULL },
	{ "timer.expire.*.per_s", "expiries of timer %s, per second", as_is },
	{ "workqueue.work.per_s", "work items run, per second", NULL },
	{ "workqueue.work.*.per_s", "runs of work item %s, per second", as_is },
	{ "irq.tick.per_s", "the tick's interrupts, per second", NULL },
	{ "irq.*.ns_per_s", "time in %s, per second of the trace", as_is },
	{ "irq.hardirq.*.per_s", "hard IRQ %s, per second", as_is },
	{ "irq.softirq.*.per_s", "softirq %s, per second", as_is },
	{ "irq.timer.*.per_s", "timer callback %s in interrupts, per second", as_is },
};

/* Distributions: the name without its statistic (.p50, .max, .count, ...). */
static const struct pat dist[] = {
	{ "sched.delay", "sched delay (runnable, waiting for a CPU)", NULL },
	{ "sched.delay_perf", "sched delay (perf sched's rule)", NULL },
	{ "sched.run", "run time per switch-in", NULL },
	{ "sched.off_cpu.*", "off-CPU time %s", off_state },
	{ "sched.offcpu_stack.*", "waits in %s", ts_cmp_stack_words },
	{ "sched.wake_delivery", "wake delivery (sched_waking to sched_wakeup)", NULL },
	{ "sched.wakeup_latency", "wakeup latency (sched_waking to running)", NULL },
	{ "sched.wake_class.*.wake_delivery", "wake delivery of wakes %s", wake_class },
	{ "sched.wake_class.*.wakeup_latency", "wakeup latency of wakes %s", wake_class },
	{ "sched.wake_class.*", "wakes %s", wake_class },
	{ "sched.threads", "threads", NULL },
	{ "idle.residency.*", "residency in %s", idle_state },
	{ "rcu.gp.*", "%s grace period length", as_is },
	{ "rcu.window.*", "RCU's work in %s (rcu_utilization), per call", as_is },
	{ "shrinker.duration", "time of a shrinker call", NULL },
	{ "shrinker.*.duration", "time of a call of shrinker %s", as_is },
	{ "timer.expire.*.handler", "timer callback %s, time per call", as_is },
	{ "workqueue.work.*.duration", "work item %s, run time per call", as_is },
	{ "workqueue.work.*.queue_latency", "work item %s, queue latency (queued to running)",
	  as_is },
	{ "irq.tick", "the tick's interrupt, time per call", NULL },
	{ "irq.hardirq.*", "hard IRQ %s, time per call", as_is },
	{ "irq.softirq.*", "softirq %s, time per call", as_is },
	{ "irq.timer.*", "timer callback %s in interrupts, time per call", as_is },
};

/* @name against @p ("pre*suf" or exact): the "*" part into @star; 0 on a match. */
static int match(const char *p, const char *name, char *star, size_t n)
{
	const char *s = strchr(p, '*');
	size_t ln = strlen(name), pre, suf;

	if (!s)
		return strcmp(p, name);
	pre = (size_t)(s - p);
	suf = strlen(s + 1);
	if (ln <= pre + suf || strncmp(name, p, pre) || strcmp(name + ln - suf, s + 1))
		return -1;
	snprintf(star, n, "%.*s", (int)(ln - pre - suf), name + pre);
	return 0;
}

static int words_of(const struct pat *t, size_t nt, const char *name, char *out, size_t n)
{
	char star[256], part[320];

	for (size_t i = 0; i < nt; i++) {
		if (match(t[i].pat, name, star, sizeof(star)))
			continue;
		if (t[i].part)
			snprintf(out, n, t[i].words, t[i].part(star, part, sizeof(part)));
		else
			snprintf(out, n, "%s", t[i].words);
		return 0;
	}
	return -1;
}

static const char *const stats[][2] = {
	{ ".p50", "median" }, { ".p90", "p90" },   { ".p99", "p99" },	  { ".max", "max" },
	{ ".min", "min" },    { ".mean", "mean" }, { ".count", "count" }, { ".sum", "total" },
};

const char *ts_cmp_metric_words(const char *name, char *out, size_t n)
{
	char base[320], w[400];
	const char *hash = strchr(name, '#'); /* a name made unique: "....sum#2" */
	size_t len = hash ? (size_t)(hash - name) : strlen(name);

	snprintf(base, sizeof(base), "%.*s", (int)len, name);
	if (!words_of(plain, sizeof(plain) / sizeof(plain[0]), base, out, n))
		return out;
	/* the "woken_by" of a stack: who ended its waits */
	if (!strncmp(base, "task.offcpu_stack.", 18) && strstr(base, ".woken_by.")) {
		char *wb = strstr(base, ".woken_by."), st[256], cls[64];

		snprintf(cls, sizeof(cls), "%.*s", (int)(strlen(wb + 10) - 6), wb + 10);
		*wb = '\0';
		snprintf(out, n, "the benchmark's waits in %s, ended by %s",
			 ts_cmp_stack_words(base + 18, st, sizeof(st)), cls);
		return out;
	}
	for (size_t i = 0; i < sizeof(stats) / sizeof(stats[0]); i++) {
		size_t k = strlen(stats[i][0]), lb = strlen(base);

		if (lb <= k || strcmp(base + lb - k, stats[i][0]))
			continue;
		base[lb - k] = '\0';
		if (words_of(dist, sizeof(dist) / sizeof(dist[0]), base, w, sizeof(w)))
			break;
		snprintf(out, n, "%s, %s", w, stats[i][1]);
		return out;
	}
	snprintf(out, n, "%s", name); /* no words for it: its name */
	return out;
}
