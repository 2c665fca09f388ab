// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sched section's line of the section table and its metrics: switch, wake and migration
 * rates, run time and sched delay (both rules), wake classes, off-CPU time and top stacks.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sched_priv.h"
#include "sink.h"
#include "tickscope/sched.h"

#define TOP_STACKS 10

int ts_sched_is_sched_frame(const char *name)
{
	static const char *const frames[] = { "__traceiter_sched_switch",
					      "__schedule",
					      "schedule",
					      "preempt_schedule",
					      "preempt_schedule_common",
					      "preempt_schedule_irq",
					      "schedule_idle",
					      NULL };
	int i;

	for (i = 0; name && frames[i]; i++)
		if (!strcmp(name, frames[i]))
			return 1;
	return 0;
}

static const char *const class_names[TS_WAKE_NR] = { "same_cpu_idle", "same_cpu_busy",
						     "cross_cpu_idle", "cross_cpu_busy" };
static const char *const off_names[TS_OFF_NR] = { "R", "S", "D", "other" };

static void class_metrics(const struct ts_sched_totals *t, struct ts_metric_sink *s,
			  const char *why, const char *dlv, const char *lat)
{
	uint64_t all = 0;
	int c;

	for (c = 0; c < TS_WAKE_NR; c++)
		all += t->wake_class[c];
	for (c = 0; c < TS_WAKE_NR; c++) {
		if (why)
			tm_null(s, "count", TS_DIR_NEUTRAL, TS_METRIC_VALUE, why,
				"wake_class.%s.count", class_names[c]);
		else
			tm_value(s, "count", TS_DIR_NEUTRAL, (double)t->wake_class[c],
				 "wake_class.%s.count", class_names[c]);
		tm_value(s, "%", TS_DIR_NEUTRAL,
			 !why && all ? 100.0 * (double)t->wake_class[c] / (double)all : NAN,
			 "wake_class.%s.share", class_names[c]);
		tm_dist(s, TS_DIR_LOWER, &t->class_delivery[c], dlv, "wake_class.%s.wake_delivery",
			class_names[c]);
		tm_dist(s, TS_DIR_LOWER, &t->class_wakelat[c], lat, "wake_class.%s.wakeup_latency",
			class_names[c]);
	}
}

/* @name without the compiler's clone suffix (".constprop.0", ".isra.0", ".part.0", ".cold"). */
static size_t base_len(const char *name)
{
	return strcspn(name, ".");
}

/*
 * Frames that say how a task sleeps, not why: timeouts, completions, bit waits, and the slow
 * paths of the sleeping locks, whose public entry (mutex_lock, down_read, rt_spin_lock) is
 * kept, since it names the kind of lock. A stack is named after what lies past them, the
 * wait site: synchronize_srcu;unregister_shrinker;deactivate_locked_super rather than
 * schedule_timeout;__wait_for_common;wait_for_completion, which every completion shares.
 */
static int is_wait_frame(const char *name)
{
	static const char *const frames[] = { "schedule_timeout",
					      "schedule_hrtimeout",
					      "schedule_hrtimeout_range",
					      "schedule_hrtimeout_range_clock",
					      "schedule_preempt_disabled",
					      "io_schedule",
					      "io_schedule_timeout",
					      "do_wait_for_common",
					      "__wait_for_common",
					      "wait_for_common",
					      "wait_for_common_io",
					      "wait_for_completion",
					      "wait_for_completion_io",
					      "wait_for_completion_timeout",
					      "wait_for_completion_io_timeout",
					      "wait_for_completion_interruptible",
					      "wait_for_completion_interruptible_timeout",
					      "wait_for_completion_killable",
					      "wait_for_completion_killable_timeout",
					      "wait_for_completion_state",
					      "bit_wait",
					      "bit_wait_io",
					      "bit_wait_timeout",
					      "__wait_on_bit",
					      "__wait_on_bit_lock",
					      "out_of_line_wait_on_bit",
					      "out_of_line_wait_on_bit_lock",
					      "__mutex_lock",
					      "__mutex_lock_slowpath",
					      "__mutex_lock_interruptible_slowpath",
					      "__mutex_lock_killable_slowpath",
					      "__ww_mutex_lock",
					      "rwsem_down_read_slowpath",
					      "rwsem_down_write_slowpath",
					      "__down",
					      "__down_common",
					      "__down_interruptible",
					      "__down_killable",
					      "__down_timeout",
					      "rt_mutex_slowlock",
					      "rt_mutex_slowlock_block",
					      "__rt_mutex_slowlock",
					      "__rt_mutex_slowlock_locked",
					      "rtlock_slowlock",
					      "rtlock_slowlock_locked",
					      "rwbase_read_lock",
					      "rwbase_write_lock",
					      "__rwbase_read_lock",
					      NULL };
	size_t n = base_len(name);

	for (int i = 0; frames[i]; i++)
		if (strlen(frames[i]) == n && !strncmp(name, frames[i], n))
			return 1;
	return 0;
}

/* Is @name the double-underscore helper of @caller (__synchronize_srcu under synchronize_srcu)? */
static int is_helper_of(const char *name, const char *caller)
{
	size_t n = base_len(name), c = base_len(caller);

	return n == c + 2 && !strncmp(name, "__", 2) && !strncmp(name + 2, caller, c);
}

const char *tm_stack_name(struct ts_metric_sink *s, const struct ts_sched_stack *st, char *out,
			  size_t len)
{
	char buf[24], next[24];
	const char *name;
	uint32_t i, k;
	size_t n = 0;

	for (i = 0; i + 1 < st->nr_ips; i++) {
		name = tm_fn(s, st->ips[i], buf, sizeof(buf));
		if (!ts_sched_is_sched_frame(name) && !is_wait_frame(name) &&
		    !is_helper_of(name, tm_fn(s, st->ips[i + 1], next, sizeof(next))))
			break;
	}
	out[0] = 0;
	for (k = 0; i < st->nr_ips && k < 3 && n < len; i++, k++) {
		name = tm_fn(s, st->ips[i], buf, sizeof(buf));
		n += (size_t)snprintf(out + n, len - n, "%s%s", k ? ";" : "", name);
	}
	return out;
}

static void stack_metrics(const struct ts_sched *m, struct ts_metric_sink *s, const char *why)
{
	size_t n = ts_sched_nr_stacks(m), best[TOP_STACKS], nr = 0, i, j;
	const struct ts_sched_stack *st;
	char name[256];
	int o;

	if (!why && !n)
		why = "no switch-out callchains (record with perf record -g)";
	if (why) {
		tm_null(s, "count", TS_DIR_NEUTRAL, TS_METRIC_VALUE, why, "offcpu_stacks.count");
		return;
	}
	tm_value(s, "count", TS_DIR_NEUTRAL, (double)n, "offcpu_stacks.count");
	for (i = 0; i < n; i++) { /* the TOP_STACKS heaviest, heaviest first */
		uint64_t tot = ts_sched_stack_at(m, i)->total;

		for (j = nr; j > 0 && ts_sched_stack_at(m, best[j - 1])->total < tot; j--)
			if (j < TOP_STACKS)
				best[j] = best[j - 1];
		if (j < TOP_STACKS) {
			best[j] = i;
			nr += nr < TOP_STACKS;
		}
	}
	for (i = 0; i < nr; i++) {
		st = ts_sched_stack_at(m, best[i]);
		tm_stack_name(s, st, name, sizeof(name));
		tm_value(s, "ns", TS_DIR_LOWER, (double)st->total, "offcpu_stack.%s.sum", name);
		for (o = TS_OFF_S; o <= TS_OFF_D; o++)
			tm_value(s, "ns", TS_DIR_LOWER, (double)st->by_state[o],
				 "offcpu_stack.%s.%s.sum", name, off_names[o]);
	}
}

#define WAKER_CLASSES 32

/* Who woke the selected tasks: sched_waking's waker (task, softirq, hardirq) by class. */
static void waker_metrics(const struct ts_sched *m, struct ts_metric_sink *s, const char *why)
{
	struct ts_sched_waker_sum w[WAKER_CLASSES];
	int n = why ? 0 : ts_sched_wakers(m, NULL, NULL, 0, w, WAKER_CLASSES), i;
	uint64_t all = 0;

	if (why) {
		tm_null(s, "count", TS_DIR_NEUTRAL, TS_METRIC_VALUE, why, "woken_by.wakes");
		return;
	}
	if (n < 0) {
		s->err = s->err ?: n;
		return;
	}
	for (i = 0; i < n; i++)
		all += w[i].wakes;
	tm_value(s, "count", TS_DIR_NEUTRAL, (double)all, "woken_by.wakes");
	for (i = 0; i < n; i++)
		if (w[i].wakes) /* "none" ends preemptions: no wake */
			tm_value(s, "%", TS_DIR_NEUTRAL, 100.0 * (double)w[i].wakes / (double)all,
				 "woken_by.%s.share", w[i].cls);
}

/*
 * The kernel's per-CPU and per-device threads that existed, by class: what a kernel runs
 * besides the benchmark (irq/N-* for threaded interrupts, ktimers, rcuc), whether or not
 * they ran.
 */
static void thread_metrics(const struct ts_sched *m, struct ts_metric_sink *s)
{
	uint64_t all = 0;
	size_t i;

	if (!ts_sched_comm_records(m)) {
		tm_null(s, "count", TS_DIR_NEUTRAL, TS_METRIC_VALUE,
			"no COMM records (perf's plugin API delivers none)", "threads.count");
		return;
	}
	for (i = 0; i < ts_sched_nr_thread_classes(m); i++)
		all += ts_sched_thread_class_at(m, i)->threads;
	tm_value(s, "count", TS_DIR_NEUTRAL, (double)all, "threads.count");
	for (i = 0; i < ts_sched_nr_thread_classes(m); i++)
		tm_value(s, "count", TS_DIR_NEUTRAL,
			 (double)ts_sched_thread_class_at(m, i)->threads, "threads.%s.count",
			 ts_sched_thread_class_at(m, i)->cls);
}

static int sched_metrics(const void *mv, struct ts_metric_sink *s)
{
	const struct ts_sched *m = mv;
	const struct ts_sched_totals *t = ts_sched_totals(m);
	const char *sw = tm_why(s, TS_EV_SWITCH), *waking = tm_why(s, TS_EV_WAKING);
	const char *wakeup = tm_why(s, TS_EV_WAKEUP), *wake = waking && wakeup ? waking : NULL;
	const char *dlv = waking ? waking : wakeup, *lat = waking ? waking : sw;
	/* what the recording does not measure (a per-task one): the model says why */
	const char *run = sw ?: ts_sched_run_why(m, t->nr_broken);
	const char *wk = ts_sched_wakes_why(m), *off = sw ?: ts_sched_off_why(m);
	/* the tasks that exited and were folded (ts_model_opts.top_tasks), then the others */
	double perf = (double)sched_folded_delay_perf(m);
	size_t i;
	int o;

	tm_rate(s, TS_DIR_NEUTRAL, t->nr_switches, sw, "switches.per_s");
	tm_rate(s, TS_DIR_NEUTRAL, t->nr_wakeups, wake ?: wk, "wakeups.per_s");
	tm_rate(s, TS_DIR_LOWER, t->nr_migrations, tm_why(s, TS_EV_MIGRATE), "migrations.per_s");
	tm_dist(s, TS_DIR_NEUTRAL, &t->run, run, "run");
	tm_dist(s, TS_DIR_LOWER, &t->delay, run, "delay");
	for (i = 0; i < ts_sched_nr_tasks(m); i++)
		if (ts_sched_task_at(m, i)->selected)
			perf += (double)ts_sched_task_at(m, i)->delay_perf;
	if (run && !sw)
		tm_null(s, "ns", TS_DIR_LOWER, TS_METRIC_VALUE, run, "delay_perf.sum");
	else
		tm_value(s, "ns", TS_DIR_LOWER, sw ? NAN : perf, "delay_perf.sum");
	tm_dist(s, TS_DIR_LOWER, &t->delivery, dlv ?: wk, "wake_delivery");
	tm_dist(s, TS_DIR_LOWER, &t->wakelat, lat ?: wk, "wakeup_latency");
	class_metrics(t, s, wake ?: wk, dlv ?: wk, lat ?: wk);
	waker_metrics(m, s, waking ?: wk);
	thread_metrics(m, s);
	for (o = 0; o < TS_OFF_NR; o++)
		tm_dist(s, TS_DIR_LOWER, &t->off[o], off, "off_cpu.%s", off_names[o]);
	stack_metrics(m, s, off);
	return s->err;
}

static void sched_recorded(void *m, int kind)
{
	if (kind == TS_EV_WAKING)
		ts_sched_waking_recorded(m);
	if (kind == TS_EV_WAKEUP)
		ts_sched_wakeup_recorded(m);
}

TS_SECTION_GLUE(sched, struct ts_sched)

/*
 * cpu_idle: a wake target inside idle is idle; comm: names, whatever the filters; forks (the
 * tracepoint and perf's FORK records): who forked each task, the process tree; migrations
 * are counted per task whichever section the event table gives them to; a work item's start
 * and end: the work function a kworker runs when it wakes a task; exits: a report of the top
 * tasks folds those that exited (ts_model_opts.top_tasks).
 */
static const uint16_t also[] = { TS_EV_CPU_IDLE,     TS_EV_COMM,	 TS_EV_FORK,
				 TS_EV_PROCESS_FORK, TS_EV_MIGRATE,	 TS_EV_WQ_START,
				 TS_EV_WQ_END,	     TS_EV_PROCESS_EXIT, TS_EV_LOST };

const struct ts_section_ops ts_sched_section = {
	.name = "sched",
	.also = also,
	.nr_also = sizeof(also) / sizeof(also[0]),
	TS_SECTION_OPS_GLUE(sched),
	.feed_kind = ts_sched_feed_kind,
	.recorded = sched_recorded,
	.metrics = sched_metrics,
};
