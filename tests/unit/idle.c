// SPDX-License-Identifier: GPL-2.0-only
/* The idle model: residency, idle exit causes on both idle paths, tick_stop, unmatched exits. */
#include <stdio.h>
#include <string.h>

#include "events.h"
#include "tap.h"
#include "tickscope/idle.h"

static struct ts_idle *m;

static void ev_idle(uint64_t t, int cpu, uint32_t state)
{
	struct ts_event ev = tev_idle(t, cpu, state);

	ts_idle_feed(m, &ev);
}

static void ev_kind(uint64_t t, int cpu, int kind, uint64_t fn)
{
	struct ts_event ev = tev_timer(kind, t, cpu, 0, fn);

	ts_idle_feed(m, &ev);
}

static void ev_tick_stop(int cpu, int ok, const char *dep)
{
	struct ts_event ev = tev_tick_stop(1, cpu, ok, dep);

	ts_idle_feed(m, &ev);
}

/* Which tracepoint names are IPI arrivals: the receiving CPU's, never the sender's. */
static void ipi_names(void)
{
	ok(ts_idle_is_ipi("ipi:ipi_entry"), "ipi:ipi_entry arrives");
	ok(ts_idle_is_ipi("irq_vectors:reschedule_entry"), "x86 reschedule_entry arrives");
	ok(ts_idle_is_ipi("irq_vectors:call_function_single_entry"), "x86 call_function_single");
	ok(!ts_idle_is_ipi("ipi:ipi_raise"), "ipi:ipi_raise is the sender's");
	ok(!ts_idle_is_ipi("ipi:ipi_send_cpu"), "ipi:ipi_send_cpu is the sender's");
	ok(!ts_idle_is_ipi("ipi:ipi_exit") && !ts_idle_is_ipi(NULL), "ipi_exit, NULL: no");
}

static void ev_irq(uint64_t t, int cpu, int kind, const char *name)
{
	struct ts_event ev = tev_timer(kind, t, cpu, 0, 0);

	ev.name = kind == TS_EV_OTHER ? name : NULL;
	if (kind == TS_EV_IRQ_ENTRY)
		snprintf(ev.irq.name, sizeof(ev.irq.name), "%s", name);
	ts_idle_feed(m, &ev);
}

/*
 * The periodic tick (HZ_PERIODIC, highres=off, clocksource=jiffies) runs no hrtimer: an idle
 * period that only the timer interrupt ended has that interrupt as its cause, by name; the
 * interrupt is only the envelope when a cause follows it; nothing at all stays untraced.
 */
static void irq_exits(void)
{
	const struct ts_idle_totals *t;

	ok(ts_idle_new(&m, NULL) == 0, "irq exits: new");
	ev_idle(100, 0, 1);
	ev_irq(110, 0, TS_EV_IRQ_ENTRY, "arch_timer");
	ev_irq(111, 0, TS_EV_IRQ_EXIT, NULL);
	ev_idle(112, 0, TS_IDLE_EXIT);
	ev_irq(113, 0, TS_EV_IRQ_ENTRY, "virtio0-input.0"); /* not the first: not the cause */
	ev_idle(120, 0, 1); /* the tick's interrupt alone: the cause */
	ev_irq(130, 0, TS_EV_IRQ_ENTRY, "virtio0-input.0");
	ev_kind(131, 0, TS_EV_WAKEUP, 0); /* the device woke a task: a wakeup, not the irq */
	ev_idle(140, 0, TS_IDLE_EXIT);
	ev_idle(150, 0, 1);
	ev_idle(160, 0, TS_IDLE_EXIT);
	ev_idle(170, 0, 1); /* nothing since the enter: untraced */
	ev_irq(180, 0, TS_EV_OTHER, "irq_vectors:local_timer_entry"); /* x86's local timer */
	ev_irq(181, 0, TS_EV_OTHER, "irq_vectors:local_timer_exit");
	ev_idle(182, 0, TS_IDLE_EXIT);
	ev_idle(190, 0, 1);
	ev_irq(200, 0, TS_EV_IRQ_ENTRY, "arch_timer");
	ev_idle(210, 0, TS_IDLE_EXIT);
	ev_idle(220, 0, 1);
	t = ts_idle_totals(m);
	is_int(t->exits[TS_EXIT_IRQ], 3, "irq exits: three periods ended by an interrupt alone");
	is_int(t->exits[TS_EXIT_WAKEUP], 1, "irq exits: the device's wakeup is the cause");
	is_int(t->exits[TS_EXIT_UNTRACED], 1, "irq exits: nothing at all is untraced");
	ok(t->nr_irqs == 2 && !strcmp(t->irqs[0].name, "arch_timer") && t->irqs[0].count == 2 &&
		   !strcmp(t->irqs[1].name, "local_timer") && t->irqs[1].count == 1,
	   "irq exits: by name, arch_timer twice, x86's local_timer once");
	is_int(ts_idle_cpu(m, 0)->exits[TS_EXIT_IRQ], 3, "irq exits: cpu 0's");
	ok(!strcmp(ts_idle_exit_name(TS_EXIT_IRQ), "irq"), "irq exits: the cause is named irq");
	ts_idle_free(m);
}

int main(void)
{
	const struct ts_idle_totals *t;
	const struct ts_idle_cpu *c;
	const struct ts_idle_exit_fn *x;

	ok(ts_idle_new(&m, NULL) == 0, "new");
	ev_idle(50, 0, TS_IDLE_EXIT); /* trace starts inside an idle period */
	/* default_idle_call: the tick hrtimer runs inside the period, then the exit */
	ev_idle(100, 0, 1);
	ev_kind(150, 0, TS_EV_HRTIMER_EXPIRE_ENTRY, 0xf00);
	ev_kind(151, 0, TS_EV_HRTIMER_EXPIRE_EXIT, 0);
	ev_idle(160, 0, TS_IDLE_EXIT);
	/* cpuidle driver path: exit first, tick restart bookkeeping, then the wakeup */
	ev_idle(200, 0, 2);
	ev_idle(300, 0, TS_IDLE_EXIT);
	ev_kind(301, 0, TS_EV_HRTIMER_CANCEL, 0);
	ev_kind(302, 0, TS_EV_HRTIMER_START, 0xf00);
	ev_kind(303, 0, TS_EV_RCU_UTIL, 0);
	ev_kind(304, 0, TS_EV_WAKEUP, 0);
	/* nothing causal before the next enter: untraced */
	ev_idle(400, 0, 1);
	ev_idle(410, 0, TS_IDLE_EXIT);
	ev_kind(411, 0, TS_EV_TIMER_START, 0);
	ev_idle(420, 0, 1);
	ev_kind(430, 1, TS_EV_SWITCH, 0); /* another CPU: no effect on CPU 0 */
	ev_kind(440, 0, TS_EV_SWITCH, 0); /* a resched IPI */
	ev_idle(450, 0, TS_IDLE_EXIT);
	/* a timer-wheel timer ends the period: TS_EXIT_TIMER, never the hrtimer cause */
	ev_idle(460, 0, 1);
	ev_kind(470, 0, TS_EV_TIMER_EXPIRE_ENTRY, 0xbee);
	ev_kind(471, 0, TS_EV_TIMER_EXPIRE_EXIT, 0);
	ev_idle(480, 0, TS_IDLE_EXIT);
	ev_idle(500, 0, 3); /* still idle at the end */
	ev_tick_stop(0, 1, "NONE");
	ev_tick_stop(0, 0, "SCHED");
	ev_tick_stop(0, 0, "SCHED");
	ev_tick_stop(1, 0, "POSIX_TIMER");
	ts_idle_finish(m, 600);
	t = ts_idle_totals(m);
	c = ts_idle_cpu(m, 0);
	ok(c != NULL, "cpu 0 seen");
	is_int(t->unmatched_exits, 1, "exit at trace start: unmatched, no residency");
	is_int(t->open_at_end, 1, "period open at the end: not counted");
	is_int(c->residency[1].count, 4, "state 1: 4 periods");
	is_int(c->residency[1].sum, 60 + 10 + 30 + 20, "state 1 residency");
	is_int(c->residency[2].sum, 100, "state 2 residency");
	is_int(t->exits[TS_EXIT_HRTIMER], 1, "exit by hrtimer (inside the period)");
	is_int(t->exits[TS_EXIT_WAKEUP], 1, "exit by wakeup (after tick restart bookkeeping)");
	is_int(t->exits[TS_EXIT_UNTRACED], 1, "untraced exit");
	is_int(t->exits[TS_EXIT_SWITCH], 1, "resched exit");
	is_int(t->exits[TS_EXIT_TIMER], 1, "exit by a timer-wheel timer");
	is_int(c->exits[TS_EXIT_TIMER], 1, "cpu 0: exit by a timer-wheel timer");
	is_int(c->exits[TS_EXIT_HRTIMER], 1, "cpu 0: exit by hrtimer");
	is_int(ts_idle_nr_exit_fns(m, 1), 1, "one hrtimer function behind exits");
	x = ts_idle_exit_fn_at(m, 1, 0);
	ok(x && x->function == 0xf00 && x->count == 1, "exit function 0xf00 once");
	is_int(ts_idle_nr_exit_fns(m, 0), 1, "one timer-wheel function behind exits");
	x = ts_idle_exit_fn_at(m, 0, 0);
	ok(x && x->function == 0xbee && x->count == 1, "timer-wheel exit function 0xbee once");
	is_int(t->tick_stop_ok, 1, "tick_stop successes");
	is_int(t->tick_stop_fail, 3, "tick_stop failures");
	is_int(t->nr_deps, 2, "two dependencies");
	ok(!strcmp(t->deps[0].name, "SCHED") && t->deps[0].count == 2, "SCHED twice");
	ts_idle_free(m);
	ipi_names();
	irq_exits();
	return tap_done();
}
