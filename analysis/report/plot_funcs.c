// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ranked charts of one run: timer and hrtimer expiries and work items per second by
 * function, off-CPU time by switch-out stack, shrinker latency and grace periods.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_priv.h"

#define PLOT_TOP TS_PLOT_TOP_ROWS
#define PLOT_LABEL 96

/* A ranked chart's rows: labels and values, nr_cols values a row. */
struct ranked {
	char (*lab)[PLOT_LABEL];
	const char **rows;
	double *v;
	size_t nr, nr_cols;
};

static int ranked_alloc(struct ranked *k, size_t nr_cols)
{
	k->lab = calloc(PLOT_TOP, sizeof(*k->lab));
	k->rows = calloc(PLOT_TOP, sizeof(*k->rows));
	k->v = calloc(PLOT_TOP * nr_cols, sizeof(*k->v));
	k->nr = 0;
	k->nr_cols = nr_cols;
	return k->lab && k->rows && k->v ? 0 : -ENOMEM;
}

static void ranked_free(struct ranked *k)
{
	free(k->lab);
	free(k->rows);
	free(k->v);
}

static void ranked_draw(struct plot_run *r, struct ts_chart *c, struct ranked *k,
			const char *const *cols)
{
	struct ts_chart_table t = { "label", k->nr, k->nr_cols, k->rows, cols, k->v, 0 };

	if (!k->nr) {
		snprintf(c->missing, sizeof(c->missing), "none in this trace");
		return;
	}
	plot_done(r, ts_chart_table(r->cs, c, &t));
}

static uint64_t timer_key(const void *ctx, size_t i)
{
	return ts_timer_fn_at(ctx, i)->nr_expire;
}

static void timers_chart(struct plot_run *r)
{
	static const int kinds[] = { TS_EV_HRTIMER_EXPIRE_ENTRY, TS_EV_TIMER_EXPIRE_ENTRY };
	static const char *const cols[] = { "expiries per second" };
	const struct ts_timer *m = ts_analysis_timer(r->a);
	struct ts_chart *c =
		plot_add(r, "timers", "top-bars.gp", "Timer and hrtimer expiries by callback");
	struct ranked k = { 0 };
	size_t *idx, i;
	char buf[PLOT_LABEL];

	if (!c || !plot_need(r, c, kinds, 2))
		return;
	c->axis_var = "xlabel";
	snprintf(c->axis, sizeof(c->axis), "expiries per second");
	idx = rp_rank(ts_timer_nr_fns(m), timer_key, m);
	if (!idx || ranked_alloc(&k, 1)) {
		free(idx);
		ranked_free(&k);
		plot_done(r, -ENOMEM);
		return;
	}
	for (i = 0; i < ts_timer_nr_fns(m) && k.nr < PLOT_TOP; i++) {
		const struct ts_timer_fn *f = ts_timer_fn_at(m, idx[i]);

		if (!f->nr_expire)
			continue;
		snprintf(k.lab[k.nr], PLOT_LABEL, "%s: %s", f->hr ? "hrtimer" : "timer",
			 rp_sym(r->o, f->function, buf, sizeof(buf)));
		k.rows[k.nr] = k.lab[k.nr];
		k.v[k.nr++] = r->span > 0 ? (double)f->nr_expire / r->span : NAN;
	}
	ranked_draw(r, c, &k, cols);
	ranked_free(&k);
	free(idx);
}

static uint64_t wq_key(const void *ctx, size_t i)
{
	return ts_wq_fn_at(ctx, i)->nr_exec;
}

static void work_chart(struct plot_run *r)
{
	static const int kinds[] = { TS_EV_WQ_START };
	static const char *const cols[] = { "executions per second" };
	const struct ts_wq *m = ts_analysis_wq(r->a);
	struct ts_chart *c = plot_add(r, "work", "top-bars.gp", "Work items by function");
	struct ranked k = { 0 };
	size_t *idx, i;
	char buf[PLOT_LABEL];

	if (!c || !plot_need(r, c, kinds, 1))
		return;
	c->axis_var = "xlabel";
	snprintf(c->axis, sizeof(c->axis), "executions per second");
	idx = rp_rank(ts_wq_nr_fns(m), wq_key, m);
	if (!idx || ranked_alloc(&k, 1)) {
		free(idx);
		ranked_free(&k);
		plot_done(r, -ENOMEM);
		return;
	}
	for (i = 0; i < ts_wq_nr_fns(m) && k.nr < PLOT_TOP; i++) {
		const struct ts_wq_fn *f = ts_wq_fn_at(m, idx[i]);

		if (!f->nr_exec)
			continue;
		snprintf(k.lab[k.nr], PLOT_LABEL, "%s",
			 rp_sym(r->o, f->function, buf, sizeof(buf)));
		k.rows[k.nr] = k.lab[k.nr];
		k.v[k.nr++] = r->span > 0 ? (double)f->nr_exec / r->span : NAN;
	}
	ranked_draw(r, c, &k, cols);
	ranked_free(&k);
	free(idx);
}

static uint64_t stack_key(const void *ctx, size_t i)
{
	return ts_sched_stack_at(ctx, i)->total;
}

void plot_stack_label(const struct ts_report_opts *o, const struct ts_sched_stack *s, char *out,
		      size_t size)
{
	uint32_t skip = rp_stack_skip(o, s->ips, s->nr_ips), i;
	char buf[PLOT_LABEL];
	size_t len = 0;

	out[0] = 0;
	for (i = skip; i < s->nr_ips && i < skip + 2; i++) {
		const char *name = rp_sym_name(o, s->ips[i]);

		len += snprintf(out + len, size - len, "%s%s", i > skip ? " ← " : "",
				name ? name : rp_sym(o, s->ips[i], buf, sizeof(buf)));
		if (len >= size)
			break;
	}
}

static void offcpu_chart(struct plot_run *r)
{
	static const char *const cols[] = { "R (preempted)", "S (sleeping)", "D (blocked)",
					    "other" };
	const struct ts_sched *m = ts_analysis_sched(r->a);
	struct ts_chart *c = plot_add(r, "offcpu-stacks", "top-bars.gp",
				      "Off-CPU time by switch-out kernel stack");
	struct ranked k = { 0 };
	size_t *idx, i;
	int s;

	if (!c)
		return;
	if (!ts_sched_nr_stacks(m)) {
		snprintf(c->missing, sizeof(c->missing),
			 "record sched:sched_switch with callchains (perf record -g)");
		return;
	}
	if (ts_sched_off_why(m)) { /* the report's times are `-`: none are drawn */
		snprintf(c->missing, sizeof(c->missing), "not measured: %s", ts_sched_off_why(m));
		return;
	}
	c->axis_var = "xlabel";
	snprintf(c->axis, sizeof(c->axis), "off-CPU time (ms)");
	idx = rp_rank(ts_sched_nr_stacks(m), stack_key, m);
	if (!idx || ranked_alloc(&k, TS_OFF_NR)) {
		free(idx);
		ranked_free(&k);
		plot_done(r, -ENOMEM);
		return;
	}
	for (i = 0; i < ts_sched_nr_stacks(m) && k.nr < PLOT_TOP; i++) {
		const struct ts_sched_stack *st = ts_sched_stack_at(m, idx[i]);

		if (!st->total)
			continue;
		plot_stack_label(r->o, st, k.lab[k.nr], PLOT_LABEL);
		k.rows[k.nr] = k.lab[k.nr];
		for (s = 0; s < TS_OFF_NR; s++)
			k.v[k.nr * TS_OFF_NR + s] = st->by_state[s] ? st->by_state[s] / 1e6 : NAN;
		k.nr++;
	}
	ranked_draw(r, c, &k, cols);
	ranked_free(&k);
	free(idx);
}

static uint64_t shrink_key(const void *ctx, size_t i)
{
	return ts_shrinker_fn_at(ctx, i)->duration.sum;
}

static void shrinker_chart(struct plot_run *r)
{
	static const int kinds[] = { TS_EV_SHRINK_START, TS_EV_SHRINK_END };
	const struct ts_shrinker *m = ts_analysis_shrinker(r->a);
	struct ts_chart *c = plot_add(r, "shrinker-cdf", "latency-cdf.gp",
				      "Shrinker call durations by shrinker");
	const struct ts_hist *h[4];
	const char *l[4];
	char lab[4][PLOT_LABEL], buf[PLOT_LABEL];
	size_t *idx, i, n = 0;

	if (!c || !plot_need(r, c, kinds, 2))
		return;
	c->axis_var = "xlabel";
	snprintf(c->axis, sizeof(c->axis), "duration of a shrinker call (µs)");
	idx = rp_rank(ts_shrinker_nr_fns(m), shrink_key, m);
	if (!idx) {
		plot_done(r, -ENOMEM);
		return;
	}
	for (i = 0; i < ts_shrinker_nr_fns(m) && n < 4; i++, n++) {
		const struct ts_shrink_fn *f = ts_shrinker_fn_at(m, idx[i]);

		snprintf(lab[n], PLOT_LABEL, "%s", rp_sym(r->o, f->function, buf, sizeof(buf)));
		h[n] = &f->duration;
		l[n] = lab[n];
	}
	plot_done(r, ts_chart_cdf(r->cs, c, n, l, h));
	free(idx);
}

static void rcu_chart(struct plot_run *r)
{
	static const int kinds[] = { TS_EV_RCU_GP };
	const struct ts_rcu_totals *t = ts_rcu_totals(ts_analysis_rcu(r->a));
	struct ts_chart *c = plot_add(r, "rcu-gp-cdf", "latency-cdf.gp",
				      "RCU grace-period durations by flavour");
	const struct ts_hist *h[TS_RCU_MAX_FLAVORS];
	const char *l[TS_RCU_MAX_FLAVORS];
	int i;

	if (!c)
		return;
	if (!plot_need(r, c, kinds, 1)) {
		/* as report and compare say it: only a kernel with RCU_TRACE has the event */
		if (ts_analysis_kind_presence(r->a, TS_EV_RCU_GP) == TS_NOT_RECORDED)
			snprintf(c->missing, sizeof(c->missing),
				 "record rcu:rcu_grace_period (needs CONFIG_RCU_TRACE)");
		return;
	}
	c->axis_var = "xlabel";
	snprintf(c->axis, sizeof(c->axis), "grace period (µs)");
	for (i = 0; i < t->nr_flavors; i++) {
		h[i] = &t->flavors[i].gp;
		l[i] = t->flavors[i].name;
	}
	plot_done(r, ts_chart_cdf(r->cs, c, (size_t)t->nr_flavors, l, h));
}

void plot_functions(struct plot_run *r)
{
	timers_chart(r);
	work_chart(r);
	offcpu_chart(r);
	shrinker_chart(r);
	rcu_chart(r);
}
