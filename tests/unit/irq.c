// SPDX-License-Identifier: GPL-2.0-only
/*
 * The interrupt context stacks and the irq model on hand-built events: nesting (a hard IRQ
 * inside a timer callback inside a softirq), a timer callback with no enclosing interrupt
 * traced, exits with no entry at the trace's start, contexts left open at its end or closed by
 * an outer exit, lost events, an x86 system vector; and compare's split of run time.
 */
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "tap.h"
#include "tickscope/cpath.h"
#include "tickscope/irq.h"

static struct ts_event irq_ev(int kind, uint64_t t, int cpu, int pid, int irq, const char *name)
{
	struct ts_event ev = { .time = t, .cpu = cpu, .pid = pid, .kind = (uint16_t)kind };

	ev.irq.irq = irq;
	snprintf(ev.irq.name, sizeof(ev.irq.name), "%s", name ? name : "");
	return ev;
}

static struct ts_event vec_ev(uint64_t t, int cpu, int pid, const char *name)
{
	struct ts_event ev = { .time = t, .cpu = cpu, .pid = pid, .kind = TS_EV_OTHER };

	ev.name = name;
	return ev;
}

static struct ts_event with_pid(struct ts_event ev, int pid)
{
	ev.pid = pid;
	return ev;
}

#define NEV 40

/* The events, in time order; returns how many. */
static int events(struct ts_event *ev)
{
	int n = 0;

	/* cpu 0, task 100: eth0, then the TIMER softirq whose callback eth0 interrupts again */
	ev[n++] = irq_ev(TS_EV_IRQ_ENTRY, 10, 0, 100, 11, "eth0");
	ev[n++] = irq_ev(TS_EV_IRQ_EXIT, 12, 0, 100, 11, NULL);
	ev[n++] = irq_ev(TS_EV_SOFTIRQ_ENTRY, 12, 0, 100, 1, NULL);
	ev[n++] = with_pid(tev_timer(TS_EV_TIMER_EXPIRE_ENTRY, 13, 0, 0xa0, 0x1000), 100);
	ev[n++] = irq_ev(TS_EV_IRQ_ENTRY, 14, 0, 100, 11, "eth0");
	ev[n++] = irq_ev(TS_EV_IRQ_EXIT, 15, 0, 100, 11, NULL);
	ev[n++] = with_pid(tev_timer(TS_EV_TIMER_EXPIRE_EXIT, 17, 0, 0xa0, 0), 100);
	ev[n++] = irq_ev(TS_EV_SOFTIRQ_EXIT, 18, 0, 100, 1, NULL);
	/* cpu 1, task 200: an hrtimer with no enclosing interrupt traced */
	ev[n++] = with_pid(tev_timer(TS_EV_HRTIMER_EXPIRE_ENTRY, 20, 1, 0xb0, 0x2000), 200);
	ev[n++] = with_pid(tev_timer(TS_EV_HRTIMER_EXPIRE_EXIT, 23, 1, 0xb0, 0), 200);
	/* cpu 2, idle: an exit whose entry was before the trace; a softirq that never ends */
	ev[n++] = irq_ev(TS_EV_IRQ_EXIT, 30, 2, 0, 5, NULL);
	ev[n++] = irq_ev(TS_EV_SOFTIRQ_ENTRY, 31, 2, 0, 9, NULL);
	ev[n++] = irq_ev(TS_EV_IRQ_ENTRY, 35, 2, 0, 5, "virtio0");
	ev[n++] = irq_ev(TS_EV_IRQ_EXIT, 36, 2, 0, 5, NULL);
	/* cpu 3, task 300: the irq exits while a softirq it opened is still open */
	ev[n++] = irq_ev(TS_EV_IRQ_ENTRY, 40, 3, 300, 7, "i7");
	ev[n++] = irq_ev(TS_EV_SOFTIRQ_ENTRY, 41, 3, 300, 2, NULL);
	ev[n++] = irq_ev(TS_EV_IRQ_EXIT, 43, 3, 300, 7, NULL);
	/* cpu 4, task 400: events lost on it while an irq is open */
	ev[n++] = irq_ev(TS_EV_IRQ_ENTRY, 50, 4, 400, 8, "i8");
	ev[n] = tev_lost(52, 10);
	ev[n++].cpu = 4;
	ev[n++] = irq_ev(TS_EV_IRQ_EXIT, 53, 4, 400, 8, NULL);
	/* cpu 5, task 500: x86's local timer vector with the tick's hrtimer inside */
	ev[n++] = vec_ev(60, 5, 500, "irq_vectors:local_timer_entry");
	ev[n++] = with_pid(tev_timer(TS_EV_HRTIMER_EXPIRE_ENTRY, 61, 5, 0xc0, 0x3000), 500);
	ev[n++] = with_pid(tev_timer(TS_EV_HRTIMER_EXPIRE_EXIT, 63, 5, 0xc0, 0), 500);
	ev[n++] = vec_ev(64, 5, 500, "irq_vectors:local_timer_exit");
	ev[n++] = vec_ev(65, 5, 500, "irq_vectors:vector_config"); /* not an interrupt */
	/* cpu 6, task 600: an hrtimer whose exit was not recorded; the switch ends it */
	ev[n++] = with_pid(tev_timer(TS_EV_HRTIMER_EXPIRE_ENTRY, 70, 6, 0xd0, 0x4000), 600);
	ev[n++] = tev_switch(72, 6, 600, TS_STATE_SLEEPING, 0);
	ev[n++] = irq_ev(TS_EV_IRQ_ENTRY, 74, 6, 0, 12, "i12");
	ev[n++] = irq_ev(TS_EV_IRQ_EXIT, 75, 6, 0, 12, NULL);
	return n;
}

static const struct ts_irq_stat *find(const struct ts_irq *m, int type, int64_t num)
{
	for (size_t i = 0; i < ts_irq_nr_stats(m); i++) {
		const struct ts_irq_stat *st = ts_irq_stat_at(m, i);
		const struct ts_irq_src *s = ts_irqctx_src(ts_irq_ctx(m), st->src);

		if (s && s->type == type && s->num == num)
			return st;
	}
	return NULL;
}

static const struct ts_irq_task *task(const struct ts_irq *m, int pid)
{
	for (size_t i = 0; i < ts_irq_nr_tasks(m); i++)
		if (ts_irq_task_at(m, i)->pid == pid)
			return ts_irq_task_at(m, i);
	return NULL;
}

static void model(const struct ts_event *ev, int n)
{
	const struct ts_irq_unpaired *u;
	const struct ts_irq_stat *st;
	const struct ts_irq_task *t;
	struct ts_irq *m;
	uint64_t tot[TS_IRQC_NR];
	int err = 0;

	if (!ok(!ts_irq_new(&m, &(struct ts_model_opts){ 0 }), "model made"))
		return;
	for (int i = 0; i < n; i++)
		err |= ts_irq_feed(m, &ev[i]);
	ts_irq_finish(m, 100);
	is_int(err, 0, "every event fed");

	st = find(m, TS_IRQT_HARD, 11);
	ok(st && st->count == 2 && st->dur.sum == 3 && st->own_ns == 3 && st->on_task_ns == 3,
	   "eth0: two contexts, 3 ns entry to exit, all innermost, all on a task");
	st = find(m, TS_IRQT_SOFT, 1);
	ok(st && st->count == 1 && st->dur.sum == 6 && st->own_ns == 2,
	   "TIMER softirq: 6 ns entry to exit, 2 innermost (the callback and eth0 inside)");
	st = find(m, TS_IRQT_TIMER, 0x1000);
	ok(st && st->count == 1 && st->dur.sum == 4 && st->own_ns == 3,
	   "the timer callback: 4 ns, 3 innermost (eth0 took 1)");
	t = task(m, 100);
	ok(t && t->ns[TS_IRQC_HARD] == 3 && t->ns[TS_IRQC_SOFT] == 5 && t->timers_ns == 3,
	   "task 100: hardirq 3, softirq 5 (the callback's 3 in it), disjoint");

	st = find(m, TS_IRQT_HRTIMER, 0x2000);
	t = task(m, 200);
	ok(st && st->count == 1 && st->dur.sum == 3 && t && t->ns[TS_IRQC_HARD] == 3 &&
		   t->ns[TS_IRQC_SOFT] == 0 && t->timers_ns == 3,
	   "an hrtimer with no interrupt traced around it still counts as hard IRQ time");

	st = find(m, TS_IRQT_HARD, 5);
	t = task(m, 0);
	ok(st && st->count == 1 && st->dur.sum == 1 && st->on_task_ns == 0,
	   "virtio0 paired once (the exit before its entry is not), on the idle task");
	st = find(m, TS_IRQT_SOFT, 9);
	ok(st && st->count == 0 && st->own_ns == 4, "the softirq that never ends has no duration");
	ok(t && t->ns[TS_IRQC_SOFT] == 4 && t->ns[TS_IRQC_HARD] == 1 + 1,
	   "but its time up to the CPU's last event is known: 4 ns softirq, then 1 hardirq (and cpu 6's 1)");

	st = find(m, TS_IRQT_HARD, 7);
	ok(st && st->count == 1 && st->dur.sum == 3 && find(m, TS_IRQT_SOFT, 2) &&
		   !find(m, TS_IRQT_SOFT, 2)->count,
	   "an exit closes its context and drops the one left open inside it");
	st = find(m, TS_IRQT_HARD, 8);
	t = task(m, 400);
	ok(st && !st->count && t && t->ns[TS_IRQC_HARD] == 2,
	   "lost events drop the open irq: no duration, its 2 ns before the loss counted");

	st = find(m, TS_IRQT_VECTOR, -1);
	ok(st && st->count == 1 && st->dur.sum == 4 && st->own_ns == 2 &&
		   !strcmp(ts_irqctx_src(ts_irq_ctx(m), st->src)->name, "local_timer"),
	   "x86's local_timer vector: 4 ns, the hrtimer's 2 inside it");
	t = task(m, 500);
	ok(t && t->ns[TS_IRQC_HARD] == 4 && t->timers_ns == 2,
	   "task 500: 4 ns hardirq, 2 of them in the tick's callback");

	st = find(m, TS_IRQT_HRTIMER, 0x4000);
	t = task(m, 600);
	ok(st && !st->count && t && t->ns[TS_IRQC_HARD] == 2 && find(m, TS_IRQT_HARD, 12) &&
		   find(m, TS_IRQT_HARD, 12)->count == 1,
	   "an hrtimer whose exit was not recorded ends at the context switch, not later");
	u = ts_irqctx_unpaired(ts_irq_ctx(m));
	ok(u->exit_unmatched == 2 && u->closed_by_outer == 1 && u->dropped_lost == 1 &&
		   u->open_at_end == 1 && u->too_deep == 0 && u->dropped_switch == 1 &&
		   u->dropped_reentry == 0,
	   "unpaired: 2 exits without entry, 1 closed by an outer exit, 1 dropped at the loss, 1 "
	   "open at the end, 1 ended by a switch");
	ts_irq_totals(m, tot);
	is_int(tot[TS_IRQC_HARD], 3 + 3 + 1 + 1 + 2 + 4 + 2 + 1,
	       "hardirq time in all (cpu 3: 1, then its softirq)");
	is_int(tot[TS_IRQC_SOFT], 5 + 4 + 2, "softirq time in all");
	ts_irq_free(m);
}

/* compare's time line: task pp runs on cpu 0 from 5 to 20, while the events above happen. */
static void split(const struct ts_event *irq, int n)
{
	struct ts_event ev[NEV + 4];
	struct ts_cpath_irq q;
	struct ts_cpath *p;
	uint64_t ns[TS_CP_NR];
	int err = 0, k = 0, timer_src = -1;

	ev[k] = tev_switch(5, 0, 0, TS_STATE_RUNNING, 100);
	strcpy(ev[k++].sw.next_comm, "pp");
	for (int i = 0; i < n && irq[i].time < 20; i++)
		ev[k++] = irq[i];
	ev[k] = tev_switch(20, 0, 100, TS_STATE_SLEEPING, 0);
	strcpy(ev[k++].sw.prev_comm, "pp");
	if (!ok(!ts_cpath_new(&p, "pp", NULL), "time line made"))
		return;
	for (int i = 0; i < k; i++)
		err |= ts_cpath_feed(p, &ev[i]);
	is_int(err, 0, "every event fed");
	is_int(ts_cpath_totals(p, ns), 1, "one task of the benchmark");
	ts_cpath_run_irq(p, &q);
	ok(ns[TS_CP_RUN] == 15 && q.cls[TS_IRQC_HARD] == 3 && q.cls[TS_IRQC_SOFT] == 5,
	   "run 15 ns = own 7 + hardirq 3 + softirq 5 (cpu 1's hrtimer is not the task's)");
	for (int i = 0; i < ts_irqctx_nr_srcs(q.ctx); i++)
		if (ts_irqctx_src(q.ctx, i)->type == TS_IRQT_TIMER)
			timer_src = i;
	ok(timer_src >= 0 && timer_src < q.nr_src && q.src_ns[timer_src] == 3,
	   "of which the timer callback's 3 ns");
	ok(q.untraced[TS_IRQC_HARD] == 0 && q.untraced[TS_IRQC_SOFT] == 0,
	   "every context had its interrupt traced");
	ts_cpath_free(p);
}

int main(void)
{
	struct ts_event ev[NEV];
	int n = events(ev);

	model(ev, n);
	split(ev, n);
	ok(!strcmp(ts_irq_softirq_name(9), "RCU") && !ts_irq_softirq_name(10),
	   "softirq names: 9 is RCU, 10 has none");
	return tap_done();
}
