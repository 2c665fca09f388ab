// SPDX-License-Identifier: GPL-2.0-only
/*
 * The idle and tick model. An idle period runs from cpu_idle enter (state != PWR_EVENT_EXIT)
 * to exit. Its cause is the first causal event on that CPU after the enter: in 6.1's
 * default_idle_call() the interrupt runs before the exit is traced, with cpuidle drivers after.
 * When none comes before the next enter, the first interrupt handled since is the cause.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink.h"
#include "tickscope/classify.h"
#include "tickscope/idle.h"
#include "tickscope/irq.h"
#include "common/map.h"

struct cpu {
	struct ts_idle_cpu st;
	uint64_t enter;
	uint32_t state;
	uint8_t in_idle, want_cause;
	char irq[32]; /* the first interrupt handled since the enter, while the cause is wanted */
};

struct ts_idle {
	struct ts_cputab cpus; /* cpu -> struct cpu */
	struct ts_idle_totals tot;
	struct ts_objtab exit_fns[2]; /* [1] hrtimer, [0] timer */
	uint8_t gate[TS_GATE_LEN]; /* per CPU, its want_cause: events other than its own matter */
};

/* A CPU's want_cause, and its gate's byte with it. */
static void set_want(struct ts_idle *m, struct cpu *c, uint8_t want)
{
	c->want_cause = want;
	if ((uint32_t)c->st.cpu < TS_GATE_CPUS)
		m->gate[c->st.cpu] = want;
}

static struct cpu *get_cpu(struct ts_idle *m, int32_t cpu)
{
	int isnew;
	struct cpu *c = ts_cputab_get(&m->cpus, cpu, &isnew);

	if (isnew) {
		c->st.cpu = cpu;
	}
	return c;
}

static int count_exit(struct ts_idle *m, struct cpu *c, int cause, uint64_t fn)
{
	struct ts_idle_exit_fn *f;

	set_want(m, c, 0);
	c->st.exits[cause]++;
	m->tot.exits[cause]++;
	if (cause != TS_EXIT_HRTIMER && cause != TS_EXIT_TIMER)
		return 0;
	f = ts_objtab_get(&m->exit_fns[cause == TS_EXIT_HRTIMER], fn, NULL);
	if (!f)
		return -ENOMEM;
	f->function = fn;
	f->count++;
	return 0;
}

/* An exit whose only trace is interrupt @name: counted by name, the first names kept. */
static void count_irq(struct ts_idle_totals *t, const char *name)
{
	int i;

	for (i = 0; i < t->nr_irqs; i++) {
		if (!strncmp(t->irqs[i].name, name, sizeof(t->irqs[i].name))) {
			t->irqs[i].count++;
			return;
		}
	}
	if (t->nr_irqs == TS_IDLE_MAX_IRQS) {
		t->irqs_other++;
		return;
	}
	snprintf(t->irqs[i].name, sizeof(t->irqs[i].name), "%s", name);
	t->irqs[t->nr_irqs++].count = 1;
}

/*
 * Back into idle while the last period's cause is still wanted: nothing causal was traced
 * since its enter. An interrupt handled meanwhile is the cause (the periodic tick's, which
 * runs no hrtimer, or a device's that woke nobody), else the exit is untraced.
 */
static int count_uncaused(struct ts_idle *m, struct cpu *c)
{
	if (!c->irq[0])
		return count_exit(m, c, TS_EXIT_UNTRACED, 0);
	count_irq(&m->tot, c->irq);
	return count_exit(m, c, TS_EXIT_IRQ, 0);
}

static int on_cpu_idle(struct ts_idle *m, struct cpu *c, const struct ts_event *ev)
{
	unsigned int s;
	int err = 0;

	if (ev->idle.state != TS_IDLE_EXIT) {
		if (c->want_cause)
			err = count_uncaused(m, c);
		c->irq[0] = 0;
		set_want(m, c, 1);
		/* A second enter without an exit: the first period's end was lost. */
		if (c->in_idle) {
			c->st.unmatched_exits++;
			m->tot.unmatched_exits++;
		}
		c->in_idle = 1;
		c->enter = ev->time;
		c->state = ev->idle.state;
		return err;
	}
	if (!c->in_idle) {
		c->st.unmatched_exits++;
		m->tot.unmatched_exits++;
		return 0;
	}
	c->in_idle = 0;
	s = c->state < TS_IDLE_NR_STATES ? c->state : TS_IDLE_NR_STATES - 1;
	if (ev->time < c->enter)
		return 0;
	err = ts_hist_add(&c->st.residency[s], ev->time - c->enter);
	if (!err)
		err = ts_hist_add(&m->tot.residency[s], ev->time - c->enter);
	return err;
}

static void on_tick_stop(struct ts_idle *m, struct cpu *c, const struct ts_event *ev)
{
	struct ts_idle_totals *t = &m->tot;
	int i;

	if (ev->tick_stop.success) {
		c->st.tick_stop_ok++;
		t->tick_stop_ok++;
		return;
	}
	c->st.tick_stop_fail++;
	t->tick_stop_fail++;
	for (i = 0; i < t->nr_deps; i++)
		if (!strncmp(t->deps[i].name, ev->tick_stop.dependency, sizeof(t->deps[i].name)))
			break;
	if (i == t->nr_deps) {
		if (i == TS_IDLE_MAX_DEPS) {
			t->deps_other++;
			return;
		}
		memcpy(t->deps[i].name, ev->tick_stop.dependency, sizeof(t->deps[i].name));
		t->deps[i].name[sizeof(t->deps[i].name) - 1] = 0;
		t->nr_deps++;
	}
	t->deps[i].count++;
}

static void count_other(struct ts_idle_totals *t, const char *name)
{
	int i;

	for (i = 0; name && i < t->nr_other; i++) {
		if (t->other[i].name == name || !strcmp(t->other[i].name, name)) {
			t->other[i].count++;
			return;
		}
	}
	if (!name || t->nr_other == TS_IDLE_MAX_OTHER) {
		t->other_unnamed++;
		return;
	}
	t->other[t->nr_other].name = name;
	t->other[t->nr_other++].count = 1;
}

int ts_idle_is_envelope(const char *name)
{
	static const char pre[] = "irq_vectors:";
	size_t n = name ? strlen(name) : 0;

	/* irq_vectors:local_timer_entry holds the tick's hrtimer; any vector's exit comes after */
	return n > sizeof(pre) && !strncmp(name, pre, sizeof(pre) - 1) &&
	       (!strcmp(name + sizeof(pre) - 1, "local_timer_entry") ||
		!strcmp(name + n - 5, "_exit"));
}

int ts_idle_is_ipi(const char *name)
{
	return ts_class_is_ipi(name);
}

/*
 * The first interrupt while the cause is wanted: a handler's name, or an x86 vector's. Copied
 * by hand: it runs for every interrupt on a CPU just out of idle, and snprintf() cost 650
 * instructions a call (callgrind).
 */
static void note_irq(struct cpu *c, const char *name)
{
	static const char pre[] = "irq_vectors:", post[] = "_entry";
	size_t n, i;

	if (c->irq[0] || !name || !*name)
		return;
	n = strlen(name);
	if (!strncmp(name, pre, sizeof(pre) - 1)) {
		if (n < sizeof(pre) - 1 + sizeof(post) || strcmp(name + n - sizeof(post) + 1, post))
			return;
		name += sizeof(pre) - 1;
		n -= sizeof(pre) - 1 + sizeof(post) - 1;
	}
	for (i = 0; i < n && i + 1 < sizeof(c->irq); i++)
		c->irq[i] = name[i];
	c->irq[i] = 0;
}

static int exit_cause(struct ts_idle *m, struct cpu *c, const struct ts_event *ev)
{
	switch (ev->kind) {
	case TS_EV_IRQ_ENTRY:
		/* the envelope of a cause that may come next; if none does, the cause itself */
		note_irq(c, ev->irq.name);
		return 0;
	case TS_EV_HRTIMER_START:
	case TS_EV_HRTIMER_CANCEL:
	case TS_EV_TIMER_START:
	case TS_EV_TIMER_CANCEL:
	case TS_EV_RCU_UTIL:
	case TS_EV_HRTIMER_EXPIRE_EXIT:
	case TS_EV_TIMER_EXPIRE_EXIT:
	case TS_EV_IRQ_EXIT:
	case TS_EV_SOFTIRQ_ENTRY:
	case TS_EV_SOFTIRQ_EXIT:
		/*
		 * Bookkeeping around the idle exit (the tick restarting), not its cause; an
		 * interrupt's entry is the envelope of its cause (the hrtimer it expires, the
		 * wakeup it sends), which comes next.
		 */
		return 0;
	case TS_EV_HRTIMER_EXPIRE_ENTRY:
		return count_exit(m, c, TS_EXIT_HRTIMER, ev->timer.function);
	case TS_EV_TIMER_EXPIRE_ENTRY:
		return count_exit(m, c, TS_EXIT_TIMER, ev->timer.function);
	case TS_EV_WAKING:
	case TS_EV_WAKEUP:
	case TS_EV_WAKEUP_NEW:
		return count_exit(m, c, TS_EXIT_WAKEUP, 0);
	case TS_EV_SWITCH:
		return count_exit(m, c, TS_EXIT_SWITCH, 0);
	default:
		if (ts_idle_is_envelope(ev->name)) {
			note_irq(c, ev->name);
			return 0;
		}
		count_other(&m->tot, ev->name);
		return count_exit(m, c, ts_idle_is_ipi(ev->name) ? TS_EXIT_IPI : TS_EXIT_OTHER, 0);
	}
}

/* Events that may change the model: all but those the hot path in ts_idle_feed() drops. */
static __attribute__((noinline)) int feed_slow(struct ts_idle *m, const struct ts_event *ev)
{
	struct cpu *c;

	if (ev->kind != TS_EV_CPU_IDLE && ev->kind != TS_EV_TICK_STOP) {
		c = ts_cputab_find(&m->cpus, ev->cpu);
		if (!c || !c->want_cause)
			return 0;
		return exit_cause(m, c, ev);
	}
	c = get_cpu(m, ev->cpu);
	if (!c)
		return -ENOMEM;
	c->st.seen = 1;
	if (ev->kind == TS_EV_TICK_STOP) {
		on_tick_stop(m, c, ev);
		return 0;
	}
	return on_cpu_idle(m, c, ev);
}

/*
 * The hot path: most events land on CPUs that are not waiting for a cause. Decided here with
 * no call and no saved registers (the rest is out of line), as it runs for every event.
 */
int ts_idle_feed(struct ts_idle *m, const struct ts_event *ev)
{
	const struct cpu *c;

	if (ev->kind == TS_EV_COMM || ev->kind == TS_EV_LOST)
		return 0;
	if (ev->kind != TS_EV_CPU_IDLE && ev->kind != TS_EV_TICK_STOP) {
		c = ts_cputab_find(&m->cpus, ev->cpu);
		if (!c || !c->want_cause)
			return 0;
	}
	return feed_slow(m, ev);
}

void ts_idle_finish(struct ts_idle *m, uint64_t end)
{
	struct cpu *c;
	int i;

	for (i = 0; i < m->cpus.nr; i++) {
		c = m->cpus.v[i];
		if (!c || !c->in_idle)
			continue;
		c->st.open_at_end++;
		m->tot.open_at_end++;
	}
}

static const struct ts_tab_spec tabs[] = {
	TS_TAB(struct ts_idle, cpus, struct cpu),
	TS_TAB(struct ts_idle, exit_fns[0], struct ts_idle_exit_fn),
	TS_TAB(struct ts_idle, exit_fns[1], struct ts_idle_exit_fn),
};

int ts_idle_new(struct ts_idle **mp, const struct ts_model_opts *opts)
{
	*mp = ts_tables_new(sizeof(**mp), tabs, sizeof(tabs) / sizeof(tabs[0]));
	if (!*mp)
		return -ENOMEM;
	(*mp)->gate[TS_GATE_CPUS] = 1; /* CPUs past the gate: the feed decides */
	return 0;
}

/* Events other than cpu_idle and tick_stop matter only on a CPU waiting for a cause. */
static const uint8_t *idle_gate(const void *mv, int kind, const char *name)
{
	const struct ts_idle *m = mv;

	(void)name;
	return kind == TS_EV_CPU_IDLE || kind == TS_EV_TICK_STOP ? NULL : m->gate;
}

static void fini_cpu(void *obj)
{
	struct cpu *c = obj;
	int s;

	for (s = 0; s < TS_IDLE_NR_STATES; s++)
		ts_hist_release(&c->st.residency[s]);
}

void ts_idle_free(struct ts_idle *m)
{
	int s;

	if (!m)
		return;
	ts_cputab_release(&m->cpus, fini_cpu);
	for (s = 0; s < TS_IDLE_NR_STATES; s++)
		ts_hist_release(&m->tot.residency[s]);
	ts_objtab_release(&m->exit_fns[0], NULL);
	ts_objtab_release(&m->exit_fns[1], NULL);
	free(m);
}

TS_CPUTAB_GETTERS(idle, struct ts_idle_cpu)

const struct ts_idle_totals *ts_idle_totals(const struct ts_idle *m)
{
	return &m->tot;
}

size_t ts_idle_nr_exit_fns(const struct ts_idle *m, int hr)
{
	return m->exit_fns[!!hr].nr;
}

const struct ts_idle_exit_fn *ts_idle_exit_fn_at(const struct ts_idle *m, int hr, size_t i)
{
	return i < m->exit_fns[!!hr].nr ? ts_objtab_at(&m->exit_fns[!!hr], i) : NULL;
}

const char *ts_idle_exit_name(int cause)
{
	static const char *const names[TS_EXIT_NR] = {
		[TS_EXIT_HRTIMER] = "hrtimer", [TS_EXIT_TIMER] = "timer",
		[TS_EXIT_WAKEUP] = "wakeup",   [TS_EXIT_SWITCH] = "resched",
		[TS_EXIT_IPI] = "ipi",	       [TS_EXIT_UNTRACED] = "untraced",
		[TS_EXIT_OTHER] = "other",     [TS_EXIT_IRQ] = "irq",
	};

	return cause >= 0 && cause < TS_EXIT_NR ? names[cause] : "";
}

int ts_idle_is_tick(const char *name)
{
	return ts_class_is_tick(name);
}

/* Why exits of @cause could not be seen, or NULL when they could. */
static const char *exit_why(struct ts_metric_sink *s, int cause)
{
	static const uint16_t kind[TS_EXIT_NR] = { [TS_EXIT_HRTIMER] = TS_EV_HRTIMER_EXPIRE_ENTRY,
						   [TS_EXIT_TIMER] = TS_EV_TIMER_EXPIRE_ENTRY,
						   [TS_EXIT_WAKEUP] = TS_EV_WAKING,
						   [TS_EXIT_SWITCH] = TS_EV_SWITCH,
						   [TS_EXIT_IRQ] = TS_EV_IRQ_ENTRY };

	if (ts_analysis_exit_traced(s->a, cause))
		return NULL;
	if (cause == TS_EXIT_IPI)
		return "no IPI arrival recorded (irq_vectors:*_entry, ipi:ipi_entry)";
	return kind[cause] ? tm_why(s, kind[cause]) : "not recorded";
}

/*
 * Why no exit's cause is known, or NULL: an expiry entry recorded but never seen while its exit
 * was (a damaged trace, ts_analysis_kind_why()). The exits it ended went to the next event seen
 * instead (another cause, or untraced), so every cause's count is wrong, not only its own.
 */
static const char *exits_lost(struct ts_metric_sink *s)
{
	static const uint16_t kinds[] = { TS_EV_HRTIMER_EXPIRE_ENTRY, TS_EV_TIMER_EXPIRE_ENTRY };

	const char *w;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (ts_analysis_kind_presence(s->a, kinds[i]) != TS_RECORDED_EMPTY)
			continue;
		w = tm_why(s, kinds[i]);
		if (w)
			return w;
	}
	return NULL;
}

/* Exits per second by cause; the tick apart from other hrtimers when symbols tell. */
static void exit_metrics(const struct ts_idle *m, struct ts_metric_sink *s, const char *why)
{
	const struct ts_idle_exit_fn *x;
	uint64_t all = 0, tick = 0;
	const char *w, *lost = why ? NULL : exits_lost(s);
	char buf[40];
	size_t i;
	int e;

	for (e = 0; e < TS_EXIT_NR; e++) {
		all += m->tot.exits[e];
		w = why ? why : lost ? lost : exit_why(s, e);
		tm_rate(s, TS_DIR_LOWER, m->tot.exits[e], w, "exits.%s.per_s",
			ts_idle_exit_name(e));
	}
	tm_rate(s, TS_DIR_LOWER, all, why, "exits.per_s");
	for (i = 0; i < ts_idle_nr_exit_fns(m, 1); i++) {
		x = ts_idle_exit_fn_at(m, 1, i);
		tick += ts_idle_is_tick(tm_fn(s, x->function, buf, sizeof(buf))) ? x->count : 0;
	}
	w = why ? why : lost ? lost : exit_why(s, TS_EXIT_HRTIMER);
	if (!w && !s->sym)
		w = "no symbols: the tick cannot be told from other hrtimers";
	tm_rate(s, TS_DIR_LOWER, tick, w, "exits.tick.per_s");
	tm_rate(s, TS_DIR_LOWER, m->tot.exits[TS_EXIT_HRTIMER] - tick, w,
		"exits.other_hrtimer.per_s");
	w = why ? why : lost ? lost : exit_why(s, TS_EXIT_IRQ);
	for (e = 0; !w && e < m->tot.nr_irqs; e++)
		tm_rate(s, TS_DIR_LOWER, m->tot.irqs[e].count, NULL, "exits.irq.%s.per_s",
			ts_irq_metric_part(m->tot.irqs[e].name, buf, sizeof(buf)));
}

static int idle_metrics(const void *mv, struct ts_metric_sink *s)
{
	const struct ts_idle *m = mv;
	const struct ts_idle_totals *t = &m->tot;
	const char *why = tm_why(s, TS_EV_CPU_IDLE), *ts;
	uint64_t entries = 0;
	int st, i;

	exit_metrics(m, s, why);
	ts = tm_why(s, TS_EV_TICK_STOP); /* after: exit_metrics' reasons reuse tm_why()'s buffers */
	for (st = 0; st < TS_IDLE_NR_STATES; st++) {
		entries += t->residency[st].count;
		if (t->residency[st].count)
			tm_dist(s, TS_DIR_NEUTRAL, &t->residency[st], NULL, "residency.state%d",
				st);
	}
	tm_rate(s, TS_DIR_LOWER, entries, why, "entries.per_s");
	tm_rate(s, TS_DIR_NEUTRAL, t->tick_stop_ok, ts, "tick_stop.ok.per_s");
	tm_rate(s, TS_DIR_LOWER, t->tick_stop_fail, ts, "tick_stop.fail.per_s");
	for (i = 0; !ts && i < t->nr_deps; i++)
		tm_value(s, "count", TS_DIR_LOWER, (double)t->deps[i].count,
			 "tick_stop.fail.%s.count", t->deps[i].name);
	return s->err;
}

TS_SECTION_GLUE_VOID(idle, struct ts_idle)

const struct ts_section_ops ts_idle_section = {
	.name = "idle",
	.flags = TS_SECF_ALL_EVENTS,
	TS_SECTION_OPS_GLUE(idle),
	.gate = idle_gate,
	.metrics = idle_metrics,
};
