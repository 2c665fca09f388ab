// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mechanisms of the headline: the chain rules below (written out in docs/compare.md) make
 * a row a kernel mechanism that feeds one component of the decomposition when it changed as
 * its rule asks; the mechanisms are ranked, best first, and those that say again what another
 * says are left out. compare_headline.c writes them as lines.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_chain.h"
#include "tickscope/classify.h"

/* The decomposition's parts (their metrics) each component stands for. */
static const char *const comp_metric[C_NR][2] = {
	[C_RUN] = { "task.path.run.per_op", "bench.cpu_per_op" },
	[C_WAKE] = { "task.path.wake_delivery.per_op", NULL },
	[C_DELAY] = { "task.path.sched_delay.per_op", NULL },
	[C_OFFCPU] = { "bench.off_cpu_per_op", NULL },
};

/* The chain rules: docs/compare.md has them as a table; keep both the same. */
static const struct chain_rule rules[] = {
	{ C_RUN, "task.path.run.own.per_op", NULL,
	  "the benchmark's own run time, outside interrupts (its code, its system calls and faults)",
	  "irq:irq_handler_entry", H_CHANGED },
	{ C_RUN, "task.path.run.tick.per_op", NULL, "the tick's handler while the benchmark ran",
	  "irq:irq_handler_entry", H_CHANGED },
	{ C_RUN, "task.path.run.hardirq.per_op", NULL, "hard interrupts while the benchmark ran",
	  "irq:irq_handler_entry", H_CHANGED },
	{ C_RUN, "task.path.run.softirq.per_op", NULL, "softirqs while the benchmark ran",
	  "irq:softirq_entry", H_CHANGED },
	{ C_RUN, "task.path.run.timers.per_op", NULL, "timer callbacks while the benchmark ran",
	  "irq:irq_handler_entry", H_CHANGED },
	{ C_RUN, "task.path.run.hardirq.", ".per_op", "hard IRQ %s while the benchmark ran",
	  "irq:irq_handler_entry", H_CHANGED },
	{ C_RUN, "task.path.run.softirq.", ".per_op", "softirq %s while the benchmark ran",
	  "irq:softirq_entry", H_CHANGED },
	{ C_RUN, "task.path.run.timer.", ".per_op", "timer %s while the benchmark ran",
	  "timer:hrtimer_expire_entry", H_CHANGED },
	/*
	 * the tick's class, not one function: 6.10 renamed tick_sched_timer to tick_nohz_handler,
	 * and by the function a 6.1 -> 6.12 A/B said "the tick: its handler runs 180.1 -> 0/s"
	 */
	{ C_RUN, "timer.expire.tick.per_s", NULL,
	  "the tick: its handler (its hrtimer, tick_sched_timer or 6.10's tick_nohz_handler) runs",
	  "timer:hrtimer_expire_entry", H_CHANGED },
	{ C_RUN, "task.migrations.per_op", NULL, "migrations of the benchmark's tasks",
	  "sched:sched_migrate_task", H_CHANGED },
	{ C_WAKE, "idle.tick_stop.ok.per_s", NULL,
	  "CPUs stopping the tick (tick_stop: idle, or nohz_full running one task)",
	  "timer:tick_stop", H_CHANGED },
	{ C_WAKE, "idle.exits.tick.per_s", NULL, "idle exits by the tick", "power:cpu_idle",
	  H_CHANGED },
	{ C_WAKE, "idle.exits.other_hrtimer.per_s", NULL,
	  "idle exits by hrtimers other than the tick", "power:cpu_idle", H_CHANGED },
	{ C_WAKE, "idle.exits.ipi.per_s", NULL, "idle exits by IPIs", "ipi:ipi_entry", H_CHANGED },
	{ C_WAKE, "idlepath.entry.p50", NULL, "idle-entry time, switch to idle -> idle state (p50)",
	  "power:cpu_idle", H_CHANGED },
	{ C_WAKE, "idlepath.entry.p99", NULL, "idle-entry time, switch to idle -> idle state (p99)",
	  "power:cpu_idle", H_CHANGED },
	{ C_WAKE, "idlepath.exit.p50", NULL, "idle-exit time, idle state -> switch away (p50)",
	  "power:cpu_idle", H_CHANGED },
	{ C_WAKE, "idlepath.wake.no_ipi.per_s", NULL,
	  "wakes of idle CPUs without an IPI (polling, or still entering idle)",
	  "sched:sched_wake_idle_without_ipi", H_CHANGED },
	{ C_WAKE, "idlepath.ipi_in_idle.per_s", NULL, "IPIs waking CPUs in an idle state",
	  "ipi:ipi_entry", H_CHANGED },
	{ C_WAKE, "idlepath.tick_restarts.per_s", NULL, "tick restarts on idle exit",
	  "timer:hrtimer_start", H_CHANGED },
	{ C_WAKE, "idlepath.dwork_exits.", ".per_s",
	  "idle exits by the timer of %s (a delayed work that is not deferrable)",
	  "timer:timer_expire_entry", H_CHANGED },
	{ C_WAKE, "workqueue.work.", ".per_s",
	  "runs of work %s (each wakes a kworker, an idle CPU's too)",
	  "workqueue:workqueue_execute_start", H_TESTED },
	{ C_DELAY, "timer.expire.", ".per_s",
	  "expiries of timer %s (the scheduler's: each lets runnable tasks run again)",
	  "timer:hrtimer_expire_entry", H_TESTED },
	{ C_WAKE, "timer.expire.", ".per_s",
	  "expiries of timer %s (each runs in an interrupt, an idle CPU's too)",
	  "timer:timer_expire_entry", H_TESTED },
	{ C_WAKE, "probes.", ".ns_per_idle_entry", "%s's time per idle entry (kprobe pairs)",
	  "kprobe_events", H_CHANGED },
	{ C_WAKE, "task.wake_class.cross_busy.share", NULL,
	  "wakes of the benchmark's tasks sent to a busy CPU on the other side",
	  "sched:sched_waking", H_CHANGED },
	{ C_WAKE, "task.wake_class.cross_idle.share", NULL,
	  "wakes of the benchmark's tasks sent to an idle CPU on the other side",
	  "sched:sched_waking", H_CHANGED },
	{ C_WAKE, "task.wake_class.same_busy.share", NULL,
	  "wakes of the benchmark's tasks on the waker's own busy CPU", "sched:sched_waking",
	  H_CHANGED },
	{ C_WAKE, "task.wake_class.same_idle.share", NULL,
	  "wakes of the benchmark's tasks on the waker's own idle CPU", "sched:sched_waking",
	  H_CHANGED },
	{ C_WAKE, "task.woken_by.", ".share", "wakes of the benchmark's tasks by %s",
	  "sched:sched_waking", H_CHANGED },
	{ C_WAKE, "sched.woken_by.", ".share", "wakes of all tasks by %s", "sched:sched_waking",
	  H_CHANGED },
	{ C_WAKE, "sched.threads.", ".count", "%s, threads of one kernel only",
	  "sched:sched_switch", H_ONLY },
	{ C_DELAY, "task.other_cpu.", ".share", "%s running beside the benchmark (its CPU share)",
	  "sched:sched_switch", H_CHANGED },
	{ C_OFFCPU, "task.offcpu_stack.", ".per_op", "waits in %s", "sched:sched_switch",
	  H_CHANGED },
	{ C_OFFCPU, "task.woken_by_work.", ".share", "work items %s waking the benchmark's tasks",
	  "workqueue:workqueue_execute_start", H_CHANGED },
	{ C_OFFCPU, "probes.", ".duration.p50", "%s's calls (kprobe pairs, p50)", "kprobe_events",
	  H_CHANGED },
	{ C_OFFCPU, "probes.", ".duration.p99", "%s's calls (kprobe pairs, p99)", "kprobe_events",
	  H_CHANGED },
};

/* What some work functions do, in kernel words. */
static const char *work_hint(const char *fn)
{
	if (!strcmp(fn, "srcu_invoke_callbacks"))
		return " (a kworker running SRCU callbacks, which ends SRCU grace-period waits)";
	if (!strcmp(fn, "wait_rcu_exp_gp"))
		return " (a kworker driving an expedited RCU grace period)";
	if (!strcmp(fn, "process_srcu"))
		return " (a kworker driving an SRCU grace period)";
	if (!strcmp(fn, "sched_tick_remote"))
		return " (a housekeeping CPU's 1 Hz tick for a nohz_full CPU that stopped its own)";
	return "";
}

/* What some timer functions do, in kernel words. */
static const char *timer_hint(const char *fn)
{
	if (!strcmp(fn, "process_timeout"))
		return " (schedule_timeout()'s timer: each wakes a task that slept with a timeout)";
	if (!strcmp(fn, "hrtimer_wakeup"))
		return " (a sleep's hrtimer, nanosleep or a timed wait: each wakes its task)";
	if (!strcmp(fn, "delayed_work_timer_fn"))
		return " (a delayed work's timer: each queues its work, waking a kworker)";
	if (!strcmp(fn, "sched_cfs_period_timer"))
		return " (a cpu cgroup's bandwidth period: each refills its quota and unthrottles "
		       "its run queues, whose tasks waited runnable)";
	if (!strcmp(fn, "sched_rt_period_timer"))
		return " (the real-time bandwidth period: armed while SCHED_FIFO/RR tasks run, "
		       "each refills their runtime)";
	if (!strcmp(fn, "sched_cfs_slack_timer"))
		return " (a cpu cgroup's unused quota handed back to its throttled run queues)";
	return "";
}

/* A share (of the CPU time, of the wakes) changed by less than this (pp) is no mechanism. */
#define MIN_PP 1.0

/* The class of "@pre<class>@suf" into @cls, or the name itself for an exact rule; 0 on match */
static int rule_match(const struct chain_rule *ru, const char *name, char *cls, size_t n)
{
	size_t len = strlen(name), p = strlen(ru->pre), q;

	if (!ru->suf) {
		cls[0] = '\0';
		return strcmp(name, ru->pre) ? -1 : 0;
	}
	q = strlen(ru->suf);
	if (strncmp(name, ru->pre, p) || len <= p + q || strcmp(name + len - q, ru->suf))
		return -1;
	if (strstr(name + p, ".woken_by.")) /* who ended a stack's waits: said with the stack */
		return -1;
	snprintf(cls, n, "%.*s", (int)(len - p - q), name + p);
	/*
	 * A timer function's expiries feed the sched delay when the timer lets runnable tasks
	 * run again (a cpu cgroup's bandwidth period unthrottles its run queues: their tasks
	 * waited runnable, not asleep), else the wake delivery
	 */
	if (!strcmp(ru->pre, "timer.expire.") &&
	    (ru->comp == C_DELAY) != !!ts_class_requeues_runnable(cls))
		return -1;
	return 0;
}

/*
 * The part of @v's decomposition that component @k stands for, or NULL. A throughput
 * decomposition (CPU, off-CPU) has no wake delivery nor sched delay of its own: both are
 * inside the off-CPU time, which a wake ends, so their mechanisms (who woke the tasks, where
 * the wakes went, the tick on idle CPUs) feed the off-CPU part.
 */
const struct ts_cmp_part *ts_cmp_comp_part(const struct ts_cmp *c, int v, enum comp k)
{
	const struct ts_cmp_decomp *d = &c->dec[v];

	for (int i = 0; d->kind && i < d->nr; i++)
		for (int j = 0; j < 2 && d->part[i].metric; j++)
			if (comp_metric[k][j] && !strcmp(d->part[i].metric, comp_metric[k][j]))
				return &d->part[i];
	return k == C_WAKE || k == C_DELAY ? ts_cmp_comp_part(c, v, C_OFFCPU) : NULL;
}

/* The unit shown and the factor to it: ns become µs. */
double ts_cmp_show_unit(const char *unit, char *out, size_t n)
{
	if (!strcmp(unit, "ns/op") || !strcmp(unit, "ns")) {
		snprintf(out, n, "%s", unit[2] ? "µs/op" : "µs");
		return 1e-3;
	}
	if (!strncmp(unit, "1/", 2)) {
		snprintf(out, n, "%s", unit + 1);
		return 1;
	}
	snprintf(out, n, "%s", unit);
	return 1;
}

/* "complete" when every run of one side is beyond every run of the other. */
static const char *separation(const struct ts_cmp_cell *a, const struct ts_cmp_cell *b)
{
	if (!a->s.n || !b->s.n)
		return "one side only";
	return a->s.max < b->s.min || b->s.max < a->s.min ? "complete" : "partial";
}

/*
 * Whether every run of one side is beyond every run of the other by more than the two sides'
 * own spread (the range of A's runs plus the range of B's): the gap between the sides is wider
 * than the run-to-run noise they show. Among a few hundred metrics, some separate completely
 * by chance with 3 runs a side (1 in 10 each, under no change); few by a gap that wide (about
 * 1 in 300 in simulations of skewed noise: exponential, log-normal).
 */
static int apart_beyond_spread(const struct ts_cmp_cell *a, const struct ts_cmp_cell *b)
{
	double gap, spread = (a->s.max - a->s.min) + (b->s.max - b->s.min);

	if (strcmp(separation(a, b), "complete"))
		return 0;
	gap = a->s.max < b->s.min ? b->s.min - a->s.max : a->s.min - b->s.max;
	return gap > spread;
}

static double effect_size(const struct ts_cmp_cell *a, const struct ts_cmp_cell *b)
{
	double sa = isnan(a->s.sd) ? 0 : a->s.sd, sb = isnan(b->s.sd) ? 0 : b->s.sd;
	double pooled = sqrt((sa * sa + sb * sb) / 2), d = fabs(b->s.median - a->s.median);

	return pooled > 0 ? d / pooled : d > 0 ? INFINITY : 0;
}

/* The smallest two-sided p of the exact U test with @na and @nb runs: 2 / C(na + nb, na). */
double ts_cmp_runs_min_p(int na, int nb)
{
	return fmin(1, 2 * exp(lgamma(na + 1.0) + lgamma(nb + 1.0) - lgamma(na + nb + 1.0)));
}

/*
 * Whether row @r could show a path switched on or off between @v and the baseline: measured
 * in every run, zero in as many runs as one side has and above zero in the others. Only such
 * a metric can be zero in every run of one side and above zero in every run of the other.
 */
static int switch_at_risk(const struct ts_cmp *c, const struct ts_cmp_row *r, int v)
{
	const int k[2] = { 0, v };
	int zero = 0, pos = 0, n = c->var[0].nr_runs + c->var[v].nr_runs;

	if (!strcmp(r->unit, "%"))
		return 0;
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < c->var[k[i]].nr_runs && j < r->cell[k[i]].s.n; j++) {
			zero += r->cell[k[i]].values[j] == 0;
			pos += r->cell[k[i]].values[j] > 0;
		}
	return zero + pos == n && (zero == c->var[0].nr_runs || zero == c->var[v].nr_runs);
}

/*
 * The chance, when nothing changed, that such a metric's zero runs are all of one side: the
 * runs are exchangeable, so it is 1 in C(na + nb, na) arrangements of the zeros, 2 when both
 * sides have as many runs (2/924 with 6 runs a side).
 */
static double switched_p(int na, int nb)
{
	return fmin(1, (na == nb ? 2 : 1) *
			       exp(lgamma(na + 1.0) + lgamma(nb + 1.0) - lgamma(na + nb + 1.0)));
}

/*
 * Whether rate row @r ("<path>.per_s") moved only by the length of the runs: the count of its
 * events a run ("<path>.duration.count", "<path>.handler.count"), when the summary has it, did
 * not move the way the rate did (the same median, or the other way). A work that runs once a
 * run (kfree_rcu_monitor after boot) is "0.14 -> 0.073/s, every run apart" when the benchmark
 * takes twice as long, one run each time: the trace's length changed, not the path.
 */
static int rate_by_length(const struct ts_cmp *c, const struct ts_cmp_row *r, int v)
{
	static const char *const count_suf[] = { ".duration.count", ".handler.count" };
	size_t len = strlen(r->name), q = strlen(".per_s");

	if (strcmp(r->unit, "1/s") || !ts_cmp_ends(r->name, ".per_s"))
		return 0;
	for (size_t i = 0; i < sizeof(count_suf) / sizeof(count_suf[0]); i++) {
		const struct ts_cmp_row *n;
		char name[256];
		double da, dn;

		snprintf(name, sizeof(name), "%.*s%s", (int)(len - q), r->name, count_suf[i]);
		n = ts_cmp_find(c, name);
		if (!n || !n->cell[0].s.n || !n->cell[v].s.n)
			continue;
		da = r->cell[v].s.median - r->cell[0].s.median;
		dn = n->cell[v].s.median - n->cell[0].s.median;
		return da != 0 && (dn == 0 || (dn > 0) != (da > 0));
	}
	return 0;
}

/* The least part of its component a time must take in every run of one side (part_apart()). */
#define MIN_PART 0.1

/*
 * Whether time row @r (per operation), a part of the time of its rule's component (the tick's
 * handler of the run time, a wait of the off-CPU time), took a part of it, run by run, that
 * separates the sides by more than their own spread, and a tenth of it or more in every run of
 * the side where it is larger: the run's own component is its control. Under TCG on a loaded
 * host every time of a run stretches with the host's stalls (the nohz_full A/B's default runs:
 * run time 3.2 to 10 ms a round trip), so the times' spread hides what their parts keep (the
 * tick's handler: 60-66% of the run time in every default run, 0-0.8% with nohz_full=1-7,
 * though 2 of those 3 runs took no tick at all). A zero is a measured part here, the
 * component having run, and the tenth keeps out rare paths (a preemption at some
 * cond_resched(): 0.56 of 8000-16000 µs/op). As the medians of the spread rule, the parts
 * must be over 2x apart, here run by run: a loaded host stretches the tick's handler more
 * than the rest (an A/A split of threadirqs' default runs: hard IRQ arch_timer 8.1-9.8%
 * against 18-21% of the run time, the benchmark's own time 90-92% against 78-82%). The
 * lowest and highest parts into @lo, @hi (%).
 */
static int part_apart(const struct ts_cmp *c, const struct ts_cmp_row *r, int v,
		      const struct chain_rule *ru, double lo[2], double hi[2])
{
	const struct ts_cmp_part *p = ts_cmp_comp_part(c, v, ru->comp);
	const struct ts_cmp_row *t = p && p->metric ? ts_cmp_find(c, p->metric) : NULL;
	const int k[2] = { 0, v };
	int big;

	if (!t || t == r || strcmp(r->unit, "ns/op") || strcmp(t->unit, r->unit))
		return 0;
	for (int i = 0; i < 2; i++) {
		lo[i] = INFINITY;
		hi[i] = -INFINITY;
		if (c->var[k[i]].nr_runs < 2)
			return 0;
		for (int j = 0; j < c->var[k[i]].nr_runs; j++) {
			double x = r->cell[k[i]].values[j], y = t->cell[k[i]].values[j];

			if (isnan(x) || isnan(y) || x < 0 || y <= 0)
				return 0;
			lo[i] = fmin(lo[i], 100 * x / y);
			hi[i] = fmax(hi[i], 100 * x / y);
		}
	}
	big = lo[0] > hi[1] ? 0 : lo[1] > hi[0] ? 1 : -1;
	if (big < 0 || lo[big] < 100 * MIN_PART || !(lo[big] > 2 * hi[!big]))
		return 0;
	if (lo[big] - hi[!big] > (hi[0] - lo[0]) + (hi[1] - lo[1]))
		return 1;
	/*
	 * Or apart by more than their spread as factors: a host's stalls stretch a part by a
	 * factor, so a small side's spread is small in points and a large side's large (tsc=reliable
	 * against the HPET under TCG: the tick's handler 38-75% of the run time in every run of
	 * one side, 1.0-2.1% of the other, 18x apart against spreads of 1.9x and 2.1x, was
	 * short of the points' rule by one). A zero part has no factor: the points' rule only.
	 */
	return lo[!big] > 0 && lo[big] / hi[!big] > (hi[0] / lo[0]) * (hi[1] / lo[1]);
}

/* The median over @k's runs of run time part @r's fraction of the run time @t; NAN if unknown. */
static double part_median(const struct ts_cmp *c, const struct ts_cmp_row *r,
			  const struct ts_cmp_row *t, int k)
{
	int nr = c->var[k].nr_runs, n = 0;
	double *x = calloc(nr > 0 ? nr : 1, sizeof(*x));
	struct ts_summary sum = { .median = NAN };

	for (int j = 0; x && r->cell[k].values && t->cell[k].values && j < nr; j++)
		if (isfinite(r->cell[k].values[j]) && t->cell[k].values[j] > 0)
			x[n++] = r->cell[k].values[j] / t->cell[k].values[j];
	if (!x || !n || ts_stats_summary(x, n, 0, &sum))
		sum.median = NAN;
	free(x);
	return sum.median;
}

/*
 * Whether row @r, an interrupt's part of the run time per operation (the hard IRQs', the
 * softirqs', the tick's handler's, one handler's), only followed the run time: it grew while
 * its fraction of the run time did not (or fell while its fraction did not). Interrupts that
 * come at a rate take a time per operation in proportion to how long the operation runs: on
 * qemu-aarch64, 6.1 against 6.12 under TCG, hard IRQ arch_timer took 185.2 -> 1575 µs/op of
 * a run time of 1371 -> 16549 (13.5 -> 9.5% of it), each interrupt as long as before (176.1 ->
 * 167.9 µs a call); the benchmark's own run time grew, and the interrupts with it. Such a
 * part is what the run time's growth did, not what made it.
 */
static int follows_run_time(const struct ts_cmp *c, const struct ts_cmp_row *r, int v)
{
	static const char pre[] = "task.path.run.";
	const struct ts_cmp_row *t = ts_cmp_find(c, "task.path.run.per_op");
	double fa, fb, d;

	if (!t || strncmp(r->name, pre, sizeof(pre) - 1) || !ts_cmp_ends(r->name, ".per_op") ||
	    !strcmp(r->name, "task.path.run.own.per_op") || r == t)
		return 0;
	d = r->cell[v].s.median - r->cell[0].s.median;
	fa = part_median(c, r, t, 0);
	fb = part_median(c, r, t, v);
	if (!(d != 0) || isnan(fa) || isnan(fb))
		return 0;
	return d > 0 ? !(fb > fa) : !(fb < fa);
}

/* The least events every run of the side where a switched rate ran must count (count_apart()). */
#define MIN_EVENTS 20

/*
 * The seconds run @j of variant @k spans (the analysed range every rate of the run is counted
 * over), from a path whose count a run the summary keeps beside its rate
 * ("<path>.handler.count", "<path>.duration.count"): count / rate. NAN when no path has both.
 */
static double run_span(const struct ts_cmp *c, int k, int j)
{
	static const char *const count_suf[] = { ".handler.count", ".duration.count" };
	size_t q = strlen(".per_s");

	for (int i = 0; i < c->nr_rows; i++) {
		const struct ts_cmp_row *r = &c->rows[i];
		size_t len = strlen(r->name);
		double x = r->cell[k].values ? r->cell[k].values[j] : NAN;

		if (strcmp(r->unit, "1/s") || !ts_cmp_ends(r->name, ".per_s") || !(x > 0))
			continue;
		for (size_t s = 0; s < sizeof(count_suf) / sizeof(count_suf[0]); s++) {
			const struct ts_cmp_row *n;
			char name[256];
			double y;

			snprintf(name, sizeof(name), "%.*s%s", (int)(len - q), r->name,
				 count_suf[s]);
			n = ts_cmp_find(c, name);
			y = n && n->cell[k].values ? n->cell[k].values[j] : NAN;
			if (y > 0)
				return y / x;
		}
	}
	return NAN;
}

/*
 * Whether rate row @r, switched (zero in every run of one side, above zero in every run of
 * the other), is so by its counts: every run of the side where it ran counted MIN_EVENTS of
 * its events or more, and none in the other side's runs is implausible at the least rate
 * those runs showed. Events at rate L over the zero side's T seconds in all number L * T on
 * average; none of them has probability e^(-L * T) for Poisson events, and at most that for
 * any rate at least L (the zero side's runs are then each a run of the other side's kind).
 * That bound, times the @nr_count rates of the rules that could show it (switch_at_risk()),
 * must be below alpha. It is a per-run-rate argument, not an arrangement test: it rules out
 * chance within runs of one kind, not runs of two kinds (a path on in some boots and off in
 * others whatever the kernel), which only more runs can (switched_p()); so it stays
 * unconfirmed. The least count, the highest, the zero side's seconds and L * T into @m.
 */
static int count_apart(const struct ts_cmp *c, const struct ts_cmp_row *r, int v, int nr_count,
		       struct ts_cmp_mech *m)
{
	const int k[2] = { 0, v };
	int on = ts_cmp_all_pos(&r->cell[v], c->var[v].nr_runs) == 1 ? 1 : 0;
	double lo = INFINITY, hi = 0, rate = INFINITY, secs = 0;

	if (strcmp(r->unit, "1/s") || !ts_cmp_ends(r->name, ".per_s"))
		return 0;
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < c->var[k[i]].nr_runs; j++) {
			double t = run_span(c, k[i], j), x = r->cell[k[i]].values[j];

			if (!(t > 0))
				return 0;
			if (i != on) {
				secs += t;
				continue;
			}
			lo = fmin(lo, x * t);
			hi = fmax(hi, x * t);
			rate = fmin(rate, x);
		}
	if (!(lo >= MIN_EVENTS - 0.5) || !(nr_count * exp(-rate * secs) < c->o.alpha))
		return 0;
	m->by_count = 1;
	m->count_lo = lo;
	m->count_hi = hi;
	m->zero_s = secs;
	m->expect = rate * secs;
	return 1;
}

/*
 * Whether rate row @r, zero in every run of one side and above zero in every run of the other,
 * has zeros that its other side's least rate makes likely: at that rate L, the zero side's T
 * seconds in all expect L * T events, and none of them has probability e^(-L * T), not below
 * alpha. The zeros then say the zero side's runs were too short to see the path, not that
 * its kernel did not run it: the U test takes a rate of 0 for a measured absence, and finds
 * a work that runs once a second "significant" when the other side's runs last 0.2 s and its
 * own 0.9 s (update_balloon_stats_func beside an injected timer storm, 0 -> 1.1/s, one run
 * of it in every longer run). Unknown seconds (no count beside any rate) decide nothing.
 */
static int zeros_by_length(const struct ts_cmp *c, const struct ts_cmp_row *r, int v)
{
	const int k[2] = { 0, v };
	int on = ts_cmp_all_pos(&r->cell[v], c->var[v].nr_runs) == 1 ? 1 : 0;
	double rate = INFINITY, secs = 0;

	if (strcmp(r->unit, "1/s") || !ts_cmp_ends(r->name, ".per_s") || !ts_cmp_switched(c, r, v))
		return 0;
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < c->var[k[i]].nr_runs; j++) {
			double t = run_span(c, k[i], j);

			if (i == on)
				rate = fmin(rate, r->cell[k[i]].values[j]);
			else if (t > 0)
				secs += t;
			else
				return 0;
		}
	return isfinite(rate) && !(exp(-rate * secs) < c->o.alpha);
}

/*
 * Whether row @r is a mechanism of variant @v by rule @ru. *@tested: 1 when significant after
 * the adjustment; 0 when the runs are too few for the U test to reach alpha, but every run of
 * one side is beyond every run of the other by more than their own spread and the medians are
 * over 2x apart.
 */
static int qualifies(const struct ts_cmp *c, const struct ts_cmp_row *r, int v,
		     const struct chain_rule *ru, const int nr_rules[2], int *tested,
		     struct ts_cmp_mech *m)
{
	const struct ts_cmp_cell *a = &r->cell[0], *b = &r->cell[v];
	double lo = fmin(fabs(a->s.median), fabs(b->s.median));
	double hi = fmax(fabs(a->s.median), fabs(b->s.median));

	*tested = 1;
	if (ru->how == H_ONLY) {
		int pa = ts_cmp_all_pos(a, c->var[0].nr_runs);
		int pb = ts_cmp_all_pos(b, c->var[v].nr_runs);

		/*
		 * A thread class in every run of one side and no run of the other is the same
		 * evidence as a path switched on or off, and the same arrangement test says
		 * whether the runs are enough for it: with 1 run a side it is unconfirmed, and it
		 * has no size to outrank a measured change with (rcuog's existence came before
		 * the tick's handler 17541 -> 330 µs/op on nohz_full).
		 */
		*tested = nr_rules[0] * switched_p(c->var[0].nr_runs, c->var[v].nr_runs) <
			  c->o.alpha;
		return pa >= 0 && pb >= 0 && pa != pb;
	}
	if (!strcmp(r->unit, "%") && fabs(b->s.median - a->s.median) < MIN_PP)
		return 0;
	if (rate_by_length(c, r, v) || zeros_by_length(c, r, v))
		return 0;
	if (b->significant)
		return 1;
	/*
	 * A path switched on or off (above zero in every run of one side, zero in every run of
	 * the other, a time or a rate): tested by switched_p(), Bonferroni-adjusted over the
	 * @nr_rules metrics of the chain rules that could show it (switch_at_risk(); a metric
	 * above zero in every run cannot, and counting it would only cost power: Tarone's
	 * adjustment for discrete tests).
	 */
	if (ru->how != H_TESTED && ts_cmp_switched(c, r, v) &&
	    nr_rules[0] * switched_p(c->var[0].nr_runs, c->var[v].nr_runs) < c->o.alpha)
		return 1;
	/*
	 * Too few runs for that test, a rate switched on or off whose every run where it ran
	 * counted many events: unconfirmed by its counts (count_apart()). A work or a timer
	 * function too: one that runs once a minute counts no MIN_EVENTS a run.
	 */
	if (ts_cmp_switched(c, r, v) && count_apart(c, r, v, nr_rules[1], m)) {
		*tested = 0;
		return 1;
	}
	/*
	 * Not confirmed by those tests, a path that did not run in some run of either side (the
	 * metric zero there) is no mechanism by the spread rule below: a zero is the path's
	 * absence, not a measure of its size, so a side of zeros has no spread because the path
	 * never ran, not because its runs agree, and the rule would take the other side's range
	 * alone for the noise. Rare paths fall on one side by chance: with kernel stacks, a task
	 * preempted at some cond_resched() in a few runs is one of hundreds of stacks, and at 3
	 * runs against 3 such waits were named in 10 of 40 A/A splits (tests/compare-aa.t). The
	 * U test and the arrangement test above stay exact for them.
	 *
	 * Unconfirmed: the runs are too few for the test to confirm a metric whose every run of
	 * one side is beyond every run of the other, either for any test (3 runs a side) or
	 * after the adjustment over the family's hundreds of metrics (4 or 6 a side: their
	 * smallest p, 0.029 or 0.0022, is not enough). The runs must then be apart by more than
	 * their own spread, and every run of both sides must have measured it: a metric missing
	 * from some runs is not significant, not unconfirmed. Or a time's part of its component,
	 * measured where the component ran, a zero too, is apart so (part_apart()).
	 */
	if (ru->how == H_TESTED || isnan(b->p) || !(lo == 0 ? hi > 0 : hi > 2 * lo))
		return 0;
	*tested = 0;
	if (ts_cmp_all_pos(a, c->var[0].nr_runs) == 1 &&
	    ts_cmp_all_pos(b, c->var[v].nr_runs) == 1 && a->s.n >= c->var[0].nr_runs &&
	    b->s.n >= c->var[v].nr_runs && apart_beyond_spread(a, b))
		return 1;
	return m->by_part = part_apart(c, r, v, ru, m->part_lo, m->part_hi);
}

/*
 * The side (0 or @v) whose kernel does not offer @ru's event (its meta.txt's events_missing)
 * while every run of the other side measured the metric above zero; -1 for neither.
 */
static int missing_side(const struct ts_cmp *c, const struct ts_cmp_row *r, int v,
			const struct chain_rule *ru)
{
	const int k[2] = { 0, v };

	for (int i = 0; i < 2; i++) {
		const struct ts_cmp_cell *x = &r->cell[k[i]], *y = &r->cell[k[!i]];
		const char *miss = c->var[k[i]].runs[0].fact[TS_FACT_EVENTS_MISSING];

		if (!x->s.n && y->s.n && ts_cmp_all_pos(y, c->var[k[!i]].nr_runs) == 1 &&
		    ts_cmp_in_list(miss, ru->event, strlen(ru->event)))
			return k[i];
	}
	return -1;
}

/* A few task classes in kernel words, for the headline's labels. */
const char *ts_cmp_class_words(const char *cls)
{
	static const char *const w[][2] = {
		{ "irq", "threaded interrupt handlers (irq/N-*)" },
		{ "ktimers", "ktimers, the threads that run timers" },
		{ "rcuc", "rcuc, the threads that run RCU callbacks" },
		{ "rcub", "rcub, the RCU priority-boost threads" },
		{ "irq_work", "irq_work/N, PREEMPT_RT's threads for irq_work that may sleep" },
		{ "pr", "pr/<console>, PREEMPT_RT's console printing threads (printk)" },
		{ "rcuog", "rcuog, the offloaded RCU callbacks' grace-period threads" },
		{ "rcuop", "rcuop, the threads that run offloaded RCU callbacks" },
		{ "rcuos", "rcuos, the threads that run offloaded RCU callbacks" },
		{ "ksoftirqd", "ksoftirqd, the softirq threads" },
		{ "hardirq", "hard interrupt handlers" },
		{ "softirq", "softirqs run inline" },
		{ "swapper", "the idle task's interrupt exits" },
		{ "rcu_preempt", "rcu_preempt, the RCU grace-period kthread" },
		{ "rcu_sched", "rcu_sched, the RCU grace-period kthread" },
		{ "kworker", "kworkers" },
	};

	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (!strcmp(cls, w[i][0]))
			return w[i][1];
	return ts_cmp_class_ps(cls);
}

/* Who ended the waits of stack row @r in @v's kernel: ", ended by kworker (100%)" or "". */
static void ended_by(const struct ts_cmp *c, int v, const struct ts_cmp_row *r, char *out, size_t n)
{
	out[0] = '\0';
	for (int i = 0; i < c->nr_waits[v]; i++) {
		const struct ts_cmp_wait *w = &c->waits[v][i];
		const struct ts_cmp_waker *by = w->nr_by ? &w->by[0] : NULL;
		int k = isnan(w->b) || w->b < w->a ? 0 : 1; /* the side where it grew */

		if (w->row != r || !by)
			continue;
		snprintf(out, n, ", ended by %s (%.0f%% of them)", ts_cmp_class_words(by->cls),
			 k ? by->b : by->a);
	}
}

static int user_class(const struct ts_cmp *c, const struct chain_rule *ru, const char *cls);

static void mech_label(const struct ts_cmp *c, int v, const struct ts_cmp_row *r,
		       const struct chain_rule *ru, const char *cls, char *out, size_t n)
{
	char words[160], by[96];

	if (!strcmp(ru->pre, "task.other_cpu.") && user_class(c, ru, cls) &&
	    !strcmp(cls, TS_RUN_CLASS_REST)) {
		snprintf(out, n,
			 "other tasks (every class past the first %d a run met, counted together: "
			 "not one program), running beside the benchmark (their CPU share; a "
			 "confounder)",
			 TS_RUN_MAX_CLASSES - 1);
	} else if (!strcmp(ru->pre, "task.other_cpu.") && user_class(c, ru, cls)) {
		snprintf(out, n,
			 "%.60s, a program and not the kernel (a confounder), running beside the "
			 "benchmark (its CPU share)",
			 cls);
	} else if (!strcmp(ru->pre, "task.offcpu_stack.")) {
		ts_cmp_stack_words(cls, words, sizeof(words));
		ended_by(c, v, r, by, sizeof(by));
		snprintf(out, n, "waits in %s%s", words, by);
	} else if (!strcmp(ru->pre, "workqueue.work.") && *work_hint(cls)) {
		snprintf(out, n, "runs of work %.60s%s", cls, work_hint(cls));
	} else if (!strcmp(ru->pre, "timer.expire.") && *timer_hint(cls)) {
		snprintf(out, n, "expiries of timer %.60s%s", cls, timer_hint(cls));
	} else if (!strcmp(ru->pre, "task.woken_by_work.")) {
		snprintf(out, n, "work items %.60s%s waking the benchmark's tasks", cls,
			 work_hint(cls));
	} else {
		snprintf(words, sizeof(words), "%.100s", ru->suf ? ts_cmp_class_words(cls) : "");
		snprintf(out, n, ru->label, words);
	}
}

/*
 * A candidate mechanism, the key of its component (its share of the change, or 0) and
 * whether it moved the way its component did (1) or not (0), when the benchmark changed.
 */
struct cand {
	struct ts_cmp_mech m;
	int switched; /* zero in every run of one side, above zero in every run of the other */
	int exists; /* a thread class's existence (H_ONLY): a kernel difference without a size */
	int late; /* a timer function's expiries: the means of what another mechanism says */
	double rank; /* rank_share() of its share; its size either way when nothing changed */
	double comp_key;
	int along;
};

/* A share that can be printed: in (0, 100]; else -1. */
double ts_cmp_valid_share(double s)
{
	return s > 0 && s <= 100 ? s : -1;
}

/*
 * A share to rank by: any positive one, however large. Over 100% means the part alone moved
 * more than the whole while others moved against it: the largest cause, ranked first, though
 * its share is not printed as a figure.
 */
static double rank_share(double s)
{
	return s > 0 ? s : -1;
}

/*
 * A timer function's expiries after every other mechanism: a timer is how a work, a wait or a
 * thread that another rule names runs (delayed_work_timer_fn queues a work, srcu_delay_timer
 * drives the SRCU grace period whose callbacks a kworker runs), so it is named when there is
 * room; alone, as process_timeout's 4.4 -> 170/s under rcu_nocb_poll (rcuog's polling sleep),
 * it says what woke. Then what the kernel switched on or off first (a code path that ran in
 * every run of one kernel and in no run of the other: the tick stopping, a wait, a work
 * function), then by component share,
 * tested, among the unconfirmed a measured change before a thread class's mere existence (a
 * count of threads has no spread, so its effect size would be infinite, yet with too few runs
 * to confirm it says nothing the measured change does not: nohz_full's tick before its rcuog
 * threads), moved along its component (what appeared or grew where the component grew), own
 * share, effect size, name: the best first. A confirmed existence keeps its place: the kernel
 * made those threads, and they took part. A change in how much a path costs follows from
 * what runs; a path that appeared or went is the kernel's own difference, and no share of a
 * component that contains it (hard IRQs contain the tick) outranks it.
 */
static int cmp_cand(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;
	double sa = a->rank, sb = b->rank;

	if (a->late != b->late)
		return a->late - b->late;
	if (a->switched != b->switched)
		return b->switched - a->switched;
	if (a->comp_key != b->comp_key)
		return a->comp_key < b->comp_key ? 1 : -1;
	if (a->m.tested != b->m.tested)
		return b->m.tested - a->m.tested;
	if (!a->m.tested && a->exists != b->exists)
		return a->exists - b->exists;
	if (a->along != b->along)
		return b->along - a->along;
	if (sa != sb)
		return sa < sb ? 1 : -1;
	if (a->m.effect != b->m.effect)
		return a->m.effect < b->m.effect ? 1 : -1;
	return strcmp(a->m.row->name, b->m.row->name);
}

/* The key that orders components: their share when the benchmark changed, else 0 for all. */
static double comp_key(const struct ts_cmp *c, int v, const struct ts_cmp_part *p)
{
	if (!p || !c->result || !c->result->cell[v].significant)
		return 0;
	return fmax(rank_share(p->share), 0);
}

static void fill_mech(const struct ts_cmp *c, int v, const struct ts_cmp_row *r,
		      const struct chain_rule *ru, const char *cls, struct cand *x)
{
	const struct ts_cmp_part *p = ts_cmp_comp_part(c, v, ru->comp);
	struct ts_cmp_mech *m = &x->m;
	double f = ts_cmp_show_unit(r->unit, m->unit, sizeof(m->unit));

	m->row = r;
	mech_label(c, v, r, ru, cls, m->label, sizeof(m->label));
	m->component = p ? p->label : "";
	m->a = r->cell[0].s.median * f;
	m->b = r->cell[v].s.median * f;
	m->p = r->cell[v].p_adj;
	m->separation = separation(&r->cell[0], &r->cell[v]);
	m->effect = r->cell[0].s.n && r->cell[v].s.n ? effect_size(&r->cell[0], &r->cell[v]) :
						       INFINITY;
	m->share = NAN;
	if (p && !strcmp(m->unit, "µs/op") && c->dec[v].delta != 0 && !isnan(m->b - m->a))
		m->share = 100 * (m->b - m->a) / c->dec[v].delta;
	x->comp_key = comp_key(c, v, p);
	x->along = x->comp_key > 0 && (m->b > m->a) == (p->delta > 0);
	/*
	 * Without a significant change of the benchmark a share has no direction to follow:
	 * its size ranks (a wait that appeared counts as much as one that went)
	 */
	x->rank = c->result && c->result->cell[v].significant ? rank_share(m->share) :
		  isnan(m->share)			      ? -1 :
								fabs(m->share);
}

/* The rule row @r matches, with its class in @cls; NULL for none. */
const struct chain_rule *ts_cmp_rule_of(const struct ts_cmp_row *r, char *cls, size_t n)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (!rule_match(&rules[i], r->name, cls, n))
			return &rules[i];
	return NULL;
}

/*
 * Whether @cls of a CPU-share or a waker rule is not the kernel's: no kernel thread class (no
 * "sched.threads.<cls>.count", which counts only the kernel's threads) and, for a waker, none
 * of the kernel's own contexts (an interrupt handler, a softirq run inline, the idle task's
 * interrupt exits). A user program that ran alongside is a confounder, not a mechanism; one
 * that woke tasks (the benchmark's own tasks, perf) is not a mechanism either: its share of
 * the wakes moves because a kernel class took some (threadirqs: pingpong-echo 50 -> 44% of
 * all wakes as ksoftirqd's and the idle task's rose), and that class says so.
 */
static int user_class(const struct ts_cmp *c, const struct chain_rule *ru, const char *cls)
{
	static const char *const kernel_ctx[] = { "hardirq", "softirq", "swapper" };
	int waker = !strcmp(ru->pre, "task.woken_by.") || !strcmp(ru->pre, "sched.woken_by.");
	char name[256];

	if (!waker && strcmp(ru->pre, "task.other_cpu."))
		return 0;
	for (size_t i = 0; waker && i < sizeof(kernel_ctx) / sizeof(kernel_ctx[0]); i++)
		if (!strcmp(cls, kernel_ctx[i]))
			return 0;
	snprintf(name, sizeof(name), "sched.threads.%.200s.count", cls);
	return !ts_cmp_find(c, name);
}

/*
 * Whether CPU-share row @r is a user program's (user_class()) that ran in every run of one
 * side and in no run of the other: a program started beside the benchmark in one variant
 * only (a timer storm, a CPU hog on the benchmark's CPU). It is no kernel mechanism, and the
 * confounders say so; but the time the benchmark's tasks waited runnable while it held their
 * CPU is where a sched delay went, and a headline that leaves it out names the kernel's
 * symptoms (hard interrupts' wakes, a work that ran once in a longer run) in its place. It
 * feeds the sched delay rule then, said as a program and a confounder (mech_label()).
 */
static int program_one_side(const struct ts_cmp *c, const struct ts_cmp_row *r, int v,
			    const struct chain_rule *ru, const char *cls)
{
	int pa = ts_cmp_all_pos(&r->cell[0], c->var[0].nr_runs);
	int pb = ts_cmp_all_pos(&r->cell[v], c->var[v].nr_runs);

	return !strcmp(ru->pre, "task.other_cpu.") && user_class(c, ru, cls) && pa >= 0 &&
	       pb >= 0 && pa != pb;
}

int ts_cmp_program_row(const struct ts_cmp *c, const struct ts_cmp_row *r, int v)
{
	char cls[200];
	const struct chain_rule *ru = ts_cmp_rule_of(r, cls, sizeof(cls));

	return ru && program_one_side(c, r, v, ru, cls);
}

/* The CPUs run @j of side @k's trace had online ("2 online of 2"); 0 when unknown. */
static int run_cpus(const struct ts_cmp *c, int k, int j)
{
	const char *f = c->var[k].runs ? c->var[k].runs[j].fact[TS_FACT_NR_CPUS] : NULL;
	int n = f ? atoi(f) : 0;

	return n > 0 ? n : 0;
}

/*
 * The CPU time program row @r's class took per operation of the benchmark in side @k's runs
 * (ns/op, the median of its runs): its share of all CPU time, times the CPUs the trace had
 * online and the seconds it spans (run_span()), over the benchmark's operations in it. A
 * program cannot keep the benchmark waiting runnable for longer than it runs: this is the most
 * of a sched delay it can hold. It counts the program's time on every CPU and over the whole
 * trace, not only where and while the benchmark waited (the summary keeps no CPU of a class),
 * so the bound is loose, never too tight. NAN when a run lacks one of them.
 */
static double program_run_per_op(const struct ts_cmp *c, const struct ts_cmp_row *r, int k)
{
	int nr = c->var[k].runs && r->cell[k].values ? c->var[k].nr_runs : 0, n = 0;
	double *x = calloc(nr ? nr : 1, sizeof(*x));
	struct ts_summary sum = { .median = NAN };

	for (int j = 0; x && j < nr; j++) {
		double s = r->cell[k].values[j], t = run_span(c, k, j), ops = c->var[k].runs[j].ops;
		int cpus = run_cpus(c, k, j);

		if (isnan(s) || !(t > 0) || !(ops > 0) || !cpus) {
			n = 0;
			break;
		}
		x[n++] = s / 100 * cpus * t * 1e9 / ops;
	}
	if (!x || !n || ts_stats_summary(x, n, 0, &sum))
		sum.median = NAN;
	free(x);
	return sum.median;
}

/*
 * Whether the component that program row @r feeds (sched delay) changed, significantly or as
 * a part of a significant change of the benchmark, and the way the program did: grew where
 * it ran. A program beside the benchmark that its tasks did not wait behind more (the fair
 * scheduler kept them off its CPU, or let them preempt it) is a confounder only: a CPU hog
 * beside an unpinned ping-pong, 24.5 -> 22.7 µs, p 0.55.
 */
static int program_moved_part(const struct ts_cmp *c, const struct ts_cmp_row *r, int v,
			      const struct chain_rule *ru)
{
	const struct ts_cmp_part *p = ts_cmp_comp_part(c, v, ru->comp);
	const struct ts_cmp_row *t = p && p->metric ? ts_cmp_find(c, p->metric) : NULL;
	int in_b = ts_cmp_all_pos(&r->cell[v], c->var[v].nr_runs) == 1;

	if (!t || (t->cell[v].s.median > t->cell[0].s.median) != in_b)
		return 0;
	return t->cell[v].significant || comp_key(c, v, p) > 0;
}

double ts_cmp_program_room(const struct ts_cmp *c, const struct ts_cmp_row *r, int v, double *run,
			   double *grow)
{
	char cls[200];
	const struct chain_rule *ru = ts_cmp_rule_of(r, cls, sizeof(cls));
	const struct ts_cmp_part *p = ru ? ts_cmp_comp_part(c, v, ru->comp) : NULL;
	const struct ts_cmp_row *t = p && p->metric ? ts_cmp_find(c, p->metric) : NULL;
	int k = ts_cmp_all_pos(&r->cell[v], c->var[v].nr_runs) == 1 ? v : 0;
	double d;

	*run = *grow = NAN;
	if (!t || strcmp(t->unit, "ns/op") || !program_one_side(c, r, v, ru, cls))
		return NAN;
	/* the component's growth on the side where the program ran */
	d = t->cell[k].s.median - t->cell[k ? 0 : v].s.median;
	*run = program_run_per_op(c, r, k);
	if (!(d > 0) || isnan(*run))
		return NAN;
	*grow = d;
	return *run / d;
}

/*
 * Whether the kernel threads of class @cls took part in side @k's runs: ran (their CPU share
 * beside the benchmark) or woke a task (their share of all wakes) in at least one run.
 */
static int class_took_part(const struct ts_cmp *c, int k, const char *cls)
{
	static const char *const fmt[] = { "task.other_cpu.%.200s.share",
					   "sched.woken_by.%.200s.share" };
	char name[256];

	for (size_t i = 0; i < sizeof(fmt) / sizeof(fmt[0]); i++) {
		const struct ts_cmp_row *r;

		snprintf(name, sizeof(name), fmt[i], cls);
		r = ts_cmp_find(c, name);
		if (r && r->cell[k].s.n && r->cell[k].s.max > 0)
			return 1;
	}
	return 0;
}

/*
 * Whether row @r, a thread class that exists in every run of one side and in no run of the
 * other (the sched.threads rule), is inert: its threads neither ran nor woke a task in any run
 * of the side that has them. Existing is then a kernel difference (the notes say it), not a
 * mechanism of any component: threadirqs makes irq/N-* threads for devices that the benchmark
 * never interrupts.
 */
static int inert_threads(const struct ts_cmp *c, const struct ts_cmp_row *r, int v,
			 const struct chain_rule *ru, const char *cls)
{
	int k = ts_cmp_all_pos(&r->cell[v], c->var[v].nr_runs) == 1 ? v : 0;

	return ru->how == H_ONLY && !strcmp(ru->pre, "sched.threads.") &&
	       !class_took_part(c, k, cls);
}

/*
 * Whether @cls of the timer rule is a class of timers, not a function: all hrtimers, all
 * timer_list timers, the tick's ("timer.expire.tick.per_s"), which have no handler count of
 * their own ("timer.expire.<function>.handler.count").
 */
static int timer_class(const struct ts_cmp *c, const struct chain_rule *ru, const char *cls)
{
	char name[256];

	if (strcmp(ru->pre, "timer.expire."))
		return 0;
	snprintf(name, sizeof(name), "timer.expire.%.200s.handler.count", cls);
	return !ts_cmp_find(c, name);
}

/*
 * Whether timer function @cls of the timer rule requeues only tasks of a scheduling class the
 * benchmark's tasks never ran in, in any run of either side: the RT bandwidth period
 * (sched_rt_period_timer) unthrottles real-time run queues, a deadline task's timers
 * (dl_task_timer, inactive_task_timer) its own task. Their expiries then say that some other
 * real-time or deadline task ran (on PREEMPT_RT, the kernel's own threads: about 1/s), not
 * that the benchmark waited on them; what those tasks took from the benchmark is their CPU
 * share (task.other_cpu.*). Summaries without "task.rt_switches.share" keep the rule.
 */
static int other_class_timer(const struct ts_cmp *c, const struct chain_rule *ru, const char *cls)
{
	static const char *const rt_dl[] = { "sched_rt_period_timer", "dl_task_timer",
					     "inactive_task_timer" };
	const struct ts_cmp_row *rt;
	int mine = 0;

	if (strcmp(ru->pre, "timer.expire."))
		return 0;
	for (size_t i = 0; i < sizeof(rt_dl) / sizeof(rt_dl[0]) && !mine; i++)
		mine = !strcmp(cls, rt_dl[i]);
	rt = mine ? ts_cmp_find(c, "task.rt_switches.share") : NULL;
	if (!rt)
		return 0;
	for (int v = 0; v < c->nr_var; v++) /* a run not measured (NAN) keeps the rule */
		for (int i = 0; i < c->var[v].nr_runs; i++)
			if (!(rt->cell[v].values[i] == 0))
				return 0;
	return 1;
}

/*
 * Whether mechanism @m, a time per operation, explains none of a significant change of the
 * benchmark: its share rounds to 0% either way. It names no cause, however far apart its runs
 * are: a rate that stayed the same over a longer operation takes more time per operation (the
 * injected timer storm's 1000-round-trip set: "the tick's handler while the benchmark ran
 * 1.559 -> 3.357 µs/op (0% of the change)", the same 250 ticks a second over a round trip
 * 4x longer). Without a significant change there is no share to weigh (fill_mech()).
 */
static int explains_nothing(const struct ts_cmp *c, int v, const struct ts_cmp_mech *m)
{
	return c->result && c->result->cell[v].significant && !isnan(m->share) &&
	       fabs(m->share) < 0.5;
}

/*
 * Whether program row @r ran too little to be where most of its component's growth went: a
 * program cannot keep the benchmark waiting runnable for longer than it runs, so its run time
 * per operation bounds its part (ts_cmp_program_room()), and under half of the growth it is
 * not the cause, only a confounder beside it (the confounders say how little it ran). In a
 * 4 + 4 split of the CFS bandwidth A/B (tests/fixtures/kernel-mech/), the recording's own sed,
 * 0 -> 2.07% of the CPU time in every limited run, ran 19 µs per round trip while the sched
 * delay grew by 263: it was named first, before the period timer that throttled the tasks.
 * A bound not known (no traced window, no CPU count) leaves the program as it was.
 */
static int program_minor(const struct ts_cmp *c, const struct ts_cmp_row *r, int v)
{
	double run, grow, room = ts_cmp_program_room(c, r, v, &run, &grow);

	return room < 0.5;
}

/*
 * Whether rate row @r, events a second over the whole machine (idle exits, timer expiries,
 * works: a chain rule's "<path>.per_s" that is not the benchmark's own, "task."), moved only
 * with the CPUs online: the runs' traces had different numbers of CPUs online (maxcpus=,
 * nr_cpus=, a CPU taken offline), and per online CPU its medians are within the spread rule's
 * 2x of each other. Every online CPU runs its own timers, idle loop and per-CPU works, so
 * such a rate is a sum over the CPUs: qemu-aarch64's 6.1 booted with maxcpus=2 (2026-12-07)
 * had its idle exits by hrtimers other than the tick 1.79 -> 0.25/s, every run apart, named
 * as a mechanism of the wake delivery, which fell: the soft lockup detector's timer (every
 * 4 s on each CPU) on 8 CPUs against 2. A rate that is zero in every run of one side is
 * kept: a path switched on or off whatever the CPUs. Unknown CPU counts decide nothing.
 */
static int follows_cpus(const struct ts_cmp *c, const struct ts_cmp_row *r, int v)
{
	const int k[2] = { 0, v };
	double med[2];
	int first = 0, differ = 0;

	if (strcmp(r->unit, "1/s") || !ts_cmp_ends(r->name, ".per_s") ||
	    !strncmp(r->name, "task.", 5))
		return 0;
	for (int i = 0; i < 2; i++) {
		int nr = r->cell[k[i]].values ? c->var[k[i]].nr_runs : 0, n = 0;
		double *x = calloc(nr ? nr : 1, sizeof(*x));
		struct ts_summary sum = { .median = NAN };

		for (int j = 0; x && j < nr; j++) {
			int cpus = run_cpus(c, k[i], j);
			double y = r->cell[k[i]].values[j];

			if (!cpus || isnan(y)) {
				n = 0;
				break;
			}
			first = first ? first : cpus;
			differ |= cpus != first;
			x[n++] = y / cpus;
		}
		if (!x || !n || ts_stats_summary(x, n, 0, &sum))
			sum.median = NAN;
		free(x);
		med[i] = sum.median;
		if (isnan(med[i]))
			return 0;
	}
	if (!differ)
		return 0;
	return !(fmin(med[0], med[1]) == 0 ? fmax(med[0], med[1]) > 0 :
					     fmax(med[0], med[1]) > 2 * fmin(med[0], med[1]));
}

/*
 * Whether row @name (of class @cls) sees the tick through its hrtimer only: the tick's
 * hrtimer expiries, the run time and the idle exits credited to it, its restarts on idle exit.
 */
static int tick_by_hrtimer(const char *name, const char *cls)
{
	static const char *const names[] = {
		"timer.expire.tick.per_s",	"timer.expire.tick_sched_timer.per_s",
		"task.path.run.tick.per_op",	"idle.exits.tick.per_s",
		"idlepath.tick_restarts.per_s", NULL
	};

	for (int i = 0; names[i]; i++)
		if (!strcmp(name, names[i]))
			return 1;
	return *cls && ts_class_is_tick(cls);
}

int ts_cmp_tick_unseen(const struct ts_cmp *c, int v)
{
	const struct ts_cmp_row *t = ts_cmp_find(c, "timer.expire.tick.per_s"),
				*w = ts_cmp_find(c, "rcu.window.scheduler-tick.count");
	int side[2] = { 0, v };

	if (!t || !w)
		return -1;
	for (int k = 0; k < 2; k++)
		if (!ts_cmp_all_pos(&t->cell[side[k]], c->var[side[k]].nr_runs) &&
		    ts_cmp_all_pos(&w->cell[side[k]], c->var[side[k]].nr_runs) == 1)
			return side[k];
	return -1;
}

#define MAX_CAND 64

/* A CPU stopping its tick or restarting it: what entering and leaving idle do. */
static int tick_bookkeeping(const char *name)
{
	return !strcmp(name, "idle.tick_stop.ok.per_s") ||
	       !strcmp(name, "idlepath.tick_restarts.per_s");
}

/* An idle exit's cause (idle.exits.<cause>.per_s, the tick's and an interrupt's included). */
static int exit_cause(const char *name)
{
	static const char pre[] = "idle.exits.";

	return !strncmp(name, pre, sizeof(pre) - 1) && ts_cmp_ends(name, ".per_s") &&
	       strcmp(name, "idle.exits.per_s");
}

/* Whether @cons (tick bookkeeping) follows from @cause: both of one component, moved alike. */
static int follows_exits(const struct cand *cons, const struct cand *cause)
{
	return !cons->switched && !cause->switched && cause->m.tested >= cons->m.tested &&
	       cons->m.component == cause->m.component && exit_cause(cause->m.row->name) &&
	       (cons->m.b > cons->m.a) == (cause->m.b > cause->m.a) && cons->m.b != cons->m.a &&
	       cause->m.b != cause->m.a;
}

/*
 * Causes before their consequences: a CPU stops its tick on the way into idle and restarts it
 * on the way out (tick_nohz_idle_stop_tick(), tick_nohz_idle_exit()), so tick stops and
 * restarts that moved the same way as an idle exit's cause count the idle periods that cause
 * began and ended: each goes right after the last such cause ranked below it, whatever their
 * effect sizes (isolcpus=1-7: the IPIs' idle exits 137.5 -> 1.6/s, then the tick stops and
 * restarts 38 -> 3/s). Tick stops that appeared or went (nohz=off, nohz_full=) are the
 * kernel's own difference and keep their place.
 */
static void causes_first(struct cand *x, int n)
{
	/* from the last: consequences moved past one cause keep their order */
	for (int i = n - 1; i >= 0; i--) {
		int last = -1;
		struct cand t;

		if (!tick_bookkeeping(x[i].m.row->name))
			continue;
		for (int j = i + 1; j < n; j++)
			if (follows_exits(&x[i], &x[j]))
				last = j;
		if (last < 0)
			continue;
		t = x[i];
		memmove(&x[i], &x[i + 1], (size_t)(last - i) * sizeof(*x));
		x[last] = t;
	}
}

/*
 * Every row that a chain rule makes a mechanism of @v, into @x, and up to MAX_INERT thread
 * classes that qualified but took no part (inert_threads()) into @inert (@nr_inert of them);
 * Return: how many mechanisms.
 */
static int candidates(const struct ts_cmp *c, int v, struct cand *x,
		      const struct ts_cmp_row **inert, int *nr_inert)
{
	int n = 0, has_dec = c->dec[v].kind != NULL, nr_rules[2] = { 0, 0 };
	int unseen = ts_cmp_tick_unseen(c, v) >= 0;
	char cls[200];

	/* the metrics that could show a path switched: [0] the arrangement test's, [1] counts' */
	for (int i = 0; i < c->nr_rows; i++) {
		const struct ts_cmp_row *r = &c->rows[i];
		const struct chain_rule *ru = ts_cmp_rule_of(r, cls, sizeof(cls));
		int risk = ru && (!has_dec || ts_cmp_comp_part(c, v, ru->comp)) &&
			   !(unseen && tick_by_hrtimer(r->name, cls)) &&
			   (switch_at_risk(c, r, v) || program_one_side(c, r, v, ru, cls));

		nr_rules[0] += risk && ru->how != H_TESTED;
		nr_rules[1] += risk && ru->how != H_ONLY && !strcmp(r->unit, "1/s");
	}
	for (int i = 0; i < c->nr_rows && n < MAX_CAND; i++) {
		const struct ts_cmp_row *r = &c->rows[i];
		const struct chain_rule *ru;
		int tested = 1, miss;

		ru = ts_cmp_rule_of(r, cls, sizeof(cls));
		if (!ru || (has_dec && !ts_cmp_comp_part(c, v, ru->comp)) ||
		    (user_class(c, ru, cls) && !program_one_side(c, r, v, ru, cls)) ||
		    timer_class(c, ru, cls) || other_class_timer(c, ru, cls) ||
		    (unseen && tick_by_hrtimer(r->name, cls)))
			continue;
		memset(&x[n], 0, sizeof(x[n]));
		miss = missing_side(c, r, v, ru);
		if (program_one_side(c, r, v, ru, cls)) {
			/*
			 * A program in every run of one side and in none of the other: the
			 * arrangement test of a path switched on or off says whether the runs
			 * confirm it; unconfirmed else, as a thread class of one kernel only
			 */
			if (fabs(r->cell[v].s.median - r->cell[0].s.median) < MIN_PP ||
			    !program_moved_part(c, r, v, ru) || program_minor(c, r, v))
				continue;
			tested = r->cell[v].significant ||
				 nr_rules[0] * switched_p(c->var[0].nr_runs, c->var[v].nr_runs) <
					 c->o.alpha;
		} else if (miss < 0 && (!qualifies(c, r, v, ru, nr_rules, &tested, &x[n].m) ||
					follows_run_time(c, r, v) || follows_cpus(c, r, v))) {
			continue;
		}
		if (inert_threads(c, r, v, ru, cls)) {
			if (*nr_inert < MAX_INERT)
				inert[(*nr_inert)++] = r;
			continue;
		}
		fill_mech(c, v, r, ru, cls, &x[n]);
		if (explains_nothing(c, v, &x[n].m))
			continue;
		x[n].m.tested = miss >= 0 ? 1 : tested;
		x[n].switched = miss < 0 && ru->how != H_ONLY && ts_cmp_switched(c, r, v);
		x[n].exists = ru->how == H_ONLY;
		x[n].late = !strcmp(ru->pre, "timer.expire.");
		n++;
	}
	qsort(x, n, sizeof(*x), cmp_cand);
	causes_first(x, n);
	return n;
}

/* At most this many mechanisms of one component, of one rule, in the text lines. */
#define PER_COMP 4
#define PER_RULE 2

/* Whether @m fits: under PER_COMP of its component and PER_RULE of its rule already in @h. */
static int room_for(const struct ts_cmp_headline *h, const struct ts_cmp_mech *m)
{
	int comp = 0, rule = 0;
	char ca[200], cb[200];

	for (int k = 0; k < h->nr_mech; k++) {
		comp += h->mech[k].component == m->component;
		rule += ts_cmp_rule_of(h->mech[k].row, ca, sizeof(ca)) ==
			ts_cmp_rule_of(m->row, cb, sizeof(cb));
	}
	return comp < PER_COMP && rule < PER_RULE;
}

/*
 * Whether the run time's interrupt part @outer ("task.path.run.<part>.per_op") holds @inner:
 * a handler's, a vector's or a callback's time is inside its context's (hard IRQs, softirqs),
 * timer callbacks run in a hard IRQ (hrtimers) or the TIMER softirq (timer_list), and the
 * tick's handler is a timer callback in a hard IRQ, the same time as its callback's own row
 * (timer.tick_sched_timer). Containers only: whether @inner is the part of @outer that moved is
 * nested_twice()'s question.
 */
static int run_part_holds(const char *outer, const char *inner)
{
	static const char pre[] = "task.path.run.";
	size_t n = sizeof(pre) - 1;
	char fn[128];
	int timer;

	if (strncmp(outer, pre, n) || strncmp(inner, pre, n) || !ts_cmp_ends(outer, ".per_op") ||
	    !ts_cmp_ends(inner, ".per_op"))
		return 0;
	outer += n;
	inner += n;
	timer = !strcmp(inner, "timers.per_op") || !strncmp(inner, "timer.", 6);
	if (!strcmp(outer, "hardirq.per_op"))
		return !strncmp(inner, "hardirq.", 8) || !strcmp(inner, "tick.per_op") || timer;
	if (!strcmp(outer, "softirq.per_op"))
		return !strncmp(inner, "softirq.", 8) || timer;
	if (!strncmp(outer, "hardirq.", 8))
		return !strcmp(inner, "tick.per_op") || timer;
	if (!strncmp(outer, "softirq.", 8))
		return timer;
	if (!strcmp(outer, "timers.per_op"))
		return !strcmp(inner, "tick.per_op") || !strncmp(inner, "timer.", 6);
	if (!strncmp(outer, "timer.", 6) && strcmp(outer, "timers.per_op")) {
		snprintf(fn, sizeof(fn), "%.*s", (int)(strlen(outer) - 6 - 7), outer + 6);
		return ts_class_is_tick(fn) && !strcmp(inner, "tick.per_op");
	}
	return 0;
}

/*
 * Whether mechanism @o is @i seen again through a container: @o holds @i (run_part_holds())
 * and moved by what @i moved (the same way, 0.8 to 1.25 times as much). The container's line
 * would say nothing the inner one does not, and its share would count the same microseconds
 * twice: on the shrinker-srcu kernel, "hard interrupts", "hard IRQ arch_timer", "timer
 * tick_sched_timer" and "the tick's handler" were four lines of 15% each, one mechanism.
 */
static int nested_twice(const struct ts_cmp_mech *o, const struct ts_cmp_mech *i)
{
	double dout = o->b - o->a, din = i->b - i->a;

	if (o == i || o->component != i->component || !run_part_holds(o->row->name, i->row->name))
		return 0;
	return dout != 0 && din / dout >= 0.8 && din / dout <= 1.25;
}

void ts_cmp_mechanisms(struct ts_cmp *c, int v, const struct ts_cmp_row **inert, int *nr_inert)
{
	struct ts_cmp_headline *h = &c->head[v];
	struct cand x[MAX_CAND];
	int n = candidates(c, v, x, inert, nr_inert), dup[MAX_CAND] = { 0 };

	memset(h, 0, sizeof(*h));
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n && !dup[i]; j++)
			dup[i] = nested_twice(&x[i].m, &x[j].m);
	for (int i = 0; i < n && h->nr_mech < TS_CMP_MAX_MECH; i++)
		if (!dup[i] && room_for(h, &x[i].m))
			h->mech[h->nr_mech++] = x[i].m;
}
