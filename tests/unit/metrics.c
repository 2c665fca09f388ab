// SPDX-License-Identifier: GPL-2.0-only
/*
 * ts_analysis_metrics() on a hand-built one-second trace: known values (a 100 ns wake delivery,
 * one tick exit, one work item of 2 us), NAN with a reason for the events not recorded, unique
 * names, function names through the symbol hook or as addresses, and the stop value.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "tap.h"
#include "tickscope/analysis.h"

#define S 1000000000ull
#define TICK_FN 0xffffffff81000200ull
#define WORK_FN 0xffffffff81000100ull

struct got {
	char name[160], why[160], section[16], unit[8];
	double value;
	int kind, dir;
};

struct list {
	struct got *v;
	int nr, stop_at;
};

static int collect(void *ctx, const struct ts_metric *m)
{
	struct list *l = ctx;
	struct got *g;

	if (l->stop_at && l->nr + 1 == l->stop_at)
		return 7;
	g = realloc(l->v, (size_t)(l->nr + 1) * sizeof(*g));
	if (!g)
		return -1;
	l->v = g;
	g = &l->v[l->nr++];
	snprintf(g->name, sizeof(g->name), "%s", m->name);
	snprintf(g->why, sizeof(g->why), "%s", m->why_null ? m->why_null : "");
	snprintf(g->section, sizeof(g->section), "%s", m->section);
	snprintf(g->unit, sizeof(g->unit), "%s", m->unit);
	g->value = m->value;
	g->kind = m->kind;
	g->dir = m->dir;
	return 0;
}

static const struct got *find(const struct list *l, const char *name)
{
	int i;

	for (i = 0; i < l->nr; i++)
		if (!strcmp(l->v[i].name, name))
			return &l->v[i];
	return NULL;
}

static const char *sym(void *ctx, uint64_t addr, uint64_t *off)
{
	if (off)
		*off = 0;
	return addr == TICK_FN ? "tick_nohz_handler" : addr == WORK_FN ? "vmstat_update" : NULL;
}

static void feed(struct ts_analysis *a, struct ts_event ev)
{
	ts_analysis_feed(a, &ev);
}

static struct ts_analysis *build(int symbols)
{
	static const char *const rec[] = { "sched:sched_switch",
					   "sched:sched_waking",
					   "sched:sched_wakeup",
					   "power:cpu_idle",
					   "timer:hrtimer_expire_entry",
					   "timer:hrtimer_expire_exit",
					   "workqueue:workqueue_execute_start",
					   "workqueue:workqueue_execute_end" };
	struct ts_analysis *a;
	struct ts_event ev;
	size_t i;

	if (ts_analysis_new(&a, NULL))
		return NULL;
	for (i = 0; i < sizeof(rec) / sizeof(rec[0]); i++)
		ts_analysis_note_recorded(a, rec[i]);
	if (symbols)
		ts_analysis_set_symbols(a, sym, NULL);
	feed(a, tev_switch(S, 1, 0, TS_STATE_SLEEPING, 5)); /* cpu 1 runs 5 from 1 s */
	feed(a, tev_idle(S + 100, 0, 1));
	feed(a, tev_timer(TS_EV_HRTIMER_EXPIRE_ENTRY, S + 1000, 0, 0, TICK_FN));
	feed(a, tev_timer(TS_EV_HRTIMER_EXPIRE_EXIT, S + 1400, 0, 0, 0));
	feed(a, tev_idle(S + 1500, 0, TS_IDLE_EXIT));
	if (symbols) { /* perf's COMM records: two kernel threads with a '/', a user task */
		feed(a, tev_comm(5, "pingpong"));
		feed(a, tev_comm(30, "irq/12-virtio0"));
		feed(a, tev_comm(31, "ktimers/0"));
		feed(a, tev_comm(32, "bash"));
	}
	ev = tev_wake(TS_EV_WAKING, S + 2000, 1, 9, 0); /* 5 on cpu 1 wakes 9 toward cpu 0 */
	ev.pid = 5;
	feed(a, ev);
	feed(a, tev_wake(TS_EV_WAKEUP, S + 2100, 1, 9, 0));
	feed(a, tev_switch(S + 2500, 0, 0, TS_STATE_RUNNING, 9));
	feed(a, tev_wq(TS_EV_WQ_START, S + 3000, 0, 9, 0x10, WORK_FN));
	feed(a, tev_wq(TS_EV_WQ_END, S + 5000, 0, 9, 0x10, WORK_FN));
	feed(a, tev_switch(2 * S, 0, 9, TS_STATE_SLEEPING, 0));
	ts_analysis_finish(a);
	return a;
}

struct dists {
	int nr, delivery_count;
};

static int count_dist(void *ctx, const struct ts_dist_series *d)
{
	struct dists *x = ctx;

	x->nr++;
	if (!strcmp(d->name, "sched.wake_delivery"))
		x->delivery_count = (int)d->hist->count;
	return 0;
}

static void is_value(const struct list *l, const char *name, double want)
{
	const struct got *g = find(l, name);

	ok(g && fabs(g->value - want) < 1e-9, "%s = %g (got %g)", name, want, g ? g->value : -1);
}

static void is_null(const struct list *l, const char *name, const char *why)
{
	const struct got *g = find(l, name);

	ok(g && isnan(g->value) && strstr(g->why, why), "%s is NAN: %s (got %s)", name, why,
	   g ? g->why : "no such metric");
}

static void sane(const struct list *l)
{
	int i, j, dup = 0, bad = 0;

	for (i = 0; i < l->nr; i++) {
		const struct got *g = &l->v[i];

		bad += isnan(g->value) != !!g->why[0] ||
		       strncmp(g->name, g->section, strlen(g->section)) || !g->unit[0];
		for (j = 0; j < i; j++)
			dup += !strcmp(l->v[j].name, g->name);
	}
	ok(l->nr > 100, "%d metrics", l->nr);
	is_int(dup, 0, "names are unique");
	is_int(bad, 0, "NAN exactly when there is a reason; names start with their section");
}

/* Switch-out stacks are named by their wait site, past the sleeping primitives. */
static const char *wait_sym(void *ctx, uint64_t addr, uint64_t *off)
{
	static const char *const names[] = {
		"schedule",
		"schedule_timeout",
		"__wait_for_common",
		"wait_for_completion",
		"__synchronize_srcu",
		"synchronize_srcu",
		"unregister_shrinker",
		"deactivate_locked_super",
		"schedule_preempt_disabled",
		"__mutex_lock.constprop.0",
		"__mutex_lock_slowpath",
		"mutex_lock",
		"synchronize_rcu_expedited",
		"namespace_unlock",
	};

	if (off)
		*off = 0;
	addr -= 0xffff000000000000ull;
	return addr < sizeof(names) / sizeof(names[0]) ? names[addr] : NULL;
}

static void test_wait_site(void)
{
	static const uint64_t srcu[] = { 0xffff000000000000ull, 0xffff000000000001ull,
					 0xffff000000000002ull, 0xffff000000000003ull,
					 0xffff000000000004ull, 0xffff000000000005ull,
					 0xffff000000000006ull, 0xffff000000000007ull };
	static const uint64_t mutex[] = { 0xffff000000000000ull, 0xffff000000000008ull,
					  0xffff000000000009ull, 0xffff00000000000aull,
					  0xffff00000000000bull, 0xffff00000000000cull,
					  0xffff00000000000dull };
	struct list l = { 0 };
	struct ts_analysis *a;
	struct ts_event ev;

	if (ts_analysis_new(&a, NULL))
		return;
	ts_analysis_note_recorded(a, "sched:sched_switch");
	ts_analysis_set_symbols(a, wait_sym, NULL);
	feed(a, tev_switch(S, 0, 0, TS_STATE_RUNNING, 5));
	ev = tev_switch(S + 1000, 0, 5, TS_STATE_DISK, 0);
	ev.ips = srcu, ev.nr_ips = 8;
	feed(a, ev);
	feed(a, tev_switch(S + 4000, 0, 0, TS_STATE_RUNNING, 5));
	ev = tev_switch(S + 5000, 0, 5, TS_STATE_DISK, 0);
	ev.ips = mutex, ev.nr_ips = 7;
	feed(a, ev);
	feed(a, tev_switch(S + 5500, 0, 0, TS_STATE_RUNNING, 5));
	ts_analysis_finish(a);
	if (!ts_analysis_metrics(a, collect, &l)) {
		is_value(&l,
			 "sched.offcpu_stack.synchronize_srcu;unregister_shrinker;"
			 "deactivate_locked_super.D.sum",
			 3000);
		is_value(&l,
			 "sched.offcpu_stack.mutex_lock;synchronize_rcu_expedited;"
			 "namespace_unlock.D.sum",
			 500);
	}
	ts_analysis_free(a);
	free(l.v);
}

/*
 * An event recorded but never sampled while the other half of its pair was: on an isolated
 * run hrtimer_expire_entry had 0 samples and hrtimer_expire_exit 2,496, and the tick's figures
 * came out 0. They are unmeasured, with the reason; a pair with neither half seen is a true 0.
 */
/*
 * An analysis that recorded the @n events @rec, with the symbols, and cpu 1 running task 5
 * from 1 s: the start of the unseen-half tests. NULL when it cannot be made.
 */
static struct ts_analysis *recorded(const char *const *rec, size_t n)
{
	struct ts_analysis *a;

	if (ts_analysis_new(&a, NULL))
		return NULL;
	for (size_t i = 0; i < n; i++)
		ts_analysis_note_recorded(a, rec[i]);
	ts_analysis_set_symbols(a, sym, NULL);
	feed(a, tev_switch(S, 1, 0, TS_STATE_SLEEPING, 5));
	return a;
}

static void test_unseen_half(void)
{
	static const char *const rec[] = { "sched:sched_switch", "power:cpu_idle",
					   "timer:hrtimer_expire_entry", "timer:hrtimer_expire_exit",
					   "timer:timer_expire_entry", "timer:timer_expire_exit" };
	const char *why = "timer:hrtimer_expire_entry recorded but never seen while "
			  "timer:hrtimer_expire_exit was, 2 times";
	struct list l = { 0 };
	struct ts_analysis *a;

	a = recorded(rec, sizeof(rec) / sizeof(rec[0]));
	if (!a)
		return;
	feed(a, tev_idle(S + 100, 0, 1));
	feed(a, tev_timer(TS_EV_HRTIMER_EXPIRE_EXIT, S + 1400, 0, 0, 0));
	feed(a, tev_idle(S + 1500, 0, TS_IDLE_EXIT));
	feed(a, tev_idle(S + 2000, 0, 1));
	feed(a, tev_timer(TS_EV_HRTIMER_EXPIRE_EXIT, S + 3400, 0, 0, 0));
	feed(a, tev_idle(S + 3500, 0, TS_IDLE_EXIT));
	feed(a, tev_switch(2 * S, 1, 5, TS_STATE_SLEEPING, 0));
	ts_analysis_finish(a);
	if (!ts_analysis_metrics(a, collect, &l)) {
		is_null(&l, "timer.expire.hrtimer.per_s", why);
		is_null(&l, "timer.expire.tick.per_s", why);
		is_null(&l, "timer.expire.per_s", why);
		is_null(&l, "idle.exits.hrtimer.per_s", why);
		is_null(&l, "idle.exits.tick.per_s", why);
		/*
		 * the exits the tick ended went to the next event seen, or untraced: no cause's
		 * count is known, but how many exits there were is
		 */
		is_null(&l, "idle.exits.untraced.per_s", why);
		is_null(&l, "idle.exits.timer.per_s", why);
		is_null(&l, "idle.exits.wakeup.per_s", why);
		is_null(&l, "idle.exits.other.per_s", why);
		is_value(&l, "idle.exits.per_s", 1);
		/* timer_expire_entry and _exit: both recorded, neither seen: none happened */
		is_value(&l, "timer.expire.timer.per_s", 0);
	}
	ts_analysis_free(a);
	free(l.v);
}

/*
 * The same loss inside a hard IRQ: hard IRQ time counts the timer callbacks inside it, which
 * with their entries lost is a wrong figure (in a real trace with them dropped, 23% more).
 */
static void test_unseen_half_irq(void)
{
	static const char *const rec[] = { "sched:sched_switch", "irq:irq_handler_entry",
					   "irq:irq_handler_exit", "timer:hrtimer_expire_entry",
					   "timer:hrtimer_expire_exit" };
	const char *why = "timer:hrtimer_expire_entry recorded but never seen while "
			  "timer:hrtimer_expire_exit was, 1 times";
	struct ts_event e = { .time = S + 1000, .cpu = 0, .kind = TS_EV_IRQ_ENTRY };
	struct list l = { 0 };
	struct ts_analysis *a;

	a = recorded(rec, sizeof(rec) / sizeof(rec[0]));
	if (!a)
		return;
	e.irq.irq = 11;
	feed(a, e);
	feed(a, tev_timer(TS_EV_HRTIMER_EXPIRE_EXIT, S + 1400, 0, 0, 0));
	e.time = S + 1500;
	e.kind = TS_EV_IRQ_EXIT;
	feed(a, e);
	feed(a, tev_switch(2 * S, 1, 5, TS_STATE_SLEEPING, 0));
	ts_analysis_finish(a);
	if (!ts_analysis_metrics(a, collect, &l)) {
		is_null(&l, "irq.hardirq.ns_per_s", why);
		/* the softirq class has no timer_expire_* recorded: its time stands */
		is_null(&l, "irq.softirq.ns_per_s", "irq:softirq_entry not recorded");
	}
	ts_analysis_free(a);
	free(l.v);
}

int main(void)
{
	struct list l = { 0 }, stop = { .stop_at = 3 };
	struct ts_analysis *a = build(1);

	ok(a, "analysis built");
	if (!a)
		return tap_done();
	is_int(ts_analysis_metrics(a, collect, &l), 0, "metrics walk returns 0");
	sane(&l);
	is_value(&l, "sched.wake_delivery.p50", 100);
	is_value(&l, "sched.wakeup_latency.max", 500);
	is_value(&l, "sched.switches.per_s", 1); /* switch-outs of tasks: 9 at 2 s */
	is_null(&l, "sched.migrations.per_s", "sched:sched_migrate_task not recorded");
	is_value(&l, "idle.exits.hrtimer.per_s", 1);
	is_value(&l, "idle.exits.tick.per_s", 1);
	is_value(&l, "idle.exits.other_hrtimer.per_s", 0);
	is_null(&l, "idle.exits.timer.per_s", "timer:timer_expire_entry not recorded");
	is_null(&l, "idle.tick_stop.fail.per_s", "timer:tick_stop not recorded");
	is_value(&l, "timer.expire.tick_nohz_handler.per_s", 1);
	is_value(&l, "timer.expire.tick_nohz_handler.handler.p50", 400);
	is_value(&l, "workqueue.work.vmstat_update.per_s", 1);
	is_value(&l, "workqueue.work.vmstat_update.duration.max", 2000);
	is_null(&l, "workqueue.work.vmstat_update.queue_latency.p99",
		"workqueue:workqueue_queue_work not recorded");
	is_null(&l, "rcu.gp.per_s", "rcu:rcu_grace_period not recorded");
	is_null(&l, "shrinker.calls.per_s", "vmscan:mm_shrink_slab_start not recorded");
	is_value(&l, "sched.woken_by.wakes", 1);
	is_value(&l, "sched.woken_by.pingpong.share", 100); /* by its common_pid's comm */
	is_value(&l, "sched.threads.count", 2); /* the '/' ones: bash is a user task */
	is_value(&l, "sched.threads.irq.count", 1);
	is_value(&l, "sched.threads.ktimers.count", 1);
	ok(!find(&l, "sched.threads.bash.count"), "a user task is not counted as a thread");
	ok(find(&l, "workqueue.work.per_s")->kind == TS_METRIC_RATE &&
		   find(&l, "sched.wake_delivery.p99")->dir == TS_DIR_LOWER,
	   "rates are rates, latencies lower-is-better");
	is_int(ts_analysis_metrics(a, collect, &stop), 7, "a non-zero return stops the walk");
	is_int(stop.nr, 2, "after two metrics");
	{
		struct dists d = { 0 };

		is_int(ts_analysis_dists(a, count_dist, &d), 0,
		       "the distributions' walk returns 0");
		ok(d.nr > 10 && d.delivery_count == 1, "%d distributions, sched.wake_delivery of 1",
		   d.nr);
	}
	ts_analysis_free(a);
	free(l.v);
	l = (struct list){ 0 };
	a = build(0);
	if (a && !ts_analysis_metrics(a, collect, &l)) {
		is_value(&l, "workqueue.work.0xffffffff81000100.per_s", 1);
		is_null(&l, "idle.exits.tick.per_s", "no symbols");
		is_null(&l, "sched.threads.count", "no COMM records");
		is_value(&l, "sched.woken_by.unknown.share", 100); /* 5 never named */
	}
	ts_analysis_free(a);
	free(l.v);
	free(stop.v);
	test_wait_site();
	test_unseen_half();
	test_unseen_half_irq();
	return tap_done();
}
