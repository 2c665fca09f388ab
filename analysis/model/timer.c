// SPDX-License-Identifier: GPL-2.0-only
/*
 * The timer model. Hard hrtimers can interrupt soft ones and timer callbacks, so each CPU keeps
 * a short stack of callbacks in progress; an exit pops its own timer by address.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sink.h"
#include "tickscope/idle.h"
#include "common/map.h"
#include "tickscope/timer.h"

#define DEPTH 4

struct running {
	uint64_t timer, time;
	struct ts_timer_fn *fn;
};

struct cpu {
	struct running r[2][DEPTH]; /* [hr] */
	int nr[2];
};

struct ts_timer {
	struct ts_objtab fns; /* (function, hr) -> struct ts_timer_fn */
	struct ts_cputab cpus; /* cpu -> struct cpu */
	struct ts_timer_totals tot;
};

static struct cpu *get_cpu(struct ts_timer *m, int32_t cpu)
{
	return ts_cputab_get(&m->cpus, cpu, NULL);
}

static struct ts_timer_fn *get_fn(struct ts_timer *m, uint64_t function, int hr)
{
	/* Kernel text is 4-byte aligned: the low bit tells hrtimers from timers. */
	struct ts_timer_fn *f = ts_objtab_get(&m->fns, function ^ (uint64_t)hr, NULL);

	if (f) {
		f->function = function;
		f->hr = hr;
	}
	return f;
}

static int on_expire_entry(struct ts_timer *m, const struct ts_event *ev, int hr)
{
	struct cpu *c = get_cpu(m, ev->cpu);
	struct ts_timer_fn *f = get_fn(m, ev->timer.function, hr);
	struct running *r;
	int err;

	if (!c || !f)
		return -ENOMEM;
	f->nr_expire++;
	m->tot.nr_expire[hr]++;
	err = ts_count_cpu(&f->per_cpu, &f->nr_cpu, ev->cpu);
	if (!err)
		err = ts_count_cpu(&m->tot.per_cpu[hr], &m->tot.nr_cpu[hr], ev->cpu);
	if (c->nr[hr] == DEPTH) {
		/* Deeper than any real nesting: exits were lost; forget the oldest. */
		memmove(&c->r[hr][0], &c->r[hr][1], (DEPTH - 1) * sizeof(c->r[hr][0]));
		c->nr[hr]--;
	}
	r = &c->r[hr][c->nr[hr]++];
	r->timer = ev->timer.timer;
	r->time = ev->time;
	r->fn = f;
	return err;
}

static int on_expire_exit(struct ts_timer *m, const struct ts_event *ev, int hr)
{
	struct cpu *c = ts_cputab_find(&m->cpus, ev->cpu);
	struct running *r;
	int i;

	for (i = c ? c->nr[hr] - 1 : -1; i >= 0; i--)
		if (c->r[hr][i].timer == ev->timer.timer)
			break;
	if (i < 0) {
		m->tot.unmatched_exits++;
		return 0;
	}
	r = &c->r[hr][i];
	c->nr[hr] = i; /* anything above it lost its exit */
	if (ev->time < r->time)
		return 0;
	return ts_hist_add(&r->fn->handler, ev->time - r->time);
}

static int on_start(struct ts_timer *m, const struct ts_event *ev, int hr)
{
	struct ts_timer_fn *f = get_fn(m, ev->timer.function, hr);

	if (!f)
		return -ENOMEM;
	f->nr_start++;
	m->tot.nr_start[hr]++;
	return 0;
}

int ts_timer_feed(struct ts_timer *m, const struct ts_event *ev)
{
	switch (ev->kind) {
	case TS_EV_TIMER_EXPIRE_ENTRY:
		return on_expire_entry(m, ev, 0);
	case TS_EV_HRTIMER_EXPIRE_ENTRY:
		return on_expire_entry(m, ev, 1);
	case TS_EV_TIMER_EXPIRE_EXIT:
		return on_expire_exit(m, ev, 0);
	case TS_EV_HRTIMER_EXPIRE_EXIT:
		return on_expire_exit(m, ev, 1);
	case TS_EV_TIMER_START:
		return on_start(m, ev, 0);
	case TS_EV_HRTIMER_START:
		return on_start(m, ev, 1);
	case TS_EV_TIMER_CANCEL:
		m->tot.nr_cancel[0]++;
		return 0;
	case TS_EV_HRTIMER_CANCEL:
		m->tot.nr_cancel[1]++;
		return 0;
	default:
		return 0;
	}
}

void ts_timer_finish(struct ts_timer *m, uint64_t end)
{
}

static const struct ts_tab_spec tabs[] = {
	TS_TAB(struct ts_timer, cpus, struct cpu),
	TS_TAB(struct ts_timer, fns, struct ts_timer_fn),
};

int ts_timer_new(struct ts_timer **mp, const struct ts_model_opts *opts)
{
	*mp = ts_tables_new(sizeof(**mp), tabs, sizeof(tabs) / sizeof(tabs[0]));
	return *mp ? 0 : -ENOMEM;
}

static void fini_fn(void *obj)
{
	struct ts_timer_fn *f = obj;

	ts_hist_release(&f->handler);
	free(f->per_cpu);
}

void ts_timer_free(struct ts_timer *m)
{
	if (!m)
		return;
	ts_objtab_release(&m->fns, fini_fn);
	ts_cputab_release(&m->cpus, NULL);
	free(m->tot.per_cpu[0]);
	free(m->tot.per_cpu[1]);
	free(m);
}

size_t ts_timer_nr_fns(const struct ts_timer *m)
{
	return m->fns.nr;
}

const struct ts_timer_fn *ts_timer_fn_at(const struct ts_timer *m, size_t i)
{
	return i < m->fns.nr ? ts_objtab_at(&m->fns, i) : NULL;
}

const struct ts_timer_totals *ts_timer_totals(const struct ts_timer *m)
{
	return &m->tot;
}

/* Expiries per second by function, with their handler times; the tick's when symbols tell. */
static void fn_metrics(const struct ts_timer *m, struct ts_metric_sink *s, const char *why_exit[2],
		       const char *hr)
{
	const struct ts_timer_fn *fn;
	uint64_t tick = 0;
	const char *name;
	char buf[24];
	size_t i;

	for (i = 0; i < ts_timer_nr_fns(m); i++) {
		fn = ts_timer_fn_at(m, i);
		if (!fn->nr_expire)
			continue;
		name = tm_fn(s, fn->function, buf, sizeof(buf));
		if (fn->hr && ts_idle_is_tick(name))
			tick += fn->nr_expire;
		tm_rate(s, TS_DIR_LOWER, fn->nr_expire, NULL, "expire.%s.per_s", name);
		tm_dist(s, TS_DIR_LOWER, &fn->handler, why_exit[fn->hr], "expire.%s.handler", name);
	}
	if (!hr && !s->sym)
		hr = "no symbols: the tick is not told apart";
	tm_rate(s, TS_DIR_LOWER, tick, hr, "expire.tick.per_s");
}

static int timer_metrics(const void *mv, struct ts_metric_sink *s)
{
	const struct ts_timer *m = mv;
	const struct ts_timer_totals *t = ts_timer_totals(m);
	const char *why = tm_section_why(s, TS_SEC_TIMER), *why_exit[2], *why_all = why;
	const char *hr = tm_why(s, TS_EV_HRTIMER_EXPIRE_ENTRY),
		   *tl = tm_why(s, TS_EV_TIMER_EXPIRE_ENTRY);

	why_exit[0] = tm_why(s, TS_EV_TIMER_EXPIRE_EXIT);
	why_exit[1] = tm_why(s, TS_EV_HRTIMER_EXPIRE_EXIT);
	/* an expiry's entry recorded but lost while its exit was seen: the total is not known */
	if (!why && hr &&
	    ts_analysis_kind_presence(s->a, TS_EV_HRTIMER_EXPIRE_ENTRY) == TS_RECORDED_EMPTY)
		why_all = hr;
	else if (!why && tl &&
		 ts_analysis_kind_presence(s->a, TS_EV_TIMER_EXPIRE_ENTRY) == TS_RECORDED_EMPTY)
		why_all = tl;
	tm_rate(s, TS_DIR_LOWER, t->nr_expire[0] + t->nr_expire[1], why_all, "expire.per_s");
	tm_rate(s, TS_DIR_LOWER, t->nr_expire[1], hr, "expire.hrtimer.per_s");
	tm_rate(s, TS_DIR_LOWER, t->nr_expire[0], tl, "expire.timer.per_s");
	if (!why)
		fn_metrics(m, s, why_exit, hr);
	return s->err;
}

TS_SECTION_GLUE_VOID(timer, struct ts_timer)


const struct ts_section_ops ts_timer_section = {
	.name = "timer",
	TS_SECTION_OPS_GLUE(timer),
	.metrics = timer_metrics,
};
