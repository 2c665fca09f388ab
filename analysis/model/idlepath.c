// SPDX-License-Identifier: GPL-2.0-only
/*
 * The idle path model (tickscope/idlepath.h). Per CPU it follows one cycle: sched_switch to
 * pid 0, then cpu_idle enter (idle-entry time: the idle loop's work before the state, where
 * 4.4-stable's quiet_vmstat() ran), then cpu_idle exit and either another enter (an interrupt
 * and nothing to run) or sched_switch away from pid 0 (idle-exit time: tick restart and the
 * rest of the way out). A switch to pid 0 can also be followed by the switch away with no
 * state between (unentered: in 6.1 schedule_idle() calls __schedule() again when a wake came
 * before it returned, so do_idle() never ran), and an IPI can arrive in that window (before
 * the idle task polls: the wake needed one). An idle period's cause is found as the idle
 * section finds it: the first event on the CPU after the enter that is not timer bookkeeping.
 * An IPI wakes a CPU in an idle state whether it arrives in the state (6.1 takes the interrupt
 * before cpu_idle's exit) or, when nothing came in the state, first after the exit, past the
 * interrupt's entry (from 6.2 the idle loop leaves the state with interrupts off, emits the
 * exit, then takes the interrupt).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sink.h"
#include "common/map.h"
#include "tickscope/idle.h"
#include "tickscope/idlepath.h"

struct cpu {
	struct ts_idlepath_cpu st;
	uint64_t switched_in, exited; /* times: switch to idle, cpu_idle exit */
	uint8_t want_enter; /* switched to idle, no enter yet */
	uint8_t want_switch; /* left a state, no switch away or enter yet */
	uint8_t in_state; /* between cpu_idle enter and exit */
	uint8_t want_cause; /* entered, no causal event yet */
	uint8_t ipi_window; /* left a state with no cause seen: an IPI next is what woke it */
	uint8_t timer_cause; /* the period's cause is a timer callback still running */
	uint8_t tick_stopped; /* tick_stop succeeded; cleared by the switch away */
	uint8_t restart_window; /* left a state with the tick stopped, not switched away yet */
	uint8_t nr_started; /* hrtimer functions counted in this window (once each) */
	uint64_t started[4];
};

struct ts_idlepath {
	struct ts_cputab cpus;
	struct ts_idlepath_totals tot;
	struct ts_objtab fns[TS_IDLEPATH_NR_TABS];
	const char *no_ipi_name; /* the decoder's name of sched:sched_wake_idle_without_ipi */
	const char *not_no_ipi; /* the last other tracepoint's name: not that one */
	uint8_t gate[TS_GATE_LEN]; /* per CPU: not known yet, or cpu_waits() */
};

static const char wake_no_ipi[] = "sched:sched_wake_idle_without_ipi";

static int count_fn(struct ts_idlepath *m, int tab, uint64_t fn, int cpu)
{
	struct ts_idlepath_fn *f = ts_objtab_get(&m->fns[tab], fn, NULL);

	if (!f)
		return -ENOMEM;
	f->function = fn;
	f->count++;
	return ts_count_cpu(&f->per_cpu, &f->nr_cpu, cpu);
}

/* An hrtimer started in a restart window: each function once per window. */
static int on_restart(struct ts_idlepath *m, struct cpu *c, const struct ts_event *ev)
{
	int i;

	for (i = 0; i < c->nr_started; i++)
		if (c->started[i] == ev->timer.function)
			return 0;
	if (c->nr_started < sizeof(c->started) / sizeof(c->started[0]))
		c->started[c->nr_started++] = ev->timer.function;
	return count_fn(m, TS_IDLEPATH_RESTARTS, ev->timer.function, ev->cpu);
}

static int on_switch(struct ts_idlepath *m, struct cpu *c, const struct ts_event *ev)
{
	int err = 0;

	if (ev->sw.prev_pid == 0 && c->want_switch && ev->time >= c->exited) {
		err = ts_hist_add(&c->st.exit, ev->time - c->exited);
		if (!err)
			err = ts_hist_add(&m->tot.exit, ev->time - c->exited);
	}
	if (ev->sw.prev_pid == 0 && c->want_enter) {
		c->st.unentered++;
		m->tot.unentered++;
	}
	if (ev->sw.prev_pid == 0) {
		c->want_switch = c->restart_window = 0;
		c->tick_stopped = 0;
	}
	c->want_enter = ev->sw.next_pid == 0;
	c->ipi_window = 0;
	c->switched_in = ev->time;
	return err;
}

static int on_cpu_idle(struct ts_idlepath *m, struct cpu *c, const struct ts_event *ev)
{
	int err = 0;

	if (ev->idle.state == TS_IDLE_EXIT) {
		c->in_state = 0;
		c->want_switch = 1;
		c->exited = ev->time;
		c->restart_window = c->tick_stopped;
		c->ipi_window = c->want_cause;
		c->nr_started = 0;
		return 0;
	}
	if (c->want_enter && ev->time >= c->switched_in) {
		err = ts_hist_add(&c->st.entry, ev->time - c->switched_in);
		if (!err)
			err = ts_hist_add(&m->tot.entry, ev->time - c->switched_in);
	}
	if (c->want_switch)
		c->st.reenter++;
	c->want_enter = c->want_switch = c->restart_window = c->ipi_window = 0;
	c->in_state = c->want_cause = 1;
	c->timer_cause = 0;
	return err;
}

/* Timer bookkeeping around an idle exit: not its cause (as in the idle section). */
static int bookkeeping(int kind)
{
	switch (kind) {
	case TS_EV_HRTIMER_START:
	case TS_EV_HRTIMER_CANCEL:
	case TS_EV_TIMER_START:
	case TS_EV_TIMER_CANCEL:
	case TS_EV_RCU_UTIL:
	case TS_EV_HRTIMER_EXPIRE_EXIT:
	case TS_EV_TIMER_EXPIRE_EXIT:
		return 1;
	}
	return 0;
}

/* An interrupt's entry or exit: the envelope of an IPI, not the end of its window. */
static int irq_envelope(int kind)
{
	return kind == TS_EV_IRQ_ENTRY || kind == TS_EV_IRQ_EXIT || kind == TS_EV_SOFTIRQ_ENTRY ||
	       kind == TS_EV_SOFTIRQ_EXIT;
}

static int feed_cpu(struct ts_idlepath *m, const struct ts_event *ev)
{
	struct cpu *c;

	if (ev->kind == TS_EV_COMM || ev->kind == TS_EV_LOST)
		return 0;
	if (ev->kind == TS_EV_OTHER && ev->name && ev->name != m->not_no_ipi &&
	    (ev->name == m->no_ipi_name || !strcmp(ev->name, wake_no_ipi))) {
		/* it fires on the waker's CPU: a whole-trace count */
		m->no_ipi_name = ev->name;
		m->tot.wake_no_ipi++;
		return 0;
	}
	if (ev->kind == TS_EV_OTHER)
		m->not_no_ipi = ev->name; /* one compare per run of a tracepoint, not per event */
	c = ts_cputab_get(&m->cpus, ev->cpu, NULL);
	if (!c)
		return ev->cpu < 0 ? 0 : -ENOMEM;
	c->st.cpu = ev->cpu;
	switch (ev->kind) {
	case TS_EV_SWITCH:
		c->want_cause = c->timer_cause = 0;
		return on_switch(m, c, ev);
	case TS_EV_CPU_IDLE:
		return on_cpu_idle(m, c, ev);
	case TS_EV_TICK_STOP:
		if (ev->tick_stop.success) {
			c->tick_stopped = 1;
			m->tot.tick_stops++;
		}
		return 0;
	case TS_EV_HRTIMER_START:
		return c->restart_window ? on_restart(m, c, ev) : 0;
	case TS_EV_TIMER_EXPIRE_EXIT:
		c->timer_cause = 0;
		return 0;
	case TS_EV_WQ_QUEUE:
		if (c->timer_cause) {
			c->timer_cause = 0;
			return count_fn(m, TS_IDLEPATH_DWORK, ev->wq.function, ev->cpu);
		}
		break;
	case TS_EV_TIMER_EXPIRE_ENTRY:
		if (c->want_cause) {
			c->want_cause = c->ipi_window = 0;
			c->timer_cause = 1;
			return 0;
		}
		break;
	default:
		if ((c->in_state || c->ipi_window) && ts_idle_is_ipi(ev->name)) {
			c->st.ipi_in_idle++;
			m->tot.ipi_in_idle++;
		} else if (c->want_enter && ts_idle_is_ipi(ev->name)) {
			c->st.ipi_entering++;
			m->tot.ipi_entering++;
		}
		break;
	}
	if (!bookkeeping(ev->kind))
		c->want_cause = 0;
	if (!bookkeeping(ev->kind) && !irq_envelope(ev->kind))
		c->ipi_window = 0;
	return 0;
}

/* Whether an event of a kind other than switch, cpu_idle and tick_stop may count on @c. */
static inline int cpu_waits(const struct cpu *c)
{
	return c->want_enter | c->in_state | c->want_cause | c->timer_cause | c->restart_window |
	       c->ipi_window;
}

/* The events that may change the model, and the gate's byte of their CPU after them. */
static __attribute__((noinline)) int feed_slow(struct ts_idlepath *m, const struct ts_event *ev)
{
	int err = feed_cpu(m, ev);
	const struct cpu *c = ts_cputab_find(&m->cpus, ev->cpu);

	if (c && (uint32_t)ev->cpu < TS_GATE_CPUS)
		m->gate[ev->cpu] = cpu_waits(c) != 0;
	return err;
}

/*
 * The hot path, for every event: one on a CPU known here that waits for nothing (no cause, no
 * enter, no timer callback, no restart window) changes nothing, whatever its kind; decided with
 * no call and no saved registers. A tracepoint of no kind of its own only when its name is the
 * one last found not to be sched_wake_idle_without_ipi.
 */
int ts_idlepath_feed(struct ts_idlepath *m, const struct ts_event *ev)
{
	const struct cpu *c;

	switch (ev->kind) {
	case TS_EV_COMM:
	case TS_EV_LOST:
		return 0;
	case TS_EV_SWITCH:
	case TS_EV_CPU_IDLE:
	case TS_EV_TICK_STOP:
		break;
	case TS_EV_OTHER:
		if (!ev->name || ev->name != m->not_no_ipi)
			break;
		/* fall through */
	default:
		c = ts_cputab_find(&m->cpus, ev->cpu);
		if (c && !cpu_waits(c))
			return 0;
		break;
	}
	return feed_slow(m, ev);
}

void ts_idlepath_finish(struct ts_idlepath *m, uint64_t end)
{
	(void)m;
	(void)end;
}

static const struct ts_tab_spec tabs[] = {
	TS_TAB(struct ts_idlepath, cpus, struct cpu),
	TS_TAB(struct ts_idlepath, fns[0], struct ts_idlepath_fn),
	TS_TAB(struct ts_idlepath, fns[1], struct ts_idlepath_fn),
};

int ts_idlepath_new(struct ts_idlepath **mp, const struct ts_model_opts *opts)
{
	(void)opts;
	*mp = ts_tables_new(sizeof(**mp), tabs, sizeof(tabs) / sizeof(tabs[0]));
	if (!*mp)
		return -ENOMEM;
	memset((*mp)->gate, 1, sizeof((*mp)->gate)); /* a CPU not known yet is made by its event */
	return 0;
}

/*
 * Switches, cpu_idle and tick_stop always; any other event only on a CPU that waits, but
 * sched_wake_idle_without_ipi (counted on the waker's CPU) and a tracepoint with no name always.
 */
static const uint8_t *idlepath_gate(const void *mv, int kind, const char *name)
{
	const struct ts_idlepath *m = mv;

	switch (kind) {
	case TS_EV_SWITCH:
	case TS_EV_CPU_IDLE:
	case TS_EV_TICK_STOP:
		return NULL;
	case TS_EV_OTHER:
		return name && strcmp(name, wake_no_ipi) ? m->gate : NULL;
	}
	return m->gate;
}

static void fini_cpu(void *obj)
{
	struct cpu *c = obj;

	ts_hist_release(&c->st.entry);
	ts_hist_release(&c->st.exit);
}

static void fini_fn(void *obj)
{
	free(((struct ts_idlepath_fn *)obj)->per_cpu);
}

void ts_idlepath_free(struct ts_idlepath *m)
{
	if (!m)
		return;
	ts_cputab_release(&m->cpus, fini_cpu);
	ts_hist_release(&m->tot.entry);
	ts_hist_release(&m->tot.exit);
	ts_objtab_release(&m->fns[0], fini_fn);
	ts_objtab_release(&m->fns[1], fini_fn);
	free(m);
}

TS_CPUTAB_GETTERS(idlepath, struct ts_idlepath_cpu)

const struct ts_idlepath_totals *ts_idlepath_totals(const struct ts_idlepath *m)
{
	return &m->tot;
}

size_t ts_idlepath_nr_fns(const struct ts_idlepath *m, int tab)
{
	return tab >= 0 && tab < TS_IDLEPATH_NR_TABS ? m->fns[tab].nr : 0;
}

const struct ts_idlepath_fn *ts_idlepath_fn_at(const struct ts_idlepath *m, int tab, size_t i)
{
	return i < ts_idlepath_nr_fns(m, tab) ? ts_objtab_at(&m->fns[tab], i) : NULL;
}

/*
 * idlepath.entry and .exit (distributions, ns), wake.no_ipi.per_s, ipi_in_idle.per_s,
 * ipi_entering.per_s and unentered.per_s, tick_restarts.per_s (the tick's hrtimer started
 * after an idle exit with the tick stopped; needs symbols), and dwork_exits.F.per_s per work
 * function F.
 */
static int idlepath_metrics(const void *mv, struct ts_metric_sink *s)
{
	const struct ts_idlepath *m = mv;
	const struct ts_idlepath_totals *t = &m->tot;
	const char *idle = tm_why(s, TS_EV_CPU_IDLE), *sw = tm_why(s, TS_EV_SWITCH);
	const char *w = idle ? idle : sw, *hs = tm_why(s, TS_EV_HRTIMER_START);
	const char *q = tm_why(s, TS_EV_WQ_QUEUE), *te = tm_why(s, TS_EV_TIMER_EXPIRE_ENTRY);
	const struct ts_idlepath_fn *f;
	uint64_t tick = 0;
	char buf[64];
	size_t i;

	tm_dist(s, TS_DIR_LOWER, &t->entry, w, "entry");
	tm_dist(s, TS_DIR_LOWER, &t->exit, w, "exit");
	tm_rate(s, TS_DIR_NEUTRAL, t->wake_no_ipi, NULL, "wake.no_ipi.per_s");
	tm_rate(s, TS_DIR_NEUTRAL, t->ipi_in_idle, idle, "ipi_in_idle.per_s");
	tm_rate(s, TS_DIR_NEUTRAL, t->ipi_entering, w, "ipi_entering.per_s");
	tm_rate(s, TS_DIR_NEUTRAL, t->unentered, w, "unentered.per_s");
	for (i = 0; i < ts_idlepath_nr_fns(m, TS_IDLEPATH_RESTARTS); i++) {
		f = ts_idlepath_fn_at(m, TS_IDLEPATH_RESTARTS, i);
		tick += ts_idle_is_tick(tm_fn(s, f->function, buf, sizeof(buf))) ? f->count : 0;
	}
	if (!hs && !idle && !s->sym)
		hs = "no symbols: the tick cannot be told from other hrtimers";
	tm_rate(s, TS_DIR_LOWER, tick, idle ? idle : hs, "tick_restarts.per_s");
	for (i = 0; i < ts_idlepath_nr_fns(m, TS_IDLEPATH_DWORK); i++) {
		f = ts_idlepath_fn_at(m, TS_IDLEPATH_DWORK, i);
		tm_rate(s, TS_DIR_LOWER, f->count, idle ? idle : (q ? q : te),
			"dwork_exits.%s.per_s", tm_fn(s, f->function, buf, sizeof(buf)));
	}
	return s->err;
}

TS_SECTION_GLUE_VOID(idlepath, struct ts_idlepath)

static const uint16_t also[] = { TS_EV_SWITCH, TS_EV_CPU_IDLE, TS_EV_TICK_STOP };

const struct ts_section_ops ts_idlepath_section = {
	.name = "idlepath",
	.also = also,
	.nr_also = 3,
	.flags = TS_SECF_ALL_EVENTS,
	TS_SECTION_OPS_GLUE(idlepath),
	.gate = idlepath_gate,
	.metrics = idlepath_metrics,
};
