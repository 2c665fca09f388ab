// SPDX-License-Identifier: GPL-2.0-only
/* The sched model on hand-built event sequences with known answers. */
#include <inttypes.h>
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
	is_int(a->run->count, 3, "A: 3 run slices");
	is_int(a->run->sum, 200, "A: run time 100+50+50");
	is_int(a->delay->count, 2, "A: 2 sched delays");
	is_int(a->delay->sum, 90, "A: sched delay 40 (from the wakeup) + 50 (from R)");
	is_int(a->delay_perf, 50, "A: perf's sch delay counts the wake only, not R");
	is_int(a->nr_involuntary, 1, "A: 1 involuntary");
	is_int(a->nr_voluntary, 2, "A: 2 voluntary");
	is_int(a->delivery->sum, 10, "A: wake delivery 10");
	is_int(a->wakelat->sum, 50, "A: wakeup latency 50");
	is_int(a->off[TS_OFF_S]->sum, 150, "A: off-CPU S 150");
	is_int(a->off[TS_OFF_R]->sum, 50, "A: off-CPU R 50");
	is_int(a->off[TS_OFF_D]->count, 0, "A: D still open at the end: not counted");
	is_int(a->wake_class[TS_WAKE_CROSS_IDLE], 1, "A: cross-CPU idle wake");
	is_int(b->run->sum, 50, "B: run 50");
	is_int(b->delay->count, 0, "B: no delay (never woken)");
	tot = ts_sched_totals(m);
	is_int(tot->run.sum, 250, "totals: run");
	is_int(a->wakelat->sum, a->delivery->sum + 40, "wakeup latency = delivery + sched delay");
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
	is_int(t ? t->delivery->sum : 0, 5, "cross-CPU busy: delivery 5");
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

/*
 * A task blocking on three stacks in turn (each switch-out's stack is first compared with the
 * task's last two), and two tasks whose pids share a slot of the model's recent tasks.
 */
static void test_stack_hints(void)
{
	static const uint64_t a[] = { 0xffff0001, 0xffff0002, 0xffff0003 };
	static const uint64_t b[] = { 0xffff0001, 0xffff0002, 0xffff0004 };
	static const uint64_t c[] = { 0xffff0001, 0xffff0002 };
	static const uint64_t want_total[] = { 50, 80, 85 };
	const struct ts_sched_task *t5, *t261;
	const struct ts_sched_stack *s;
	size_t i;
	int good = 1;

	ts_sched_new(&m, NULL);
	sw(100, 0, 0, 0, 30);
	sw_stack(200, 0, 30, TS_STATE_DISK, 0, a, 3);
	sw(210, 0, 0, 0, 30); /* 10 ns on a */
	sw_stack(300, 0, 30, TS_STATE_DISK, 0, b, 3);
	sw(320, 0, 0, 0, 30); /* 20 on b */
	sw_stack(400, 0, 30, TS_STATE_DISK, 0, c, 2);
	sw(430, 0, 0, 0, 30); /* 30 on c; a is no longer one of its last two */
	sw_stack(500, 0, 30, TS_STATE_DISK, 0, a, 3);
	sw(540, 0, 0, 0, 30); /* 40 on a */
	sw_stack(600, 0, 30, TS_STATE_DISK, 0, c, 2);
	sw(655, 0, 0, 0, 30); /* 55 on c, the second of its last two */
	sw_stack(700, 0, 30, TS_STATE_DISK, 0, b, 3);
	sw(760, 0, 0, 0, 30); /* 60 on b */
	sw(100, 1, 0, 0, 5);
	sw(150, 1, 5, TS_STATE_SLEEPING, 261); /* 5 and 261: one recent slot of 256 */
	sw(250, 1, 261, TS_STATE_SLEEPING, 5);
	ok(!feed_err, "stack hints: fed");
	is_int(ts_sched_nr_stacks(m), 3, "stack hints: 3 distinct stacks");
	for (i = 0; i < ts_sched_nr_stacks(m) && i < 3; i++) {
		s = ts_sched_stack_at(m, i);
		good &= s->count == 2 && s->total == want_total[i] && s->tasks[0].pid == 30;
	}
	ok(good, "stack hints: a 2 periods 50 ns, b 2 80 ns, c 2 85 ns, all task 30's");
	t5 = ts_sched_task_find(m, 5);
	t261 = ts_sched_task_find(m, 261);
	ok(t5 && t261 && t5 != t261 && t5->pid == 5 && t261->pid == 261,
	   "pids 5 and 261: two tasks");
	ok(t5 && t5->run->sum == 50 && t5->off[TS_OFF_S]->sum == 100 && t261 &&
		   t261->run->sum == 100 && t261->nr_switches == 1,
	   "pids 5 and 261: each its own run and off-CPU time");
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
	is_int(t ? t->delay->sum : 0, 30, "delay from the wakeup after the switch-out");
	is_int(t ? t->delay_perf : 0, 0, "perf's rule: no delay (waking came before switch-out)");
	is_int(t ? t->off[TS_OFF_D]->sum : 0, 70, "off-CPU D 70");
	is_int(t ? t->nr_wake_running : 0, 1, "the waking found it running: no class");
	is_int(t ? t->delivery->count : 0, 0, "and no delivery time");
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

/* A sched_waking by @waker (common_pid) in context @ctx, on @cpu. */
static void waking_by(uint64_t t, int cpu, int waker, int ctx, int pid)
{
	struct ts_event ev = tev_wake(TS_EV_WAKING, t, cpu, pid, 0);

	ev.pid = waker;
	ev.wake.ctx = (uint8_t)ctx;
	feed(&ev);
}

/* A switch that names no task (sw() names them task<N>). */
static void swq(uint64_t t, int cpu, int prev, int state, int next)
{
	struct ts_event ev = tev_switch(t, cpu, prev, state, next);

	feed(&ev);
}

static void comm(int tid, const char *name)
{
	struct ts_event ev = { .kind = TS_EV_COMM };

	ev.comm.tid = tid;
	snprintf(ev.comm.comm, TS_COMM_LEN, "%s", name);
	feed(&ev);
}

static void work(int kind, uint64_t t, int pid, uint64_t fn)
{
	struct ts_event ev = tev_wq(kind, t, 0, pid, 0x1000, fn);

	feed(&ev);
}

static const struct ts_sched_wait *wait_of(int pid, int waker, int state)
{
	for (size_t i = 0; i < ts_sched_nr_waits(m); i++) {
		const struct ts_sched_wait *w = ts_sched_wait_at(m, i);

		if (w->pid == pid && w->waker == waker && w->state == state)
			return w;
	}
	return NULL;
}

static int of_50(void *ctx, const struct ts_sched_wait *w)
{
	return w->pid == *(const int *)ctx;
}

static const char *class_str(const char *comm)
{
	static char buf[24];

	ts_sched_task_class(comm, buf, sizeof(buf));
	return buf;
}

/*
 * Who woke task 50: a kworker inside a work item (ending a D wait on stack A), a hard
 * interrupt on the idle CPU, PREEMPT_RT's ktimers running a softirq, a softirq run inside a
 * kworker, a task never named, a kworker while 50 still ran; one preemption ended by nobody.
 */
static void test_wakers(void)
{
	static const uint64_t stack_a[] = { 0x10, 0x20 };
	const struct ts_sched_wait *w;
	struct ts_sched_waker_sum sum[8];
	char cls[24];
	int n;

	ok(ts_wake_ctx_of(0x25) == TS_CTX_TASK && ts_wake_ctx_of(0x35) == TS_CTX_SOFTIRQ &&
		   ts_wake_ctx_of(0x2d) == TS_CTX_HARDIRQ && ts_wake_ctx_of(0x41) == TS_CTX_HARDIRQ,
	   "common_flags: 0x25 task, 0x35 softirq, 0x2d hardirq, 0x41 (NMI) hardirq");
	ok(!strcmp(class_str("irq/12-virtio0"), "irq") &&
		   !strcmp(class_str("kworker/u16:3"), "kworker") &&
		   !strcmp(class_str("ksoftirqd/12"), "ksoftirqd") &&
		   !strcmp(class_str("rcu_exp_gp_kthr"), "rcu_exp_gp_kthr") &&
		   !strcmp(class_str("a b\tc"), "a_b_c"),
	   "task classes: comm up to '/', trailing digits and odd characters dropped");
	feed_err = ts_sched_new(&m, NULL);
	ts_sched_waking_recorded(m);
	swq(100, 0, 0, 0, 50);
	swq(110, 1, 0, 0, 61);
	comm(61, "ktimers/1");
	sw_stack(200, 0, 50, TS_STATE_DISK, 60, stack_a, 2);
	comm(60, "kthreadd");
	work(TS_EV_WQ_START, 210, 60, 0xabc);
	waking_by(250, 0, 60, TS_CTX_TASK, 50); /* the work item ends the D wait */
	work(TS_EV_WQ_END, 260, 60, 0xabc);
	swq(300, 0, 60, TS_STATE_SLEEPING, 50); /* 100 ns in D on stack A */
	swq(400, 0, 50, TS_STATE_SLEEPING, 0);
	waking_by(450, 0, 0, TS_CTX_HARDIRQ, 50); /* an interrupt on the idle CPU */
	swq(500, 0, 0, 0, 50);
	swq(600, 0, 50, TS_STATE_RUNNING, 60); /* preempted: no wake ends it */
	swq(650, 0, 60, TS_STATE_SLEEPING, 50);
	swq(700, 0, 50, TS_STATE_SLEEPING, 0);
	waking_by(720, 1, 61, TS_CTX_SOFTIRQ, 50); /* ktimers' own softirq */
	swq(800, 0, 0, 0, 50);
	swq(900, 0, 50, TS_STATE_SLEEPING, 0);
	waking_by(910, 1, 60, TS_CTX_SOFTIRQ, 50); /* a softirq on top of the kworker */
	swq(950, 0, 0, 0, 50);
	waking_by(960, 1, 60, TS_CTX_TASK, 50); /* 50 still on CPU 0 */
	swq(1000, 0, 50, TS_STATE_SLEEPING, 0);
	waking_by(1010, 1, 99, TS_CTX_TASK, 50); /* 99: no event named it */
	swq(1100, 0, 0, 0, 50);
	comm(60, "kworker/0:1"); /* the class is of the latest name */
	ts_sched_finish(m, 1200);
	is_int(feed_err, 0, "wakers: fed");
	/* and task 60's S period from 300 to 600, which no recorded wake ended */
	is_int(ts_sched_nr_waits(m), 8, "8 wait entries: 7 of task 50, 1 of task 60");
	w = wait_of(50, 60, TS_OFF_D);
	ok(w && w->work == 0xabc && w->stack == 1 && w->ctx == TS_CTX_TASK && w->wakes == 1 &&
		   w->periods == 1 && w->ns == 100,
	   "the kworker's wake: work 0xabc, stack A, D, ended 100 ns");
	w = wait_of(50, TS_WAKER_NONE, TS_OFF_R);
	ok(w && w->wakes == 0 && w->periods == 1 && w->ns == 50, "the preemption: no waker, 50 ns");
	w = wait_of(50, 60, TS_OFF_NR);
	ok(w && w->wakes == 1 && w->periods == 0 && w->work == 0,
	   "a wake of a task still on its CPU ends no period (and the work item was over)");
	w = wait_of(50, 0, TS_OFF_S);
	ok(w && !strcmp(ts_sched_waker_class(m, w, cls, sizeof(cls)), "hardirq") && w->ns == 100,
	   "pid 0 in a hard interrupt: hardirq, 100 ns");
	w = wait_of(50, 61, TS_OFF_S);
	ok(w && !strcmp(ts_sched_waker_class(m, w, cls, sizeof(cls)), "ktimers"),
	   "a softirq in ktimers is ktimers'");
	w = wait_of(50, 60, TS_OFF_S);
	ok(w && w->ctx == TS_CTX_SOFTIRQ &&
		   !strcmp(ts_sched_waker_class(m, w, cls, sizeof(cls)), "softirq") && w->ns == 50,
	   "a softirq inside a kworker is a softirq's, 50 ns");
	w = wait_of(50, 99, TS_OFF_S);
	ok(w && !strcmp(ts_sched_waker_class(m, w, cls, sizeof(cls)), "unknown"),
	   "a waker never named: unknown");
	n = ts_sched_wakers(m, of_50, &(int){ 50 }, 0, sum, 8);
	is_int(n, 6, "task 50: 6 waker classes");
	ok(n == 6 && !strcmp(sum[0].cls, "kworker") && sum[0].wakes == 2 && sum[0].ns == 100 &&
		   !strcmp(sum[1].cls, "hardirq") && !strcmp(sum[5].cls, "none") &&
		   sum[5].wakes == 0 && sum[5].periods == 1,
	   "by class: kworker 2 wakes first, ..., none (no wake, one period) last");
	n = ts_sched_wakers(m, of_50, &(int){ 50 }, 1, sum, 8);
	/* ties: most periods first, then by name */
	ok(n == 7 && !strcmp(sum[2].cls, "kworker") && sum[2].work == 0xabc && sum[2].wakes == 1 &&
		   !strcmp(sum[5].cls, "kworker") && sum[5].work == 0 && sum[5].periods == 0,
	   "by work: the kworker's two wakes apart, one from work 0xabc");
	n = ts_sched_wakers(m, of_50, &(int){ 50 }, 0, sum, 3);
	ok(n == 3 && !strcmp(sum[0].cls, "kworker") && !strcmp(sum[1].cls, "hardirq") &&
		   !strcmp(sum[2].cls, "other") && sum[2].wakes == 3 && sum[2].periods == 4,
	   "room for 3: the two heaviest, the rest in other, nothing lost");
	ts_sched_free(m);
}

/*
 * try_to_wake_up() of a task still inside schedule() on its CPU: sched_waking is traced
 * before the task's own switch-out, yet ends the D period that follows. A wake while running
 * does not end a later preemption.
 */
static void test_early_waker(void)
{
	const struct ts_sched_wait *w;

	feed_err = ts_sched_new(&m, NULL);
	ts_sched_waking_recorded(m);
	sw(100, 0, 0, 0, 50);
	waking_by(150, 1, 60, TS_CTX_TASK, 50); /* 50 has set D, not yet switched out */
	sw(160, 0, 50, TS_STATE_DISK, 0);
	sw(200, 0, 0, 0, 50);
	waking_by(250, 1, 60, TS_CTX_TASK, 50); /* woken while running, then preempted */
	sw(300, 0, 50, TS_STATE_RUNNING, 0);
	sw(350, 0, 0, 0, 50);
	ts_sched_finish(m, 400);
	is_int(feed_err, 0, "early waker: fed");
	w = wait_of(50, 60, TS_OFF_D);
	ok(w && w->wakes == 1 && w->periods == 1 && w->ns == 40,
	   "the early wake ends the D period that follows (40 ns)");
	w = wait_of(50, 60, TS_OFF_NR);
	ok(w && w->wakes == 1 && w->periods == 0, "the second wake stays a wake of a running task");
	w = wait_of(50, TS_WAKER_NONE, TS_OFF_R);
	ok(w && w->periods == 1 && w->ns == 50, "the preemption after it: no waker");
	ts_sched_free(m);
}

/*
 * One short-lived task's life, as a vfork()ed child that exits at once: its wakeup_new, a run
 * on CPU 1 of @run ns, its exit, its wake of the parent @parent (sleeping on CPU 0 since
 * @t0), its switch-out as a zombie. Fed to @mm.
 */
static void child_life(struct ts_sched *mm, uint64_t t0, int32_t parent, int32_t c, uint64_t run)
{
	struct ts_event ev;

	ev = tev_wake(TS_EV_WAKEUP_NEW, t0 + 10, 0, c, 1);
	ev.pid = parent;
	feed_err |= ts_sched_feed(mm, &ev);
	ev = tev_switch(t0 + 20, 1, 0, 0, c);
	snprintf(ev.sw.next_comm, TS_COMM_LEN, "child");
	feed_err |= ts_sched_feed(mm, &ev);
	ev = (struct ts_event){
		.time = t0 + 20 + run, .cpu = 1, .pid = c, .kind = TS_EV_PROCESS_EXIT
	};
	ev.exit.pid = c;
	feed_err |= ts_sched_feed(mm, &ev);
	ev = tev_wake(TS_EV_WAKING, t0 + 21 + run, 1, parent, 0);
	ev.pid = c;
	snprintf(ev.wake.comm, TS_COMM_LEN, "parent");
	feed_err |= ts_sched_feed(mm, &ev);
	ev.kind = TS_EV_WAKEUP;
	ev.time++;
	feed_err |= ts_sched_feed(mm, &ev);
	ev = tev_switch(t0 + 30 + run, 1, c, TS_STATE_OTHER, 0);
	ev.sw.prev_state_raw = 0x20; /* EXIT_ZOMBIE */
	snprintf(ev.sw.prev_comm, TS_COMM_LEN, "child");
	feed_err |= ts_sched_feed(mm, &ev);
	ev = tev_switch(t0 + 40 + run, 0, 0, 0, parent); /* the parent back from its wait */
	snprintf(ev.sw.next_comm, TS_COMM_LEN, "parent");
	feed_err |= ts_sched_feed(mm, &ev);
	ev = tev_switch(t0 + 50 + run, 0, parent, TS_STATE_SLEEPING, 0);
	snprintf(ev.sw.prev_comm, TS_COMM_LEN, "parent");
	feed_err |= ts_sched_feed(mm, &ev);
}

static int same_hist(const struct ts_hist *a, const struct ts_hist *b)
{
	return a->count == b->count && a->sum == b->sum && a->min == b->min && a->max == b->max &&
	       ts_hist_quantile(a, 0.5) == ts_hist_quantile(b, 0.5) &&
	       ts_hist_quantile(a, 0.99) == ts_hist_quantile(b, 0.99);
}

/* The @n heaviest tasks by ts_sched_task_rank() into @out, ties in list order (as reports). */
static void heaviest(const struct ts_sched *mm, const struct ts_sched_task **out, size_t n)
{
	uint64_t r[8];
	size_t i, j, nr = 0;

	for (i = 0; i < ts_sched_nr_tasks(mm); i++) {
		const struct ts_sched_task *t = ts_sched_task_at(mm, i);
		uint64_t k = ts_sched_task_rank(mm, t);

		for (j = nr; j > 0 && r[j - 1] < k; j--)
			if (j < n) {
				r[j] = r[j - 1];
				out[j] = out[j - 1];
			}
		if (j < n) {
			r[j] = k;
			out[j] = t;
			nr += nr < n;
		}
	}
}

/*
 * A report of the top tasks (ts_model_opts.top_tasks) folds the tasks that exit: on 20,000
 * short-lived tasks the model keeps a bounded number of tasks and wait entries, and its
 * totals, its heaviest tasks and its wakers are those of a model that keeps every task.
 */
static void test_exited_folded(void)
{
	const struct ts_model_opts o = { .top_tasks = 3 };
	const struct ts_sched_task *ha[4] = { NULL }, *ht[4] = { NULL };
	struct ts_sched *all, *top;
	struct ts_sched_waker_sum wa[8], wt[8];
	const struct ts_sched_totals *ta, *tt;
	size_t i, most = 0;
	int k, na, nt, same = 1;

	feed_err = ts_sched_new(&all, NULL) | ts_sched_new(&top, &o);
	ts_sched_waking_recorded(all);
	ts_sched_waking_recorded(top);
	for (i = 0; i < 20000; i++) {
		/* run times that repeat, so that ranks tie: the first seen comes first */
		child_life(all, 1000 * (uint64_t)i, 100, 1000 + (int32_t)i, 1 + (i * 37) % 400);
		child_life(top, 1000 * (uint64_t)i, 100, 1000 + (int32_t)i, 1 + (i * 37) % 400);
		if (ts_sched_nr_tasks(top) > most)
			most = ts_sched_nr_tasks(top);
	}
	feed_err |= ts_sched_finish(all, 20000000) | ts_sched_finish(top, 20000000);
	ok(!feed_err, "20,000 exiting tasks fed and finished");
	is_int(ts_sched_nr_tasks(all), 20001, "every task kept without top_tasks");
	ok(most <= 4096 + 2 * 3 + 2 && ts_sched_nr_tasks(top) <= 2 * 3 + 1,
	   "with top_tasks 3: at most %zu tasks at once, %zu at the end", most,
	   ts_sched_nr_tasks(top));
	ok(ts_sched_nr_waits(top) <= 2 && ts_sched_nr_waits(all) == 20000,
	   "wait entries: %zu, not one per waker (%zu)", ts_sched_nr_waits(top),
	   ts_sched_nr_waits(all));
	ta = ts_sched_totals(all);
	tt = ts_sched_totals(top);
	same = ta->nr_switches == tt->nr_switches && ta->nr_wakeups == tt->nr_wakeups &&
	       ta->nr_wakeup_new == tt->nr_wakeup_new && same_hist(&ta->run, &tt->run) &&
	       same_hist(&ta->delay, &tt->delay) && same_hist(&ta->wakelat, &tt->wakelat) &&
	       same_hist(&ta->delivery, &tt->delivery);
	for (k = 0; k < TS_OFF_NR; k++)
		same = same && same_hist(&ta->off[k], &tt->off[k]);
	ok(same && ta->run.count == 40000, "the totals are those of every task");
	heaviest(all, ha, 4);
	heaviest(top, ht, 4);
	for (k = 0, same = 1; k < 4; k++) {
		const struct ts_sched_task *a = ha[k], *b = ht[k];

		same = same && a && b && a->pid == b->pid && a->run->sum == b->run->sum &&
		       a->nr_switches == b->nr_switches && !strcmp(a->comm, b->comm) &&
		       a->delay->max == b->delay->max;
	}
	ok(same, "the four heaviest tasks are the same, ties in first-seen order");
	na = ts_sched_wakers(all, NULL, NULL, 1, wa, 8);
	nt = ts_sched_wakers(top, NULL, NULL, 1, wt, 8);
	same = na == nt && na == 1;
	for (k = 0; same && k < na; k++)
		same = !strcmp(wa[k].cls, wt[k].cls) && wa[k].wakes == wt[k].wakes &&
		       wa[k].periods == wt[k].periods && wa[k].ns == wt[k].ns;
	ok(same && !strcmp(wt[0].cls, "child") && wt[0].wakes == 20000,
	   "the wakers by class: 20,000 wakes by the exited class \"child\" in both");
	ts_sched_free(all);
	ts_sched_free(top);
}

/*
 * A tid used again after its task exited is a new task in a report of the top tasks (before,
 * one task summed them all, named after the last).
 */
static void test_exited_tid_reused(void)
{
	const struct ts_model_opts o = { .top_tasks = 20 };
	const struct ts_sched_task *t;
	size_t i, ones = 0, n;

	feed_err = ts_sched_new(&m, &o);
	ts_sched_waking_recorded(m);
	for (i = 0; i < 10000; i++)
		child_life(m, 1000 * (uint64_t)i, 100, 1000 + (int32_t)(i % 50), 100 + i % 7);
	feed_err |= ts_sched_finish(m, 20000000);
	n = ts_sched_nr_tasks(m);
	for (i = 0; i < n; i++) {
		t = ts_sched_task_at(m, i);
		ones += t->pid != 100 && t->nr_switches == 1;
	}
	ok(!feed_err && n <= 2 * 20 + 1 && ones == n - 1,
	   "10,000 tasks on 50 tids: %zu kept, each one task's single run", n);
	t = ts_sched_task_find(m, 100);
	ok(t && t->nr_wakeups == 10000 && ts_sched_task_waits_pid(t) == 100,
	   "the parent woken 10,000 times, its wait entries under its tid");
	ts_sched_free(m);
	m = NULL;
}

/*
 * Keeping every task (JSON, TSV, compare): a tid used again after its task's last switch-out
 * as a zombie is one task, but the time between the lives is no off-CPU time: the first
 * life never ran again. Before, each new life's switch-in closed the last one's switch-out
 * as an off-CPU period of state "other" (1,498 s of them in a 66 s fork-heavy trace).
 */
static void test_dead_then_reused(void)
{
	const struct ts_sched_task *t;
	const struct ts_hist *other;
	size_t i;

	feed_err = ts_sched_new(&m, NULL);
	ts_sched_waking_recorded(m);
	for (i = 0; i < 100; i++)
		child_life(m, 1000000 * (uint64_t)i, 100, 1000 + (int32_t)(i % 5), 100);
	feed_err |= ts_sched_finish(m, 200000000);
	t = ts_sched_task_find(m, 1000);
	other = t ? t->off[TS_OFF_OTHER] : NULL;
	ok(!feed_err && t && t->nr_switches == 20 && (!other || !other->count),
	   "a tid's 20 lives, each ended as a zombie: no off-CPU time between them (%llu periods)",
	   other ? (unsigned long long)other->count : 0ull);
	ts_sched_free(m);
	m = NULL;
}

/* A PERF_RECORD_LOST on @cpu at @t: events of it were lost since the last one it recorded. */
static void lost(uint64_t t, int cpu)
{
	struct ts_event ev = { .time = t, .cpu = cpu, .kind = TS_EV_LOST };

	ev.lost.lost = 7;
	feed(&ev);
}

/* Task 10 woken at @t from CPU 1, on CPU 0 from @t + 50 to @t + 100, then asleep. */
static void one_round(uint64_t t)
{
	wake(TS_EV_WAKING, t, 1, 10, 0);
	wake(TS_EV_WAKEUP, t + 10, 1, 10, 0);
	sw(t + 50, 0, 0, 0, 10);
	sw(t + 100, 0, 10, TS_STATE_SLEEPING, 0);
}

/*
 * Slices and off-CPU periods whose window holds a LOST gap are left out and counted; the others
 * are measured as before. Task 10 on CPU 0, its wakes on CPU 1; task 11 runs on CPU 1.
 */
static void test_lost_gaps(void)
{
	const struct ts_sched_task *a;
	const struct ts_sched_totals *tot;

	ts_sched_new(&m, NULL);
	ts_sched_wakeup_recorded(m);
	ts_sched_waking_recorded(m);
	sw(100, 0, 0, 0, 10);
	sw(200, 0, 10, TS_STATE_SLEEPING, 0);
	/* 1: no gap: slice [350, 400], delay 310 -> 350, off-CPU 200 -> 350 */
	one_round(300);
	/* 2: the wake is seen, then CPU 1 lost events (a run of task 10 may hide there) */
	wake(TS_EV_WAKING, 500, 1, 10, 0);
	wake(TS_EV_WAKEUP, 510, 1, 10, 0);
	lost(560, 1); /* gap (510, 560) on CPU 1 */
	sw(600, 0, 0, 0, 10);
	sw(700, 0, 10, TS_STATE_SLEEPING, 0);
	/* 3: no gap in the wait, one on CPU 0 inside the run slice (a switch may be missing) */
	wake(TS_EV_WAKING, 800, 1, 10, 0);
	wake(TS_EV_WAKEUP, 810, 1, 10, 0);
	sw(850, 0, 0, 0, 10);
	lost(880, 0);
	sw(900, 0, 10, TS_STATE_SLEEPING, 0);
	/* 4: no wake seen at all, a gap on CPU 1 after the switch-out: the wake may be lost */
	sw(950, 1, 0, 0, 11);
	lost(990, 1); /* gap (950, 990) on CPU 1 */
	sw(1000, 0, 0, 0, 10);
	sw(1100, 0, 10, TS_STATE_SLEEPING, 0);
	/* 5: a gap before the switch-out: nothing after it is touched */
	one_round(1200);
	ts_sched_finish(m, 1400);
	ok(!feed_err, "lost gaps: fed without error");
	a = ts_sched_task_find(m, 10);
	tot = ts_sched_totals(m);
	ok(a != NULL, "lost gaps: task 10 exists");
	if (!a)
		return;
	is_int(a->nr_switches, 6, "lost gaps: every switch-out counted (perf's sched-in count)");
	is_int(a->nr_lost_slices, 3, "lost gaps: 3 slices left out (wait, run, no wake)");
	is_int(a->run->count, 3, "lost gaps: 3 run slices measured");
	is_int(a->run->sum, 100 + 50 + 50, "lost gaps: run 100 + 50 + 50, none with a gap");
	is_int(a->delay->count, 2, "lost gaps: 2 sched delays measured");
	is_int(a->delay->sum, 40 + 40, "lost gaps: sched delay 40 + 40, none with a gap");
	is_int(a->delay_perf, 50 + 50, "lost gaps: perf's rule on the same slices, 50 + 50");
	is_int(a->nr_lost_off, 2, "lost gaps: 2 off-CPU periods left out (a gap inside)");
	is_int(a->off[TS_OFF_S]->count, 3, "lost gaps: 3 off-CPU periods measured");
	is_int(a->off[TS_OFF_S]->sum, 150 + 150 + 150, "lost gaps: off-CPU 150 each");
	is_int(a->wakelat->count, 3, "lost gaps: 3 wakeup latencies, none with a gap");
	is_int(tot->nr_lost_slices, 3, "lost gaps: the totals count the slices left out");
	is_int(tot->nr_lost_off, 2, "lost gaps: and the periods");
	is_int(tot->nr_gaps, 3, "lost gaps: 3 LOST records");
	is_int(tot->delay.count, 2,
	       "lost gaps: the whole-trace delay has the measured slices only");
	ts_sched_free(m);
	m = NULL;
}

/* A new model: CPU 2 idle from 60, task 10 ran on CPU 0, a gap (0, 250) on CPU 1. */
static void idle_cpu_start(void)
{
	ts_sched_new(&m, NULL);
	ts_sched_wakeup_recorded(m);
	ts_sched_waking_recorded(m);
	sw(50, 2, 0, 0, 12);
	sw(60, 2, 12, TS_STATE_SLEEPING, 0);
	sw(100, 0, 0, 0, 10);
	sw(200, 0, 10, TS_STATE_SLEEPING, 0);
	lost(250, 1); /* before every window the tests make */
}

/*
 * A CPU that records nothing for a while (idle) once events were lost: slices wait until it
 * records again, then those no gap touches are measured. Task 10 on CPU 0, woken from CPU 1;
 * CPU 2 idle from 60.
 */
static void test_lost_idle_cpu(void)
{
	const struct ts_sched_task *a;
	uint64_t t;

	idle_cpu_start();
	for (t = 300; t < 600; t += 100)
		one_round(t); /* 3 slices: CPU 2 silent since 60, they wait */
	wake(TS_EV_WAKEUP, 1000, 2, 12, 2); /* CPU 2 records: no gap there before 1000 */
	one_round(1100); /* window (1100, 1150) */
	lost(1300, 2); /* gap (1000, 1300) on CPU 2: touches it */
	one_round(1400);
	ts_sched_finish(m, 2000);
	ok(!feed_err, "lost, idle CPU: fed without error");
	a = ts_sched_task_find(m, 10);
	ok(a != NULL, "lost, idle CPU: task 10 exists");
	if (!a)
		return;
	is_int(a->nr_lost_slices, 1,
	       "lost, idle CPU: only the slice the later gap touches left out");
	is_int(a->run->count, 5, "lost, idle CPU: the slices that waited for CPU 2 are measured");
	is_int(a->delay->count, 4, "lost, idle CPU: and their sched delays");
	is_int(a->delay->sum, 4 * 40, "lost, idle CPU: 40 each");
	is_int(ts_sched_totals(m)->nr_lost_slices, 1, "lost, idle CPU: the totals count 1");
	ts_sched_free(m);
	m = NULL;

	/* a CPU silent for good: past SCHED_PEND_MAX waiting, the oldest are judged cautiously */
	idle_cpu_start();
	for (t = 300; t < 300 + 100 * (65536 + 100); t += 100)
		one_round(t);
	ts_sched_finish(m, t);
	ok(!feed_err, "lost, full queue: fed without error");
	a = ts_sched_task_find(m, 10);
	ok(a != NULL, "lost, full queue: task 10 exists");
	if (!a)
		return;
	is_int(a->nr_lost_slices, 100, "lost, full queue: the 100 oldest left out (CPU 2 silent)");
	is_int(a->run->count, 65536 + 1, "lost, full queue: the 65536 that waited to the end kept");
	ts_sched_free(m);
	m = NULL;
}

/*
 * Lost events in a report of the top tasks: the exited children fold and the tasks are packed
 * (sched_compact()) while the parent's slices wait: each counts to the parent (a waiting slice
 * names its task by pid, as packing moves tasks), and all are measured at the end.
 */
static void test_lost_folded(void)
{
	const struct ts_model_opts o = { .top_tasks = 3 };
	const struct ts_sched_task *a;
	struct ts_event ev;
	int32_t i;

	feed_err = ts_sched_new(&m, &o);
	ts_sched_waking_recorded(m);
	sw(5, 2, 0, 0, 12);
	sw(6, 2, 12, TS_STATE_SLEEPING, 0); /* CPU 2 silent from here: every slice waits */
	ev = (struct ts_event){ .time = 7, .cpu = 1, .kind = TS_EV_LOST };
	ev.lost.lost = 7;
	feed(&ev);
	for (i = 0; i < 10000; i++)
		child_life(m, 1000 * (uint64_t)(i + 1), 100, 1000 + i, 100);
	feed_err |= ts_sched_finish(m, 20000000);
	ok(!feed_err, "lost, folded: 10,000 exiting tasks fed and finished");
	a = ts_sched_task_find(m, 100);
	ok(a && a->nr_switches == 10000 && a->run->count + a->nr_lost_slices == 10000,
	   "lost, folded: the parent's 10,000 slices are its own (%" PRIu64 " run, %" PRIu64
	   " left out)",
	   a ? a->run->count : 0, a ? a->nr_lost_slices : 0);
	ok(a && a->run->count == 10000, "lost, folded: none left out (CPU 2 silent, but no gap)");
	ts_sched_free(m);
	m = NULL;
}

int main(void)
{
	test_lost_gaps();
	test_lost_idle_cpu();
	test_lost_folded();
	test_wakers();
	test_early_waker();
	test_broken_chains();
	test_early_waking();
	test_perf_rules();
	test_classes();
	test_stacks_filter_migrate();
	test_stack_hints();
	test_exited_folded();
	test_exited_tid_reused();
	test_dead_then_reused();
	return tap_done();
}
