// SPDX-License-Identifier: GPL-2.0-only
/* The sched model on hand-built event sequences with known answers. */
#include <string.h>

#include "events.h"
#include "tap.h"
#include "tickscope/sched.h"

static struct ts_sched *m;
static int feed_err;

static void feed(struct ts_event *ev)
{
	feed_err |= ts_sched_feed(m, ev);
}

static void sw(uint64_t t, int cpu, int prev, int state, int next)
{
	struct ts_event ev = tev_switch(t, cpu, prev, state, next);

	snprintf(ev.sw.prev_comm, TS_COMM_LEN, prev ? "task%d" : "swapper/%d", prev ? prev : cpu);
	snprintf(ev.sw.next_comm, TS_COMM_LEN, next ? "task%d" : "swapper/%d", next ? next : cpu);
	feed(&ev);
}

static void sw_stack(uint64_t t, int cpu, int prev, int state, int next, const uint64_t *ips,
		     uint32_t n)
{
	struct ts_event ev = tev_switch(t, cpu, prev, state, next);

	ev.ips = ips;
	ev.nr_ips = n;
	feed(&ev);
}

static void wake(int kind, uint64_t t, int cpu, int pid, int target)
{
	struct ts_event ev = tev_wake(kind, t, cpu, pid, target);

	feed(&ev);
}

static void idle(uint64_t t, int cpu, uint32_t state)
{
	struct ts_event ev = tev_idle(t, cpu, state);

	feed(&ev);
}

static void test_perf_rules(void)
{
	const struct ts_sched_task *a, *b;
	const struct ts_sched_totals *tot;

	ts_sched_new(&m, NULL);
	ts_sched_wakeup_recorded(m);
	ts_sched_waking_recorded(m);
	sw(100, 0, 0, 0, 10); /* first switch on CPU 0: nothing measured */
	sw(200, 0, 10, TS_STATE_SLEEPING, 0);
	wake(TS_EV_WAKING, 300, 1, 10, 0); /* CPU 0 runs the idle task: cross-CPU, idle */
	wake(TS_EV_WAKEUP, 310, 0, 10, 0);
	sw(350, 0, 0, 0, 10);
	sw(400, 0, 10, TS_STATE_RUNNING, 11); /* preempted: R */
	sw(450, 0, 11, TS_STATE_SLEEPING, 10);
	sw(500, 0, 10, TS_STATE_DISK, 0);
	ts_sched_finish(m, 600);
	ok(!feed_err, "fed without error");
	a = ts_sched_task_find(m, 10);
	b = ts_sched_task_find(m, 11);
	ok(a && b, "tasks 10 and 11 exist");
	if (!a || !b)
		return;
	ok(!strcmp(a->comm, "task10"), "comm from sched_switch");
	is_int(a->nr_switches, 3, "A: 3 switch-outs (perf's sched-in count)");
	is_int(a->run.count, 3, "A: 3 run slices");
	is_int(a->run.sum, 200, "A: run time 100+50+50");
	is_int(a->delay.count, 2, "A: 2 sched delays");
	is_int(a->delay.sum, 90, "A: sched delay 40 (from the wakeup) + 50 (from R)");
	is_int(a->delay_perf, 50, "A: perf's sch delay counts the wake only, not R");
	is_int(a->nr_involuntary, 1, "A: 1 involuntary");
	is_int(a->nr_voluntary, 2, "A: 2 voluntary");
	is_int(a->delivery.sum, 10, "A: wake delivery 10");
	is_int(a->wakelat.sum, 50, "A: wakeup latency 50");
	is_int(a->off[TS_OFF_S].sum, 150, "A: off-CPU S 150");
	is_int(a->off[TS_OFF_R].sum, 50, "A: off-CPU R 50");
	is_int(a->off[TS_OFF_D].count, 0, "A: D still open at the end: not counted");
	is_int(a->wake_class[TS_WAKE_CROSS_IDLE], 1, "A: cross-CPU idle wake");
	is_int(b->run.sum, 50, "B: run 50");
	is_int(b->delay.count, 0, "B: no delay (never woken)");
	tot = ts_sched_totals(m);
	is_int(tot->run.sum, 250, "totals: run");
	is_int(a->wakelat.sum, a->delivery.sum + 40, "wakeup latency = delivery + sched delay");
	is_int(tot->class_delivery[TS_WAKE_CROSS_IDLE].sum, 10, "totals: class delivery");
	is_int(ts_sched_cpu(m, 0)->busy, 100 + 50 + 50 + 50, "CPU 0 busy from the first switch");
	is_int(ts_sched_cpu(m, 0)->idle, 150 + 100, "CPU 0 idle, closed at finish");
	is_int(ts_sched_cpu(m, 0)->wakeups_remote, 1, "CPU 0: 1 remote wakeup received");
	ok(!strcmp(ts_sched_comm(m, 0), "swapper"), "pid 0 is swapper");
	ts_sched_free(m);
}

static void test_classes(void)
{
	const struct ts_sched_task *t;

	ts_sched_new(&m, NULL);
	sw(10, 0, 0, 0, 20); /* CPU 0 busy with 20 */
	sw(10, 3, 0, 0, 0); /* CPU 3 idle */
	idle(10, 2, 1); /* CPU 2 inside cpu_idle, no switch seen */
	/* same CPU, busy */
	wake(TS_EV_WAKING, 100, 0, 21, 0);
	wake(TS_EV_WAKEUP, 101, 0, 21, 0);
	/* same CPU, idle (from cpu_idle only) */
	wake(TS_EV_WAKING, 110, 2, 22, 2);
	idle(111, 2, TS_IDLE_EXIT);
	wake(TS_EV_WAKEUP, 112, 2, 22, 2);
	/* cross-CPU busy */
	wake(TS_EV_WAKING, 120, 2, 23, 0);
	wake(TS_EV_WAKEUP, 125, 0, 23, 0);
	/* waking says CPU 0 (busy), wakeup puts it on idle CPU 3: class from CPU 3 at waking */
	wake(TS_EV_WAKING, 130, 0, 24, 0);
	sw(131, 3, 0, 0, 0);
	wake(TS_EV_WAKEUP, 140, 0, 24, 3);
	/* target CPU never seen: unclassified, not a fake class */
	wake(TS_EV_WAKING, 150, 0, 25, 7);
	wake(TS_EV_WAKEUP, 151, 7, 25, 7);
	ok(!feed_err, "fed without error");
	t = ts_sched_task_find(m, 21);
	is_int(t ? t->wake_class[TS_WAKE_SAME_BUSY] : 0, 1, "same-CPU busy");
	t = ts_sched_task_find(m, 22);
	is_int(t ? t->wake_class[TS_WAKE_SAME_IDLE] : 0, 1, "same-CPU idle (inside cpu_idle)");
	t = ts_sched_task_find(m, 23);
	is_int(t ? t->wake_class[TS_WAKE_CROSS_BUSY] : 0, 1, "cross-CPU busy");
	is_int(t ? t->delivery.sum : 0, 5, "cross-CPU busy: delivery 5");
	t = ts_sched_task_find(m, 24);
	is_int(t ? t->wake_class[TS_WAKE_CROSS_IDLE] : 0, 1, "retargeted wake: cross-CPU idle");
	t = ts_sched_task_find(m, 25);
	is_int(t ? t->nr_wake_unclassified : 0, 1, "unknown target state: unclassified");
	is_int(ts_sched_totals(m)->nr_wakeups, 5, "5 wakes counted");
	ts_sched_free(m);
}

static int only_30(void *ctx __attribute__((unused)), int32_t pid __attribute__((unused)),
		   const char *comm)
{
	return !strcmp(comm, "task30");
}

static void test_stacks_filter_migrate(void)
{
	static const uint64_t ips1[] = { 0xffff0001, 0xffff0002, 0xffff0003 };
	static const uint64_t ips2[] = { 0xffff0001, 0xffff0009 };
	struct ts_model_opts o = { .task_filter = only_30 };
	struct ts_event ev = { .time = 5, .cpu = 1, .kind = TS_EV_MIGRATE };
	const struct ts_sched_stack *s;
	size_t i;
	uint64_t d_total = 0, s_total = 0;

	ts_sched_new(&m, &o);
	sw(100, 0, 0, 0, 30);
	sw_stack(200, 0, 30, TS_STATE_DISK, 31, ips1, 3);
	sw(300, 0, 31, TS_STATE_SLEEPING, 30); /* 30 off-CPU 100 ns in D, stack 1 */
	sw_stack(400, 0, 30, TS_STATE_SLEEPING, 0, ips2, 2);
	sw(450, 0, 0, 0, 30); /* 50 ns in S, stack 2 */
	sw_stack(500, 0, 30, TS_STATE_DISK, 0, ips1, 3);
	sw(800, 0, 0, 0, 30); /* 300 ns in D, stack 1 */
	ev.migrate.pid = 30;
	feed(&ev);
	ok(!feed_err, "fed without error");
	is_int(ts_sched_nr_stacks(m), 2, "2 distinct stacks");
	for (i = 0; i < ts_sched_nr_stacks(m); i++) {
		s = ts_sched_stack_at(m, i);
		if (s->nr_ips == 3)
			d_total = s->by_state[TS_OFF_D];
		else
			s_total = s->by_state[TS_OFF_S];
	}
	is_int(d_total, 400, "stack 1: 400 ns in D");
	s = ts_sched_stack_at(m, 0);
	ok(s->tasks[0].pid == 30 && s->tasks[0].ns == 400 && !s->tasks[1].pid,
	   "stack 1: task 30 has all of it");
	is_int(s_total, 50, "stack 2: 50 ns in S");
	is_int(ts_sched_task_find(m, 30)->nr_migrations, 1, "migration counted");
	ok(ts_sched_task_find(m, 30)->selected, "task30 selected by comm");
	ok(!ts_sched_task_find(m, 31)->selected, "task31 not selected");
	is_int(ts_sched_totals(m)->nr_switches, 3, "totals count selected tasks only");
	ts_sched_free(m);
}

/* perf timehist ignores sched_wakeup when sched_waking is recorded, even for a wake that
 * came while the task was still on its CPU; our delay starts at that wakeup. */
static void test_early_waking(void)
{
	const struct ts_sched_task *t;

	ts_sched_new(&m, NULL);
	ts_sched_waking_recorded(m);
	sw(100, 0, 0, 0, 40);
	wake(TS_EV_WAKING, 150, 1, 40, 0); /* still running */
	sw(160, 0, 40, TS_STATE_DISK, 41);
	wake(TS_EV_WAKEUP, 200, 0, 40, 0);
	sw(230, 0, 41, TS_STATE_RUNNING, 40);
	sw(300, 0, 40, TS_STATE_SLEEPING, 0);
	t = ts_sched_task_find(m, 40);
	ok(t != NULL, "task 40");
	is_int(t ? t->delay.sum : 0, 30, "delay from the wakeup after the switch-out");
	is_int(t ? t->delay_perf : 0, 0, "perf's rule: no delay (waking came before switch-out)");
	is_int(t ? t->off[TS_OFF_D].sum : 0, 70, "off-CPU D 70");
	is_int(t ? t->nr_wake_running : 0, 1, "the waking found it running: no class");
	is_int(t ? t->delivery.count : 0, 0, "and no delivery time");
	ts_sched_free(m);
}

/* A switch-out of a task no switch put on the CPU is a broken chain, counted per CPU. */
static void test_broken_chains(void)
{
	m = NULL;
	feed_err = ts_sched_new(&m, NULL);
	sw(100, 0, 0, 0, 10);
	sw(200, 0, 10, 1, 0); /* the chain holds */
	sw(300, 0, 20, 1, 0); /* 20 never switched in on cpu 0 */
	sw(400, 1, 0, 0, 30); /* the first switch on cpu 1: nothing to break */
	sw(500, 1, 40, 1, 0);
	sw(600, 1, 0, 0, 40); /* idle was current: fine */
	ts_sched_finish(m, 700);
	is_int(feed_err, 0, "broken chains: fed");
	is_int(ts_sched_cpu(m, 0)->broken_chains, 1, "cpu 0: one switch-out of a task not on it");
	is_int(ts_sched_cpu(m, 1)->broken_chains, 1, "cpu 1: one");
	ts_sched_free(m);
}

int main(void)
{
	test_broken_chains();
	test_early_waking();
	test_perf_rules();
	test_classes();
	test_stacks_filter_migrate();
	return tap_done();
}
