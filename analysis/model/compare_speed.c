// SPDX-License-Identifier: GPL-2.0-only
/*
 * Whether the CPU runs the same work slower, or the benchmark's own code grew: the time per
 * call of the fixed kernel work both kernels do (the tick's handler, each hard IRQ and softirq,
 * timer callbacks, work items: the trace's per-call p50s) against the benchmark's own run time
 * per operation (outside interrupts). A slower CPU (its clock, an emulator, a cost on every
 * kernel entry) stretches both alike; a benchmark whose own code or system calls grew leaves
 * the kernel's fixed work per call where it was. The headline says which (compare_headline.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_chain.h"
#include "tickscope/classify.h"

/*
 * The benchmark's own time is a part of its run time, the interrupts inside it the rest. Own
 * code that grows lengthens the run time by what it grew; a run time that grew by less than
 * this part of the own time's growth (or shrank) lost the rest from its interrupts: the own
 * part took their time (an emulated CPU's run time is the host's to give).
 */
#define RUN_FOLLOWS 0.5
/* Fewer calls than this in a run leave its p50 too coarse to weigh. */
#define MIN_CALLS 20
/* A per-call cost or an own time that moved by this factor or more moved; under NEAR it stayed. */
#define FACTOR 1.5
#define NEAR 1.25

/*
 * The per-call costs: "<pre><name><suf>" with its calls a run in "<pre><name><count>", and its
 * kind. Interrupts (the tick's handler, hard IRQs: the timer interrupt holds the tick) are one
 * kind, so that one path seen twice does not count as two that agree.
 */
static const struct {
	const char *pre, *suf, *count, *words;
	enum ts_cmp_speed_kind kind;
} costs[] = {
	{ "irq.tick", ".p50", ".count", "the tick's handler", TS_SPEED_IRQ },
	{ "irq.hardirq.", ".p50", ".count", "hard IRQ %s", TS_SPEED_IRQ },
	{ "irq.softirq.", ".p50", ".count", "softirq %s", TS_SPEED_SOFTIRQ },
	{ "timer.expire.", ".handler.p50", ".handler.count", "timer %s", TS_SPEED_TIMER },
	{ "workqueue.work.", ".duration.p50", ".duration.count", "work %s", TS_SPEED_WORK },
};

/*
 * Whether @r is a per-call cost: its entry in costs[] (its index), the name between @pre and
 * @suf into @name; -1 else. The tick's timer function is the tick's handler, said once.
 */
static int cost_of(const struct ts_cmp_row *r, char *name, size_t n)
{
	size_t len = strlen(r->name);

	for (size_t i = 0; i < sizeof(costs) / sizeof(costs[0]); i++) {
		size_t p = strlen(costs[i].pre), q = strlen(costs[i].suf);

		if (len < p + q || strncmp(r->name, costs[i].pre, p) ||
		    strcmp(r->name + len - q, costs[i].suf))
			continue;
		snprintf(name, n, "%.*s", (int)(len - p - q), r->name + p);
		if (i && (!*name || strchr(name, '.') || strchr(name, '#')))
			continue;
		if (i == 0 && *name)
			continue;
		if (costs[i].kind == TS_SPEED_TIMER && ts_class_is_tick(name))
			return -1;
		return (int)i;
	}
	return -1;
}

/*
 * Whether cost row @r (entry @i, name @name) was measured in every run of both sides from
 * MIN_CALLS calls or more a run.
 */
static int measured(const struct ts_cmp *c, int v, const struct ts_cmp_row *r, int i,
		    const char *name)
{
	const struct ts_cmp_row *n;
	const int k[2] = { 0, v };
	char cnt[256];

	snprintf(cnt, sizeof(cnt), "%s%s%s", costs[i].pre, name, costs[i].count);
	n = ts_cmp_find(c, cnt);
	if (!n)
		return 0;
	for (int s = 0; s < 2; s++) {
		if (!r->cell[k[s]].values || !n->cell[k[s]].values || c->var[k[s]].nr_runs < 1)
			return 0;
		for (int j = 0; j < c->var[k[s]].nr_runs; j++)
			if (!(r->cell[k[s]].values[j] > 0) ||
			    !(n->cell[k[s]].values[j] >= MIN_CALLS))
				return 0;
	}
	return 1;
}

/* The calls a run of cost @e (of @name) in the baseline (the median of its runs). */
static double calls_a(const struct ts_cmp *c, int e, const char *name)
{
	const struct ts_cmp_row *k;
	char cnt[256];

	snprintf(cnt, sizeof(cnt), "%s%s%s", costs[e].pre, name, costs[e].count);
	k = ts_cmp_find(c, cnt);
	return k ? k->cell[0].s.median : 0;
}

/* Whether every run of side @v is beyond every run of the baseline, the way of @up. */
static int apart(const struct ts_cmp_row *r, int v, int up)
{
	const struct ts_cmp_cell *a = &r->cell[0], *b = &r->cell[v];

	return up ? b->s.min > a->s.max : b->s.max < a->s.min;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

/* The row of the benchmark's own run time, when it is one of @v's mechanisms; else NULL. */
static const struct ts_cmp_row *own_mech(const struct ts_cmp *c, int v)
{
	const struct ts_cmp_headline *h = &c->head[v];

	for (int i = 0; i < h->nr_mech; i++)
		if (!strcmp(h->mech[i].row->name, "task.path.run.own.per_op"))
			return h->mech[i].row;
	return NULL;
}

void ts_cmp_speed(const struct ts_cmp *c, int v, struct ts_cmp_speed *sp)
{
	const struct ts_cmp_row *own = own_mech(c, v);
	double lr[TS_CMP_SPEED_MAX_ALL], calls[TS_CMP_SPEED_MAX_ALL];
	const struct ts_cmp_row *rows[TS_CMP_SPEED_MAX_ALL];
	int idx[TS_CMP_SPEED_MAX_ALL], n = 0, kinds = 0, up;
	char name[200];

	memset(sp, 0, sizeof(*sp));
	sp->ratio = sp->own_ratio = sp->run_a = sp->run_b = NAN;
	if (!own || !(own->cell[0].s.median > 0) || !(own->cell[v].s.median > 0))
		return;
	sp->own_a = own->cell[0].s.median;
	sp->own_b = own->cell[v].s.median;
	sp->own_ratio = sp->own_b / sp->own_a;
	for (int i = 0; i < c->nr_rows && n < TS_CMP_SPEED_MAX_ALL; i++) {
		const struct ts_cmp_row *r = &c->rows[i];
		int e = cost_of(r, name, sizeof(name));

		if (e < 0 || !measured(c, v, r, e, name))
			continue;
		rows[n] = r;
		idx[n] = e;
		lr[n] = log(r->cell[v].s.median / r->cell[0].s.median);
		calls[n] = calls_a(c, e, name);
		n++;
	}
	sp->nr = n;
	if (!n)
		return;
	{
		double s[TS_CMP_SPEED_MAX_ALL];

		memcpy(s, lr, sizeof(double) * n);
		qsort(s, n, sizeof(double), cmp_double);
		sp->ratio = exp(n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2);
	}
	up = sp->ratio > 1;
	/* which kinds agree: a cost every run of which moved beyond the other side's, by FACTOR */
	for (int i = 0; i < n; i++) {
		int agrees = fabs(lr[i]) >= log(FACTOR) && (lr[i] > 0) == up &&
			     apart(rows[i], v, up);

		sp->nr_apart += agrees;
		if (agrees)
			kinds |= 1 << costs[idx[i]].kind;
	}
	for (int k = 0; k < TS_SPEED_NR_KIND; k++)
		sp->nr_kinds += !!(kinds & (1 << k));
	if (n >= 2 && fabs(log(sp->ratio)) >= log(FACTOR) && sp->nr_kinds >= 2 &&
	    (sp->own_ratio > 1) == up && fabs(log(sp->own_ratio)) >= log(NEAR))
		sp->verdict = TS_SPEED_CPU;
	else if (n >= 2 && fabs(log(sp->ratio)) < log(NEAR) &&
		 fabs(log(sp->own_ratio)) >= log(FACTOR) &&
		 fabs(log(sp->own_ratio)) - fabs(log(sp->ratio)) >= log(FACTOR))
		sp->verdict = TS_SPEED_OWN;
	if (sp->verdict == TS_SPEED_OWN) {
		const struct ts_cmp_row *run = ts_cmp_find(c, "task.path.run.per_op");
		double d_own = sp->own_b - sp->own_a;

		if (run && run->cell[0].s.median > 0 && run->cell[v].s.median > 0) {
			sp->run_a = run->cell[0].s.median;
			sp->run_b = run->cell[v].s.median;
			if ((sp->run_b - sp->run_a) / d_own < RUN_FOLLOWS)
				sp->verdict = TS_SPEED_RESPLIT;
		}
	}
	if (!sp->verdict)
		return;
	/*
	 * The costs to show: in the verdict's favour first (those that agree, for a slower CPU),
	 * then by their calls a run, the most first
	 */
	for (int k = 0; k < TS_CMP_SPEED_MAX && k < n; k++) {
		int best = -1;

		for (int i = 0; i < n; i++) {
			int ai, ab;

			if (!rows[i])
				continue;
			ai = sp->verdict == TS_SPEED_CPU && (lr[i] > 0) == up &&
			     apart(rows[i], v, up) && fabs(lr[i]) >= log(FACTOR);
			ab = best >= 0 && sp->verdict == TS_SPEED_CPU && (lr[best] > 0) == up &&
			     apart(rows[best], v, up) && fabs(lr[best]) >= log(FACTOR);
			if (best < 0 || ai > ab || (ai == ab && calls[i] > calls[best]))
				best = i;
		}
		cost_of(rows[best], name, sizeof(name));
		snprintf(sp->cost[k].words, sizeof(sp->cost[k].words), costs[idx[best]].words,
			 name);
		sp->cost[k].row = rows[best];
		sp->cost[k].a = rows[best]->cell[0].s.median;
		sp->cost[k].b = rows[best]->cell[v].s.median;
		sp->nr_cost++;
		rows[best] = NULL;
	}
}
