// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RCU model. Windows of different contexts nest (a tick inside RCU core), so each CPU keeps
 * one open Start per context. Grace periods of one flavour never overlap: "start" pairs with
 * the next "end" (their gp_seq values differ by design).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sink.h"
#include "common/map.h"
#include "tickscope/rcu.h"

#define MAX_PENDING_CBS (1u << 20)

struct cpu {
	struct ts_rcu_cpu st;
	uint64_t start[TS_RCU_NR_CTX];
	uint8_t open[TS_RCU_NR_CTX];
};

struct ts_rcu {
	struct ts_cputab cpus; /* cpu -> struct cpu */
	struct ts_rcu_totals tot;
	uint64_t gp_start[TS_RCU_MAX_FLAVORS];
	uint8_t gp_open[TS_RCU_MAX_FLAVORS];
	struct ts_objtab cb_fns; /* function -> struct ts_rcu_cb_fn */
	struct ts_map pending; /* rhp -> queue time */
};

const char *ts_rcu_ctx_name(int ctx)
{
	static const char *const names[TS_RCU_NR_CTX] = {
		[TS_RCU_OTHER] = "other",	  [TS_RCU_CTXSW] = "context switch",
		[TS_RCU_TICK] = "scheduler-tick", [TS_RCU_CORE] = "RCU core",
		[TS_RCU_CPU_STALL] = "kthread",
	};

	return ctx >= 0 && ctx < TS_RCU_NR_CTX ? names[ctx] : "other";
}

static struct cpu *get_cpu(struct ts_rcu *m, int32_t cpu)
{
	int isnew;
	struct cpu *c = ts_cputab_get(&m->cpus, cpu, &isnew);

	if (isnew) {
		c->st.cpu = cpu;
	}
	return c;
}

static int on_util(struct ts_rcu *m, const struct ts_event *ev)
{
	struct cpu *c = get_cpu(m, ev->cpu);
	int x = ev->rcu_util.ctx < TS_RCU_NR_CTX ? ev->rcu_util.ctx : TS_RCU_OTHER;
	uint64_t d;

	if (!c)
		return -ENOMEM;
	c->st.seen = 1;
	if (ev->rcu_util.start) {
		c->start[x] = ev->time;
		c->open[x] = 1;
		return 0;
	}
	if (!c->open[x] || ev->time < c->start[x]) {
		m->tot.unmatched_ends++;
		return 0;
	}
	c->open[x] = 0;
	d = ev->time - c->start[x];
	c->st.count[x]++;
	c->st.time[x] += d;
	return ts_hist_add(&m->tot.window[x], d);
}

static int flavor(struct ts_rcu *m, const char *name)
{
	struct ts_rcu_totals *t = &m->tot;
	int i;

	if (!name)
		name = "";
	for (i = 0; i < t->nr_flavors; i++)
		if (!strncmp(t->flavors[i].name, name, sizeof(t->flavors[i].name) - 1))
			return i;
	if (i == TS_RCU_MAX_FLAVORS)
		return -1;
	strncpy(t->flavors[i].name, name, sizeof(t->flavors[i].name) - 1);
	t->nr_flavors++;
	return i;
}

static int on_gp(struct ts_rcu *m, const struct ts_event *ev)
{
	int i = flavor(m, ev->rcu_gp.rcuname);
	const char *what = ev->rcu_gp.gpevent ? ev->rcu_gp.gpevent : "";

	m->tot.nr_gp_events++;
	if (i < 0)
		return 0;
	m->tot.flavors[i].nr_events++;
	if (!strcmp(what, "start")) {
		m->gp_start[i] = ev->time;
		m->gp_open[i] = 1;
	} else if (!strcmp(what, "end")) {
		if (!m->gp_open[i] || ev->time < m->gp_start[i]) {
			m->tot.gp_unmatched_ends++;
			return 0;
		}
		m->gp_open[i] = 0;
		return ts_hist_add(&m->tot.flavors[i].gp, ev->time - m->gp_start[i]);
	}
	return 0;
}

static int on_cb(struct ts_rcu *m, const struct ts_event *ev)
{
	struct ts_rcu_cb_fn *f = ts_objtab_get(&m->cb_fns, ev->rcu_cb.func, NULL);
	uint64_t *v;
	int ret;

	if (!f)
		return -ENOMEM;
	f->function = ev->rcu_cb.func;
	if (ev->kind == TS_EV_RCU_CB) {
		f->nr_queued++;
		m->tot.nr_cb_queued++;
		if (m->pending.nr >= MAX_PENDING_CBS)
			return 0;
		ret = ts_map_insert(&m->pending, ev->rcu_cb.rhp, &v);
		if (ret >= 0)
			*v = ev->time;
		return ret < 0 ? ret : 0;
	}
	f->nr_invoked++;
	m->tot.nr_cb_invoked++;
	v = ts_map_find(&m->pending, ev->rcu_cb.rhp);
	if (!v)
		return 0;
	ret = ev->time >= *v ? ts_hist_add(&f->latency, ev->time - *v) : 0;
	ts_map_remove(&m->pending, ev->rcu_cb.rhp);
	return ret;
}

int ts_rcu_feed(struct ts_rcu *m, const struct ts_event *ev)
{
	switch (ev->kind) {
	case TS_EV_RCU_UTIL:
		return on_util(m, ev);
	case TS_EV_RCU_GP:
		return on_gp(m, ev);
	case TS_EV_RCU_CB:
	case TS_EV_RCU_INVOKE:
		return on_cb(m, ev);
	default:
		return 0;
	}
}

void ts_rcu_finish(struct ts_rcu *m, uint64_t end)
{
}

static const struct ts_tab_spec tabs[] = {
	TS_TAB(struct ts_rcu, cpus, struct cpu),
	TS_TAB(struct ts_rcu, cb_fns, struct ts_rcu_cb_fn),
};

int ts_rcu_new(struct ts_rcu **mp, const struct ts_model_opts *opts)
{
	*mp = ts_tables_new(sizeof(**mp), tabs, sizeof(tabs) / sizeof(tabs[0]));
	return *mp ? 0 : -ENOMEM;
}

static void fini_cb(void *obj)
{
	ts_hist_release(&((struct ts_rcu_cb_fn *)obj)->latency);
}

void ts_rcu_free(struct ts_rcu *m)
{
	int i;

	if (!m)
		return;
	ts_cputab_release(&m->cpus, NULL);
	for (i = 0; i < TS_RCU_NR_CTX; i++)
		ts_hist_release(&m->tot.window[i]);
	for (i = 0; i < TS_RCU_MAX_FLAVORS; i++)
		ts_hist_release(&m->tot.flavors[i].gp);
	ts_objtab_release(&m->cb_fns, fini_cb);
	ts_map_release(&m->pending);
	free(m);
}

TS_CPUTAB_GETTERS(rcu, struct ts_rcu_cpu)

const struct ts_rcu_totals *ts_rcu_totals(const struct ts_rcu *m)
{
	return &m->tot;
}

size_t ts_rcu_nr_cb_fns(const struct ts_rcu *m)
{
	return m->cb_fns.nr;
}

const struct ts_rcu_cb_fn *ts_rcu_cb_fn_at(const struct ts_rcu *m, size_t i)
{
	return i < m->cb_fns.nr ? ts_objtab_at(&m->cb_fns, i) : NULL;
}

static int rcu_metrics(const void *mv, struct ts_metric_sink *s)
{
	const struct ts_rcu *m = mv;
	const struct ts_rcu_totals *t = &m->tot;
	const char *why = tm_why(s, TS_EV_RCU_UTIL), *gp = tm_why(s, TS_EV_RCU_GP);
	uint64_t nr_gp = 0;
	int x, k;

	for (x = 0; x < TS_RCU_NR_CTX; x++)
		tm_dist(s, TS_DIR_LOWER, &t->window[x], why, "window.%s", ts_rcu_ctx_name(x));
	for (k = 0; !gp && k < t->nr_flavors; k++) {
		nr_gp += t->flavors[k].gp.count;
		tm_dist(s, TS_DIR_LOWER, &t->flavors[k].gp, NULL, "gp.%s", t->flavors[k].name);
	}
	tm_rate(s, TS_DIR_NEUTRAL, nr_gp,
		gp ? "rcu:rcu_grace_period not recorded (needs CONFIG_RCU_TRACE)" : NULL,
		"gp.per_s");
	tm_rate(s, TS_DIR_NEUTRAL, t->nr_cb_queued, tm_why(s, TS_EV_RCU_CB),
		"callbacks.queued.per_s");
	tm_rate(s, TS_DIR_NEUTRAL, t->nr_cb_invoked, tm_why(s, TS_EV_RCU_INVOKE),
		"callbacks.invoked.per_s");
	return s->err;
}

TS_SECTION_GLUE_VOID(rcu, struct ts_rcu)

/* rcu_utilization, a third of a busy trace's events: on_util() with no switch on the kind */
static int rcu_feed_util(void *m, const struct ts_event *ev)
{
	return on_util(m, ev);
}

static int (*rcu_feed_kind(int kind))(void *m, const struct ts_event *ev)
{
	return kind == TS_EV_RCU_UTIL ? rcu_feed_util : NULL;
}

const struct ts_section_ops ts_rcu_section = {
	.name = "rcu",
	TS_SECTION_OPS_GLUE(rcu),
	.feed_kind = rcu_feed_kind,
	.metrics = rcu_metrics,
};
