// SPDX-License-Identifier: GPL-2.0-only
/*
 * One run of `tickscope compare` from one analysis: every section's metrics, the benchmark's
 * own tasks' figures per operation from the scheduler model (compare_wait.c adds their waits),
 * the critical path's split and the interrupt sources within it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_priv.h"
#include "tickscope/analysis.h"
#include "tickscope/cpath.h"
#include "tickscope/idle.h"
#include "tickscope/irq.h"
#include "tickscope/metric.h"
#include "tickscope/wltree.h"

struct task_sums {
	uint64_t run, delay, delay_perf, delivery, wakelat, off[TS_OFF_NR];
	uint64_t migrations, wakeups, cls[TS_WAKE_NR], ntasks, supervisors;
	uint64_t switches, rt_switches;
	uint64_t other_run;
	struct ts_hist delivery_h;
	/* what a per-task recording does not measure (the model's reasons), else NULL */
	const char *run_why, *wake_why, *off_why;
};

static int sum_tasks(const struct ts_sched *s, const struct ts_run_bench *b, struct task_sums *t)
{
	size_t n = ts_sched_nr_tasks(s);

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < n; i++) {
		const struct ts_sched_task *k = ts_sched_task_at(s, i);

		if (!ts_run_bench_is(b, k)) {
			t->other_run += k->pid ? k->run->sum : 0;
			continue;
		}
		if (k->pid && ts_run_bench_supervisor(b, k->pid)) {
			t->supervisors++;
			continue;
		}
		t->ntasks++;
		/* one task never switched out (its run not seen) makes the sum unknown, not 0 */
		t->run_why = t->run_why ?: ts_sched_task_run_why(s, k);
		t->run += k->run->sum;
		t->delay += k->delay->sum;
		t->delay_perf += k->delay_perf;
		t->delivery += k->delivery->sum;
		t->wakelat += k->wakelat->sum;
		for (int o = 0; o < TS_OFF_NR; o++)
			t->off[o] += k->off[o]->sum;
		t->migrations += k->nr_migrations;
		t->switches += k->nr_switches;
		t->rt_switches += k->nr_rt_out;
		t->wakeups += k->nr_wakeups;
		for (int c = 0; c < TS_WAKE_NR; c++)
			t->cls[c] += k->wake_class[c];
		if (ts_hist_merge(&t->delivery_h, k->delivery))
			return -ENOMEM;
	}
	t->wake_why = ts_sched_wakes_why(s);
	t->off_why = ts_sched_off_why(s);
	return 0;
}

/* CPU time of all CPUs (busy + idle), the denominator of other tasks' share. */
static double cpu_time(const struct ts_sched *s)
{
	double tot = 0;

	for (int c = 0; c < ts_sched_nr_cpus(s); c++) {
		const struct ts_sched_cpu *k = ts_sched_cpu(s, c);

		if (k && k->seen)
			tot += (double)k->busy + k->idle;
	}
	return tot;
}

static int add_per_op(struct ts_run *r, const struct task_sums *t, double ops)
{
	static const char *const off[TS_OFF_NR] = { "R", "S", "D", "other" };
	const char *why = "the benchmark's operation count is unknown";
	char name[64];
	int err = 0;

	/* a figure the recording does not measure is null with its reason, never a sum */
#define PER_OP(n, v, w)                                                         \
	(err = err   ?:                                                         \
		       ts_run_add(r, n, "ns/op", TS_DIR_LOWER, TS_METRIC_VALUE, \
				  (w) ? NAN : (v) / ops, (w) ?: why))
	PER_OP("task.wake_delivery.per_op", (double)t->delivery, t->wake_why);
	PER_OP("task.sched_delay_rq.per_op", (double)t->delay, t->run_why);
	PER_OP("task.sched_delay_perf.per_op", (double)t->delay_perf, t->run_why);
	PER_OP("task.run.per_op", (double)t->run, t->run_why);
	PER_OP("task.wakeup_latency.per_op", (double)t->wakelat, t->wake_why);
	for (int o = 0; o < TS_OFF_NR; o++) {
		snprintf(name, sizeof(name), "task.off_cpu.%s.per_op", off[o]);
		PER_OP(name, (double)t->off[o], t->off_why);
	}
#undef PER_OP
	err = err   ?:
		      ts_run_add(r, "task.migrations.per_op", "1/op", TS_DIR_LOWER, TS_METRIC_VALUE,
				 t->migrations / ops, why);
	err = err   ?:
		      ts_run_add(r, "task.wakeups.per_op", "1/op", TS_DIR_NEUTRAL, TS_METRIC_VALUE,
				 t->wake_why ? NAN : t->wakeups / ops, t->wake_why ?: why);
	/*
	 * Whether the benchmark ran as real-time or deadline tasks: the scheduler's RT and DL
	 * bandwidth timers requeue only those (compare_chain.c, other_class_timer())
	 */
	err = err   ?:
		      ts_run_add(r, "task.rt_switches.share", "%", TS_DIR_NEUTRAL, TS_METRIC_VALUE,
				 t->switches ? 100.0 * t->rt_switches / t->switches : NAN,
				 t->switches ? NULL : "the benchmark's tasks never switched out");
	return err;
}

/*
 * Other tasks' share of all CPU time by class ("task.other_cpu.<class>.share", %): who else
 * ran, from the data: irq/N-* threads (threaded interrupts), rcu_exp_gp_kthr (6.9+ expedited
 * grace periods), kworker. Classes beyond TS_RUN_MAX_CLASSES fold into TS_RUN_CLASS_REST. None
 * in a per-task recording, which has only part of the other tasks' run time.
 */
static int add_class_shares(struct ts_run *r, const struct ts_sched *s,
			    const struct ts_run_bench *b, double tot)
{
	struct {
		char name[24];
		double run;
	} cl[TS_RUN_MAX_CLASSES];
	size_t n = ts_sched_nr_tasks(s);
	int nr = 0, err = 0;
	char name[64], c[24];

	if (ts_sched_others_why(s)) /* task.other_cpu.share is null with the reason */
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct ts_sched_task *k = ts_sched_task_at(s, i);
		int j;

		if (!k->pid || ts_run_bench_is(b, k))
			continue;
		ts_sched_task_class(k->comm, c, sizeof(c));
		for (j = 0; j < nr && strcmp(cl[j].name, c); j++)
			;
		if (j == nr && nr >= TS_RUN_MAX_CLASSES - 1) /* the last slot: the rest */
			snprintf(c, sizeof(c), "%s", TS_RUN_CLASS_REST);
		for (j = 0; j < nr && strcmp(cl[j].name, c); j++)
			;
		if (j == nr) {
			snprintf(cl[nr].name, sizeof(cl[nr].name), "%s", c);
			cl[nr++].run = 0;
		}
		cl[j].run += k->run->sum;
	}
	for (int j = 0; j < nr && !err && tot > 0; j++) {
		snprintf(name, sizeof(name), "task.other_cpu.%.23s.share", cl[j].name);
		err = ts_run_add(r, name, "%", TS_DIR_NEUTRAL, TS_METRIC_VALUE,
				 100 * cl[j].run / tot, NULL);
	}
	return err;
}

/*
 * TS_FACT_SELECTION: how @b took the benchmark's tasks, by the workload's process tree or by
 * name, and why not by the tree (docs/compare.md, "the benchmark's tasks").
 */
static int set_selection(struct ts_run *r, const struct ts_sched *s, const struct ts_run_bench *b)
{
	int32_t root = ts_wltree_root(ts_sched_wltree(s));
	char buf[160];

	if (b->tree)
		return ts_run_set_fact(r, TS_FACT_SELECTION, "tree");
	if (!root)
		snprintf(buf, sizeof(buf),
			 "name: the recording has no workload command "
			 "(perf record -a alone, or the perf plugin)");
	else
		snprintf(buf, sizeof(buf),
			 "name: the workload's process tree (pid %d) has no task "
			 "named %.16s",
			 (int)root, b->match);
	return ts_run_set_fact(r, TS_FACT_SELECTION, buf);
}

int ts_run_add_task_metrics(struct ts_run *r, const struct ts_analysis *a, const char *match,
			    double ops)
{
	static const char *const cls[TS_WAKE_NR] = { "same_idle", "same_busy", "cross_idle",
						     "cross_busy" };
	const struct ts_sched *s = ts_analysis_sched(a);
	const char *no = "no wakes of the benchmark's tasks";
	struct task_sums t = { 0 };
	struct ts_run_bench b;
	double nc = 0, tot;
	char name[64];
	int err = ts_run_bench_init(&b, a, match);

	err = err ?: set_selection(r, s, &b);
	err = err ?: sum_tasks(s, &b, &t);

	if (!err && !t.ntasks)
		ops = NAN;
	err = err ?: add_per_op(r, &t, ops);
	for (int c = 0; c < TS_WAKE_NR; c++)
		nc += t.cls[c];
	for (int c = 0; c < TS_WAKE_NR && !err; c++) {
		snprintf(name, sizeof(name), "task.wake_class.%s.share", cls[c]);
		err = ts_run_add(r, name, "%", TS_DIR_NEUTRAL, TS_METRIC_VALUE,
				 nc ? 100 * t.cls[c] / nc : NAN, no);
	}
	err = err   ?:
		      ts_run_add(r, "task.wake_delivery.p50", "ns", TS_DIR_LOWER, TS_METRIC_VALUE,
				 t.delivery_h.count ? (double)ts_hist_quantile(&t.delivery_h, 0.5) :
						      NAN,
				 no);
	err = err   ?:
		      ts_run_add(r, "task.supervisors.count", "count", TS_DIR_NEUTRAL,
				 TS_METRIC_VALUE, b.known ? (double)t.supervisors : NAN,
				 "no fork and no switch-out stack recorded: the benchmark's "
				 "supervisors cannot be told from its workers");
	tot = cpu_time(s);
	err = err   ?:
		      ts_run_add(r, "task.other_cpu.share", "%", TS_DIR_NEUTRAL, TS_METRIC_VALUE,
				 tot > 0 && !ts_sched_others_why(s) ? 100 * t.other_run / tot : NAN,
				 ts_sched_others_why(s) ?: "no CPU time seen");
	err = err ?: add_class_shares(r, s, &b, tot);
	err = err ?: ts_run_add_wait_metrics(r, a, &b, ops);
	ts_hist_release(&t.delivery_h);
	ts_run_bench_release(&b);
	return err;
}

#define TOP_SOURCES 5 /* per kind: the largest sources get a metric of their own */

/* Why the run time's split cannot be made, or NULL. */
static const char *irq_why(const struct ts_analysis *a, int kind, char *buf, size_t len)
{
	char why[144];

	if (!ts_analysis_kind_why(a, kind, why, sizeof(why)))
		return NULL;
	snprintf(buf, len, "%s: the run time's interrupt part is not known", why);
	return buf;
}

/* The @TOP_SOURCES largest sources of @part ("hardirq", "softirq", "timer") per operation. */
static int add_top_sources(struct ts_run *r, const struct ts_analysis *a,
			   const struct ts_cpath_irq *q, const char *part, double untraced,
			   double ops)
{
	int best[TOP_SOURCES], nb = 0, err = 0, i, k;
	char name[160], fn[96], pb[64];

	for (i = 0; i < q->nr_src; i++) {
		const struct ts_irq_src *s = ts_irqctx_src(q->ctx, i);

		if (!s || q->src_ns[i] <= 0 ||
		    strcmp(part, s->type == TS_IRQT_SOFT ? "softirq" :
				 s->type == TS_IRQT_HRTIMER || s->type == TS_IRQT_TIMER ?
							   "timer" :
							   "hardirq"))
			continue;
		for (k = nb; k > 0 && q->src_ns[best[k - 1]] < q->src_ns[i]; k--)
			if (k < TOP_SOURCES)
				best[k] = best[k - 1];
		if (k < TOP_SOURCES) {
			best[k] = i;
			nb += nb < TOP_SOURCES;
		}
	}
	for (k = 0; k < nb && !err; k++) {
		const struct ts_irq_src *s = ts_irqctx_src(q->ctx, best[k]);
		const char *n = s->name;

		if (s->type == TS_IRQT_HRTIMER || s->type == TS_IRQT_TIMER)
			n = ts_analysis_fn_name(a, (uint64_t)s->num, fn, sizeof(fn));
		snprintf(name, sizeof(name), "task.path.run.%s.%s.per_op", part,
			 ts_irq_metric_part(n, pb, sizeof(pb)));
		err = ts_run_add(r, name, "ns/op", TS_DIR_LOWER, TS_METRIC_VALUE,
				 q->src_ns[best[k]] / ops,
				 "the benchmark's operation count is unknown");
	}
	if (!err && untraced > 0) {
		snprintf(name, sizeof(name), "task.path.run.%s.untraced.per_op", part);
		err = ts_run_add(r, name, "ns/op", TS_DIR_LOWER, TS_METRIC_VALUE, untraced / ops,
				 "the benchmark's operation count is unknown");
	}
	return err;
}

/*
 * The run state's split: own + hardirq + softirq = run; timers and the tick "of which". Not
 * recorded is null with the reason, never 0.
 */
static int add_run_irq(struct ts_run *r, const struct ts_cpath *p, const struct ts_analysis *a,
		       uint64_t run, double ops)
{
	const char *why_ops = "no task of the benchmark, or its operation count is unknown";
	char b1[192], b2[192], fn[96];
	const char *why = irq_why(a, TS_EV_IRQ_ENTRY, b1, sizeof(b1)) ?:
				  irq_why(a, TS_EV_SOFTIRQ_ENTRY, b1, sizeof(b1));
	const char *twhy = irq_why(a, TS_EV_HRTIMER_EXPIRE_ENTRY, b2, sizeof(b2)), *kwhy;
	double hard, soft, timers = 0, tick = 0;
	struct ts_cpath_irq q;
	int err = 0, i;

	ts_cpath_run_irq(p, &q);
	hard = q.cls[TS_IRQC_HARD];
	soft = q.cls[TS_IRQC_SOFT];
	for (i = 0; i < q.nr_src; i++) {
		const struct ts_irq_src *s = ts_irqctx_src(q.ctx, i);

		if (!s || (s->type != TS_IRQT_HRTIMER && s->type != TS_IRQT_TIMER))
			continue;
		timers += q.src_ns[i];
		if (s->type == TS_IRQT_HRTIMER &&
		    ts_idle_is_tick(ts_analysis_fn_name(a, (uint64_t)s->num, fn, sizeof(fn))))
			tick += q.src_ns[i];
	}
	if (why)
		ops = NAN;
	else if (isnan(ops))
		why = why_ops;
#define RUN_IRQ(n, v, w)                                                                  \
	(err = err   ?:                                                                   \
		       ts_run_add(r, "task.path.run." n ".per_op", "ns/op", TS_DIR_LOWER, \
				  TS_METRIC_VALUE, (v) / ops, w))
	RUN_IRQ("own", (double)run - hard - soft, why);
	RUN_IRQ("hardirq", hard, why);
	RUN_IRQ("softirq", soft, why);
	if (!why && twhy)
		ops = NAN;
	RUN_IRQ("timers", timers, why ?: twhy);
	/* without the run's kallsyms no expiry is the tick's: unmeasured, not 0 (a run of 0) */
	kwhy = ts_analysis_has_symbols(a) ?
		       NULL :
		       "no symbols: the tick cannot be told from other hrtimers";
	RUN_IRQ("tick", kwhy ? NAN : tick, why ?: twhy ?: kwhy);
#undef RUN_IRQ
	if (why || twhy)
		return err;
	err = err ?: add_top_sources(r, a, &q, "hardirq", q.untraced[TS_IRQC_HARD], ops);
	err = err ?: add_top_sources(r, a, &q, "softirq", q.untraced[TS_IRQC_SOFT], ops);
	err = err ?: add_top_sources(r, a, &q, "timer", 0, ops);
	return err;
}

int ts_run_add_path_metrics(struct ts_run *r, const struct ts_cpath *p, const struct ts_analysis *a,
			    double ops)
{
	static const char *const names[TS_CP_NR] = { "task.path.run.per_op",
						     "task.path.wake_delivery.per_op",
						     "task.path.sched_delay.per_op",
						     "task.path.none.per_op" };
	uint64_t ns[TS_CP_NR];
	int err = 0;

	if (!ts_cpath_totals(p, ns))
		ops = NAN;
	for (int s = 0; s < TS_CP_NR && !err; s++)
		err = ts_run_add(r, names[s], "ns/op", TS_DIR_LOWER, TS_METRIC_VALUE, ns[s] / ops,
				 "no task of the benchmark, or its operation count is unknown");
	return err ?: add_run_irq(r, p, a, ns[TS_CP_RUN], ops);
}

struct copy_ctx {
	struct ts_run *r;
	double ops;
};

/* Every metric; off-CPU stacks also per operation of the benchmark, for the explanation. */
static int copy_metric(void *ctx, const struct ts_metric *m)
{
	static const char pre[] = "sched.offcpu_stack.";
	struct copy_ctx *cc = ctx;
	size_t n = strlen(m->name);
	char *name;
	int err = ts_run_add(cc->r, m->name, m->unit, m->dir, m->kind, m->value, m->why_null);

	if (err || strncmp(m->name, pre, sizeof(pre) - 1) || n < sizeof(pre) + 4 ||
	    strcmp(m->name + n - 4, ".sum") || !strcmp(m->name + n - 6, ".S.sum") ||
	    !strcmp(m->name + n - 6, ".D.sum"))
		return err;
	if (asprintf(&name, "offcpu_stack_per_op.%.*s", (int)(n - sizeof(pre) + 1 - 4),
		     m->name + sizeof(pre) - 1) < 0)
		return -ENOMEM;
	err = ts_run_add(cc->r, name, "ns/op", TS_DIR_LOWER, TS_METRIC_VALUE, m->value / cc->ops,
			 "the benchmark's operation count is unknown");
	free(name);
	return err;
}

int ts_run_add_analysis(struct ts_run *r, const struct ts_analysis *a, const struct ts_cpath *path,
			const char *comm, double ops)
{
	uint64_t lost, recs;
	int err = ts_analysis_metrics(a, copy_metric, &(struct copy_ctx){ r, ops });

	if (!err && comm)
		err = ts_run_add_task_metrics(r, a, comm, ops);
	if (!err && comm && path)
		err = ts_run_add_path_metrics(r, path, a, ops);
	ts_analysis_lost(a, &lost, &recs);
	r->lost = (double)lost;
	for (int s = 0; s < TS_SEC_NR; s++)
		r->section[s] = 1 + ts_analysis_section(a, s)->presence;
	return err;
}
