// SPDX-License-Identifier: GPL-2.0-only
/*
 * Variants for the charts that set kernel variants side by side: each run's finished analysis
 * is folded into its variant (distributions merged bucket by bucket; rates kept per run, drawn
 * as the median over runs), then the charts are written with one series per variant.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_priv.h"
#include "tickscope/analysis.h"
#include "tickscope/idle.h"
#include "tickscope/metric.h"

#include "plot_variant.h"

int ts_plot_variant_new(struct ts_plot_variant **vp, const char *label)
{
	struct ts_plot_variant *v = calloc(1, sizeof(*v));

	*vp = v;
	if (!v)
		return -ENOMEM;
	snprintf(v->label, sizeof(v->label), "%s", label);
	return 0;
}

int ts_plot_variant_runs(const struct ts_plot_variant *v)
{
	return v->nr_runs;
}

void ts_plot_variant_label(struct ts_plot_variant *v, const char *label)
{
	snprintf(v->label, sizeof(v->label), "%s", label);
}

void ts_plot_variant_free(struct ts_plot_variant *v)
{
	int i, k;

	if (!v)
		return;
	for (i = 0; i < VD_NR; i++)
		ts_hist_release(&v->dist[i]);
	for (i = 0; i < TS_WAKE_NR; i++)
		ts_hist_release(&v->cls[i]);
	for (i = 0; i < VX_NR; i++)
		free(v->exits[i]);
	for (i = 0; i < TS_IDLE_NR_STATES; i++)
		free(v->resid[i]);
	for (k = 0; k < VR_NR; k++) {
		for (i = 0; i < v->nr_rows[k]; i++)
			free(v->rows[k][i].v);
		free(v->rows[k]);
	}
	free(v);
}

/* Grow a per-run array to hold run @run (new slots NAN). */
static int grow_run(double **a, int run)
{
	double *n = realloc(*a, (size_t)(run + 1) * sizeof(**a));

	if (!n)
		return -ENOMEM;
	n[run] = NAN;
	*a = n;
	return 0;
}

/* Row @label of kind @k, appended with @nv values, all NAN, when new (*@isnew). NULL: ENOMEM. */
static struct vrow *row_get(struct ts_plot_variant *v, int k, const char *label, size_t nv,
			    int *isnew)
{
	struct vrow *r, *n;
	size_t i;
	int j;

	*isnew = 0;
	for (j = 0; j < v->nr_rows[k]; j++)
		if (!strcmp(v->rows[k][j].label, label))
			return &v->rows[k][j];
	n = realloc(v->rows[k], (size_t)(v->nr_rows[k] + 1) * sizeof(*n));
	if (!n)
		return NULL;
	v->rows[k] = n;
	r = &n[v->nr_rows[k]];
	snprintf(r->label, sizeof(r->label), "%s", label);
	r->v = malloc(nv * sizeof(*r->v));
	if (!r->v)
		return NULL;
	for (i = 0; i < nv; i++)
		r->v[i] = NAN;
	v->nr_rows[k]++;
	*isnew = 1;
	return r;
}

/* Add @val to row @label of kind @k for run @run (rows new in this run are NAN before it). */
static int row_add(struct ts_plot_variant *v, int k, int run, const char *label, double val)
{
	struct vrow *r;
	int i, isnew;

	r = row_get(v, k, label, (size_t)run + 1, &isnew);
	if (!r)
		return -ENOMEM;
	for (i = 0; isnew && i < run; i++) /* earlier runs that recorded such rows had none */
		r->v[i] = v->rec[k] ? 0 : NAN;
	r->v[run] = isnan(r->v[run]) ? val : r->v[run] + val;
	return 0;
}

/* A task of the benchmark: named @comm or "@comm-..." (NULL: every selected task). */
static int bench_task(const struct ts_sched_task *t, const char *comm)
{
	size_t n = comm ? strlen(comm) : 0;

	if (!t->selected)
		return 0;
	return !comm || !strcmp(t->comm, comm) || (!strncmp(t->comm, comm, n) && t->comm[n] == '-');
}

/* The VU_* figures of a run that are not measured (a per-task recording's). */
static uint8_t unmeasured(const struct ts_analysis *a)
{
	const struct ts_sched *m = ts_analysis_sched(a);
	uint8_t u = 0;

	if (ts_sched_wakes_why(m))
		u |= VU_WAKES;
	if (ts_sched_run_why(m, ts_sched_totals(m)->nr_broken))
		u |= VU_RUN;
	if (ts_sched_off_why(m) && ts_sched_nr_stacks(m)) /* stacks recorded, their times `-` */
		u |= VU_OFF;
	return u;
}

static int add_dists(struct ts_plot_variant *v, const struct ts_analysis *a, const char *comm,
		     uint8_t um)
{
	const struct ts_sched *m = ts_analysis_sched(a);
	const struct ts_sched_totals *k = ts_sched_totals(m);
	const struct ts_rcu_totals *rt = ts_rcu_totals(ts_analysis_rcu(a));
	size_t i;
	int err = 0, c;

	for (i = 0; i < ts_sched_nr_tasks(m) && !err; i++) {
		const struct ts_sched_task *t = ts_sched_task_at(m, i);

		if (!bench_task(t, comm))
			continue;
		if (!(um & VU_WAKES))
			err = ts_hist_merge(&v->dist[VD_DELIVERY], t->delivery) ?:
				      ts_hist_merge(&v->dist[VD_WAKELAT], t->wakelat);
		if (!(um & VU_RUN) && !err)
			err = ts_hist_merge(&v->dist[VD_DELAY], t->delay);
	}
	for (c = 0; c < TS_WAKE_NR && !err && !(um & VU_WAKES); c++)
		err = ts_hist_merge(&v->cls[c], &k->class_delivery[c]);
	if (!err)
		err = ts_hist_merge(&v->dist[VD_SHRINK],
				    &ts_shrinker_totals(ts_analysis_shrinker(a))->duration);
	for (c = 0; c < rt->nr_flavors && !err; c++)
		err = ts_hist_merge(&v->dist[VD_GP], &rt->flavors[c].gp);
	v->seen[VD_SHRINK] |= ts_analysis_kind_presence(a, TS_EV_SHRINK_END) != TS_NOT_RECORDED;
	v->seen[VD_GP] |= ts_analysis_kind_presence(a, TS_EV_RCU_GP) != TS_NOT_RECORDED;
	return err;
}

static int add_idle(struct ts_plot_variant *v, const struct ts_analysis *a, int run, double span)
{
	const struct ts_idle *m = ts_analysis_idle(a);
	const struct ts_idle_totals *t = ts_idle_totals(m);
	int e, s, cpus = 0, i;
	int recorded = ts_analysis_kind_presence(a, TS_EV_CPU_IDLE) != TS_NOT_RECORDED;

	for (i = 0; i < ts_idle_nr_cpus(m); i++)
		cpus += ts_idle_cpu(m, i) && ts_idle_cpu(m, i)->seen;
	for (e = 0; e < VX_NR; e++)
		if (grow_run(&v->exits[e], run))
			return -ENOMEM;
	for (e = 0; e < TS_EXIT_NR; e++)
		if (recorded && ts_analysis_exit_traced(a, e) && span > 0)
			v->exits[e][run] = (double)t->exits[e] / span;
	if (!isnan(v->exits[TS_EXIT_HRTIMER][run]) && ts_analysis_has_symbols(a)) {
		uint64_t tick = 0;
		char fn[96];

		for (size_t k = 0; k < ts_idle_nr_exit_fns(m, 1); k++) {
			const struct ts_idle_exit_fn *x = ts_idle_exit_fn_at(m, 1, k);

			if (ts_idle_is_tick(ts_analysis_fn_name(a, x->function, fn, sizeof(fn))))
				tick += x->count;
		}
		v->exits[VX_TICK][run] = (double)tick / span;
		v->exits[TS_EXIT_HRTIMER][run] -= v->exits[VX_TICK][run];
	}
	for (s = 0; s < TS_IDLE_NR_STATES; s++) {
		if (grow_run(&v->resid[s], run))
			return -ENOMEM;
		if (recorded && cpus && span > 0)
			v->resid[s][run] = (double)t->residency[s].sum / 1e9 / span / cpus * 100;
	}
	return 0;
}

static int add_rates(struct ts_plot_variant *v, const struct ts_analysis *a,
		     const struct ts_report_opts *o, int run, double span)
{
	const struct ts_timer *tm = ts_analysis_timer(a);
	const struct ts_wq *wq = ts_analysis_wq(a);
	char lab[VAR_LABEL], buf[VAR_LABEL];
	size_t i;
	int err = 0;

	for (i = 0; i < ts_timer_nr_fns(tm) && !err && span > 0; i++) {
		const struct ts_timer_fn *f = ts_timer_fn_at(tm, i);

		snprintf(lab, sizeof(lab), "%s: %s", f->hr ? "hrtimer" : "timer",
			 rp_sym(o, f->function, buf, sizeof(buf)));
		err = row_add(v, VR_TIMER, run, lab, (double)f->nr_expire / span);
	}
	for (i = 0; i < ts_wq_nr_fns(wq) && !err && span > 0; i++) {
		const struct ts_wq_fn *f = ts_wq_fn_at(wq, i);

		err = row_add(v, VR_WORK, run, rp_sym(o, f->function, buf, sizeof(buf)),
			      (double)f->nr_exec / span);
	}
	return err;
}

static int add_stacks(struct ts_plot_variant *v, const struct ts_analysis *a,
		      const struct ts_report_opts *o, int run)
{
	const struct ts_sched *m = ts_analysis_sched(a);
	char lab[VAR_LABEL];
	size_t i;
	int err = 0;

	if (ts_sched_off_why(m)) /* this run's times are `-` (a per-task recording) */
		return 0;
	for (i = 0; i < ts_sched_nr_stacks(m) && !err; i++) {
		const struct ts_sched_stack *s = ts_sched_stack_at(m, i);

		plot_stack_label(o, s, lab, sizeof(lab));
		err = row_add(v, VR_STACK, run, lab, (double)s->total / 1e6);
	}
	return err;
}

/* Give every row a slot for run @run (NAN), before the run adds to them. */
static int grow_rows(struct ts_plot_variant *v, int run)
{
	int k, i;

	for (k = 0; k < VR_NR; k++)
		for (i = 0; i < v->nr_rows[k]; i++)
			if (grow_run(&v->rows[k][i].v, run))
				return -ENOMEM;
	return 0;
}

/* A row that did not fire in a run that recorded its events counts 0 there, not unknown. */
static void zero_rows(struct ts_plot_variant *v, const struct ts_analysis *a, int run)
{
	int rec[VR_NR], k, i;

	rec[VR_TIMER] = ts_analysis_kind_presence(a, TS_EV_HRTIMER_EXPIRE_ENTRY) !=
				TS_NOT_RECORDED ||
			ts_analysis_kind_presence(a, TS_EV_TIMER_EXPIRE_ENTRY) != TS_NOT_RECORDED;
	rec[VR_WORK] = ts_analysis_kind_presence(a, TS_EV_WQ_START) != TS_NOT_RECORDED;
	rec[VR_STACK] = ts_sched_nr_stacks(ts_analysis_sched(a)) > 0 &&
			!ts_sched_off_why(ts_analysis_sched(a));
	for (k = 0; k < VR_NR; k++)
		v->rec[k] |= (uint8_t)rec[k];
	for (k = 0; k < VR_NR; k++)
		for (i = 0; i < v->nr_rows[k] && rec[k]; i++)
			if (isnan(v->rows[k][i].v[run]))
				v->rows[k][i].v[run] = 0;
}

int ts_plot_variant_add(struct ts_plot_variant *v, const struct ts_analysis *a,
			const struct ts_report_opts *o, const char *comm)
{
	uint64_t first, last;
	double span;
	int run = v->nr_runs, err = grow_rows(v, run);
	uint8_t um = unmeasured(a);

	v->unmeasured |= um;
	ts_analysis_range(a, &first, &last);
	span = last > first ? (double)(last - first) / 1e9 : 0;
	err = err ?: add_dists(v, a, comm, um);
	err = err ?: add_idle(v, a, run, span);
	err = err ?: add_rates(v, a, o, run, span);
	err = err ?: add_stacks(v, a, o, run);
	if (!err) {
		zero_rows(v, a, run);
		v->nr_runs++;
	}
	return err;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of the measured values among @n (NAN when none is). */
static double median(const double *x, int n)
{
	double *s = malloc((size_t)(n ? n : 1) * sizeof(*s)), m = NAN;
	int i, k = 0;

	if (!s)
		return NAN;
	for (i = 0; i < n; i++)
		if (!isnan(x[i]))
			s[k++] = x[i];
	qsort(s, (size_t)k, sizeof(*s), cmp_double);
	if (k)
		m = k % 2 ? s[k / 2] : (s[k / 2 - 1] + s[k / 2]) / 2;
	free(s);
	return m;
}

struct vset {
	struct ts_charts *cs;
	struct ts_plot_variant *const *v;
	size_t nr;
	char (*lab)[VAR_LABEL]; /* "A: name, 10 runs" per variant */
	const char **labels;
	int err;
};

static struct ts_chart *vadd(struct vset *s, const char *name, const char *script,
			     const char *title, const char *axis_var, const char *axis)
{
	struct ts_chart *c = s->err ? NULL : ts_charts_add(s->cs, name, script);

	if (!c) {
		s->err = s->err ?: -ENOMEM;
		return NULL;
	}
	snprintf(c->title, sizeof(c->title), "%s", title);
	c->axis_var = axis_var;
	snprintf(c->axis, sizeof(c->axis), "%s", axis);
	return c;
}

/* Some run of some variant did not measure the figures @um: the reason the report gives. */
static const char *vwhy(const struct vset *s, uint8_t um)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (s->v[i]->unmeasured & um)
			return um == VU_WAKES ? TS_SCHED_WAKES_WHY :
			       um == VU_RUN   ? TS_SCHED_RUN_WHY :
						TS_SCHED_OFF_WHY;
	return NULL;
}

/* A CDF of each variant's @dist (or wake class @cls); @um: the VU_* its values need. */
static void vcdf(struct vset *s, const char *name, const char *title, const char *axis, int dist,
		 int cls, uint8_t um, const char *missing)
{
	const struct ts_hist *h[TS_PLOT_MAX_VARIANTS];
	struct ts_chart *c = vadd(s, name, "latency-cdf.gp", title, "xlabel", axis);
	const char *why = um ? vwhy(s, um) : NULL;
	size_t i;

	if (!c)
		return;
	for (i = 0; i < s->nr; i++)
		h[i] = cls >= 0 ? &s->v[i]->cls[cls] : &s->v[i]->dist[dist];
	s->err = ts_chart_cdf(s->cs, c, s->nr, s->labels, h);
	if (c->missing[0] && why) /* no variant has a value, and some run measured none */
		snprintf(c->missing, sizeof(c->missing), "not measured: %s", why);
	else if (c->missing[0]) /* no variant has a value */
		snprintf(c->missing, sizeof(c->missing), "%s", missing);
}

static void vcdfs(struct vset *s)
{
	static const char *const cls_name[TS_WAKE_NR] = { "same-cpu-idle", "same-cpu-busy",
							  "cross-cpu-idle", "cross-cpu-busy" };
	static const char *const cls_text[TS_WAKE_NR] = { "same CPU, idle", "same CPU, busy",
							  "cross CPU, idle", "cross CPU, busy" };
	const char *wakes = "no wakeups of the benchmark tasks: record sched:sched_waking, "
			    "sched:sched_wakeup and sched:sched_switch";
	char name[64], title[128];
	int c;
	size_t i;

	vcdf(s, "wake-delivery-cdf", "Wake delivery of the benchmark tasks", "latency (µs)",
	     VD_DELIVERY, -1, VU_WAKES, wakes);
	vcdf(s, "wakeup-latency-cdf", "Wakeup latency of the benchmark tasks", "latency (µs)",
	     VD_WAKELAT, -1, VU_WAKES, wakes);
	vcdf(s, "sched-delay-cdf", "Scheduling delay of the benchmark tasks (run queue)",
	     "latency (µs)", VD_DELAY, -1, VU_RUN, wakes);
	for (c = 0; c < TS_WAKE_NR; c++) {
		uint64_t n = 0;

		for (i = 0; i < s->nr; i++)
			n += s->v[i]->cls[c].count;
		if (!n)
			continue; /* a class no variant had is no chart of its own */
		snprintf(name, sizeof(name), "wake-delivery-%s", cls_name[c]);
		snprintf(title, sizeof(title), "Wake delivery, %s target (all tasks)", cls_text[c]);
		vcdf(s, name, title, "latency (µs)", 0, c, VU_WAKES, wakes);
	}
}

static double row_median(const struct ts_plot_variant *v, int k, const char *label)
{
	int i;

	for (i = 0; i < v->nr_rows[k]; i++)
		if (!strcmp(v->rows[k][i].label, label))
			return median(v->rows[k][i].v, v->nr_runs);
	return v->rec[k] ? 0 : NAN;
}

struct vrank {
	const struct vset *s;
	int k;
	const char **labels; /* the union of the variants' rows */
	double *key;
};

static uint64_t vrank_key(const void *ctx, size_t i)
{
	const struct vrank *r = ctx;

	return (uint64_t)(r->key[i] * 1000);
}

/* The union of rows of kind @k, each keyed by its largest median over the variants. */
static size_t vunion(struct vrank *r)
{
	size_t n = 0, i, j;
	int x;

	for (i = 0; i < r->s->nr; i++)
		for (x = 0; x < r->s->v[i]->nr_rows[r->k]; x++) {
			const char *l = r->s->v[i]->rows[r->k][x].label;

			for (j = 0; j < n && strcmp(r->labels[j], l); j++)
				;
			if (j == n)
				r->labels[n++] = l;
		}
	for (j = 0; j < n; j++) {
		r->key[j] = 0;
		for (i = 0; i < r->s->nr; i++) {
			double m = row_median(r->s->v[i], r->k, r->labels[j]);

			if (!isnan(m) && m > r->key[j])
				r->key[j] = m;
		}
	}
	return n;
}

static void vranked(struct vset *s, struct ts_chart *c, int k)
{
	struct vrank r = { s, k, NULL, NULL };
	size_t cap = 0, n, i, j, *idx = NULL;
	const char *rows[TS_PLOT_TOP_ROWS];
	double *v = NULL;

	for (i = 0; i < s->nr; i++)
		cap += (size_t)s->v[i]->nr_rows[k];
	r.labels = calloc(cap ? cap : 1, sizeof(*r.labels));
	r.key = calloc(cap ? cap : 1, sizeof(*r.key));
	v = calloc(TS_PLOT_TOP_ROWS * s->nr, sizeof(*v));
	n = r.labels && r.key && v ? vunion(&r) : 0;
	idx = r.labels && r.key && v ? rp_rank(n, vrank_key, &r) : NULL;
	if (!idx) {
		s->err = s->err ?: -ENOMEM;
		goto free_all;
	}
	/* ranked by their largest median: a row of zeros in every variant draws nothing */
	for (i = 0; i < n && i < TS_PLOT_TOP_ROWS && r.key[idx[i]] > 0; i++) {
		rows[i] = r.labels[idx[i]];
		for (j = 0; j < s->nr; j++)
			v[i * s->nr + j] = row_median(s->v[j], k, rows[i]);
	}
	{
		/* every variant is a column, one whose medians are all 0 too: B at 0 is news */
		struct ts_chart_table t = { "label", i, s->nr, rows, s->labels, v, 1 };

		s->err = s->err ?: ts_chart_table(s->cs, c, &t);
	}
free_all:
	free(idx);
	free(r.labels);
	free(r.key);
	free(v);
}

static void vrows(struct vset *s)
{
	static const char *const name[VR_NR] = { "timers", "work", "offcpu-stacks" };
	static const char *const title[VR_NR] = {
		"Timer and hrtimer expiries by callback (median of runs)",
		"Work items by function (median of runs)",
		"Off-CPU time by switch-out kernel stack (median of runs)"
	};
	static const char *const axis[VR_NR] = { "expiries per second", "executions per second",
						 "off-CPU time per run (ms)" };
	static const char *const missing[VR_NR] = {
		"record timer:hrtimer_expire_entry and timer:timer_expire_entry",
		"record workqueue:workqueue_execute_start",
		"record sched:sched_switch with callchains (perf record -g)"
	};
	struct ts_chart *c;
	int k;
	size_t i, rec;

	for (k = 0; k < VR_NR; k++) {
		c = vadd(s, name[k], "top-bars.gp", title[k], "xlabel", axis[k]);
		for (i = 0, rec = 0; c && i < s->nr; i++)
			rec += s->v[i]->rec[k];
		if (!c)
			return;
		if (!rec && k == VR_STACK && vwhy(s, VU_OFF)) {
			snprintf(c->missing, sizeof(c->missing), "not measured: %s",
				 vwhy(s, VU_OFF));
			continue;
		}
		if (!rec) {
			snprintf(c->missing, sizeof(c->missing), "%s", missing[k]);
			continue;
		}
		vranked(s, c, k);
		if (c->missing[0])
			snprintf(c->missing, sizeof(c->missing),
				 "recorded, but none in these runs");
	}
}

/* Whether any run of any variant has a value above 0 in one of @nr_cols per-run arrays. */
static int any_run(const struct vset *s, int nr_cols, double **(*get)(struct ts_plot_variant *v))
{
	size_t i;
	int k, r;

	for (i = 0; i < s->nr; i++)
		for (k = 0; k < nr_cols; k++)
			for (r = 0; r < s->v[i]->nr_runs; r++)
				if (get(s->v[i])[k][r] > 0)
					return 1;
	return 0;
}

/* A table of variants by @nr_cols columns from per-run arrays, as medians. */
static void vtable(struct vset *s, struct ts_chart *c, int nr_cols, const char *const *cols,
		   double **(*get)(struct ts_plot_variant *v))
{
	double *v = calloc(s->nr * (size_t)nr_cols, sizeof(*v));
	struct ts_chart_table t = { "group", s->nr, (size_t)nr_cols, s->labels, cols, v, 0 };
	size_t i;
	int k;

	if (!v) {
		s->err = s->err ?: -ENOMEM;
		return;
	}
	for (i = 0; i < s->nr; i++)
		for (k = 0; k < nr_cols; k++)
			v[i * (size_t)nr_cols + k] = median(get(s->v[i])[k], s->v[i]->nr_runs);
	s->err = s->err ?: ts_chart_table(s->cs, c, &t);
	if (!strcmp(c->missing, "no values were measured"))
		snprintf(c->missing, sizeof(c->missing), "record power:cpu_idle");
	if (!strcmp(c->missing, "recorded, but none happened") && any_run(s, nr_cols, get))
		snprintf(c->missing, sizeof(c->missing),
			 "some runs had them, but the median of runs is 0 for every column "
			 "(as in compare's table)");
	free(v);
}

static double **get_exits(struct ts_plot_variant *v)
{
	return v->exits;
}

static double **get_resid(struct ts_plot_variant *v)
{
	return v->resid;
}

static void vidle(struct vset *s)
{
	static const char *const states[TS_IDLE_NR_STATES] = { "state 0", "state 1", "state 2",
							       "state 3", "state 4", "state 5",
							       "state 6", "state 7+" };
	struct ts_chart *c;

	c = vadd(s, "idle-exits", "stacked-bars.gp", "Idle exits by cause (median of runs)",
		 "ylabel", "idle exits per second");
	{
		const char *names[VX_NR];

		for (int e = 0; e < TS_EXIT_NR; e++)
			names[e] = rp_exit_names[e];
		names[TS_EXIT_HRTIMER] = "hrtimer (not the tick)";
		names[VX_TICK] = "the tick";
		if (c)
			vtable(s, c, VX_NR, names, get_exits);
	}
	c = vadd(s, "idle-residency", "stacked-bars.gp", "Idle residency by state (median of runs)",
		 "ylabel", "percent of CPU time");
	if (c)
		vtable(s, c, TS_IDLE_NR_STATES, states, get_resid);
}

static void vother(struct vset *s)
{
	int shrink = 0, gp = 0;
	size_t i;

	for (i = 0; i < s->nr; i++) {
		shrink |= s->v[i]->seen[VD_SHRINK];
		gp |= s->v[i]->seen[VD_GP];
	}
	vcdf(s, "shrinker-cdf", "Shrinker call durations", "duration of a shrinker call (µs)",
	     VD_SHRINK, -1, 0,
	     shrink ? "vmscan:mm_shrink_slab_* recorded, but no shrinker ran" :
		      "record vmscan:mm_shrink_slab_start and vmscan:mm_shrink_slab_end");
	vcdf(s, "rcu-gp-cdf", "RCU grace-period durations", "grace period (µs)", VD_GP, -1, 0,
	     gp ? "rcu:rcu_grace_period recorded, but no grace period ended" :
		  "record rcu:rcu_grace_period (needs CONFIG_RCU_TRACE)");
}

int ts_plot_variants(struct ts_charts *cs, struct ts_plot_variant *const *v, size_t nr)
{
	struct vset s = { cs, v, nr, NULL, NULL, 0 };
	size_t i;

	if (!nr || nr > TS_PLOT_MAX_VARIANTS)
		return -EINVAL;
	s.lab = calloc(nr, sizeof(*s.lab));
	s.labels = calloc(nr, sizeof(*s.labels));
	if (!s.lab || !s.labels) {
		free(s.lab);
		free(s.labels);
		return -ENOMEM;
	}
	for (i = 0; i < nr; i++) {
		snprintf(s.lab[i], sizeof(s.lab[i]), "%.70s, %d run%s", v[i]->label, v[i]->nr_runs,
			 v[i]->nr_runs == 1 ? "" : "s");
		s.labels[i] = s.lab[i];
	}
	vcdfs(&s);
	vidle(&s);
	vrows(&s);
	vother(&s);
	free(s.lab);
	free(s.labels);
	return s.err;
}

/* Append run @j of @src to @dst as its run @run. */
static int merge_run(struct ts_plot_variant *dst, const struct ts_plot_variant *src, int j, int run)
{
	int k, i, err = grow_rows(dst, run);

	for (k = 0; k < VX_NR && !err; k++)
		if (!(err = grow_run(&dst->exits[k], run)))
			dst->exits[k][run] = src->exits[k][j];
	for (k = 0; k < TS_IDLE_NR_STATES && !err; k++)
		if (!(err = grow_run(&dst->resid[k], run)))
			dst->resid[k][run] = src->resid[k][j];
	for (k = 0; k < VR_NR && !err; k++)
		for (i = 0; i < src->nr_rows[k] && !err; i++)
			if (!isnan(src->rows[k][i].v[j]))
				err = row_add(dst, k, run, src->rows[k][i].label,
					      src->rows[k][i].v[j]);
	for (k = 0; k < VR_NR && !err; k++)
		for (i = 0; i < dst->nr_rows[k] && src->rec[k]; i++)
			if (isnan(dst->rows[k][i].v[run]))
				dst->rows[k][i].v[run] = 0;
	return err;
}

int ts_plot_variant_merge(struct ts_plot_variant *dst, const struct ts_plot_variant *src)
{
	int k, j, err = 0;

	for (k = 0; k < VD_NR && !err; k++)
		err = ts_hist_merge(&dst->dist[k], &src->dist[k]);
	for (k = 0; k < TS_WAKE_NR && !err; k++)
		err = ts_hist_merge(&dst->cls[k], &src->cls[k]);
	for (j = 0; j < src->nr_runs && !err; j++) {
		err = merge_run(dst, src, j, dst->nr_runs);
		if (!err)
			dst->nr_runs++;
	}
	for (k = 0; k <= VD_NR; k++)
		dst->seen[k] |= src->seen[k];
	for (k = 0; k < VR_NR; k++)
		dst->rec[k] |= src->rec[k];
	dst->unmeasured |= src->unmeasured;
	return err;
}

int plot_variant_row(struct ts_plot_variant *v, int k, int run, const char *label, double val)
{
	int isnew;
	struct vrow *r = row_get(v, k, label, (size_t)v->nr_runs, &isnew);

	if (!r)
		return -ENOMEM;
	r->v[run] = val;
	return 0;
}
