// SPDX-License-Identifier: GPL-2.0-only
/*
 * ts_analysis_metrics() over the current per-section accessors: a stand-in for the section
 * table's metric lists (architecture issue) so that compare can start; the section table's
 * version replaces this file. Function-level metrics need symbols and are left to it.
 */
#include <math.h>
#include <stdio.h>

#include "tickscope/analysis.h"
#include "tickscope/metric.h"

struct emitter {
	const struct ts_analysis *a;
	ts_metric_fn emit;
	void *ctx;
	double secs; /* analysed time range */
	int ret;
};

static void put(struct emitter *e, const char *sec, const char *name, const char *unit,
		enum ts_metric_dir dir, enum ts_metric_kind kind, double v, const char *why)
{
	struct ts_metric m = { sec, name, unit, dir, kind, v, isnan(v) ? why : NULL };

	if (!e->ret)
		e->ret = e->emit(e->ctx, &m);
}

static double per_s(const struct emitter *e, uint64_t n)
{
	return e->secs > 0 ? n / e->secs : NAN;
}

static int present(const struct emitter *e, enum ts_section s)
{
	return ts_analysis_section(e->a, s)->presence != TS_NOT_RECORDED;
}

static void sched_hist(struct emitter *e, const char *what, const struct ts_hist *h, int ok)
{
	char name[96];

	snprintf(name, sizeof(name), "sched.%s.p50", what);
	put(e, "sched", name, "ns", TS_DIR_LOWER, TS_METRIC_VALUE,
	    ok && h->count ? (double)ts_hist_quantile(h, 0.5) : NAN, "no such periods");
	snprintf(name, sizeof(name), "sched.%s.mean", what);
	put(e, "sched", name, "ns", TS_DIR_LOWER, TS_METRIC_VALUE,
	    ok && h->count ? (double)h->sum / h->count : NAN, "no such periods");
}

static void sched_metrics(struct emitter *e)
{
	static const char *const cls[TS_WAKE_NR] = { "same_idle", "same_busy", "cross_idle",
						     "cross_busy" };
	const struct ts_sched_totals *t = ts_sched_totals(ts_analysis_sched(e->a));
	int ok = present(e, TS_SEC_SCHED);
	uint64_t nr = 0;
	char name[96];

	for (int c = 0; c < TS_WAKE_NR; c++)
		nr += t->wake_class[c];
	for (int c = 0; c < TS_WAKE_NR; c++) {
		snprintf(name, sizeof(name), "sched.wake_class.%s.share", cls[c]);
		put(e, "sched", name, "%", TS_DIR_NEUTRAL, TS_METRIC_VALUE,
		    ok && nr ? 100.0 * t->wake_class[c] / nr : NAN, "no classified wakes");
	}
	put(e, "sched", "sched.wakeups.per_s", "1/s", TS_DIR_NEUTRAL, TS_METRIC_RATE,
	    ok ? per_s(e, t->nr_wakeups) : NAN, "sched events not recorded");
	put(e, "sched", "sched.migrations.per_s", "1/s", TS_DIR_LOWER, TS_METRIC_RATE,
	    ok ? per_s(e, t->nr_migrations) : NAN, "sched events not recorded");
	sched_hist(e, "wake_delivery", &t->delivery, ok);
	sched_hist(e, "wakeup_latency", &t->wakelat, ok);
	sched_hist(e, "sched_delay_rq", &t->delay, ok);
	sched_hist(e, "run", &t->run, ok);
}

static void idle_metrics(struct emitter *e)
{
	static const char *const cause[TS_EXIT_NR] = { "hrtimer", "timer",    "wakeup", "switch",
						       "ipi",	  "untraced", "other" };
	const struct ts_idle_totals *t = ts_idle_totals(ts_analysis_idle(e->a));
	int ok = present(e, TS_SEC_IDLE);
	char name[96];

	for (int c = 0; c < TS_EXIT_NR; c++) {
		snprintf(name, sizeof(name), "idle.exits.%s.per_s", cause[c]);
		put(e, "idle", name, "1/s", TS_DIR_LOWER, TS_METRIC_RATE,
		    ok && ts_analysis_exit_traced(e->a, c) ? per_s(e, t->exits[c]) : NAN,
		    "the events behind this cause were not recorded");
	}
	put(e, "idle", "idle.tick_stop.ok.per_s", "1/s", TS_DIR_NEUTRAL, TS_METRIC_RATE,
	    ok ? per_s(e, t->tick_stop_ok) : NAN, "timer:tick_stop not recorded");
	put(e, "idle", "idle.tick_stop.fail.per_s", "1/s", TS_DIR_LOWER, TS_METRIC_RATE,
	    ok ? per_s(e, t->tick_stop_fail) : NAN, "timer:tick_stop not recorded");
}

static void other_metrics(struct emitter *e)
{
	const struct ts_timer_totals *tt = ts_timer_totals(ts_analysis_timer(e->a));
	const struct ts_wq_totals *wt = ts_wq_totals(ts_analysis_wq(e->a));
	const struct ts_rcu_totals *rt = ts_rcu_totals(ts_analysis_rcu(e->a));
	const struct ts_shrink_totals *st = ts_shrinker_totals(ts_analysis_shrinker(e->a));
	int tok = present(e, TS_SEC_TIMER), wok = present(e, TS_SEC_WQ);
	int rok = present(e, TS_SEC_RCU), sok = present(e, TS_SEC_SHRINKER);

	put(e, "timer", "timer.expire.timer.per_s", "1/s", TS_DIR_LOWER, TS_METRIC_RATE,
	    tok ? per_s(e, tt->nr_expire[0]) : NAN, "timer events not recorded");
	put(e, "timer", "timer.expire.hrtimer.per_s", "1/s", TS_DIR_LOWER, TS_METRIC_RATE,
	    tok ? per_s(e, tt->nr_expire[1]) : NAN, "timer events not recorded");
	put(e, "workqueue", "workqueue.work.per_s", "1/s", TS_DIR_LOWER, TS_METRIC_RATE,
	    wok ? per_s(e, wt->nr_exec) : NAN, "workqueue events not recorded");
	put(e, "rcu", "rcu.gp_events.per_s", "1/s", TS_DIR_NEUTRAL, TS_METRIC_RATE,
	    rok ? per_s(e, rt->nr_gp_events) : NAN, "rcu events not recorded");
	put(e, "shrinker", "shrinker.calls.per_s", "1/s", TS_DIR_NEUTRAL, TS_METRIC_RATE,
	    sok ? per_s(e, st->nr) : NAN, "vmscan shrink events not recorded");
	put(e, "shrinker", "shrinker.duration.mean", "ns", TS_DIR_LOWER, TS_METRIC_VALUE,
	    sok && st->duration.count ? (double)st->duration.sum / st->duration.count : NAN,
	    "no shrinker calls");
}

int ts_analysis_metrics(const struct ts_analysis *a, ts_metric_fn emit, void *ctx)
{
	struct emitter e = { a, emit, ctx, 0, 0 };
	uint64_t first, last;

	ts_analysis_range(a, &first, &last);
	e.secs = last > first ? (last - first) / 1e9 : 0;
	sched_metrics(&e);
	idle_metrics(&e);
	other_metrics(&e);
	return e.ret;
}
