// SPDX-License-Identifier: GPL-2.0-only
/*
 * The charts of one run (`tickscope plot`): latency distributions, wake classes, idle exits
 * and residency per CPU, timers, work items, off-CPU stacks, shrinkers and grace periods.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_priv.h"
#include "tickscope/analysis.h"

static const char *const class_labels[TS_WAKE_NR] = { "same CPU, idle", "same CPU, busy",
						      "cross CPU, idle", "cross CPU, busy" };

/* @c is not drawn: its figures are not measured, for @why (the report's `-` and reason). */
static void not_measured(struct ts_chart *c, const char *why)
{
	snprintf(c->missing, sizeof(c->missing), "not measured: %s", why);
}

static void latency_charts(struct plot_run *r)
{
	static const int sched_kinds[] = { TS_EV_SWITCH, TS_EV_WAKING, TS_EV_WAKEUP };
	static const char *const labels[3] = { "wake delivery", "wakeup latency",
					       "sched delay (run queue)" };
	const struct ts_sched *m = ts_analysis_sched(r->a);
	const struct ts_sched_totals *k = ts_sched_totals(m);
	const struct ts_hist *all[3] = { &k->delivery, &k->wakelat, &k->delay }, *h[3];
	const struct ts_hist *dh[TS_WAKE_NR], *wh[TS_WAKE_NR];
	/* a per-task recording: the curves the report prints as `-` are not drawn either */
	const char *wk = ts_sched_wakes_why(m), *run = ts_sched_run_why(m, k->nr_broken);
	const char *l[3];
	struct ts_chart *c;
	size_t n = 0;
	int i;

	for (i = 0; i < TS_WAKE_NR; i++) {
		dh[i] = &k->class_delivery[i];
		wh[i] = &k->class_wakelat[i];
	}
	for (i = 0; i < 3; i++) {
		if (i < 2 ? wk : run)
			continue;
		h[n] = all[i];
		l[n++] = labels[i];
	}
	c = plot_add(r, "latency-cdf", "latency-cdf.gp",
		     "Wake delivery, wakeup latency and sched delay (selected tasks)");
	if (c) {
		c->axis_var = "xlabel";
		snprintf(c->axis, sizeof(c->axis), "latency (µs)");
		snprintf(c->caption, sizeof(c->caption),
			 "Cumulative distributions on a log axis; dots mark p50, squares p99.");
		if (!n) /* both reasons, which the report gives on two lines */
			not_measured(c, "a per-task recording has a task's wakes only when a "
					"followed task is the waker, and no switch that put these "
					"tasks on their CPU");
		else if (plot_need(r, c, sched_kinds, 3))
			plot_done(r, ts_chart_cdf(r->cs, c, n, l, h));
	}
	c = plot_add(r, "wake-delivery-by-class", "latency-cdf.gp", "Wake delivery by wake class");
	if (c && wk)
		not_measured(c, wk);
	else if (c && plot_need(r, c, sched_kinds + 1, 2))
		plot_done(r, ts_chart_cdf(r->cs, c, TS_WAKE_NR, class_labels, dh));
	c = plot_add(r, "wakeup-latency-by-class", "latency-cdf.gp",
		     "Wakeup latency by wake class");
	if (c && wk)
		not_measured(c, wk);
	else if (c && plot_need(r, c, sched_kinds, 3))
		plot_done(r, ts_chart_cdf(r->cs, c, TS_WAKE_NR, class_labels, wh));
}

/* Rows of per-CPU tables: "cpu3" labels for the CPUs the idle model saw. */
static int idle_cpus(const struct ts_idle *m, char (*lab)[16], const char **rows, int *cpus)
{
	int i, n = 0;

	for (i = 0; i < ts_idle_nr_cpus(m) && n < 256; i++) {
		const struct ts_idle_cpu *c = ts_idle_cpu(m, i);

		if (!c || !c->seen)
			continue;
		snprintf(lab[n], sizeof(lab[n]), "cpu%d", i);
		rows[n] = lab[n];
		cpus[n++] = i;
	}
	return n;
}

static void idle_exits_chart(struct plot_run *r, const struct ts_idle *m, int n, const char **rows,
			     const int *cpus)
{
	double *v = calloc((size_t)(n ? n : 1) * TS_EXIT_NR, sizeof(*v));
	struct ts_chart_table t = { "group", (size_t)n, TS_EXIT_NR, rows, rp_exit_names, v, 0 };
	struct ts_chart *c =
		plot_add(r, "idle-exits", "stacked-bars.gp", "Idle exits by cause, per CPU");
	int i, e;

	if (!v || !c) {
		free(v);
		plot_done(r, -ENOMEM);
		return;
	}
	c->axis_var = "ylabel";
	snprintf(c->axis, sizeof(c->axis), "idle exits per second");
	snprintf(c->caption, sizeof(c->caption),
		 "What ended each idle period: the first event on the CPU after it woke.");
	for (i = 0; i < n; i++)
		for (e = 0; e < TS_EXIT_NR; e++)
			v[i * TS_EXIT_NR + e] =
				!ts_analysis_exit_traced(r->a, e) || r->span <= 0 ?
					NAN :
					(double)ts_idle_cpu(m, cpus[i])->exits[e] / r->span;
	plot_done(r, ts_chart_table(r->cs, c, &t));
	free(v);
}

static void idle_residency_chart(struct plot_run *r, const struct ts_idle *m, int n,
				 const char **rows, const int *cpus)
{
	static const char *const states[TS_IDLE_NR_STATES] = { "state 0", "state 1", "state 2",
							       "state 3", "state 4", "state 5",
							       "state 6", "state 7+" };
	double *v = calloc((size_t)(n ? n : 1) * TS_IDLE_NR_STATES, sizeof(*v));
	struct ts_chart_table t = { "group", (size_t)n, TS_IDLE_NR_STATES, rows, states, v, 0 };
	struct ts_chart *c = plot_add(r, "idle-residency", "stacked-bars.gp",
				      "Idle residency by state, per CPU");
	int i, s;

	if (!v || !c) {
		free(v);
		plot_done(r, -ENOMEM);
		return;
	}
	c->axis_var = "ylabel";
	snprintf(c->axis, sizeof(c->axis), "percent of the time");
	for (i = 0; i < n; i++)
		for (s = 0; s < TS_IDLE_NR_STATES; s++) {
			const struct ts_hist *h = &ts_idle_cpu(m, cpus[i])->residency[s];

			v[i * TS_IDLE_NR_STATES + s] =
				h->count && r->span > 0 ? (double)h->sum / 1e9 / r->span * 100 :
							  NAN;
		}
	plot_done(r, ts_chart_table(r->cs, c, &t));
	free(v);
}

static void idle_charts(struct plot_run *r)
{
	static const int kinds[] = { TS_EV_CPU_IDLE };
	const struct ts_idle *m = ts_analysis_idle(r->a);
	char(*lab)[16] = calloc(256, sizeof(*lab));
	const char **rows = calloc(256, sizeof(*rows));
	int *cpus = calloc(256, sizeof(*cpus)), n;
	struct ts_chart *c;

	if (!lab || !rows || !cpus) {
		plot_done(r, -ENOMEM);
		goto free_rows;
	}
	n = idle_cpus(m, lab, rows, cpus);
	if (!n) {
		c = plot_add(r, "idle-exits", "stacked-bars.gp", "Idle exits by cause, per CPU");
		if (c && plot_need(r, c, kinds, 1))
			snprintf(c->missing, sizeof(c->missing), "no CPU went idle");
		goto free_rows;
	}
	if (plot_need(r, &(struct ts_chart){ 0 }, kinds, 1) && n) {
		idle_exits_chart(r, m, n, rows, cpus);
		idle_residency_chart(r, m, n, rows, cpus);
		goto free_rows;
	}
	c = plot_add(r, "idle-exits", "stacked-bars.gp", "Idle exits by cause, per CPU");
	if (c)
		plot_need(r, c, kinds, 1);
	c = plot_add(r, "idle-residency", "stacked-bars.gp", "Idle residency by state, per CPU");
	if (c)
		plot_need(r, c, kinds, 1);
free_rows:
	free(lab);
	free(rows);
	free(cpus);
}

int ts_plot_run(struct ts_charts *cs, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	struct plot_run r = { cs, a, o, 0, 0 };
	uint64_t first, last;

	ts_analysis_range(a, &first, &last);
	r.span = last > first ? (double)(last - first) / 1e9 : 0;
	latency_charts(&r);
	idle_charts(&r);
	plot_functions(&r);
	return r.err;
}
