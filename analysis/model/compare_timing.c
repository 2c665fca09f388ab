// SPDX-License-Identifier: GPL-2.0-only
/*
 * The benchmark's own timing against the trace's: whether the benchmark's result moved while
 * the time the trace saw of its tasks did not move with it. The benchmark times its loop with
 * its own clock (CLOCK_MONOTONIC); the trace times its tasks' time line with perf's
 * (sched_clock). Per run, the timed round trip over the trace's window per operation; the
 * level of that ratio is no evidence (a run holds its start-up and warm-up in the window, not
 * in the timed loop: 0.4-1.0 per run under TCG), its change between A's runs and B's is, by
 * the U test compare gives every metric. The headline says it first (compare_headline.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_priv.h"

/* Of the result's factor (logs), the most the window may move and not have moved with it. */
#define WINDOW_PART 0.5

static const char *const path[] = { "task.path.wake_delivery.per_op",
				    "task.path.sched_delay.per_op", "task.path.run.per_op",
				    "task.path.none.per_op" };

/* Run @run of variant @k: its result and window (µs per operation); 0 when either is unknown. */
static int run_pair(const struct ts_cmp *c, const struct ts_cmp_row *const *r, int k, int run,
		    double *res, double *win)
{
	double w = 0;

	for (int i = 0; i < 4; i++)
		w += r[i]->cell[k].values[run];
	*res = c->result->cell[k].values[run];
	*win = w * 1e-3;
	return !isnan(*res) && !isnan(*win) && *res > 0 && *win > 0;
}

static double median_of(const double *x, int n)
{
	struct ts_summary s = { .median = NAN };

	return n && !ts_stats_summary(x, n, 0, &s) ? s.median : NAN;
}

/* Whether x and y move the same way (both above 1, or both below). */
static int same_way(double x, double y)
{
	return (x > 1 && y > 1) || (x < 1 && y < 1);
}

void ts_cmp_timing(const struct ts_cmp *c, int v, struct ts_cmp_timing *t)
{
	const struct ts_cmp_row *r[4];
	const int k[2] = { 0, v };
	double *x[2][3] = { { NULL } }; /* per side: results, windows, ratios */
	int n[2] = { 0, 0 };
	struct ts_test tr, tw;

	*t = (struct ts_cmp_timing){
		TS_TIMING_UNTESTED, NULL, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0, 0
	};
	if (!c->result || !c->dec[v].kind || strcmp(c->dec[v].kind, "round trip")) {
		t->why =
			c->result && c->dec[v].kind ?
				"a throughput result: no timed round trip to hold against the "
				"trace's window per operation (stress-ng's rate is its operations "
				"over its own run time, which the trace's window of its workers, in "
				"parallel, does not measure)" :
				"no decomposition of the result";
		return;
	}
	for (int i = 0; i < 4; i++)
		if (!(r[i] = ts_cmp_find(c, path[i]))) {
			t->why = "the runs hold no time line of the benchmark's tasks";
			return;
		}
	for (int s = 0; s < 2; s++) {
		int nr = c->var[k[s]].nr_runs;

		for (int j = 0; j < 3; j++)
			if (!(x[s][j] = calloc(nr ? nr : 1, sizeof(double)))) {
				t->why = "no memory for the runs' ratios";
				goto out;
			}
		for (int run = 0; run < nr; run++) {
			double res, win;

			if (!run_pair(c, r, k[s], run, &res, &win))
				continue;
			x[s][0][n[s]] = res;
			x[s][1][n[s]] = win;
			x[s][2][n[s]] = res / win;
			n[s]++;
		}
	}
	t->nr_a = n[0];
	t->nr_b = n[1];
	t->res_a = median_of(x[0][0], n[0]);
	t->res_b = median_of(x[1][0], n[1]);
	t->win_a = median_of(x[0][1], n[0]);
	t->win_b = median_of(x[1][1], n[1]);
	t->ratio_a = median_of(x[0][2], n[0]);
	t->ratio_b = median_of(x[1][2], n[1]);
	if (!n[0] || !n[1] || ts_stats_mwu(x[0][2], n[0], x[1][2], n[1], 0.95, &tr) ||
	    ts_stats_mwu(x[0][1], n[0], x[1][1], n[1], 0.95, &tw)) {
		t->why = "no run of a side has both the result and the trace's window";
		goto out;
	}
	t->p = tr.p;
	t->min_p = tr.min_p;
	t->win_p = tw.p;
	if (tr.min_p >= c->o.alpha) {
		t->why = "too few runs with both figures for the U test to reach alpha";
		goto out;
	}
	t->verdict = TS_TIMING_NONE;
	if (!(tr.p < c->o.alpha))
		t->why = "the ratio of the timed round trip to the traced window did not change "
			 "beyond the runs' spread";
	else if (tw.p < c->o.alpha)
		t->why = "the traced window changed too: the trace moved with the result";
	/*
	 * The ratio moved; which of its two figures moved it: start-up outside the timed loop
	 * moves the window, a clock the result. The window did not move with the result when it
	 * moved by less than half the result's factor (rcu_nocb_poll's window 1.95x within its
	 * spread as the result moved 2.2x: the trace moved with it)
	 */
	else if (!same_way(t->res_b / t->res_a, t->ratio_b / t->ratio_a) ||
		 !(fabs(log(t->res_b / t->res_a)) > fabs(log(t->win_b / t->win_a))))
		t->why = "the ratio changed, but the trace's window moved more than the result: "
			 "time outside the timed loop (start-up, warm-up), not the result's";
	else if (!(fabs(log(t->win_b / t->win_a)) < WINDOW_PART * fabs(log(t->res_b / t->res_a))))
		t->why = "the ratio changed, but the trace's window moved with the result, by half "
			 "its factor or more, though within the runs' spread";
	else {
		t->verdict = TS_TIMING_DISAGREE;
		t->why = NULL;
	}
out:
	for (int s = 0; s < 2; s++)
		for (int j = 0; j < 3; j++)
			free(x[s][j]);
}
